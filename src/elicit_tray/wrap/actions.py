"""What the wrap core tells its shell to do, and what it is told back (no I/O).

The core (:class:`~elicit_tray.wrap.core.WrapCore`) returns a list of :data:`Action` for each
line it is fed, in order: bytes for one side (:class:`ToServer`, :class:`ToHost`) or a tray
request to make, withdraw or complete (:class:`AskTray`, :class:`CancelTray`,
:class:`CompleteTray`, :class:`ReleaseTray`). The shell reports each tray answer as a :class:`TrayAnswer`. Who asks,
for the dialog, is an :class:`Identity` (``docs/wrap-design.md`` §2.6).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any

from ..ipc.jsonrpc import INTERNAL_ERROR

__all__ = [
    "Action",
    "AskTray",
    "CancelTray",
    "CompleteTray",
    "Identity",
    "MAX_REQUESTER_CHARS",
    "ReleaseTray",
    "ToHost",
    "ToServer",
    "TrayAnswer",
    "UNREACHABLE_MESSAGE",
]

# INTERNAL_ERROR (-32603, ipc.jsonrpc) is the answer when the tray app cannot be reached (§2.5).
#: The message of that error (never a decline or cancel: nobody decided).
UNREACHABLE_MESSAGE = "elicit-tray: tray app unreachable"
#: Longest requester string the tray takes (README "IPC contract" limits): ``limits.MAX_TEXT_CHARS``,
#: not imported so that wrap starts without the schema package (tests/unit/test_pure_core.py
#: checks they are equal).
MAX_REQUESTER_CHARS = 1000


@dataclass(frozen=True)
class ToHost:
    """Write ``data`` (whole lines, terminators included) to the host (our stdout)."""

    data: bytes | bytearray


@dataclass(frozen=True)
class ToServer:
    """Write ``data`` (whole lines, terminators included) to the child's stdin."""

    data: bytes | bytearray


@dataclass(frozen=True)
class AskTray:
    """Send ``elicitation/create`` with ``params`` (MCP ``ElicitRequestParams`` plus
    ``_meta["elicit-tray/requester"]``) to the tray app; report the outcome with
    :meth:`~elicit_tray.wrap.core.WrapCore.tray_done` (``ticket``). An accepted URL
    elicitation's connection, held for its completion notice or its flow's next round, belongs
    to ``owner`` (the host request's id key) until :class:`ReleaseTray`."""

    ticket: int
    params: dict[str, Any]
    owner: str | None = None


@dataclass(frozen=True)
class CancelTray:
    """Withdraw the tray request of ``ticket`` (its dialog expires); a later answer is ignored."""

    ticket: int


@dataclass(frozen=True)
class CompleteTray:
    """Deliver ``notifications/elicitation/complete`` for ``elicitation_id`` to the tray app
    (on the connection that made that URL elicitation)."""

    elicitation_id: str


@dataclass(frozen=True)
class ReleaseTray:
    """Close, without a word, every connection held for the tray requests of ``owner`` (the
    host request they belonged to ended: the tray app stops waiting for their completion
    notices, and a URL flow's window closes at once, ``docs/wrap-design.md`` §2.9)."""

    owner: str


Action = ToHost | ToServer | AskTray | CancelTray | CompleteTray | ReleaseTray


@dataclass(frozen=True)
class TrayAnswer:
    """What the tray app said for a ticket: ``result`` (an ``ElicitResult`` dict) or ``error``
    (a JSON-RPC error object ``{code, message, data?}``). Build the unreachable case with
    :meth:`unreachable`."""

    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None

    @classmethod
    def unreachable(cls) -> TrayAnswer:
        """-32603 ``"elicit-tray: tray app unreachable"`` (§2.5)."""
        return cls(error={"code": INTERNAL_ERROR, "message": UNREACHABLE_MESSAGE})


@dataclass(frozen=True)
class Identity:
    """Who asks, for the dialog (§2.6 "Identity for the tray"): the wrapped command line
    (``argv``), the proxy's pid and the child's pid (None before it runs)."""

    argv: tuple[str, ...] = ()
    proxy_pid: int | None = None
    child_pid: int | None = None

    def client_name(self) -> str:
        """``"elicit-tray wrap (pid P) running <command> (pid C)"``, cut to 1,000 characters
        (the tray's limit for a requester string) in the middle of the command."""
        proxy = f" (pid {self.proxy_pid})" if self.proxy_pid is not None else ""
        child = f" (pid {self.child_pid})" if self.child_pid is not None else ""
        head, tail = f"elicit-tray wrap{proxy} running ", child
        command = shlex.join(self.argv) if self.argv else "a server"
        room = MAX_REQUESTER_CHARS - len(head) - len(tail)
        if len(command) > room:
            command = command[: room - 1] + "…"
        return head + command + tail
