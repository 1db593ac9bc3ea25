"""Every write of the decision history, on a thread of its own (README "History and settings").

Another process of the user may hold the database's write lock (``sqlite3`` with ``BEGIN
EXCLUSIVE`` on the same file, a backup tool): a write on the UI thread would then stall the
dialogs and every requester's answers for as long as SQLite waits. So the
:class:`~elicit_tray.history.recorder.Recorder` never writes itself: it hands each write to a
:class:`Writer` (a :class:`Job`, built on the caller's thread, its texts already cut by
:func:`~elicit_tray.history.store.bounded`), which returns at once.

The writer's thread owns its own connection (:class:`~elicit_tray.history.store.History`,
opened there) and writes the jobs in the order they came. A job that finds the database locked
is tried again (each try waits :data:`TRY_BUSY_MS` in SQLite) until it has waited
:data:`MAX_WAIT_S` since it was queued; then it is dropped, and so is a job that finds
:data:`MAX_QUEUED` jobs already waiting, or one still waiting when :meth:`Writer.close` has
waited its bound, or one SQLite refuses (a full disk): each drop calls ``on_dropped(job,
reason)`` (the recorder writes the request log's ``history-dropped`` line) and logs a warning.

Rows are known to the writer by the request's key: a pending row's id stays on the writer's
thread, and a request's end whose arrival row was dropped is written as one whole row
(:attr:`Job.fallback`), so a decision outlives a lock that made its arrival row late or lost.

Pure: no Qt. ``on_written`` and ``on_dropped`` run on the writer's thread (or, for a full
queue, on the caller's).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from .store import History, HistoryError, bounded, is_busy

__all__ = ["CLOSE_WAIT_S", "MAX_QUEUED", "MAX_WAIT_S", "TRY_BUSY_MS", "Drop", "Job", "Kind", "Writer"]

log = logging.getLogger(__name__)

#: Most jobs waiting to be written; one more is dropped (``queue-full``).
MAX_QUEUED = 1_000
#: Seconds a job may wait for a locked database before it is dropped (``locked``).
MAX_WAIT_S = 30.0
#: Seconds :meth:`Writer.close` waits for the jobs still queued (the app's shutdown).
CLOSE_WAIT_S = 2.0
#: Milliseconds one try waits in SQLite for the lock, on the writer's thread.
TRY_BUSY_MS = 100

#: What a job writes: a request's pending row (``arrival``), its dialog on screen (``shown``),
#: its end (``end``), the one row of a request refused before any dialog (``refused``), the
#: retention (``prune``: ``values["days"]``).
Kind = Literal["arrival", "shown", "end", "refused", "prune"]
#: Why a job was dropped: the database stayed ``locked`` :data:`MAX_WAIT_S`; the queue was full
#: (``queue-full``); the app was ``closing``; SQLite refused it (``error``).
Drop = Literal["locked", "queue-full", "closing", "error"]


@dataclass
class Job:
    """One write (:data:`Kind`) of request ``key``: the columns ``values`` (as
    :meth:`History.insert <elicit_tray.history.store.History.insert>` takes them) and, for
    ``end``, the whole row to insert when the request's arrival row was never written
    (``fallback``). ``queued``: :func:`time.monotonic` when it was handed over; ``error``: what
    SQLite said when it was dropped for an ``error``."""

    kind: Kind
    key: str | None
    values: dict[str, Any]
    fallback: dict[str, Any] | None = None
    queued: float = field(default_factory=time.monotonic)
    error: str | None = None


class Writer:
    """The writer thread of the history at ``path`` (module docstring); started at once.

    Args:
        path: the database (opened again on the thread, with ``clock``).
        clock: Unix seconds, for the retention.
        on_written: called with no argument after each job written.
        on_dropped: called with the job and the :data:`Drop` reason of each job dropped.
        max_queued, max_wait_s, try_busy_ms, close_wait_s: :data:`MAX_QUEUED`,
            :data:`MAX_WAIT_S`, :data:`TRY_BUSY_MS`, :data:`CLOSE_WAIT_S` (tests pass smaller
            ones).
        recover: the thread's open marks the pending rows of an earlier run ``interrupted``
            (when the caller's connection could not: it found the database locked).
        opener: how the thread opens the database (``path``, ``clock``, ``busy_ms``,
            ``mark_interrupted`` (``recover``), ``check_file=False``: the caller's connection
            checked the file) -> :class:`~elicit_tray.history.store.History`.
    """

    def __init__(
        self,
        path: Path,
        *,
        clock: Callable[[], float] = time.time,
        on_written: Callable[[], None] | None = None,
        on_dropped: Callable[[Job, Drop], None] | None = None,
        max_queued: int = MAX_QUEUED,
        max_wait_s: float = MAX_WAIT_S,
        try_busy_ms: int = TRY_BUSY_MS,
        close_wait_s: float = CLOSE_WAIT_S,
        recover: bool = True,
        opener: Callable[..., History] = History,
    ):
        self.path = Path(path)
        self.clock = clock
        self.on_written = on_written
        self.on_dropped = on_dropped
        self.max_queued = max_queued
        self.max_wait_s = max_wait_s
        self.try_busy_ms = try_busy_ms
        self.close_wait_s = close_wait_s
        self.recover = recover
        self._opener = opener
        self._jobs: deque[Job] = deque()
        self._cond = threading.Condition()
        self._deadline: float | None = None  # set by close(): monotonic seconds
        self._ids: dict[str, int] = {}  # request key -> its row, on the thread only
        self._thread = threading.Thread(target=self._run, name="history-writer", daemon=True)
        self._thread.start()

    @property
    def queued(self) -> int:
        """Jobs not yet written (the one being tried included)."""
        with self._cond:
            return len(self._jobs)

    def submit(
        self, kind: Kind, key: str | None, values: dict[str, Any], fallback: dict[str, Any] | None = None
    ) -> bool:
        """Queue one :class:`Job` (its texts cut now, on the caller's thread) and return at
        once: ``True`` when queued, ``False`` when dropped (``queue-full``, ``closing``)."""
        job = Job(kind, key, bounded(values), bounded(fallback) if fallback is not None else None)
        reason: Drop | None = None
        with self._cond:
            if self._deadline is not None:
                reason = "closing"
            elif len(self._jobs) >= self.max_queued:
                reason = "queue-full"
            else:
                self._jobs.append(job)
                self._cond.notify_all()
        if reason is not None:
            self._dropped(job, reason)
            return False
        return True

    def flush(self, timeout: float) -> bool:
        """Wait at most ``timeout`` seconds for every queued job to be written (or dropped);
        ``True`` when none is left."""
        end = time.monotonic() + timeout
        with self._cond:
            while self._jobs and (left := end - time.monotonic()) > 0:
                self._cond.wait(left)
            return not self._jobs

    def close(self, timeout: float | None = None) -> None:
        """Write what is queued, waiting at most ``timeout`` seconds (default
        :attr:`close_wait_s`; plus one try) for a locked database; drop what is left
        (``closing``); close the thread's connection. Idempotent."""
        timeout = self.close_wait_s if timeout is None else timeout
        with self._cond:
            if self._deadline is None:
                self._deadline = time.monotonic() + timeout
            self._cond.notify_all()
        self._thread.join(timeout + self.try_busy_ms / 1000 + 1.0)
        if self._thread.is_alive():  # pragma: no cover - SQLite did not return: give up on it
            self._drop_all("closing")

    # -- the thread ---------------------------------------------------------------------------------
    def _run(self) -> None:
        db: History | None = None
        while True:
            with self._cond:
                while not self._jobs and self._deadline is None:
                    self._cond.wait()
                if not self._jobs:
                    break
                job = self._jobs[0]
                closing = self._deadline is not None and time.monotonic() >= self._deadline
            if closing:
                self._drop_all("closing")
                break
            db, outcome = self._try(db, job)
            if outcome == "busy" and time.monotonic() - job.queued < self.max_wait_s:
                with self._cond:
                    self._cond.wait(0.02)  # SQLite waited already; wake early only to close
                continue
            if outcome == "written":  # told before it leaves the queue: a flush sees it done
                self._notify()
            else:
                self._dropped(job, "locked" if outcome == "busy" else "error")
            with self._cond:
                if self._jobs and self._jobs[0] is job:
                    self._jobs.popleft()
                self._cond.notify_all()
        if db is not None:
            db.close()

    def _try(self, db: History | None, job: Job) -> tuple[History | None, Literal["written", "busy", "error"]]:
        """One try at ``job`` (opening the database first if need be)."""
        if job.kind == "shown" and (job.key or "") not in self._ids:
            return db, "written"  # its arrival row was dropped: the end's whole row has the time
        try:
            if db is None:
                db = self._opener(
                    self.path,
                    clock=self.clock,
                    busy_ms=self.try_busy_ms,
                    mark_interrupted=self.recover,
                    check_file=False,
                )
                if not db.ready:  # locked: open again (pending rows of an earlier run marked) later
                    db.close()
                    return None, "busy"
            self._apply(db, job)
        except (sqlite3.Error, HistoryError) as exc:
            if is_busy(exc):
                return db, "busy"
            job.error = str(exc)
            log.warning("cannot write the decision history: %s", exc)
            return db, "error"
        return db, "written"

    def _apply(self, db: History, job: Job) -> None:
        if job.kind == "prune":
            db.prune(int(job.values["days"]))
            return
        if job.kind in ("arrival", "refused"):
            row_id = db.insert(**job.values)
            if job.kind == "arrival" and job.key is not None:
                self._ids[job.key] = row_id
            return
        known = self._ids.get(job.key or "")
        if known is not None:
            db.update(known, **job.values)
        elif job.kind == "end" and job.fallback is not None:  # its arrival row was dropped
            db.insert(**{**job.fallback, **job.values})
        if job.kind == "end":
            self._ids.pop(job.key or "", None)

    def _drop_all(self, reason: Drop) -> None:
        """Drop every queued job (closing: nothing more is queued), each reported before the
        queue is empty, so that a flush returns only once the request log has every line."""
        with self._cond:
            left = list(self._jobs)
        for job in left:
            self._dropped(job, reason)
        with self._cond:
            self._jobs.clear()
            self._cond.notify_all()

    def _notify(self) -> None:
        if self.on_written is not None:
            try:
                self.on_written()
            except Exception:  # pragma: no cover - a listener must not stop the writer
                log.exception("history listener failed")

    def _dropped(self, job: Job, reason: Drop) -> None:
        log.warning("decision history: %s write of %s dropped (%s)", job.kind, job.key or "-", reason)
        if self.on_dropped is not None:
            try:
                self.on_dropped(job, reason)
            except Exception:  # pragma: no cover - the request log never raises
                log.exception("cannot report a dropped history write")
