"""The history never blocks and never floods: writes go to the writer thread while another
process (a real one: :class:`tests.lock_holder.LockHolder`) holds the database's lock, land
exactly once it lets go, are dropped with one exact request-log line past their bounds, are
flushed at close; a row's texts are cut exactly and the file stays under its bounds."""

from __future__ import annotations

import asyncio
import functools
import io
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from elicit_tray.elicitation import parse_elicit_params
from elicit_tray.history import History, Recorder, print_history
from elicit_tray.history.store import MAX_JSON_TEXT_CHARS, MAX_TEXT_CHARS, bounded, cut, is_busy
from elicit_tray.history.writer import Writer
from elicit_tray.ipc.protocol import Dispatcher, UiFunctions
from elicit_tray.logs import Journal
from elicit_tray.request import Accepted, ElicitationRequest
from tests.fakes import FakeChannel
from tests.lock_holder import LockHolder
from tests.rpc import cancelled, create_line, line, ping_line, pong
from tests.unit.test_history import FORM, PEER, Clock, row, ts

ACCEPTED = {"env": "prd", "api_token": "tok-123", "note": "n"}


def the_row(key: str, **more: Any) -> dict[str, Any]:
    """The row of FORM accepted with ACCEPTED, received at ts(1), shown ts(2), answered ts(3)."""
    values: dict[str, Any] = dict(
        id=1,
        received=ts(1),
        shown=ts(2),
        answered=ts(3),
        duration_ms=2000.0,
        server="deployer",
        server_title="Deployer",
        server_version="1.2",
        client="agent",
        process="/usr/bin/requester (pid 4242)",  # Peer.label: what the OS reports
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
        key=key,
    )
    values.update(more)
    return row(**values)


def recorder_on(tmp_path: Path, **bounds: Any) -> tuple[Recorder, History, Path]:
    """A recorder over ``h.sqlite3`` with the request log ``log.jsonl`` and a writer with
    ``bounds`` (max_wait_s, max_queued, close_wait_s, opener...)."""
    clock = Clock()
    history = History(tmp_path / "h.sqlite3", clock=clock)
    journal = Journal(tmp_path / "log.jsonl")
    return Recorder(journal, history, clock=clock, writer=functools.partial(Writer, **bounds)), history, tmp_path


def dropped_lines(tmp_path: Path) -> list[dict[str, Any]]:
    lines = [json.loads(x) for x in (tmp_path / "log.jsonl").read_text().splitlines()]
    out = []
    for entry in lines:
        if entry["event"] == "history-dropped":
            entry.pop("ts")
            out.append(entry)
    return out


class Requester:
    """The dispatcher with ``recorder`` as the app wires it, a handler that shows each dialog
    and answers with ``answers`` in order (None: never answers), over two connections."""

    def __init__(self, recorder: Recorder, answers: list[Any]):
        self.recorder = recorder
        self.answers = list(answers)
        self.asking = FakeChannel(PEER)
        self.pinging = FakeChannel(PEER)

    async def handler(self, request: ElicitationRequest) -> Any:
        answer = self.answers.pop(0)
        if answer is None:
            await asyncio.Event().wait()
        self.recorder.shown(request.key)
        return answer

    async def start(self) -> None:
        self.dispatcher = Dispatcher(self.recorder.watch(UiFunctions(self.handler)), version="t", journal=self.recorder)  # type: ignore[arg-type]
        self.dispatcher.connection_made(self.asking)
        self.dispatcher.connection_made(self.pinging)

    async def feed(self, channel: FakeChannel, data: bytes) -> None:
        self.dispatcher.data_received(channel, data)
        for _ in range(5):
            await asyncio.sleep(0)


def test_under_another_process_s_write_lock_pings_are_answered_and_the_decision_lands_once_it_lets_go(tmp_path):
    recorder, history, _ = recorder_on(tmp_path)
    requester = Requester(recorder, [Accepted(dict(ACCEPTED))])
    holder = LockHolder(tmp_path / "h.sqlite3")

    async def main() -> tuple[list[Any], list[Any], bool, list[Any]]:
        await requester.start()
        await requester.feed(requester.asking, create_line(7, FORM))
        await requester.feed(requester.pinging, ping_line(1))
        held = holder.holding  # the answers came while the other process still holds the lock
        return list(requester.asking.sent), list(requester.pinging.sent), held, history.rows()

    answered, pinged, held, before = asyncio.run(main())
    assert answered == [{"jsonrpc": "2.0", "id": 7, "result": {"action": "accept", "content": ACCEPTED}}]
    assert (pinged, held, before) == ([pong(1)], True, [])  # read under the lock: not written yet
    holder.release()
    assert recorder.flush(30)
    (got,) = history.rows()
    assert got == the_row(got["key"])
    assert dropped_lines(tmp_path) == []


def test_a_lock_held_past_the_limit_drops_each_write_with_one_exact_request_log_line(tmp_path):
    recorder, history, _ = recorder_on(tmp_path, max_wait_s=0.2)
    requester = Requester(recorder, [Accepted(dict(ACCEPTED))])
    with LockHolder(tmp_path / "h.sqlite3") as holder:

        async def main() -> None:
            await requester.start()
            await requester.feed(requester.asking, create_line(7, FORM))

        asyncio.run(main())
        assert recorder.flush(30)  # every write given up on while the lock is still held
        assert holder.holding
    # the dialog's time on screen had no row to go to: it is part of the end's whole row, lost with it
    logged = [json.loads(x) for x in (tmp_path / "log.jsonl").read_text().splitlines()]
    key = next(e["key"] for e in logged if e["event"] == "elicitation")
    assert dropped_lines(tmp_path) == [
        {"event": "history-dropped", "write": "arrival", "key": key, "reason": "locked", "limit_s": 0.2},
        {
            "event": "history-dropped",
            "write": "end",
            "key": key,
            "id": 7,
            "outcome": "accept",
            "reason": "locked",
            "limit_s": 0.2,
        },
    ]
    assert history.rows() == []


def test_an_arrival_row_dropped_under_the_lock_is_written_whole_when_the_request_ends(tmp_path):
    recorder, history, _ = recorder_on(tmp_path, max_wait_s=0.2)
    request = parse_elicit_params(FORM, PEER)
    with LockHolder(tmp_path / "h.sqlite3"):
        recorder.arrived(request)
        recorder.shown(request.key)
        assert recorder.flush(30)
    assert [e["write"] for e in dropped_lines(tmp_path)] == ["arrival"]  # "shown" waits for the end's row
    recorder.record("elicitation", id=7, key=request.key, outcome="accept", content=dict(ACCEPTED))
    assert recorder.flush(30)
    assert history.rows() == [the_row(request.key)]


def test_close_writes_what_is_queued_and_under_a_lock_it_stops_at_its_bound_with_the_log_lines(tmp_path):
    recorder, _, _ = recorder_on(tmp_path)
    request = parse_elicit_params(FORM, PEER)
    recorder.arrived(request)
    recorder.shown(request.key)
    recorder.record("elicitation", id=7, key=request.key, outcome="accept", content=dict(ACCEPTED))
    recorder.close()  # no flush first: close writes the queue
    assert History(tmp_path / "h.sqlite3").rows() == [the_row(request.key)]

    locked = tmp_path / "locked"
    locked.mkdir()
    recorder, history, _ = recorder_on(locked, close_wait_s=0.3)
    request = parse_elicit_params(FORM, PEER)
    with LockHolder(locked / "h.sqlite3") as holder:
        recorder.arrived(request)
        recorder.close()
        assert holder.holding  # close returned while the lock is still held
    assert dropped_lines(locked) == [
        {"event": "history-dropped", "write": "arrival", "key": request.key, "reason": "closing", "limit_s": 0.3}
    ]
    assert History(locked / "h.sqlite3").rows() == []


def test_a_full_queue_drops_the_new_write_with_its_line(tmp_path):
    recorder, history, _ = recorder_on(tmp_path, max_queued=2)
    requests = [parse_elicit_params(FORM, PEER) for _ in range(3)]
    with LockHolder(tmp_path / "h.sqlite3"):
        for request in requests:
            recorder.arrived(request)
        assert dropped_lines(tmp_path) == [
            {"event": "history-dropped", "write": "arrival", "key": requests[2].key, "reason": "queue-full", "limit": 2}
        ]
    assert recorder.flush(30)
    assert [r["key"] for r in history.rows()] == [requests[1].key, requests[0].key]


def test_opened_while_another_process_holds_the_whole_file_the_history_opens_and_writes_when_it_lets_go(tmp_path):
    path = tmp_path / "h.sqlite3"
    earlier = History(path)
    earlier.insert(received=1.0, outcome="pending", message="from a run that died")
    earlier.close()
    with LockHolder(path, "all"):
        history = History(path)  # does not raise: opens later
        assert history.ready is False
        with pytest.raises(sqlite3.OperationalError) as locked:
            history.rows()
        assert is_busy(locked.value)
        out, err = io.StringIO(), io.StringIO()
        import contextlib

        with contextlib.redirect_stderr(err):
            assert print_history(path=path, out=out) == 1
        assert (out.getvalue(), err.getvalue()) == (
            "",
            f"elicit-tray history: cannot read {path}: database is locked\n",
        )
        recorder = Recorder(None, history, clock=Clock())
        request = parse_elicit_params(FORM, PEER)
        recorder.arrived(request)
    assert recorder.flush(30)
    assert [(r["outcome"], r["message"]) for r in history.rows()] == [
        ("pending", "Deploy web?"),
        ("interrupted", "from a run that died"),  # marked by the writer's open, not this run's row
    ]


def _flood_params(number: int) -> dict[str, Any]:
    properties = {f"f{i:03d}": {"type": "string", "title": f"{number:02d}:{i:03d}:" + "t" * 993} for i in range(256)}
    return {
        "message": f"{number:05d}" + "m" * 9_995,
        "requestedSchema": {"type": "object", "properties": properties},
    }


def test_a_flood_of_withdrawn_giant_forms_keeps_rows_cut_exactly_and_the_file_under_its_bound(tmp_path):
    bound = 1024 * 1024
    recorder, history, _ = recorder_on(tmp_path, opener=functools.partial(History, max_bytes=bound))
    count = 60
    requester = Requester(recorder, [None] * count)

    async def main() -> None:
        await requester.start()
        for number in range(1, count + 1):
            await requester.feed(requester.asking, create_line(number, _flood_params(number)))
            await requester.feed(requester.asking, line(cancelled(number)))

    asyncio.run(main())
    assert recorder.flush(60)
    rows = history.rows()
    newest = rows[0]
    assert newest["message"] == "00060" + "m" * (MAX_TEXT_CHARS - 5 - 19) + "…[10000 characters]"
    assert len(newest["message"]) == MAX_TEXT_CHARS
    # 256 titles of 1,000 characters: cut at 200, then (the list still over 16,000) 100, 50, 32
    assert newest["fields"] == [
        {"name": f"f{i:03d}", "title": f"60:{i:03d}:" + "t" * 7 + "…[1000 characters]", "secret": False}
        for i in range(256)
    ]
    assert (newest["outcome"], newest["detail"], newest["shown"]) == ("expired", "cancelled", None)
    assert history.used_bytes() <= bound
    assert (tmp_path / "h.sqlite3").stat().st_size <= bound + 256 * 1024
    ids = [r["id"] for r in rows]
    assert ids == list(range(count, count - len(ids), -1)) and len(ids) < count  # the oldest went


def test_cut_marks_the_original_length_and_cutting_again_changes_nothing():
    assert cut("a" * 40, 40) == "a" * 40
    assert cut("a" * 41, 40) == "a" * 24 + "…[41 characters]"
    assert cut(cut("a" * 41, 40), 40) == cut("a" * 41, 40)
    values = {
        "message": "é" * 3000,
        "url": "https://x.example/" + "p" * 3000,
        "fields": [{"name": "n", "title": "T" * 300, "secret": False, "value": ["v" * 250, 3, True]}],
        "pid": 7,
    }
    once = bounded(values)
    assert once == {
        "message": "é" * (MAX_TEXT_CHARS - 18) + "…[3000 characters]",
        "url": ("https://x.example/" + "p" * 3000)[: MAX_TEXT_CHARS - 18] + "…[3018 characters]",
        "fields": [
            {
                "name": "n",
                "title": "T" * (MAX_JSON_TEXT_CHARS - 17) + "…[300 characters]",
                "secret": False,
                "value": ["v" * (MAX_JSON_TEXT_CHARS - 17) + "…[250 characters]", 3, True],
            }
        ],
        "pid": 7,
    }
    assert bounded(once) == once


def test_over_its_row_bound_the_history_deletes_the_never_shown_rows_first_then_the_oldest(tmp_path):
    history = History(tmp_path / "h.sqlite3", max_rows=4)
    for number, (shown, outcome) in enumerate(
        [(1.0, "accept"), (None, "expired"), (1.0, "decline"), (None, "pending"), (None, "busy")], start=1
    ):
        history.insert(received=float(number), shown=shown, outcome=outcome, message=str(number))
    assert [r["message"] for r in history.rows()] == ["5", "4", "3", "1"]  # 2: never shown, finished
    history.insert(received=6.0, shown=1.0, outcome="accept", message="6")
    assert [r["message"] for r in history.rows()] == ["6", "4", "3", "1"]  # 5 (never shown) next
    history.insert(received=7.0, shown=1.0, outcome="accept", message="7")
    assert [r["message"] for r in history.rows()] == ["7", "6", "4", "3"]  # then the oldest; pending stays


def test_a_refused_request_and_a_new_retention_wait_for_the_lock_and_apply_after_it(tmp_path):
    recorder, history, _ = recorder_on(tmp_path)
    history.insert(received=Clock().now - 30 * 86400, outcome="decline", message="a month old")
    from elicit_tray.history import Privacy

    with LockHolder(tmp_path / "h.sqlite3") as holder:
        recorder.record("elicitation", id=3, outcome="busy", code=-32000, scope="total", server="s", mode="form")
        recorder.set_privacy(Privacy(retention_days=7))
        assert holder.holding and [r["message"] for r in history.rows()] == ["a month old"]  # nothing yet
    assert recorder.flush(30)
    assert [(r["request_id"], r["outcome"], r["detail"], r["server"]) for r in history.rows()] == [
        (3, "busy", "code -32000; total", "s")
    ]
    assert dropped_lines(tmp_path) == []


def test_a_write_sqlite_refuses_is_dropped_with_what_sqlite_said(tmp_path):
    recorder, history, _ = recorder_on(tmp_path)
    recorder.record("elicitation", id=3, outcome="busy", code=-32000, scope="total", mode="form")
    assert recorder.flush(30) and len(history.rows()) == 1  # the writer's connection is open
    other = sqlite3.connect(tmp_path / "h.sqlite3")
    other.execute("DROP TABLE decisions")  # another program broke the file
    other.commit()
    other.close()
    recorder.record("elicitation", id=4, outcome="invalid", violations=["/x"], mode="form")
    assert recorder.flush(30)
    assert dropped_lines(tmp_path) == [
        {
            "event": "history-dropped",
            "write": "refused",
            "id": 4,
            "outcome": "invalid",
            "reason": "error",
            "error": "no such table: decisions",
        }
    ]
