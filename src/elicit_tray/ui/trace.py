"""An optional timing trace of each dialog, for the benchmarks (``ELICIT_TRAY_TRACE=PATH``).

One JSON line per dialog: ``{"key", "mode", "fields", "start_ns", "built_ms", "shown_ms",
"painted_ms", "answered_ms", "gc_ms"}``. ``start_ns`` is ``time.monotonic_ns()`` when the presenter got
the request (CLOCK_MONOTONIC on Linux: comparable with another process's clock), the others
are milliseconds after it; ``painted_ms`` is the dialog's first paint event; ``gc_ms`` is the
time the cyclic garbage collector ran between the request and that first paint. Off unless the
variable is set; nothing in it is a user's data.
"""

from __future__ import annotations

import gc
import json
import logging
import os
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject

from ..paths import PrivateFileRefused, open_private_append
from ..request import ElicitationRequest, FormRequest

__all__ = ["ENV_TRACE", "DialogTrace"]

log = logging.getLogger(__name__)

#: The environment variable naming the trace file (appended to).
ENV_TRACE = "ELICIT_TRAY_TRACE"


class _GcClock:
    """Time (ns) the cyclic garbage collector has run since this clock was made."""

    def __init__(self) -> None:
        self._started: int | None = None
        self.total_ns = 0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter_ns()
        elif self._started is not None:
            self.total_ns += time.perf_counter_ns() - self._started
            self._started = None


_gc_clock: _GcClock | None = None


class DialogTrace(QObject):
    """Times one dialog from request to first paint and answer; writes the line when answered.

    Create it with :meth:`start`, which returns ``None`` when tracing is off.
    """

    def __init__(self, path: str, request: ElicitationRequest):
        super().__init__()
        self.path = path
        self.start_ns = time.monotonic_ns()
        global _gc_clock
        if _gc_clock is None:
            _gc_clock = _GcClock()
        self._gc = _gc_clock
        self._gc_at_start = _gc_clock.total_ns
        fields = len(request.form.fields) if isinstance(request, FormRequest) else 0
        self.line: dict[str, Any] = {
            "key": request.key,
            "mode": request.mode,
            "fields": fields,
            "start_ns": self.start_ns,
        }

    @classmethod
    def start(cls, request: ElicitationRequest) -> DialogTrace | None:
        path = os.environ.get(ENV_TRACE)
        return cls(path, request) if path else None

    def mark(self, name: str) -> None:
        """Record ``<name>_ms`` now (the first time only)."""
        if f"{name}_ms" not in self.line:
            self.line[f"{name}_ms"] = round((time.monotonic_ns() - self.start_ns) / 1e6, 3)
            if name == "painted":
                self.line["gc_ms"] = round((self._gc.total_ns - self._gc_at_start) / 1e6, 3)

    def watch_paint(self, dialog: QObject) -> None:
        dialog.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.mark("painted")
            watched.removeEventFilter(self)
        return False

    def finish(self) -> None:
        """The request ended: append the line."""
        self.mark("answered")
        try:  # as the logs: never through a symbolic link, only the user's own regular file
            with os.fdopen(open_private_append(Path(self.path)), "a", encoding="utf-8") as out:
                out.write(json.dumps(self.line) + "\n")
        except PrivateFileRefused as refused:  # never in the way of the answer
            log.warning("the dialog trace %s is not written (refused: %s)", self.path, refused.kind)
        except OSError as exc:
            log.warning("the dialog trace %s is not written: %s", self.path, exc.strerror or exc)
