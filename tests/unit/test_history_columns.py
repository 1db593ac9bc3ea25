"""The column table of the decision history (elicit_tray.history.columns) against what the code
does: the migrations build exactly the table's columns at every version, the recorder fills
exactly the columns the table says it fills, and the search looks in exactly the table's search
columns. Forgetting a part of a row (its migration, its type, the recorder's side) fails here."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from elicit_tray.history import History
from elicit_tray.history.columns import (
    COLUMNS,
    JSON_COLUMNS,
    MIGRATIONS,
    SCHEMA_VERSION,
    SEARCH_COLUMNS,
    TABLE,
    TIME_COLUMNS,
    Fill,
    columns_at,
)
from elicit_tray.history.store import migrate_step
from elicit_tray.request import Accepted
from tests.rpc import create_line
from tests.unit.test_history import FORM, T0, recorder_at, run

WHO = {"serverName": "github", "serverTitle": "GitHub", "serverVersion": "3.1", "clientName": "agent"}
URL_FULL = {
    "mode": "url",
    "message": "Connect your account",
    "elicitationId": "e1",
    "url": "https://user@accounts.example.com/connect?token=x",
    "_meta": {"elicit-tray/requester": WHO},
}


def schema_of(db: sqlite3.Connection) -> dict[str, tuple[str, bool, bool]]:
    """``PRAGMA table_info``: name -> (type, not null, primary key)."""
    return {r[1]: (r[2], bool(r[3]), bool(r[5])) for r in db.execute("PRAGMA table_info(decisions)")}


def expected(version: int) -> dict[str, tuple[str, bool, bool]]:
    return {c.name: (c.sql, c.not_null, c.primary_key) for c in columns_at(version)}


def test_the_table_is_well_formed():
    assert len(set(COLUMNS)) == len(COLUMNS) == len(TABLE)
    assert {c.added_in for c in TABLE} <= set(range(1, SCHEMA_VERSION + 1))
    assert SCHEMA_VERSION == len(MIGRATIONS)
    assert JSON_COLUMNS | TIME_COLUMNS <= set(COLUMNS) and not JSON_COLUMNS & TIME_COLUMNS
    assert all(c.fill == "arrival" for c in TABLE if c.request is not None)
    for order in ([c.cell.order for c in TABLE if c.cell], [c.line.order for c in TABLE if c.line]):
        assert sorted(order) == list(range(len(order)))


@pytest.mark.parametrize("start", range(SCHEMA_VERSION))
def test_every_migration_step_from_every_older_version_builds_the_tables_columns(tmp_path: Path, start: int):
    path = tmp_path / "h.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    for number in range(start):
        migrate_step(db, number)
    assert db.execute("PRAGMA user_version").fetchone()[0] == start
    assert schema_of(db) == expected(start)
    if start:
        db.execute("INSERT INTO decisions (received, outcome, message) VALUES (?, 'decline', 'old')", (T0,))
    db.close()
    shutil.copy(path, tmp_path / "copy.sqlite3")

    db = sqlite3.connect(path, isolation_level=None)
    for number in range(start, SCHEMA_VERSION):
        migrate_step(db, number)
        assert db.execute("PRAGMA user_version").fetchone()[0] == number + 1
        assert schema_of(db) == expected(number + 1), f"after the step to version {number + 1}"
    db.close()

    history = History(tmp_path / "copy.sqlite3")  # the app's own open migrates the rest
    assert history.version == SCHEMA_VERSION
    assert schema_of(history._db) == expected(SCHEMA_VERSION)
    assert [r["message"] for r in history.rows()] == (["old"] if start else [])


def filled(row: dict[str, Any]) -> set[str]:
    return {name for name, value in row.items() if value is not None}


def columns_filled(*fills: Fill) -> set[str]:
    return {c.name for c in TABLE if c.fill in fills}


def test_the_recorder_fills_exactly_the_columns_the_table_says_for_each_kind_of_request(tmp_path: Path):
    recorder, history = recorder_at(tmp_path)
    run(
        recorder,
        [Accepted({"env": "prd", "note": "n"}), Accepted(None), None],
        [create_line(1, FORM), create_line(2, URL_FULL), create_line(3, FORM)],
    )
    rows = {r["request_id"]: r for r in history.rows()}
    common: tuple[Fill, ...] = ("database", "arrival", "shown", "end")
    assert filled(rows[1]) == columns_filled(*common, "form")
    assert filled(rows[2]) == columns_filled(*common, "url")
    assert rows[3]["outcome"] == "expired"  # its connection closed while it was shown
    assert filled(rows[3]) == columns_filled(*common, "form", "reason")


def test_the_row_of_a_refused_request_takes_every_event_column_from_the_event(tmp_path: Path):
    recorder, history = recorder_at(tmp_path)
    event = {c.event: f"value of {c.event}" for c in TABLE if c.event is not None}
    event.update(url="https://x.example/a?q=1", outcome="busy", code=-32000, scope="total", ms=1.5, id=9)
    recorder.record("elicitation", **event)
    assert recorder.flush(30)
    (row,) = history.rows()
    assert filled(row) == {c.name for c in TABLE if c.event} | columns_filled("database", "reason") | {
        "received",
        "answered",
    }
    assert (row["url"], row["detail"], row["request_id"]) == ("https://x.example/a", "code -32000; total", 9)


def test_the_search_looks_in_every_search_column_and_no_other(tmp_path: Path):
    history = History(tmp_path / "h.sqlite3")
    for name in COLUMNS:
        if name in ("id", "received", "outcome"):
            continue
        value: Any = [f"token-{name}"] if name in JSON_COLUMNS else f"token-{name}"
        history.insert(received=T0, outcome="accept", **{name: value})
    history.insert(received=T0, outcome="token-outcome")
    for name in COLUMNS:
        found = [r for r in history.rows(search=f"token-{name}") if r[name] is not None]
        assert bool(found) == (name in SEARCH_COLUMNS), name


def test_version_3_turns_the_name_a_process_chose_into_what_the_os_reported(tmp_path: Path):
    """Until version 3, ``process`` held /proc/<pid>/comm (which the process sets itself); from
    then on, the process as the OS reports it (Peer.label)."""
    path = tmp_path / "h.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    for number in range(2):
        migrate_step(db, number)
    rows = [
        (9, "gnome-keyring-d", "/usr/bin/python3"),  # a name chosen with prctl(PR_SET_NAME)
        (10, "agent", None),  # the executable was not known
        (11, None, None),
        (None, "x", None),
    ]
    for pid, process, executable in rows:
        db.execute(
            "INSERT INTO decisions (received, outcome, pid, process, executable) VALUES (?, 'decline', ?, ?, ?)",
            (T0, pid, process, executable),
        )
    db.close()
    history = History(path)
    assert [r["process"] for r in reversed(history.rows())] == [
        "/usr/bin/python3 (pid 9)",
        "agent (pid 10), as the process names itself; its executable is unknown",
        "unknown process (pid 11); its executable is unknown",
        None,
    ]


def test_the_recorder_keeps_the_process_as_the_os_reports_it_never_its_chosen_name(tmp_path: Path):
    from elicit_tray.elicitation import parse_elicit_params
    from elicit_tray.history import Recorder
    from elicit_tray.request import Peer

    history = History(tmp_path / "h.sqlite3")
    recorder = Recorder(None, history)
    peer = Peer(pid=4, uid=1, process_name="gnome-keyring-d", executable="/usr/bin/python3", argv=("x", "a.py"))
    recorder.arrived(
        parse_elicit_params({"message": "m", "requestedSchema": {"type": "object", "properties": {}}}, peer)
    )
    recorder.flush()  # written on the writer's thread
    (row,) = history.rows()
    assert (row["process"], row["executable"], row["pid"]) == ("/usr/bin/python3 a.py (pid 4)", "/usr/bin/python3", 4)
