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
    "ENV_HISTORY",
    "History",
    "HistoryError",
    "default_history_path",
    "format_time",
    "migrate_step",
    "open_history",
]

log = logging.getLogger(__name__)

#: Environment variable with the database's path (``off`` turns the history off).
ENV_HISTORY = "ELICIT_TRAY_HISTORY"


class HistoryError(OSError):
    """The history database cannot be used (the message says why)."""


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
            older, its pending rows marked ``interrupted``.
        readonly: open without creating, migrating or changing anything (``elicit-tray
            history``); rows of an older schema read ``None`` for the newer columns.
        clock: Unix seconds (tests pass a fixed one).

    Raises:
        HistoryError: the path is a link, not a regular file of the user's, in an unsafe
            directory, not a database, or from a newer schema version than this code.
    """

    def __init__(self, path: Path, *, readonly: bool = False, clock: Callable[[], float] = time.time):
        self.path = Path(path)
        self.clock = clock
        self.readonly = readonly
        try:
            if readonly:
                if not self.path.exists():
                    raise HistoryError(f"no history at {self.path}")
                self._db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, isolation_level=None)
            else:
                _open_private_db_file(self.path)
                self._db = sqlite3.connect(str(self.path), isolation_level=None)
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA busy_timeout = 2000")
            if not readonly:
                self._db.execute("PRAGMA journal_mode = WAL")
                self._db.execute("PRAGMA synchronous = NORMAL")
                self._migrate()
                self.interrupted = self._db.execute(
                    "UPDATE decisions SET outcome = 'interrupted' WHERE outcome = 'pending'"
                ).rowcount
                for extra in ("-wal", "-shm"):
                    if os.path.exists(f"{self.path}{extra}"):
                        os.chmod(f"{self.path}{extra}", 0o600)
            else:
                self.interrupted = 0
            self._columns = {r[1] for r in self._db.execute("PRAGMA table_info(decisions)")}
        except sqlite3.DatabaseError as exc:
            raise HistoryError(f"{self.path}: {exc}") from None

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
        values, stored as JSON) and return its id. Keys the file has no column for are dropped."""
        row = _stored(values, self._columns)
        names = ", ".join(row)
        cursor = self._db.execute(
            f"INSERT INTO decisions ({names}) VALUES ({', '.join('?' * len(row))})", tuple(row.values())
        )
        return int(cursor.lastrowid or 0)

    def update(self, row_id: int, **values: Any) -> None:
        """Set columns of row ``row_id`` (same conventions as :meth:`insert`)."""
        row = _stored(values, self._columns)
        if row:
            self._db.execute(
                f"UPDATE decisions SET {', '.join(f'{k} = ?' for k in row)} WHERE id = ?", (*row.values(), row_id)
            )

    def prune(self, retention_days: int) -> int:
        """Delete finished rows received more than ``retention_days`` days (of 86,400 s) ago;
        0 keeps everything. Returns how many were deleted."""
        if retention_days <= 0:
            return 0
        cutoff = self.clock() - retention_days * 86400
        return self._db.execute("DELETE FROM decisions WHERE received < ? AND outcome != 'pending'", (cutoff,)).rowcount

    def clear(self) -> int:
        """Delete every finished row ("Clear history"); pending ones stay to be completed.
        Returns how many were deleted."""
        count = self._db.execute("DELETE FROM decisions WHERE outcome != 'pending'").rowcount
        self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return count

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
        return [
            r[0]
            for r in self._db.execute("SELECT DISTINCT server FROM decisions WHERE server IS NOT NULL ORDER BY server")
        ]

    def count(self) -> int:
        """Rows in the history."""
        return int(self._db.execute("SELECT count(*) FROM decisions").fetchone()[0])


def open_history(path: Path | None = None) -> History | None:
    """The app's history at ``path`` (default :func:`default_history_path`), or ``None`` when it
    is off or cannot be used (one warning names the path and the reason)."""
    path = path if path is not None else default_history_path()
    if path is None:
        return None
    try:
        return History(path)
    except OSError as exc:
        log.warning("no decision history: %s", exc)
        return None
