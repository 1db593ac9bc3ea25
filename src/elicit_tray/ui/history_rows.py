"""How the History window shows a decision: the table's cells and model, and the detail
pane's lines (plain text: server text is never rich text).

Which columns the table has and which lines the detail pane writes come from the history's
column table (:data:`~elicit_tray.history.columns.CELLS`, :data:`~elicit_tray.history.columns.LINES`);
this module only knows how to draw each format (:data:`CELL_FORMATS`, :data:`LINE_FORMATS`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QDateTime, QModelIndex, QPersistentModelIndex, Qt, QTimeZone

from ..display import display_line, isolate
from ..history.columns import CELLS, LINES, CellFormat, LineFormat
from .i18n import translate
from .labels import claim, tooltip_text

__all__ = ["CELL_FORMATS", "LINE_FORMATS", "DecisionsModel", "details", "local_time", "one_line", "outcome_label"]

Row = dict[str, Any]


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


def one_line(text: str | None, limit: int = 120) -> str:
    """Stored server or requester text as one honest line (:func:`~elicit_tray.display.display_line`:
    invisible and reordering characters shown as ``\\uXXXX``), cut to ``limit`` characters."""
    flat = display_line(" ".join(str(text or "").split()))
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _server_cell(row: Row, name: str) -> str:
    """What the server says it is, quoted (:func:`~.labels.claim`), or "(unnamed)"."""
    said = one_line(row["server_title"] or row[name], 200)
    return claim(said) if said else translate("History", "(unnamed)")


def _process_cell(row: Row, name: str) -> str:
    """The requesting process as the OS reported it (executable, arguments, pid:
    :attr:`~elicit_tray.request.Peer.label`), never a name the process chose for itself."""
    return one_line(row[name], 300) or (f"(pid {row['pid']})" if row["pid"] else "")


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
    "question": lambda row, name: one_line(row[name] or row["url"] or row["detail"]),
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
        return [f"{label}: {claim(one_line(value, 10_000))}"]
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
    parts = [isolate(one_line(p, 10_000)) if p else p for p in (title, server, row["server_version"])]
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
        title = isolate(one_line(item.get("title") or item.get("name"), 10_000))
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
