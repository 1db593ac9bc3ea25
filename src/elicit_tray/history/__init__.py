"""The decision history: a private SQLite record of every elicitation, and the one recorder.

One row per ``elicitation/create`` request, written when it arrives (``outcome = 'pending'``)
and completed when it ends; a row still pending when the database is opened again (the app
died: kill -9, power cut) reads ``interrupted``. Requests refused before a dialog was possible
(``invalid``, ``busy``, a requester already gone) get one completed row. Rows, as
:meth:`History.rows` returns them (``dict``), have the keys of :data:`COLUMNS`, in that order.

What is stored (the privacy switches: :class:`Privacy`):

- always: the times (``received``, ``shown``, ``answered``: RFC 3339 UTC with milliseconds;
  ``duration_ms``), the requesting process (``process``, ``pid``, ``executable`` where the OS
  tells it, ``uid``), the self-reported ``server``, ``server_title``, ``server_version``,
  ``client``, the ``mode``, the ``message``, the ``outcome`` in the request log's words
  (:data:`~elicit_tray.logs.OUTCOMES`, plus ``pending`` and ``interrupted``) and its ``detail``
  (why it expired, the error, the invalid paths, the busy scope);
- forms: ``fields`` (names, titles, the choices made unless a switch says no, typed text only
  when a switch says yes, never a secret-looking field's value);
- URLs: ``url`` without user info and with random-looking path segments masked (the query and
  fragment only with a switch), ``url_verdict`` and ``url_reasons``.

One job per module:

- :mod:`.columns`: the column table (every column's type, migration, storage, when the recorder
  fills it, how the History window shows it), the migrations, and the lists derived from them;
  its docstring shows how to add a column;
- :mod:`.store`: the database file (:class:`History`: open, migrate, write, query) and the
  bounds of a row and of the file (:func:`~.store.bounded`, :meth:`History.trim`);
- :mod:`.writer`: :class:`~.writer.Writer`, the thread that does every write of the app, so that
  a database locked by another process never stalls the UI thread;
- :mod:`.recorder`: :class:`Recorder`, the one place that decides what is recorded (the request
  log and the database from the same event);
- :mod:`.privacy`: what is kept of a request: :class:`Privacy`, the URL, each field's value;
- :mod:`.export`: JSON, CSV and ``elicit-tray history``'s listing.

Pure: no Qt. Raises :class:`HistoryError` (an ``OSError``) when the file cannot be used.
"""

from __future__ import annotations

from .columns import COLUMNS, MIGRATIONS, SCHEMA_VERSION
from .export import export_csv, export_json, parse_since, print_history
from .privacy import DEFAULT_RETENTION_DAYS, Privacy, history_url
from .recorder import Recorder
from .store import ENV_HISTORY, History, HistoryError, default_history_path, format_time, open_history

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
