"""The errors of the requester side: what the tray app answered, or why it could not."""

from __future__ import annotations

import os
from typing import Any

from ..ipc import jsonrpc as rpc

__all__ = ["TrayError", "TrayUnavailable", "unreachable_message", "why_unreachable"]


class TrayError(Exception):
    """A JSON-RPC error answered by the tray app: ``code``, ``message``, ``data``."""

    def __init__(self, code: int, message: str, data: Any = None):
        super().__init__(f"{code}: {message}")
        self.code, self.message, self.data = code, message, data


class TrayUnavailable(TrayError):
    """The tray app is not running and could not be started (code -32603)."""

    def __init__(self, message: str):
        super().__init__(rpc.INTERNAL_ERROR, message)


def why_unreachable(exc: OSError) -> str:
    """Why nothing answered on the socket, in a few words: ``"no socket there"`` (the socket or
    its directory is missing), ``"nothing listens on it"`` (connection refused: a stale socket),
    else the system's text."""
    if isinstance(exc, FileNotFoundError):
        return "no socket there"
    if isinstance(exc, ConnectionRefusedError):
        return "nothing listens on it"
    return str(exc.strerror or exc)


def unreachable_message(path: str | os.PathLike[str], reason: str) -> str:
    """The text of "no tray app answers at ``path``" (``reason``: :func:`why_unreachable`), with
    what to do: start the tray app, or point ``ELICIT_TRAY_SOCKET`` at the socket it listens on
    where the asking program starts (for a server behind ``wrap``: the ``env`` of its entry in the
    MCP host's configuration; hosts may start servers without ``XDG_RUNTIME_DIR``)."""
    return (
        f"no elicit-tray app answers at {path} ({reason}). Start it (elicit-tray serve), or, if it "
        f'runs on another socket (it says "listening on PATH"), set ELICIT_TRAY_SOCKET=PATH where this '
        f'program is started: for a server behind elicit-tray wrap, in the "env" of its entry in the '
        f"MCP host's configuration (hosts may start servers without XDG_RUNTIME_DIR)"
    )
