"""The requester side (no Qt import): talk to the tray app over its local socket.

- :func:`request`: one JSON-RPC call over a fresh connection (asyncio); cancelling it sends
  ``notifications/cancelled`` and closes, which expires the dialog.
- :func:`elicitation_callback`: an ``elicitation_callback`` for ``mcp.Client`` /
  ``mcp.ClientSession`` that serves both protocol versions (legacy ``elicitation/create``
  and 2026-07-28 ``inputRequests``).
- :func:`completion_forwarder`: a ``message_handler`` that forwards
  ``notifications/elicitation/complete`` (2025-11-25 only) to the tray app.
- :func:`ensure_running`: start the tray app (detached) when nobody answers on the socket.
- :func:`open_connection`: the only way to the socket. Before a byte is sent it checks that
  the socket's directory is the user's with mode 0700, that the socket is a socket of the
  user's, and that the listening process runs as the user (issue 10 §2 "Only the real tray app
  can answer"; the peer uid is read on Linux, macOS, FreeBSD, DragonFly and OpenBSD, see
  :func:`peer_credentials`); otherwise :class:`UntrustedSocket`.
- :class:`Completions`: accepted URL elicitations keep their connection open for the
  completion notice, which the tray takes only from that connection.

If no dialog can be shown, the answer is a JSON-RPC error, never a decision.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import stat
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol

from .ipc import jsonrpc as rpc
from .paths import SocketPathTooLong, check_socket_path_length, default_socket_path

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
    "Completions",
    "COMPLETION_HOLD_S",
]

#: How long :func:`ensure_running` waits for a started tray app to listen (seconds).
STARTUP_TIMEOUT_S = 15.0
#: How long an accepted URL elicitation's connection waits for its completion notice (seconds).
COMPLETION_HOLD_S = 1800.0
_ids = itertools.count(1)
INTERNAL_ERROR = rpc.INTERNAL_ERROR  # kept for code that imported it from here
log = logging.getLogger(__name__)


class TrayError(Exception):
    """A JSON-RPC error answered by the tray app: ``code``, ``message``, ``data``."""

    def __init__(self, code: int, message: str, data: Any = None):
        super().__init__(f"{code}: {message}")
        self.code, self.message, self.data = code, message, data


class TrayUnavailable(TrayError):
    """The tray app is not running and could not be started (code -32603)."""

    def __init__(self, message: str):
        super().__init__(INTERNAL_ERROR, message)


class MessageHandler(Protocol):
    """What :func:`completion_forwarder` returns: the shape of ``mcp.Client``'s
    ``message_handler`` (the SDK's ``MessageHandlerFnT``, whose parameter is named ``message``)."""

    async def __call__(self, message: Any) -> None: ...


#: What to do when the socket is not the user's own (part of every :class:`UntrustedSocket` message).
_IMPERSONATION = (
    "Another user may be impersonating the tray app: do not use this path. Remove {target} (an "
    "administrator may have to) or choose a socket in a directory only you own, with mode 0700 "
    "(--socket PATH or ELICIT_TRAY_SOCKET), then start elicit-tray again."
)


class UntrustedSocket(TrayUnavailable):
    """The socket, its directory or the process listening on it is not the user's own
    (issue 10 §2 "Only the real tray app can answer"); nothing was sent. Code -32603.

    Attributes: ``path`` (the socket path), ``owner_uid`` (the uid found instead of ours).
    The message names both and says what to do.
    """

    def __init__(self, path: Path, owner_uid: int | None, reason: str, remedy: str):
        super().__init__(f"refusing to use the elicit-tray socket {path}: {reason}; nothing was sent. {remedy}")
        self.path, self.owner_uid = path, owner_uid


def peer_credentials(sock: Any) -> tuple[int, int | None] | None:
    """``(uid, pid or None)`` of the process at the other end of the connected Unix socket
    ``sock``, or None where the OS cannot tell.

    Linux: ``SO_PEERCRED``; macOS, FreeBSD, DragonFly: ``LOCAL_PEERCRED`` (``getpeereid``);
    OpenBSD: ``SO_PEERCRED``. Elsewhere (NetBSD, Solaris, Windows) None: only the file checks
    of :func:`check_socket` apply there.

    Raises:
        OSError: the OS should tell but the call failed.
    """
    import socket as _socket
    import struct

    if sys.platform.startswith("linux"):
        raw = sock.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, struct.calcsize("3i"))
        pid, uid, _gid = struct.unpack("3i", raw)
        return uid, pid
    if sys.platform.startswith("openbsd"):
        raw = sock.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, struct.calcsize("3i"))
        uid, _gid, pid = struct.unpack("3i", raw)
        return uid, pid
    if sys.platform == "darwin" or sys.platform.startswith(("freebsd", "dragonfly")):
        # struct xucred {u_int cr_version; uid_t cr_uid; short cr_ngroups; gid_t cr_groups[16]; ...}
        raw = sock.getsockopt(getattr(_socket, "SOL_LOCAL", 0), getattr(_socket, "LOCAL_PEERCRED", 1), 128)
        _version, uid = struct.unpack_from("2I", raw)
        return uid, None
    return None


def check_socket(path: Path) -> None:
    """The file checks made before connecting to ``path`` (issue 10 §2).

    The path fits ``AF_UNIX``; its directory is a directory (not a symlink) owned by this user
    with no group/other permission bits (mode 0700); the socket file is a socket owned by this
    user.

    Raises:
        TrayUnavailable: the path is too long (the message says what to do).
        UntrustedSocket: the directory or the socket belongs to another user or is open to
            others.
        FileNotFoundError: the directory or the socket does not exist (no tray app runs there).
    """
    try:
        check_socket_path_length(path)
    except SocketPathTooLong as exc:
        raise TrayUnavailable(f"cannot use the elicit-tray socket: {exc}; nothing was sent") from None
    if not hasattr(os, "getuid"):  # pragma: no cover - Windows: named pipes, not checked here
        return
    me = os.getuid()
    directory = path.parent
    info = os.lstat(directory)
    if not stat.S_ISDIR(info.st_mode):
        raise UntrustedSocket(
            path,
            info.st_uid,
            f"{directory} is not a directory (owned by uid {info.st_uid})",
            _IMPERSONATION.format(target=directory),
        )
    if info.st_uid != me:
        raise UntrustedSocket(
            path,
            info.st_uid,
            f"its directory {directory} is owned by uid {info.st_uid}, not by you (uid {me})",
            _IMPERSONATION.format(target=directory),
        )
    if info.st_mode & 0o077:
        raise UntrustedSocket(
            path,
            info.st_uid,
            f"its directory {directory} (owned by uid {info.st_uid}) has mode {stat.S_IMODE(info.st_mode):04o}, "
            "open to other users; it must be 0700",
            f"Other users may have put a socket there. If you trust its contents, run: chmod 700 {directory}; "
            f"otherwise remove {path}. Then start elicit-tray again.",
        )
    info = os.lstat(path)
    if not stat.S_ISSOCK(info.st_mode):
        raise UntrustedSocket(
            path,
            info.st_uid,
            f"it is not a socket (owned by uid {info.st_uid})",
            f"Remove {path}, then start elicit-tray again.",
        )
    if info.st_uid != me:
        raise UntrustedSocket(
            path,
            info.st_uid,
            f"the socket is owned by uid {info.st_uid}, not by you (uid {me})",
            _IMPERSONATION.format(target=path),
        )


async def open_connection(path: Path) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Connect to the tray app at ``path``, only if it is the user's own (issue 10 §2).

    Every requester-side path goes through here (:func:`request`, :func:`notify`,
    :func:`ensure_running`, ``elicit-tray ask``, :func:`elicitation_callback`): first
    :func:`check_socket`, then the connection, then the peer's uid (:func:`peer_credentials`)
    must be this user's. Nothing is written before all checks passed.

    Returns:
        ``(reader, writer)`` (asyncio streams; the reader's limit is 2 MiB).

    Raises:
        OSError: no tray app listens there (missing directory or socket, connection refused).
        TrayUnavailable: the path is too long for ``AF_UNIX``.
        UntrustedSocket: the directory, the socket or the listening process is not this
            user's; the connection, if made, is closed without sending a byte.
    """
    path = Path(path)
    check_socket(path)
    reader, writer = await asyncio.open_unix_connection(str(path), limit=2 * 1024 * 1024)
    if not hasattr(os, "getuid"):  # pragma: no cover
        return reader, writer
    me = os.getuid()
    try:
        creds = peer_credentials(writer.get_extra_info("socket"))
    except OSError as exc:
        writer.close()
        raise UntrustedSocket(
            path,
            None,
            f"the user of the process listening there cannot be read ({exc})",
            _IMPERSONATION.format(target=path),
        ) from None
    if creds is not None and creds[0] != me:
        writer.close()
        uid, pid = creds
        who = "the process listening there" + (f" (pid {pid})" if pid is not None else "")
        raise UntrustedSocket(
            path, uid, f"{who} runs as uid {uid}, not as you (uid {me})", _IMPERSONATION.format(target=path)
        )
    return reader, writer


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
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            creationflags=getattr(subprocess, "DETACHED_PROCESS", 0),
        )
        return proc.poll
    from .logs import open_private_log

    try:  # never through a link another user planted: the same rules as the request log
        output = open_private_log(log_dir / "tray.log")
    except OSError:
        output = os.open(os.devnull, os.O_WRONLY | os.O_CLOEXEC)
    try:
        pid = os.posix_spawn(
            sys.executable,
            argv,
            dict(os.environ),
            setsid=True,
            file_actions=[
                (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                (os.POSIX_SPAWN_DUP2, output, 1),
                (os.POSIX_SPAWN_DUP2, output, 2),
            ],
        )
    finally:
        os.close(output)

    def poll() -> int | None:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return -1
        return os.waitstatus_to_exitcode(status) if done else None

    return poll


async def ensure_running(
    socket_path: str | os.PathLike[str] | None = None, *, timeout_s: float = STARTUP_TIMEOUT_S
) -> Path:
    """Return the socket path once the user's own tray app answers there, starting one if needed.

    Every probe goes through :func:`open_connection` (nothing is ever written).

    Raises:
        UntrustedSocket: the socket is not the user's own (then no tray app is started).
        TrayUnavailable: nothing answers and a started tray app exited or did not listen
            within ``timeout_s`` (e.g. no display to show dialogs on), or the path is too long.
    """
    path = default_socket_path(socket_path)
    try:
        _reader, writer = await open_connection(path)
        writer.close()
        return path
    except OSError:
        pass
    if not _display_available():
        raise TrayUnavailable(
            "no display to show dialogs on (DISPLAY, WAYLAND_DISPLAY and QT_QPA_PLATFORM "
            "are unset), and no elicit-tray app is running"
        )
    poll = _spawn_tray(path)
    deadline = time.monotonic() + timeout_s
    exit_code = None
    while time.monotonic() < deadline:
        try:
            _reader, writer = await open_connection(path)
            writer.close()
            return path
        except OSError:
            exit_code = poll() if exit_code is None else exit_code
            if exit_code is not None and exit_code != 3:  # 3: another instance won the race; use it
                raise TrayUnavailable(
                    f"the elicit-tray app exited with code {exit_code} (is there a display to show dialogs on?)"
                ) from None
            await asyncio.sleep(0.05)
    raise TrayUnavailable(f"the elicit-tray app did not start listening on {path} within {timeout_s:g} s")


def _url_consent(method: str, params: dict[str, Any] | None, result: Any) -> str | None:
    """The ``elicitationId`` of an accepted URL elicitation (which may get a completion notice)."""
    if method != "elicitation/create" or not params or params.get("mode") != "url":
        return None
    eid = params.get("elicitationId")
    return eid if isinstance(eid, str) and isinstance(result, dict) and result.get("action") == "accept" else None


async def request(
    method: str,
    params: dict[str, Any] | None = None,
    *,
    socket_path: str | os.PathLike[str] | None = None,
    autostart: bool = True,
    completions: Completions | None = None,
) -> dict[str, Any]:
    """Send one JSON-RPC request to the tray app over a fresh connection and return its ``result``.

    The connection is made by :func:`open_connection` (the user's own tray app only). With
    ``completions``, an accepted URL ``elicitation/create`` with an ``elicitationId`` keeps its
    connection open there: the tray takes ``notifications/elicitation/complete`` only from the
    connection that made the elicitation (DESIGN.md "IPC contract").

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
        raise TrayUnavailable(f"cannot reach elicit-tray at {path}: {exc}") from None
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
            eid = _url_consent(method, params, reply.result)
            if completions is not None and eid is not None:
                completions.hold(eid, reader, writer)
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


class _Held:
    def __init__(self, writer: asyncio.StreamWriter, watcher: asyncio.Task[None]):
        self.writer, self.watcher = writer, watcher


class Completions:
    """Accepted URL elicitations waiting for ``notifications/elicitation/complete`` (MCP
    2025-11-25), each holding open the connection that made it: the tray app takes the notice
    only from that connection (DESIGN.md "IPC contract"; issue 10 §2).

    Give the same instance to :func:`elicitation_callback` and :func:`completion_forwarder`
    (both default to one shared per process). Two MCP sessions in one process whose servers
    might use the same ``elicitationId`` should each get their own instance; in a shared one,
    a notice goes to the oldest waiting connection with that id.

    Args:
        hold_s: how long a connection waits for its notice before it is closed (seconds); it is
            also closed when the tray app closes it.
    """

    def __init__(self, hold_s: float = COMPLETION_HOLD_S):
        self.hold_s = hold_s
        self._held: dict[str, list[_Held]] = {}

    def waiting(self) -> list[str]:
        """The ``elicitationId`` of every held connection, oldest first per id."""
        return [eid for eid, held in self._held.items() for _ in held]

    def hold(self, elicitation_id: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Keep ``writer`` open for the notice of ``elicitation_id`` (for at most :attr:`hold_s`)."""
        entry: _Held | None = None

        async def watch() -> None:
            try:
                await asyncio.wait_for(self._drain(reader), self.hold_s)
            except asyncio.CancelledError:
                return  # complete() took the connection
            except (TimeoutError, OSError):
                pass
            self._forget(elicitation_id, entry)
            writer.close()

        entry = _Held(writer, asyncio.ensure_future(watch()))
        self._held.setdefault(elicitation_id, []).append(entry)

    @staticmethod
    async def _drain(reader: asyncio.StreamReader) -> None:
        while await reader.read(65536):
            pass

    def _forget(self, elicitation_id: str, entry: _Held | None) -> None:
        held = self._held.get(elicitation_id, [])
        if entry in held:
            held.remove(entry)
        if not held:
            self._held.pop(elicitation_id, None)

    async def complete(self, elicitation_id: str) -> bool:
        """Send ``notifications/elicitation/complete`` on the connection that made
        ``elicitation_id`` (the oldest one waiting), then close it.

        Returns False when no connection waits for that id (unknown, already completed, timed
        out or closed by the tray app): nothing is sent then. Raises nothing (a write error is
        logged).
        """
        held = self._held.get(elicitation_id)
        if not held:
            return False
        entry = held[0]
        self._forget(elicitation_id, entry)
        entry.watcher.cancel()
        try:
            entry.writer.write(
                rpc.encode(rpc.notification("notifications/elicitation/complete", {"elicitationId": elicitation_id}))
            )
            await entry.writer.drain()
        except OSError as exc:
            log.warning("the completion of elicitation %r could not be sent: %s", elicitation_id, exc)
            return False
        finally:
            entry.writer.close()
        return True


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
    :class:`Completions`) for :func:`completion_forwarder`.
    Errors (tray unreachable, a socket that is not the user's own, invalid request) come back as
    ``ErrorData`` (-32603 for the first two, with :class:`UntrustedSocket`'s message), never as a
    decision.
    """
    import mcp_types as types

    registry = _COMPLETIONS if completions is None else completions

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
