"""A field's value goes back only if the user set it or the server's default stands as shown:
no path through a widget turns "not set" into a value. An optional date or date-time field with
no default, taken through the calendar opened and dismissed (F4, Alt+Down, its arrow; Escape or
a click elsewhere), a click in its text, a stray letter, Shift, Delete, or focus in and out, is
still left out of the content. Exact JSON compared."""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QStyle

from tests.ui.harness import Tray


def _optional(fmt):
    return {
        "message": "When, if at all?",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "when": {"type": "string", "format": fmt, "title": "When"},
                "note": {"type": "string", "title": "Note"},
            },
        },
    }


def _open(aio, fmt):
    tray = Tray(aio)
    channel, dialog = tray.ask(_optional(fmt), [])
    tray.arm(dialog)
    return tray, channel, dialog, dialog.rows["when"].adapter.edit


def _submit(tray, channel, dialog):
    from elicit_tray.ui.scripted import perform

    tray.arm(dialog)  # the dialog is the active window again (offscreen, a popup took that)
    perform(dialog, [{"do": "submit"}])
    tray.settle()
    return tray.reply(channel)


NOTHING = {"jsonrpc": "2.0", "id": 1, "result": {"action": "accept", "content": {}}}


def _arrow_point(edit) -> QPoint:
    option = edit._arrow_option()
    rect = edit.style().subControlRect(
        QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxArrow, edit
    )
    return rect.center()


def _open_with_f4(edit):
    QTest.keyClick(edit, Qt.Key.Key_F4)


def _open_with_alt_down(edit):
    QTest.keyClick(edit, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)


def _open_with_the_arrow(edit):
    QTest.mouseClick(edit, Qt.MouseButton.LeftButton, pos=_arrow_point(edit))


OPENERS = {"F4": _open_with_f4, "Alt+Down": _open_with_alt_down, "arrow": _open_with_the_arrow}


@pytest.mark.parametrize("fmt", ["date", "date-time"])
@pytest.mark.parametrize("opener", sorted(OPENERS))
@pytest.mark.parametrize("dismiss", ["Escape", "hide"])
def test_a_calendar_opened_and_dismissed_chooses_no_date(aio, fmt, opener, dismiss):
    tray, channel, dialog, edit = _open(aio, fmt)
    edit.setFocus()
    OPENERS[opener](edit)
    calendar = edit.calendarWidget()
    assert calendar.isVisible()
    assert calendar.selectedDate() == dt.date.today()  # it opens on today, for choosing
    if dismiss == "Escape":
        QTest.keyClick(calendar.focusWidget() or calendar, Qt.Key.Key_Escape)
    else:  # a click elsewhere closes the popup
        calendar.window().hide()
    tray.settle()
    assert not calendar.isVisible()
    assert dialog.rows["when"].adapter.is_empty()
    assert edit.text() == "Not set"
    assert _submit(tray, channel, dialog) == NOTHING


@pytest.mark.parametrize("fmt", ["date", "date-time"])
def test_a_date_picked_in_the_calendar_stands(aio, fmt):
    tray, channel, dialog, edit = _open(aio, fmt)
    edit.setFocus()
    _open_with_f4(edit)
    calendar = edit.calendarWidget()
    assert calendar.isVisible()
    target = calendar.focusWidget() or calendar
    QTest.keyClick(target, Qt.Key.Key_Down)  # a week on
    QTest.keyClick(target, Qt.Key.Key_Return)
    tray.settle()
    week_on = dt.date.today() + dt.timedelta(days=7)
    reply = _submit(tray, channel, dialog)
    when = reply["result"]["content"]["when"]
    assert when[:10] == week_on.isoformat()
    assert reply == {"jsonrpc": "2.0", "id": 1, "result": {"action": "accept", "content": {"when": when}}}


STRAY = {
    "a letter": lambda edit: QTest.keyClick(edit, Qt.Key.Key_X),
    "Shift": lambda edit: QTest.keyClick(edit, Qt.Key.Key_Shift),
    "Delete": lambda edit: QTest.keyClick(edit, Qt.Key.Key_Delete),
    "Backspace": lambda edit: QTest.keyClick(edit, Qt.Key.Key_Backspace),
    "Left, Right, Home, End": lambda edit: [
        QTest.keyClick(edit, key) for key in (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Home, Qt.Key.Key_End)
    ],
    "a click in the text": lambda edit: QTest.mouseClick(
        edit, Qt.MouseButton.LeftButton, pos=QPoint(6, edit.height() // 2)
    ),
    "Tab away": lambda edit: QTest.keyClick(edit, Qt.Key.Key_Tab),
    "Ctrl+A": lambda edit: QTest.keyClick(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier),
}


@pytest.mark.parametrize("fmt", ["date", "date-time"])
@pytest.mark.parametrize("stray", sorted(STRAY))
def test_keys_and_clicks_that_choose_nothing_leave_the_field_not_set(aio, fmt, stray):
    tray, channel, dialog, edit = _open(aio, fmt)
    edit.setFocus()
    STRAY[stray](edit)
    tray.settle()
    assert dialog.rows["when"].adapter.is_empty()
    assert edit.text() in ("Not set", "")  # Backspace and Delete clear the "Not set" text itself
    assert _submit(tray, channel, dialog) == NOTHING


@pytest.mark.parametrize("fmt", ["date", "date-time"])
def test_a_digit_or_a_step_starts_from_now_and_that_value_is_sent_as_shown(aio, fmt):
    tray, channel, dialog, edit = _open(aio, fmt)
    edit.setFocus()
    QTest.keyClick(edit, Qt.Key.Key_Up)  # a step: the year after this one, today
    tray.settle()
    shown = edit.text()
    assert shown != "Not set"
    reply = _submit(tray, channel, dialog)
    when = reply["result"]["content"]["when"]
    assert when.startswith(shown[:10])
    assert int(when[:4]) == dt.date.today().year + 1


@pytest.mark.parametrize("fmt", ["date", "date-time"])
def test_clear_after_a_pick_leaves_the_field_out(aio, fmt):
    tray, channel, dialog, edit = _open(aio, fmt)
    edit.setFocus()
    QTest.keyClicks(edit, "2027")
    adapter = dialog.rows["when"].adapter
    QTest.mouseClick(adapter.clear_button, Qt.MouseButton.LeftButton)
    tray.settle()
    assert edit.text() == "Not set"
    assert _submit(tray, channel, dialog) == NOTHING
