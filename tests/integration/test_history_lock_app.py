"""The real tray app while another process (:class:`tests.lock_holder.LockHolder`) holds its
history database's write lock: requests and pings are answered while the lock is held, the
decision is in the history once it lets go, and a lock held through SIGTERM ends the app on
time with the request log's lines for what it could not write."""

from __future__ import annotations

import json

from tests import rpc
from tests.integration.test_history_app import ACCEPT_FORM, FORM, KEEP, history, outcomes_in, until
from tests.integration.tray_process import Conn, TrayProcess, short_tmpdir
from tests.lock_holder import LockHolder

ACCEPTED_ROW = {
    "server": "deployer",
    "client": "it",
    "mode": "form",
    "message": "Deploy web?",
    "fields": [
        {"name": "env", "title": "Environment", "secret": False, "value": "prd"},
        {"name": "password", "title": "Password", "secret": True},
    ],
    "url": None,
    "url_verdict": None,
    "url_reasons": None,
    "outcome": "accept",
    "detail": None,
}


def _tray(scratch, work, **env: str) -> TrayProcess:
    db = work / "data" / "history.sqlite3"
    return TrayProcess(
        work / "socket",
        ACCEPT_FORM,
        workdir=scratch,
        extra_args=("--arm-delay-ms", "0"),
        env={"ELICIT_TRAY_HISTORY": str(db), **env},
    ).start()


def test_the_app_answers_while_another_process_holds_the_lock_and_records_the_decision_after(module_scratch):
    work = short_tmpdir()
    db = work / "data" / "history.sqlite3"
    tray = _tray(module_scratch, work)
    try:
        with Conn(tray.sock) as conn:  # a first decision: the writer has done all it had to
            assert "result" in conn.call(1, "elicitation/create", FORM)
        until(lambda: db.exists() and outcomes_in(db) == ["accept"], "the first decision written")
        with LockHolder(db) as holder, Conn(tray.sock) as asking, Conn(tray.sock) as pinging:
            reply = asking.call(2, "elicitation/create", FORM)
            assert reply == rpc.result(2, {"action": "accept", "content": {"env": "prd", "password": "hunter2"}})
            assert pinging.call(3, "ping") == rpc.pong(3)
            assert holder.holding  # both answers came while the other process holds the lock
            assert outcomes_in(db) == ["accept"]  # readable, and the second not written yet
        until(lambda: outcomes_in(db) == ["accept", "accept"], "the decision written once the lock went")
    finally:
        assert tray.stop() == 0
    assert [{k: v for k, v in row.items() if k in KEEP} for row in history(db)] == [ACCEPTED_ROW, ACCEPTED_ROW]


def test_a_lock_held_through_sigterm_ends_the_app_on_time_and_logs_each_write_it_could_not_make(module_scratch):
    work = short_tmpdir()
    db = work / "data" / "history.sqlite3"
    log = work / "log.jsonl"
    tray = _tray(module_scratch, work, ELICIT_TRAY_LOG=str(log))
    try:
        with Conn(tray.sock) as conn:  # a first decision: the writer has done all it had to
            assert "result" in conn.call(1, "elicitation/create", FORM)
        until(lambda: db.exists() and outcomes_in(db) == ["accept"], "the first decision written")
        with LockHolder(db) as holder:
            with Conn(tray.sock) as conn:
                assert "result" in conn.call(2, "elicitation/create", FORM)
            assert tray.stop() == 0
            assert holder.holding  # the app ended (its 2 s flush bound) while the lock was still held
    finally:
        tray.kill()
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    key = next(e["key"] for e in lines if e["event"] == "elicitation" and e["id"] == 2)
    dropped = [{k: v for k, v in e.items() if k != "ts"} for e in lines if e["event"] == "history-dropped"]
    closing = {"reason": "closing", "limit_s": 2.0}
    assert dropped == [
        {"event": "history-dropped", "write": "arrival", "key": key, **closing},
        {"event": "history-dropped", "write": "shown", "key": key, **closing},
        {"event": "history-dropped", "write": "end", "key": key, "id": 2, "outcome": "accept", **closing},
    ]
    assert outcomes_in(db) == ["accept"]
