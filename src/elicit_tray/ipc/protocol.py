"""The IPC contract's request handling, independent of the socket type (asyncio, no Qt).

docs/design.md "IPC contract": ``elicitation/create``, ``ping``, ``elicit-tray/info``;
``notifications/cancelled`` and a disconnect expire dialogs (nothing more is sent);
``notifications/elicitation/complete`` ends a URL dialog's waiting state, taken only from the
connection that made that elicitation (keyed by (connection, ``elicitationId``): another
connection cannot close it, and two requesters using the same id do not disturb each other).
Every request with an id gets exactly one response, sent once; an exception anywhere becomes
-32603, never an action. What is sent and journalled for a request (the -32602 of
:func:`vet_create`, listing at most :data:`MAX_VIOLATIONS` violations; the result or -32603 of
an outcome) comes from :mod:`elicit_tray.ipc.answers` as values.

Load (README "IPC contract", limits table): the limits and their counts are
:class:`~elicit_tray.ipc.load.LoadPolicy`'s (pending per connection, per requester process
(its fair share) and in total, abandoning requesters, idle connections, unfinished input; see
:mod:`elicit_tray.ipc.load`); the dispatcher asks it and answers, journals and closes as it
says. Besides, a request whose requester is already gone (its connection closed, or the peer
shut it down while the request still sat in a buffer: ``Channel.peer_gone``) is never handed
to the UI: no dialog is built, nothing is sent, the journal records ``expired``/``gone``, and
it counts as abandoned.

Adding an IPC method is one table row plus its handler: a method of :class:`Dispatcher` taking
a :class:`Call` (answer it once with :meth:`Call.reply` or :meth:`Call.fail`) and its row in
:attr:`Dispatcher.requests` (``"x/echo": _echo``); a notification's handler takes the
connection's state and the notification and goes in :attr:`Dispatcher.notifications`. What the
UI must do for it is a method on :class:`Ui` (the dispatcher's only view of the UI: ``ask`` and
``complete``). Then add its row to the README "IPC contract" table:
``tests/unit/test_ipc_methods.py`` checks that both tables and the README list the same
methods, and shows a method added by a subclass answering through the same path.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from ..logs import EventLog, Journal
from ..presence import requester_present
from ..request import ElicitationRequest, Failed, Handler, Outcome, Peer, UrlRequest
from . import jsonrpc as rpc
from .answers import MAX_VIOLATIONS, request_record, vet_create
from .answers import answer as make_answer
from .load import (
    ABANDON_WINDOW_S,
    ABANDONING_MESSAGE,
    BUSY_MESSAGE,
    IDLE_CLOSE_S,
    MAX_ABANDONED_PER_PEER,
    MAX_PENDING_PER_CONNECTION,
    MAX_PENDING_PER_PEER,
    MAX_PENDING_TOTAL,
    MAX_UNFINISHED_BYTES_TOTAL,
    Busy,
    ConnectionLoad,
    Demand,
    LoadPolicy,
)

__all__ = [
    "Channel",
    "Dispatcher",
    "Handler",
    "Ui",
    "UiFunctions",
    "Call",
    "MAX_PENDING_PER_CONNECTION",
    "MAX_PENDING_PER_PEER",
    "MAX_PENDING_TOTAL",
    "MAX_VIOLATIONS",
    "BUSY_MESSAGE",
    "MAX_ABANDONED_PER_PEER",
    "ABANDON_WINDOW_S",
    "ABANDONING_MESSAGE",
    "IDLE_CLOSE_S",
    "MAX_UNFINISHED_BYTES_TOTAL",
    "requester_present",
    "vet_create",
]

log = logging.getLogger(__name__)


class Ui(Protocol):
    """What the dispatcher asks of the UI (the presenter in the app; a fake in tests).

    The dispatcher calls nothing else, so a new IPC method that needs the UI adds one method
    here and one to :class:`~elicit_tray.ui.presenter.Presenter`.
    """

    async def ask(self, request: ElicitationRequest) -> Outcome:
        """Show ``request`` and return the user's outcome (a :data:`Handler`). Cancelling the
        awaiting task means the request expired: the dialog says so and nothing is sent.
        Any exception becomes a -32603 answer, never an action."""
        ...

    def complete(self, key: str) -> None:
        """``notifications/elicitation/complete`` arrived for the accepted URL request ``key``
        (:attr:`~elicit_tray.request.RequestBase.key`), from the connection that made it: end
        its dialog's waiting state. Called at most once per request."""
        ...

    def release(self, key: str) -> None:
        """The connection that made the accepted URL request ``key`` (one with an
        ``elicitationId`` or a flow, :data:`~elicit_tray.request.FLOW_KEY`) closed: what the UI
        still shows for it goes (docs/design.md "URL flows over several rounds"). Called at
        most once per request. Optional: a UI without it is not told."""
        ...


@dataclass(frozen=True)
class UiFunctions:
    """A :class:`Ui` made of functions: ``ask`` (a :data:`Handler`), ``complete`` and
    ``release`` (default: ignore). For embedding the dispatcher without the Qt presenter, and for tests:
    ``Dispatcher(UiFunctions(handler), "1.0")``."""

    ask: Handler
    complete: Callable[[str], None] = lambda _key: None
    release: Callable[[str], None] = lambda _key: None


@dataclass(frozen=True)
class Call:
    """One request being handled by a :attr:`Dispatcher.requests` handler: the connection, its
    bookkeeping and the :class:`~elicit_tray.ipc.jsonrpc.Request` (``params`` always an object)."""

    channel: Channel
    state: _State
    msg: rpc.Request

    @property
    def id(self) -> rpc.RequestId:
        """The request's id, which its answer carries."""
        return self.msg.id

    def reply(self, result: dict[str, Any]) -> None:
        """Answer the request with ``result`` (nothing is sent on a closed connection)."""
        if self.state.open:
            self.channel.send(rpc.encode(rpc.result(self.id, result)))

    def fail(self, code: int, message: str, data: Any = None) -> None:
        """Answer the request with a JSON-RPC error (nothing is sent on a closed connection)."""
        if self.state.open:
            self.channel.send(rpc.encode(rpc.error(self.id, code, message, data)))


class Channel(Protocol):
    """One requester connection as the dispatcher sees it."""

    peer: Peer

    def send(self, data: bytes) -> None:
        """Queue ``data`` (one encoded line) for writing."""

    def close(self) -> None:
        """Close the connection (used when the stream cannot be resynchronised)."""

    # Optional: ``peer_gone() -> bool``, True once the peer closed or shut down its side (data
    # it wrote before may still be waiting to be read). Channels without it are taken as present.


def _peer_key(channel: Channel) -> Hashable:
    """Who a connection belongs to for the per-requester limits: (uid, pid), or the connection
    itself where the OS does not tell the pid."""
    peer = channel.peer
    return ("process", peer.uid, peer.pid) if peer.pid else ("connection", id(channel))


class _State:
    """The dispatcher's bookkeeping of one connection."""

    def __init__(self, channel: Channel, now: float) -> None:
        self.channel = channel
        self.load = ConnectionLoad(_peer_key(channel), now)
        self.splitter = rpc.LineSplitter()
        self.pending: dict[rpc.RequestId, asyncio.Task[None]] = {}
        self.expiry: dict[asyncio.Task[None], str] = {}  # why a pending request's task was cancelled
        #: elicitationId -> keys of this connection's accepted URL requests waiting for completion
        self.awaiting_completion: dict[str, list[str]] = {}
        #: keys of this connection's accepted URL requests with an elicitationId or a flow,
        #: released (:meth:`Ui.release`) when the connection closes
        self.held: list[str] = []
        self.open = True


def _ms(since: float) -> float:
    return round((time.monotonic() - since) * 1000, 3)


class Dispatcher:
    """Routes decoded messages of every connection; owns the pending-request bookkeeping.

    Methods are looked up in :attr:`requests` and :attr:`notifications` (module docstring,
    "Adding an IPC method"); the load limits are :attr:`load`'s.

    Args:
        ui: the UI (:class:`Ui`): ``ui.ask(request)`` for each ``elicitation/create``;
            ``ui.complete(key)`` with the :attr:`~elicit_tray.request.RequestBase.key` of
            each accepted URL request of a connection when that same connection sends
            ``notifications/elicitation/complete`` with the request's ``elicitationId`` (once per
            request; unknown, repeated or other connections' ids are ignored).
        version: reported by ``elicit-tray/info``.
        journal: where each request's outcome is logged (see :mod:`elicit_tray.logs`).
        max_pending_per_connection / max_pending_total / max_pending_per_peer: the pending
            limits (``max_pending_per_peer`` None: half of ``max_pending_total``).
        max_abandoned_per_peer / abandon_window_s: the abandoning rule.
        max_unfinished_bytes: :data:`MAX_UNFINISHED_BYTES_TOTAL`.
        clock: monotonic seconds (tests pass a fake one).
        (The last seven go to :class:`~elicit_tray.ipc.load.LoadPolicy`.)
    """

    def __init__(
        self,
        ui: Ui,
        version: str = "0",
        *,
        journal: EventLog | None = None,
        max_pending_per_connection: int = MAX_PENDING_PER_CONNECTION,
        max_pending_total: int = MAX_PENDING_TOTAL,
        max_pending_per_peer: int | None = None,
        max_abandoned_per_peer: int = MAX_ABANDONED_PER_PEER,
        abandon_window_s: float = ABANDON_WINDOW_S,
        max_unfinished_bytes: int = MAX_UNFINISHED_BYTES_TOTAL,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.ui = ui
        self.version = version
        self.journal: EventLog = journal or Journal(None)
        self.load = LoadPolicy(
            max_pending_per_connection=max_pending_per_connection,
            max_pending_total=max_pending_total,
            max_pending_per_peer=max_pending_per_peer,
            max_abandoned_per_peer=max_abandoned_per_peer,
            abandon_window_s=abandon_window_s,
            max_unfinished_bytes=max_unfinished_bytes,
            clock=clock,
        )
        self._states: dict[int, _State] = {}

    # -- connection lifecycle -----------------------------------------------------------------
    def connection_made(self, channel: Channel) -> None:
        """Start tracking ``channel``."""
        self._states[id(channel)] = _State(channel, self.load.clock())

    def connection_lost(self, channel: Channel) -> None:
        """Expire every pending request of ``channel``; nothing more is sent on it. Requests
        still pending count as abandoned by its requester (unless the tray closed it)."""
        state = self._states.pop(id(channel), None)
        if state is None:
            return
        state.open = False
        self.load.held(state.load, 0)
        state.awaiting_completion.clear()  # nobody else may complete them
        if state.pending and not state.load.evicted:
            self.load.abandon(state.load.peer_key, len(state.pending))
        for task in state.pending.values():
            state.expiry.setdefault(task, "disconnected")
            task.cancel()
        release: Callable[[str], None] | None = getattr(self.ui, "release", None)
        for key in state.held:
            if release is not None:  # (a UI without release() is not told)
                release(key)
        state.held.clear()

    @staticmethod
    def _gone(state: _State) -> bool:
        """The requester of ``state`` is gone: its connection is closed or shut down by the peer."""
        if not state.open:
            return True
        probe = getattr(state.channel, "peer_gone", None)
        try:
            return bool(probe()) if probe is not None else False
        except Exception:  # pragma: no cover - a probe must never take a request down
            log.exception("peer_gone failed")
            return False

    def abandoning(self, key: Hashable) -> bool:
        """Whether requester ``key`` (see :func:`_peer_key`) is refused as abandoning
        (:meth:`~elicit_tray.ipc.load.LoadPolicy.abandoning`)."""
        return self.load.abandoning(key)

    def idle_channels(self, idle_s: float) -> list[Channel]:
        """The connections with no pending request and no accepted URL elicitation waiting for
        its completion notice that have been idle (no complete message received, no request
        ended) for at least ``idle_s`` seconds (:data:`IDLE_CLOSE_S`), oldest first. The caller
        closes them (README limits table: "idle connection")."""
        idle = [
            s
            for s in self._states.values()
            if s.open and not s.pending and not s.awaiting_completion and not s.held and self.load.idle(s.load, idle_s)
        ]
        return [s.channel for s in sorted(idle, key=lambda s: s.load.active)]

    def unfinished_bytes(self) -> int:
        """Bytes of unfinished lines held for all connections together (at most
        ``max_unfinished_bytes`` after every :meth:`data_received`)."""
        return self.load.unfinished_total

    def connection_count(self) -> int:
        """Connections being tracked."""
        return len(self._states)

    def data_received(self, channel: Channel, data: bytes) -> None:
        """Feed raw bytes from ``channel``; complete lines are handled at once. Then, if the
        unfinished lines of all connections hold more than ``max_unfinished_bytes``, the largest
        is dropped: its connection gets a -32700 line (id null) and is closed."""
        state = self._states.get(id(channel))
        if state is None or not state.open:
            return
        self.load.fed(state.load)
        lines = state.splitter.feed(data)
        if lines:
            self.load.touch(state.load)
        self._count_unfinished(state)
        for line in lines:
            if not state.open:
                return
            try:
                self._handle(channel, state, rpc.decode_line(line))
            except Exception:  # never let one message take the app down
                log.exception("internal error while handling a message")
        if self.load.over_unfinished():
            self._evict_largest()

    def _count_unfinished(self, state: _State) -> None:
        self.load.held(state.load, len(getattr(state.splitter, "_buf", b"")))

    def _evict_largest(self) -> None:
        """Over the unfinished-input limit: close the connection with the largest unfinished line."""
        limit = self.load.max_unfinished_bytes
        while self.load.over_unfinished():
            victim = self.load.largest((s for s in self._states.values() if s.open), lambda s: s.load)
            if victim is None:
                return
            peer = victim.channel.peer
            log.warning(
                "closing the connection of %s: %d bytes of unfinished input (over %d in total)",
                peer.label or "a requester",
                victim.load.unfinished,
                limit,
            )
            self.journal.record(
                "connection-closed",
                reason="unfinished-input",
                bytes=victim.load.unfinished,
                pid=peer.pid,
                process=peer.label,
            )
            self._send(
                victim.channel,
                victim,
                rpc.error(
                    None,
                    rpc.PARSE_ERROR,
                    f"Parse error: unfinished input over the limit of {limit} bytes for all connections; "
                    "connection closed",
                    {"limit": limit, "scope": "unfinished-input"},
                ),
            )
            victim.splitter = rpc.LineSplitter(victim.splitter.max_bytes)  # the memory goes at once
            self._count_unfinished(victim)
            victim.open = False  # nothing more is read or sent; connection_lost expires its requests
            victim.load.evicted = True
            victim.channel.close()

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

    def _demand(self, state: _State) -> Demand:
        """What one more request on ``state``'s connection adds to (its connection, its
        process's connections, all of them)."""
        key = state.load.peer_key
        on_peer = sum(len(s.pending) for s in self._states.values() if s.load.peer_key == key)
        return Demand(len(state.pending), self.pending_count(), key, on_peer)

    # -- messages -----------------------------------------------------------------------------
    def _send(self, channel: Channel, state: _State, message: dict[str, Any]) -> None:
        if state.open:
            channel.send(rpc.encode(message))

    def _handle(self, channel: Channel, state: _State, msg: rpc.Message) -> None:
        if isinstance(msg, rpc.ErrorReply):
            self._send(channel, state, rpc.error(msg.id, msg.code, msg.message))
        elif isinstance(msg, rpc.Response):
            log.info("ignoring a response sent to the tray (id %r)", msg.id)
            self.journal.record(
                "ignored-response",
                id=msg.id if rpc._valid_id(msg.id) else None,
                pid=channel.peer.pid,
                process=channel.peer.label,
            )
        elif isinstance(msg, rpc.Notification):
            notice = self.notifications.get(msg.method)
            if notice is None:
                log.debug("ignoring notification %s", msg.method)
            else:
                notice(self, state, msg)
        else:
            try:
                self._request(channel, state, msg)
            except Exception:  # e.g. a bug in parsing: an error for this request, never silence
                log.exception("internal error while handling request %r", msg.id)
                if msg.id not in state.pending:
                    self._send(
                        channel,
                        state,
                        rpc.error(msg.id, rpc.INTERNAL_ERROR, "Internal error while reading the request"),
                    )

    def _cancelled(self, state: _State, msg: rpc.Notification) -> None:
        """``notifications/cancelled``: the request ``requestId`` of this connection expires;
        the id is free again at once; the dialog shows it expired; nothing is sent."""
        request_id = msg.params.get("requestId")
        task = state.pending.pop(request_id, None) if rpc._valid_id(request_id) else None
        if task is not None:
            log.info(
                "request %r cancelled by the requester: %s", request_id, msg.params.get("reason", "no reason given")
            )
            state.expiry.setdefault(task, "cancelled")
            task.cancel()

    def _completed(self, state: _State, msg: rpc.Notification) -> None:
        """``notifications/elicitation/complete``: :meth:`Ui.complete` for this connection's own
        accepted URL requests with that ``elicitationId`` (once each)."""
        eid = msg.params.get("elicitationId")
        keys = state.awaiting_completion.pop(eid, []) if isinstance(eid, str) else []
        for key in keys:  # only this connection's own elicitations with that id
            if key in state.held:  # completed: nothing left to release when it closes
                state.held.remove(key)
            self.ui.complete(key)

    def _request(self, channel: Channel, state: _State, msg: rpc.Request) -> None:
        if msg.id in state.pending:
            self._send(
                channel,
                state,
                rpc.error(msg.id, rpc.INVALID_REQUEST, f"Invalid Request: id {msg.id!r} is already pending"),
            )
            return
        method = self.requests.get(msg.method)
        if method is None:
            hint = " (a notification: send it without an id)" if msg.method in self.notifications else ""
            self._send(channel, state, rpc.error(msg.id, rpc.METHOD_NOT_FOUND, f"Method not found: {msg.method}{hint}"))
            return
        method(self, Call(channel, state, msg))

    def _ping(self, call: Call) -> None:
        """``ping`` -> ``{}``."""
        call.reply({})

    def _info(self, call: Call) -> None:
        """``elicit-tray/info`` -> ``{version, modes: {form: {}, url: {}}, pid}``."""
        call.reply({"version": self.version, "modes": {"form": {}, "url": {}}, "pid": os.getpid()})

    def _create(self, call: Call) -> None:
        """``elicitation/create``: drop it if its requester is gone, refuse it under load, vet
        the params, then ask the UI in a task of its own, which answers exactly once (:meth:`_run`)."""
        channel, state, msg = call.channel, call.state, call.msg
        received = time.monotonic()
        peer = channel.peer
        who = {"id": msg.id, "pid": peer.pid, "process": peer.label, "uid": peer.uid}
        if self._gone(state):  # nobody to answer: no dialog, nothing sent
            log.info("request %r read after its requester left: no dialog", msg.id)
            self.load.abandon(state.load.peer_key, 1)
            self.journal.record("elicitation", **who, outcome="expired", reason="gone", ms=_ms(received))
            return
        busy = self.load.refusal(self._demand(state))
        if busy is not None:
            self._refuse(call, who, busy, received)
            return
        request, invalid = vet_create(msg.params, peer)
        if request is None:
            assert invalid is not None
            violations = invalid["data"]["violations"]
            call.fail(invalid["code"], invalid["message"], invalid["data"])
            self.journal.record(
                "elicitation",
                **who,
                mode=msg.params.get("mode", "form") if isinstance(msg.params.get("mode", "form"), str) else None,
                outcome="invalid",
                code=rpc.INVALID_PARAMS,
                violations=[v["path"] for v in violations],
                ms=_ms(received),
            )
            return
        parse_ms = _ms(received)
        task = asyncio.ensure_future(self._run(channel, state, msg.id, request, received, parse_ms))
        state.pending[msg.id] = task

    def _refuse(self, call: Call, who: dict[str, Any], busy: Busy, received: float) -> None:
        call.fail(rpc.SERVER_BUSY, busy.message, busy.data)
        self.journal.record(
            "elicitation", **who, outcome="busy", code=rpc.SERVER_BUSY, scope=busy.scope, ms=_ms(received)
        )

    def _log_request(
        self,
        request: ElicitationRequest,
        request_id: rpc.RequestId,
        kind: str,
        received: float,
        parse_ms: float,
        **extra: Any,
    ) -> None:
        if self.journal.enabled:
            fields = request_record(
                request, request_id, kind, ms=_ms(received), parse_ms=parse_ms, log_values=self.journal.log_values
            )
            self.journal.record("elicitation", **fields, **extra)

    async def _run(
        self,
        channel: Channel,
        state: _State,
        request_id: rpc.RequestId,
        request: ElicitationRequest,
        received: float = 0.0,
        parse_ms: float = 0.0,
    ) -> None:
        try:
            if self._gone(state):  # the requester left before its turn: no dialog, nothing sent
                if state.open:  # not counted by connection_lost yet
                    self.load.abandon(state.load.peer_key, 1)
                log.info("request %s (%r): its requester left before it was shown", request.key, request_id)
                self._log_request(request, request_id, "expired", received, parse_ms, reason="gone")
                return
            requester_present.set(lambda: not self._gone(state))  # this task's context only
            try:
                outcome = await self.ui.ask(request)
            except asyncio.CancelledError:
                task = asyncio.current_task()
                reason = state.expiry.pop(task, "cancelled") if task is not None else "cancelled"
                log.info("request %s (%r) expired (%s); nothing more is sent", request.key, request_id, reason)
                if reason == "shutdown":
                    self._log_request(
                        request, request_id, "error", received, parse_ms, code=rpc.INTERNAL_ERROR, reason=reason
                    )
                else:
                    self._log_request(request, request_id, "expired", received, parse_ms, reason=reason)
                return
            except Exception as exc:  # an exception can only ever become an error
                log.exception("request %s failed", request.key)
                outcome = Failed(f"internal error: {exc}")
            if state.pending.get(request_id) is not asyncio.current_task():
                return  # answered already (shutdown): exactly one response per id
            log.info("request %s (%r) -> %r", request.key, request_id, outcome)
            answer = make_answer(request, request_id, outcome, log_values=self.journal.log_values)
            if state.open:
                channel.send(answer.data)
                if answer.kind == "accept" and isinstance(request, UrlRequest) and request.elicitation_id:
                    state.awaiting_completion.setdefault(request.elicitation_id, []).append(request.key)
                if (
                    answer.kind == "accept"
                    and isinstance(request, UrlRequest)
                    and (request.elicitation_id or request.flow)
                ):
                    state.held.append(request.key)
            self._log_request(request, request_id, answer.kind, received, parse_ms, **answer.extra)
        except Exception:  # pragma: no cover - e.g. the channel failed to write
            log.exception("request %s: the answer could not be sent", request.key)
        finally:
            if state.pending.get(request_id) is asyncio.current_task():
                del state.pending[request_id]
                self.load.touch(state.load)
            task = asyncio.current_task()
            if task is not None:
                state.expiry.pop(task, None)

    #: The IPC methods with an id: method -> handler, called with the dispatcher and the
    #: :class:`Call`; each answers exactly once (:meth:`Call.reply` / :meth:`Call.fail`), now or
    #: later. Anything else with an id gets -32601.
    requests: ClassVar[Mapping[str, Callable[[Dispatcher, Call], None]]] = {
        "ping": _ping,
        "elicit-tray/info": _info,
        "elicitation/create": _create,
    }
    #: The notifications a requester may send: method -> handler, called with the dispatcher,
    #: the connection's bookkeeping and the notification; it never answers. Any other
    #: notification is ignored.
    notifications: ClassVar[Mapping[str, Callable[[Dispatcher, _State, rpc.Notification], None]]] = {
        "notifications/cancelled": _cancelled,
        "notifications/elicitation/complete": _completed,
    }
