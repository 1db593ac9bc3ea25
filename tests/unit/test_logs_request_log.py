"""The structured request log (elicit_tray.logs): one JSON line per request, values only on request.

README "IPC contract" / issue 5 "Observability": request key and id, requester pid and process
name, server name, mode, outcome kind and timings; field values, messages and URL query strings
only with ``--log-values``.
"""

from __future__ import annotations

import asyncio
import json
import stat
from pathlib import Path
from typing import Any

import pytest

from elicit_tray.ipc.protocol import Dispatcher, UiFunctions
from elicit_tray.logs import ENV_LOG, LOG_BACKUPS, MAX_LOG_BYTES, Journal, default_log_path, redact_url
from elicit_tray.request import Accepted, Cancelled, Declined, ElicitationRequest, Failed, Peer
from tests.fakes import FakeChannel
from tests.rpc import create_line

PEER = Peer(pid=4242, uid=1000, process_name="test-requester")
SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}, "pin": {"type": "integer"}}}
URL = "https://user:pw@accounts.example.com:8443/connect/start?token=s3cr3t&x=1#frag"


def read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def drive(
    journal: Journal, outcomes: dict[str, Any], lines: list[bytes], *, hold: bool = False, after: Any = None
) -> None:
    async def handler(request: ElicitationRequest) -> Any:
        outcome = outcomes.get(request.message)
        if outcome is None:
            await asyncio.Event().wait()
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    async def main() -> None:
        d = Dispatcher(UiFunctions(handler), version="t", journal=journal)
        ch = FakeChannel(PEER)
        d.connection_made(ch)
        for data in lines:
            d.data_received(ch, data)
            for _ in range(4):
                await asyncio.sleep(0)
        if after is not None:
            after(d, ch)
        d.connection_lost(ch)
        for _ in range(4):
            await asyncio.sleep(0)

    asyncio.run(main())
    journal.close()


def strip_timing(entry: dict[str, Any]) -> dict[str, Any]:
    entry = dict(entry)
    assert entry.pop("ts").endswith("Z")
    for key in ("ms", "parse_ms"):
        if key in entry:
            assert isinstance(entry[key], (int, float)) and 0 <= entry[key] < 10_000
            del entry[key]
    key = entry.pop("key", None)
    assert key is None or key.startswith("r")
    return entry


#: The smallest form (what a request that only needs a place in the queue sends).
CONFIRM = {"message": "m", "requestedSchema": {"type": "object", "properties": {}}}


def form(message: str, schema: dict[str, Any] = SCHEMA) -> dict[str, Any]:
    return {
        "message": message,
        "requestedSchema": schema,
        "_meta": {"elicit-tray/requester": {"serverName": "srv", "clientName": "cli"}},
    }


#: The process as the OS reports it (Peer.label), the line the dialog shows; its executable is
#: not known to this fake peer, so its own name is marked as such.
PROCESS = "test-requester (pid 4242), as the process names itself; its executable is unknown"
WHO = {"pid": 4242, "process": PROCESS, "uid": 1000}


def test_every_outcome_kind_is_one_line_without_values(tmp_path: Path) -> None:
    path = tmp_path / "log" / "tray.log.jsonl"
    outcomes = {
        "a": Accepted({"name": "Ada Lovelace", "pin": 1234}),
        "d": Declined(),
        "e": Cancelled("escape"),
        "c": Cancelled("close"),
        "f": Failed("no display"),
        "x": RuntimeError("boom"),
        "u": Accepted(),
    }
    lines = [
        create_line(1, form("a")),
        create_line(2, form("d")),
        create_line(3, form("e")),
        create_line(4, form("c")),
        create_line(5, form("f")),
        create_line(6, form("x")),
        create_line(7, {"mode": "url", "message": "u", "url": URL, "elicitationId": "e1"}),
        create_line(8, form("held")),
        create_line(9, form("gone")),
        b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8}}\n',
        create_line(10, {"message": "bad", "requestedSchema": {"type": "array"}}),
        b'{"jsonrpc":"2.0","id":11,"result":{}}\n',
    ]
    drive(Journal(path), outcomes, lines)
    base = {"event": "elicitation", **WHO, "server": "srv", "client": "cli", "mode": "form"}
    got = [strip_timing(e) for e in read(path)]
    assert got == [
        {**base, "id": 1, "outcome": "accept", "fields": ["name", "pin"]},
        {**base, "id": 2, "outcome": "decline"},
        {**base, "id": 3, "outcome": "cancel-escape"},
        {**base, "id": 4, "outcome": "cancel-close"},
        {**base, "id": 5, "outcome": "error", "code": -32603, "error": "no display"},
        {**base, "id": 6, "outcome": "error", "code": -32603, "error": "internal error: boom"},
        {
            "event": "elicitation",
            **WHO,
            "id": 7,
            "mode": "url",
            "outcome": "accept",
            "url": "https://accounts.example.com:8443/connect/start?…#…",
        },
        {**base, "id": 8, "outcome": "expired", "reason": "cancelled"},
        {
            "event": "elicitation",
            **WHO,
            "id": 10,
            "mode": "form",
            "outcome": "invalid",
            "code": -32602,
            "violations": ["/requestedSchema/type", "/requestedSchema/properties"],
        },
        {"event": "ignored-response", "id": 11, "pid": 4242, "process": PROCESS},
        {**base, "id": 9, "outcome": "expired", "reason": "disconnected"},
    ]
    text = path.read_text(encoding="utf-8")
    for secret in ("Ada", "1234", "s3cr3t", "token", "frag", "user:pw", "pw@"):
        assert secret not in text
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_log_values_adds_content_message_and_the_full_url(tmp_path: Path) -> None:
    path = tmp_path / "tray.log.jsonl"
    outcomes = {"a": Accepted({"name": "Ada Lovelace", "pin": 1234}), "u": Accepted()}
    drive(
        Journal(path, log_values=True),
        outcomes,
        [
            create_line(1, form("a")),
            create_line(2, {"mode": "url", "message": "u", "url": URL, "elicitationId": "e1"}),
        ],
    )
    first, second = (strip_timing(e) for e in read(path))
    assert first["content"] == {"name": "Ada Lovelace", "pin": 1234} and first["message"] == "a"
    assert second["url"] == URL and second["message"] == "u"


def test_busy_and_shutdown_are_logged(tmp_path: Path) -> None:
    path = tmp_path / "tray.log.jsonl"
    lines = [b"".join(create_line(i, CONFIRM) for i in range(16)), create_line("over", CONFIRM)]
    drive(Journal(path), {}, lines, after=lambda d, _ch: d.shutdown("bye"))
    got = [strip_timing(e) for e in read(path)]
    assert got[0] == {
        "event": "elicitation",
        **WHO,
        "id": "over",
        "outcome": "busy",
        "code": -32000,
        "scope": "connection",
    }
    assert sorted(e["id"] for e in got[1:]) == list(range(16))
    assert all(e["outcome"] == "error" and e["reason"] == "shutdown" and e["code"] == -32603 for e in got[1:])


def test_the_log_rotates_at_its_size_and_keeps_three_old_files(tmp_path: Path) -> None:
    path = tmp_path / "tray.log.jsonl"
    journal = Journal(path)
    for i in range(MAX_LOG_BYTES * (LOG_BACKUPS + 2) // 500):
        journal.record("filler", n=i, pad="x" * 450)
    journal.close()
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["tray.log.jsonl", "tray.log.jsonl.1", "tray.log.jsonl.2", "tray.log.jsonl.3"]
    assert all(p.stat().st_size <= MAX_LOG_BYTES for p in tmp_path.iterdir())
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in tmp_path.iterdir())


def test_the_log_path_is_the_state_dir_unless_the_environment_says_otherwise(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(ENV_LOG, raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert default_log_path() == tmp_path / "state" / "elicit-tray" / "tray.log.jsonl"
    monkeypatch.setenv(ENV_LOG, str(tmp_path / "x.jsonl"))
    assert default_log_path() == tmp_path / "x.jsonl"
    monkeypatch.setenv(ENV_LOG, "off")
    assert default_log_path() is None
    Journal(None).record("nothing")  # a disabled journal writes nothing and does not fail


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://example.com/a/b?q=1", "https://example.com/a/b?…"),
        ("https://example.com", "https://example.com"),
        ("http://[::1]:8080/cb#x", "http://[::1]:8080/cb#…"),
        ("mailto:someone@example.com?subject=x", "mailto:…"),
        ("https://example.com:99999/", "<unparseable>"),
    ],
)
def test_redact_url_drops_user_info_query_and_fragment(url: str, shown: str) -> None:
    assert redact_url(url) == shown
