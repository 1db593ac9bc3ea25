"""Composition root of the tray app (``elicit-tray serve``).

Wires QApplication + qasync, the presenter (dialogs), the dispatcher (IPC contract), the
local socket endpoint, the tray icon, and optionally the scripted user of the headless demo.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from . import __version__

if TYPE_CHECKING:
    from PySide6.QtCore import QTimer

    from .ui.tray import Tray

__all__ = ["serve", "EXIT_ALREADY_RUNNING", "EXIT_UNSAFE_SOCKET_DIR", "EXIT_SOCKET_ACTIVATION"]

log = logging.getLogger(__name__)

#: Another instance answers on the socket, or holds its lock file ``<socket>.lock``.
EXIT_ALREADY_RUNNING = 3
#: The socket path cannot be used: its directory is not the user's with mode 0700, it names
#: something other than a stale socket (a file, a directory, a link), it is too long for
#: ``AF_UNIX``, or it cannot be created. One line on stderr says which and what to do.
EXIT_UNSAFE_SOCKET_DIR = 4
#: The descriptor passed by the service manager (LISTEN_FDS) is not a listening Unix socket.
EXIT_SOCKET_ACTIVATION = 6


#: Notices of the offscreen platform plugin about window-manager calls it ignores; harmless.
_IGNORED_QT_MESSAGES = ("This plugin does not support propagateSizeHints()", "This plugin does not support raise()",
                        "This plugin does not support requestActivate()")


def _quiet_platform_notices() -> None:
    """Drop the offscreen plugin's no-op notices; every other Qt message goes to stderr, one line
    with its control characters escaped (:func:`~elicit_tray.logs.escape_controls`)."""
    from PySide6.QtCore import qInstallMessageHandler

    from .logs import escape_controls

    def handler(_kind: object, _context: object, message: str) -> None:
        if message not in _IGNORED_QT_MESSAGES:
            print(escape_controls(message), file=sys.stderr, flush=True)

    qInstallMessageHandler(handler)


#: How often (ms) the app looks for a system tray that was not there yet (a panel that starts
#: after the app at login).
TRAY_WATCH_MS = 2000


def _show_when_a_tray_appears(tray: Tray) -> QTimer | None:
    """Show ``tray`` now if a system tray host is there; otherwise look for one every
    :data:`TRAY_WATCH_MS` and show the icon as soon as it appears (autostart may beat the panel
    at login; Qt embeds an icon only into a tray host present when it is shown). Returns the
    watching timer, or ``None`` when the icon is shown at once. Dialogs appear either way."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QSystemTrayIcon

    if QSystemTrayIcon.isSystemTrayAvailable():
        tray.show()
        return None
    log.info("no system tray yet: dialogs still appear; the icon shows once a tray host starts")
    timer = QTimer(tray)
    timer.setInterval(TRAY_WATCH_MS)

    def look() -> None:
        if QSystemTrayIcon.isSystemTrayAvailable():
            timer.stop()
            tray.hide()
            tray.show()
            log.info("a system tray appeared: the icon is shown")

    timer.timeout.connect(look)
    timer.start()
    return timer


def serve(socket_path: Path, *, plan_path: Path | None = None, screenshot_dir: Path | None = None,
          no_browser: bool = False, arm_delay_ms: int | None = None, log_values: bool = False,
          timeout_s: int = 0) -> int:
    """Run the tray app until it is quit; returns the process exit code.

    Args:
        socket_path: where to listen (DESIGN.md "IPC contract").
        plan_path: a :class:`~elicit_tray.ui.scripted.ScriptPlan` file: a scripted user answers
            every dialog with real widget events (the headless demo).
        screenshot_dir: save a PNG of every dialog just before the scripted user's final step.
        no_browser: Open only logs the href instead of starting a browser (headless demo).
        arm_delay_ms: override :data:`~elicit_tray.ui.base.ARM_DELAY_MS`.
        timeout_s: the user-set timeout of a dialog in seconds (0: none); see
            :meth:`~elicit_tray.ui.base.ElicitationDialog.start_timeout`.
        log_values: the request log (:mod:`elicit_tray.logs`) also records field values,
            messages and full URLs (off by default).

    Exit codes: 0 after Quit/SIGTERM, :data:`EXIT_ALREADY_RUNNING` when another instance answers
    on the socket or holds its lock, :data:`EXIT_UNSAFE_SOCKET_DIR` when the socket path cannot be
    used (directory not private, not a stale socket, too long, cannot be created: README "IPC
    contract"),
    :data:`EXIT_SOCKET_ACTIVATION` when a socket passed by systemd (``LISTEN_FDS``) is unusable.
    With such a socket (``elicit-tray.socket``) the app serves on it instead of ``socket_path``.
    """
    import qasync
    from PySide6.QtCore import QCoreApplication, QEvent, QTimer
    from PySide6.QtWidgets import QApplication

    from .ipc.protocol import Dispatcher
    from .ipc.server import AlreadyRunning, LocalEndpoint, listen_fds
    from .paths import UnsafeDirectory
    from .ui import base
    from .ui.presenter import Presenter, system_browser
    from .ui.i18n import install_translations
    from .ui.tray import Tray, app_icon

    _quiet_platform_notices()
    # argv[0] names the windows (WM_CLASS "elicit-tray"), also when run as python -m elicit_tray
    app = QApplication.instance() or QApplication(["elicit-tray"])
    app.setApplicationName("elicit-tray")
    app.setApplicationDisplayName("elicit-tray")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName("elicit-tray")
    app.setQuitOnLastWindowClosed(False)
    app.setWindowIcon(app_icon())
    install_translations()

    def fake_browser(href: str) -> bool:
        print(f"[tray] (headless) the browser would open: {href}", file=sys.stderr, flush=True)
        return True

    on_shown = None
    if plan_path is not None:
        from .ui.scripted import ScriptedUser, ScriptPlan

        on_shown = ScriptedUser(ScriptPlan.load(plan_path), screenshot_dir)

    presenter = Presenter(opener=fake_browser if no_browser else system_browser,
                          arm_delay_ms=base.ARM_DELAY_MS if arm_delay_ms is None else arm_delay_ms,
                          timeout_s=max(0, timeout_s),
                          on_shown=on_shown)
    from .logs import open_journal

    journal = open_journal(log_values=log_values)
    dispatcher = Dispatcher(presenter.ask, presenter.complete, __version__, journal=journal)
    endpoint = LocalEndpoint(dispatcher, socket_path)
    inherited = listen_fds()  # systemd socket activation (elicit-tray.socket): adopt, do not create
    if len(inherited) > 1:
        log.warning("the service manager passed %d sockets; serving on the first only", len(inherited))
    failure: tuple[str, int] | None = None
    try:
        if inherited:
            endpoint.adopt(inherited[0])
            socket_path = endpoint.path
        else:
            endpoint.listen()
    except AlreadyRunning as exc:
        failure = (str(exc), EXIT_ALREADY_RUNNING)
    except UnsafeDirectory as exc:
        failure = (f"refusing to start: {exc}", EXIT_UNSAFE_SOCKET_DIR)
    except OSError as exc:
        if inherited:
            failure = (f"cannot use the socket passed by the service manager: {exc}", EXIT_SOCKET_ACTIVATION)
        else:
            failure = (f"refusing to start: cannot use the socket path {socket_path}: {exc}", EXIT_UNSAFE_SOCKET_DIR)
    if failure is not None:
        from .logs import escape_controls

        print(f"elicit-tray: {escape_controls(failure[0])}", file=sys.stderr)
        journal.close()
        return failure[1]
    journal.record("started", pid=os.getpid(), version=__version__, socket=str(socket_path), log_values=log_values,
                   socket_activated=endpoint.adopted)

    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    quitting = asyncio.Event()

    def request_quit(*_args: object) -> None:
        # Not app.quit(): Qt 6 first closes every window, and a closed dialog answers "cancel",
        # an action the user never chose. Stop the loop ourselves, answering -32603 first.
        loop.call_soon_threadsafe(quitting.set)

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, request_quit)
    tray = Tray(presenter, on_quit=request_quit)
    tray_watch = _show_when_a_tray_appears(tray)
    wake = QTimer()  # let the Python interpreter run signal handlers while Qt waits
    wake.start(200)
    wake.timeout.connect(lambda: None)
    print(f"elicit-tray {__version__} listening on {socket_path}"
          f"{'' if tray_watch is None else ' (no system tray available yet)'}", file=sys.stderr, flush=True)
    app.aboutToQuit.connect(quitting.set)
    shutdown_message = "elicit-tray is shutting down; no answer was given"

    async def until_quit() -> None:
        await quitting.wait()
        # While the loop still runs: the errors are written and the cancelled dialog tasks
        # (which run before this task's completion stops the loop) expire their dialogs.
        dispatcher.shutdown(shutdown_message)

    with loop:
        loop.run_until_complete(until_quit())
        dispatcher.shutdown(shutdown_message)  # no-op unless the Qt loop stopped first (app.quit())
        endpoint.close()
        for window in app.topLevelWidgets():  # answered or expired by now: close without a word
            window.hide()
            window.deleteLater()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    journal.record("stopped", pid=os.getpid())
    journal.close()
    return 0
