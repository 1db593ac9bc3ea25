"""Engagement and arming: only a deliberate act of the user answers or fills a dialog.

docs/design.md "UI rules" (consent integrity: "Only a deliberate act answers"). Two layers:

1. **Engagement (the guarantee).** A dialog is inert to keys until the user *engages* with it
   by an act that stray typing cannot make:

   - a pointer press in the dialog (:data:`POINTER`), once it has been on screen for the
     arming delay (a click aimed at a window where the dialog has just appeared does not
     count);
   - :data:`ENGAGE_KEY_TEXT` pressed in the dialog (:data:`KEY`);
   - an activation the user asked the app for (:data:`APP`): the tray icon, its menu, the
     desktop notification's action (:meth:`Arming.welcome`).

   Keyboard focus alone never engages, however it arrived: no platform tells an application
   whether its focus came from the user's window switcher or from the window manager's own
   choice (the window that closed was over it, a compositor that focuses every new window).
   Under openbox and xfwm4 the X FocusIn event says ``NotifyNormal`` for both; a Wayland
   compositor says nothing at all. A timer cannot tell either: a pause in typing is not
   attention (any X client can read the desktop's idle time and send its request in a pause).
   Losing the focus disengages, so each return of the focus needs an act again.

2. **Arming (the second layer).** Once engaged, a dialog arms at once after a pointer or key
   engagement and :data:`ARM_DELAY_MS` after an activation through the app (every key pressed
   meanwhile starts the delay again). A key counts only if its press came after arming: the
   release of a key pressed earlier, and every auto-repeated press of a key held from before,
   are dropped; Enter, Space and Escape never act on auto-repeat at all.

While a dialog is not armed, no key (shortcuts and mnemonics included) and no input-method
text reaches any of its widgets, so neither a button (Decline and Cancel included) nor a field
can be operated; mouse buttons reach it only once it has been on screen for the delay.

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

from .application import application, parent_as
from .focus import keys_held

__all__ = ["APP", "ARM_DELAY_MS", "ENGAGE_KEY_TEXT", "KEY", "POINTER", "Arming", "InputGate", "is_engage_key"]

#: How long a dialog must have been on screen before a click in it counts, and how long after
#: an activation through the app its keys stay disarmed (ms).
ARM_DELAY_MS = 700
#: How an activation through the app stays expected after the user asked for it (ms): the
#: window system grants it asynchronously, or not at all (a Wayland compositor may refuse).
WELCOME_MS = 2000

#: Engagement kinds (:meth:`Arming.engage`).
POINTER = "pointer"
KEY = "key"
APP = "app"

#: The engagement key as the user reads it (README, the dialog's hint): a chord no one types
#: by accident into a terminal, an editor or a chat (Enter with both Ctrl and Shift).
ENGAGE_KEY_TEXT = "Ctrl+Shift+Enter"
_ENGAGE_MODIFIERS = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
_MODIFIER_MASK = (
    Qt.KeyboardModifier.ControlModifier
    | Qt.KeyboardModifier.ShiftModifier
    | Qt.KeyboardModifier.AltModifier
    | Qt.KeyboardModifier.MetaModifier
)

_KEYS = frozenset({QEvent.Type.KeyPress, QEvent.Type.KeyRelease, QEvent.Type.ShortcutOverride})
_MOUSE = frozenset({QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease, QEvent.Type.MouseButtonDblClick})
_WATCHED = _KEYS | _MOUSE | {QEvent.Type.InputMethod}
#: The classes PySide6 wraps every event of _WATCHED in (key and mouse events are input events).
_INPUT_CLASSES = (QInputEvent, QInputMethodEvent)
#: Modifier keys pressed on their own.
_MODIFIER_KEYS = frozenset(
    {
        Qt.Key.Key_Control,
        Qt.Key.Key_Shift,
        Qt.Key.Key_Alt,
        Qt.Key.Key_Meta,
        Qt.Key.Key_AltGr,
        Qt.Key.Key_Super_L,
        Qt.Key.Key_Super_R,
    }
)
#: Keys that commit or dismiss: never acted on when auto-repeated.
_NO_REPEAT = frozenset({Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space, Qt.Key.Key_Escape})


def is_engage_key(event: QKeyEvent) -> bool:
    """Whether ``event`` is :data:`ENGAGE_KEY_TEXT`: Enter (main or keypad) with Ctrl and Shift
    and no other modifier."""
    return event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and (event.modifiers() & _MODIFIER_MASK) == (
        _ENGAGE_MODIFIERS
    )


def _key_id(event: QKeyEvent) -> int:
    """The physical key of ``event`` (its scan code where the platform gives one, else its key
    code), so that a press and its release match even when a modifier changed the symbol."""
    return event.nativeScanCode() or int(event.key())


class Arming(QObject):
    """The engagement and arming state of one dialog (``window``): module docstring.

    Args:
        window: the dialog; its widgets are gated until it is engaged and armed.
        delay_ms: :data:`ARM_DELAY_MS` unless a test or the user sets another (0: a click
            counts as soon as the dialog is on screen, and an activation through the app arms
            at once).

    Signals:
        changed(bool): armed (True) or disarmed (False).
        engagement_changed(bool): engaged (True) or not (False).
        refused(): a key press reached the dialog before the user engaged with it.
        inert_focus(): the dialog became the active window without the user's act.

    Attributes:
        engaged_by: how the user engaged with the dialog since it last got the focus
            (:data:`POINTER`, :data:`KEY`, :data:`APP`; :attr:`engaged`), or ``None``.

    ``ready`` is a predicate the owner may set (e.g. "every row is built"); arming waits for it
    and :meth:`try_arm` re-checks it.
    """

    changed = Signal(bool)
    engagement_changed = Signal(bool)
    refused = Signal()
    inert_focus = Signal()

    def __init__(self, window: QWidget, delay_ms: int = ARM_DELAY_MS):
        super().__init__(window)
        self.delay_ms = max(0, delay_ms)
        self.is_armed = False
        self.engaged_by: str | None = None
        self.ready = lambda: True
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        # Never early (a coarse timer may fire 5% early): once armed after an activation, the
        # dialog has also been on screen for the delay, so a click then counts too.
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.timeout.connect(self.try_arm)
        self._waiting = False  # the delay ran out but ``ready`` said no
        self._fresh: set[int] = set()  # keys pressed (not auto-repeated) since arming
        self._held: set[int] = set()  # keys already down when it armed (X11), until released
        self._focus_before: QWidget | None = None  # where the focus was before its last move here
        #: ``time.monotonic()`` until which the next activation is one the user asked for
        #: (:meth:`welcome`, a pointer press before the activation arrived), and its kind.
        self._expected: tuple[float, str] = (float("-inf"), APP)
        self._shown_at = float("inf")  # ``time.monotonic()`` of the last show
        application().focusChanged.connect(self._focus_changed)
        window.installEventFilter(self)  # its activation starts and ends arming
        InputGate.install()

    @property
    def window(self) -> QWidget:
        """The dialog: its Qt parent (:func:`~.application.parent_as`)."""
        return parent_as(self, QWidget)

    @property
    def engaged(self) -> bool:
        """Whether the user engaged with the dialog since it last got the focus."""
        return self.engaged_by is not None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt naming)
        """Shown: the click clock starts. Became active: engaged only if the user asked for this
        activation (:meth:`welcome`), else inert until an act. Stopped being active: disengage."""
        kind = event.type()
        if watched is not self.window or kind not in (QEvent.Type.ActivationChange, QEvent.Type.Show):
            return False
        if kind == QEvent.Type.Show:
            self._shown_at = time.monotonic()
        if self.window.isActiveWindow():
            if kind == QEvent.Type.ActivationChange or not self.is_armed:
                self._activated()
        elif kind == QEvent.Type.ActivationChange:
            self.disengage()
        return False

    def _activated(self) -> None:
        until, how = self._expected
        self._expected = (float("-inf"), APP)
        if time.monotonic() <= until:
            self.engaged_by = None  # engaged afresh, for this activation
            self.engage(how)
        elif self.engaged and self.engaged_by == APP:
            self.restart()
        elif not self.engaged:
            self.disarm()
            self.inert_focus.emit()

    # -- state --------------------------------------------------------------------------------
    def welcome(self) -> None:
        """The user asked the app for this dialog (tray icon, tray menu, notification action):
        engage it now if it is the active window, else on its activation if that comes within
        :data:`WELCOME_MS` (the caller asks the window system for it)."""
        if self.window.isActiveWindow():
            self.engaged_by = None  # engaged afresh, through the app (its delay starts again)
        self.engage(APP)  # when inactive: on the activation, if it comes in time

    def engage(self, how: str) -> None:
        """The user engaged with the dialog (``how``: :data:`POINTER`, :data:`KEY` or
        :data:`APP`). A pointer or key engagement arms at once (when active and ready); one
        through the app arms after the delay. Raises ``ValueError`` for another ``how``."""
        if how not in (POINTER, KEY, APP):
            raise ValueError(f"unknown engagement {how!r}")
        if self.engaged:
            return
        if not self.window.isActiveWindow():  # the activation is on its way (a click on an inactive window)
            self._expected = (time.monotonic() + WELCOME_MS / 1000, how)
            return
        self.engaged_by = how
        self.engagement_changed.emit(True)
        if how == APP:
            self.restart()
        else:
            self._timer.stop()
            self.try_arm()

    def disengage(self) -> None:
        """Inert again (the dialog lost the focus): disarmed, and keys refused until an act."""
        self.disarm()
        if self.engaged:
            self.engaged_by = None
            self.engagement_changed.emit(False)

    def restart(self) -> None:
        """Disarm and arm again after the delay (if engaged; keys pressed meanwhile restart it)."""
        self.disarm()
        if not self.engaged:
            return
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
        """Arm if engaged, the delay has run out, the dialog is still the active window and
        ``ready``."""
        if self._timer.isActive() or self.is_armed or not self.engaged:
            return
        if not self.window.isActiveWindow():
            return  # arms when it is activated again (restart)
        if not self.ready():
            self._waiting = True
            return
        self._waiting = False
        # Keys already down now were pressed for something else (or are the engagement key):
        # their repeats can arrive here as plain presses (Qt saw no first press while another
        # window had the focus).
        self._held = keys_held(QGuiApplication.platformName())
        self.is_armed = True
        self.changed.emit(True)

    def ready_changed(self) -> None:
        """Call when ``ready`` may have become true (arms if the delay had already run out)."""
        if self._waiting:
            self.try_arm()

    def on_screen_long_enough(self) -> bool:
        """Whether the dialog has been on screen for the delay (a click in it counts)."""
        return self.window.isVisible() and (time.monotonic() - self._shown_at) * 1000 >= self.delay_ms

    # -- events -------------------------------------------------------------------------------
    def _focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        window = self.window
        if new is not None and window.isAncestorOf(new):
            # Never the window itself (isAncestorOf counts it): held here, it would hold itself.
            inside = old is not None and old is not window and window.isAncestorOf(old)
            self._focus_before = old if inside else None

    def _undo_click_focus(self, clicked: QObject) -> None:
        """Qt gives the focus to a clicked control before any filter sees the press: a press
        refused during arming takes that focus back."""
        if isinstance(clicked, QWidget) and clicked.hasFocus() and self._focus_before is not None:
            self._focus_before.setFocus(Qt.FocusReason.OtherFocusReason)

    def admits(self, watched: QObject, event: QEvent) -> bool:
        """Whether ``event`` (a key, input-method or mouse-button event for a widget of this
        dialog) may reach it; a pointer press engages, and so does :data:`ENGAGE_KEY_TEXT`. A
        refused ShortcutOverride is accepted, so that no shortcut fires."""
        kind = event.type()
        if kind in _MOUSE:
            if isinstance(watched, QScrollBar):
                return True  # scrolling is harmless
            if not self.on_screen_long_enough():
                if kind == QEvent.Type.MouseButtonPress:
                    self._undo_click_focus(watched)
                return False
            if kind == QEvent.Type.MouseButtonPress:
                self.engage(POINTER)
            return True
        if not self.engaged:
            return self._inert_key(event)
        if not self.is_armed:
            if kind == QEvent.Type.KeyPress and self._timer.isActive():
                # Still typing what was meant for another window: arm only once the keys stop.
                self._timer.start(self.delay_ms)
            if kind == QEvent.Type.ShortcutOverride:
                event.accept()  # "the widget wants this key": the shortcut map stays out of it
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

    def _inert_key(self, event: QEvent) -> bool:
        """A key or input-method event before engagement: refused; :data:`ENGAGE_KEY_TEXT`
        (pressed, not repeated) engages. Its keys were pressed before arming, so their release
        and repeats are dropped like those of any key held from before."""
        kind = event.type()
        if kind == QEvent.Type.ShortcutOverride:
            event.accept()
        elif kind == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            if is_engage_key(event) and not event.isAutoRepeat() and self.window.isActiveWindow():
                self.engage(KEY)
            elif not event.isAutoRepeat() and event.key() not in _MODIFIER_KEYS:
                self.refused.emit()  # (a modifier alone is no key typed: it may begin the engagement key)
        return False


class InputGate(QObject):
    """The application-wide event filter behind every :class:`Arming`: an event of a gated kind
    for a widget whose window has an ``arming`` attribute passes only if that arming admits it."""

    _installed: InputGate | None = None
    #: Application-wide filters that see input before the gate, oldest first (:meth:`ahead`).
    _ahead: list[QObject] = []

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
        from the event loop (``show()`` of a window, which on some platforms flushes queued
        window-system events, stays outside the block; showing a child widget of a window already
        on screen does not). Inside it, besides constructing widgets, only Qt's own posted events
        of kinds that are never input may be delivered (``sendPostedEvents`` for one kind: polish,
        layout and update requests), so that a form's later rows are laid out without the gate
        (:mod:`~.form_dialog`). Nothing else may happen inside it."""
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
        return not arming.admits(watched, event)
