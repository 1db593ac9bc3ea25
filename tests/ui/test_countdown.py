"""The user-set timeout on its own (elicit_tray.ui.countdown): a visible countdown on a plain
window, driven by a fake clock, that stops at the first key or click in that window and nowhere
else. The dialog's use of it (answering ``cancel``) is in tests/ui/test_dialogs.py."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit, QVBoxLayout, QWidget

from elicit_tray.ui.countdown import Countdown


class Clock:
    """Monotonic seconds that move only when the test says so."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def window(qapp):
    window = QWidget()
    QVBoxLayout(window).addWidget(QLineEdit(window))
    window.show()
    yield window
    window.close()


def _countdown(window: QWidget, seconds: int = 65) -> tuple[Countdown, Clock, list[str]]:
    clock = Clock()
    countdown = Countdown(window, seconds, clock=clock)
    expired: list[str] = []
    countdown.expired.connect(lambda: expired.append("expired"))
    countdown.start()
    return countdown, clock, expired


def test_the_time_left_is_shown_in_minutes_and_seconds_rounded_up(window):
    countdown, clock, expired = _countdown(window)
    assert countdown.label.text() == "Cancels by itself in 1:05" and countdown.label.objectName() == "countdown"
    clock.now += 5.5
    countdown.tick()
    assert countdown.label.text() == "Cancels by itself in 1:00"
    clock.now += 59.4
    countdown.tick()
    assert countdown.label.text() == "Cancels by itself in 0:01" and countdown.is_running and expired == []


def test_at_the_deadline_it_expires_once_and_stops(window):
    countdown, clock, expired = _countdown(window, seconds=2)
    clock.now += 2
    countdown.tick()
    countdown.tick()
    assert expired == ["expired"] and not countdown.is_running


@pytest.mark.parametrize("act", ["key", "click"])
def test_the_first_key_or_click_in_the_window_stops_it_for_good(window, act):
    countdown, clock, expired = _countdown(window)
    field = window.findChild(QLineEdit)
    if act == "key":
        QTest.keyClick(field, Qt.Key.Key_A)
    else:
        QTest.mouseClick(field, Qt.MouseButton.LeftButton)
    assert not countdown.is_running and countdown.label.text() == "Timer stopped"
    clock.now += 1000
    countdown.tick()
    assert expired == []


def test_keys_in_another_window_do_not_stop_it(window):
    countdown, _clock, _expired = _countdown(window)
    other = QLineEdit()
    other.show()
    QTest.keyClick(other, Qt.Key.Key_A)
    other.close()
    assert countdown.is_running


def test_the_real_timer_brings_the_label_up_to_date(window, qtbot):
    countdown = Countdown(window, 1)
    expired: list[bool] = []
    countdown.expired.connect(lambda: expired.append(True))
    countdown.start()
    qtbot.waitUntil(lambda: expired == [True], timeout=3000)
    assert not countdown.is_running
