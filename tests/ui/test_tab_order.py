"""Tab and Shift+Tab reach every control of every field kind in reading order (WCAG 2.4.3),
measured: real key presses walk the window, and the order they find is compared with the
order of the controls' positions on screen (tests/ui/tab_order.py). A radio group is one stop,
entered at its checked option (else its first); its arrows then reach each option in order."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from elicit_tray.settings import Preferences
from elicit_tray.ui.history_window import HistoryWindow
from elicit_tray.ui.settings_window import SettingsWindow
from tests.ui.harness import Tray
from tests.ui.tab_order import check_cycle, describe, expected_stops, radio_groups

DAYS = {"type": "string", "enum": ["Mon", "Tue", "Wed"]}
#: One field of every kind the registry builds, with and without defaults, required or not.
EVERY_KIND = {
    "text": {"type": "string", "title": "Text"},
    "email": {"type": "string", "format": "email", "title": "Email"},
    "uri": {"type": "string", "format": "uri", "title": "Site"},
    "date": {"type": "string", "format": "date", "title": "Day"},
    "date_req": {"type": "string", "format": "date", "title": "Due", "default": "2026-03-15"},
    "stamp": {"type": "string", "format": "date-time", "title": "When"},
    "odd_date": {"type": "string", "format": "date", "title": "Old", "default": "0100-01-01"},
    "number": {"type": "number", "title": "Amount", "default": 2.5},
    "integer": {"type": "integer", "title": "Count"},
    "agree": {"type": "boolean", "title": "Agree"},
    "maybe": {"type": "boolean", "title": "Maybe"},
    "keep": {"type": "boolean", "title": "Keep", "default": True},
    "size": {"type": "string", "title": "Size", "enum": ["S", "M", "L"]},
    "tone": {"type": "string", "title": "Tone", "enum": ["Low", "Mid", "High"], "default": "Mid"},
    "color": {"type": "string", "title": "Color", "enum": ["red", "green", "blue"]},
    "grade": {
        "type": "string",
        "title": "Grade",
        "oneOf": [{"const": c, "title": c.upper()} for c in ("a", "b", "c", "d", "e")],
    },
    "pick": {
        "type": "string",
        "title": "Pick",
        "oneOf": [{"const": "x", "title": "Ex"}, {"const": "y", "title": "Why"}],
    },
    "days": {"type": "array", "title": "Days", "items": DAYS},
    "work": {"type": "array", "title": "Work", "items": DAYS, "default": ["Tue"], "minItems": 1},
}
REQUIRED = ["date_req", "agree", "size", "tone", "grade", "pick", "work"]


def _ask(aio, properties: dict, required: list[str], message: str = "Fill in"):
    tray = Tray(aio)
    params = {"message": message, "requestedSchema": {"type": "object", "properties": properties, "required": required}}
    return tray, *tray.ask(params, [])


def _long(properties: dict) -> dict:
    return {k: dict(v, title=v["title"] + " of the request, as a long title says it") for k, v in properties.items()}


@pytest.mark.parametrize(
    ("properties", "message"),
    [
        (EVERY_KIND, "Fill in"),
        (_long(EVERY_KIND), "Fill in"),  # every label above its field
        (EVERY_KIND, "A message far too long for its box. " * 120),  # the message box is a stop
    ],
    ids=["short-titles", "long-titles", "long-message"],
)
def test_tab_and_shift_tab_reach_every_control_of_every_kind_in_reading_order(aio, properties, message):
    tray, channel, dialog = _ask(aio, properties, REQUIRED, message)
    first = dialog.rows["text"].adapter.focus_target
    assert QApplication.focusWidget() is first  # the dialog opens on its first field
    names = check_cycle(dialog, first)
    day, due, when = (properties[k]["title"] for k in ("date", "date_req", "stamp"))
    expected = ["field-text", "field-email", "field-uri", day, f"Clear {day}", due, when, f"Clear {when}"]
    expected += ["field-odd_date", "field-number", "field-integer", "field-agree", "Not set", "field-keep", "S"]
    expected += ["Mid", "field-color", "field-grade", "Ex", "Mon", "Tue", "Wed", "Mon", "Tue", "Wed"]
    expected += ["decline", "cancel"] + (["message-scroll"] if len(message) > 100 else [])
    assert names == expected
    tray.disconnect(channel)


def test_tab_follows_the_reading_order_of_a_right_to_left_window(aio):
    QApplication.setLayoutDirection(Qt.LayoutDirection.RightToLeft)
    try:
        tray, channel, dialog = _ask(aio, EVERY_KIND, REQUIRED)
        assert dialog.isRightToLeft()
        first = dialog.rows["text"].adapter.focus_target
        names = check_cycle(dialog, first)  # each line read from right to left
        assert names[3:5] == ["Day", "Clear Day"] and names[-2:] == ["decline", "cancel"]
        tray.disconnect(channel)
    finally:
        QApplication.setLayoutDirection(Qt.LayoutDirection.LeftToRight)


def test_arrows_reach_every_option_of_each_radio_group_in_reading_order(aio):
    tray, channel, dialog = _ask(aio, EVERY_KIND, REQUIRED)
    groups = radio_groups(dialog)
    assert sorted(describe(g) for g in groups) == sorted(
        [["Ex", "Why"], ["Low", "Mid", "High"], ["Not set", "Yes", "No"], ["S", "M", "L"]]
    )
    for group in groups:
        horizontal = group[0].y() == group[-1].y()
        group[0].setFocus(Qt.FocusReason.TabFocusReason)
        reached = [group[0]]
        for _ in group[1:]:
            QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Right if horizontal else Qt.Key.Key_Down)
            reached.append(QApplication.focusWidget())
        assert describe(reached) == describe(group)
    tray.disconnect(channel)


@pytest.mark.parametrize("field", ["size", "tone", "maybe"])
def test_a_radio_group_is_entered_at_its_checked_option_else_its_first_from_both_sides(aio, field):
    tray, channel, dialog = _ask(aio, EVERY_KIND, REQUIRED)
    buttons = dialog.rows[field].adapter.controls
    entry = next((b for b in buttons if b.isChecked()), buttons[0])
    stops = expected_stops(dialog)
    before, after = stops[stops.index(entry) - 1], stops[stops.index(entry) + 1]
    buttons[-1].setFocus(Qt.FocusReason.MouseFocusReason)  # the user was in the group at its last option
    before.setFocus(Qt.FocusReason.TabFocusReason)  # and left it
    QTest.keyClick(before, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is entry
    after.setFocus(Qt.FocusReason.TabFocusReason)
    QTest.keyClick(after, Qt.Key.Key_Backtab)
    assert QApplication.focusWidget() is entry
    tray.disconnect(channel)


def test_the_url_dialog_is_walked_in_reading_order(aio):
    tray = Tray(aio)
    channel = tray.connect()
    message = "Authorize access to your calendar, as the long text explains. " * 60
    params = {"mode": "url", "elicitationId": "e", "message": message, "url": "https://auth.example.com/x"}
    tray.send(channel, {"jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": params})
    dialog = tray.dialog()
    assert QApplication.focusWidget() is dialog.cancel_button  # it opens on the button that commits nothing
    assert check_cycle(dialog, dialog.cancel_button) == ["cancel", "open", "message-scroll", "full-url", "decline"]
    tray.disconnect(channel)


def test_the_settings_and_history_windows_are_walked_in_reading_order(qtbot, tmp_path):
    from elicit_tray.history import History

    settings = SettingsWindow(Preferences(None), Path("/s"), autostart=(lambda: True, lambda _on: None))
    history = HistoryWindow(History(tmp_path / "h.sqlite3"))
    for window in (settings, history):
        qtbot.addWidget(window)
        window.show()
        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow)
        start = expected_stops(window)[0]
        check_cycle(window, start)
