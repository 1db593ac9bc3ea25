"""Composition root of the tray app (``elicit-tray serve``).

Wires QApplication + qasync, the presenter (dialogs), the dispatcher (IPC contract), the
local socket endpoint, the tray icon, and optionally the scripted user of the headless demo.
:func:`serve` reads top to bottom; each step is a small function below it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import __version__

if TYPE_CHECKING:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication
    from qasync import QEventLoop

    from .history import Recorder
    from .ipc.protocol import Dispatcher
    from .ipc.server import LocalEndpoint
    from .settings import Preferences
    from .ui.presenter import Presenter
    from .ui.tray import Tray

__all__ = ["serve", "EXIT_ALREADY_RUNNING", "EXIT_UNSAFE_SOCKET_DIR", "EXIT_SOCKET_ACTIVATION", "EXIT_NO_DISPLAY"]

log = logging.getLogger(__name__)

#: Another instance answers on the socket, or holds its lock file ``<socket>.lock``.
EXIT_ALREADY_RUNNING = 3
#: The socket path cannot be used: its directory is not the user's with mode 0700, it names
#: something other than a stale socket (a file, a directory, a link), it is too long for
#: ``AF_UNIX``, or it cannot be created. One line on stderr says which and what to do.
EXIT_UNSAFE_SOCKET_DIR = 4
#: The descriptor passed by the service manager (LISTEN_FDS) is not a listening Unix socket.
EXIT_SOCKET_ACTIVATION = 6
#: No display can be opened (:func:`~elicit_tray.session.display_problem`): one line on stderr
#: says which and what to do, instead of the abort (status 134) of Qt's window-system plugin.
EXIT_NO_DISPLAY = 7


#: Notices of the offscreen platform plugin about window-manager calls it ignores; harmless.
_IGNORED_QT_MESSAGES = (
    "This plugin does not support propagateSizeHints()",
    "This plugin does not support raise()",
    "This plugin does not support requestActivate()",
)


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


def serve(
    socket_path: Path,
    *,
    plan_path: Path | None = None,
    screenshot_dir: Path | None = None,
    no_browser: bool = False,
    arm_delay_ms: int | None = None,
    log_values: bool = False,
    settings: Mapping[str, Any] | None = None,
    own_process: bool = False,
) -> int:
    """Run the tray app until it is quit; returns the process exit code.

    Args:
        socket_path: where to listen (docs/design.md "IPC contract").
        plan_path: a :class:`~elicit_tray.ui.scripted.ScriptPlan` file: a scripted user answers
            every dialog with real widget events (the headless demo).
        screenshot_dir: save a PNG of every dialog just before the scripted user's final step.
        no_browser: Open only logs the href instead of starting a browser (headless demo).
        arm_delay_ms: override :data:`~elicit_tray.ui.base.ARM_DELAY_MS` (and the consent delay
            setting: a test fixed it).
        log_values: the request log (:mod:`elicit_tray.logs`) also records field values,
            messages and full URLs (off by default).
        settings: settings given on the command line (setting name of
            :data:`~elicit_tray.settings.SETTINGS` -> value; ``None`` values are left to the
            settings file). They win over the settings file and the Settings window.
        own_process: the app is the whole process (``elicit-tray serve``), which then ends with
            :func:`~elicit_tray.lastexit.end_process`: when a library ends it with C ``exit()``
            (Qt's xcb plugin, when the X server goes away) the app still shuts down as on Quit
            (:func:`~elicit_tray.lastexit.on_library_exit`) and the process ends with 0.

    Exit codes: 0 after Quit/SIGTERM/SIGINT and when the display goes away, :data:`EXIT_NO_DISPLAY`
    when no display can be opened, :data:`EXIT_ALREADY_RUNNING` when another instance answers
    on the socket or holds its lock, :data:`EXIT_UNSAFE_SOCKET_DIR` when the socket path cannot be
    used (directory not private, not a stale socket, too long, cannot be created: README "IPC
    contract"),
    :data:`EXIT_SOCKET_ACTIVATION` when a socket passed by systemd (``LISTEN_FDS``) is unusable.
    With such a socket (``elicit-tray.socket``) the app serves on it instead of ``socket_path``.
    """
    from . import ui  # noqa: F401 - first: PySide6 without shiboken6 reading every module's source

    # isort: split
    from .history import open_history
    from .ipc.server import LocalEndpoint
    from .ui.settings_window import connect_settings

    if not _can_show_dialogs():
        return EXIT_NO_DISPLAY
    app = _qt_application()
    preferences = _preferences(settings)
    presenter = _presenter(
        plan_path=plan_path,
        screenshot_dir=screenshot_dir,
        no_browser=no_browser,
        arm_delay_ms=arm_delay_ms,
        timeout_s=preferences.current.timeout_s,
    )
    journal, dispatcher = _recorder_and_dispatcher(presenter, preferences, log_values=log_values)
    endpoint = LocalEndpoint(dispatcher, socket_path)
    served = _start_endpoint(endpoint, socket_path)
    if isinstance(served, _StartFailure):
        _say_why_not(served)
        journal.close()
        return served.exit_code
    journal.record("started", **_start_record(served, endpoint, log_values=log_values))
    # Only now, holding the socket's lock: a second instance exits above, never opening it.
    journal.attach(open_history())
    settings_timer = connect_settings(preferences, presenter, journal, fixed_arm_delay=arm_delay_ms is not None)

    _serve_until_quit(app, presenter, preferences, journal, dispatcher, endpoint, served, own_process=own_process)
    settings_timer.stop()
    _shut_down(dispatcher, endpoint, journal, reason="quit")
    return 0


def _serve_until_quit(
    app: QApplication,
    presenter: Presenter,
    preferences: Preferences,
    journal: Recorder,
    dispatcher: Dispatcher,
    endpoint: LocalEndpoint,
    served: Path,
    *,
    own_process: bool,
) -> None:
    """The tray icon and the event loop, until Quit, SIGTERM/SIGINT or (``own_process``) the
    display going away (see :func:`serve`)."""
    import qasync

    from .lastexit import on_library_exit
    from .ui.tray import Tray

    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    quitting, request_quit = _quit_on_request(loop)
    tray = Tray(presenter, on_quit=request_quit, recorder=journal, preferences=preferences, socket_path=served)
    tray_watch = _show_when_a_tray_appears(tray)
    wake = _wake_for_signal_handlers()
    if own_process:  # Qt's xcb plugin calls C exit() when the X server goes away
        on_library_exit(lambda: _shut_down(dispatcher, endpoint, journal, reason="display-lost"))
    _say_listening(served, tray_available=tray_watch is None)
    _run_until_quit(app, loop, quitting, dispatcher, endpoint)
    wake.stop()


def _can_show_dialogs() -> bool:
    """Whether a display can be opened (:func:`~elicit_tray.session.display_problem`); if not,
    one line on stderr says what is missing. Not asked when a QApplication already exists
    (tests, the check tool)."""
    from PySide6.QtCore import QCoreApplication

    from .session import display_problem

    problem = None if QCoreApplication.instance() is not None else display_problem(os.environ)
    if problem is not None:
        print(f"elicit-tray serve: {problem}", file=sys.stderr, flush=True)
    return problem is None


def _shut_down(dispatcher: Dispatcher, endpoint: LocalEndpoint, journal: Recorder, *, reason: str) -> None:
    """The last steps of every end (again harmless after :func:`_run_until_quit`): each waiting
    request gets its error, the socket and its lock file go, and the record is closed with a
    ``stopped`` entry (``reason``: ``quit``, or ``display-lost`` from C ``exit()``)."""
    dispatcher.shutdown(SHUTDOWN_MESSAGE)
    endpoint.close()
    journal.record("stopped", pid=os.getpid(), reason=reason)
    journal.close()


def _preferences(settings: Mapping[str, Any] | None) -> Preferences:
    """The settings in force: the settings file (:func:`~elicit_tray.settings.settings_store`)
    under the command line's ``settings`` (see :func:`serve`)."""
    from .settings import Preferences, settings_store

    return Preferences(settings_store(), settings)


def _recorder_and_dispatcher(
    presenter: Presenter, preferences: Preferences, *, log_values: bool
) -> tuple[Recorder, Dispatcher]:
    """What is recorded, and the IPC contract over ``presenter``.

    One Recorder (history.py) decides what is recorded. It writes the request journal (logs.py)
    and the decision history from the same events: each request's arrival, its dialog shown,
    its outcome from the dispatcher, and the app's start and stop (:func:`serve`). The heap is
    trimmed once no request and no dialog is left (:class:`~elicit_tray.ui.release.IdleRelease`).
    """
    from .history import Recorder
    from .ipc.protocol import Dispatcher
    from .logs import open_journal
    from .ui.release import IdleRelease

    presenter.pending_changed.connect(IdleRelease(presenter.pending_count, presenter).changed)
    journal = Recorder(open_journal(log_values=log_values), privacy=preferences.current.privacy())
    presenter.on_shown = journal.on_shown(presenter.on_shown)
    return journal, Dispatcher(journal.watch(presenter), __version__, journal=journal)


def _start_record(served: Path, endpoint: LocalEndpoint, *, log_values: bool) -> dict[str, Any]:
    """The fields of the journal's ``started`` record."""
    return {
        "pid": os.getpid(),
        "version": __version__,
        "socket": str(served),
        "log_values": log_values,
        "socket_activated": endpoint.adopted,
    }


def _say_listening(served: Path, *, tray_available: bool) -> None:
    """The line on stderr that says the app serves (the tests and the demo wait for it)."""
    print(
        f"elicit-tray {__version__} listening on {served}{'' if tray_available else ' (no system tray available yet)'}",
        file=sys.stderr,
        flush=True,
    )


def _qt_application() -> QApplication:
    """The QApplication of the tray app (created unless one exists), named ``elicit-tray``, with
    its icon and the system locale's translations, kept running while no window is open."""
    from PySide6.QtWidgets import QApplication

    from .ui.i18n import install_translations
    from .ui.tray import app_icon

    _quiet_platform_notices()
    # argv[0] names the windows (WM_CLASS "elicit-tray"), also when run as python -m elicit_tray
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(["elicit-tray"])
    app.setApplicationName("elicit-tray")
    app.setApplicationDisplayName("elicit-tray")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName("elicit-tray")
    app.setQuitOnLastWindowClosed(False)
    app.setWindowIcon(app_icon())
    install_translations()
    return app


def _headless_browser(href: str) -> bool:
    """The browser of ``--no-browser``: one line on stderr instead of opening ``href``."""
    print(f"[tray] (headless) the browser would open: {href}", file=sys.stderr, flush=True)
    return True


def _presenter(
    *, plan_path: Path | None, screenshot_dir: Path | None, no_browser: bool, arm_delay_ms: int | None, timeout_s: int
) -> Presenter:
    """The presenter (dialogs), answered by the scripted user of ``plan_path`` if one is given
    (see :func:`serve` for the arguments)."""
    from .ui import base
    from .ui.presenter import Presenter, system_browser

    on_shown = None
    if plan_path is not None:
        from .ui.scripted import ScriptedUser, ScriptPlan

        on_shown = ScriptedUser(ScriptPlan.load(plan_path), screenshot_dir)
    return Presenter(
        opener=_headless_browser if no_browser else system_browser,
        arm_delay_ms=base.ARM_DELAY_MS if arm_delay_ms is None else arm_delay_ms,
        timeout_s=max(0, timeout_s),
        on_shown=on_shown,
    )


@dataclass(frozen=True)
class _StartFailure:
    """Why the endpoint could not start: the line for stderr and the process exit code."""

    message: str
    exit_code: int


def _start_endpoint(endpoint: LocalEndpoint, socket_path: Path) -> Path | _StartFailure:
    """Serve on the socket systemd passed (``LISTEN_FDS``, elicit-tray.socket: adopted, not
    created) or else listen on ``socket_path``; returns the path served, or why not (one of the
    exit codes of :func:`serve`)."""
    from .ipc.server import AlreadyRunning, listen_fds
    from .paths import UnsafeDirectory

    inherited = listen_fds()
    if len(inherited) > 1:
        log.warning("the service manager passed %d sockets; serving on the first only", len(inherited))
    try:
        if inherited:
            endpoint.adopt(inherited[0])
            return endpoint.path
        endpoint.listen()
        return socket_path
    except AlreadyRunning as exc:
        return _StartFailure(str(exc), EXIT_ALREADY_RUNNING)
    except UnsafeDirectory as exc:
        return _StartFailure(f"refusing to start: {exc}", EXIT_UNSAFE_SOCKET_DIR)
    except OSError as exc:
        if inherited:
            return _StartFailure(f"cannot use the socket passed by the service manager: {exc}", EXIT_SOCKET_ACTIVATION)
        return _StartFailure(
            f"refusing to start: cannot use the socket path {socket_path}: {exc}", EXIT_UNSAFE_SOCKET_DIR
        )


def _say_why_not(failure: _StartFailure) -> None:
    """Say on stderr why the app does not start: one line, control characters escaped."""
    from .logs import escape_controls

    print(f"elicit-tray: {escape_controls(failure.message)}", file=sys.stderr)


def _quit_on_request(loop: asyncio.AbstractEventLoop) -> tuple[asyncio.Event, Callable[..., None]]:
    """An event set once quitting is asked for, and the function that asks (the tray's Quit);
    SIGINT and SIGTERM ask too."""
    quitting = asyncio.Event()

    def request_quit(*_args: object) -> None:
        # Not app.quit(): Qt 6 first closes every window, and a closed dialog answers "cancel",
        # an action the user never chose. Stop the loop ourselves, answering -32603 first.
        loop.call_soon_threadsafe(quitting.set)

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, request_quit)
    return quitting, request_quit


def _wake_for_signal_handlers() -> QTimer:
    """A running timer that lets the Python interpreter run signal handlers while Qt waits
    (keep a reference for as long as the app runs)."""
    from PySide6.QtCore import QTimer

    wake = QTimer()
    wake.start(200)
    wake.timeout.connect(lambda: None)
    return wake


#: What a request still waiting gets when the app quits (JSON-RPC error -32603).
SHUTDOWN_MESSAGE = "elicit-tray is shutting down; no answer was given"


def _run_until_quit(
    app: QApplication,
    loop: QEventLoop,
    quitting: asyncio.Event,
    dispatcher: Dispatcher,
    endpoint: LocalEndpoint,
) -> None:
    """Run the Qt event loop until ``quitting`` is set (or Qt quits), then shut down: every
    waiting request gets an error instead of an answer, the endpoint closes and every window is
    hidden and deleted without a word."""
    from PySide6.QtCore import QCoreApplication, QEvent

    app.aboutToQuit.connect(quitting.set)

    async def until_quit() -> None:
        await quitting.wait()
        # While the loop still runs: the errors are written and the cancelled dialog tasks
        # (which run before this task's completion stops the loop) expire their dialogs.
        dispatcher.shutdown(SHUTDOWN_MESSAGE)

    with loop:
        loop.run_until_complete(until_quit())
        dispatcher.shutdown(SHUTDOWN_MESSAGE)  # no-op unless the Qt loop stopped first (app.quit())
        endpoint.close()
        for window in app.topLevelWidgets():  # answered or expired by now: close without a word
            if window.inherits("QSystemTrayIconSys"):
                continue  # the tray icon's own X window: its QSystemTrayIcon deletes it
            window.hide()
            window.deleteLater()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
