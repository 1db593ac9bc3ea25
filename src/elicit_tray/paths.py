"""Where the IPC socket lives (DESIGN.md "IPC contract": transport and default path).

Pure Python (no Qt), shared by the tray app (``serve``) and the requester side, so that both
compute the same path from the same environment (README "Using it from an MCP client").

The default path never lies in a directory another user could create first (issue 10 §2):
``$XDG_RUNTIME_DIR`` when it is a directory of ours that others cannot write, else
``/run/user/<uid>`` under the same condition, else a directory under the user's home (the
platformdirs user state dir). There is no fallback to a shared temporary directory.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

__all__ = ["ENV_SOCKET", "APP_DIR", "SOCKET_NAME", "MAX_SOCKET_PATH_BYTES", "RUN_USER_ROOT", "default_socket_path",
           "default_socket_dir", "check_socket_path_length", "ensure_private_dir", "UnsafeDirectory",
           "SocketPathTooLong"]

#: Environment variable that overrides the socket path (as ``--socket PATH`` does).
ENV_SOCKET = "ELICIT_TRAY_SOCKET"
#: The socket's directory inside the runtime base (mode 0700, owned by the user).
APP_DIR = "elicit-tray"
#: The socket's file name.
SOCKET_NAME = "socket"
#: Longest socket path ``AF_UNIX`` takes, in bytes without the final NUL (``sun_path`` is 108
#: bytes on Linux, 104 on macOS and the BSDs).
MAX_SOCKET_PATH_BYTES = 107 if sys.platform.startswith("linux") else 103
#: Where systemd-logind (and elogind) make each user's runtime directory, ``<root>/<uid>``.
RUN_USER_ROOT = "/run/user"


class UnsafeDirectory(RuntimeError):
    """The socket's directory is not owned by this user or is reachable by others."""


class SocketPathTooLong(UnsafeDirectory):
    """The socket path does not fit ``AF_UNIX`` (:data:`MAX_SOCKET_PATH_BYTES`); the message says
    what to do. A subclass of :class:`UnsafeDirectory` so that ``serve`` reports it the same way
    (exit 4) instead of listening on a truncated path."""


def _uid() -> int | None:
    return os.getuid() if hasattr(os, "getuid") else None


def _ours_and_closed(path: str) -> bool:
    """``path`` is a directory owned by this user that group and others cannot write."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return False
    uid = _uid()
    return stat.S_ISDIR(info.st_mode) and (uid is None or info.st_uid == uid) and not info.st_mode & 0o022


def default_socket_dir() -> Path:
    """The socket's directory by default (from ``os.environ``).

    In order: ``$XDG_RUNTIME_DIR/elicit-tray`` if ``$XDG_RUNTIME_DIR`` is an absolute path to a
    directory owned by this user that group and others cannot write;
    ``/run/user/<uid>/elicit-tray`` on the same condition; else ``<user state dir>/run``
    (platformdirs: ``$XDG_STATE_HOME/elicit-tray/run`` or ``~/.local/state/elicit-tray/run`` on
    Linux, ``~/Library/Application Support/elicit-tray/run`` on macOS). Never a shared temporary
    directory: another user could create it first. Raises nothing; the directory may not exist
    yet (``serve`` creates it with mode 0700).
    """
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if os.path.isabs(runtime) and _ours_and_closed(runtime):
        return Path(runtime) / APP_DIR
    uid = _uid()
    if uid is not None and _ours_and_closed(os.path.join(RUN_USER_ROOT, str(uid))):
        return Path(RUN_USER_ROOT, str(uid), APP_DIR)
    from platformdirs import user_state_dir

    return Path(user_state_dir(APP_DIR, appauthor=False)) / "run"


def default_socket_path(override: str | os.PathLike[str] | None = None) -> Path:
    """The socket path: ``override`` (``--socket``), else ``$ELICIT_TRAY_SOCKET``, else
    ``<default socket dir>/socket`` (see :func:`default_socket_dir`).

    Raises nothing; the path may not exist yet, and may be too long for ``AF_UNIX`` (see
    :func:`check_socket_path_length`, which ``serve`` and the requester side call).
    """
    if override:
        return Path(override)
    if os.environ.get(ENV_SOCKET):
        return Path(os.environ[ENV_SOCKET])
    return default_socket_dir() / SOCKET_NAME


def check_socket_path_length(path: Path) -> None:
    """Raise :class:`SocketPathTooLong` when ``path`` does not fit ``AF_UNIX``.

    The message names the path, its length and the limit, and what to do (a shorter
    ``ELICIT_TRAY_SOCKET`` / ``--socket`` in a private directory, or ``XDG_RUNTIME_DIR``).
    """
    size = len(os.fsencode(str(path)))
    if size > MAX_SOCKET_PATH_BYTES:
        raise SocketPathTooLong(
            f"the socket path {path} is {size} bytes long; Unix sockets take at most {MAX_SOCKET_PATH_BYTES}. "
            f"Set ELICIT_TRAY_SOCKET (or pass --socket) to a shorter path in a directory only you can use "
            f"(mode 0700), for the tray app and its clients alike, or set XDG_RUNTIME_DIR to a short private "
            f"directory")


def ensure_private_dir(directory: Path) -> None:
    """Create ``directory`` with mode 0700 if missing; check an existing one.

    Raises:
        UnsafeDirectory: it exists but is owned by another user, is not a directory, or is
            writable by group/others (it is then not fixed silently: someone else may have
            made it).
    """
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = directory.lstat()
    if not stat.S_ISDIR(info.st_mode):
        raise UnsafeDirectory(f"{directory} is not a directory")
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise UnsafeDirectory(f"{directory} is owned by uid {info.st_uid}, not by you (uid {os.getuid()})")
    if info.st_mode & 0o022:
        raise UnsafeDirectory(f"{directory} is writable by other users (mode {stat.S_IMODE(info.st_mode):o}); "
                              f"run: chmod 700 {directory}")
    if info.st_mode & 0o077:
        os.chmod(directory, 0o700)  # ours and not writable by others: only tighten reading
