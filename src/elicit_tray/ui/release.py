"""Give freed heap back to the system once no dialog is left (glibc ``malloc_trim``).

Measured (``benchmarks/memory.py``, offscreen; README "Memory"): after a burst of dialogs
has closed, glibc's main arena keeps 5.4-8.2 MiB free but not returned (live heap 10.2-10.6
MiB in an arena of 15.6-18.7 MiB), because a few long-lived blocks allocated during the burst
sit above the freed ones; ``malloc_trim(0)`` returns 3.5-4.4 MiB of it in about a millisecond.
Nothing is leaked there (the live heap stays flat); this only returns what is already free.

:class:`IdleRelease` trims once after the last request is answered and the last dialog window
has gone (expired dialogs linger for a while), never while a dialog is on screen, so it cannot
delay one. On a system without glibc it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import sys
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QApplication, QDialog

__all__ = ["IdleRelease", "trim_heap", "IDLE_RELEASE_MS"]

log = logging.getLogger(__name__)

#: How long (ms) the app stays without requests and dialog windows before the heap is trimmed.
IDLE_RELEASE_MS = 1000

_trim: Callable[[int], int] | None = None
if sys.platform.startswith("linux"):
    try:
        _trim = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):  # musl and others: no malloc_trim
        _trim = None


def trim_heap() -> bool:
    """``malloc_trim(0)``: return free heap pages to the system; False where unavailable."""
    if _trim is None:
        return False
    _trim(0)
    return True


class IdleRelease(QObject):
    """Trims the heap (:func:`trim_heap`) once the app is idle: ``pending()`` (requests waiting
    for an answer) is 0 and no dialog window is visible, for :data:`IDLE_RELEASE_MS`. Call
    :meth:`changed` whenever the pending requests change."""

    def __init__(self, pending: Callable[[], int], parent: QObject | None = None, delay_ms: int = IDLE_RELEASE_MS):
        super().__init__(parent)
        self._pending = pending
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(delay_ms)
        self._timer.timeout.connect(self._check)
        #: how many times the heap was trimmed (for tests and benchmarks)
        self.trims = 0

    def changed(self, *_args: Any) -> None:
        """The pending requests changed: (re)start the idle countdown when none is left."""
        if self._pending() == 0:
            self._timer.start()
        else:
            self._timer.stop()

    def _check(self) -> None:
        if self._pending() != 0:
            return
        if any(isinstance(w, QDialog) and w.isVisible() for w in QApplication.topLevelWidgets()):
            self._timer.start()  # an expired dialog still says so; it closes by itself
            return
        if trim_heap():
            self.trims += 1
