"""The Settings window (tray menu "Settings…") and how settings reach the running app.

Each control changes one setting of :class:`~elicit_tray.settings.Preferences` at once (saved
in the settings file, applied without a restart by :func:`connect_settings`). A setting given on
the command line is shown disabled with the option that set it. Start at login toggles the XDG
autostart entry (freedesktop platforms). The socket path in use is shown for copying.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QLocale, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from .. import desktop
from ..settings import CONSENT_DELAY_BOUNDS, RETENTION_BOUNDS, TIMEOUT_BOUNDS, Preferences, Settings
from .i18n import install_translations, translate

__all__ = ["SettingsWindow", "connect_settings", "PRUNE_INTERVAL_MS"]

log = logging.getLogger(__name__)

#: How often the history's retention is applied while the app runs (a day, in ms).
PRUNE_INTERVAL_MS = 24 * 3600 * 1000
#: Where "Start at login" (XDG Autostart) applies.
_XDG_AUTOSTART = not sys.platform.startswith(("win", "darwin"))
#: Command-line options of each setting (shown beside a setting the command line fixed).
OPTIONS = {
    "timeout_s": "--timeout",
    "consent_delay_ms": "--consent-delay-ms",
    "history": "--history/--no-history",
    "history_values": "--history-values/--no-history-values",
    "history_query": "--history-query/--no-history-query",
    "retention_days": "--retention-days",
    "language": "--lang",
}
#: Languages offered: code ("" follows the system) and the language's own name.
LANGUAGES = (("en", "English"), ("de", "Deutsch"), ("ar", "العربية"))


def connect_settings(
    preferences: Preferences, presenter: Any, recorder: Any, *, fixed_arm_delay: bool = False
) -> QTimer:
    """Apply ``preferences`` to the running app now and after every change: the presenter's
    timeout and consent delay (unless ``fixed_arm_delay``: a test set it), the recorder's
    privacy switches and retention, the language. Returns the timer that prunes the history
    daily (:data:`PRUNE_INTERVAL_MS`); keep a reference to it."""
    language: dict[str, str | None] = {"code": None}

    def apply(settings: Settings) -> None:
        presenter.timeout_s = settings.timeout_s
        if not fixed_arm_delay:
            presenter.arm_delay_ms = settings.consent_delay_ms
        recorder.set_privacy(settings.privacy())
        if settings.language != language["code"]:
            if settings.language or language["code"] is not None:
                install_translations(QLocale(settings.language) if settings.language else None)
            language["code"] = settings.language

    preferences.subscribe(apply)
    timer = QTimer()
    timer.setInterval(PRUNE_INTERVAL_MS)
    timer.timeout.connect(recorder.prune)
    timer.start()
    return timer


class SettingsWindow(QDialog):
    """The Settings window over ``preferences``; ``socket_path`` is shown for copying.

    ``autostart``: ``(get, set)`` of "Start at login" (default: the XDG autostart entry of
    :mod:`elicit_tray.desktop`; ``None`` hides the control). Escape or Close hides the window.
    """

    def __init__(
        self,
        preferences: Preferences,
        socket_path: Path | str,
        *,
        autostart: tuple[Callable[[], bool], Callable[[bool], object]] | None = (
            (desktop.autostart_enabled, desktop.set_autostart) if _XDG_AUTOSTART else None
        ),
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        self.preferences = preferences
        self.autostart_access = autostart
        self.setObjectName("settings")
        self.setWindowTitle(translate("Settings", "Settings"))  # Qt adds " — elicit-tray"
        self.setModal(False)
        current = preferences.current
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)

        self.autostart = QCheckBox(translate("Settings", "&Start elicit-tray at login"))
        if autostart is not None:
            self.autostart.setChecked(bool(autostart[0]()))
            self.autostart.toggled.connect(self._set_autostart)
            self.autostart.setAccessibleDescription(
                translate("Settings", "Adds or removes the autostart entry of your desktop.")
            )
            form.addRow(self.autostart)

        self.timeout = QSpinBox()
        self.timeout.setRange(*TIMEOUT_BOUNDS)
        self.timeout.setSuffix(translate("Settings", " s"))
        self.timeout.setSpecialValueText(translate("Settings", "Never"))
        self.timeout.setValue(current.timeout_s)
        self._row(
            form,
            translate("Settings", "&Timeout:"),
            self.timeout,
            "timeout_s",
            translate("Settings", "Timeout"),
            translate(
                "Settings",
                "An untouched dialog answers cancel after this many seconds; a countdown shows it. 0: never.",
            ),
        )
        self.timeout.valueChanged.connect(lambda v: preferences.change(timeout_s=v))

        self.consent = QSpinBox()
        self.consent.setRange(*CONSENT_DELAY_BOUNDS)
        self.consent.setSingleStep(100)
        self.consent.setSuffix(translate("Settings", " ms"))
        self.consent.setValue(current.consent_delay_ms)
        self._row(
            form,
            translate("Settings", "&Consent delay:"),
            self.consent,
            "consent_delay_ms",
            translate("Settings", "Consent delay"),
            translate(
                "Settings",
                "Buttons stay disarmed this long after a dialog appears or regains focus, so a key "
                "meant for another window cannot answer it. From {low} to {high} ms.",
            ).format(low=CONSENT_DELAY_BOUNDS[0], high=CONSENT_DELAY_BOUNDS[1]),
        )
        self.consent.valueChanged.connect(lambda v: preferences.change(consent_delay_ms=v))

        self.history = QCheckBox(translate("Settings", "Keep a &history of decisions"))
        self.values = QCheckBox(translate("Settings", "Keep the &values entered in forms (never secret-looking ones)"))
        self.query = QCheckBox(translate("Settings", "Keep the &query strings of addresses"))
        for box, name, description in (
            (
                self.history,
                "history",
                translate("Settings", "Records every request and its answer in a private database on this computer."),
            ),
            (
                self.values,
                "history_values",
                translate("Settings", "Without it the history keeps each field's title but not what was entered."),
            ),
            (
                self.query,
                "history_query",
                translate(
                    "Settings",
                    "Query strings and fragments often hold tokens; without it only scheme, host and path are kept.",
                ),
            ),
        ):
            box.setChecked(bool(getattr(current, name)))
            box.setAccessibleDescription(description)
            self._lock(box, name)
            form.addRow(box)
            box.toggled.connect(lambda on, n=name: self._changed(n, on))

        self.retention = QSpinBox()
        self.retention.setRange(*RETENTION_BOUNDS)
        self.retention.setSuffix(translate("Settings", " days"))
        self.retention.setSpecialValueText(translate("Settings", "Forever"))
        self.retention.setValue(current.retention_days)
        self._row(
            form,
            translate("Settings", "&Keep decisions for:"),
            self.retention,
            "retention_days",
            translate("Settings", "Retention"),
            translate("Settings", "Older decisions are deleted at start and once a day. 0: kept forever."),
        )
        self.retention.valueChanged.connect(lambda v: preferences.change(retention_days=v))

        self.language = QComboBox()
        self.language.addItem(translate("Settings", "System language"), "")
        for code, name in LANGUAGES:
            self.language.addItem(name, code)
        self.language.setCurrentIndex(max(0, self.language.findData(current.language)))
        self._row(
            form,
            translate("Settings", "&Language:"),
            self.language,
            "language",
            translate("Settings", "Language"),
            translate("Settings", "The language of new dialogs and windows."),
        )
        self.language.currentIndexChanged.connect(lambda _i: preferences.change(language=self.language.currentData()))

        self.socket = QLineEdit(str(socket_path))
        self.socket.setReadOnly(True)
        self.socket.setCursorPosition(0)
        self.socket.setMinimumWidth(min(700, self.socket.fontMetrics().horizontalAdvance(str(socket_path)) + 24))
        self.socket.setAccessibleDescription(
            translate("Settings", "Where MCP clients reach elicit-tray (ELICIT_TRAY_SOCKET or --socket).")
        )
        self.copy = QPushButton(translate("Settings", "C&opy"))
        self.copy.setAutoDefault(False)
        self.copy.setAccessibleName(translate("Settings", "Copy the socket path"))
        self.copy.clicked.connect(lambda: QApplication.clipboard().setText(self.socket.text()))
        socket_row = QHBoxLayout()
        socket_row.addWidget(self.socket, 1)
        socket_row.addWidget(self.copy)
        socket_label = QLabel(translate("Settings", "Soc&ket in use:"))
        socket_label.setBuddy(self.socket)
        self.socket.setAccessibleName(translate("Settings", "Socket in use"))
        form.addRow(socket_label, socket_row)

        self.note = QLabel(translate("Settings", "Changes apply at once."))
        self.note.setWordWrap(True)
        close = QPushButton(translate("Settings", "Close"))
        close.setAutoDefault(False)
        close.clicked.connect(self.close)
        bottom = QHBoxLayout()
        bottom.addWidget(self.note, 1)
        bottom.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(bottom)
        self._sync_history_boxes()

    def _row(
        self, form: QFormLayout, label_text: str, widget: QWidget, name: str, accessible: str, description: str
    ) -> None:
        label = QLabel(label_text)
        label.setBuddy(widget)
        widget.setAccessibleName(accessible)
        widget.setAccessibleDescription(description)
        self._lock(widget, name)
        form.addRow(label, widget)

    def _lock(self, widget: QWidget, name: str) -> None:
        if self.preferences.locked(name):
            widget.setEnabled(False)
            why = translate("Settings", "Set on the command line ({option}).").format(option=OPTIONS[name])
            widget.setToolTip(why)
            widget.setAccessibleDescription(f"{widget.accessibleDescription()} {why}".strip())

    def _changed(self, name: str, on: bool) -> None:
        self.preferences.change(**{name: on})
        self._sync_history_boxes()

    def _sync_history_boxes(self) -> None:
        on = self.preferences.current.history
        for widget, name in (
            (self.values, "history_values"),
            (self.query, "history_query"),
            (self.retention, "retention_days"),
        ):
            widget.setEnabled(on and not self.preferences.locked(name))

    def _set_autostart(self, enabled: bool) -> None:
        assert self.autostart_access is not None
        try:
            self.autostart_access[1](enabled)
        except OSError as exc:
            log.warning("cannot change Start at login: %s", exc)

    def done(self, result: int) -> None:
        """Escape or Close: hide (the window is reused)."""
        self.hide()
        self.setResult(result)
