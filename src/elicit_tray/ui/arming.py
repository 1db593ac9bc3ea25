"""Arming: only a deliberate act of the user, made after a dialog was armed, answers or fills it.

DESIGN.md "UI rules" (consent integrity). A dialog starts disarmed and arms
:data:`ARM_DELAY_MS` after it becomes the active window; it disarms the moment it loses the
focus and the delay starts again when it comes back, and again with every key pressed while it
runs (someone still typing for another window arms it only once the keys stop). While it is
disarmed, no key (shortcuts and mnemonics included), no input-method text and no mouse button
reaches any of its widgets, so
neither a button (Decline and Cancel included) nor a field can be operated. Once armed, a key
counts only if its press came after arming: the release of a key pressed earlier, and every
auto-repeated press of a key held from before, are dropped; Enter, Space and Escape never act
on auto-repeat at all.

One :class:`InputGate` per application filters the events of every window that has an
``arming`` attribute holding an :class:`Arming`; it looks only at the event kinds it gates.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QInputEvent, QInputMethodEvent, QKeyEvent
from PySide6.QtWidgets import QScrollBar, QWidget
from shiboken6 import isValid

from .activity import keys_held
from .application import application, parent_as

__all__ = ["ARM_DELAY_MS", "Arming", "InputGate"]

#: How long every button and field of a dialog stays disarmed after it appears or regains the
#: focus (ms), against keystrokes and clicks meant for another window.
ARM_DELAY_MS = 700

_KEYS = frozenset({QEvent.Type.KeyPress, QEvent.Type.KeyRelease, QEvent.Type.ShortcutOverride})
_MOUSE = frozenset({QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease, QEvent.Type.MouseButtonDblClick})
_WATCHED = _KEYS | _MOUSE | {QEvent.Type.InputMethod}
#: The classes PySide6 wraps every event of _WATCHED in (key and mouse events are input events).
_INPUT_CLASSES = (QInputEvent, QInputMethodEvent)
#: Keys that commit or dismiss: never acted on when auto-repeated.
_NO_REPEAT = frozenset({Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space, Qt.Key.Key_Escape})


def _key_id(event: QKeyEvent) -> int:
    """The physical key of ``event`` (its scan code where the platform gives one, else its key
    code), so that a press and its release match even when a modifier changed the symbol."""
    return event.nativeScanCode() or int(event.key())


class Arming(QObject):
    """The arming state of one dialog (``window``).

    Args:
        window: the dialog; its widgets are gated while it is disarmed.
        delay_ms: :data:`ARM_DELAY_MS` unless a test or the user sets another (0 arms at once
            whenever the dialog is active).

    Signals:
        changed(bool): armed (True) or disarmed (False).

    ``ready`` is a predicate the owner may set (e.g. "every row is built"); arming waits for it
    and :meth:`try_arm` re-checks it.
    """

    changed = Signal(bool)

    def __init__(self, window: QWidget, delay_ms: int = ARM_DELAY_MS):
        super().__init__(window)
        self.delay_ms = max(0, delay_ms)
        self.is_armed = False
        self.ready = lambda: True
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.try_arm)
        self._waiting = False  # the delay ran out but ``ready`` said no
        self._fresh: set[int] = set()  # keys pressed (not auto-repeated) since arming
        self._held: set[int] = set()  # keys already down when it armed (X11), until released
        self._focus_before: QWidget | None = None  # where the focus was before its last move here
        application().focusChanged.connect(self._focus_changed)
        window.installEventFilter(self)  # its activation starts and ends arming
        InputGate.install()

    @property
    def window(self) -> QWidget:
        """The dialog: its Qt parent (:func:`~.application.parent_as`)."""
        return parent_as(self, QWidget)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt naming)
        """The window became active (or was shown active): arm again after the delay, since keys
        may still be meant for the window the user came from; it stopped being active: disarm."""
        kind = event.type()
        if kind in (QEvent.Type.ActivationChange, QEvent.Type.Show) and watched is self.window:
            if self.window.isActiveWindow():
                if kind == QEvent.Type.ActivationChange or not self.is_armed:
                    self.restart()
            elif kind == QEvent.Type.ActivationChange:
                self.disarm()
        return False

    # -- state --------------------------------------------------------------------------------
    def restart(self) -> None:
        """The dialog became active: disarm and arm again after the delay."""
        self.disarm()
        if self.delay_ms:
            self._timer.start(self.delay_ms)
        else:  # arming switched off (tests, scripted runs): armed as soon as it is active
            self.try_arm()

    def disarm(self) -> None:
        """Disarm now (focus lost, or arming restarts); forgets every key pressed so far."""
        self._timer.stop()
        self._waiting = False
        self._fresh.clear()
        if self.is_armed:
            self.is_armed = False
            self.changed.emit(False)

    def try_arm(self) -> None:
        """Arm if the delay has run out, the dialog is still the active window and ``ready``."""
        if self._timer.isActive() or self.is_armed:
            return
        if not self.window.isActiveWindow():
            return  # arms when it is activated again (restart)
        if not self.ready():
            self._waiting = True
            return
        self._waiting = False
        # Keys already down now were pressed for something else: their repeats can arrive here
        # as plain presses (Qt saw no first press while another window had the focus).
        self._held = keys_held(QGuiApplication.platformName())
        self.is_armed = True
        self.changed.emit(True)

    def ready_changed(self) -> None:
        """Call when ``ready`` may have become true (arms if the delay had already run out)."""
        if self._waiting:
            self.try_arm()

    # -- events -------------------------------------------------------------------------------
    def _focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        if new is not None and self.window.isAncestorOf(new):
            self._focus_before = old if old is not None and self.window.isAncestorOf(old) else None

    def _undo_click_focus(self, clicked: QObject) -> None:
        """Qt gives the focus to a clicked control before any filter sees the press: a press
        refused during arming takes that focus back."""
        if isinstance(clicked, QWidget) and clicked.hasFocus() and self._focus_before is not None:
            self._focus_before.setFocus(Qt.FocusReason.OtherFocusReason)

    def admits(self, watched: QObject, event: QEvent) -> bool:
        """Whether ``event`` (a key, input-method or mouse-button event for a widget of this
        dialog) may reach it. A refused ShortcutOverride is accepted, so that no shortcut fires."""
        kind = event.type()
        if not self.is_armed:
            if kind == QEvent.Type.KeyPress and self._timer.isActive():
                # Still typing what was meant for another window: arm only once the keys stop.
                self._timer.start(self.delay_ms)
            if kind == QEvent.Type.ShortcutOverride:
                event.accept()  # "the widget wants this key": the shortcut map stays out of it
            if isinstance(watched, QScrollBar):
                return kind in _MOUSE  # scrolling is harmless
            if kind == QEvent.Type.MouseButtonPress:
                self._undo_click_focus(watched)
            return False
        if kind in _KEYS:
            assert isinstance(event, QKeyEvent)
            key = _key_id(event)
            if key in self._held:  # held since before arming: dropped until it is really released
                # Qt tells an auto-repeat release from a real one by the next event's time; on a
                # busy machine it gets it wrong, so the key's state is asked of the server.
                if kind == QEvent.Type.KeyRelease and key not in keys_held(QGuiApplication.platformName()):
                    self._held.discard(key)
                elif kind == QEvent.Type.ShortcutOverride:
                    event.accept()
                return False
            if kind == QEvent.Type.KeyRelease:
                # Kept in the set: an ignored event is filtered again for each parent it reaches.
                return key in self._fresh
            if event.isAutoRepeat():
                admitted = key in self._fresh and event.key() not in _NO_REPEAT
            else:
                admitted = True
                if kind == QEvent.Type.KeyPress:
                    self._fresh.add(key)
            if not admitted and kind == QEvent.Type.ShortcutOverride:
                event.accept()
            return admitted
        return True


class InputGate(QObject):
    """The application-wide event filter behind every :class:`Arming`: an event of a gated kind
    for a widget whose window has an ``arming`` attribute passes only if that arming admits it."""

    _installed: InputGate | None = None
    #: Application-wide filters that see input before the gate, oldest first (:meth:`ahead`).
    _ahead: list[QObject] = []
    #: ``time.monotonic()`` of the last key press in any gated window (admitted or not).
    last_key_press = float("-inf")

    @classmethod
    def install(cls) -> None:
        """Install the gate on the running QApplication (once)."""
        if cls._installed is None:
            cls._installed = InputGate()
            application().installEventFilter(cls._installed)

    @classmethod
    def ahead(cls, watcher: QObject, on: bool = True) -> None:
        """Install (``on``) or remove ``watcher`` as an application-wide event filter that sees
        every event before the gate does, the ones the gate refuses included (a countdown stops
        at any key), also after :meth:`paused` put the gate back."""
        app = application()
        cls._ahead = [w for w in cls._ahead if isValid(w)]  # a deleted filter left Qt's list by itself
        if watcher in cls._ahead:
            cls._ahead.remove(watcher)
            app.removeEventFilter(watcher)
        if on:
            cls._ahead.append(watcher)
            app.installEventFilter(watcher)  # Qt calls the filter installed last first

    @classmethod
    @contextmanager
    def paused(cls) -> Iterator[None]:
        """The gate is off while a new dialog's widgets are constructed, and back (in the same
        order among the application's filters) when the block ends.

        Constructing widgets sends each of them a dozen events (child added, parent and
        palette changes, polish requests...), about 1,800 for a 10-field form, and every one
        went through this Python filter: about a third of the time a dialog took to build
        (benchmarks/inproc.py). No input reaches any window while the block runs: constructing
        widgets runs no event loop and creates no native window, and input is delivered only
        from the event loop (``show()``, which on some platforms flushes queued window-system
        events, stays outside the block). Nothing else may happen inside it."""
        gate = cls._installed
        if gate is None:  # the first dialog installs the gate itself
            yield
            return
        app = application()
        app.removeEventFilter(gate)
        try:
            yield
        finally:
            app.installEventFilter(gate)
            cls._ahead = [w for w in cls._ahead if isValid(w)]
            for watcher in cls._ahead:  # still called before the gate
                app.removeEventFilter(watcher)
                app.installEventFilter(watcher)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Every event of the app passes here (~400 while a 10-field form is shown), so the most
        # common ones leave before event.type(), whose Python enum costs more than the rest of
        # the check: an event PySide6 wrapped as a class of its own that is neither an input
        # event nor an input-method event (paint, resize, move, show, child, timer...) is none
        # of _WATCHED. Input events, and events wrapped as plain QEvent, are looked at in full.
        if type(event) is not QEvent and not isinstance(event, _INPUT_CLASSES):
            return False
        if event.type() not in _WATCHED or not isinstance(watched, QWidget):
            return False
        arming = getattr(watched.window(), "arming", None)
        if not isinstance(arming, Arming):
            return False
        if event.type() == QEvent.Type.KeyPress:
            InputGate.last_key_press = time.monotonic()
        return not arming.admits(watched, event)
