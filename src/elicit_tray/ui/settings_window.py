"""The Settings window (tray menu "Settings…") and how settings reach the running app.

Each control changes one setting of :class:`~elicit_tray.settings.Preferences` at once (saved
in the settings file, applied without a restart by :func:`connect_settings`). The controls are
derived from the settings table (:data:`~elicit_tray.settings.SETTINGS`), one row each, in its
order; the kind of control is chosen by the setting's type (:data:`KINDS`: a spin box for
``int``, a check box for ``bool``, a combo box for ``str``), so a new setting needs no code here
unless it has a new type. A setting given on the command line is shown disabled with the option
that set it. Start at login toggles the XDG autostart entry (freedesktop platforms). The socket
path in use is shown for copying.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass
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
from ..settings import SETTINGS, Preferences, Setting, Settings
from .a11y import speak_selection
from .i18n import install_translations, translate

__all__ = ["KINDS", "PRUNE_INTERVAL_MS", "Kind", "SettingsWindow", "connect_settings"]

log = logging.getLogger(__name__)

#: How often the history's retention is applied while the app runs (a day, in ms).
PRUNE_INTERVAL_MS = 24 * 3600 * 1000
#: Where "Start at login" (XDG Autostart) applies.
_XDG_AUTOSTART = not sys.platform.startswith(("win", "darwin"))


def _spin_box(row: Setting[int], value: int) -> QSpinBox:
    """A number between the row's bounds, with its unit and the word for its minimum."""
    box = QSpinBox()
    box.setRange(*(row.bounds or (0, 2**31 - 1)))
    box.setSingleStep(row.step)
    if row.suffix:
        box.setSuffix(translate("Settings", row.suffix))
    if row.special:
        box.setSpecialValueText(translate("Settings", row.special))
    box.setValue(value)
    return box


def _check_box(row: Setting[bool], value: bool) -> QCheckBox:
    """A check box whose text is the row's label."""
    box = QCheckBox(translate("Settings", row.label))
    box.setChecked(bool(value))
    return box


def _combo_box(row: Setting[str], value: str) -> QComboBox:
    """The row's choices, after its ``special`` entry for the empty value."""
    box = QComboBox()
    if row.special:
        box.addItem(translate("Settings", row.special), "")
    for code, name in row.choices:
        box.addItem(name, code)
    box.setCurrentIndex(max(0, box.findData(value)))
    speak_selection(box)  # a choice typed or arrowed in the closed list is read
    return box


@dataclass(frozen=True)
class Kind:
    """How the window shows a setting of one type.

    Attributes:
        build: ``(row, value) -> control`` showing ``value``.
        watch: ``(control, apply)``: call ``apply(new value)`` whenever the user changes it.
        labelled: the row's label is a label before the control (else the control's own text).
    """

    build: Callable[[Any, Any], QWidget]
    watch: Callable[[Any, Callable[[Any], object]], object]
    labelled: bool


#: Setting type -> its kind of control (a flat table; a setting of a new type needs a row here).
KINDS: dict[type, Kind] = {
    int: Kind(_spin_box, lambda box, apply: box.valueChanged.connect(apply), labelled=True),
    bool: Kind(_check_box, lambda box, apply: box.toggled.connect(apply), labelled=False),
    str: Kind(
        _combo_box, lambda box, apply: box.currentIndexChanged.connect(lambda _i: apply(box.currentData())), True
    ),
}


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
    :attr:`controls` maps each setting's name to its control, which is also the attribute named
    by the row's ``control`` (``window.timeout``, ``window.history``...).
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
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self._add_autostart(form)
        self.controls: dict[str, QWidget] = {}
        for row in SETTINGS:
            self._add_setting(form, row)
        self._add_socket(form, socket_path)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(self._bottom_row())
        self._sync_needs()

    def _add_autostart(self, form: QFormLayout) -> None:
        """The "Start at login" check box (not added when there is no autostart to toggle)."""
        self.autostart = QCheckBox(translate("Settings", "&Start elicit-tray at login"))
        if self.autostart_access is not None:
            self.autostart.setChecked(bool(self.autostart_access[0]()))
            self.autostart.toggled.connect(self._set_autostart)
            self.autostart.setAccessibleDescription(
                translate("Settings", "Adds or removes the autostart entry of your desktop.")
            )
            form.addRow(self.autostart)

    def _add_setting(self, form: QFormLayout, row: Setting[Any]) -> None:
        """One row of the settings table: its control (of the kind of its type) showing the
        value in force, named and described for screen readers, locked if the command line set
        it, changing the setting at once."""
        kind = KINDS[row.kind]
        control = kind.build(row, getattr(self.preferences.current, row.name))
        description = translate("Settings", row.description)
        if row.bounds is not None:
            description = description.format(low=row.bounds[0], high=row.bounds[1])
        label = None
        if kind.labelled:
            label = QLabel(translate("Settings", row.label))
            label.setBuddy(control)
            control.setAccessibleName(translate("Settings", row.accessible))
        control.setAccessibleDescription(description)
        self._lock(control, row)
        if label is None:
            form.addRow(control)
        else:
            form.addRow(label, control)

        def changed(value: object) -> None:
            self._changed(row.name, value)

        kind.watch(control, changed)
        self.controls[row.name] = control
        setattr(self, row.control, control)

    def _add_socket(self, form: QFormLayout, socket_path: Path | str) -> None:
        """The socket path in use, read-only, and a button that copies it."""
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

    def _bottom_row(self) -> QHBoxLayout:
        """ "Changes apply at once." and the Close button."""
        self.note = QLabel(translate("Settings", "Changes apply at once."))
        self.note.setWordWrap(True)
        close = QPushButton(translate("Settings", "Close"))
        close.setAutoDefault(False)
        close.clicked.connect(self.close)
        bottom = QHBoxLayout()
        bottom.addWidget(self.note, 1)
        bottom.addWidget(close)
        return bottom

    def _lock(self, widget: QWidget, row: Setting[Any]) -> None:
        if self.preferences.locked(row.name):
            widget.setEnabled(False)
            why = translate("Settings", "Set on the command line ({option}).").format(option=row.option)
            widget.setToolTip(why)
            widget.setAccessibleDescription(f"{widget.accessibleDescription()} {why}".strip())

    def _changed(self, name: str, value: object) -> None:
        self.preferences.change(**{name: value})
        self._sync_needs()

    def _sync_needs(self) -> None:
        """A control whose row ``needs`` a setting that is off (the history's) is disabled."""
        current = self.preferences.current
        for row in SETTINGS:
            if row.needs:
                on = bool(getattr(current, row.needs))
                self.controls[row.name].setEnabled(on and not self.preferences.locked(row.name))

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
