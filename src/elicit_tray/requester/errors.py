"""The errors of the requester side: what the tray app answered, or why it could not."""

from __future__ import annotations

from typing import Any

from ..ipc import jsonrpc as rpc

__all__ = ["TrayError", "TrayUnavailable"]


class TrayError(Exception):
    """A JSON-RPC error answered by the tray app: ``code``, ``message``, ``data``."""

    def __init__(self, code: int, message: str, data: Any = None):
        super().__init__(f"{code}: {message}")
        self.code, self.message, self.data = code, message, data


class TrayUnavailable(TrayError):
    """The tray app is not running and could not be started (code -32603)."""

    def __init__(self, message: str):
        super().__init__(rpc.INTERNAL_ERROR, message)
