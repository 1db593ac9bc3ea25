"""The system tray icon: a small ``QSystemTrayIcon`` whose menu is kept current as requests come and go.

Lists the pending requests (click to bring one to the front; those still waiting for a window,
marked "not shown yet", get it when chosen: :mod:`.presenter` "Queue"), "Dismiss all" (each answers
``cancel``), "History…" and "Settings…", "Start at login" (a checkbox over the XDG autostart entry, :mod:`elicit_tray.desktop`;
freedesktop platforms only) and "Quit". The app keeps serving where no system tray exists.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import QApplication, QMenu, QSystemTrayIcon

from .. import desktop
from .i18n import translate
from .labels import menu_text, notification_text
from .presenter import Presenter

if TYPE_CHECKING:
    from ..history import Recorder
    from ..settings import Preferences

__all__ = ["ENV_OPEN_WINDOW", "Tray", "app_icon", "dbus_tray_in_use"]

#: ``history`` or ``settings``: the tray app opens that window as it starts.
ENV_OPEN_WINDOW = "ELICIT_TRAY_OPEN_WINDOW"

log = logging.getLogger(__name__)

#: Where "Start at login" (XDG Autostart) applies.
_XDG_AUTOSTART = not sys.platform.startswith(("win", "darwin"))


def app_icon(pending: bool = False) -> QIcon:
    """The SVG icon shipped in the package (``importlib.resources``; works from a wheel)."""
    name = "elicit-tray-pending.svg" if pending else "elicit-tray.svg"
    ref = resources.files("elicit_tray") / "resources" / "icons" / name
    with resources.as_file(ref) as path:
        return QIcon(str(path))


def dbus_tray_in_use() -> bool:
    """Whether Qt's D-Bus tray carries the icon (StatusNotifierItem): Qt uses it when a
    StatusNotifierWatcher is on the session bus. Then ``showMessage`` reaches a freedesktop
    notification server, which reads the body as markup, and the menu is exported as a
    dbusmenu, which reads ``_`` as a mnemonic. False on Windows and macOS, without D-Bus, or
    when the bus cannot be asked; raises nothing."""
    if sys.platform.startswith(("win", "darwin")):
        return False
    try:
        from PySide6.QtDBus import QDBusConnection

        bus = QDBusConnection.sessionBus()
        interface = bus.interface() if bus.isConnected() else None
        return interface is not None and bool(interface.isServiceRegistered("org.kde.StatusNotifierWatcher").value())
    except Exception:  # no QtDBus, no bus: Qt's own balloon shows plain text
        return False


def _waiting(count: int) -> str:
    """ "1 request waiting" / "N requests waiting", in the user's language."""
    if count == 1:
        return translate("Tray", "1 request waiting")
    return translate("Tray", "{count} requests waiting").format(count=count)


class Tray(QSystemTrayIcon):
    """Tray icon and menu over a :class:`Presenter`.

    ``on_quit`` is what "Quit" calls: the app's orderly shutdown, which answers every pending
    request with -32603 before windows close (closing a dialog would answer ``cancel``).
    With ``recorder`` the menu has "History…" (:class:`~.history_window.HistoryWindow` over
    ``recorder.history``), with ``preferences`` "Settings…"
    (:class:`~.settings_window.SettingsWindow`, showing ``socket_path``); each window is built
    on first use and reused.
    """

    def __init__(
        self,
        presenter: Presenter,
        on_quit: Callable[[], object] = QApplication.quit,
        *,
        recorder: Recorder | None = None,
        preferences: Preferences | None = None,
        socket_path: Path | str | None = None,
    ):
        super().__init__(app_icon())
        self.presenter = presenter
        self.on_quit = on_quit
        self.recorder = recorder
        self.preferences = preferences
        self.socket_path = socket_path
        # Asked once, as Qt decides once when the icon is made (and never again on the UI thread).
        exported = dbus_tray_in_use()
        #: Whether the icon, its menu and notifications go over D-Bus (:func:`dbus_tray_in_use`).
        self.dbus_tray: Callable[[], bool] = lambda: exported
        self.history_window: Any = None
        self.settings_window: Any = None
        self.menu = QMenu()
        self.setContextMenu(self.menu)
        self.setToolTip(translate("Tray", "elicit-tray: no requests waiting"))
        presenter.pending_changed.connect(self.update_state)
        # Kept current ahead of time, never rebuilt while it opens: a panel that shows the menu
        # (xfce4-panel) measured it before the rebuild and opened it clipped.
        presenter.pending_changed.connect(self.rebuild)
        presenter.request_shown.connect(self.announce)
        self.activated.connect(self._activated)
        # Clicking the notification is an activation the user asked for, like the icon's.
        self.messageClicked.connect(self.presenter.focus_oldest)
        self.rebuild()
        opening = os.environ.get(ENV_OPEN_WINDOW, "")
        if opening in ("history", "settings"):  # e.g. a launcher entry, or the keyboard/AT-SPI tests
            QTimer.singleShot(0, self.show_history if opening == "history" else self.show_settings)

    def _activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        """A left click (or the tray host's "activate") brings the waiting dialogs forward, the
        oldest with the keyboard focus; the right click opens the menu as before."""
        if reason in (QSystemTrayIcon.ActivationReason.Trigger, QSystemTrayIcon.ActivationReason.DoubleClick):
            self.presenter.focus_oldest()

    def update_state(self) -> None:
        """Icon and tooltip follow the number of waiting requests."""
        count = self.presenter.pending_count()
        self.setIcon(app_icon(pending=count > 0))
        self.setToolTip(
            ("elicit-tray: " + _waiting(count)) if count else translate("Tray", "elicit-tray: no requests waiting")
        )

    def notification(self, summary: str) -> tuple[str, str]:
        """(title, body) of the notification for a dialog with ``summary``: the body shows the
        summary as it is on the notification path in use (:func:`~.labels.notification_text`)."""
        body = notification_text(summary, markup=self.dbus_tray())
        return translate("Tray", "A server asks for your input"), body

    def announce(self, summary: str) -> None:
        """A short notification when a dialog appears (it may not get focus by itself)."""
        if self.isVisible() and self.supportsMessages():
            title, body = self.notification(summary)
            self.showMessage(title, body, app_icon(), 4000)

    def rebuild(self) -> None:
        """Recreate the menu from the current pending requests."""
        self.menu.clear()
        dialogs = self.presenter.dialogs
        count = self.presenter.pending_count()
        header = QAction(_waiting(count) if count else translate("Tray", "No requests waiting"), self.menu)
        header.setEnabled(False)
        self.menu.addAction(header)
        entries = [(key, self.presenter.summary(dialog.request)) for key, dialog in dialogs.items()]
        entries += [
            (key, translate("Tray", "{summary} (not shown yet)").format(summary=text))
            for key, text in self.presenter.waiting_summaries()
        ]
        exported = self.dbus_tray() if entries else False
        for key, text in entries:
            action = QAction(menu_text(text, dbusmenu=exported), self.menu)
            action.triggered.connect(lambda _=False, k=key: self.presenter.focus(k))
            self.menu.addAction(action)
        self.menu.addSeparator()
        dismiss = QAction(translate("Tray", "&Dismiss all (answer cancel)"), self.menu)
        dismiss.setEnabled(bool(count))
        dismiss.triggered.connect(self.presenter.dismiss_all)
        self.menu.addAction(dismiss)
        if self.recorder is not None:
            history = QAction(translate("Tray", "&History…"), self.menu)
            history.triggered.connect(lambda _=False: self.show_history())
            self.menu.addAction(history)
        if self.preferences is not None:
            settings = QAction(translate("Tray", "Se&ttings…"), self.menu)
            settings.triggered.connect(lambda _=False: self.show_settings())
            self.menu.addAction(settings)
        if _XDG_AUTOSTART:
            autostart = QAction(translate("Tray", "&Start at login"), self.menu)
            autostart.setCheckable(True)
            autostart.setChecked(desktop.autostart_enabled())
            autostart.toggled.connect(self.set_autostart)
            self.menu.addAction(autostart)
        quit_action = QAction(translate("Tray", "&Quit elicit-tray"), self.menu)
        quit_action.triggered.connect(lambda _=False: self.on_quit())
        self.menu.addAction(quit_action)

    def set_autostart(self, enabled: bool) -> None:
        """ "Start at login" toggled: write or remove the user's autostart entry."""
        try:
            desktop.set_autostart(enabled)
        except OSError as exc:
            log.warning("cannot change Start at login: %s", exc)

    @staticmethod
    def _present(window: Any) -> None:
        window.show()
        window.raise_()
        window.activateWindow()

    def show_history(self) -> Any:
        """ "History…": show the History window (built on first use, reading afresh); returns it."""
        from .history_window import HistoryWindow

        history = self.recorder.history if self.recorder is not None else None
        if self.history_window is None or self.history_window.history is not history:
            self.history_window = HistoryWindow(history, self.recorder)
        else:
            self.history_window.refresh()
        self._present(self.history_window)
        return self.history_window

    def show_settings(self) -> Any:
        """ "Settings…": show the Settings window (built on first use); returns it."""
        from .settings_window import SettingsWindow

        if self.settings_window is None and self.preferences is not None:
            self.settings_window = SettingsWindow(self.preferences, self.socket_path or "")
        self._present(self.settings_window)
        return self.settings_window
