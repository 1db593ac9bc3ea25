"""Property-based fuzzing of the framing and the dispatcher, in-process (hypothesis).

A stream mixes well-formed requests (each with a unique ``"fz-<n>"`` id), notifications,
responses, and arbitrary byte lines, cut into arbitrary chunks. Whatever the mix and the cuts:
every well-formed request got exactly one response, nothing raised, and a final ``ping`` is
answered. The handler is a fake (answers after a few loop turns, or raises, or hangs until its
connection goes away), so this runs without Qt and fast.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from elicit_tray.ipc.jsonrpc import MAX_LINE_BYTES, LineSplitter, Message, decode_line
from elicit_tray.ipc.protocol import Dispatcher, UiFunctions
from elicit_tray.request import Accepted, Cancelled, Declined, ElicitationRequest, Failed, Peer
from tests.fakes import FakeChannel

EMPTY = {"type": "object", "properties": {}}


def channel() -> FakeChannel:
    return FakeChannel(Peer(pid=1, uid=1, process_name="fuzz"))


def extend_json(children: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    """Lists and objects of ``children`` (a named function: hypothesis once judged the lambda
    not to use its argument and failed the run with a deprecation warning)."""
    return st.one_of(st.lists(children, max_size=4), st.dictionaries(st.text(max_size=8), children, max_size=4))


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    extend_json,
    max_leaves=12,
)

schemas = st.one_of(
    st.just(EMPTY),
    st.fixed_dictionaries(
        {
            "type": st.just("object"),
            "properties": st.dictionaries(
                st.text(min_size=1, max_size=6),
                st.sampled_from(
                    [
                        {"type": "string"},
                        {"type": "integer", "minimum": 0},
                        {"type": "boolean"},
                        {"type": "object"},
                        {"type": "string", "enum": ["a", "b"]},
                        {"type": "strange"},
                    ]
                ),
                max_size=4,
            ),
        }
    ),
    json_values,
)


@st.composite
def wellformed(draw: Any, n: int) -> tuple[bytes, str]:
    """A valid JSON-RPC request line with id ``fz-<n>``; returns (line, id)."""
    rid = f"fz-{n}"
    kind = draw(st.sampled_from(["ping", "info", "create", "create-url", "unknown", "create-junk"]))
    if kind == "ping":
        msg: dict[str, Any] = {"method": "ping"}
    elif kind == "info":
        msg = {"method": "elicit-tray/info"}
    elif kind == "unknown":
        msg = {
            "method": draw(
                st.text(max_size=12).filter(lambda m: m not in ("ping", "elicit-tray/info", "elicitation/create"))
            )
        }
    elif kind == "create":
        msg = {
            "method": "elicitation/create",
            "params": {
                "message": draw(st.sampled_from(["accept", "decline", "cancel", "fail", "raise", "hang"])),
                "requestedSchema": draw(schemas),
            },
        }
    elif kind == "create-url":
        msg = {
            "method": "elicitation/create",
            "params": {
                "mode": "url",
                "message": "accept",
                "url": draw(st.sampled_from(["https://example.com/x?y=1", "javascript:alert(1)", "", "http://[::1"])),
                "elicitationId": "e",
            },
        }
    else:
        msg = {
            "method": "elicitation/create",
            "params": draw(st.dictionaries(st.text(max_size=8), json_values, max_size=4)),
        }
    msg = {"jsonrpc": "2.0", "id": rid, **msg}
    return json.dumps(msg, ensure_ascii=draw(st.booleans())).encode("utf-8"), rid


noise_lines = (
    st.one_of(
        st.binary(max_size=60),
        json_values.map(lambda v: json.dumps(v).encode()),
        st.sampled_from(
            [
                b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"fz-1"}}',
                b'{"jsonrpc":"2.0","id":"r","result":{}}',
                b'{"jsonrpc":"2.0","method":"x"}',
                b'{"jsonrpc":"2.0","id":7,"id":8,"method":"ping"}',
                b"[" * 5000,
                b"\xff\xfe\x00",
                b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"n":1e999}}',
            ]
        ),
    )
    .map(lambda b: b.replace(b"\n", b" "))
    .filter(lambda b: b"fz-" not in b)
)


@st.composite
def streams(draw: Any) -> tuple[list[bytes], list[str]]:
    """Chunks of one connection's byte stream, and the ids of its well-formed requests."""
    lines, ids = [], []
    for n in range(draw(st.integers(0, 30))):
        if draw(st.booleans()):
            line, rid = draw(wellformed(n))
            lines.append(line)
            ids.append(rid)
        else:
            lines.append(draw(noise_lines))
    data = b"".join(line + draw(st.sampled_from([b"\n", b"\r\n", b"\n\n"])) for line in lines)
    cuts = sorted(draw(st.lists(st.integers(0, len(data)), max_size=8)))
    chunks = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
    return chunks, ids


async def handler(request: ElicitationRequest) -> Any:
    for _ in range(3):
        await asyncio.sleep(0)
    kind = request.message
    if kind == "raise":
        raise RuntimeError("fuzzed failure")
    if kind == "hang":
        await asyncio.sleep(0.005)  # the fake user takes a while (its behaviour, not a wait)
    return {
        "accept": Accepted({}),
        "decline": Declined(),
        "cancel": Cancelled("escape"),
        "fail": Failed("no dialog"),
    }.get(kind, Accepted())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(streams(), min_size=1, max_size=3))
def test_every_wellformed_request_gets_exactly_one_response_and_ping_answers_at_the_end(
    connections: list[tuple[list[bytes], list[str]]],
) -> None:
    async def main() -> None:
        d = Dispatcher(UiFunctions(handler), version="fuzz")
        channels = []
        for chunks, _ids in connections:
            ch = channel()
            d.connection_made(ch)
            channels.append((ch, chunks))
        longest = max(len(chunks) for _ch, chunks in channels)
        for i in range(longest):  # interleave the connections chunk by chunk
            for ch, chunks in channels:
                if i < len(chunks):
                    d.data_received(ch, chunks[i])
            await asyncio.sleep(0)
        for _ in range(200):
            if d.pending_count() == 0:
                break
            await asyncio.sleep(0.001)  # bounded poll: until the hung requests have been answered
        for ch, _chunks in channels:
            d.data_received(ch, b'\n{"jsonrpc":"2.0","id":"final-ping","method":"ping"}\n')
        for (ch, _chunks), (_c, ids) in zip(channels, connections, strict=True):
            answered = [m["id"] for m in ch.sent if isinstance(m.get("id"), str) and m["id"].startswith("fz-")]
            # hung requests that a "cancelled" noise line expired get nothing, by contract
            assert sorted(answered) == sorted(set(answered)), "an id was answered twice"
            assert set(answered) <= set(ids)
            missing = set(ids) - set(answered)
            assert missing <= {"fz-1"}, missing  # only the one a fuzzed notifications/cancelled may expire
            assert ch.sent[-1] == {"jsonrpc": "2.0", "id": "final-ping", "result": {}}
            for m in ch.sent:
                assert set(m) == {"jsonrpc", "id", "result"} or set(m) == {"jsonrpc", "id", "error"}, m
                if m["id"] in ids and "result" in m and "action" in m["result"]:
                    assert m["result"]["action"] in ("accept", "decline", "cancel")
            d.connection_lost(ch)

    asyncio.run(main())


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_decode_line_never_raises(raw: bytes) -> None:
    assert isinstance(decode_line(raw), Message.__args__)  # type: ignore[attr-defined]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=50), max_size=20), st.lists(st.integers(0, 2000), max_size=10))
def test_line_splitting_does_not_depend_on_how_the_stream_is_cut(parts: list[bytes], cuts: list[int]) -> None:
    data = b"\n".join(parts) + b"\n"
    whole = LineSplitter(max_bytes=64).feed(data)
    splitter = LineSplitter(max_bytes=64)
    pieces = []
    bounds = sorted(min(c, len(data)) for c in cuts)
    for a, b in zip([0, *bounds], [*bounds, len(data)], strict=True):
        pieces += splitter.feed(data[a:b])
    assert pieces == whole
    assert MAX_LINE_BYTES == 1024 * 1024
