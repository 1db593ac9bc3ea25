"""The History window (tray menu "History…"): what was decided, for whom, and when.

A table of the decision history (:mod:`elicit_tray.history`), newest first, that can be searched
and filtered by server, outcome and period; a detail pane with everything kept about the chosen
row (plain text: server text is never rich text); export of the rows shown to JSON or CSV;
"Clear history". Keyboard: every control has a mnemonic (Alt+S search, Alt+R server, Alt+O
outcome, Alt+P period, Alt+T table, Alt+E details, Alt+J/Alt+C export, Alt+L clear), Tab walks
them in that order, Escape closes. Every control has an accessible name and description
(AT-SPI). The window follows new decisions as they are written (told from the writer thread).
While another process holds the database's lock a read waits at most ``BUSY_MS`` (store.py);
the window then says so (:func:`locked_message`) and reads again after :data:`RETRY_MS`.

How a row is shown (the table's cells, the detail pane's lines) is :mod:`.history_rows`.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QDate,
    QDateTime,
    Qt,
    QTime,
    QTimer,
    Signal,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ..history import History, Recorder, export_csv, export_json
from ..history.columns import CELLS
from ..history.store import is_busy
from .a11y import speak_selection
from .history_rows import DecisionsModel, details, one_line
from .i18n import translate
from .labels import claim, plain_message_box

__all__ = ["RETRY_MS", "HistoryWindow", "locked_message"]

#: How often (ms) the window reads again while the database is locked by another process.
RETRY_MS = 1000


def locked_message() -> str:
    """What the window says while another process holds the database's lock (translated)."""
    return translate("History", "The history is locked by another program; it is read again in a moment.")


def _label(text: str) -> QLabel:
    """A one-line plain-text label (never rich text; ``&`` marks its mnemonic when it has a buddy)."""
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text)
    return label


def _periods() -> list[tuple[str, int | None]]:
    """The period filter's choices: (label, days back; None: all time; 0: since midnight)."""
    return [
        (translate("History", "All time"), None),
        (translate("History", "Today"), 0),
        (translate("History", "Last 7 days"), 7),
        (translate("History", "Last 30 days"), 30),
        (translate("History", "Last 90 days"), 90),
    ]


def _outcome_filters() -> list[tuple[str, str | None]]:
    return [
        (translate("History", "All outcomes"), None),
        (translate("History", "Accepted"), "accept"),
        (translate("History", "Declined"), "decline"),
        (translate("History", "Cancelled"), "cancel-"),
        (translate("History", "Expired"), "expired"),
        (translate("History", "Error"), "error"),
        (translate("History", "Invalid request"), "invalid"),
        (translate("History", "Refused (busy)"), "busy"),
        (translate("History", "Interrupted (the app stopped)"), "interrupted"),
    ]


class HistoryWindow(QDialog):
    """The History window over ``history`` (rows read at open, on every filter change and when
    ``recorder`` records something). Non-modal; Escape or Close hides it.

    Args:
        history: the database (``None``: the window says the history is off and shows nothing).
        recorder: the app's recorder, to follow new rows (optional).
        ask_path: how "Export" asks for a file: ``(title, suggested name, filter) -> path or ""``
            (default: a save dialog; tests pass a function).
        confirm: how "Clear history" asks: ``(question) -> bool`` (default: a message box).
    """

    #: a row was written (emitted on the recorder's writer thread, delivered on the window's)
    written = Signal()

    def __init__(
        self,
        history: History | None,
        recorder: Recorder | None = None,
        *,
        ask_path: Callable[[str, str, str], str] | None = None,
        confirm: Callable[[str], bool] | None = None,
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        self.history = history
        self.recorder = recorder
        self._ask_path = ask_path or self._save_dialog
        self._confirm = confirm or self._confirm_dialog
        self.setObjectName("history")
        self.setWindowTitle(translate("History", "History"))  # Qt adds " — elicit-tray"
        self.setModal(False)
        self.resize(980, 620)

        layout = QVBoxLayout(self)
        layout.addLayout(self._build_filters())
        layout.addWidget(self._build_panes(), 1)
        layout.addLayout(self._build_buttons())
        for before, after in (
            (self.search, self.server),
            (self.server, self.outcome),
            (self.outcome, self.period),
            (self.period, self.table),
            (self.table, self.details),
            (self.details, self.export_json_button),
            (self.export_json_button, self.export_csv_button),
            (self.export_csv_button, self.clear_button),
            (self.clear_button, self.close_button),
        ):
            QWidget.setTabOrder(before, after)

        self.search.textChanged.connect(lambda *_: self.refresh())
        for combo in (self.server, self.outcome, self.period):
            combo.currentIndexChanged.connect(lambda *_: self.refresh())
        self._retry = QTimer(self)
        self._retry.setSingleShot(True)
        self._retry.setInterval(RETRY_MS)
        self._retry.timeout.connect(self._recorded)
        self.written.connect(self._recorded)
        if recorder is not None:
            recorder.listeners.append(self.written.emit)
        self.refresh()
        self.search.setFocus()

    def _build_filters(self) -> QGridLayout:
        """The search field and the server, outcome and period filters, each with its label."""
        self.search = QLineEdit()
        self.search.setClearButtonEnabled(True)
        self.search.setPlaceholderText(translate("History", "server, question, address, field…"))
        self.server = QComboBox()
        self.outcome = QComboBox()
        self.period = QComboBox()
        for box in (self.server, self.outcome, self.period):
            speak_selection(box)  # a filter typed or arrowed in the closed list is read
        for text, value in _outcome_filters():
            self.outcome.addItem(text, value)
        for text, days in _periods():
            self.period.addItem(text, days)
        filters = QGridLayout()
        for column, (label_text, widget, name, description) in enumerate(
            (
                (
                    translate("History", "&Search:"),
                    self.search,
                    translate("History", "Search"),
                    translate(
                        "History",
                        "Shows the decisions whose server, question, address, process or fields contain this text.",
                    ),
                ),
                (
                    translate("History", "Se&rver:"),
                    self.server,
                    translate("History", "Server"),
                    translate("History", "Shows the decisions of one server only."),
                ),
                (
                    translate("History", "&Outcome:"),
                    self.outcome,
                    translate("History", "Outcome"),
                    translate("History", "Shows the decisions with this outcome only."),
                ),
                (
                    translate("History", "&Period:"),
                    self.period,
                    translate("History", "Period"),
                    translate("History", "Shows the decisions received in this period only."),
                ),
            )
        ):
            label = _label(label_text)
            label.setBuddy(widget)
            widget.setAccessibleName(name)
            widget.setAccessibleDescription(description)
            filters.addWidget(label, 0, column * 2)
            filters.addWidget(widget, 0, column * 2 + 1)
        filters.setColumnStretch(1, 3)
        return filters

    def _build_panes(self) -> QSplitter:
        """The table of decisions above the detail pane, each with its label."""
        self.model = DecisionsModel()
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table, arrows move in it
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.setAccessibleName(translate("History", "Decisions"))
        self.table.setAccessibleDescription(
            translate("History", "Newest first. Use the arrow keys to choose a decision; its details follow.")
        )
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._show_details())
        self.table_label = _label(translate("History", "&Table of decisions:"))
        self.table_label.setBuddy(self.table)

        self.details = QPlainTextEdit()
        self.details.setReadOnly(True)
        self.details.setTabChangesFocus(True)
        self.details.setAccessibleName(translate("History", "Details"))
        self.details.setAccessibleDescription(translate("History", "Everything kept about the chosen decision."))
        details_label = _label(translate("History", "D&etails:"))
        details_label.setBuddy(self.details)

        splitter = QSplitter(Qt.Orientation.Vertical)
        for label, widget in ((self.table_label, self.table), (details_label, self.details)):
            pane = QWidget()
            pane_layout = QVBoxLayout(pane)
            pane_layout.setContentsMargins(0, 0, 0, 0)
            pane_layout.addWidget(label)
            pane_layout.addWidget(widget)
            splitter.addWidget(pane)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setChildrenCollapsible(False)
        return splitter

    def _build_buttons(self) -> QHBoxLayout:
        """The count of decisions shown, then Export JSON, Export CSV, Clear history and Close."""
        self.count = _label("")
        self.count.setAccessibleName(translate("History", "Number of decisions shown"))
        self.export_json_button = QPushButton(translate("History", "Export &JSON…"))
        self.export_csv_button = QPushButton(translate("History", "Export &CSV…"))
        self.clear_button = QPushButton(translate("History", "C&lear history…"))
        self.close_button = QPushButton(translate("History", "Close"))
        for button, description in (
            (self.export_json_button, translate("History", "Saves the decisions shown to a JSON file.")),
            (self.export_csv_button, translate("History", "Saves the decisions shown to a CSV file.")),
            (self.clear_button, translate("History", "Deletes every decision kept, after asking.")),
            (self.close_button, translate("History", "Closes this window.")),
        ):
            button.setAutoDefault(False)
            button.setAccessibleDescription(description)
        self.export_json_button.clicked.connect(lambda: self.export("json"))
        self.export_csv_button.clicked.connect(lambda: self.export("csv"))
        self.clear_button.clicked.connect(self.clear)
        self.close_button.clicked.connect(self.close)
        buttons = QHBoxLayout()
        buttons.addWidget(self.count, 1)
        for button in (self.export_json_button, self.export_csv_button, self.clear_button, self.close_button):
            buttons.addWidget(button)
        return buttons

    # -- data ---------------------------------------------------------------------------------------
    def filters(self) -> dict[str, Any]:
        """The keyword arguments of :meth:`History.rows` for the current filters."""
        days = self.period.currentData()
        since = None
        if days == 0:
            since = float(QDateTime(QDate.currentDate(), QTime(0, 0)).toSecsSinceEpoch())
        elif days is not None:
            since = time.time() - days * 86400
        return {
            "search": self.search.text().strip() or None,
            "server": self.server.currentData(),
            "outcome": self.outcome.currentData(),
            "since": since,
        }

    def refresh(self) -> None:
        """Read the rows again for the current filters, keeping the chosen row when it is still
        shown."""
        chosen = self.current_row()
        try:
            rows = self.history.rows(**self.filters()) if self.history is not None else []
            self._fill_servers()
        except sqlite3.OperationalError as exc:
            if not is_busy(exc):
                raise
            self.count.setText(locked_message())
            self._retry.start()
            return
        self.model.set_rows(rows)
        header = self.table.horizontalHeader()
        for index, (_column, cell) in enumerate(CELLS):
            if cell.width is not None:
                header.resizeSection(index, cell.width)
        if self.history is None:
            self.count.setText(translate("History", "The history is off (Settings…)."))
        elif len(rows) == 1:
            self.count.setText(translate("History", "1 decision"))
        else:
            self.count.setText(translate("History", "{count} decisions").format(count=len(rows)))
        for index, row in enumerate(rows):
            if chosen is not None and row["id"] == chosen["id"]:
                self.table.selectRow(index)
                break
        else:
            if rows:
                self.table.selectRow(0)
        self._show_details()

    def _fill_servers(self) -> None:
        names = self.history.servers() if self.history is not None else []
        current = self.server.currentData()
        wanted = [None, *names]
        if [self.server.itemData(i) for i in range(self.server.count())] == wanted:
            return
        self.server.blockSignals(True)
        self.server.clear()
        self.server.addItem(translate("History", "All servers"), None)
        for name in names:
            self.server.addItem(claim(one_line(name, 200)), name)
        self.server.setCurrentIndex(max(0, self.server.findData(current)) if current is not None else 0)
        self.server.blockSignals(False)

    def _recorded(self) -> None:
        if self.isVisible():
            self.refresh()

    def current_row(self) -> dict[str, Any] | None:
        """The chosen decision, or ``None``."""
        index = self.table.currentIndex()
        if not index.isValid() or index.row() >= len(self.model.rows):
            return None
        return self.model.rows[index.row()]

    def _show_details(self) -> None:
        row = self.current_row()
        self.details.setPlainText(details(row) if row is not None else "")

    # -- actions ------------------------------------------------------------------------------------
    def export(self, kind: str) -> Path | None:
        """Ask for a file and write the rows shown as ``kind`` (``"json"`` or ``"csv"``), mode
        0600. Returns the path written, or ``None`` when the user chose no file.

        Raises nothing: a write error is shown in a message box and logged.
        """
        rows = list(self.model.rows)
        title = translate("History", "Export the decisions shown")
        path = self._ask_path(
            title, f"elicit-tray-history.{kind}", "JSON (*.json)" if kind == "json" else "CSV (*.csv)"
        )
        if not path:
            return None
        text = export_json(rows) if kind == "json" else export_csv(rows)
        target = Path(path)
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600)
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
                out.write(text)
        except OSError as exc:
            plain_message_box(
                self,
                QMessageBox.Icon.Warning,
                title,
                translate("History", "Cannot write {path}: {error}").format(path=target, error=exc.strerror or exc),
                QMessageBox.StandardButton.Ok,
            ).exec()
            return None
        return target

    def clear(self) -> int:
        """ "Clear history": after the user confirms, delete every finished decision. Returns
        how many were deleted (0 when not confirmed, or when another process holds the database's
        lock: the window then says so, :func:`locked_message`)."""
        if self.history is None:
            return 0
        if not self._confirm(translate("History", "Delete every decision kept? This cannot be undone.")):
            return 0
        try:
            count = self.history.clear()
        except sqlite3.OperationalError as exc:
            if not is_busy(exc):
                raise
            self.count.setText(locked_message())
            return 0
        self.refresh()
        return count

    def _save_dialog(self, title: str, name: str, file_filter: str) -> str:
        path, _ = QFileDialog.getSaveFileName(self, title, str(Path.home() / name), file_filter)
        return path

    def _confirm_dialog(self, question: str) -> bool:
        box = plain_message_box(
            self,
            QMessageBox.Icon.Question,
            translate("History", "Clear history"),
            question,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        )
        box.setDefaultButton(QMessageBox.StandardButton.No)
        return box.exec() == QMessageBox.StandardButton.Yes

    def done(self, result: int) -> None:
        """Escape or Close: hide (the window is reused)."""
        self.hide()
        self.setResult(result)
