"""The decision history (elicit_tray.history): the rows the one recorder writes from the
dispatcher's events, the privacy switches, migrations, retention, export, and a kill -9 in the
middle of writing."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from elicit_tray.elicitation import parse_elicit_params
from elicit_tray.history import (
    COLUMNS,
    MIGRATIONS,
    SCHEMA_VERSION,
    History,
    HistoryError,
    Privacy,
    Recorder,
    default_history_path,
    export_csv,
    export_json,
    history_url,
    parse_since,
)
from elicit_tray.ipc.protocol import Dispatcher
from elicit_tray.logs import Journal
from elicit_tray.request import Accepted, Cancelled, Declined, ElicitationRequest, Peer
from tests.fakes import FakeChannel
from tests.rpc import create_line

T0 = 1_790_000_000.0  # 2026-09-21T14:13:20Z
PEER = Peer(pid=4242, uid=1000, process_name="requester", executable="/usr/bin/requester")
FORM = {
    "message": "Deploy web?",
    "requestedSchema": {
        "type": "object",
        "properties": {
            "env": {"type": "string", "title": "Environment", "enum": ["stg", "prd"]},
            "api_token": {"type": "string", "title": "API token"},
            "note": {"type": "string", "title": "Note"},
        },
    },
    "_meta": {
        "elicit-tray/requester": {
            "serverName": "deployer",
            "serverTitle": "Deployer",
            "serverVersion": "1.2",
            "clientName": "agent",
        }
    },
}
URL = {
    "mode": "url",
    "message": "Connect your account",
    "elicitationId": "e1",
    "url": "https://user:pw@accounts.example.com:8443/connect/start?token=s3cr3t#frag",
    "_meta": {"elicit-tray/requester": {"serverName": "github"}},
}


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def run(recorder: Recorder, answers: list[Any], lines: list[bytes]) -> list[dict[str, Any]]:
    """Feed ``lines`` to a dispatcher whose handler is ``recorder.wrap``-ped and answers with
    ``answers`` in order (None: never answers); returns what was sent."""
    queue = list(answers)

    async def handler(request: ElicitationRequest) -> Any:
        recorder.shown(request.key)
        answer = queue.pop(0)
        if answer is None:
            await asyncio.Event().wait()
        return answer

    channel = FakeChannel(PEER)

    async def main() -> None:
        try:  # the dispatcher takes a UI object (ask, complete)
            from elicit_tray.ipc.protocol import UiFunctions

            ui: Any = recorder.watch(UiFunctions(handler))
        except ImportError:  # or the handler itself
            ui = recorder.wrap(handler)
        dispatcher = Dispatcher(ui, version="t", journal=recorder)  # type: ignore[arg-type]
        dispatcher.connection_made(channel)
        for data in lines:
            dispatcher.data_received(channel, data)
            for _ in range(5):
                await asyncio.sleep(0)
        dispatcher.connection_lost(channel)
        for _ in range(5):
            await asyncio.sleep(0)

    asyncio.run(main())
    assert recorder.flush(30)  # the writer thread has written every row
    return channel.sent


def row(**values: Any) -> dict[str, Any]:
    base = dict.fromkeys(COLUMNS)
    base.update(values)
    return base


def ts(offset: float) -> str:
    from elicit_tray.history import format_time

    return format_time(T0 + offset)  # type: ignore[return-value]


DEFAULT_PRIVACY = Privacy()


def recorder_at(
    tmp_path: Path,
    privacy: Privacy = DEFAULT_PRIVACY,
    journal: Journal | None = None,
) -> tuple[Recorder, History]:
    clock = Clock()
    history = History(tmp_path / "h.sqlite3", clock=clock)
    return Recorder(journal, history, privacy=privacy, clock=clock), history


def test_a_form_accepted_with_choices_kept_text_left_out_and_a_secret_field_whose_value_is_never_stored(tmp_path):
    recorder, history = recorder_at(tmp_path)
    run(
        recorder,
        [Accepted({"env": "prd", "api_token": "tok-123", "note": 'a, "b"\nc'})],
        [create_line(7, FORM)],
    )
    (got,) = history.rows()
    assert got["key"].startswith("r")
    assert got == row(
        id=1,
        received=ts(1),
        shown=ts(2),
        answered=ts(3),
        duration_ms=2000.0,
        server="deployer",
        server_title="Deployer",
        server_version="1.2",
        client="agent",
        process="/usr/bin/requester (pid 4242)",
        pid=4242,
        executable="/usr/bin/requester",
        uid=1000,
        mode="form",
        message="Deploy web?",
        fields=[
            {"name": "env", "title": "Environment", "secret": False, "value": "prd"},
            {"name": "api_token", "title": "API token", "secret": True},
            {"name": "note", "title": "Note", "secret": False},  # free text: kept only when switched on
        ],
        outcome="accept",
        request_id=7,
        key=got["key"],
    )


def test_free_text_on_keeps_typed_text_and_still_no_secret(tmp_path):
    recorder, history = recorder_at(tmp_path, Privacy(text=True))
    run(recorder, [Accepted({"env": "prd", "api_token": "tok-123", "note": 'a, "b"\nc'})], [create_line(7, FORM)])
    assert history.rows()[0]["fields"] == [
        {"name": "env", "title": "Environment", "secret": False, "value": "prd"},
        {"name": "api_token", "title": "API token", "secret": True},
        {"name": "note", "title": "Note", "secret": False, "value": 'a, "b"\nc'},
    ]


def test_values_off_keeps_titles_but_no_value(tmp_path):
    recorder, history = recorder_at(tmp_path, Privacy(values=False))
    run(recorder, [Accepted({"env": "stg", "note": "x"})], [create_line(1, FORM)])
    assert history.rows()[0]["fields"] == [
        {"name": "env", "title": "Environment", "secret": False},
        {"name": "api_token", "title": "API token", "secret": True},
        {"name": "note", "title": "Note", "secret": False},
    ]


def test_a_url_keeps_scheme_host_and_path_and_the_query_only_when_switched_on(tmp_path):
    recorder, history = recorder_at(tmp_path)
    run(recorder, [Accepted(None)], [create_line(1, URL)])
    got = history.rows()[0]
    assert (got["url"], got["url_verdict"], got["url_reasons"], got["outcome"], got["fields"]) == (
        "https://accounts.example.com:8443/connect/start",
        "warn",
        ["userinfo"],
        "accept",
        None,
    )
    recorder.set_privacy(Privacy(query=True))
    run(recorder, [Declined()], [create_line(2, URL)])
    got = history.rows()[0]
    assert (got["url"], got["outcome"]) == (
        "https://accounts.example.com:8443/connect/start?token=s3cr3t#frag",
        "decline",
    )


def test_history_off_writes_no_row_and_the_journal_still_gets_its_line(tmp_path):
    journal = Journal(tmp_path / "log.jsonl")
    recorder, history = recorder_at(tmp_path, Privacy(enabled=False), journal)
    run(recorder, [Cancelled("escape")], [create_line(1, FORM)])
    journal.close()
    assert history.rows() == []
    (entry,) = [json.loads(x) for x in (tmp_path / "log.jsonl").read_text().splitlines()]
    assert (entry["outcome"], "content" in entry, "message" in entry) == ("cancel-escape", False, False)


def test_the_journal_line_is_unchanged_by_the_recorder_no_values_no_message_redacted_url(tmp_path):
    journal = Journal(tmp_path / "log.jsonl")
    recorder, history = recorder_at(tmp_path, journal=journal)
    run(
        recorder,
        [Accepted({"env": "prd", "api_token": "t"}), Accepted(None)],
        [create_line(1, FORM), create_line(2, URL)],
    )
    journal.close()
    entries = [json.loads(x) for x in (tmp_path / "log.jsonl").read_text().splitlines()]
    for entry in entries:
        for key in ("ts", "ms", "parse_ms", "key"):
            entry.pop(key)
    assert entries == [
        {
            "event": "elicitation",
            "id": 1,
            "pid": 4242,
            "process": "/usr/bin/requester (pid 4242)",  # as the OS reports it
            "uid": 1000,
            "server": "deployer",
            "client": "agent",
            "mode": "form",
            "outcome": "accept",
            "fields": ["api_token", "env"],
        },
        {
            "event": "elicitation",
            "id": 2,
            "pid": 4242,
            "process": "/usr/bin/requester (pid 4242)",  # as the OS reports it
            "uid": 1000,
            "server": "github",
            "mode": "url",
            "outcome": "accept",
            "url": "https://accounts.example.com:8443/connect/start?…#…",
        },
    ]
    assert [r["outcome"] for r in history.rows()] == ["accept", "accept"]


def test_refused_requests_get_one_finished_row_and_an_expired_one_its_reason(tmp_path):
    recorder, history = recorder_at(tmp_path)
    bad = {"message": "x", "requestedSchema": {"type": "object", "properties": {"a": {"type": "object"}}}}
    run(recorder, [None], [create_line(1, bad), create_line(2, FORM)])
    rows = history.rows()
    assert [(r["request_id"], r["outcome"], r["detail"], r["mode"]) for r in rows] == [
        (2, "expired", "disconnected", "form"),
        (1, "invalid", "invalid: /requestedSchema/properties/a", "form"),
    ]


def test_a_pending_row_reads_interrupted_at_the_next_open(tmp_path):
    recorder, history = recorder_at(tmp_path)
    request = parse_elicit_params(FORM, PEER)
    recorder.arrived(request)
    assert recorder.flush(30)
    assert [r["outcome"] for r in History(tmp_path / "h.sqlite3", readonly=True).rows()] == ["pending"]
    history.close()
    again = History(tmp_path / "h.sqlite3")
    assert again.interrupted == 1
    assert [(r["outcome"], r["answered"], r["message"]) for r in again.rows()] == [("interrupted", None, "Deploy web?")]


WRITER = r"""
import sys, time
from elicit_tray.history import History
h = History(sys.argv[1])
n = 0
while True:
    n += 1
    h.insert(received=time.time(), outcome="pending", message="m" * 1900 + str(n))
    if n == 50:
        print("writing", flush=True)
"""


def test_kill_9_in_the_middle_of_writes_leaves_a_database_that_opens_with_every_row_interrupted(tmp_path):
    path = tmp_path / "h.sqlite3"
    child = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE)
    assert child.stdout is not None and child.stdout.readline() == b"writing\n"
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=30)
    child.stdout.close()
    history = History(path)
    assert history._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    rows = history.rows()
    count = len(rows)
    assert count >= 50
    assert [(r["id"], r["outcome"], r["message"]) for r in rows] == [
        (n, "interrupted", "m" * 1900 + str(n)) for n in range(count, 0, -1)
    ]
    assert history.interrupted == count


def test_a_database_of_the_first_schema_version_is_migrated_and_its_rows_kept(tmp_path):
    path = tmp_path / "h.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[0] + "PRAGMA user_version = 1;")
    db.execute(
        "INSERT INTO decisions (received, answered, duration_ms, pid, process, uid, server, client, mode, "
        "message, outcome, detail) VALUES (?, ?, 1500, 9, 'p', 1000, 's', 'c', 'form', 'old', 'decline', NULL)",
        (T0, T0 + 1.5),
    )
    db.execute("INSERT INTO decisions (received, outcome, mode) VALUES (?, 'pending', 'url')", (T0 + 10,))
    db.commit()
    db.close()
    old = History(path, readonly=True)
    assert old.version == 1 and old.rows()[1]["executable"] is None
    old.close()
    history = History(path, clock=lambda: T0 + 20)
    assert (history.version, SCHEMA_VERSION) == (3, 3)
    assert history.rows() == [
        row(id=2, received=ts(10), mode="url", outcome="interrupted"),
        row(
            id=1,
            received=ts(0),
            answered=ts(1.5),
            duration_ms=1500.0,
            pid=9,
            process="p (pid 9), as the process names itself; its executable is unknown",  # version 3
            uid=1000,
            server="s",
            client="c",
            mode="form",
            message="old",
            outcome="decline",
        ),
    ]
    history.insert(received=T0 + 20, outcome="accept", executable="/bin/x", shown=T0 + 20.5)
    assert history.rows(limit=1)[0]["executable"] == "/bin/x"


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "h.sqlite3"
    History(path).close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 99")
    db.commit()
    db.close()
    with pytest.raises(HistoryError, match="schema version 99"):
        History(path)


def test_retention_prunes_finished_rows_older_than_the_days_and_keeps_pending_ones(tmp_path):
    now = T0 + 100 * 86400
    history = History(tmp_path / "h.sqlite3", clock=lambda: now)
    for days, outcome in ((91, "accept"), (90.01, "decline"), (89.99, "accept"), (95, "pending"), (0.5, "expired")):
        history.insert(received=now - days * 86400, outcome=outcome, message=f"{days}")
    recorder = Recorder(None, None, privacy=Privacy(retention_days=90), clock=lambda: now)
    recorder.attach(history)  # pruned at start
    assert recorder.flush(30)
    assert [(r["message"], r["outcome"]) for r in history.rows()] == [
        ("0.5", "expired"),
        ("89.99", "accept"),
        ("95", "pending"),
    ]
    recorder.set_privacy(Privacy(retention_days=1))
    assert recorder.flush(30)
    assert [r["message"] for r in history.rows()] == ["0.5", "95"]
    assert recorder.set_privacy(Privacy(retention_days=0)) is None and history.prune(0) == 0


def test_export_json_and_csv_keep_a_field_with_a_comma_a_quote_and_a_newline(tmp_path):
    history = History(tmp_path / "h.sqlite3")
    history.insert(
        received=T0,
        answered=T0 + 2,
        duration_ms=2000,
        server="s,1",
        mode="form",
        message='say "hi",\nthen go',
        outcome="accept",
        fields=[{"name": "n", "title": "N", "secret": False, "value": 'a,"b"\nc'}],
        request_id="x",
    )
    rows = history.rows()
    assert json.loads(export_json(rows)) == [
        {
            "id": 1,
            "received": "2026-09-21T14:13:20.000Z",
            "shown": None,
            "answered": "2026-09-21T14:13:22.000Z",
            "duration_ms": 2000.0,
            "server": "s,1",
            "server_title": None,
            "server_version": None,
            "client": None,
            "process": None,
            "pid": None,
            "executable": None,
            "uid": None,
            "mode": "form",
            "message": 'say "hi",\nthen go',
            "fields": [{"name": "n", "title": "N", "secret": False, "value": 'a,"b"\nc'}],
            "url": None,
            "url_verdict": None,
            "url_reasons": None,
            "outcome": "accept",
            "detail": None,
            "request_id": "x",
            "key": None,
        }
    ]
    assert export_csv(rows) == (
        "id,received,shown,answered,duration_ms,server,server_title,server_version,client,process,pid,executable,"
        "uid,mode,message,fields,url,url_verdict,url_reasons,outcome,detail,request_id,key\r\n"
        '1,2026-09-21T14:13:20.000Z,,2026-09-21T14:13:22.000Z,2000.0,"s,1",,,,,,,,form,"say ""hi"",\nthen go",'
        '"[{""name"": ""n"", ""title"": ""N"", ""secret"": false, ""value"": ""a,\\""b\\""\\nc""}]",,,,accept,,x,\r\n'
    )
    import csv
    import io

    (header, record) = list(csv.reader(io.StringIO(export_csv(rows), newline="")))
    assert dict(zip(header, record, strict=True))["message"] == 'say "hi",\nthen go'


def test_filters_and_search(tmp_path):
    history = History(tmp_path / "h.sqlite3")
    for i, (server, outcome, message) in enumerate(
        [
            ("a", "accept", "Deploy"),
            ("b", "cancel-escape", "Delete x"),
            ("a", "cancel-button", "Book"),
            (None, "busy", None),
        ]
    ):
        history.insert(received=T0 + i * 86400, server=server, outcome=outcome, message=message)
    names = lambda rows: [r["id"] for r in rows]  # noqa: E731
    assert names(history.rows(server="a")) == [3, 1]
    assert names(history.rows(outcome="cancel-")) == [3, 2]
    assert names(history.rows(outcome="busy")) == [4]
    assert names(history.rows(since=T0 + 86400)) == [4, 3, 2]
    assert names(history.rows(search="DELETE")) == [2]
    assert names(history.rows(search="escape")) == [2]
    assert history.servers() == ["a", "b"]


def test_the_file_is_private_and_a_link_is_refused(tmp_path):
    path = tmp_path / "d" / "h.sqlite3"
    History(path).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    os.chmod(path, 0o644)
    History(path).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    link = tmp_path / "d" / "link.sqlite3"
    link.symlink_to(path)
    with pytest.raises(HistoryError, match="symbolic link"):
        History(link)


def test_paths_and_helpers(tmp_path, monkeypatch):
    monkeypatch.setenv("ELICIT_TRAY_HISTORY", "off")
    assert default_history_path() is None
    monkeypatch.setenv("ELICIT_TRAY_HISTORY", str(tmp_path / "x.db"))
    assert default_history_path() == tmp_path / "x.db"
    monkeypatch.delenv("ELICIT_TRAY_HISTORY")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_history_path() == tmp_path / "data" / "elicit-tray" / "history.sqlite3"
    assert history_url("mailto:a@b.example?subject=x") == "mailto:a@b.example"
    assert history_url("https://[::1]:99/a b?q=1", query=True) == "https://[::1]:99/a%20b?q=1"
    assert parse_since("2026-09-21T14:13:20Z") == T0
