"""The requester side (no Qt import): talk to the tray app over its local socket.

- :func:`request`: one JSON-RPC call over a fresh connection (asyncio); cancelling it sends
  ``notifications/cancelled`` and closes, which expires the dialog.
- :func:`elicitation_callback`: an ``elicitation_callback`` for ``mcp.Client`` /
  ``mcp.ClientSession`` that serves both protocol versions (legacy ``elicitation/create``
  and 2026-07-28 ``inputRequests``).
- :func:`completion_forwarder`: a ``message_handler`` that forwards
  ``notifications/elicitation/complete`` (2025-11-25 only) to the tray app.
- :func:`ensure_running`: start the tray app (detached) when nobody answers on the socket.

If no dialog can be shown, the answer is a JSON-RPC error, never a decision.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Awaitable, Callable

from .paths import default_socket_path

__all__ = [
    "TrayError", "TrayUnavailable", "request", "ensure_running", "elicitation_callback",
    "completion_forwarder", "notify", "STARTUP_TIMEOUT_S",
]

#: How long :func:`ensure_running` waits for a started tray app to listen (seconds).
STARTUP_TIMEOUT_S = 15.0
_ids = itertools.count(1)
INTERNAL_ERROR = -32603


class TrayError(Exception):
    """A JSON-RPC error answered by the tray app: ``code``, ``message``, ``data``."""

    def __init__(self, code: int, message: str, data: Any = None):
        super().__init__(f"{code}: {message}")
        self.code, self.message, self.data = code, message, data


class TrayUnavailable(TrayError):
    """The tray app is not running and could not be started (code -32603)."""

    def __init__(self, message: str):
        super().__init__(INTERNAL_ERROR, message)


async def _connect(path: Path) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_unix_connection(str(path), limit=2 * 1024 * 1024)


def _display_available() -> bool:
    """Whether a started tray app could show windows (Linux: X11, Wayland or a set Qt platform)."""
    if not sys.platform.startswith("linux"):
        return True
    return any(os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"))


def tray_command() -> list[str]:
    """The command that runs ``elicit-tray`` with this Python (or this frozen bundle)."""
    return [sys.executable] if getattr(sys, "frozen", False) else [sys.executable, "-m", "elicit_tray"]


def _spawn_tray(path: Path) -> Callable[[], int | None]:
    """Start ``elicit-tray serve`` detached (own session, stdin from /dev/null, output to the
    state dir's ``tray.log``); returns a ``poll()`` giving its exit code once it has exited."""
    from platformdirs import user_state_dir

    log_dir = Path(user_state_dir("elicit-tray", appauthor=False))
    log_dir.mkdir(parents=True, exist_ok=True)
    argv = [*tray_command(), "--socket", str(path), "serve"]
    if not hasattr(os, "posix_spawn"):  # pragma: no cover - Windows
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, creationflags=getattr(subprocess, "DETACHED_PROCESS", 0))
        return proc.poll
    pid = os.posix_spawn(sys.executable, argv, dict(os.environ), setsid=True, file_actions=[
        (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, str(log_dir / "tray.log"), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600),
        (os.POSIX_SPAWN_DUP2, 1, 2),
    ])

    def poll() -> int | None:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return -1
        return os.waitstatus_to_exitcode(status) if done else None

    return poll


async def ensure_running(socket_path: str | os.PathLike[str] | None = None, *,
                         timeout_s: float = STARTUP_TIMEOUT_S) -> Path:
    """Return the socket path once a tray app answers there, starting one if needed.

    Raises:
        TrayUnavailable: nothing answers and a started tray app exited or did not listen
            within ``timeout_s`` (e.g. no display to show dialogs on).
    """
    path = default_socket_path(socket_path)
    try:
        _reader, writer = await _connect(path)
        writer.close()
        return path
    except OSError:
        pass
    if not _display_available():
        raise TrayUnavailable("no display to show dialogs on (DISPLAY, WAYLAND_DISPLAY and QT_QPA_PLATFORM "
                              "are unset), and no elicit-tray app is running")
    poll = _spawn_tray(path)
    deadline = time.monotonic() + timeout_s
    exit_code = None
    while time.monotonic() < deadline:
        try:
            _reader, writer = await _connect(path)
            writer.close()
            return path
        except OSError:
            exit_code = poll() if exit_code is None else exit_code
            if exit_code is not None and exit_code != 3:  # 3: another instance won the race; use it
                raise TrayUnavailable(f"the elicit-tray app exited with code {exit_code} "
                                      "(is there a display to show dialogs on?)") from None
            await asyncio.sleep(0.05)
    raise TrayUnavailable(f"the elicit-tray app did not start listening on {path} within {timeout_s:g} s")


async def request(method: str, params: dict[str, Any] | None = None, *,
                  socket_path: str | os.PathLike[str] | None = None, autostart: bool = True) -> dict[str, Any]:
    """Send one JSON-RPC request to the tray app and return its ``result``.

    Raises:
        TrayError: the tray app answered with a JSON-RPC error.
        TrayUnavailable: no tray app could be reached or started.
        asyncio.CancelledError: propagated after ``notifications/cancelled`` was sent.
    """
    path = await ensure_running(socket_path) if autostart else default_socket_path(socket_path)
    try:
        reader, writer = await _connect(path)
    except OSError as exc:
        raise TrayUnavailable(f"cannot reach elicit-tray at {path}: {exc}") from None
    request_id = next(_ids)
    message = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params or {}}
    try:
        writer.write(json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n")
        await writer.drain()
        while True:
            line = await reader.readline()
            if not line:
                raise TrayUnavailable("elicit-tray closed the connection without answering")
            reply = json.loads(line)
            if reply.get("id") != request_id:
                continue
            if "error" in reply:
                err = reply["error"]
                raise TrayError(err.get("code", INTERNAL_ERROR), err.get("message", ""), err.get("data"))
            return reply["result"]
    except asyncio.CancelledError:
        try:
            writer.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled",
                                     "params": {"requestId": request_id, "reason": "cancelled by the requester"}}
                                    ).encode("utf-8") + b"\n")
        except OSError:
            pass
        raise
    finally:
        writer.close()


async def notify(method: str, params: dict[str, Any], *, socket_path: str | os.PathLike[str] | None = None) -> None:
    """Send one notification (no answer expected); silently does nothing if no tray app runs."""
    try:
        _reader, writer = await _connect(default_socket_path(socket_path))
    except OSError:
        return
    writer.write(json.dumps({"jsonrpc": "2.0", "method": method, "params": params}).encode("utf-8") + b"\n")
    await writer.drain()
    writer.close()


def elicitation_callback(*, socket_path: str | os.PathLike[str] | None = None, autostart: bool = True,
                         server_name: str | None = None, client_name: str | None = None,
                         declared_modes: tuple[str, ...] | None = None,
                         ) -> Callable[[Any, Any], Awaitable[Any]]:
    """An ``elicitation_callback`` for ``mcp.Client(..., elicitation_callback=...)``.

    The callback has the SDK's signature ``async (ClientRequestContext, ElicitRequestParams)
    -> ElicitResult | ErrorData`` and serves both ``mode="legacy"`` and ``mode="2026-07-28"``.
    The server name shown is ``server_name``, else the session's ``server_info`` (self-reported).
    ``declared_modes`` lets the tray refuse undeclared modes with -32602 (MCP 2025-11-25).
    Errors (tray unreachable, invalid request) come back as ``ErrorData``, never as a decision.
    """
    import mcp_types as types

    async def callback(context: Any, params: Any) -> Any:
        wire = params.model_dump(by_alias=True, exclude_none=True, mode="json")
        meta = dict(wire.get("_meta") or {})
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
            result = await request("elicitation/create", wire, socket_path=socket_path, autostart=autostart)
        except TrayError as exc:
            return types.ErrorData(code=exc.code, message=exc.message, data=exc.data)
        except (OSError, ValueError) as exc:
            return types.ErrorData(code=INTERNAL_ERROR, message=f"elicit-tray failed: {exc}")
        return types.ElicitResult.model_validate(result)

    return callback


def completion_forwarder(*, socket_path: str | os.PathLike[str] | None = None,
                         then: Callable[[Any], Awaitable[None]] | None = None) -> Callable[[Any], Awaitable[None]]:
    """A ``message_handler`` for ``mcp.Client`` that forwards ``notifications/elicitation/complete``
    (MCP 2025-11-25) to the tray app, then calls ``then(message)`` if given."""
    import mcp_types as types

    async def handler(message: Any) -> None:
        if isinstance(message, types.ElicitCompleteNotification):
            await notify("notifications/elicitation/complete",
                         {"elicitationId": message.params.elicitation_id}, socket_path=socket_path)
        if then is not None:
            await then(message)

    return handler
