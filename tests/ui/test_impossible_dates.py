"""A number typed into a date picker that the calendar cannot take there is refused with a
message, never replaced by another date: Qt's pickers quietly show 2026-02-28 for 2026-02-29,
and a digit typed after a section Qt left on its own lands in the next one. Exact JSON compared."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QDate, Qt
from PySide6.QtTest import QTest

from tests.ui.harness import Tray


def _form(fmt):
    return {
        "message": "When?",
        "requestedSchema": {
            "type": "object",
            "properties": {"when": {"type": "string", "format": fmt, "title": "When"}},
            "required": ["when"],
        },
    }


def _open(aio, params):
    """Ask with ``params``, go to the dialog and wait until it is armed: (tray, channel,
    dialog, the "when" picker)."""
    tray = Tray(aio)
    channel, dialog = tray.ask(params, [])
    tray.arm(dialog)
    return tray, channel, dialog, dialog.rows["when"].adapter.edit


def _select(edit, section):
    """Put the cursor on section number ``section``, selected (as Qt does when it moves on)."""
    edit.setCurrentSection(edit.sectionAt(section))
    edit.setSelectedSection(edit.sectionAt(section))


def _type(edit, text, section=0):
    """Type ``text`` as a user does, from ``section`` (the first digit leaves "Not set")."""
    edit.setFocus()
    QTest.keyClick(edit, Qt.Key.Key_Right)  # moves nothing: "Not set" stays until a digit or a step
    _select(edit, section)
    QTest.keyClick(edit, Qt.Key.Key_Left)  # a non-digit key: typing starts afresh here
    _select(edit, section)
    QTest.keyClicks(edit, text)


def _accepted(when):
    return {"jsonrpc": "2.0", "id": 1, "result": {"action": "accept", "content": {"when": when}}}


def _submit(tray, channel, dialog):
    from elicit_tray.ui.scripted import perform

    perform(dialog, [{"do": "submit"}])
    tray.settle()
    return channel


@pytest.mark.parametrize(
    ("fmt", "typed", "refused"),
    [
        ("date", "2026-02-29", "29"),
        ("date", "2025-04-31", "31"),
        ("date", "2026-13-01", "13"),
        ("date", "2026-02-30", "30"),  # Qt leaves the day after "3" (no day 3x in February)
        ("date-time", "2026-03-04 25:00:00", "25"),
        ("date-time", "2026-02-30 10:00:00", "30"),
    ],
)
def test_an_impossible_date_typed_is_refused_not_changed(aio, fmt, typed, refused):
    tray, channel, dialog, edit = _open(aio, _form(fmt))
    _type(edit, typed)
    _submit(tray, channel, dialog)
    assert channel.sent == []  # nothing was answered
    assert dialog.isVisible()
    error = dialog.rows["when"].current()[1]
    assert error is not None and error.startswith(f"{refused} is not possible there")


def test_the_day_typed_again_stands_and_is_sent(aio):
    tray, channel, dialog, edit = _open(aio, _form("date"))
    _type(edit, "2026-02-29")
    assert dialog.rows["when"].current()[1] is not None
    _select(edit, 2)
    QTest.keyClicks(edit, "27")
    _submit(tray, channel, dialog)
    assert tray.reply(channel) == _accepted("2026-02-27")


def test_typing_on_in_another_section_keeps_the_refusal(aio):
    tray, channel, dialog, edit = _open(aio, _form("date-time"))
    _type(edit, "2026-02-29 10:30:00")  # day refused, then hour, minute, second typed fine
    assert dialog.rows["when"].current()[1].startswith("29 is not possible there")


@pytest.mark.parametrize(
    ("fmt", "typed", "sent"),
    [
        ("date", "2028-02-29", "2028-02-29"),
        ("date", "2026-12-31", "2026-12-31"),
        ("date", "2026-2-5", "2026-02-05"),  # one digit each: Qt moves on, the separator is swallowed
        ("date", "2026-02-05", "2026-02-05"),
        ("date", "2026-10-01", "2026-10-01"),
        ("date", "20260315", "2026-03-15"),  # no separators: a typed leading zero is a digit too
        ("date", "20260228", "2026-02-28"),
        ("date", "2026/02/28", "2026-02-28"),
    ],
)
def test_a_possible_date_typed_is_sent_exactly(aio, fmt, typed, sent):
    tray, channel, dialog, edit = _open(aio, _form(fmt))
    _type(edit, typed)
    _submit(tray, channel, dialog)
    assert tray.reply(channel) == _accepted(sent)


def test_a_date_picked_after_a_refusal_stands(aio):
    tray, channel, dialog, edit = _open(aio, _form("date"))
    _type(edit, "2026-02-29")
    QTest.mouseClick(edit, Qt.MouseButton.LeftButton, pos=edit.rect().center())  # in the text
    assert dialog.errors()  # placing the cursor picks nothing: the refusal stays
    QTest.keyClick(edit, Qt.Key.Key_F4)
    calendar = edit.calendarWidget()
    calendar.setSelectedDate(QDate(2026, 3, 1))
    QTest.keyClick(calendar.focusWidget() or calendar, Qt.Key.Key_Return)  # picked in the calendar
    assert dialog.errors() == {}
    _submit(tray, channel, dialog)
    assert tray.reply(channel) == _accepted("2026-03-01")


def test_every_refused_section_is_kept_until_it_is_typed_again(aio):
    tray, channel, dialog, edit = _open(aio, _form("date-time"))
    _type(edit, "2026-02-29 25:00:00")  # the day, then the hour
    assert dialog.errors()["when"].startswith("29 is not possible there")
    _select(edit, 2)
    QTest.keyClicks(edit, "27")  # the day typed again: the hour is still refused
    assert dialog.errors()["when"].startswith("25 is not possible there")
    _submit(tray, channel, dialog)
    assert channel.sent == []


@pytest.mark.parametrize(
    ("typed", "corrected", "sent"),
    [
        ("2026-02-28", "7", "2026-02-27"),  # a slip corrected with Backspace: no refusal
        ("2026-02-14", "5", "2026-02-15"),
        ("2026-02-1", "9", "2026-02-09"),  # the section emptied, then one digit
    ],
)
def test_a_digit_typed_after_backspace_continues_the_section(aio, typed, corrected, sent):
    tray, channel, dialog, edit = _open(aio, _form("date"))
    _type(edit, typed)
    QTest.keyClick(edit, Qt.Key.Key_Backspace)
    QTest.keyClicks(edit, corrected)
    assert dialog.rows["when"].current()[1] is None
    _submit(tray, channel, dialog)
    assert tray.reply(channel) == _accepted(sent)


def test_an_impossible_day_typed_after_backspace_is_refused(aio):
    tray, channel, dialog, edit = _open(aio, _form("date"))
    _type(edit, "2026-02-28")
    QTest.keyClick(edit, Qt.Key.Key_Backspace)
    QTest.keyClicks(edit, "9")
    assert dialog.rows["when"].current()[1].startswith("29 is not possible there")


def _with_default(fmt, default):
    params = _form(fmt)
    params["requestedSchema"]["properties"]["when"]["default"] = default
    return params


def test_the_refusal_shows_at_once_and_accept_waits(aio):
    tray, channel, dialog, edit = _open(aio, _form("date"))
    _type(edit, "2026-02-29")  # still in the field: nothing left yet
    assert dialog.errors() == {"when": "29 is not possible there, so the picker shows 28 instead. Type it again."}
    assert not dialog.accept_button.isEnabled()
    assert channel.sent == []


def test_a_date_time_without_seconds_answers_on_the_first_enter(aio):
    tray, channel, dialog, edit = _open(aio, _form("date-time"))
    _type(edit, "2026-02-28 13:45")  # Qt moves on to the seconds after the minutes
    QTest.keyClick(edit, Qt.Key.Key_Return)
    QTest.keyRelease(edit, Qt.Key.Key_Return)
    reply = tray.reply(channel)
    assert reply["result"]["action"] == "accept"
    assert reply["result"]["content"]["when"].startswith("2026-02-28T13:45:00")


def test_digits_without_separators_in_a_date_time_are_taken_as_typed(aio):
    tray, channel, dialog, edit = _open(aio, _form("date-time"))
    _type(edit, "20260228134500")
    assert dialog.errors() == {}
    _submit(tray, channel, dialog)
    assert tray.reply(channel)["result"]["content"]["when"].startswith("2026-02-28T13:45:00")


def test_digits_qt_does_not_take_over_a_whole_selection_are_refused(aio):
    # With the whole text selected (Ctrl+A) Qt's picker takes no digit of a year at all: the
    # field would send 2025 for a user who typed 2026.
    tray, channel, dialog, edit = _open(aio, _with_default("date", "2025-01-15"))
    edit.setFocus()
    QTest.keyClick(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(edit, "2026-06-30")
    assert dialog.errors() == {"when": "2026 is not possible there, so the picker shows 2025 instead. Type it again."}
    _submit(tray, channel, dialog)
    assert channel.sent == []


@pytest.mark.parametrize(
    "keys", [(Qt.Key.Key_F4, Qt.KeyboardModifier.NoModifier), (Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)]
)
def test_the_keyboard_opens_the_calendar_and_leaves_the_date_alone(aio, keys):
    tray, channel, dialog, edit = _open(aio, _with_default("date", "2026-02-27"))
    edit.setFocus()
    QTest.keyClick(edit, *keys)
    assert edit.calendarWidget().isVisible()
    assert edit.date().toString("yyyy-MM-dd") == "2026-02-27"  # Alt+Down stepped the year before
    edit.calendarWidget().window().hide()
    _submit(tray, channel, dialog)
    assert tray.reply(channel) == _accepted("2026-02-27")


def test_escape_in_the_calendar_gives_back_the_date_it_had(aio):
    tray, channel, dialog, edit = _open(aio, _with_default("date", "2026-03-31"))
    edit.setFocus()
    QTest.keyClick(edit, Qt.Key.Key_F4)
    calendar = edit.calendarWidget()
    target = calendar.focusWidget() or calendar
    QTest.keyClick(target, Qt.Key.Key_Down)  # a week on, in the calendar (Qt moves the field along)
    QTest.keyClick(target, Qt.Key.Key_Escape)
    tray.settle()
    assert not calendar.isVisible()
    assert edit.date().toString("yyyy-MM-dd") == "2026-03-31"
    tray.arm(dialog)  # the dialog is the active window again (offscreen, the popup took that)
    _submit(tray, channel, dialog)
    assert tray.reply(channel) == _accepted("2026-03-31")


def test_ctrl_a_then_the_same_year_typed_is_not_refused(aio):
    tray, channel, dialog, edit = _open(aio, _with_default("date", "2026-03-05"))
    edit.setFocus()
    QTest.keyClick(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(edit, "2026-03-06")
    assert dialog.errors() == {}
    _submit(tray, channel, dialog)
    assert tray.reply(channel) == _accepted("2026-03-06")


def test_a_number_typed_inside_a_section_replaces_it(aio):
    tray, channel, dialog, edit = _open(aio, _with_default("date", "2026-01-05"))
    edit.setFocus()
    QTest.keyClick(edit, Qt.Key.Key_Home)
    for _ in range(5):
        QTest.keyClick(edit, Qt.Key.Key_Right)  # the cursor at the start of the month
    QTest.keyClicks(edit, "12")
    assert dialog.errors() == {}
    _submit(tray, channel, dialog)
    assert tray.reply(channel) == _accepted("2026-12-05")
