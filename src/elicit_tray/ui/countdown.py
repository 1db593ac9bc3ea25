"""The optional user-set timeout of a dialog: a visible countdown that stops at the first key or
click in the dialog, and warns before the time runs out.

docs/design.md "Product policies" (Actions: timeout -> cancel); as in pinentry, a timeout
stops at the first keystroke. Off unless the user set one (``serve --timeout``); the dialog
answers ``cancel`` when :attr:`Countdown.expired` fires.

WCAG 2.2 2.2.1 (Timing Adjustable): the user chose the limit (``serve --timeout``), turns it off
in a dialog with any key there (a modifier alone, Shift or Ctrl, does nothing else), and is
warned :data:`WARN_AT_S` seconds before the end (:attr:`Countdown.warned`, which the dialog
speaks), so at least 20 s remain to stop it. The requester's own deadline is not this one:
stopping the countdown never keeps a request alive that its requester cancels.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel, QWidget

from .application import parent_as
from .arming import InputGate
from .i18n import translate
from .labels import plain_label

__all__ = ["Countdown", "TICK_MS", "WARN_AT_S"]

#: How often the shown time is brought up to date (ms).
TICK_MS = 250
#: Seconds left at which screen readers are warned (each one the countdown started above).
WARN_AT_S = (20, 5)


def warning_text(seconds: int) -> str:
    """What the countdown says ``seconds`` before the end, in the user's language."""
    return translate(
        "Dialog", "This request is cancelled in {seconds} seconds. Press any key in this window to stop the timer."
    ).format(seconds=seconds)


class Countdown(QObject):
    """Counts ``seconds`` down for ``window`` and shows what is left in :attr:`label`
    (object name ``countdown``, e.g. "Cancels by itself in 1:05"; the owner places it).

    Args:
        window: the dialog; a key press or mouse press in it (or any widget inside it) stops
            the countdown for good, and the label then says "Timer stopped".
        seconds: the time left when :meth:`start` is called.
        clock: monotonic seconds (``time.monotonic``; tests pass their own).

    Signals:
        expired(): emitted once, when the time has run out before anything stopped it.
        warned(str): emitted with :func:`warning_text` when the time left reaches each of
            :data:`WARN_AT_S` (only those below the starting time; at most once each).
    """

    expired = Signal()
    warned = Signal(str)

    def __init__(self, window: QWidget, seconds: int, *, clock: Callable[[], float] = time.monotonic):
        super().__init__(window)
        self.seconds = seconds
        self.clock = clock
        self.remaining = seconds
        self._deadline = 0.0
        self._warnings: list[int] = []
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self.tick)
        self.label: QLabel = plain_label("", selectable=False)
        self.label.setObjectName("countdown")

    @property
    def window(self) -> QWidget:
        """The dialog: its Qt parent (:func:`~.application.parent_as`)."""
        return parent_as(self, QWidget)

    @property
    def is_running(self) -> bool:
        """Whether it is counting (started, neither stopped nor expired)."""
        return self._timer.isActive()

    def start(self) -> None:
        """Start counting from :attr:`seconds` and watch the application's input for the
        window's first key or click."""
        self._deadline = self.clock() + self.seconds
        self.remaining = self.seconds
        self._warnings = [at for at in WARN_AT_S if at < self.seconds]
        InputGate.ahead(self)  # sees the keys and clicks the input gate refuses, too
        self._show_remaining()
        self._timer.start()

    def _show_remaining(self) -> None:
        minutes, seconds = divmod(self.remaining, 60)
        self.label.setText(translate("Dialog", "Cancels by itself in {time}").format(time=f"{minutes}:{seconds:02d}"))

    def tick(self) -> None:
        """Bring the shown time up to date; at the deadline stop and emit :attr:`expired`
        (the timer calls this every :data:`TICK_MS`)."""
        if not self.is_running:
            return
        left = self._deadline - self.clock()
        self.remaining = math.ceil(left)
        if left <= 0:
            self.stop()
            self.expired.emit()
            return
        self._show_remaining()
        due = [at for at in self._warnings if left <= at]
        if due:
            self._warnings = [at for at in self._warnings if at not in due]
            self.warned.emit(warning_text(min(due)))

    def stop(self) -> None:
        """Stop for good (the user is answering, the time ran out, or the dialog ended):
        "Timer stopped". Does nothing when it is not running."""
        if self.is_running:
            self._timer.stop()
            InputGate.ahead(self, on=False)
            self.label.setText(translate("Dialog", "Timer stopped"))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() in (QEvent.Type.KeyPress, QEvent.Type.MouseButtonPress)
            and isinstance(watched, QWidget)
            and (watched is self.window or self.window.isAncestorOf(watched))
        ):
            self.stop()
        return False
