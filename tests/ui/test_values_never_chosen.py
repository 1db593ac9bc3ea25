"""A field's value goes back only if the user set it or the server's default stands as shown:
no path through a widget turns "not set" into a value (README "What a form sends"). An optional
date or date-time field with no default, taken through the calendar opened and dismissed (F4,
Alt+Down, its arrow; Escape or a click elsewhere), a click in its text, a stray letter, Shift,
Delete, focus in and out, the wheel while another field has the focus, or a date typed and then
emptied, is still left out of the content. So is every other kind: a multi-select or a checkbox
toggled and toggled back, a number typed and deleted, Yes and back to Not set, a drop-down
list opened and dismissed or wheeled over in passing. Exact JSON compared; the property over
every row of the registry is tests/ui/test_values_property.py."""

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


# -- every other kind: the content follows the look, never the way there ---------------------
def _form(prop, required=False):
    return {
        "message": "Anything?",
        "requestedSchema": {
            "type": "object",
            "properties": {"f": {"title": "F", **prop}, "note": {"type": "string", "title": "Note"}},
            "required": ["f"] if required else [],
        },
    }


def _ask(aio, prop, required=False):
    tray = Tray(aio)
    channel, dialog = tray.ask(_form(prop, required), [])
    tray.arm(dialog)
    return tray, channel, dialog, dialog.rows["f"].adapter


def _content(reply):
    return reply["result"]["content"]


COLOURS = {"type": "array", "items": {"type": "string", "enum": ["red", "green", "blue"]}}


def test_a_multi_select_toggled_on_and_off_again_is_not_set(aio):
    tray, channel, dialog, adapter = _ask(aio, COLOURS)
    for box in (adapter.boxes[1], adapter.boxes[1], adapter.boxes[2], adapter.boxes[2]):
        box.setFocus()
        QTest.keyClick(box, Qt.Key.Key_Space)
    assert [b.isChecked() for b in adapter.boxes] == [False, False, False]
    assert _submit(tray, channel, dialog) == NOTHING


def test_a_multi_select_default_toggled_back_is_the_default_and_none_checked_is_the_empty_answer(aio):
    prop = {**COLOURS, "default": ["blue"]}
    tray, channel, dialog, adapter = _ask(aio, prop)
    for _ in range(2):
        adapter.boxes[0].setFocus()
        QTest.keyClick(adapter.boxes[0], Qt.Key.Key_Space)
    assert _content(_submit(tray, channel, dialog)) == {"f": ["blue"]}
    tray, channel, dialog, adapter = _ask(aio, prop)
    adapter.boxes[2].setFocus()
    QTest.keyClick(adapter.boxes[2], Qt.Key.Key_Space)  # the user takes the default away
    assert _content(_submit(tray, channel, dialog)) == {"f": []}


def test_a_checkbox_serving_an_optional_boolean_sends_nothing_unchecked_however_often_toggled(aio):
    from elicit_tray.ui.registry import registry
    from elicit_tray.ui.widgets import BooleanField

    with registry.override("tristate", None):  # the plain checkbox row then serves it
        tray, channel, dialog, adapter = _ask(aio, {"type": "boolean"})
        assert type(adapter) is BooleanField
        adapter.box.setFocus()
        QTest.keyClick(adapter.box, Qt.Key.Key_Space)
        QTest.keyClick(adapter.box, Qt.Key.Key_Space)
        assert _submit(tray, channel, dialog) == NOTHING


@pytest.mark.parametrize(
    ("prop", "required", "sent"),
    [
        ({"type": "boolean"}, True, False),  # required: unchecked is the answer false
        ({"type": "boolean", "default": True}, False, False),  # the default taken away
    ],
)
def test_an_unchecked_box_sends_false_when_unchecked_is_an_answer(aio, prop, required, sent):
    tray, channel, dialog, adapter = _ask(aio, prop, required)
    adapter.box.setFocus()
    if prop.get("default"):
        QTest.keyClick(adapter.box, Qt.Key.Key_Space)  # off
    else:
        QTest.keyClick(adapter.box, Qt.Key.Key_Space)
        QTest.keyClick(adapter.box, Qt.Key.Key_Space)
    assert _content(_submit(tray, channel, dialog)) == {"f": sent}


def test_yes_then_not_set_again_sends_nothing_and_no_sends_false(aio):
    tray, channel, dialog, adapter = _ask(aio, {"type": "boolean"})
    not_set, yes, no = (button for button, _ in adapter.states)
    not_set.setFocus()
    QTest.keyClick(not_set, Qt.Key.Key_Right)  # arrows move the check: Yes
    QTest.keyClick(yes, Qt.Key.Key_Left)  # and back: Not set
    assert not_set.isChecked()
    assert _submit(tray, channel, dialog) == NOTHING
    tray, channel, dialog, adapter = _ask(aio, {"type": "boolean"})
    not_set, yes, no = (button for button, _ in adapter.states)
    QTest.mouseClick(no, Qt.MouseButton.LeftButton, pos=QPoint(8, 8))
    assert _content(_submit(tray, channel, dialog)) == {"f": False}


@pytest.mark.parametrize("kind", ["integer", "number"])
def test_a_number_typed_and_deleted_is_not_set(aio, kind):
    tray, channel, dialog, adapter = _ask(aio, {"type": kind})
    adapter.edit.setFocus()
    QTest.keyClicks(adapter.edit, "5")
    QTest.keyClick(adapter.edit, Qt.Key.Key_Backspace)
    QTest.keyClick(adapter.edit, Qt.Key.Key_Up)  # no step either: the text is the value
    assert adapter.edit.text() == ""
    assert _submit(tray, channel, dialog) == NOTHING


def _wheel(widget, steps=-1):
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    at = QPointF(widget.rect().center())
    event = QWheelEvent(
        at,
        QPointF(widget.mapToGlobal(at)),
        QPoint(),
        QPoint(0, 120 * steps),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(widget, event)


SELECT = {"type": "string", "enum": ["red", "green", "blue"]}


def test_the_wheel_over_a_drop_down_list_without_the_focus_scrolls_past_it(aio):
    tray, channel, dialog, adapter = _ask(aio, SELECT)
    dialog.rows["note"].adapter.edit.setFocus()
    _wheel(adapter.combo)  # a turn down, to scroll the form
    tray.settle()
    assert adapter.combo.currentText() == "Not set" and not adapter.combo.hasFocus()
    assert _submit(tray, channel, dialog) == NOTHING


def test_the_wheel_over_the_focused_drop_down_list_moves_to_the_option_it_shows(aio):
    tray, channel, dialog, adapter = _ask(aio, SELECT)
    adapter.combo.setFocus()
    _wheel(adapter.combo)
    tray.settle()
    assert adapter.combo.currentText() == "red"
    assert _content(_submit(tray, channel, dialog)) == {"f": "red"}


@pytest.mark.parametrize("opener", ["F4", "Alt+Down", "click"])
def test_a_drop_down_list_opened_and_dismissed_chooses_nothing(aio, opener):
    from PySide6.QtWidgets import QApplication

    tray, channel, dialog, adapter = _ask(aio, SELECT)
    combo = adapter.combo
    combo.setFocus()
    if opener == "click":
        QTest.mouseClick(combo, Qt.MouseButton.LeftButton)
    else:
        modifier = Qt.KeyboardModifier.AltModifier if opener == "Alt+Down" else Qt.KeyboardModifier.NoModifier
        QTest.keyClick(combo, Qt.Key.Key_Down if opener == "Alt+Down" else Qt.Key.Key_F4, modifier)
    popup = QApplication.activePopupWidget()
    assert popup is not None and combo.view().isVisible()
    QTest.keyClick(combo.view(), Qt.Key.Key_Down)  # the highlight moves; nothing is chosen by that
    QTest.keyClick(combo.view(), Qt.Key.Key_Escape)
    tray.settle()
    assert not combo.view().isVisible() and combo.currentText() == "Not set"
    assert _submit(tray, channel, dialog) == NOTHING


@pytest.mark.parametrize("fmt", ["date", "date-time"])
def test_the_wheel_over_a_date_without_the_focus_scrolls_past_it(aio, fmt):
    tray, channel, dialog, edit = _open(aio, fmt)
    dialog.rows["note"].adapter.edit.setFocus()
    _wheel(edit, 1)
    tray.settle()
    assert edit.text() == "Not set" and not edit.hasFocus()
    assert _submit(tray, channel, dialog) == NOTHING


@pytest.mark.parametrize("fmt", ["date", "date-time"])
def test_the_wheel_over_the_focused_date_starts_from_now_as_a_step_does(aio, fmt):
    tray, channel, dialog, edit = _open(aio, fmt)
    edit.setFocus()
    _wheel(edit, 1)
    tray.settle()
    shown = edit.text()
    assert int(shown[:4]) == dt.date.today().year + 1  # not 0101, a step from the sentinel
    when = _content(_submit(tray, channel, dialog))["when"]
    assert when[:10] == shown[:10]


@pytest.mark.parametrize("fmt", ["date", "date-time"])
@pytest.mark.parametrize("eraser", ["Delete", "Backspace", "paste nothing"])
def test_a_date_emptied_is_not_set_and_stays_so_when_left(aio, fmt, eraser):
    from PySide6.QtGui import QGuiApplication

    tray, channel, dialog, edit = _open(aio, fmt)
    edit.setFocus()
    QTest.keyClicks(edit, "2027-03-04")
    assert edit.text().startswith("2027-03-04")
    QTest.keyClick(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    if eraser == "paste nothing":
        QGuiApplication.clipboard().setText("")
        QTest.keyClick(edit, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    else:
        QTest.keyClick(edit, Qt.Key.Key_Delete if eraser == "Delete" else Qt.Key.Key_Backspace)
    QTest.keyClick(edit, Qt.Key.Key_Tab)  # leaving it: Qt would put 2027-03-04 back
    tray.settle()
    assert dialog.rows["when"].adapter.is_empty() and edit.text() == "Not set"
    assert _submit(tray, channel, dialog) == NOTHING


def test_an_optional_multi_select_with_min_items_may_stay_not_set_but_not_emptied_of_its_default(aio):
    prop = {**COLOURS, "minItems": 1}
    tray, channel, dialog, adapter = _ask(aio, prop)
    assert _submit(tray, channel, dialog) == NOTHING  # minItems bounds an answer, none was given
    tray, channel, dialog, adapter = _ask(aio, {**prop, "default": ["red"]})
    adapter.boxes[0].setFocus()
    QTest.keyClick(adapter.boxes[0], Qt.Key.Key_Space)  # [] is an answer, and too few
    tray.arm(dialog)
    from elicit_tray.ui.scripted import perform

    perform(dialog, [{"do": "submit"}])
    tray.settle()
    assert channel.sent == [] and dialog.errors() == {"f": "Choose at least 1."}
    tray.disconnect(channel)


@pytest.mark.parametrize("fmt", ["date", "date-time"])
@pytest.mark.parametrize("typed", ["0", "202"])
@pytest.mark.parametrize("how", ["Accept clicked", "Enter"])
def test_a_year_left_unfinished_is_refused_not_replaced_by_this_year(aio, fmt, typed, how):
    """From "Not set" the picker starts at this hour today; a year left unfinished would be put
    back to this year by Qt as Accept takes the focus (or Enter ends the edit), and sent."""
    tray, channel, dialog, edit = _open(aio, fmt)
    edit.setFocus()
    QTest.keyClicks(edit, typed)
    assert edit.text().startswith(f"{typed}-")
    if how == "Enter":
        QTest.keyClick(edit, Qt.Key.Key_Return)
    else:
        QTest.mouseClick(dialog.commit_button, Qt.MouseButton.LeftButton)
    tray.settle()
    year = dt.date.today().year
    assert edit.text().startswith(f"{year}-")  # what Qt shows now
    assert channel.sent == [] and dialog.outcome is None
    assert dialog.errors() == {
        "when": f"{typed} is not possible there, so the picker shows {year} instead. Type it again."
    }
    QTest.keyClicks(edit, "2027")  # typed again, whole: it stands
    assert _content(_submit(tray, channel, dialog))["when"][:4] == "2027"
