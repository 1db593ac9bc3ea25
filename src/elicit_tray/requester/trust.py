"""The only way to the tray app's socket: it must be the user's own (no Qt).

Before a byte is sent, :func:`open_connection` checks that the socket's directory is the user's
with mode 0700, that the socket is a socket of the user's (:func:`check_socket`), and that the
listening process runs as the user (:func:`peer_credentials`: read on Linux, macOS, FreeBSD,
DragonFly and OpenBSD); otherwise :class:`UntrustedSocket`. Another user could otherwise put a
socket of their own where the requester looks and answer in the user's place (README "Using it
from an MCP client": only the user's own tray app can answer).
"""

from __future__ import annotations

import asyncio
import os
import stat
import sys
from pathlib import Path
from typing import Any

from ..paths import SocketPathTooLong, check_socket_path_length
from .errors import TrayUnavailable

__all__ = ["UntrustedSocket", "check_socket", "open_connection", "peer_credentials"]

#: What to do when the socket is not the user's own (part of every :class:`UntrustedSocket` message).
_IMPERSONATION = (
    "Another user may be impersonating the tray app: do not use this path. Remove {target} (an "
    "administrator may have to) or choose a socket in a directory only you own, with mode 0700 "
    "(--socket PATH or ELICIT_TRAY_SOCKET), then start elicit-tray again."
)


class UntrustedSocket(TrayUnavailable):
    """The socket, its directory or the process listening on it is not the user's own (module
    docstring); nothing was sent. Code -32603.

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
    """The file checks made before connecting to ``path``.

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
    """Connect to the tray app at ``path``, only if it is the user's own (module docstring).

    Every requester-side path goes through here (``request``, ``notify``, ``ensure_running``,
    ``elicit-tray ask``, ``elicitation_callback`` of :mod:`elicit_tray.client`): first
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
