"""The IPC contract's request handling, independent of the socket type (asyncio, no Qt).

DESIGN.md "IPC contract": ``elicitation/create``, ``ping``, ``elicit-tray/info``;
``notifications/cancelled`` and a disconnect expire dialogs (nothing more is sent);
``notifications/elicitation/complete`` ends a URL dialog's waiting state, taken only from the
connection that made that elicitation (keyed by (connection, ``elicitationId``), issue 10 §2:
another connection cannot close it, and two requesters using the same id do not disturb each
other). Every request with
an id gets exactly one response, sent once; an exception anywhere becomes -32603, never an
action.

Limits (README "IPC contract"): at most :data:`MAX_PENDING_PER_CONNECTION` dialogs pending per
connection and :data:`MAX_PENDING_TOTAL` over all connections; one more ``elicitation/create``
gets -32000 (:data:`~elicit_tray.ipc.jsonrpc.SERVER_BUSY`) with ``data: {"limit", "scope"}``.
A -32602 lists at most :data:`MAX_VIOLATIONS` violations.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import Any, Awaitable, Callable, Protocol

from ..elicitation import (
    Accepted,
    Cancelled,
    Declined,
    ElicitationRequest,
    Failed,
    Outcome,
    ParamsError,
    Peer,
    outcome_to_result,
    parse_elicit_params,
)
from ..logs import Journal, redact_url
from . import jsonrpc as rpc

__all__ = ["Channel", "Dispatcher", "Handler", "MAX_PENDING_PER_CONNECTION", "MAX_PENDING_TOTAL",
           "MAX_VIOLATIONS", "BUSY_MESSAGE"]

#: Most ``elicitation/create`` requests waiting for an answer on one connection.
MAX_PENDING_PER_CONNECTION = 16
#: Most ``elicitation/create`` requests waiting for an answer over all connections.
MAX_PENDING_TOTAL = 64
#: Most violations listed in one -32602 error (the first ones by path).
MAX_VIOLATIONS = 50
#: The message of the -32000 error for a request over a pending limit.
BUSY_MESSAGE = "Server busy: too many pending requests"

log = logging.getLogger(__name__)

#: Notifications a requester may send (without an id).
_NOTIFICATIONS = frozenset({"notifications/cancelled", "notifications/elicitation/complete"})

#: The UI side: one coroutine per request, returning the user's outcome. Cancelling it means
#: the request expired (the dialog must say so and send nothing).
Handler = Callable[[ElicitationRequest], Awaitable[Outcome]]


class Channel(Protocol):
    """One requester connection as the dispatcher sees it."""

    peer: Peer

    def send(self, data: bytes) -> None:
        """Queue ``data`` (one encoded line) for writing."""

    def close(self) -> None:
        """Close the connection (used when the stream cannot be resynchronised)."""


class _State:
    def __init__(self, channel: Channel) -> None:
        self.channel = channel
        self.splitter = rpc.LineSplitter()
        self.pending: dict[rpc.RequestId, asyncio.Task[None]] = {}
        self.expiry: dict[asyncio.Task[None], str] = {}  # why a pending request's task was cancelled
        #: elicitationId -> keys of this connection's accepted URL requests waiting for completion
        self.awaiting_completion: dict[str, list[str]] = {}
        self.open = True


def _outcome_kind(outcome: Outcome) -> str:
    if isinstance(outcome, Accepted):
        return "accept"
    if isinstance(outcome, Declined):
        return "decline"
    if isinstance(outcome, Cancelled):
        return f"cancel-{outcome.how}"
    return "error"


def _ms(since: float) -> float:
    return round((time.monotonic() - since) * 1000, 3)


def vet_create(params: dict[str, Any], peer: Peer | None = None) -> tuple[ElicitationRequest | None, dict[str, Any] | None]:
    """How the tray reads the params of an ``elicitation/create``: ``(request, None)`` when it
    would show a dialog for them, ``(None, error)`` when it answers -32602 instead.

    ``error`` is the JSON-RPC error object the dispatcher sends, ``{"code": -32602, "message":
    "Invalid params: ...", "data": {"violations": [{"path", "message"}, ...]}}``, listing at
    most :data:`MAX_VIOLATIONS` violations (the first by path order of
    :func:`~elicit_tray.elicitation.parse_elicit_params`). Pure (no I/O, no Qt): the
    dispatcher and ``elicit-tray check`` (issue 16) both answer from it. Raises nothing for a
    ``dict`` (README "IPC contract", limits table).
    """
    try:
        return parse_elicit_params(params, peer), None
    except ParamsError as exc:
        shown = exc.violations[:MAX_VIOLATIONS]
        return None, {"code": rpc.INVALID_PARAMS, "message": f"Invalid params: {ParamsError(shown)}",
                      "data": {"violations": [v.to_json() for v in shown]}}


class Dispatcher:
    """Routes decoded messages of every connection; owns the pending-request bookkeeping.

    Args:
        handler: the UI coroutine (see :data:`Handler`).
        on_complete: called with the :attr:`~elicit_tray.elicitation.ElicitationRequest.key` of
            each accepted URL request of a connection when that same connection sends
            ``notifications/elicitation/complete`` with the request's ``elicitationId`` (once per
            request; unknown, repeated or other connections' ids are ignored).
        version: reported by ``elicit-tray/info``.
        journal: where each request's outcome is logged (see :mod:`elicit_tray.logs`).
        max_pending_per_connection / max_pending_total: the pending limits.
    """

    def __init__(self, handler: Handler, on_complete: Callable[[str], None] = lambda _id: None,
                 version: str = "0", *, journal: Journal | None = None,
                 max_pending_per_connection: int = MAX_PENDING_PER_CONNECTION,
                 max_pending_total: int = MAX_PENDING_TOTAL):
        self.handler = handler
        self.on_complete = on_complete
        self.version = version
        self.journal = journal or Journal(None)
        self.max_pending_per_connection = max_pending_per_connection
        self.max_pending_total = max_pending_total
        self._states: dict[int, _State] = {}

    # -- connection lifecycle -----------------------------------------------------------------
    def connection_made(self, channel: Channel) -> None:
        """Start tracking ``channel``."""
        self._states[id(channel)] = _State(channel)

    def connection_lost(self, channel: Channel) -> None:
        """Expire every pending request of ``channel``; nothing more is sent on it."""
        state = self._states.pop(id(channel), None)
        if state is None:
            return
        state.open = False
        state.awaiting_completion.clear()  # nobody else may complete them
        for task in state.pending.values():
            state.expiry.setdefault(task, "disconnected")
            task.cancel()

    def connection_count(self) -> int:
        """Connections being tracked."""
        return len(self._states)

    def data_received(self, channel: Channel, data: bytes) -> None:
        """Feed raw bytes from ``channel``; complete lines are handled at once."""
        state = self._states.get(id(channel))
        if state is None:
            return
        for line in state.splitter.feed(data):
            if not state.open:
                return
            try:
                self._handle(channel, state, rpc.decode_line(line))
            except Exception:  # never let one message take the app down
                log.exception("internal error while handling a message")

    def shutdown(self, message: str) -> None:
        """The app is exiting: every pending request gets a -32603 error with ``message``
        (never an action), and its dialog task is cancelled."""
        for state in list(self._states.values()):
            for request_id, task in list(state.pending.items()):
                state.expiry[task] = "shutdown"
                if not task.done():
                    self._send(state.channel, state, rpc.error(request_id, rpc.INTERNAL_ERROR, message))
                del state.pending[request_id]
                task.cancel()

    def pending_count(self) -> int:
        """Requests waiting for an answer, over all connections."""
        return sum(len(s.pending) for s in self._states.values())

    # -- messages -----------------------------------------------------------------------------
    def _send(self, channel: Channel, state: _State, message: dict[str, Any]) -> None:
        if state.open:
            channel.send(rpc.encode(message))

    def _handle(self, channel: Channel, state: _State, msg: rpc.Message) -> None:
        if isinstance(msg, rpc.ErrorReply):
            self._send(channel, state, rpc.error(msg.id, msg.code, msg.message))
        elif isinstance(msg, rpc.Response):
            log.info("ignoring a response sent to the tray (id %r)", msg.id)
            self.journal.record("ignored-response", id=msg.id if rpc._valid_id(msg.id) else None,
                                pid=channel.peer.pid, process=channel.peer.process_name)
        elif isinstance(msg, rpc.Notification):
            self._notification(state, msg)
        else:
            try:
                self._request(channel, state, msg)
            except Exception:  # e.g. a bug in parsing: an error for this request, never silence
                log.exception("internal error while handling request %r", msg.id)
                if msg.id not in state.pending:
                    self._send(channel, state, rpc.error(msg.id, rpc.INTERNAL_ERROR,
                                                         "Internal error while reading the request"))

    def _notification(self, state: _State, msg: rpc.Notification) -> None:
        if msg.method == "notifications/cancelled":
            request_id = msg.params.get("requestId")
            task = state.pending.pop(request_id, None) if rpc._valid_id(request_id) else None
            if task is not None:  # the id is free again at once; the dialog shows it expired
                log.info("request %r cancelled by the requester: %s", msg.params.get("requestId"),
                         msg.params.get("reason", "no reason given"))
                state.expiry.setdefault(task, "cancelled")
                task.cancel()
        elif msg.method == "notifications/elicitation/complete":
            eid = msg.params.get("elicitationId")
            keys = state.awaiting_completion.pop(eid, []) if isinstance(eid, str) else []
            for key in keys:  # only this connection's own elicitations with that id
                self.on_complete(key)
        else:
            log.debug("ignoring notification %s", msg.method)

    def _busy(self, state: _State) -> dict[str, Any] | None:
        if len(state.pending) >= self.max_pending_per_connection:
            return {"limit": self.max_pending_per_connection, "scope": "connection"}
        if self.pending_count() >= self.max_pending_total:
            return {"limit": self.max_pending_total, "scope": "total"}
        return None

    def _request(self, channel: Channel, state: _State, msg: rpc.Request) -> None:
        if msg.id in state.pending:
            self._send(channel, state, rpc.error(msg.id, rpc.INVALID_REQUEST,
                                                 f"Invalid Request: id {msg.id!r} is already pending"))
        elif msg.method == "ping":
            self._send(channel, state, rpc.result(msg.id, {}))
        elif msg.method == "elicit-tray/info":
            self._send(channel, state, rpc.result(msg.id, {
                "version": self.version, "modes": {"form": {}, "url": {}}, "pid": os.getpid()}))
        elif msg.method == "elicitation/create":
            self._create(channel, state, msg)
        else:
            hint = " (a notification: send it without an id)" if msg.method in _NOTIFICATIONS else ""
            self._send(channel, state, rpc.error(msg.id, rpc.METHOD_NOT_FOUND, f"Method not found: {msg.method}{hint}"))

    def _create(self, channel: Channel, state: _State, msg: rpc.Request) -> None:
        received = time.monotonic()
        peer = channel.peer
        who = {"id": msg.id, "pid": peer.pid, "process": peer.process_name, "uid": peer.uid}
        busy = self._busy(state)
        if busy is not None:
            self._send(channel, state, rpc.error(msg.id, rpc.SERVER_BUSY,
                                                 f"{BUSY_MESSAGE} ({busy['limit']} {'on this connection' if busy['scope'] == 'connection' else 'in total'})",
                                                 busy))
            self.journal.record("elicitation", **who, outcome="busy", code=rpc.SERVER_BUSY, scope=busy["scope"],
                                ms=_ms(received))
            return
        request, invalid = vet_create(msg.params, peer)
        if request is None:
            assert invalid is not None
            violations = invalid["data"]["violations"]
            self._send(channel, state, rpc.error(msg.id, invalid["code"], invalid["message"], invalid["data"]))
            self.journal.record("elicitation", **who, mode=msg.params.get("mode", "form")
                                if isinstance(msg.params.get("mode", "form"), str) else None,
                                outcome="invalid", code=rpc.INVALID_PARAMS,
                                violations=[v["path"] for v in violations], ms=_ms(received))
            return
        parse_ms = _ms(received)
        task = asyncio.ensure_future(self._run(channel, state, msg.id, request, received, parse_ms))
        state.pending[msg.id] = task

    def _log_request(self, request: ElicitationRequest, request_id: rpc.RequestId, outcome_kind: str,
                     received: float, parse_ms: float, **extra: Any) -> None:
        journal = self.journal
        if not journal.enabled:
            return
        fields: dict[str, Any] = {
            "id": request_id, "key": request.key, "pid": request.peer.pid, "process": request.peer.process_name,
            "uid": request.peer.uid, "server": request.requester.server_name,
            "client": request.requester.client_name, "mode": request.mode, "outcome": outcome_kind,
            "ms": _ms(received), "parse_ms": parse_ms}
        if request.url is not None:
            fields["url"] = request.url if journal.log_values else redact_url(request.url)
        if journal.log_values:
            fields["message"] = request.message
        fields.update(extra)
        journal.record("elicitation", **fields)

    async def _run(self, channel: Channel, state: _State, request_id: rpc.RequestId,
                   request: ElicitationRequest, received: float = 0.0, parse_ms: float = 0.0) -> None:
        try:
            try:
                outcome = await self.handler(request)
            except asyncio.CancelledError:
                reason = state.expiry.pop(asyncio.current_task(), "cancelled")  # type: ignore[arg-type]
                log.info("request %s (%r) expired (%s); nothing more is sent", request.key, request_id, reason)
                if reason == "shutdown":
                    self._log_request(request, request_id, "error", received, parse_ms, code=rpc.INTERNAL_ERROR,
                                      reason=reason)
                else:
                    self._log_request(request, request_id, "expired", received, parse_ms, reason=reason)
                return
            except Exception as exc:  # an exception can only ever become an error
                log.exception("request %s failed", request.key)
                outcome = Failed(f"internal error: {exc}")
            if state.pending.get(request_id) is not asyncio.current_task():
                return  # answered already (shutdown): exactly one response per id
            log.info("request %s (%r) -> %r", request.key, request_id, outcome)
            extra: dict[str, Any] = {}
            try:
                if isinstance(outcome, Failed):
                    raise _NoResult(outcome.message)
                data = rpc.encode(rpc.result(request_id, outcome_to_result(outcome)))
                kind = _outcome_kind(outcome)
                if isinstance(outcome, Accepted) and outcome.content is not None:
                    extra["fields"] = sorted(outcome.content)
                    if self.journal.log_values:
                        extra["content"] = outcome.content
            except Exception as exc:  # Failed, or an outcome that cannot be sent: an error, never an action
                message = exc.args[0] if isinstance(exc, _NoResult) else f"internal error: {exc}"
                if not isinstance(exc, _NoResult):
                    log.exception("request %s: the answer could not be encoded", request.key)
                data = rpc.encode(rpc.error(request_id, rpc.INTERNAL_ERROR, message))
                kind = "error"
                extra = {"code": rpc.INTERNAL_ERROR, "error": message}
            if state.open:
                channel.send(data)
                if kind == "accept" and request.mode == "url" and request.elicitation_id:
                    state.awaiting_completion.setdefault(request.elicitation_id, []).append(request.key)
            self._log_request(request, request_id, kind, received, parse_ms, **extra)
        except Exception:  # pragma: no cover - e.g. the channel failed to write
            log.exception("request %s: the answer could not be sent", request.key)
        finally:
            if state.pending.get(request_id) is asyncio.current_task():
                del state.pending[request_id]
            state.expiry.pop(asyncio.current_task(), None)  # type: ignore[arg-type]


class _NoResult(Exception):
    """A :class:`Failed` outcome: its message becomes the -32603 error."""
