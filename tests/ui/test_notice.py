"""What a dialog tells screen readers at the moment it happens (elicit_tray.ui.notice): the
notice's role, and what it says for an error the user makes while filling, for expiry and for the
countdown; a failed Accept says its own and nothing twice. What Orca 43 makes of it is heard in
tests/integration/test_orca.py."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget

from elicit_tray.ui.countdown import WARN_AT_S, Countdown
from elicit_tray.ui.notice import SpokenNotice
from tests.ui.harness import Tray
from tests.ui.test_countdown import Clock

GONE = (
    "This request is no longer waiting: the program that asked has cancelled it or gone away. "
    "Nothing was sent. This window closes by itself."
)
FORM = {
    "message": "Book",
    "requestedSchema": {
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": "Traveller", "minLength": 2},
            "mail": {"type": "string", "format": "email", "title": "Mail"},
            "extras": {
                "type": "array",
                "title": "Extras",
                "maxItems": 2,
                "items": {"type": "string", "enum": ["Bag", "Seat", "Lounge"]},
            },
        },
        "required": ["name"],
    },
}


def test_a_notice_is_a_zero_size_notification_named_by_what_it_says(qapp):
    window = QWidget()
    notice = SpokenNotice(window)
    window.show()
    assert QAccessible.queryAccessibleInterface(notice).role() == QAccessible.Role.Notification
    assert notice.size().isEmpty() and notice.isHidden() and notice.focusPolicy() == Qt.FocusPolicy.NoFocus
    notice.say("")
    assert notice.said == [] and notice.isHidden()
    notice.say("First.")
    notice.say("Second.")
    assert notice.said == ["First.", "Second."] and notice.isVisible()
    assert QAccessible.queryAccessibleInterface(notice).text(QAccessible.Text.Name) == "Second."
    window.close()


def _warnings(seconds: int, steps: list[float]) -> list[str]:
    window = QWidget()
    window.show()
    clock = Clock()
    countdown = Countdown(window, seconds, clock=clock)
    warned: list[str] = []
    countdown.warned.connect(warned.append)
    countdown.start()
    for step in steps:
        clock.now += step
        countdown.tick()
    window.close()
    return warned


def _warning(seconds: int) -> str:
    return f"This request is cancelled in {seconds} seconds. Press any key in this window to stop the timer."


def test_the_countdown_warns_once_at_20_and_at_5_seconds_left(qapp):
    assert WARN_AT_S == (20, 5)
    assert _warnings(65, [44.5, 0.4, 0.2, 0.3, 10, 4.9, 0.2, 0.1, 5]) == [_warning(20), _warning(5)]


def test_a_countdown_shorter_than_a_warning_gives_only_the_later_ones(qapp):
    assert _warnings(20, [1, 14, 1, 5]) == [_warning(5)]
    assert _warnings(5, [1, 1, 3]) == []


def test_a_late_tick_past_both_warnings_gives_only_the_nearer_one(qapp):
    assert _warnings(30, [26]) == [_warning(5)]


def test_a_countdown_stopped_by_a_key_warns_no_more(qapp):
    window = QWidget()
    window.show()
    clock = Clock()
    countdown = Countdown(window, 30, clock=clock)
    warned: list[str] = []
    countdown.warned.connect(warned.append)
    countdown.start()
    clock.now += 11
    countdown.tick()
    QTest.keyClick(window, Qt.Key.Key_Shift)  # a modifier alone: stops it, does nothing else
    clock.now += 15
    countdown.tick()
    assert warned == [_warning(20)] and not countdown.is_running
    window.close()


def test_the_dialogs_countdown_warnings_go_to_its_notice(aio):
    tray = Tray(aio)
    channel, dialog = tray.ask(FORM, [])
    dialog.start_timeout(30)
    dialog.countdown.warned.emit(_warning(20))
    assert dialog.notice.said == [_warning(20)]
    tray.disconnect(channel)


def test_expiry_is_the_close_buttons_description_and_said_when_the_user_is_elsewhere(aio, qtbot):
    tray = Tray(aio)
    channel, dialog = tray.ask(FORM, [])
    elsewhere = QWidget()  # the window the user is in
    elsewhere.show()
    elsewhere.activateWindow()
    qtbot.waitUntil(lambda: elsewhere.isActiveWindow() and not dialog.isActiveWindow(), timeout=2000)
    tray.disconnect(channel)
    assert dialog.expired
    assert dialog.close_button.accessibleDescription() == GONE
    assert dialog.notice.said == [GONE]
    elsewhere.close()


def test_expiry_in_the_active_window_is_read_with_the_focused_close_button_only(aio, qtbot):
    tray = Tray(aio)
    channel, dialog = tray.ask(FORM, [])
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)
    tray.disconnect(channel)
    assert dialog.close_button.hasFocus() and dialog.close_button.accessibleDescription() == GONE
    assert dialog.notice.said == []


def test_an_error_is_said_when_a_field_is_left_wrong_and_when_one_choice_is_too_many(aio, qtbot):
    tray = Tray(aio)
    channel, dialog = tray.ask(FORM, [])
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)
    name, mail = dialog.rows["name"].adapter.focus_target, dialog.rows["mail"].adapter.focus_target
    name.setFocus()
    qtbot.waitUntil(name.hasFocus, timeout=2000)
    QTest.keyClick(name, Qt.Key.Key_Tab)  # an empty field left: nothing to say yet
    qtbot.waitUntil(mail.hasFocus, timeout=2000)
    assert dialog.notice.said == []
    QTest.keyClicks(mail, "a@")
    assert dialog.notice.said == []  # nothing while typing
    QTest.keyClick(mail, Qt.Key.Key_Tab)
    assert dialog.notice.said == ["Mail: This email address is not in a valid format."]
    boxes = dialog.rows["extras"].adapter.boxes
    for box in boxes[:2]:
        box.setFocus()
        QTest.keyClick(box, Qt.Key.Key_Space)
    assert len(dialog.notice.said) == 1
    boxes[2].setFocus()
    QTest.keyClick(boxes[2], Qt.Key.Key_Space)  # a third of at most 2, said at once
    assert dialog.notice.said[1:] == ["Extras: Choose at most 2."]
    assert dialog.errors()["extras"] == "Choose at most 2."
    QTest.keyClick(boxes[2], Qt.Key.Key_Space)
    QTest.keyClick(boxes[2], Qt.Key.Key_Space)  # gone and made again: said again
    assert dialog.notice.said[1:] == ["Extras: Choose at most 2.", "Extras: Choose at most 2."]
    tray.disconnect(channel)


def test_a_failed_accept_says_nothing_through_the_notice(aio):
    tray = Tray(aio)
    channel, dialog = tray.ask(FORM, [])
    assert dialog.attempt_submit() is False
    assert dialog.errors() == {"name": "This field is required."}
    assert dialog.notice.said == []  # the focus on the first invalid field reads it
    tray.disconnect(channel)
