"""The decision history written out: JSON and CSV (the History window's "Export"), and the
one-line-per-row listing of ``elicit-tray history``.

Every format has the columns of :data:`~elicit_tray.history.columns.COLUMNS`, in that order.
Pure: no Qt.
"""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from .columns import COLUMNS
from .store import History, default_history_path

__all__ = ["export_csv", "export_json", "parse_since", "print_history"]


def export_json(rows: Iterable[dict[str, Any]]) -> str:
    """The rows as a JSON array of objects (keys of :data:`~elicit_tray.history.columns.COLUMNS`
    in order), two-space indent, UTF-8 text ending in a newline."""
    return json.dumps([{k: row.get(k) for k in COLUMNS} for row in rows], ensure_ascii=False, indent=2) + "\n"


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def export_csv(rows: Iterable[dict[str, Any]]) -> str:
    """The rows as CSV (RFC 4180: a header of :data:`~elicit_tray.history.columns.COLUMNS`,
    ``\\r\\n`` line ends, fields with a comma, quote or newline quoted and quotes doubled);
    ``None`` is empty, lists and objects (``fields``, ``url_reasons``) are JSON text."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([_cell(row.get(k)) for k in COLUMNS])
    return buffer.getvalue()


def parse_since(text: str) -> float:
    """``YYYY-MM-DD`` (local midnight) or an ISO 8601 date-time (local time unless it has an
    offset or ``Z``) -> Unix seconds. Raises ``ValueError`` for anything else."""
    from datetime import datetime

    value = datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    return value.timestamp()  # naive: local time


def print_history(
    *,
    as_json: bool = False,
    since: str | None = None,
    server: str | None = None,
    outcome: str | None = None,
    path: Path | None = None,
    out: TextIO | None = None,
) -> int:
    """``elicit-tray history``: print the rows of the history at ``path`` (default
    :func:`~elicit_tray.history.store.default_history_path`, read only, nothing changed), newest
    first, filtered as :meth:`History.rows <elicit_tray.history.store.History.rows>` (``since`` a
    date as :func:`parse_since` reads it; ``outcome`` ``"cancel"`` means every ``cancel-*``).

    ``as_json``: a JSON array of row objects (:data:`~elicit_tray.history.columns.COLUMNS`),
    ``[]`` when there is no history yet. Otherwise one line per row: local received time,
    outcome, server, mode and the message on one line (controls escaped), columns separated by
    two spaces. ``out``: where to print (default ``sys.stdout``).

    Returns the exit code: 0 printed (also when empty), 1 the history cannot be read, 2 a bad
    ``since``.
    """
    import sys

    from ..logs import escape_controls

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
