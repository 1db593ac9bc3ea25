"""The decision history: a private SQLite record of every elicitation, and the one recorder.

Where: ``<user data dir>/elicit-tray/history.sqlite3`` (platformdirs; on Linux
``$XDG_DATA_HOME``, default ``~/.local/share``); ``ELICIT_TRAY_HISTORY=PATH`` moves it,
``ELICIT_TRAY_HISTORY=off`` turns it off (:func:`default_history_path`). Standard-library
``sqlite3`` in WAL mode; the schema version is ``PRAGMA user_version`` and each older version is
migrated forward at open (:data:`MIGRATIONS`); the database file is created 0600 (its directory
0700) and its mode forced to 0600, with the same checks as the request log
(:func:`~elicit_tray.logs.open_private_log`: no symbolic link, a regular file of the user's).

One row per ``elicitation/create`` request (table ``decisions``). A row is written when a
request arrives (``outcome = 'pending'``) and completed when it ends; a row still pending when
the database is opened again (the app died: kill -9, power cut) reads ``interrupted``.
Requests refused before a dialog was possible (``invalid``, ``busy``, a requester already gone)
get one completed row. Rows, as :meth:`History.rows` returns them (``dict``), in this order:
:data:`COLUMNS`.

What is stored, and the privacy switches (:class:`Privacy`):

- always: the times (``received``, ``shown``, ``answered``: RFC 3339 UTC with milliseconds;
  ``duration_ms``), the requesting process (``process``, ``pid``, ``executable`` where the OS
  tells it, ``uid``), the self-reported ``server``, ``server_title``, ``server_version``,
  ``client``, the ``mode``, the ``message``, the ``outcome`` in the request log's words
  (:data:`~elicit_tray.logs.OUTCOMES`, plus ``pending`` and ``interrupted``) and its ``detail``
  (why it expired, the error, the invalid paths, the busy scope);
- forms: ``fields``, a list of ``{"name", "title", "secret"}`` in form order, with ``"value"``
  for each submitted field when ``Privacy.values`` is on; never the value of a field that raised
  the secret warning (:func:`~elicit_tray.schema.values.looks_secret`);
- URLs: ``url`` = scheme, host, port and path (no user info); the query and fragment only with
  ``Privacy.query``; ``url_verdict`` and ``url_reasons`` of the consent dialog's analysis.

:class:`Recorder` is the one place that decides what is recorded: the dispatcher gives it every
event with everything it knows (it reports ``log_values`` true, so values, messages and full URLs
reach it), and it writes the JSON-lines request log (:class:`~elicit_tray.logs.Journal`, which
drops values unless ``--log-values``) and the database from that same event.

Pure: no Qt. Raises :class:`HistoryError` (an ``OSError``) when the file cannot be used.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import os
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .logs import Journal, UnsafeLogFile, open_private_log, split_url

__all__ = [
    "COLUMNS",
    "DEFAULT_RETENTION_DAYS",
    "ENV_HISTORY",
    "HistoryError",
    "History",
    "MIGRATIONS",
    "Privacy",
    "Recorder",
    "SCHEMA_VERSION",
    "default_history_path",
    "export_csv",
    "export_json",
    "format_time",
    "history_url",
    "open_history",
    "parse_since",
    "print_history",
]

log = logging.getLogger(__name__)

#: Environment variable with the database's path (``off`` turns the history off).
ENV_HISTORY = "ELICIT_TRAY_HISTORY"
#: Days a decision is kept unless the user sets another retention (0 keeps everything).
DEFAULT_RETENTION_DAYS = 90

#: The schema, one script per version: ``MIGRATIONS[0]`` creates version 1 (the first
#: schema), ``MIGRATIONS[n]`` turns version ``n`` into ``n + 1``.
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
)
#: The schema version this code writes.
SCHEMA_VERSION = len(MIGRATIONS)

#: The keys of a row (:meth:`History.rows`), in order; also the JSON/CSV export's columns.
COLUMNS = (
    "id",
    "received",
    "shown",
    "answered",
    "duration_ms",
    "server",
    "server_title",
    "server_version",
    "client",
    "process",
    "pid",
    "executable",
    "uid",
    "mode",
    "message",
    "fields",
    "url",
    "url_verdict",
    "url_reasons",
    "outcome",
    "detail",
    "request_id",
    "key",
)
_TIMES = ("received", "shown", "answered")
_JSON_COLUMNS = ("fields", "url_reasons", "request_id")


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


@dataclass(frozen=True)
class Privacy:
    """What the history keeps.

    Attributes:
        enabled: write rows at all (off: nothing new is written; old rows stay until cleared).
        values: keep the submitted values of form fields (never a secret-looking field's).
        query: keep a URL's query string and fragment.
        retention_days: rows older than this are deleted at start and daily (0: kept forever).
    """

    enabled: bool = True
    values: bool = True
    query: bool = False
    retention_days: int = DEFAULT_RETENTION_DAYS


def format_time(seconds: float | None) -> str | None:
    """Unix seconds -> ``"YYYY-MM-DDTHH:MM:SS.mmmZ"`` (UTC); ``None`` stays ``None``."""
    if seconds is None:
        return None
    millis = int(round(seconds * 1000))
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(millis // 1000)) + f".{millis % 1000:03d}Z"


def parse_since(text: str) -> float:
    """``YYYY-MM-DD`` (local midnight) or an ISO 8601 date-time (local time unless it has an
    offset or ``Z``) -> Unix seconds. Raises ``ValueError`` for anything else."""
    from datetime import datetime

    value = datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    return value.timestamp()  # naive: local time


def history_url(url: str, *, query: bool = False) -> str:
    """What the history keeps of ``url``: ``scheme://host:port/path`` without user info, and
    ``?query#fragment`` only when ``query`` is true. A URL without an authority keeps its
    scheme and path (``mailto:x@y``); one that cannot be parsed reads ``<unparseable>``."""
    split = split_url(url)
    if split is None:
        return "<unparseable>"
    parts, host = split
    text = f"{parts.scheme}://{host}{parts.path}" if parts.netloc else f"{parts.scheme}:{parts.path}"
    if query:
        text += (f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}" if parts.fragment else "")
    return text


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
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for statement in filter(str.strip, MIGRATIONS[number].split(";")):
                    self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version = {number + 1}")
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            log.info("history %s: schema version %d", self.path, number + 1)

    def close(self) -> None:
        """Close the database (idempotent)."""
        self._db.close()

    # -- writing --------------------------------------------------------------------------------
    def insert(self, **values: Any) -> int:
        """Insert one row (keys of :data:`COLUMNS` but ``id``; times as Unix seconds; ``fields``,
        ``url_reasons``, ``request_id`` as Python values, stored as JSON) and return its id."""
        row = {
            k: (json.dumps(v, ensure_ascii=False) if k in _JSON_COLUMNS and v is not None else v)
            for k, v in values.items()
            if k in self._columns
        }
        names = ", ".join(row)
        cursor = self._db.execute(
            f"INSERT INTO decisions ({names}) VALUES ({', '.join('?' * len(row))})", tuple(row.values())
        )
        return int(cursor.lastrowid or 0)

    def update(self, row_id: int, **values: Any) -> None:
        """Set columns of row ``row_id`` (same conventions as :meth:`insert`)."""
        row = {
            k: (json.dumps(v, ensure_ascii=False) if k in _JSON_COLUMNS and v is not None else v)
            for k, v in values.items()
            if k in self._columns
        }
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
        """The rows, newest first, as ``dict`` with the keys of :data:`COLUMNS` (times as RFC 3339
        UTC strings, JSON columns decoded, columns missing from an older schema ``None``).

        Filters (all optional, combined with AND): ``since``/``until`` Unix seconds (received
        ``>= since``, ``< until``); ``server`` exact self-reported name; ``outcome`` exact, or a
        prefix ending in ``-`` (``"cancel-"`` matches every cancel); ``search`` a case-insensitive
        substring of server, title, client, process, message, URL, detail or the fields' text.
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
            searchable = [
                c
                for c in (
                    "server",
                    "server_title",
                    "client",
                    "process",
                    "message",
                    "url",
                    "detail",
                    "fields",
                    "outcome",
                )
                if c in self._columns
            ]
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
            if column in _TIMES:
                value = format_time(value)
            elif column in _JSON_COLUMNS and value is not None:
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


# -- export ---------------------------------------------------------------------------------------


def export_json(rows: Iterable[dict[str, Any]]) -> str:
    """The rows as a JSON array of objects (keys of :data:`COLUMNS` in order), two-space indent,
    UTF-8 text ending in a newline."""
    return json.dumps([{k: row.get(k) for k in COLUMNS} for row in rows], ensure_ascii=False, indent=2) + "\n"


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def export_csv(rows: Iterable[dict[str, Any]]) -> str:
    """The rows as CSV (RFC 4180: a header of :data:`COLUMNS`, ``\\r\\n`` line ends, fields with a
    comma, quote or newline quoted and quotes doubled); ``None`` is empty, lists and objects
    (``fields``, ``url_reasons``) are JSON text."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([_cell(row.get(k)) for k in COLUMNS])
    return buffer.getvalue()


# -- the recorder ---------------------------------------------------------------------------------

_DETAIL_KEYS = ("reason", "error", "scope")


def _detail(fields: dict[str, Any]) -> str | None:
    if fields.get("violations"):
        return "invalid: " + ", ".join(str(p) or "/" for p in fields["violations"])
    parts = [str(fields[k]) for k in _DETAIL_KEYS if fields.get(k) is not None]
    if fields.get("code") is not None and fields.get("outcome") in ("error", "busy"):
        parts.insert(0, f"code {fields['code']}")
    return "; ".join(parts) or None


@dataclass
class _Open:
    row_id: int
    request: Any
    received: float
    shown: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class Recorder:
    """The one place that decides what is recorded: each event goes to the request log and the
    decision history (module docstring).

    Keeps :class:`~elicit_tray.logs.Journal`'s interface (``record(event, **fields)``,
    ``enabled``, ``log_values``, ``close()``) so the dispatcher and the endpoint write to it as to
    the journal; ``log_values`` is always true because the recorder, not the caller, drops values.

    Args:
        journal: the JSON-lines request log (drops values unless its own ``log_values``).
        history: the database, or ``None`` (attach later with :meth:`attach`: the app opens it
            only once it holds the socket lock).
        privacy: the switches (:class:`Privacy`); change them at any time with :attr:`privacy`.
        clock: Unix seconds.
    """

    log_values = True

    def __init__(
        self,
        journal: Journal | None = None,
        history: History | None = None,
        *,
        privacy: Privacy = Privacy(),
        clock: Callable[[], float] = time.time,
    ):
        self.journal = journal or Journal(None)
        self.history = history
        self.privacy = privacy
        self.clock = clock
        self._open: dict[str, _Open] = {}
        #: called with no argument after each row written (the History window refreshes)
        self.listeners: list[Callable[[], None]] = []

    @property
    def enabled(self) -> bool:
        """Whether anything is written (the journal, or the history while it is on)."""
        return self.journal.enabled or self._writing

    @property
    def _writing(self) -> bool:
        return self.history is not None and self.privacy.enabled

    def attach(self, history: History | None) -> None:
        """Start writing to ``history`` (its retention is applied at once)."""
        self.history = history
        self.prune()

    def set_privacy(self, privacy: Privacy) -> None:
        """Apply new switches from now on (a shorter retention prunes at once)."""
        self.privacy = privacy
        self.prune()

    def prune(self) -> int:
        """Apply the retention (at start, daily, and when it changes); returns rows deleted."""
        if self.history is None:
            return 0
        try:
            count = self.history.prune(self.privacy.retention_days)
        except sqlite3.Error:
            log.exception("cannot prune the decision history")
            return 0
        if count:
            self._changed()
        return count

    def close(self) -> None:
        """Close the journal and the database."""
        self.journal.close()
        if self.history is not None:
            self.history.close()
            self.history = None

    # -- events -----------------------------------------------------------------------------------
    def wrap(self, handler: Callable[[Any], Awaitable[Any]]) -> Callable[[Any], Awaitable[Any]]:
        """The dispatcher's handler with the arrival recorded: a pending row is written before
        ``handler(request)`` runs (the dialog is built)."""

        async def recorded(request: Any) -> Any:
            self.arrived(request)
            return await handler(request)

        return recorded

    def on_shown(self, inner: Callable[[Any], Any] | None = None) -> Callable[[Any], Any]:
        """A presenter ``on_shown`` hook: records when the dialog (anything with
        ``.request.key``) is on screen, then calls ``inner(dialog)`` if given."""

        def hook(dialog: Any) -> Any:
            self.shown(dialog.request.key)
            return inner(dialog) if inner is not None else None

        return hook

    def watch(self, ui: Any) -> Any:
        """``ui`` (the dispatcher's UI object, e.g. the presenter) with the arrival recorded
        before each ``ui.ask(request)``; every other attribute is ``ui``'s own."""
        return _RecordedUi(ui, self)

    def _changed(self) -> None:
        for listener in list(self.listeners):
            try:
                listener()
            except Exception:  # pragma: no cover - a window must not break recording
                log.exception("history listener failed")

    def arrived(self, request: Any) -> None:
        """A request (an :class:`~elicit_tray.elicitation.ElicitationRequest`) arrived: write its
        pending row. Never raises."""
        if not self._writing:
            return
        assert self.history is not None
        now = self.clock()
        try:
            row_id = self.history.insert(received=now, outcome="pending", **self._describe(request, None))
        except sqlite3.Error:
            log.exception("cannot write the decision history")
            return
        self._open[request.key] = _Open(row_id, request, now)
        self._changed()

    def shown(self, key: str) -> None:
        """The dialog of request ``key`` is on screen now. Never raises."""
        entry = self._open.get(key)
        if entry is None or entry.shown is not None or self.history is None:
            return
        entry.shown = self.clock()
        try:
            self.history.update(entry.row_id, shown=entry.shown)
        except sqlite3.Error:
            log.exception("cannot write the decision history")

    def record(self, event: str, **fields: Any) -> None:
        """Write ``event`` to the request log (as :meth:`Journal.record
        <elicit_tray.logs.Journal.record>`) and, for ``elicitation``, complete (or write) its
        history row. Never raises."""
        self.journal.record(event, **dict(fields))
        if event != "elicitation":
            return
        entry = self._open.pop(fields.get("key") or "", None)
        if not self._writing:
            return
        assert self.history is not None
        now = self.clock()
        outcome = fields.get("outcome")
        values: dict[str, Any] = {
            "outcome": outcome,
            "detail": _detail(fields),
            "answered": now,
            "request_id": fields.get("id"),
        }
        try:
            if entry is not None:
                values["duration_ms"] = round((now - entry.received) * 1000, 3)
                if outcome == "accept" and getattr(entry.request, "form", None) is not None:
                    values["fields"] = self._fields(entry.request, fields.get("content"))
                self.history.update(entry.row_id, **values)
            else:
                values.update(
                    received=now,
                    duration_ms=fields.get("ms"),
                    pid=fields.get("pid"),
                    process=fields.get("process"),
                    uid=fields.get("uid"),
                    server=fields.get("server"),
                    client=fields.get("client"),
                    mode=fields.get("mode"),
                    message=fields.get("message"),
                )
                if isinstance(fields.get("url"), str):
                    values["url"] = history_url(fields["url"], query=self.privacy.query)
                self.history.insert(**values)
        except sqlite3.Error:
            log.exception("cannot write the decision history")
            return
        self._changed()

    # -- what a row holds ---------------------------------------------------------------------------
    def _describe(self, request: Any, content: dict[str, Any] | None) -> dict[str, Any]:
        peer, who = request.peer, request.requester
        values: dict[str, Any] = {
            "key": request.key,
            "pid": peer.pid,
            "process": peer.process_name,
            "executable": peer.executable,
            "uid": peer.uid,
            "server": who.server_name,
            "server_title": who.server_title,
            "server_version": who.server_version,
            "client": who.client_name,
            "mode": request.mode,
            "message": request.message,
        }
        if getattr(request, "form", None) is not None:
            values["fields"] = self._fields(request, content)
        if getattr(request, "url", None) is not None:
            values["url"] = history_url(request.url, query=self.privacy.query)
            analysis = getattr(request, "url_analysis", None)
            if analysis is not None:
                values["url_verdict"] = analysis.verdict
                values["url_reasons"] = list(analysis.reasons)
        return values

    def _fields(self, request: Any, content: dict[str, Any] | None) -> list[dict[str, Any]]:
        from .schema.values import looks_secret

        out = []
        for spec in request.form.fields:
            secret = looks_secret(spec)
            item: dict[str, Any] = {"name": spec.name, "title": spec.title, "secret": secret}
            if content is not None and spec.name in content and self.privacy.values and not secret:
                item["value"] = content[spec.name]
            out.append(item)
        return out


class _RecordedUi:
    """A UI object whose ``ask`` writes the pending row first (:meth:`Recorder.watch`)."""

    def __init__(self, ui: Any, recorder: Recorder):
        self._ui = ui
        self._recorder = recorder

    async def ask(self, request: Any) -> Any:
        self._recorder.arrived(request)
        return await self._ui.ask(request)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ui, name)


# -- the command line ------------------------------------------------------------------------------


def print_history(
    *,
    as_json: bool = False,
    since: str | None = None,
    server: str | None = None,
    outcome: str | None = None,
    path: Path | None = None,
    out: Any = None,
) -> int:
    """``elicit-tray history``: print the rows of the history at ``path`` (default
    :func:`default_history_path`, read only, nothing changed), newest first, filtered as
    :meth:`History.rows` (``since`` a date as :func:`parse_since` reads it; ``outcome``
    ``"cancel"`` means every ``cancel-*``).

    ``as_json``: a JSON array of row objects (:data:`COLUMNS`), ``[]`` when there is no history
    yet. Otherwise one line per row: local received time, outcome, server, mode and the message
    on one line (controls escaped), columns separated by two spaces.

    Returns the exit code: 0 printed (also when empty), 1 the history cannot be read, 2 a bad
    ``since``.
    """
    import sys

    from .logs import escape_controls

    out = out or sys.stdout
    try:
        since_s = parse_since(since) if since else None
    except ValueError:
        print(
            f"elicit-tray history: --since {since!r} is not a date (YYYY-MM-DD) or an ISO 8601 date-time",
            file=sys.stderr,
        )
        return 2
    path = path if path is not None else default_history_path()
    if path is None:
        path = Path(os.devnull)
    rows: list[dict[str, Any]] = []
    if path.exists() and path != Path(os.devnull):
        try:
            history = History(path, readonly=True)
            try:
                rows = history.rows(since=since_s, server=server, outcome="cancel-" if outcome == "cancel" else outcome)
            finally:
                history.close()
        except (OSError, sqlite3.Error) as exc:
            print(f"elicit-tray history: cannot read {path}: {exc}", file=sys.stderr)
            return 1
    if as_json:
        out.write(export_json(rows) if rows else "[]\n")
        return 0
    for row in rows:
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(_seconds(row["received"])))
        text = escape_controls(" ".join(str(row["message"] or row["url"] or row["detail"] or "").split()))
        out.write(
            f"{stamp}  {row['outcome']:<14}  {escape_controls(row['server'] or '-'):<16}  "
            f"{row['mode'] or '-':<4}  {text}\n"
        )
    return 0


def _seconds(stamp: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
