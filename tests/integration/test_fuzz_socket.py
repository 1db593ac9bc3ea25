"""A raw-socket stream fuzzer against the real tray app, bounded in count and time.

Several connections each write a seeded random mix of well-formed requests (ids ``"fz-<c>-<n>"``)
and hostile lines (random bytes, NULs, invalid UTF-8, deep nesting, huge numbers, duplicate
keys, an oversized line, responses), cut into random chunks. Every well-formed request gets
exactly one response, the app does not crash, and ``ping`` answers at the end.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from elicit_tray.ipc.jsonrpc import MAX_LINE_BYTES

from .test_hostile import HostileTray
from .tray_process import Conn

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Unix sockets")

SEED = 5_2026
CONNECTIONS = 6
LINES_PER_CONNECTION = 250
TIME_BUDGET_S = 25.0
PLAN = [{"match": "decline", "steps": [{"do": "decline"}]}, {"match": "", "steps": [{"do": "submit"}]}]

HOSTILE = [
    b"\x00\x00",
    b"\xff\xfe\xfd",
    b"{",
    b"}",
    b"[]",
    b"null",
    b'"x"',
    b"[" * 3000,
    b'{"a":' * 3000,
    b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"n":1e999}}',
    b'{"jsonrpc":"2.0","id":2,"method":"ping","params":{"n":' + b"9" * 400 + b"}}",
    b'{"jsonrpc":"2.0","id":3,"id":4,"method":"ping"}',
    b'{"jsonrpc":"2.0","id":5,"result":{"action":"accept"}}',
    b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":[1]}}',
    b'{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":7}}',
    b'{"jsonrpc":"1.0","id":6,"method":"ping"}',
    b'{"jsonrpc":"2.0","id":true,"method":"ping"}',
    b'{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"message":"a\\u0000"}}',
]


def wellformed(rng: random.Random, rid: str) -> bytes:
    kind = rng.choice(["ping", "info", "create", "decline", "invalid", "url", "unknown", "bad-params"])
    msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid}
    if kind == "ping":
        msg["method"] = "ping"
    elif kind == "info":
        msg["method"] = "elicit-tray/info"
    elif kind in ("create", "decline"):
        msg["method"] = "elicitation/create"
        msg["params"] = {
            "message": f"{kind} {rid}",
            "requestedSchema": {"type": "object", "properties": {"t": {"type": "string", "default": rid}}},
        }
    elif kind == "invalid":
        msg["method"] = "elicitation/create"
        msg["params"] = {
            "message": "x",
            "requestedSchema": {"type": "object", "properties": {"o": {"type": "object"}}, "required": [1]},
        }
    elif kind == "url":
        msg["method"] = "elicitation/create"
        msg["params"] = {
            "mode": "url",
            "message": f"decline {rid}",
            "elicitationId": rid,
            "url": rng.choice(["https://example.com/?q=1", "javascript:alert(1)", "ftp://x"]),
        }
    elif kind == "unknown":
        msg["method"] = "fuzz/" + "".join(rng.choice("abc/é\u202e") for _ in range(rng.randint(0, 8)))
    else:
        msg["method"] = "elicitation/create"
        msg["params"] = rng.choice([[], "x", 3, None])
    return json.dumps(msg, ensure_ascii=rng.random() < 0.5).encode("utf-8")


def noise(rng: random.Random) -> bytes:
    r = rng.random()
    if r < 0.5:
        line = bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 80)))
    else:
        line = rng.choice(HOSTILE)
    return line.replace(b"\n", b" ").replace(b"fz-", b"fz_")


def stream(rng: random.Random, c: int) -> tuple[bytes, list[str]]:
    parts, ids = [], []
    for n in range(LINES_PER_CONNECTION):
        if rng.random() < 0.5:
            rid = f"fz-{c}-{n}"
            parts.append(wellformed(rng, rid))
            ids.append(rid)
        else:
            parts.append(noise(rng))
    if c == 0:  # one oversized line, whose id can still be read
        parts.insert(
            3,
            b'{"jsonrpc":"2.0","id":"fz-0-big","method":"ping","params":{"p":"' + b"x" * (MAX_LINE_BYTES + 10) + b'"}}',
        )
        ids.append("fz-0-big")
    return b"".join(p + rng.choice([b"\n", b"\r\n", b"\n\n"]) for p in parts), ids


def test_raw_stream_fuzz_every_request_gets_exactly_one_response(scratch: Path) -> None:
    rng = random.Random(SEED)
    tray = HostileTray(scratch / "run" / "socket", PLAN, workdir=scratch).start()
    deadline = time.monotonic() + TIME_BUDGET_S
    try:
        conns = [Conn(tray.sock, timeout_s=TIME_BUDGET_S) for _ in range(CONNECTIONS)]
        plans = [stream(rng, c) for c in range(CONNECTIONS)]
        offsets = [0] * CONNECTIONS
        while any(offsets[i] < len(plans[i][0]) for i in range(CONNECTIONS)):  # interleaved random chunks
            i = rng.randrange(CONNECTIONS)
            data = plans[i][0]
            if offsets[i] < len(data):
                size = rng.choice([1, 7, 64, 1000, 70_000])
                conns[i].send_raw(data[offsets[i] : offsets[i] + size])
                offsets[i] += size
            assert time.monotonic() < deadline, "the fuzzer ran out of time while sending"
        for i, conn in enumerate(conns):
            conn.send_raw(b'\n{"jsonrpc":"2.0","id":"end","method":"ping"}\n')
            seen: dict[str, int] = {}
            while True:
                msg = conn.recv()
                rid = msg.get("id")
                if rid == "end" and "result" in msg:
                    break
                if isinstance(rid, str) and rid.startswith("fz-"):
                    seen[rid] = seen.get(rid, 0) + 1
                    if "result" in msg and "action" in msg["result"]:
                        assert msg["result"]["action"] in ("accept", "decline", "cancel")
                        if msg["result"]["action"] == "accept" and "content" in msg["result"]:
                            assert msg["result"]["content"] == {"t": rid}  # its own answer
            # The final ping overtakes dialogs still open: wait for their answers too.
            ids = plans[i][1]
            while set(seen) != set(ids) and time.monotonic() < deadline + 30:
                msg = conn.recv()
                rid = msg.get("id")
                if isinstance(rid, str) and rid.startswith("fz-"):
                    seen[rid] = seen.get(rid, 0) + 1
            assert set(seen) == set(ids), sorted(set(ids) - set(seen))[:10]
            assert all(count == 1 for count in seen.values()), {k: v for k, v in seen.items() if v != 1}
            conn.close()
        assert tray.proc is not None and tray.proc.poll() is None, tray.stderr
        with Conn(tray.sock) as last:
            assert last.call("last", "ping") == {"jsonrpc": "2.0", "id": "last", "result": {}}
    finally:
        code = tray.stop()
    assert code == 0, tray.stderr
