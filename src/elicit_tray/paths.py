"""Where the IPC socket lives (DESIGN.md "IPC contract": transport and default path).

Pure Python (no Qt), shared by the tray app and the requester side.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

__all__ = ["ENV_SOCKET", "default_socket_path", "ensure_private_dir", "UnsafeDirectory"]

#: Environment variable that overrides the socket path (as ``--socket PATH`` does).
ENV_SOCKET = "ELICIT_TRAY_SOCKET"


class UnsafeDirectory(RuntimeError):
    """The socket's directory is not owned by this user or is reachable by others."""


def default_socket_path(override: str | os.PathLike[str] | None = None) -> Path:
    """The socket path: ``override``, else ``$ELICIT_TRAY_SOCKET``, else
    ``<user runtime dir>/elicit-tray/socket`` (platformdirs; ``$XDG_RUNTIME_DIR`` on Linux).

    Without a usable runtime dir (no ``$XDG_RUNTIME_DIR``, e.g. a container or CI), falls
    back to ``<tmp>/elicit-tray-<uid>/socket``. Raises nothing; the path may not exist yet.
    """
    if override:
        return Path(override)
    if os.environ.get(ENV_SOCKET):
        return Path(os.environ[ENV_SOCKET])
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime) and os.access(runtime, os.W_OK):
        from platformdirs import user_runtime_dir

        return Path(user_runtime_dir("elicit-tray", appauthor=False)) / "socket"
    uid = os.getuid() if hasattr(os, "getuid") else 0
    return Path(tempfile.gettempdir()) / f"elicit-tray-{uid}" / "socket"


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
