"""The decision database: its file, its schema version and migrations, its rows and queries.

Where: ``<user data dir>/elicit-tray/history.sqlite3`` (platformdirs; on Linux
``$XDG_DATA_HOME``, default ``~/.local/share``); ``ELICIT_TRAY_HISTORY=PATH`` moves it,
``ELICIT_TRAY_HISTORY=off`` turns it off (:func:`default_history_path`). Standard-library
``sqlite3`` in WAL mode; the schema version is ``PRAGMA user_version`` and each older version is
migrated forward at open (:data:`~elicit_tray.history.columns.MIGRATIONS`, one step at a time by
:func:`migrate_step`); the database file is created 0600 (its directory 0700) and its mode forced
to 0600, with the same checks as the request log (:func:`~elicit_tray.logs.open_private_log`: no
symbolic link, a regular file of the user's).

One row per ``elicitation/create`` request (table ``decisions``; its columns:
:data:`~elicit_tray.history.columns.TABLE`). A row still ``pending`` when the database is opened
again (the app died: kill -9, power cut) reads ``interrupted``.

Bounded (README "History and settings"): every value written is cut by :func:`bounded` (a text
column at :data:`MAX_TEXT_CHARS`, each text inside a JSON column at :data:`MAX_JSON_TEXT_CHARS`,
shorter while the column's JSON is over :data:`MAX_JSON_CHARS`; a cut text ends in
``…[N characters]``, N its length before the cut), and after each insert the oldest finished
rows are deleted while the file holds more than :data:`MAX_ROWS` rows or :data:`MAX_BYTES` bytes
of pages in use, those never shown to the user (refused, withdrawn or expired before their
dialog) first (:meth:`History.insert`).

A connection waits at most ``busy_ms`` (default :data:`BUSY_MS`) for a lock another process
holds (``sqlite3.OperationalError`` "database is locked" after that; :func:`is_busy` tells it).
The app writes only from :class:`~elicit_tray.history.writer.Writer`'s own thread; the UI
thread only reads (the History window) and clears.

Pure: no Qt. Raises :class:`HistoryError` (an ``OSError``) when the file cannot be used.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..logs import UnsafeLogFile, open_private_log
from .columns import COLUMNS, JSON_COLUMNS, MIGRATIONS, SCHEMA_VERSION, SEARCH_COLUMNS, TIME_COLUMNS

__all__ = [
    "BUSY_MS",
    "ENV_HISTORY",
    "MAX_BYTES",
    "MAX_JSON_CHARS",
    "MAX_JSON_TEXT_CHARS",
    "MAX_ROWS",
    "MAX_TEXT_CHARS",
    "MIN_CUT_CHARS",
    "History",
    "HistoryError",
    "bounded",
    "cut",
    "default_history_path",
    "format_time",
    "is_busy",
    "migrate_step",
    "open_history",
]

log = logging.getLogger(__name__)

#: Environment variable with the database's path (``off`` turns the history off).
ENV_HISTORY = "ELICIT_TRAY_HISTORY"

#: How long (ms) a connection waits for a lock held by another connection or process.
BUSY_MS = 250
#: Most characters of a text column (message, detail, url, server, process...).
MAX_TEXT_CHARS = 2_000
#: Most characters of each text inside a JSON column (a field's name, title and value).
MAX_JSON_TEXT_CHARS = 200
#: A JSON column (``fields``) longer than this has its texts cut shorter (halved in turn).
MAX_JSON_CHARS = 16_000
#: The shortest a text is cut to (the ``…[N characters]`` mark must fit).
MIN_CUT_CHARS = 32
#: Most rows the history keeps; the oldest finished ones go first.
MAX_ROWS = 50_000
#: Most bytes of database pages in use; the oldest finished rows go first.
MAX_BYTES = 32 * 1024 * 1024


class HistoryError(OSError):
    """The history database cannot be used (the message says why)."""


def is_busy(exc: BaseException) -> bool:
    """Whether ``exc`` (a ``sqlite3.Error``) says the database is locked by another connection
    or process (``SQLITE_BUSY``/``SQLITE_LOCKED``)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc)


def cut(text: str, limit: int) -> str:
    """``text`` if it has at most ``limit`` characters, else its start followed by
    ``…[N characters]`` (N: ``len(text)``), ``limit`` characters in all (``limit`` at least
    :data:`MIN_CUT_CHARS`). Cutting a cut text at the same limit changes nothing."""
    if len(text) <= limit:
        return text
    mark = f"…[{len(text)} characters]"
    return text[: max(0, limit - len(mark))] + mark


def _cut_texts(value: Any, limit: int) -> Any:
    """``value`` (decoded JSON) with every string in it cut at ``limit``."""
    if isinstance(value, str):
        return cut(value, limit)
    if isinstance(value, list):
        return [_cut_texts(v, limit) for v in value]
    if isinstance(value, dict):
        return {k: _cut_texts(v, limit) for k, v in value.items()}
    return value


def bounded(values: dict[str, Any]) -> dict[str, Any]:
    """``values`` (a row's columns, as :meth:`History.insert` takes them) with every text cut
    (:func:`cut`): a text column at :data:`MAX_TEXT_CHARS`; each string inside a JSON column at
    :data:`MAX_JSON_TEXT_CHARS`, then at half that, and so on down to :data:`MIN_CUT_CHARS`,
    while the column's JSON text is longer than :data:`MAX_JSON_CHARS`. Other values as they
    are; ``bounded(bounded(v)) == bounded(v)``."""
    out: dict[str, Any] = {}
    for name, value in values.items():
        if isinstance(value, str) and name not in JSON_COLUMNS:
            value = cut(value, MAX_TEXT_CHARS)
        elif name in JSON_COLUMNS and value is not None:
            limit = MAX_JSON_TEXT_CHARS
            capped = _cut_texts(value, limit)
            while limit > MIN_CUT_CHARS and len(json.dumps(capped, ensure_ascii=False)) > MAX_JSON_CHARS:
                limit = max(MIN_CUT_CHARS, limit // 2)
                capped = _cut_texts(value, limit)
            value = capped
        out[name] = value
    return out


def default_history_path() -> Path | None:
    """``$ELICIT_TRAY_HISTORY`` (``None`` when it is ``off``), else the user data dir's
    ``elicit-tray/history.sqlite3``."""
    env = os.environ.get(ENV_HISTORY)
    if env:
        return None if env.strip().lower() in ("off", "0", "none", "-") else Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir("elicit-tray", appauthor=False)) / "history.sqlite3"


def format_time(seconds: float | None) -> str | None:
    """Unix seconds -> ``"YYYY-MM-DDTHH:MM:SS.mmmZ"`` (UTC); ``None`` stays ``None``."""
    if seconds is None:
        return None
    millis = int(round(seconds * 1000))
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(millis // 1000)) + f".{millis % 1000:03d}Z"


def migrate_step(db: sqlite3.Connection, number: int) -> None:
    """Run ``MIGRATIONS[number]`` on ``db`` (a connection in autocommit mode, at schema version
    ``number``) and set its version to ``number + 1``, in one transaction (rolled back on any
    error, which is raised)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        if int(db.execute("PRAGMA user_version").fetchone()[0]) != number:  # another connection did it
            db.execute("ROLLBACK")
            return
        for statement in filter(str.strip, MIGRATIONS[number].split(";")):
            db.execute(statement)
        db.execute(f"PRAGMA user_version = {number + 1}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def _open_private_db_file(path: Path) -> None:
    """Create ``path`` 0600 (directory 0700) or check the existing file, like the request log;
    the WAL and shared-memory files beside it are checked the same way when they exist."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    for candidate in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        if candidate != path and not os.path.lexists(candidate):
            continue
        try:
            fd = open_private_log(candidate)
        except UnsafeLogFile as exc:
            raise HistoryError(str(exc).replace("the log", "the history")) from None
        os.close(fd)


def _stored(values: dict[str, Any], columns: set[str]) -> dict[str, Any]:
    """``values`` as stored: only the file's own columns, JSON columns as JSON text."""
    return {
        k: (json.dumps(v, ensure_ascii=False) if k in JSON_COLUMNS and v is not None else v)
        for k, v in values.items()
        if k in columns
    }


class History:
    """The decision database (module docstring). Not thread-safe: use it from one thread.

    Args:
        path: the database file; created (0600) with the current schema if missing, migrated if
            older, its pending rows marked ``interrupted`` (:attr:`interrupted` says how many).
        readonly: open without creating, migrating or changing anything (``elicit-tray
            history``); rows of an older schema read ``None`` for the newer columns.
        clock: Unix seconds (tests pass a fixed one).
        busy_ms: how long a statement waits for a lock another process holds (ms).
        max_rows: most rows kept (:data:`MAX_ROWS`); ``max_bytes``: most bytes of pages in use
            (:data:`MAX_BYTES`); the oldest finished rows are deleted after an insert over either.
        mark_interrupted: mark the pending rows ``interrupted`` (a second connection of the app
            passes ``False`` when the first one did: the pending rows are then this run's own).
        check_file: check the file as the request log's (no link, the user's, 0600). A second
            connection of the same process passes ``False``: the file was checked when the first
            was opened, and the checks open and close the files, which would drop the POSIX
            locks the first connection holds on them (SQLite's own warning: a corrupt database).

    While another process holds the lock the opening needs (the write lock to mark pending rows,
    or the whole file), the object is made all the same with :attr:`ready` false: each method
    then tries the opening again first (WAL mode, migrations; never the marking, which only an
    open that finds the file free does) and raises ``sqlite3.OperationalError`` (:func:`is_busy`)
    while the lock stays.

    Raises:
        HistoryError: the path is a link, not a regular file of the user's, in an unsafe
            directory, not a database, or from a newer schema version than this code.
    """

    def __init__(
        self,
        path: Path,
        *,
        readonly: bool = False,
        clock: Callable[[], float] = time.time,
        busy_ms: int = BUSY_MS,
        max_rows: int = MAX_ROWS,
        max_bytes: int = MAX_BYTES,
        mark_interrupted: bool = True,
        check_file: bool = True,
    ):
        self.path = Path(path)
        self.clock = clock
        self.readonly = readonly
        self.max_rows = max_rows
        self.max_bytes = max_bytes
        #: pending rows of an earlier run this open marked ``interrupted``
        self.interrupted = 0
        #: the opening is done (false while another process held the lock it needs)
        self.ready = False
        self._columns: set[str] = set()
        self._rows = 0
        try:
            if readonly:
                if not self.path.exists():
                    raise HistoryError(f"no history at {self.path}")
                self._db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, isolation_level=None)
            else:
                if check_file:
                    _open_private_db_file(self.path)
                self._db = sqlite3.connect(str(self.path), isolation_level=None)
            self._db.row_factory = sqlite3.Row
            self._db.execute(f"PRAGMA busy_timeout = {int(busy_ms)}")
            try:
                self._setup(mark=mark_interrupted)
            except sqlite3.OperationalError as exc:
                if not is_busy(exc):
                    raise
                log.info("history %s: locked by another process; opened when it lets go", self.path)
        except sqlite3.DatabaseError as exc:
            raise HistoryError(f"{self.path}: {exc}") from None

    def _setup(self, *, mark: bool) -> None:
        """WAL mode, the migrations and, with ``mark``, the pending rows of an earlier run marked
        ``interrupted``; then the file's columns and row count. Raises what SQLite raises."""
        if not self.readonly:
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._migrate()
            if mark:
                self.interrupted = self._db.execute(
                    "UPDATE decisions SET outcome = 'interrupted' WHERE outcome = 'pending'"
                ).rowcount
            for extra in ("-wal", "-shm"):
                if os.path.exists(f"{self.path}{extra}"):
                    os.chmod(f"{self.path}{extra}", 0o600)
        self._columns = {r[1] for r in self._db.execute("PRAGMA table_info(decisions)")}
        self._rows = self._count() if self._columns and not self.readonly else 0
        self.ready = True

    def _ensure(self) -> None:
        """Finish an opening that found the database locked (raises while it still is)."""
        if not self.ready:
            self._setup(mark=False)

    @property
    def version(self) -> int:
        """The schema version of the file (``PRAGMA user_version``)."""
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def _migrate(self) -> None:
        version = self.version
        if version > SCHEMA_VERSION:
            raise HistoryError(
                f"{self.path} has schema version {version}; this elicit-tray knows up to {SCHEMA_VERSION}"
            )
        for number in range(version, SCHEMA_VERSION):
            migrate_step(self._db, number)
            log.info("history %s: schema version %d", self.path, number + 1)

    def close(self) -> None:
        """Close the database (idempotent)."""
        self._db.close()

    # -- writing --------------------------------------------------------------------------------
    def insert(self, **values: Any) -> int:
        """Insert one row (keys of :data:`~elicit_tray.history.columns.COLUMNS` but ``id``; times
        as Unix seconds; the JSON columns (``fields``, ``url_reasons``, ``request_id``) as Python
        values, stored as JSON), its texts cut (:func:`bounded`), and return its id. Keys the file
        has no column for are dropped. Then, over :attr:`max_rows` rows or :attr:`max_bytes`
        bytes, the oldest finished rows are deleted (:meth:`trim`).

        Raises:
            sqlite3.Error: e.g. ``OperationalError`` when the database stays locked
                ``busy_ms`` (:func:`is_busy`).
        """
        self._ensure()
        row = _stored(bounded(values), self._columns)
        names = ", ".join(row)
        cursor = self._db.execute(
            f"INSERT INTO decisions ({names}) VALUES ({', '.join('?' * len(row))})", tuple(row.values())
        )
        self._rows += 1
        self.trim()
        return int(cursor.lastrowid or 0)

    def used_bytes(self) -> int:
        """Bytes of database pages in use (pages minus free pages, times the page size): read
        from the file's header, without a scan."""
        pages = int(self._db.execute("PRAGMA page_count").fetchone()[0])
        free = int(self._db.execute("PRAGMA freelist_count").fetchone()[0])
        return (pages - free) * int(self._db.execute("PRAGMA page_size").fetchone()[0])

    def trim(self) -> int:
        """Delete the oldest finished rows while there are more than :attr:`max_rows` rows or
        :meth:`used_bytes` is over :attr:`max_bytes`: first those never shown (``shown`` empty:
        refused, withdrawn or expired before their dialog), then the others, oldest first (by
        ``received``, then ``id``); pending rows stay. Cheap when under both bounds (a row
        count kept in memory and two header reads). Returns how many were deleted."""
        deleted = 0
        if self._rows > self.max_rows:
            self._rows = self._count()  # another connection may have deleted some
            if self._rows > self.max_rows:
                deleted += self._delete_oldest(self._rows - self.max_rows)
        for _ in range(64):  # each round deletes a twentieth of the rows: bounded work
            if self.used_bytes() <= self.max_bytes:
                break
            gone = self._delete_oldest(max(1, self._rows // 20))
            if not gone:
                break
            deleted += gone
        return deleted

    def _delete_oldest(self, count: int) -> int:
        deleted = 0
        for never_shown in (True, False):
            if deleted >= count:
                break
            where = "outcome != 'pending'" + (" AND shown IS NULL" if never_shown else "")
            deleted += self._db.execute(
                f"DELETE FROM decisions WHERE id IN (SELECT id FROM decisions WHERE {where} "
                "ORDER BY received, id LIMIT ?)",
                (count - deleted,),
            ).rowcount
        self._rows = max(0, self._rows - deleted)
        return deleted

    def update(self, row_id: int, **values: Any) -> None:
        """Set columns of row ``row_id`` (same conventions as :meth:`insert`)."""
        self._ensure()
        row = _stored(bounded(values), self._columns)
        if row:
            self._db.execute(
                f"UPDATE decisions SET {', '.join(f'{k} = ?' for k in row)} WHERE id = ?", (*row.values(), row_id)
            )

    def prune(self, retention_days: int) -> int:
        """Delete finished rows received more than ``retention_days`` days (of 86,400 s) ago;
        0 keeps everything. Returns how many were deleted."""
        if retention_days <= 0:
            return 0
        self._ensure()
        cutoff = self.clock() - retention_days * 86400
        count = self._db.execute(
            "DELETE FROM decisions WHERE received < ? AND outcome != 'pending'", (cutoff,)
        ).rowcount
        self._rows = max(0, self._rows - count)
        return int(count)

    def clear(self) -> int:
        """Delete every finished row ("Clear history"); pending ones stay to be completed.
        Returns how many were deleted."""
        self._ensure()
        count = self._db.execute("DELETE FROM decisions WHERE outcome != 'pending'").rowcount
        self._rows = max(0, self._rows - count)
        self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return int(count)

    # -- reading --------------------------------------------------------------------------------
    def rows(
        self,
        *,
        since: float | None = None,
        until: float | None = None,
        server: str | None = None,
        outcome: str | None = None,
        search: str | None = None,
        limit: int | None = None,
    ) -> list[dict[str, Any]]:
        """The rows, newest first, as ``dict`` with the keys of
        :data:`~elicit_tray.history.columns.COLUMNS` (times as RFC 3339 UTC strings, JSON columns
        decoded, columns missing from an older schema ``None``).

        Filters (all optional, combined with AND): ``since``/``until`` Unix seconds (received
        ``>= since``, ``< until``); ``server`` exact self-reported name; ``outcome`` exact, or a
        prefix ending in ``-`` (``"cancel-"`` matches every cancel); ``search`` a case-insensitive
        substring of the :data:`~elicit_tray.history.columns.SEARCH_COLUMNS` (server, title,
        client, process, message, the fields' text, URL, outcome, detail).
        """
        self._ensure()
        where: list[str] = []
        args: list[float | str] = []
        if since is not None:
            where.append("received >= ?")
            args.append(since)
        if until is not None:
            where.append("received < ?")
            args.append(until)
        if server is not None:
            where.append("server IS ?")
            args.append(server)
        if outcome:
            if outcome.endswith("-"):
                where.append("substr(outcome, 1, ?) = ?")
                args += [len(outcome), outcome]
            else:
                where.append("outcome = ?")
                args.append(outcome)
        if search:
            searchable = [c for c in SEARCH_COLUMNS if c in self._columns]
            where.append("(" + " OR ".join(f"instr(lower(coalesce({c}, '')), ?) > 0" for c in searchable) + ")")
            args += [search.lower()] * len(searchable)
        sql = (
            "SELECT * FROM decisions"
            + (" WHERE " + " AND ".join(where) if where else "")
            + " ORDER BY received DESC, id DESC"
        )
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [self._row(r) for r in self._db.execute(sql, args)]

    def _row(self, record: sqlite3.Row) -> dict[str, Any]:
        data = dict(zip(record.keys(), record, strict=True))
        out: dict[str, Any] = {}
        for column in COLUMNS:
            value = data.get(column)
            if column in TIME_COLUMNS:
                value = format_time(value)
            elif column in JSON_COLUMNS and value is not None:
                value = json.loads(value)
            out[column] = value
        return out

    def servers(self) -> list[str]:
        """The distinct server names in the history, sorted."""
        self._ensure()
        return [
            r[0]
            for r in self._db.execute("SELECT DISTINCT server FROM decisions WHERE server IS NOT NULL ORDER BY server")
        ]

    def count(self) -> int:
        """Rows in the history."""
        self._ensure()
        return self._count()

    def _count(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM decisions").fetchone()[0])


def open_history(path: Path | None = None) -> History | None:
    """The app's history at ``path`` (default :func:`default_history_path`), or ``None`` when it
    is off or cannot be used (one warning names the path and the reason). A database locked by
    another process is not such a reason: the :class:`History` is then not :attr:`~History.ready`
    and opens when the lock goes."""
    path = path if path is not None else default_history_path()
    if path is None:
        return None
    try:
        return History(path)
    except OSError as exc:
        log.warning("no decision history: %s", exc)
        return None
