"""What is recorded: the one :class:`Recorder`, which writes the request log and the decision
history from the same events, and the privacy switches (:class:`Privacy`).

The dispatcher gives the recorder every event with everything it knows (the recorder reports
``log_values`` true, so values, messages and full URLs reach it); the recorder writes the
JSON-lines request log (:class:`~elicit_tray.logs.Journal`, which drops values unless
``--log-values``) and the database (:class:`~elicit_tray.history.store.History`) from that same
event. Which column it fills when, and from what, is in the column table
(:data:`~elicit_tray.history.columns.TABLE`: ``fill``, ``request``, ``event``).

A row is written when a request arrives (``outcome = 'pending'``) and completed when it ends.
Requests refused before a dialog was possible (``invalid``, ``busy``, a requester already gone)
get one completed row, from the dispatcher's ``elicitation`` event.

The recorder never waits for the database: the columns are computed on the caller's thread and
handed to the history's :class:`~elicit_tray.history.writer.Writer`, whose own thread writes
them (waiting for a lock another process holds, within bounds); a write it has to drop is one
``history-dropped`` line of the request log (:meth:`Recorder.dropped`). :meth:`Recorder.close`
writes what is queued first (at most :data:`~elicit_tray.history.writer.CLOSE_WAIT_S`).

What is kept, under the switches of :class:`~elicit_tray.history.privacy.Privacy` (the rules are
:mod:`elicit_tray.history.privacy`'s):

- forms: ``fields``, a list of ``{"name", "title", "secret"}`` in form order, with ``"value"``
  for each submitted choice (yes/no, options, numbers, dates) when ``Privacy.values`` is on and
  each submitted text when ``Privacy.text`` is on (off by default); never the value of a field
  that raised the secret warning (:func:`~elicit_tray.schema.secrets.looks_secret`);
- URLs: ``url`` = scheme, host and port as the WHATWG parser reads them (no user info in any
  spelling) and the path with random-looking segments masked; the query and fragment only with
  ``Privacy.query`` (:func:`~elicit_tray.history.privacy.history_url`); ``url_verdict`` and
  ``url_reasons`` of the consent dialog's analysis.

Pure: no Qt.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..logs import Journal
from ..request import FormRequest, RequestBase, UrlRequest
from .columns import TABLE
from .privacy import DEFAULT_PRIVACY, DEFAULT_RETENTION_DAYS, Privacy, history_url, kept_fields
from .store import History, bounded
from .writer import CLOSE_WAIT_S, Drop, Job, Writer

if TYPE_CHECKING:
    from ..ipc.protocol import Ui
    from ..request import ElicitationRequest, Handler, Outcome

__all__ = ["DEFAULT_RETENTION_DAYS", "Privacy", "Recorder", "ShowsRequest", "history_url"]

log = logging.getLogger(__name__)


class ShowsRequest(Protocol):
    """What :meth:`Recorder.on_shown` needs of a dialog: the request it shows."""

    @property
    def request(self) -> RequestBase: ...


#: The dialog type of a presenter's ``on_shown`` hook.
Dialog = TypeVar("Dialog", bound=ShowsRequest)

_DETAIL_KEYS = ("reason", "error", "scope")


def _detail(fields: dict[str, Any]) -> str | None:
    if fields.get("violations"):
        return "invalid: " + ", ".join(str(p) or "/" for p in fields["violations"])
    parts = [str(fields[k]) for k in _DETAIL_KEYS if fields.get(k) is not None]
    if fields.get("code") is not None and fields.get("outcome") in ("error", "busy"):
        parts.insert(0, f"code {fields['code']}")
    return "; ".join(parts) or None


@dataclass
class _Open:
    values: dict[str, Any]  # its arrival row: written whole at the end if the arrival's was dropped
    request: ElicitationRequest
    received: float
    shown: float | None = None


class Recorder:
    """The one place that decides what is recorded: each event goes to the request log and the
    decision history (module docstring).

    Keeps :class:`~elicit_tray.logs.Journal`'s interface (``record(event, **fields)``,
    ``enabled``, ``log_values``, ``close()``) so the dispatcher and the endpoint write to it as to
    the journal; ``log_values`` is always true because the recorder, not the caller, drops values.

    Args:
        journal: the JSON-lines request log (drops values unless its own ``log_values``).
        history: the database, or ``None`` (attach later with :meth:`attach`: the app opens it
            only once it holds the socket lock). It is what the History window reads; the
            writes go through a :class:`~elicit_tray.history.writer.Writer` over the same file.
        privacy: the switches (:class:`Privacy`); change them at any time with :attr:`privacy`.
        clock: Unix seconds.
        writer: makes the :class:`~elicit_tray.history.writer.Writer` of an attached history
            (called as :class:`Writer` is; tests pass one with smaller bounds).
    """

    log_values = True

    def __init__(
        self,
        journal: Journal | None = None,
        history: History | None = None,
        *,
        privacy: Privacy = DEFAULT_PRIVACY,
        clock: Callable[[], float] = time.time,
        writer: Callable[..., Writer] = Writer,
    ):
        self.journal = journal or Journal(None)
        self._make_writer = writer
        self.history: History | None = None
        self.privacy = privacy
        self.clock = clock
        self._open: dict[str, _Open] = {}
        self._writer: Writer | None = None
        #: called with no argument after each row written, on the writer's thread (the History
        #: window refreshes on its own thread)
        self.listeners: list[Callable[[], None]] = []
        if history is not None:
            self._start(history)

    @property
    def enabled(self) -> bool:
        """Whether anything is written (the journal, or the history while it is on)."""
        return self.journal.enabled or self._writing

    @property
    def _writing(self) -> bool:
        return self.history is not None and self.privacy.enabled

    def attach(self, history: History | None) -> None:
        """Start writing to ``history`` (its retention is applied at once)."""
        self._stop()
        self._start(history)
        self.prune()

    def _start(self, history: History | None) -> None:
        self.history = history
        if history is not None:
            self._writer = self._make_writer(
                history.path,
                clock=history.clock,
                on_written=self._changed,
                on_dropped=self.dropped,
                recover=not history.ready,  # its own open marked the rows of an earlier run
            )

    def _stop(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    def flush(self, timeout: float = CLOSE_WAIT_S) -> bool:
        """Wait at most ``timeout`` seconds for the queued writes; ``True`` when all are done
        (written or dropped). Tests and the benchmarks read their writes after it."""
        return self._writer.flush(timeout) if self._writer is not None else True

    def dropped(self, job: Job, reason: Drop) -> None:
        """The writer gave up on ``job``: one ``history-dropped`` line in the request log with
        the ``write`` (its kind), the request's ``key``, ``id`` and ``outcome`` where known, and
        the ``reason`` with its bound: ``locked`` and ``limit_s`` (the seconds it waited),
        ``queue-full`` and ``limit`` (the jobs waiting), ``closing`` and ``limit_s``, ``error``
        and ``error`` (what SQLite said)."""
        from .writer import MAX_QUEUED, MAX_WAIT_S

        whole = {**(job.fallback or {}), **job.values}
        limits: dict[str, dict[str, Any]] = {
            "locked": {"limit_s": self._writer.max_wait_s if self._writer else MAX_WAIT_S},
            "queue-full": {"limit": self._writer.max_queued if self._writer else MAX_QUEUED},
            "closing": {"limit_s": self._writer.close_wait_s if self._writer else CLOSE_WAIT_S},
            "error": {"error": job.error},
        }
        self.journal.record(
            "history-dropped",
            write=job.kind,
            key=job.key,
            id=whole.get("request_id"),
            outcome=whole.get("outcome") if job.kind != "arrival" else None,
            reason=reason,
            **limits[reason],
        )

    def set_privacy(self, privacy: Privacy) -> None:
        """Apply new switches from now on (a shorter retention prunes at once)."""
        self.privacy = privacy
        self.prune()

    def prune(self) -> None:
        """Apply the retention (at start, daily, and when it changes): queued for the writer."""
        if self._writer is not None and self.privacy.retention_days > 0:
            self._writer.submit("prune", None, {"days": self.privacy.retention_days})

    def close(self) -> None:
        """Write what is queued (waiting at most :data:`~elicit_tray.history.writer.CLOSE_WAIT_S`
        for a locked database; what is left is dropped, each with its ``history-dropped`` line),
        then close the journal and the database. Idempotent."""
        self._stop()
        self.journal.close()
        if self.history is not None:
            self.history.close()
            self.history = None

    # -- events -----------------------------------------------------------------------------------
    def wrap(self, handler: Handler) -> Handler:
        """The dispatcher's handler with the arrival recorded: a pending row is written before
        ``handler(request)`` runs (the dialog is built)."""

        async def recorded(request: ElicitationRequest) -> Outcome:
            self.arrived(request)
            return await handler(request)

        return recorded

    def on_shown(self, inner: Callable[[Dialog], Any] | None = None) -> Callable[[Dialog], Any]:
        """A presenter ``on_shown`` hook: records when the dialog (anything with a ``request``,
        :class:`ShowsRequest`) is on screen, then calls ``inner(dialog)`` if given and returns
        what it returns."""

        def hook(dialog: Dialog) -> Any:
            self.shown(dialog.request.key)
            return inner(dialog) if inner is not None else None

        return hook

    def watch(self, ui: Ui) -> Ui:
        """``ui`` (the dispatcher's :class:`~elicit_tray.ipc.protocol.Ui`, e.g. the presenter)
        with the arrival recorded before each ``ui.ask(request)``; ``complete`` is ``ui``'s."""
        return _RecordedUi(ui, self)

    def _changed(self) -> None:
        for listener in list(self.listeners):
            try:
                listener()
            except Exception:  # pragma: no cover - a window must not break recording
                log.exception("history listener failed")

    def arrived(self, request: ElicitationRequest) -> None:
        """``request`` arrived: write its pending row. Never raises."""
        if not self._writing or self._writer is None:
            return
        now = self.clock()
        # cut now (bounded): an open request keeps its arrival row until it ends
        values = bounded({"received": now, "outcome": "pending", **self._describe(request, None)})
        self._open[request.key] = _Open(values, request, now)
        self._writer.submit("arrival", request.key, values)

    def shown(self, key: str) -> None:
        """The dialog of request ``key`` is on screen now. Never raises."""
        entry = self._open.get(key)
        if entry is None or entry.shown is not None or self._writer is None:
            return
        entry.shown = self.clock()
        self._writer.submit("shown", key, {"shown": entry.shown})

    def record(self, event: str, **fields: Any) -> None:
        """Write ``event`` to the request log (as :meth:`Journal.record
        <elicit_tray.logs.Journal.record>`) and, for ``elicitation``, complete (or write) its
        history row. Never raises."""
        self.journal.record(event, **dict(fields))
        if event != "elicitation":
            return
        entry = self._open.pop(fields.get("key") or "", None)
        if not self._writing or self._writer is None:
            return
        now = self.clock()
        if entry is not None:
            whole = {**entry.values, "shown": entry.shown}
            self._writer.submit("end", entry.request.key, self._ended(entry, fields, now), fallback=whole)
        else:
            self._writer.submit("refused", fields.get("key"), self._refused(fields, now))

    # -- what a row holds ---------------------------------------------------------------------------
    def _describe(self, request: ElicitationRequest, content: dict[str, Any] | None) -> dict[str, Any]:
        """The columns of an arriving request (the ``request`` getters of the table, then the
        mode's own columns)."""
        values: dict[str, Any] = {c.name: c.request(request) for c in TABLE if c.request is not None}
        if isinstance(request, FormRequest):
            values["fields"] = self._fields(request, content)
        elif isinstance(request, UrlRequest):
            values["url"] = history_url(request.url, query=self.privacy.query)
            values["url_verdict"] = request.url_analysis.verdict
            values["url_reasons"] = list(request.url_analysis.reasons)
        return values

    def _ended(self, entry: _Open, fields: dict[str, Any], now: float) -> dict[str, Any]:
        """The columns set when the request of ``entry`` ends with the ``elicitation`` event
        ``fields``."""
        values: dict[str, Any] = {
            "outcome": fields.get("outcome"),
            "detail": _detail(fields),
            "answered": now,
            "request_id": fields.get("id"),
            "duration_ms": round((now - entry.received) * 1000, 3),
        }
        if fields.get("outcome") == "accept" and isinstance(entry.request, FormRequest):
            values["fields"] = self._fields(entry.request, fields.get("content"))
        return values

    def _refused(self, fields: dict[str, Any], now: float) -> dict[str, Any]:
        """The row of a request that ended without an arrival row (refused before any dialog):
        the ``event`` columns of the table, read from the ``elicitation`` event ``fields``."""
        values: dict[str, Any] = {c.name: fields.get(c.event) for c in TABLE if c.event is not None}
        url = values.pop("url", None)
        if isinstance(url, str):
            values["url"] = history_url(url, query=self.privacy.query)
        values.update(received=now, answered=now, detail=_detail(fields))
        return values

    def _fields(self, request: FormRequest, content: dict[str, Any] | None) -> list[dict[str, Any]]:
        return kept_fields(request.form, content, self.privacy)


class _RecordedUi:
    """A :class:`~elicit_tray.ipc.protocol.Ui` whose ``ask`` writes the pending row first
    (:meth:`Recorder.watch`)."""

    def __init__(self, ui: Ui, recorder: Recorder):
        self._ui = ui
        self._recorder = recorder

    async def ask(self, request: ElicitationRequest) -> Outcome:
        self._recorder.arrived(request)
        return await self._ui.ask(request)

    def complete(self, key: str) -> None:
        self._ui.complete(key)

    def release(self, key: str) -> None:
        release = getattr(self._ui, "release", None)
        if release is not None:
            release(key)
