"""Where the IPC socket lives (docs/design.md "IPC contract": transport and default path).

Pure Python (no Qt), shared by the tray app (``serve``) and the requester side, so that both
compute the same path from the same environment (README "Using it from an MCP client").

The default path never lies in a directory another user could create first:
``$XDG_RUNTIME_DIR`` when it is a directory of ours that others cannot write, else
``/run/user/<uid>`` under the same condition, else a directory under the user's home (the
platformdirs user state dir). There is no fallback to a shared temporary directory.

What ``serve`` does with the path (README "IPC contract"): it creates only missing
directories (mode 0700) and tightens only a directory it created itself; an existing directory
must already be the user's with mode 0700 (:func:`ensure_private_dir`). It takes the instance
lock ``<socket>.lock`` (:class:`InstanceLock`) before it looks at the socket path, so two
instances started together cannot both run.
"""

from __future__ import annotations

import errno
import os
import socket
import stat
import sys
from pathlib import Path

__all__ = [
    "ENV_SOCKET",
    "APP_DIR",
    "SOCKET_NAME",
    "MAX_SOCKET_PATH_BYTES",
    "RUN_USER_ROOT",
    "LOCK_SUFFIX",
    "default_socket_path",
    "default_socket_dir",
    "check_socket_path_length",
    "ensure_private_dir",
    "open_private_append",
    "open_private_file",
    "PrivateFileRefused",
    "lock_path",
    "probe_socket",
    "InstanceLock",
    "LockHeld",
    "UnsafeDirectory",
    "UnsafeSocketPath",
    "SocketPathTooLong",
]

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
#: The instance lock file is the socket path plus this suffix, beside the socket.
LOCK_SUFFIX = ".lock"


class UnsafeDirectory(RuntimeError):
    """The socket's directory is not owned by this user or is reachable by others."""


class UnsafeSocketPath(UnsafeDirectory):
    """The socket path names something that is not a stale socket of ours (a regular file, a
    directory, a symbolic link, another user's socket...), or its lock file is not a private
    regular file: nothing is removed, ``serve`` exits 4 with this message."""


class LockHeld(RuntimeError):
    """Another instance holds the lock of this socket path (``serve`` exits 3)."""


class SocketPathTooLong(UnsafeDirectory):
    """The socket path does not fit ``AF_UNIX`` (:data:`MAX_SOCKET_PATH_BYTES`); the message says
    what to do. A subclass of :class:`UnsafeDirectory` so that ``serve`` reports it the same way
    (exit 4) instead of listening on a truncated path."""


def _uid() -> int | None:
    return os.getuid() if hasattr(os, "getuid") else None


class PrivateFileRefused(Exception):
    """:func:`open_private_file` refused the file: ``kind`` is ``"link"`` (a symbolic link),
    ``"not_regular"`` (a directory, FIFO, device...), ``"owner"`` (``value`` is its owner's uid)
    or ``"links"`` (``value`` is its hard-link count). Each caller words it for its file."""

    def __init__(self, kind: str, value: int | None = None):
        super().__init__(kind, value)
        self.kind = kind
        self.value = value


def open_private_file(path: Path, flags: int, *, single_link: bool = False) -> tuple[int, os.stat_result]:
    """Open ``path`` with ``flags`` plus ``O_CREAT`` (mode 0600), ``O_NOFOLLOW`` (a symbolic link
    is refused, never followed), ``O_CLOEXEC`` and ``O_NONBLOCK`` (a FIFO is refused instead of
    blocking the open; the descriptor stays non-blocking); then it must be a regular file owned
    by the user (with one hard link when ``single_link``), and its mode is forced to 0600.
    Returns the descriptor and its ``fstat`` (before the mode was forced).

    Raises:
        PrivateFileRefused: why the file is refused (the descriptor is closed).
        OSError: it cannot be opened.
    """
    flags |= (
        os.O_CREAT
        | getattr(os, "O_NOFOLLOW", 0)
        | getattr(os, "O_CLOEXEC", 0)
        | getattr(os, "O_NONBLOCK", 0)
        | getattr(os, "O_NOCTTY", 0)
    )
    try:
        fd = os.open(path, flags, 0o600)
    except OSError as exc:
        if exc.errno == errno.ELOOP or os.path.islink(path):
            raise PrivateFileRefused("link") from None
        if exc.errno in (errno.ENXIO, errno.EISDIR):
            raise PrivateFileRefused("not_regular") from None
        raise
    try:
        info = os.fstat(fd)
        uid = _uid()
        if not stat.S_ISREG(info.st_mode):
            raise PrivateFileRefused("not_regular")
        if uid is not None and info.st_uid != uid:
            raise PrivateFileRefused("owner", info.st_uid)
        if single_link and info.st_nlink != 1:
            raise PrivateFileRefused("links", info.st_nlink)
        if stat.S_IMODE(info.st_mode) != 0o600 and hasattr(os, "fchmod"):
            os.fchmod(fd, 0o600)
    except BaseException:
        os.close(fd)
        raise
    return fd, info


def open_private_append(path: Path) -> int:
    """``path`` opened for appending as a log of the user's own (:func:`open_private_file` with
    one hard link only), the descriptor made blocking again; a log's, the wrap proxy's wire
    log's and the dialog trace's opener.

    Raises:
        PrivateFileRefused: the file is refused (the descriptor is closed).
        OSError: it cannot be opened.
    """
    fd, _info = open_private_file(path, os.O_WRONLY | os.O_APPEND, single_link=True)
    try:
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


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
            f"directory"
        )


def ensure_private_dir(directory: Path) -> bool:
    """Make sure ``directory`` is the user's own with mode 0700; returns whether it created it.

    Missing directories (``directory`` and any missing parent) are created with mode 0700, and
    only those are ever chmodded. An existing ``directory`` is never changed: it must be a real
    directory (not a symbolic link) owned by the user that group and others can neither write
    nor read, list or enter (mode 0700, the requesters check the same).

    Raises:
        UnsafeDirectory: it exists but is not a directory, is a symbolic link, is owned by
            another user, or has any group/other permission (the message says what to do;
            nothing is fixed silently: someone else may have made it, or it is e.g. ``$HOME``).
        OSError: it cannot be created.
    """
    missing: list[Path] = []
    probe = Path(directory)
    while not os.path.lexists(probe) and probe.parent != probe:
        missing.append(probe)
        probe = probe.parent
    created: set[Path] = set()
    for path in reversed(missing):
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            continue  # made meanwhile by someone else: checked like any existing directory
        created.add(path)
        if hasattr(os, "chmod"):
            os.chmod(path, 0o700)  # whatever the umask: this one is ours
    info = directory.lstat()
    if stat.S_ISLNK(info.st_mode):
        raise UnsafeDirectory(
            f"{directory} is a symbolic link; the socket's directory must be a directory of yours (mode 0700)"
        )
    if not stat.S_ISDIR(info.st_mode):
        raise UnsafeDirectory(f"{directory} is not a directory")
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise UnsafeDirectory(f"{directory} is owned by uid {info.st_uid}, not by you (uid {os.getuid()})")
    mode = stat.S_IMODE(info.st_mode)
    if info.st_mode & 0o022:
        raise UnsafeDirectory(f"{directory} is writable by other users (mode {mode:o}); run: chmod 700 {directory}")
    if info.st_mode & 0o077:
        raise UnsafeDirectory(
            f"{directory} can be read by other users (mode {mode:o}); the socket must be in a "
            f"directory only you can use: choose another --socket path, or run: chmod 700 "
            f"{directory}"
        )
    return directory in created


def probe_socket(path: Path, timeout_s: float = 0.5) -> bool:
    """True when something accepts connections on the Unix socket ``path`` (at most
    ``timeout_s`` seconds). False when ``path`` is not a socket itself (a symbolic link is not
    followed) or nothing accepts. Raises nothing; writes nothing.

    How ``serve`` tells a live socket (exit 3) from a stale one (removed), and how the demo
    waits for its tray app (docs/design.md "IPC contract"). Plain ``socket``: no Qt.
    """
    if not hasattr(socket, "AF_UNIX"):
        return False
    try:
        if not stat.S_ISSOCK(os.lstat(path).st_mode):
            return False
    except (OSError, ValueError):
        return False
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout_s)
        try:
            sock.connect(str(path))
        except OSError:
            return False
    return True


def lock_path(socket_path: Path) -> Path:
    """The instance lock file of ``socket_path``: ``<socket_path>.lock``, beside the socket."""
    return socket_path.with_name(socket_path.name + LOCK_SUFFIX)


class InstanceLock:
    """An exclusive ``flock`` on :func:`lock_path` of a socket path: one ``serve`` per socket.

    :meth:`acquire` opens the file (``O_NOFOLLOW``, created 0600, mode forced to 0600), checks it
    is a regular file of the user's, and takes ``LOCK_EX | LOCK_NB``. The lock lives as long as
    the descriptor (a killed instance releases it). :meth:`release` removes the file while
    still holding the lock, then closes it; an instance that locked a file already removed this
    way notices (the path no longer names what it locked) and tries again.
    """

    def __init__(self, socket_path: Path):
        self.path = lock_path(Path(socket_path))
        self.fd: int | None = None

    @property
    def held(self) -> bool:
        """Whether this process holds the lock now."""
        return self.fd is not None

    def acquire(self) -> None:
        """Take the lock (never waits).

        Raises:
            LockHeld: another process holds it.
            UnsafeSocketPath: the lock path is a symbolic link, not a regular file, or another
                user's file.
            OSError: it cannot be created.
        """
        import fcntl

        refusals = {
            "link": f"the lock file {self.path} is a symbolic link; remove it",
            "not_regular": f"the lock file {self.path} is not a regular file; remove it",
        }
        for _attempt in range(16):
            try:
                fd, info = open_private_file(self.path, os.O_RDWR)
            except PrivateFileRefused as refused:
                if refused.kind == "owner":
                    raise UnsafeSocketPath(
                        f"the lock file {self.path} is owned by uid {refused.value}, not by you"
                    ) from None
                raise UnsafeSocketPath(refusals[refused.kind]) from None
            try:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    raise LockHeld(f"another instance holds {self.path}") from None
                try:
                    now = os.lstat(self.path)
                except FileNotFoundError:
                    now = None
                if now is None or (now.st_dev, now.st_ino) != (info.st_dev, info.st_ino):
                    os.close(fd)  # the previous holder removed it on release: lock the new one
                    continue
            except BaseException:
                os.close(fd)
                raise
            self.fd = fd
            return
        raise LockHeld(f"{self.path} keeps being replaced")

    def release(self) -> None:
        """Remove the lock file and release the lock (no-op when not held). Raises nothing."""
        if self.fd is None:
            return
        try:
            info, now = os.fstat(self.fd), os.lstat(self.path)
            if (now.st_dev, now.st_ino) == (info.st_dev, info.st_ino):
                os.unlink(self.path)
        except OSError:
            pass
        os.close(self.fd)
        self.fd = None
