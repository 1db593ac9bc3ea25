"""Arming (elicit_tray.ui.arming) and the focus policy (elicit_tray.ui.activity), offscreen: only
keys pressed and mouse buttons used after a dialog armed reach it (issue 10 §1). The same
scenarios with real X key events under a window manager are in
tests/integration/test_consent_keys.py."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from elicit_tray.ui.arming import InputGate
from tests import rpc
from tests.ui.harness import Tray

NAME = {
    "message": "Your name?",
    "requestedSchema": {"type": "object", "properties": {"name": {"type": "string", "title": "Name"}}},
}
CONFIRM = {"message": "Proceed?", "requestedSchema": {"type": "object", "properties": {}}}
ARM_MS = 300


def _key(widget, kind: QEvent.Type, key: Qt.Key, *, repeat: bool = False, text: str = "") -> None:
    QApplication.sendEvent(widget, QKeyEvent(kind, key, Qt.KeyboardModifier.NoModifier, text, repeat))


def _unarmed(tray: Tray, params: dict):
    """A dialog the user went to through the app (engaged) that is active but not armed yet."""
    channel = tray.connect()
    tray.send(channel, rpc.create(1, params))
    dialog = tray.run(tray.shown.get())
    dialog.arming.welcome()
    dialog.activateWindow()
    tray.settle()
    assert not dialog.is_armed
    return channel, dialog


def test_keys_typed_during_arming_never_reach_a_field_nor_a_button(aio, qtbot):
    tray = Tray(aio, arm_delay_ms=ARM_MS)
    channel, dialog = _unarmed(tray, NAME)
    field = dialog.rows["name"].adapter.focus_target
    QTest.keyClicks(field, "yes")
    QTest.keyClick(field, Qt.Key.Key_Return)
    QTest.keyClick(dialog, Qt.Key.Key_D, Qt.KeyboardModifier.AltModifier)  # Decline's mnemonic
    QTest.keyClick(dialog, Qt.Key.Key_Escape)
    QTest.mouseClick(dialog.decline_button, Qt.MouseButton.LeftButton)
    QTest.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    tray.settle()
    assert field.text() == "" and channel.sent == [] and dialog.outcome is None
    assert field.hasFocus()  # a click refused during arming does not move the focus either
    tray.arm(dialog)
    QTest.keyClicks(field, "Ada")
    QTest.keyClick(field, Qt.Key.Key_Return)
    assert tray.reply(channel) == {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {"action": "accept", "content": {"name": "Ada"}},
    }


def test_a_key_pressed_before_arming_neither_repeats_nor_releases_into_the_dialog(aio):
    tray = Tray(aio, arm_delay_ms=ARM_MS)
    channel, dialog = _unarmed(tray, NAME)
    field = dialog.rows["name"].adapter.focus_target
    _key(field, QEvent.Type.KeyPress, Qt.Key.Key_Return)  # Enter goes down before arming
    _key(field, QEvent.Type.KeyPress, Qt.Key.Key_A, text="a")
    tray.arm(dialog)
    for _ in range(3):  # held past arming: auto-repeat
        _key(field, QEvent.Type.KeyPress, Qt.Key.Key_Return, repeat=True)
        _key(field, QEvent.Type.KeyPress, Qt.Key.Key_A, repeat=True, text="a")
    _key(field, QEvent.Type.KeyRelease, Qt.Key.Key_Return)
    _key(field, QEvent.Type.KeyRelease, Qt.Key.Key_A, text="a")
    tray.settle()
    assert field.text() == "" and channel.sent == [] and dialog.outcome is None


def test_enter_acts_on_its_release_and_never_on_auto_repeat(aio):
    tray = Tray(aio, arm_delay_ms=ARM_MS)
    channel, dialog = _unarmed(tray, CONFIRM)
    tray.arm(dialog)
    _key(dialog, QEvent.Type.KeyPress, Qt.Key.Key_Return)
    _key(dialog, QEvent.Type.KeyPress, Qt.Key.Key_Return, repeat=True)
    tray.settle()
    assert channel.sent == []  # pressed and held: nothing yet
    _key(dialog, QEvent.Type.KeyRelease, Qt.Key.Key_Return)
    assert tray.reply(channel) == {"jsonrpc": "2.0", "id": 1, "result": {"action": "accept", "content": {}}}


def test_arming_covers_every_button_and_restarts_whenever_the_dialog_regains_the_focus(aio, qtbot):
    tray = Tray(aio, arm_delay_ms=ARM_MS)
    channel = tray.connect()
    for request_id in (1, 2):
        tray.send(channel, rpc.create(request_id, CONFIRM))
    first, second = tray.run(tray.shown.get()), tray.run(tray.shown.get())
    tray.arm(first)
    tray.arm(second)  # the user goes to the second one: the first disarms at once
    assert not first.is_armed and not first.accept_button.isEnabled() and not first.arming.engaged
    first.activateWindow()  # and back without an act (a window manager's choice): inert
    qtbot.waitUntil(first.isActiveWindow, timeout=2000)
    assert not first.is_armed and not first.arming.engaged
    for key in (Qt.Key.Key_Escape, Qt.Key.Key_Return, Qt.Key.Key_Space):
        QTest.keyClick(first, key)
    QTest.keyClick(first, Qt.Key.Key_D, Qt.KeyboardModifier.AltModifier)
    tray.settle()
    assert channel.sent == [] and first.outcome is None
    tray.presenter.focus(first.request.key)  # the user chooses it in the tray menu: armed after the delay
    assert first.arming.engaged and not first.is_armed
    QTest.keyClick(first, Qt.Key.Key_Escape)
    tray.settle()
    assert channel.sent == [] and first.outcome is None
    with qtbot.waitSignal(first.armed, timeout=5000):
        pass
    QTest.mouseClick(first.decline_button, Qt.MouseButton.LeftButton)
    assert tray.reply(channel) == {"jsonrpc": "2.0", "id": 1, "result": {"action": "decline"}}
    tray.disconnect(channel)


def test_a_left_click_on_the_tray_icon_brings_the_oldest_waiting_dialog_forward_with_the_focus(aio, qtbot):
    from PySide6.QtWidgets import QSystemTrayIcon

    from elicit_tray.ui.tray import Tray as TrayIcon

    tray = Tray(aio)
    icon = TrayIcon(tray.presenter)
    channel = tray.connect()
    for request_id in (1, 2):
        tray.send(channel, rpc.create(request_id, CONFIRM))
    first, second = tray.run(tray.shown.get()), tray.run(tray.shown.get())
    second.activateWindow()
    qtbot.waitUntil(second.isActiveWindow, timeout=2000)
    icon.activated.emit(QSystemTrayIcon.ActivationReason.Trigger)
    qtbot.waitUntil(lambda: first.isActiveWindow() and first.is_armed, timeout=2000)
    tray.disconnect(channel)


# -- Arming on its own: a plain window, no dialog, no presenter ----------------------------------


def _window(qtbot, delay_ms: int = 0):
    """A plain active window with a line edit and an :class:`Arming` (the gate looks for it),
    engaged through the app, disarmed, and with no change recorded yet."""
    from PySide6.QtWidgets import QLineEdit, QVBoxLayout, QWidget

    from elicit_tray.ui.arming import Arming

    window = QWidget()
    edit = QLineEdit(window)
    QVBoxLayout(window).addWidget(edit)
    window.arming = Arming(window, delay_ms)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    edit.setFocus()
    window.arming.welcome()  # engaged through the app (as from the tray menu)
    window.arming.disarm()
    changes: list[bool] = []
    window.arming.changed.connect(changes.append)
    return window, edit, changes


def test_arming_waits_for_the_window_to_be_active_and_for_its_owner_to_be_ready(qtbot):
    window, _edit, changes = _window(qtbot)
    ready = False
    window.arming.ready = lambda: ready
    window.arming.restart()
    assert not window.arming.is_armed and changes == []  # the delay ran out, the owner is not ready
    ready = True
    window.arming.ready_changed()
    assert window.arming.is_armed and changes == [True]
    window.arming.disarm()
    window.arming.disarm()  # once only
    assert changes == [True, False]


def test_arming_arms_only_after_its_delay_and_a_restart_starts_the_delay_again(qtbot):
    window, _edit, changes = _window(qtbot, delay_ms=150)
    started = time.monotonic()
    with qtbot.waitSignal(window.arming.changed, timeout=2000):
        window.arming.restart()
    assert window.arming.is_armed and time.monotonic() - started >= 0.14
    window.arming.restart()
    assert not window.arming.is_armed and changes == [True, False]


def test_a_disarmed_window_takes_no_key_click_nor_shortcut_but_its_scroll_bars_still_scroll(qtbot):
    from PySide6.QtWidgets import QScrollBar

    window, edit, _changes = _window(qtbot, delay_ms=60_000)
    window.arming.restart()
    QTest.keyClicks(edit, "no")
    override = QKeyEvent(QEvent.Type.ShortcutOverride, Qt.Key.Key_D, Qt.KeyboardModifier.AltModifier)
    override.ignore()
    assert window.arming.admits(edit, override) is False and override.isAccepted()  # no shortcut fires
    press = QEvent(QEvent.Type.MouseButtonPress)
    assert window.arming.admits(QScrollBar(window), press) and not window.arming.admits(edit, press)
    assert edit.text() == ""
    window.arming.delay_ms = 0
    window.arming.restart()
    QTest.keyClicks(edit, "yes")
    assert edit.text() == "yes"


def test_after_arming_only_keys_pressed_since_count(qtbot):
    window, edit, _changes = _window(qtbot)
    held = QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_A, Qt.KeyboardModifier.NoModifier, "a", True)  # auto-repeat
    window.arming.restart()
    assert not window.arming.admits(edit, held)  # held from before arming
    assert not window.arming.admits(
        edit, QKeyEvent(QEvent.Type.KeyRelease, Qt.Key.Key_A, Qt.KeyboardModifier.NoModifier, "a")
    )
    assert window.arming.admits(
        edit, QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_A, Qt.KeyboardModifier.NoModifier, "a")
    )
    assert window.arming.admits(edit, held)  # pressed after arming, now held: repeats
    enter = QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier, "\r")
    assert window.arming.admits(edit, enter)
    assert not window.arming.admits(
        edit, QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier, "\r", True)
    )  # Enter never repeats


def test_a_key_held_when_the_dialog_arms_is_dropped_until_the_server_says_it_is_up(aio, monkeypatch):
    """Qt reads an auto-repeat as release + press when the next event comes late (a busy
    machine): a key already down at arming counts only once the X server reports it released."""
    down = {36}
    monkeypatch.setattr("elicit_tray.ui.arming.keys_held", lambda _platform: set(down))
    tray = Tray(aio, arm_delay_ms=ARM_MS)
    channel, dialog = _unarmed(tray, CONFIRM)
    tray.arm(dialog)

    def send(kind: QEvent.Type, repeat: bool = False) -> None:
        QApplication.sendEvent(
            dialog, QKeyEvent(kind, Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier, 36, 0, 0, "", repeat)
        )

    for _ in range(3):  # misread repeats: "real" releases and presses while the key is still down
        send(QEvent.Type.KeyRelease)
        send(QEvent.Type.KeyPress)
    down.clear()
    send(QEvent.Type.KeyRelease)  # the real release
    tray.settle()
    assert channel.sent == [] and dialog.outcome is None
    send(QEvent.Type.KeyPress)  # a new, deliberate Enter
    send(QEvent.Type.KeyRelease)
    assert tray.reply(channel) == {"jsonrpc": "2.0", "id": 1, "result": {"action": "accept", "content": {}}}


def test_keys_pressed_during_arming_put_arming_off_until_they_stop(aio, qtbot):
    """Someone still typing for another window when a dialog takes the focus: each key pressed
    while it arms starts the delay again, so it arms only once the keys stop."""
    tray = Tray(aio, arm_delay_ms=ARM_MS)
    channel, dialog = _unarmed(tray, CONFIRM)
    for _ in range(4):  # a key every half of the delay: never ARM_MS without one
        qtbot.wait(ARM_MS // 2)  # the user's typing rhythm (the scenario), not a wait for the app
        QTest.keyClick(dialog, Qt.Key.Key_A)
        assert not dialog.is_armed
    with qtbot.waitSignal(dialog.armed, timeout=5000):  # then the keys stop
        pass
    assert channel.sent == []
    tray.disconnect(channel)


def test_the_window_s_own_activation_starts_and_ends_arming(qtbot):
    window, _edit, changes = _window(qtbot)
    other = _window(qtbot)[0]  # another window takes the focus: disarmed (already), stays so
    assert not window.arming.is_armed
    window.activateWindow()  # back without an act: inert
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    assert not window.arming.is_armed and not window.arming.engaged
    other.activateWindow()
    qtbot.waitUntil(other.isActiveWindow, timeout=2000)
    window.arming.welcome()  # back as the user asked (tray menu): armed (no delay here)
    window.activateWindow()
    qtbot.waitUntil(lambda: window.arming.is_armed, timeout=2000)
    other.activateWindow()
    qtbot.waitUntil(lambda: not window.arming.is_armed, timeout=2000)
    assert changes == [True, False]


def test_the_gate_is_back_after_a_new_dialog_was_built_without_it(aio):
    """The presenter builds a dialog with the gate paused (InputGate.paused): the gate is
    installed again afterwards, so the first dialog, still arming, refuses keys as before."""
    tray = Tray(aio, arm_delay_ms=ARM_MS)
    channel, dialog = _unarmed(tray, NAME)
    second = tray.connect()
    tray.send(second, rpc.create(2, NAME))  # built while the first one is on screen
    tray.run(tray.shown.get())
    dialog.activateWindow()
    tray.settle()
    field = dialog.rows["name"].adapter.focus_target
    QTest.keyClicks(field, "yes")
    QTest.keyClick(dialog, Qt.Key.Key_Escape)
    tray.settle()
    assert field.text() == "" and channel.sent == [] and dialog.outcome is None


def test_a_countdown_still_sees_the_keys_the_gate_refuses_after_a_pause(aio):
    """A user-set timeout stops at any key in its dialog, a key refused while arming included:
    its filter stays ahead of the gate when the gate is put back after a pause."""
    tray = Tray(aio, arm_delay_ms=ARM_MS, timeout_s=30)
    channel, dialog = _unarmed(tray, NAME)
    with InputGate.paused():
        pass
    field = dialog.rows["name"].adapter.focus_target
    QTest.keyClick(field, Qt.Key.Key_A)
    assert field.text() == "" and not dialog.countdown.is_running


def test_every_gated_event_class_takes_the_full_check(qapp):
    # The gate lets events of other classes leave before event.type(): every kind it gates must
    # arrive as an input (or input-method) event, or as a plain QEvent.
    from PySide6.QtCore import QPointF, QRect
    from PySide6.QtGui import QInputMethodEvent, QMouseEvent, QPaintEvent

    from elicit_tray.ui.arming import _INPUT_CLASSES, _WATCHED

    point = QPointF(1, 1)
    mouse = Qt.MouseButton.LeftButton
    events = {
        QEvent.Type.KeyPress: QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier),
        QEvent.Type.KeyRelease: QKeyEvent(QEvent.Type.KeyRelease, Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier),
        QEvent.Type.ShortcutOverride: QKeyEvent(
            QEvent.Type.ShortcutOverride, Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier
        ),
        QEvent.Type.InputMethod: QInputMethodEvent(),
    }
    for kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease, QEvent.Type.MouseButtonDblClick):
        events[kind] = QMouseEvent(kind, point, point, mouse, mouse, Qt.KeyboardModifier.NoModifier)
    assert set(events) == set(_WATCHED)
    assert [kind for kind, event in events.items() if not isinstance(event, _INPUT_CLASSES)] == []
    assert not isinstance(QPaintEvent(QRect(0, 0, 1, 1)), _INPUT_CLASSES)


# -- Engagement: focus alone never makes a dialog take keys ---------------------------------------


def _focused_unengaged(tray: Tray, params: dict):
    """A dialog that has the focus without the user's act (a window manager's choice)."""
    channel = tray.connect()
    tray.send(channel, rpc.create(1, params))
    dialog = tray.run(tray.shown.get())
    dialog.activateWindow()
    tray.settle()
    assert dialog.isActiveWindow() and not dialog.arming.engaged and not dialog.is_armed
    return channel, dialog


@pytest.mark.parametrize(
    "keys",
    [
        [(Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier)],
        [(Qt.Key.Key_Space, Qt.KeyboardModifier.NoModifier)],
        [(Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier)],
        [(Qt.Key.Key_Tab, Qt.KeyboardModifier.NoModifier), (Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier)],
        [(Qt.Key.Key_A, Qt.KeyboardModifier.AltModifier), (Qt.Key.Key_D, Qt.KeyboardModifier.AltModifier)],
        [(Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)],  # Ctrl+Enter (chat "send") is not the key
        [(Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)],
        [(Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)],
    ],
)
def test_a_focused_dialog_the_user_never_engaged_with_takes_no_key(aio, keys):
    tray = Tray(aio)
    channel, dialog = _focused_unengaged(tray, NAME)
    field = dialog.rows["name"].adapter.focus_target
    QTest.keyClicks(field, "hunter2 secret")
    for key, modifiers in keys * 2:
        QTest.keyClick(dialog.focusWidget() or dialog, key, modifiers)
    tray.settle()
    assert field.text() == "" and channel.sent == [] and dialog.outcome is None and not dialog.arming.engaged
    assert dialog.status_label.text() == (
        "Keys typed here are ignored until you click in this window or press Ctrl+Shift+Enter in it."
    )
    tray.disconnect(channel)


def test_ctrl_shift_enter_engages_and_the_very_next_enter_answers(aio, monkeypatch):
    """The engagement key's own keys are held when the dialog arms: their release and repeats
    are dropped, and the next Enter, pressed after it, accepts."""
    down: set[int] = set()
    monkeypatch.setattr("elicit_tray.ui.arming.keys_held", lambda _platform: set(down))
    tray = Tray(aio)
    channel, dialog = _focused_unengaged(tray, CONFIRM)

    def send(kind: QEvent.Type, key: Qt.Key, modifiers=Qt.KeyboardModifier.NoModifier, repeat=False) -> None:
        QApplication.sendEvent(
            dialog, QKeyEvent(kind, key, modifiers, 36 if key == Qt.Key.Key_Return else 0, 0, 0, "", repeat)
        )

    chord = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    down.add(36)
    send(QEvent.Type.KeyPress, Qt.Key.Key_Return, chord)
    assert dialog.arming.engaged_by == "key" and dialog.is_armed
    send(QEvent.Type.KeyPress, Qt.Key.Key_Return, chord, repeat=True)
    down.clear()
    send(QEvent.Type.KeyRelease, Qt.Key.Key_Return, chord)
    tray.settle()
    assert channel.sent == [] and dialog.status_label.isHidden()
    send(QEvent.Type.KeyPress, Qt.Key.Key_Return)
    send(QEvent.Type.KeyRelease, Qt.Key.Key_Return)
    assert tray.reply(channel) == {"jsonrpc": "2.0", "id": 1, "result": {"action": "accept", "content": {}}}


def test_a_click_counts_only_once_the_dialog_has_been_on_screen_for_the_delay(aio, qtbot):
    tray = Tray(aio, arm_delay_ms=ARM_MS)
    channel, dialog = _focused_unengaged(tray, CONFIRM)
    QTest.mouseClick(dialog.decline_button, Qt.MouseButton.LeftButton)  # just appeared: a stray click
    tray.settle()
    assert channel.sent == [] and not dialog.arming.engaged
    qtbot.waitUntil(dialog.arming.on_screen_long_enough, timeout=5000)
    QTest.mouseClick(dialog.decline_button, Qt.MouseButton.LeftButton)  # engages, and presses it
    assert tray.reply(channel) == {"jsonrpc": "2.0", "id": 1, "result": {"action": "decline"}}


def test_losing_the_focus_makes_an_engaged_dialog_inert_again(aio, qtbot):
    tray = Tray(aio)
    channel = tray.connect()
    for request_id in (1, 2):
        tray.send(channel, rpc.create(request_id, NAME))
    first, second = tray.run(tray.shown.get()), tray.run(tray.shown.get())
    tray.arm(first)
    QTest.keyClicks(first.rows["name"].adapter.focus_target, "Ada")
    second.activateWindow()
    qtbot.waitUntil(second.isActiveWindow, timeout=2000)
    first.activateWindow()  # back, by the window manager's choice
    qtbot.waitUntil(first.isActiveWindow, timeout=2000)
    assert not first.arming.engaged
    QTest.keyClicks(first.rows["name"].adapter.focus_target, " Lovelace")
    QTest.keyClick(first.rows["name"].adapter.focus_target, Qt.Key.Key_Return)
    tray.settle()
    assert first.rows["name"].adapter.focus_target.text() == "Ada" and channel.sent == []
    QTest.keyClick(first, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    QTest.keyClick(first.rows["name"].adapter.focus_target, Qt.Key.Key_Return)
    assert tray.reply(channel) == {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {"action": "accept", "content": {"name": "Ada"}},
    }
    tray.disconnect(channel)


def test_a_click_counts_as_soon_as_a_dialog_the_user_chose_is_armed(aio):
    """Chosen right after it appeared (tray menu, the demo's scripted user): armed after the
    delay, by which time it has been on screen for the delay too, so a click counts at once."""
    tray = Tray(aio, arm_delay_ms=ARM_MS)
    channel = tray.connect()
    tray.send(channel, rpc.create(1, CONFIRM))
    dialog = tray.arm(tray.run(tray.shown.get()))
    QTest.mouseClick(dialog.decline_button, Qt.MouseButton.LeftButton)
    assert tray.reply(channel) == {"jsonrpc": "2.0", "id": 1, "result": {"action": "decline"}}
