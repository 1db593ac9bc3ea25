"""The requester side (no Qt import): talk to the tray app over its local socket.

The public API; each part lives in :mod:`elicit_tray.requester` and is re-exported here:

- :func:`request`: one JSON-RPC call over a fresh connection (asyncio); cancelling it sends
  ``notifications/cancelled`` and closes, which expires the dialog (``requester/calls.py``).
- :func:`elicitation_callback`: an ``elicitation_callback`` for ``mcp.Client`` /
  ``mcp.ClientSession`` that serves both protocol versions (legacy ``elicitation/create``
  and 2026-07-28 ``inputRequests``) (here).
- :func:`completion_forwarder`: a ``message_handler`` that forwards
  ``notifications/elicitation/complete`` (2025-11-25 only) to the tray app (here).
- :func:`ensure_running`: start the tray app (detached) when nobody answers on the socket
  (``requester/launch.py``).
- :func:`open_connection`: the only way to the socket. Before a byte is sent it checks that
  the socket's directory is the user's with mode 0700, that the socket is a socket of the
  user's, and that the listening process runs as the user (only the user's own tray app can
  answer; the peer uid is read on Linux, macOS, FreeBSD, DragonFly and OpenBSD, see
  :func:`peer_credentials`); otherwise :class:`UntrustedSocket` (``requester/trust.py``).
- :class:`Completions`: accepted URL elicitations keep their connection open for the
  completion notice, which the tray takes only from that connection
  (``requester/completions.py``).

If no dialog can be shown, the answer is a JSON-RPC error, never a decision.
"""

from __future__ import annotations

import logging
import os
import secrets
import weakref
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from .ipc import jsonrpc as rpc
from .request import FLOW_KEY
from .requester.calls import notify, request
from .requester.completions import COMPLETION_HOLD_S, Completions
from .requester.errors import TrayError, TrayUnavailable
from .requester.launch import STARTUP_TIMEOUT_S, ensure_running, tray_command
from .requester.trust import UntrustedSocket, check_socket, open_connection, peer_credentials

__all__ = [
    "TrayError",
    "TrayUnavailable",
    "request",
    "ensure_running",
    "elicitation_callback",
    "completion_forwarder",
    "notify",
    "STARTUP_TIMEOUT_S",
    "UntrustedSocket",
    "open_connection",
    "check_socket",
    "peer_credentials",
    "tray_command",
    "Completions",
    "COMPLETION_HOLD_S",
]

INTERNAL_ERROR = rpc.INTERNAL_ERROR  # kept for code that imported it from here
log = logging.getLogger(__name__)


class MessageHandler(Protocol):
    """What :func:`completion_forwarder` returns: the shape of ``mcp.Client``'s
    ``message_handler`` (the SDK's ``MessageHandlerFnT``, whose parameter is named ``message``)."""

    async def __call__(self, message: Any) -> None: ...


#: The registry shared by :func:`elicitation_callback` and :func:`completion_forwarder` by default.
_COMPLETIONS = Completions()


def elicitation_callback(
    *,
    socket_path: str | os.PathLike[str] | None = None,
    autostart: bool = True,
    server_name: str | None = None,
    client_name: str | None = None,
    declared_modes: tuple[str, ...] | None = None,
    completions: Completions | None = None,
) -> Callable[[Any, Any], Awaitable[Any]]:
    """An ``elicitation_callback`` for ``mcp.Client(..., elicitation_callback=...)``.

    The callback has the SDK's signature ``async (ClientRequestContext, ElicitRequestParams)
    -> ElicitResult | ErrorData`` and serves both ``mode="legacy"`` and ``mode="2026-07-28"``.
    The server name shown is ``server_name``, else the session's ``server_info`` (self-reported).
    ``declared_modes`` lets the tray refuse undeclared modes with -32602 (MCP 2025-11-25).
    An accepted URL elicitation keeps its connection in ``completions`` (default: the shared
    :class:`Completions`) for :func:`completion_forwarder`. URL requests carry
    ``_meta["elicit-tray/flow"]``, one per MCP session: a server that asks for the same URL
    again (its out-of-band step not done yet) gets the flow's waiting window, not a second
    consent (docs/design.md "URL flows over several rounds").
    Errors (tray unreachable, a socket that is not the user's own, invalid request) come back as
    ``ErrorData`` (-32603 for the first two, with :class:`UntrustedSocket`'s message), never as a
    decision.
    """
    import mcp_types as types

    registry = _COMPLETIONS if completions is None else completions
    flows: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()

    def flow_of(session: Any) -> str:
        """One flow per MCP session (docs/design.md "URL flows over several rounds")."""
        try:
            return flows.setdefault(session, f"py-{secrets.token_hex(8)}")
        except TypeError:  # not weakly referable: one flow for this callback
            return flows_fallback

    flows_fallback = f"py-{secrets.token_hex(8)}"

    async def callback(context: Any, params: Any) -> Any:
        wire = params.model_dump(by_alias=True, exclude_none=True, mode="json")
        meta = dict(wire.get("_meta") or {})
        if wire.get("mode") == "url":  # the rounds of a URL flow in this session are one flow
            meta[FLOW_KEY] = flow_of(getattr(context, "session", None) or callback)
        info = getattr(getattr(context, "session", None), "server_info", None)
        requester: dict[str, Any] = {}
        name = server_name or (info.name if info else None)
        if name:  # unknown stays unknown: the dialog says the server did not say who it is
            requester["serverName"] = name
        if info is not None and getattr(info, "title", None):
            requester["serverTitle"] = info.title
        if info is not None and getattr(info, "version", None):
            requester["serverVersion"] = info.version
        if client_name:
            requester["clientName"] = client_name
        if declared_modes is not None:
            requester["declaredModes"] = list(declared_modes)
        meta["elicit-tray/requester"] = requester
        wire["_meta"] = meta
        try:
            result = await request(
                "elicitation/create", wire, socket_path=socket_path, autostart=autostart, completions=registry
            )
        except TrayError as exc:
            return types.ErrorData(code=exc.code, message=exc.message, data=exc.data)
        except (OSError, ValueError) as exc:
            return types.ErrorData(code=INTERNAL_ERROR, message=f"elicit-tray failed: {exc}")
        return types.ElicitResult.model_validate(result)

    return callback


def completion_forwarder(
    *,
    socket_path: str | os.PathLike[str] | None = None,
    then: Callable[[Any], Awaitable[None]] | None = None,
    completions: Completions | None = None,
) -> MessageHandler:
    """A ``message_handler`` for ``mcp.Client`` that forwards ``notifications/elicitation/complete``
    (MCP 2025-11-25) to the tray app, then calls ``then(message)`` if given.

    The notice goes on the connection that made the elicitation, held in ``completions``
    (default: the shared :class:`Completions`, as :func:`elicitation_callback`'s); a notice for
    an elicitation no connection waits for is dropped. ``socket_path`` is accepted for
    compatibility and unused (the held connection was checked by :func:`open_connection`).
    """
    import mcp_types as types

    registry = _COMPLETIONS if completions is None else completions
    del socket_path

    async def handler(message: Any) -> None:
        if isinstance(message, types.ElicitCompleteNotification):
            if not await registry.complete(message.params.elicitation_id):
                log.info("no connection waits for the completion of elicitation %r", message.params.elicitation_id)
        if then is not None:
            await then(message)

    return handler
