"""The IPC contract's request handling, independent of the socket type (asyncio, no Qt).

DESIGN.md "IPC contract": ``elicitation/create``, ``ping``, ``elicit-tray/info``;
``notifications/cancelled`` and a disconnect expire dialogs (nothing more is sent);
``notifications/elicitation/complete`` ends a URL dialog's waiting state. Every request with
an id gets exactly one response, sent once; an exception anywhere becomes -32603, never an
action.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any, Awaitable, Callable, Protocol

from ..elicitation import (
    ElicitationRequest,
    Failed,
    Outcome,
    ParamsError,
    Peer,
    outcome_to_result,
    parse_elicit_params,
)
from . import jsonrpc as rpc

__all__ = ["Channel", "Dispatcher", "Handler"]

log = logging.getLogger(__name__)

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
        self.open = True


class Dispatcher:
    """Routes decoded messages of every connection; owns the pending-request bookkeeping.

    Args:
        handler: the UI coroutine (see :data:`Handler`).
        on_complete: called with an ``elicitationId`` from ``notifications/elicitation/complete``.
        version: reported by ``elicit-tray/info``.
    """

    def __init__(self, handler: Handler, on_complete: Callable[[str], None] = lambda _id: None,
                 version: str = "0"):
        self.handler = handler
        self.on_complete = on_complete
        self.version = version
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
        for task in state.pending.values():
            task.cancel()

    def data_received(self, channel: Channel, data: bytes) -> None:
        """Feed raw bytes from ``channel``; complete lines are handled at once."""
        state = self._states.get(id(channel))
        if state is None:
            return
        for line in state.splitter.feed(data):
            try:
                self._handle(channel, state, rpc.decode_line(line))
            except Exception:  # never let one message take the app down
                log.exception("internal error while handling a message")

    def shutdown(self, message: str) -> None:
        """The app is exiting: every pending request gets a -32603 error with ``message``
        (never an action), and its dialog task is cancelled."""
        for state in list(self._states.values()):
            for request_id, task in list(state.pending.items()):
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
        elif isinstance(msg, rpc.Notification):
            self._notification(state, msg)
        else:
            self._request(channel, state, msg)

    def _notification(self, state: _State, msg: rpc.Notification) -> None:
        if msg.method == "notifications/cancelled":
            request_id = msg.params.get("requestId")
            task = state.pending.get(request_id) if isinstance(request_id, (str, int)) else None
            if task is not None:
                log.info("request %r cancelled by the requester: %s", msg.params.get("requestId"),
                         msg.params.get("reason", "no reason given"))
                task.cancel()
        elif msg.method == "notifications/elicitation/complete":
            eid = msg.params.get("elicitationId")
            if isinstance(eid, str):
                self.on_complete(eid)
        else:
            log.debug("ignoring notification %s", msg.method)

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
            try:
                request = parse_elicit_params(msg.params, channel.peer)
            except ParamsError as exc:
                self._send(channel, state, rpc.error(
                    msg.id, rpc.INVALID_PARAMS, f"Invalid params: {exc}",
                    {"violations": [v.to_json() for v in exc.violations]}))
                return
            task = asyncio.ensure_future(self._run(channel, state, msg.id, request))
            state.pending[msg.id] = task
        else:
            self._send(channel, state, rpc.error(msg.id, rpc.METHOD_NOT_FOUND, f"Method not found: {msg.method}"))

    async def _run(self, channel: Channel, state: _State, request_id: rpc.RequestId,
                   request: ElicitationRequest) -> None:
        try:
            try:
                outcome = await self.handler(request)
            except asyncio.CancelledError:
                log.info("request %s (%r) expired; nothing is sent", request.key, request_id)
                return
            except Exception as exc:  # an exception can only ever become an error
                log.exception("request %s failed", request.key)
                outcome = Failed(f"internal error: {exc}")
            if state.pending.get(request_id) is not asyncio.current_task():
                return  # answered already (shutdown): exactly one response per id
            log.info("request %s (%r) -> %r", request.key, request_id, outcome)
            if isinstance(outcome, Failed):
                self._send(channel, state, rpc.error(request_id, rpc.INTERNAL_ERROR, outcome.message))
            else:
                self._send(channel, state, rpc.result(request_id, outcome_to_result(outcome)))
        finally:
            if state.pending.get(request_id) is asyncio.current_task():
                del state.pending[request_id]
