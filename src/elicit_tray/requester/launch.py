"""Starting the tray app when nobody answers on the socket (no Qt).

:func:`ensure_running` probes through :func:`~elicit_tray.requester.trust.open_connection`
(nothing is written); when nothing answers and there is a display, it starts ``elicit-tray
serve`` detached (:func:`tray_command`; own session, output to the state dir's ``tray.log``
under the request log's rules) and waits until it listens.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from ..paths import default_socket_path
from .errors import TrayUnavailable, unreachable_message, why_unreachable
from .trust import open_connection

__all__ = ["STARTUP_TIMEOUT_S", "ensure_running", "tray_command"]

#: How long :func:`ensure_running` waits for a started tray app to listen (seconds).
STARTUP_TIMEOUT_S = 15.0


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
    from ..logs import open_private_log

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
    except OSError as exc:
        reason = why_unreachable(exc)
    if not _display_available():
        raise TrayUnavailable(
            unreachable_message(path, reason) + "; and none can be started here: no display to show dialogs on "
            "(DISPLAY, WAYLAND_DISPLAY and QT_QPA_PLATFORM are unset)"
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
