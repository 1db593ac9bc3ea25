"""One JSON-RPC call to the tray app per connection (no Qt): :func:`request` and :func:`notify`.

Lines are built and read with :mod:`elicit_tray.ipc.jsonrpc` only. Cancelling :func:`request`
sends ``notifications/cancelled`` and closes, which expires the dialog. If no dialog can be
shown, the answer is a JSON-RPC error (:class:`~elicit_tray.requester.errors.TrayError`), never
a decision.
"""

from __future__ import annotations

import asyncio
import itertools
import os
from typing import Any

from ..ipc import jsonrpc as rpc
from ..paths import default_socket_path
from ..request import FLOW_KEY
from .completions import Completions
from .errors import TrayError, TrayUnavailable, unreachable_message, why_unreachable
from .launch import ensure_running
from .trust import open_connection

__all__ = ["notify", "request"]

_ids = itertools.count(1)


def _url_consent(method: str, params: dict[str, Any] | None, result: Any) -> tuple[bool, str | None, str | None]:
    """``(accepted, elicitationId, flow)`` of a URL ``elicitation/create`` and its result: whether
    the user consented, the id its completion notice will name, and the requester's flow
    (``_meta["elicit-tray/flow"]``); ``(False, None, None)`` for anything else."""
    if method != "elicitation/create" or not params or params.get("mode") != "url":
        return False, None, None
    eid = params.get("elicitationId")
    meta = params.get("_meta")
    flow = meta.get(FLOW_KEY) if isinstance(meta, dict) else None
    accepted = isinstance(result, dict) and result.get("action") == "accept"
    return accepted, eid if isinstance(eid, str) else None, flow if isinstance(flow, str) and flow else None


async def request(
    method: str,
    params: dict[str, Any] | None = None,
    *,
    socket_path: str | os.PathLike[str] | None = None,
    autostart: bool = True,
    completions: Completions | None = None,
    hold_owner: str | None = None,
) -> dict[str, Any]:
    """Send one JSON-RPC request to the tray app over a fresh connection and return its ``result``.

    The connection is made by :func:`~elicit_tray.requester.trust.open_connection` (the user's
    own tray app only), after :func:`~elicit_tray.requester.launch.ensure_running` unless
    ``autostart`` is False. With
    ``completions``, an accepted URL ``elicitation/create`` with an ``elicitationId`` keeps its
    connection open there: the tray takes ``notifications/elicitation/complete`` only from the
    connection that made the elicitation (docs/design.md "IPC contract"). A URL round with a flow
    (``_meta["elicit-tray/flow"]``) closes the held connections of that flow's earlier rounds once
    it is answered, and, accepted, is held itself (:meth:`Completions.hold`), so that the tray
    keeps the flow's one window between rounds (docs/design.md "URL flows over several rounds").
    A held connection is tagged ``hold_owner`` (:meth:`Completions.release_owner` closes it).

    Raises:
        TrayError: the tray app answered with a JSON-RPC error.
        UntrustedSocket: the socket is not the user's own; nothing was sent.
        TrayUnavailable: no tray app could be reached or started.
        asyncio.CancelledError: propagated after ``notifications/cancelled`` was sent.
    """
    path = await ensure_running(socket_path) if autostart else default_socket_path(socket_path)
    try:
        reader, writer = await open_connection(path)
    except OSError as exc:
        raise TrayUnavailable(unreachable_message(path, why_unreachable(exc))) from None
    request_id = next(_ids)
    held = False
    try:
        # NaN goes out as Python writes it: the tray is the one judge of what is valid (-32700).
        writer.write(rpc.encode(rpc.request(request_id, method, params or {}), allow_nan=True))
        await writer.drain()
        while True:
            line = await reader.readline()
            if not line:
                raise TrayUnavailable("elicit-tray closed the connection without answering")
            reply = rpc.decode_reply(line)
            if reply is None or reply.id != request_id:
                continue
            if reply.error is not None:
                raise TrayError(reply.error.code, reply.error.message, reply.error.data)
            accepted, eid, flow = _url_consent(method, params, reply.result)
            if completions is not None and flow is not None:
                completions.next_round(flow)  # this round holds the flow's window from now on
            if completions is not None and accepted and (eid is not None or flow is not None):
                completions.hold(eid, reader, writer, flow=flow, owner=hold_owner)
                held = True
            # The tray's results are objects (README "IPC contract"); passed on as read.
            result: dict[str, Any] = reply.result
            return result
    except asyncio.CancelledError:
        try:
            writer.write(
                rpc.encode(
                    rpc.notification(
                        "notifications/cancelled", {"requestId": request_id, "reason": "cancelled by the requester"}
                    )
                )
            )
        except OSError:
            pass
        raise
    finally:
        if not held:
            writer.close()


async def notify(method: str, params: dict[str, Any], *, socket_path: str | os.PathLike[str] | None = None) -> None:
    """Send one notification on a fresh connection (no answer expected); does nothing if no
    tray app runs. Notices about a request (``notifications/cancelled``,
    ``notifications/elicitation/complete``) count only on the connection that made it: use
    :class:`Completions` for the latter.

    Raises:
        UntrustedSocket: the socket is not the user's own; nothing was sent.
        TrayUnavailable: the path is too long for ``AF_UNIX``.
    """
    try:
        _reader, writer = await open_connection(default_socket_path(socket_path))
    except OSError:
        return
    writer.write(rpc.encode(rpc.notification(method, params), allow_nan=True))
    await writer.drain()
    writer.close()
