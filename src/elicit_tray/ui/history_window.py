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

Which columns the table has and which lines the detail pane writes come from the history's
column table (:data:`~elicit_tray.history.columns.CELLS`, :data:`~elicit_tray.history.columns.LINES`);
this module only knows how to draw each format (:data:`CELL_FORMATS`, :data:`LINE_FORMATS`).
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QDate,
    QDateTime,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTime,
    QTimer,
    QTimeZone,
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

from ..display import display_line, isolate
from ..history import History, Recorder, export_csv, export_json
from ..history.columns import CELLS, LINES, CellFormat, LineFormat
from ..history.store import is_busy
from .i18n import translate
from .labels import claim, plain_message_box, tooltip_text

__all__ = ["RETRY_MS", "HistoryWindow", "locked_message", "outcome_label"]

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


def outcome_label(outcome: str | None) -> str:
    """An outcome word of the history (the request log's words, ``pending``, ``interrupted``)
    as the user reads it, translated; an unknown word as it is."""
    labels = {
        "accept": translate("History", "Accepted"),
        "decline": translate("History", "Declined"),
        "cancel-escape": translate("History", "Cancelled (Escape)"),
        "cancel-button": translate("History", "Cancelled (button)"),
        "cancel-close": translate("History", "Cancelled (window closed)"),
        "cancel-tray": translate("History", "Cancelled (from the tray)"),
        "cancel-timeout": translate("History", "Cancelled (timeout)"),
        "expired": translate("History", "Expired"),
        "error": translate("History", "Error"),
        "invalid": translate("History", "Invalid request"),
        "busy": translate("History", "Refused (busy)"),
        "pending": translate("History", "Waiting for an answer"),
        "interrupted": translate("History", "Interrupted (the app stopped)"),
    }
    return labels.get(outcome or "", outcome or "")


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


def local_time(stamp: str | None, seconds: bool = False) -> str:
    """An RFC 3339 UTC stamp of the history in the local time zone, ``yyyy-MM-dd HH:mm[:ss]``."""
    if not stamp:
        return ""
    moment = QDateTime.fromString(stamp, Qt.DateFormat.ISODateWithMs)
    if not moment.isValid():
        return stamp
    return moment.toTimeZone(QTimeZone.systemTimeZone()).toString(
        "yyyy-MM-dd HH:mm:ss" if seconds else "yyyy-MM-dd HH:mm"
    )


def _one_line(text: str | None, limit: int = 120) -> str:
    """Stored server or requester text as one honest line (:func:`~elicit_tray.display.display_line`:
    invisible and reordering characters shown as ``\\uXXXX``), cut to ``limit`` characters."""
    flat = display_line(" ".join(str(text or "").split()))
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


#: A row of :meth:`History.rows <elicit_tray.history.History.rows>`.
Row = dict[str, Any]


def _server_cell(row: Row, name: str) -> str:
    """What the server says it is, quoted (:func:`~.labels.claim`), or "(unnamed)"."""
    said = _one_line(row["server_title"] or row[name], 200)
    return claim(said) if said else translate("History", "(unnamed)")


def _process_cell(row: Row, name: str) -> str:
    """The requesting process as the OS reported it (executable, arguments, pid:
    :attr:`~elicit_tray.request.Peer.label`), never a name the process chose for itself."""
    return _one_line(row[name], 300) or (f"(pid {row['pid']})" if row["pid"] else "")


def _mode_cell(row: Row, name: str) -> str:
    return {"form": translate("History", "form"), "url": translate("History", "URL")}.get(row[name] or "", "")


#: How the table draws each :data:`~elicit_tray.history.columns.CellFormat`: (row, the column's
#: name) -> the cell's text.
CELL_FORMATS: dict[CellFormat, Callable[[Row, str], str]] = {
    "time": lambda row, name: local_time(row[name]),
    "server": _server_cell,
    "process": _process_cell,
    "mode": _mode_cell,
    "outcome": lambda row, name: outcome_label(row[name]),
    "question": lambda row, name: _one_line(row[name] or row["url"] or row["detail"]),
}


class DecisionsModel(QAbstractTableModel):
    """The rows of :meth:`History.rows <elicit_tray.history.History.rows>` as a table: one
    column per :data:`~elicit_tray.history.columns.CELLS` entry (received in local time,
    server, process, mode, outcome, question), drawn by :data:`CELL_FORMATS`."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[Row] = []

    def headers(self) -> list[str]:
        """The header texts, left to right, translated."""
        return [translate("History", cell.header) for _column, cell in CELLS]

    def set_rows(self, rows: list[Row]) -> None:
        self.beginResetModel()
        self.rows = rows
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008 - Qt's own default, an invalid index, read only
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008 - Qt's own default, an invalid index, read only
        return 0 if parent.isValid() else len(CELLS)

    def cell(self, row: Row, column: int) -> str:
        """The text of one cell."""
        source, cell = CELLS[column]
        return CELL_FORMATS[cell.shows](row, source.name)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return self.cell(self.rows[index.row()], index.column())
        source, cell = CELLS[index.column()]
        if role == Qt.ItemDataRole.ToolTipRole and cell.tooltip:
            return tooltip_text(_lines(self.rows[index.row()][source.name]))
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.headers()[section]
        return None


def _lines(value: Any) -> str:
    """A stored value as honest lines, each through :func:`~elicit_tray.display.display_line`."""
    return "\n".join(display_line(line) for line in str(value).splitlines())


def _labelled(label: str, value: Any, *, said: bool = False) -> list[str]:
    """``Label: value``, the value shown as it is (:func:`_lines`); a value of several lines
    goes on indented lines of its own, so that no line of it can pass for another ``Label:
    value`` line. ``said``: the value is what the requester claims, quoted
    (:func:`~.labels.claim`)."""
    if value in (None, ""):
        return []
    if said:
        return [f"{label}: {claim(_one_line(value, 10_000))}"]
    lines = _lines(value).split("\n")
    if len(lines) == 1:
        return [f"{label}: {lines[0]}"]
    return [f"{label}:", *("    " + line for line in lines)]


def _duration_line(row: Row, name: str, label: str) -> list[str]:
    if row[name] is None:
        return []
    return _labelled(label, translate("History", "{seconds} s").format(seconds=f"{row[name] / 1000:.1f}"))


def _server_line(row: Row, name: str, label: str) -> list[str]:
    title, server = row["server_title"], row[name]
    parts = [isolate(_one_line(p, 10_000)) if p else p for p in (title, server, row["server_version"])]
    named = f"({parts[1]})" if server and title else parts[1]
    said = " ".join(filter(None, (parts[0], named, parts[2])))
    return [f"{label}: {claim(said)}"] if said else []


def _outcome_line(row: Row, name: str, label: str) -> list[str]:
    return _labelled(label, outcome_label(row[name]) + (f" ({row[name]})" if row[name] else ""))


def _field_lines(row: Row, name: str, label: str) -> list[str]:
    """One line per form field, ``label`` its template (``{title}``, ``{value}``)."""
    out = []
    for item in row[name] or []:
        if item.get("secret"):
            value = translate("History", "(looks like a secret: never kept)")
        elif "value" in item:
            value = item["value"] if isinstance(item["value"], str) else json.dumps(item["value"], ensure_ascii=False)
        else:
            value = translate("History", "(not kept)")
        title = isolate(_one_line(item.get("title") or item.get("name"), 10_000))
        out.append(label.format(title=title, value=display_line(value)))
    return out


#: How the detail pane writes each :data:`~elicit_tray.history.columns.LineFormat`: (row, the
#: column's name, its translated label) -> lines (none when there is nothing to say).
LINE_FORMATS: dict[LineFormat, Callable[[Row, str, str], list[str]]] = {
    "text": lambda row, name, label: _labelled(label, row[name]),
    "said": lambda row, name, label: _labelled(label, row[name], said=True),
    "time": lambda row, name, label: _labelled(label, local_time(row[name], True)),
    "outcome": _outcome_line,
    "duration": _duration_line,
    "server": _server_line,
    "list": lambda row, name, label: _labelled(label, ", ".join(display_line(str(v)) for v in row[name] or [])),
    "fields": _field_lines,
}


def details(row: Row) -> str:
    """Everything kept about one decision, as plain-text lines ``Label: value``: one line per
    :data:`~elicit_tray.history.columns.LINES` entry that has a value, in its order, written by
    :data:`LINE_FORMATS`."""
    out: list[str] = []
    for column, line in LINES:
        out += LINE_FORMATS[line.shows](row, column.name, translate("History", line.label))
    return "\n".join(out)


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
            self.server.addItem(claim(_one_line(name, 200)), name)
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
