"""Pattern checks of what the user types, never waited for on the UI thread beyond a moment.

A field's ``pattern`` is matched by the worker process of :mod:`~elicit_tray.schema.pattern`,
which may take up to :data:`~elicit_tray.schema.pattern.MATCH_TIMEOUT_S` for one value (and a
worker restart after a slow one). A keystroke must not freeze the app for that long: a value
whose verdict is not remembered is checked in a background thread; the UI thread waits at most
:data:`WAIT_S` for it (a fast pattern answers within that, so nothing flickers), and otherwise
the field says that its value is still being checked (Accept stays disabled) until
:attr:`TypedPatterns.answered` tells the dialogs to validate again.
"""

from __future__ import annotations

import concurrent.futures
import logging

from PySide6.QtCore import QObject, Qt, Signal

from ..schema import pattern

__all__ = ["WAIT_S", "TypedPatterns", "typed_patterns"]

log = logging.getLogger(__name__)

#: Longest wait (seconds) of the UI thread for the verdict of one typed value.
WAIT_S = 0.01


class TypedPatterns(QObject):
    """:meth:`verdict` of typed values; ``answered`` once a check that was not waited for has
    its verdict (emitted from the background thread: connect it queued). One background thread,
    so checks run one at a time in the order typed, on the process-wide engine (whose cache then
    serves the final check on Accept)."""

    answered = Signal()

    def __init__(self, engine: pattern.PatternEngine | None = None) -> None:
        super().__init__()
        self.engine = engine or pattern.engine
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None
        self._asked: dict[tuple[str, str], concurrent.futures.Future[str]] = {}
        self._late: set[tuple[str, str]] = set()  # not answered within WAIT_S: answered follows

    def verdict(self, pattern_text: str, value: str) -> str | None:
        """The :class:`~elicit_tray.schema.pattern.Verdict` of ``value``, or ``None`` while it is
        being checked (the check starts here; :attr:`answered` follows). Waits at most
        :data:`WAIT_S`. A :data:`~elicit_tray.schema.values.PatternCheck`."""
        known = self.engine.known(pattern_text, value)
        if known is not None:
            return known
        key = (pattern_text, value)
        future = self._asked.get(key)
        if future is None:
            if self._pool is None:
                self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="elicit-tray-pattern")
            future = self._pool.submit(self._check, pattern_text, value)
            self._asked[key] = future
        ahead = sum(not f.done() for f in self._asked.values()) > 1  # the thread has others first
        try:
            return future.result(timeout=0 if ahead else WAIT_S)
        except concurrent.futures.TimeoutError:
            if key not in self._late:  # once per value: the dialogs validate again when it is known
                self._late.add(key)
                future.add_done_callback(lambda _done: self.answered.emit())
            return None

    def _check(self, pattern_text: str, value: str) -> str:
        """In the background thread: the engine's bounded check."""
        try:
            return self.engine.check(pattern_text, value)
        except Exception:  # never leave a field waiting for ever: it then does not match
            log.exception("the pattern check of a typed value failed")
            return pattern.Verdict.TOO_SLOW

    def settle(self, timeout_s: float = pattern.MATCH_TIMEOUT_S) -> None:
        """Wait at most ``timeout_s`` for the checks under way: Accept (a deliberate act) judges
        the values as typed rather than refusing while a check of a fast pattern is in flight."""
        pending = [future for future in self._asked.values() if not future.done()]
        if pending:
            concurrent.futures.wait(pending, timeout=timeout_s)

    def forget_answered(self) -> None:
        """Drop the checks whose verdict the engine now remembers (on ``answered``)."""
        for key, future in list(self._asked.items()):
            if future.done() and self.engine.known(*key) is not None:
                del self._asked[key]
                self._late.discard(key)


_instance: TypedPatterns | None = None


def typed_patterns() -> TypedPatterns:
    """The app's :class:`TypedPatterns` (made on first use, in the UI thread)."""
    global _instance
    if _instance is None:
        _instance = TypedPatterns()
        _instance.answered.connect(_instance.forget_answered, Qt.ConnectionType.QueuedConnection)
    return _instance
