"""The columns of the decision history: one table (:data:`TABLE`) and the migrations that built it.

Each :class:`Column` row says everything the code needs to know about one column of the
``decisions`` table: its SQL type and constraints, the schema version whose migration added it,
how it is stored (plain, a time, JSON), whether the search filter looks in it, when and from what
the :class:`~elicit_tray.history.recorder.Recorder` fills it, and how the History window shows
it (a column of its table, :class:`Cell`; a line of its detail pane, :class:`Line`). Everything
else is derived from the table: :data:`COLUMNS` (the order of a row and of the JSON/CSV export),
:data:`JSON_COLUMNS`, :data:`TIME_COLUMNS`, :data:`SEARCH_COLUMNS`, :func:`columns_at` (what the
schema of a version holds), the window's table columns (:data:`CELLS`) and detail lines
(:data:`LINES`).

:data:`MIGRATIONS` stay literal SQL: a migration that has shipped is never changed, so that every
database out there is migrated the same way. ``tests/unit/test_history_columns.py`` applies every
migration step from every older version and compares ``PRAGMA table_info`` with
:func:`columns_at` after each; it records requests and checks that the recorder fills exactly the
columns the table says it fills; ``tests/ui/test_history_window.py`` checks that the window shows
exactly the table's cells and lines.

Adding a column is one row plus one migration. For example, the requester's working directory
(given a ``cwd`` on :class:`~elicit_tray.request.Peer`), shown in the detail pane after the
executable::

    # in TABLE, where it belongs in a row and in the export (the order of TABLE is theirs):
    Column("cwd", "TEXT", added_in=3, fill="arrival", request=lambda r: r.peer.cwd,
           line=Line(11, QT_TRANSLATE_NOOP("History", "Working directory"), "text")),

    # in MIGRATIONS, at the end (SCHEMA_VERSION becomes 3):
    # version 3: the requester's working directory
    '''
    ALTER TABLE decisions ADD COLUMN cwd TEXT;
    ''',

and the :class:`Line` orders from 11 on move one down (the orders are 0, 1, 2, ... without a
gap). The recorder then fills it from ``request`` at arrival, the store reads and exports it,
the window writes its line. The tests fail when the migration's name, type or constraints are
not the row's (``test_every_migration_step_from_every_older_version_builds_the_tables_columns``),
when the recorder leaves a column empty that its ``fill`` says it fills or fills one it says
it does not (``test_the_recorder_fills_exactly_the_columns_the_table_says_for_each_kind_of_request``),
and when the window's headers or detail lines are not the table's (``tests/ui/test_history_window.py``).
A new :data:`CellFormat` or :data:`LineFormat` also needs its formatter in
:mod:`elicit_tray.ui.history_window` (``test_every_cell_and_line_format_has_its_formatter``).

Pure: no Qt; the labels are marked for Qt's translation tools and translated by the window.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ..translation_marks import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from ..request import RequestBase

__all__ = [
    "CELLS",
    "COLUMNS",
    "JSON_COLUMNS",
    "LINES",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "SEARCH_COLUMNS",
    "TABLE",
    "TIME_COLUMNS",
    "Cell",
    "CellFormat",
    "Column",
    "Fill",
    "Line",
    "LineFormat",
    "SqlType",
    "Stored",
    "columns_at",
]

#: The SQL types of the columns (as ``PRAGMA table_info`` reports them).
SqlType = Literal["INTEGER", "REAL", "TEXT"]
#: How a value is stored: as it is; a time (Unix seconds stored, an RFC 3339 UTC string read);
#: JSON text (a Python list, dict, string or number written and read).
Stored = Literal["plain", "time", "json"]
#: When the recorder gives the column a value:
#: ``database`` SQLite assigns it; ``arrival`` when the request arrives (its pending row);
#: ``shown`` when its dialog is on screen; ``end`` when it ends; ``form`` / ``url`` for a request
#: of that mode; ``reason`` when it ended with a reason (expired, an error, invalid, busy).
Fill = Literal["database", "arrival", "shown", "end", "form", "url", "reason"]
#: How the History window's table draws a cell (:data:`elicit_tray.ui.history_rows.CELL_FORMATS`).
CellFormat = Literal["time", "server", "process", "mode", "outcome", "question"]
#: How the detail pane writes a line (:data:`elicit_tray.ui.history_rows.LINE_FORMATS`).
#: ``said`` is what the requester claims (its client name): shown quoted, never like a fact.
LineFormat = Literal["text", "said", "time", "outcome", "duration", "server", "list", "fields"]
#: The values a request gives a column at arrival.
Scalar = str | int | None


@dataclass(frozen=True)
class Cell:
    """A column of the History window's table.

    Attributes:
        order: its place, left to right (0, 1, ...; unique).
        header: the header text (English; translated in context ``History``).
        shows: how a cell is drawn from the row (:data:`CellFormat`).
        width: its initial width in pixels; ``None`` for the last one, which stretches.
        tooltip: the cell's tooltip is the column's whole value.
    """

    order: int
    header: str
    shows: CellFormat
    width: int | None = None
    tooltip: bool = False


@dataclass(frozen=True)
class Line:
    """A line of the History window's detail pane (``Label: value``; none when empty).

    Attributes:
        order: its place, top to bottom (0, 1, ...; unique).
        label: the label (English; translated in context ``History``); for ``fields`` the
            template of each field's line.
        shows: how the value is written (:data:`LineFormat`).
    """

    order: int
    label: str
    shows: LineFormat


@dataclass(frozen=True)
class Column:
    """One column of the ``decisions`` table (module docstring).

    Attributes:
        name: the SQL column and the row's key.
        sql: its SQL type; ``not_null`` / ``primary_key`` its constraints.
        added_in: the schema version whose migration adds it (1: the first schema).
        fill: when the recorder gives it a value (:data:`Fill`).
        stored: how the value is stored (:data:`Stored`).
        search: the search filter looks for its text.
        request: its value at arrival, read from the request (``None``: the recorder computes it).
        event: the key of the dispatcher's ``elicitation`` event it is read from for a request
            whose row is written only when it ends (refused before any dialog).
        cell: its column in the History window's table (``None``: not one).
        line: its line in the detail pane (``None``: not one).
    """

    name: str
    sql: SqlType
    added_in: int
    fill: Fill
    stored: Stored = "plain"
    not_null: bool = False
    primary_key: bool = False
    search: bool = False
    request: Callable[[RequestBase], Scalar] | None = None
    event: str | None = None
    cell: Cell | None = None
    line: Line | None = None


#: Every column, in the order of a row and of the JSON/CSV export (a flat table: one row per
#: column, longer than a function should be).
TABLE: tuple[Column, ...] = (
    Column("id", "INTEGER", 1, "database", primary_key=True),
    Column(
        "received",
        "REAL",
        1,
        "arrival",
        stored="time",
        not_null=True,
        cell=Cell(0, QT_TRANSLATE_NOOP("History", "Received"), "time", width=140),
        line=Line(2, QT_TRANSLATE_NOOP("History", "Received"), "time"),
    ),
    Column("shown", "REAL", 2, "shown", stored="time", line=Line(3, QT_TRANSLATE_NOOP("History", "Shown"), "time")),
    Column("answered", "REAL", 1, "end", stored="time", line=Line(4, QT_TRANSLATE_NOOP("History", "Answered"), "time")),
    Column(
        "duration_ms",
        "REAL",
        1,
        "end",
        event="ms",
        line=Line(5, QT_TRANSLATE_NOOP("History", "Duration"), "duration"),
    ),
    Column(
        "server",
        "TEXT",
        1,
        "arrival",
        search=True,
        request=lambda r: r.requester.server_name,
        event="server",
        cell=Cell(1, QT_TRANSLATE_NOOP("History", "Server"), "server", width=150),
        line=Line(6, QT_TRANSLATE_NOOP("History", "Server (self-reported)"), "server"),
    ),
    Column("server_title", "TEXT", 2, "arrival", search=True, request=lambda r: r.requester.server_title),
    Column("server_version", "TEXT", 2, "arrival", request=lambda r: r.requester.server_version),
    Column(
        "client",
        "TEXT",
        1,
        "arrival",
        search=True,
        request=lambda r: r.requester.client_name,
        event="client",
        line=Line(7, QT_TRANSLATE_NOOP("History", "Client (self-reported)"), "said"),
    ),
    Column(
        "process",
        "TEXT",
        1,
        "arrival",
        search=True,
        # The process as the OS reports it (Peer.label: executable, arguments, pid), the line
        # the dialog showed; never the name it chose for itself (/proc/<pid>/comm). Until
        # version 3 it held that name (the migration converts it).
        request=lambda r: r.peer.label,
        event="process",
        cell=Cell(2, QT_TRANSLATE_NOOP("History", "Process"), "process", width=170),
        line=Line(8, QT_TRANSLATE_NOOP("History", "Process"), "text"),
    ),
    Column(
        "pid",
        "INTEGER",
        1,
        "arrival",
        request=lambda r: r.peer.pid,
        event="pid",
        line=Line(9, QT_TRANSLATE_NOOP("History", "Process id"), "text"),
    ),
    Column(
        "executable",
        "TEXT",
        2,
        "arrival",
        request=lambda r: r.peer.executable,
        line=Line(10, QT_TRANSLATE_NOOP("History", "Executable"), "text"),
    ),
    Column(
        "uid",
        "INTEGER",
        1,
        "arrival",
        request=lambda r: r.peer.uid,
        event="uid",
        line=Line(11, QT_TRANSLATE_NOOP("History", "User id"), "text"),
    ),
    Column(
        "mode",
        "TEXT",
        1,
        "arrival",
        request=lambda r: r.mode,
        event="mode",
        cell=Cell(3, QT_TRANSLATE_NOOP("History", "Mode"), "mode", width=60),
        line=Line(12, QT_TRANSLATE_NOOP("History", "Mode"), "text"),
    ),
    Column(
        "message",
        "TEXT",
        1,
        "arrival",
        search=True,
        request=lambda r: r.message,
        event="message",
        cell=Cell(5, QT_TRANSLATE_NOOP("History", "Question"), "question", tooltip=True),
        line=Line(13, QT_TRANSLATE_NOOP("History", "Message"), "text"),
    ),
    Column(
        "fields",
        "TEXT",
        1,
        "form",
        stored="json",
        search=True,
        line=Line(17, QT_TRANSLATE_NOOP("History", "Field {title}: {value}"), "fields"),
    ),
    Column(
        "url",
        "TEXT",
        1,
        "url",
        search=True,
        event="url",
        line=Line(14, QT_TRANSLATE_NOOP("History", "Address"), "text"),
    ),
    Column("url_verdict", "TEXT", 1, "url", line=Line(15, QT_TRANSLATE_NOOP("History", "Address check"), "text")),
    Column(
        "url_reasons", "TEXT", 1, "url", stored="json", line=Line(16, QT_TRANSLATE_NOOP("History", "Warnings"), "list")
    ),
    Column(
        "outcome",
        "TEXT",
        1,
        "arrival",
        not_null=True,
        search=True,
        event="outcome",
        cell=Cell(4, QT_TRANSLATE_NOOP("History", "Outcome"), "outcome", width=190),
        line=Line(0, QT_TRANSLATE_NOOP("History", "Outcome"), "outcome"),
    ),
    Column("detail", "TEXT", 1, "reason", search=True, line=Line(1, QT_TRANSLATE_NOOP("History", "Detail"), "text")),
    Column("request_id", "TEXT", 1, "end", stored="json", event="id"),
    Column("key", "TEXT", 1, "arrival", request=lambda r: r.key),
)

#: The schema, one script per version: ``MIGRATIONS[0]`` creates version 1 (the first
#: schema), ``MIGRATIONS[n]`` turns version ``n`` into ``n + 1``. Never change a script that has
#: shipped; add one.
MIGRATIONS: tuple[str, ...] = (
    # version 1
    """
    CREATE TABLE decisions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        key TEXT, request_id TEXT,
        received REAL NOT NULL, answered REAL, duration_ms REAL,
        pid INTEGER, process TEXT, uid INTEGER,
        server TEXT, client TEXT,
        mode TEXT, message TEXT, fields TEXT,
        url TEXT, url_verdict TEXT, url_reasons TEXT,
        outcome TEXT NOT NULL, detail TEXT);
    """,
    # version 2: when the dialog was shown, the executable, the server's title and version
    """
    ALTER TABLE decisions ADD COLUMN shown REAL;
    ALTER TABLE decisions ADD COLUMN executable TEXT;
    ALTER TABLE decisions ADD COLUMN server_title TEXT;
    ALTER TABLE decisions ADD COLUMN server_version TEXT;
    CREATE INDEX decisions_received ON decisions (received);
    """,
    # version 3: process is the process as the OS reports it, not the name it chose for itself
    # (char(59) is ";", which would end the statement for migrate_step)
    """
    UPDATE decisions SET process = CASE
        WHEN pid IS NULL THEN NULL
        WHEN executable IS NOT NULL THEN executable || ' (pid ' || pid || ')'
        WHEN process IS NOT NULL THEN
            process || ' (pid ' || pid || '), as the process names itself' || char(59) || ' its executable is unknown'
        ELSE 'unknown process (pid ' || pid || ')' || char(59) || ' its executable is unknown'
    END;
    """,
)
#: The schema version this code writes.
SCHEMA_VERSION = len(MIGRATIONS)

#: The keys of a row (:meth:`History.rows <elicit_tray.history.store.History.rows>`), in order;
#: also the JSON/CSV export's columns.
COLUMNS: tuple[str, ...] = tuple(c.name for c in TABLE)
#: The columns stored as JSON text.
JSON_COLUMNS: frozenset[str] = frozenset(c.name for c in TABLE if c.stored == "json")
#: The columns stored as Unix seconds and read as RFC 3339 UTC strings.
TIME_COLUMNS: frozenset[str] = frozenset(c.name for c in TABLE if c.stored == "time")
#: The columns the search filter looks in, in table order.
SEARCH_COLUMNS: tuple[str, ...] = tuple(c.name for c in TABLE if c.search)
#: The History window's table columns, left to right: (column, its cell).
CELLS: tuple[tuple[Column, Cell], ...] = tuple(
    sorted(((c, c.cell) for c in TABLE if c.cell is not None), key=lambda pair: pair[1].order)
)
#: The detail pane's lines, top to bottom: (column, its line).
LINES: tuple[tuple[Column, Line], ...] = tuple(
    sorted(((c, c.line) for c in TABLE if c.line is not None), key=lambda pair: pair[1].order)
)


def columns_at(version: int) -> tuple[Column, ...]:
    """The columns a database of schema ``version`` has (those added at or before it)."""
    return tuple(c for c in TABLE if c.added_in <= version)
