"""The decision history of the real tray app (issue 15): a kill -9 with a request pending, two
tray apps on one socket and one database, the privacy switches through ``serve`` options, and
``elicit-tray history --json`` after the headless demo."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.integration.tray_process import Conn, TrayProcess, short_tmpdir, tray_env

FORM = {
    "message": "Deploy web?",
    "requestedSchema": {
        "type": "object",
        "properties": {
            "env": {"type": "string", "title": "Environment", "enum": ["stg", "prd"]},
            "password": {"type": "string", "title": "Password"},
        },
    },
    "_meta": {"elicit-tray/requester": {"serverName": "deployer", "clientName": "it"}},
}
URL = {
    "mode": "url",
    "message": "Connect",
    "elicitationId": "e1",
    "url": "https://accounts.example.com/connect/start?token=s3cr3t#frag",
    "_meta": {"elicit-tray/requester": {"serverName": "github"}},
}
KEEP = ("server", "client", "mode", "message", "fields", "url", "url_verdict", "url_reasons", "outcome", "detail")


def history(path: Path, *args: str) -> list[dict[str, Any]]:
    """``elicit-tray history --json`` for the database at ``path``."""
    done = subprocess.run(
        [sys.executable, "-m", "elicit_tray", "history", "--json", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**tray_env(), "ELICIT_TRAY_HISTORY": str(path)},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def outcomes_in(path: Path, column: str = "outcome") -> list[Any]:
    """One column of every row, read without changing anything (read only)."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return [r[0] for r in db.execute(f"SELECT {column} FROM decisions ORDER BY id")]
    finally:
        db.close()


def until(condition: Any, what: str, timeout_s: float = 30.0) -> None:
    """Wait (bounded) until ``condition()`` holds; the check is the synchronisation."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)  # bounded poll: the condition is checked again every 20 ms


def test_kill_9_with_a_request_pending_leaves_a_row_that_reads_interrupted(module_scratch):
    work = short_tmpdir()
    db = work / "data" / "history.sqlite3"
    tray = TrayProcess(
        work / "run" / "socket", None, workdir=module_scratch, env={"ELICIT_TRAY_HISTORY": str(db)}
    ).start()
    try:
        with Conn(tray.sock) as conn:
            conn.request(1, "elicitation/create", FORM)  # nobody answers: the dialog stays
            until(
                lambda: db.exists() and outcomes_in(db) == ["pending"] and outcomes_in(db, "shown") != [None],
                "the pending row of the dialog shown",
            )
            tray.proc.kill()  # type: ignore[union-attr]  # SIGKILL
            tray.proc.wait(timeout=30)  # type: ignore[union-attr]
    finally:
        tray.kill()
    assert outcomes_in(db) == ["pending"]  # as the killed app left it
    again = TrayProcess(
        work / "run" / "socket", None, workdir=module_scratch, env={"ELICIT_TRAY_HISTORY": str(db)}
    ).start()
    try:
        assert outcomes_in(db) == ["interrupted"]
    finally:
        assert again.stop() == 0
    (row,) = history(db)
    assert {k: row[k] for k in KEEP} == {
        "server": "deployer",
        "client": "it",
        "mode": "form",
        "message": "Deploy web?",
        "fields": [
            {"name": "env", "title": "Environment", "secret": False},
            {"name": "password", "title": "Password", "secret": True},
        ],
        "url": None,
        "url_verdict": None,
        "url_reasons": None,
        "outcome": "interrupted",
        "detail": None,
    }
    assert row["answered"] is None and row["shown"] is not None and row["pid"] and row["process"]


def test_a_second_tray_app_exits_before_it_opens_the_database(module_scratch):
    work = short_tmpdir()
    db = work / "data" / "history.sqlite3"
    other_db = work / "data" / "other.sqlite3"
    first = TrayProcess(
        work / "run" / "socket", None, workdir=module_scratch, env={"ELICIT_TRAY_HISTORY": str(db)}
    ).start()
    try:
        with Conn(first.sock) as conn:
            conn.request(1, "elicitation/create", FORM)
            until(lambda: db.exists() and outcomes_in(db) == ["pending"], "the pending row")
            for path in (db, other_db):  # the same database, and one that does not exist yet
                second = TrayProcess(first.sock, None, workdir=module_scratch, env={"ELICIT_TRAY_HISTORY": str(path)})
                assert second.spawn().wait() == 3, second.stderr
            # Had the second app opened the database, the first one's pending row would read
            # "interrupted", and the other database would exist.
            assert outcomes_in(db) == ["pending"]
            assert not other_db.exists()
    finally:
        assert first.stop() == 0
    assert [r["outcome"] for r in history(db)] == ["expired"]


def _answered(
    db: Path, *args: str, plan: list[dict[str, Any]], params: dict[str, Any], scratch: Path
) -> dict[str, Any]:
    work = short_tmpdir()
    tray = TrayProcess(
        work / "socket",
        plan,
        workdir=scratch,
        extra_args=("--arm-delay-ms", "0", *args),
        env={"ELICIT_TRAY_HISTORY": str(db)},
    ).start()
    try:
        with Conn(tray.sock) as conn:
            reply = conn.call(1, "elicitation/create", params)
            assert "result" in reply, reply
    finally:
        assert tray.stop() == 0
    return {k: v for k, v in history(db)[0].items() if k in KEEP}


ACCEPT_FORM = [
    {
        "match": "",
        "steps": [
            {"do": "pick", "field": "env", "option": "prd"},
            {"do": "type", "field": "password", "text": "hunter2"},
            {"do": "submit"},
        ],
    }
]
ACCEPT_URL = [{"match": "", "steps": [{"do": "open"}]}]


def test_values_are_kept_by_default_but_never_a_secret_looking_one(module_scratch):
    row = _answered(module_scratch / "a.sqlite3", plan=ACCEPT_FORM, params=FORM, scratch=module_scratch)
    assert (row["outcome"], row["fields"]) == (
        "accept",
        [
            {"name": "env", "title": "Environment", "secret": False, "value": "prd"},
            {"name": "password", "title": "Password", "secret": True},
        ],
    )


def test_no_history_values_keeps_titles_only(module_scratch):
    row = _answered(
        module_scratch / "b.sqlite3", "--no-history-values", plan=ACCEPT_FORM, params=FORM, scratch=module_scratch
    )
    assert (row["outcome"], row["fields"]) == (
        "accept",
        [
            {"name": "env", "title": "Environment", "secret": False},
            {"name": "password", "title": "Password", "secret": True},
        ],
    )


NOTE_FORM = {
    "message": "Book it?",
    "requestedSchema": {
        "type": "object",
        "properties": {
            "seats": {"type": "integer", "title": "Seats"},
            "note": {"type": "string", "title": "Note"},
            "otp": {"type": "string", "title": "One-time code"},
        },
    },
    "_meta": {"elicit-tray/requester": {"serverName": "shop"}},
}
ACCEPT_NOTE = [
    {
        "match": "",
        "steps": [
            {"do": "type", "field": "seats", "text": "2"},
            {"do": "type", "field": "note", "text": "window seat"},
            {"do": "type", "field": "otp", "text": "482913"},
            {"do": "submit"},
        ],
    }
]


def test_free_text_is_kept_only_with_history_text_and_never_a_secret(module_scratch):
    runs = {
        flag: _answered(
            module_scratch / f"t{i}.sqlite3", *flag, plan=ACCEPT_NOTE, params=NOTE_FORM, scratch=module_scratch
        )
        for i, flag in enumerate([(), ("--history-text",)])
    }
    assert {flag: (row["outcome"], row["fields"]) for flag, row in runs.items()} == {
        (): (
            "accept",
            [
                {"name": "seats", "title": "Seats", "secret": False, "value": 2},
                {"name": "note", "title": "Note", "secret": False},
                {"name": "otp", "title": "One-time code", "secret": True},
            ],
        ),
        ("--history-text",): (
            "accept",
            [
                {"name": "seats", "title": "Seats", "secret": False, "value": 2},
                {"name": "note", "title": "Note", "secret": False, "value": "window seat"},
                {"name": "otp", "title": "One-time code", "secret": True},
            ],
        ),
    }


def test_query_strings_are_kept_only_with_history_query(module_scratch):
    row = _answered(module_scratch / "c.sqlite3", plan=ACCEPT_URL, params=URL, scratch=module_scratch)
    assert (row["url"], row["url_verdict"], row["outcome"]) == (
        "https://accounts.example.com/connect/start",
        "ok",
        "accept",
    )
    row = _answered(
        module_scratch / "d.sqlite3", "--history-query", plan=ACCEPT_URL, params=URL, scratch=module_scratch
    )
    assert row["url"] == "https://accounts.example.com/connect/start?token=s3cr3t#frag"


def test_no_history_writes_no_row(module_scratch):
    db = module_scratch / "e.sqlite3"
    work = short_tmpdir()
    tray = TrayProcess(
        work / "socket",
        ACCEPT_FORM,
        workdir=module_scratch,
        extra_args=("--arm-delay-ms", "0", "--no-history"),
        env={"ELICIT_TRAY_HISTORY": str(db)},
    ).start()
    try:
        with Conn(tray.sock) as conn:
            assert "result" in conn.call(1, "elicitation/create", FORM)
    finally:
        assert tray.stop() == 0
    assert history(db) == []


def test_the_history_after_the_headless_demo_lists_its_decisions(module_scratch):
    db = module_scratch / "demo.sqlite3"
    env = {**tray_env(), "ELICIT_TRAY_HISTORY": str(db)}
    done = subprocess.run(
        [sys.executable, "-m", "elicit_tray", "demo", "--headless", "--out", str(module_scratch / "demo-out")],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        cwd=module_scratch,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    rows = list(reversed(history(db)))
    booking = [{"name": "confirm", "title": "confirm", "secret": False, "value": True}]
    deploy = lambda env, **more: [  # noqa: E731
        {"name": "environment", "title": "Environment", "secret": False, "value": env},
        {"name": "notify", "title": "Notify the on-call channel", "secret": False, "value": True},
        {"name": "window", "title": "Deploy at", "secret": False},
    ]
    got = [(r["server"], r["mode"], r["message"], r["outcome"], r["fields"], r["url"]) for r in rows]
    url = "https://auth.example.com/connect"
    # Ten decisions through mcp.Client (legacy, then 2026-07-28), then the one through wrap.
    assert got == [
        ("elicit-tray-demo", "form", "Please confirm your booking.", "accept", booking, None),
        ("elicit-tray-demo", "form", "Confirm the deployment", "accept", deploy("prd"), None),
        (
            "elicit-tray-demo",
            "form",
            "Delete project prj_123? This cannot be undone.",
            "decline",
            [
                {"name": "confirm", "title": "I understand this is permanent", "secret": False},
                {"name": "retention", "title": "Backup retention", "secret": False},
            ],
            None,
        ),
        (
            "elicit-tray-demo",
            "form",
            "How was the demo?",
            "accept",
            [
                {"name": "rating", "title": "Rating (1-5)", "secret": False, "value": 5},
                {"name": "comment", "title": "Comment", "secret": False},  # typed text: kept only with --history-text
            ],
            None,
        ),
        ("elicit-tray-demo", "url", "Authorize access to your calendar.", "accept", None, url),
        (
            "elicit-tray-demo",
            "form",
            "Please confirm your booking.",
            "cancel-escape",
            [{"name": "confirm", "title": "confirm", "secret": False}],
            None,
        ),
        ("elicit-tray-demo", "form", "Confirm the deployment", "accept", deploy("stg"), None),
        (
            "elicit-tray-demo",
            "form",
            "Delete project prj_123? This cannot be undone.",
            "accept",
            [
                {"name": "confirm", "title": "I understand this is permanent", "secret": False, "value": True},
                {"name": "retention", "title": "Backup retention", "secret": False, "value": "7d"},
            ],
            None,
        ),
        (
            "elicit-tray-demo",
            "form",
            "How was the demo?",
            "accept",
            [
                {"name": "rating", "title": "Rating (1-5)", "secret": False, "value": 4.5},
                {"name": "comment", "title": "Comment", "secret": False},
            ],
            None,
        ),
        ("elicit-tray-demo", "url", "Authorize access to your calendar.", "decline", None, url),
        ("elicit-tray-demo", "form", "Please confirm your booking.", "accept", booking, None),
    ]
    assert [r["client"] for r in rows[:10]] == ["elicit-tray demo"] * 10
    assert rows[10]["client"].startswith("elicit-tray wrap (pid ")
    text = subprocess.run(
        [sys.executable, "-m", "elicit_tray", "history", "--outcome", "cancel"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert text.returncode == 0 and text.stdout.count("\n") == 1
    assert text.stdout.split("  ", 1)[1] == "cancel-escape   elicit-tray-demo  form  Please confirm your booking.\n"
    assert os.stat(db).st_mode & 0o777 == 0o600
