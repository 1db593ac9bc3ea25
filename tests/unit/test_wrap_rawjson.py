"""Lines read in place (``wrap/rawjson.py``, docs/wrap-design.md §2.6 "Performance"): member
spans without decoding, and the core deciding about lines that pass its byte pre-filter
without parsing them into Python objects; the shell's line splitter holding a line once."""

from __future__ import annotations

import json

import pytest

from elicit_tray.wrap import core as core_module
from elicit_tray.wrap import rawjson
from elicit_tray.wrap.core import ToHost, ToServer, WrapCore
from elicit_tray.wrap.rawjson import UNREADABLE, RawObject, skip_value
from elicit_tray.wrap.shell import LineSplitter

DEEP = b"[" * 5000 + b'{"a":"]}"}' + b"]" * 5000


VALUES = [
    b'"plain"',
    b'"esc \\" ] } \\\\"',
    b"-12.5e+3",
    b"true",
    b"null",
    b"[]",
    b'{"a":[1,{"b":[[[["}"]]]]}],"c":{}}',  # deeper than one flat match
    DEEP,
    b"[" + b"{}," * 10000 + b"{}]",
    rawjson._PROBE,  # skipped 3 bytes short with possessive quantifiers on CPython 3.11.2
]


@pytest.fixture(params=["possessive", "portable"])
def patterns(request, monkeypatch):
    """Both pattern sets: the portable one replaces the possessive one where the engine gets
    that wrong (checked at import)."""
    for name, pattern in zip(
        ("_STRING", "_CONTAINER", "_RUN"), rawjson._patterns(request.param == "possessive"), strict=True
    ):
        monkeypatch.setattr(rawjson, name, pattern)
    return request.param


@pytest.mark.parametrize("value", VALUES)
def test_both_pattern_sets_skip_exactly_the_value(patterns, value):
    line = b' {"k":' + value + b' ,"z":1}\n'
    assert skip_value(line, 6) == 6 + len(value)
    obj = RawObject.of(line)
    assert obj is not None and obj.keys() == ["k", "z"] and obj.get("z") == 1
    assert rawjson._engine_skips_right()


@pytest.mark.parametrize("value", VALUES)
def test_skip_value_ends_exactly_after_the_value(value):
    line = b' {"k":' + value + b' ,"z":1}\n'
    assert skip_value(line, 6) == 6 + len(value)
    obj = RawObject.of(line)
    assert obj is not None and obj.keys() == ["k", "z"] and obj.text("k") == value.decode()
    assert obj.get("z") == 1


@pytest.mark.parametrize(
    "line",
    [
        b'[{"id":1}]\n',  # a batch
        b'{"id":1}{"id":2}\n',  # more after the object
        b'{"id":1,"id":2}\n',  # a duplicate top-level key
        b'{"id":1,"x":[}\n',
        b'{"id":1,"x":"unterminated}\n',
        b'{"id" 1}\n',
        b'{"id":1,}\n',
        b"",
        b"not json\n",
    ],
)
def test_what_is_not_one_object_is_not_read(line):
    assert RawObject.of(line) is None


def test_nested_paths_small_values_and_the_limit():
    big = "é😀" * 40000  # more than SMALL_VALUE_BYTES of raw text
    line = json.dumps(
        {"id": "a", "result": {"_meta": {"k": {"name": "srv"}}, "big": big, "dup": {"x": 1}}}, ensure_ascii=False
    ).encode()
    obj = RawObject.of(line)
    assert obj is not None
    assert obj.get("result", "_meta", "k") == {"name": "srv"}
    assert obj.get("result", "big") is UNREADABLE
    assert obj.get("result", "big", limit=None) == big
    assert obj.get("result", "missing", default="absent") == "absent"
    assert obj.get("id", "deeper") is None  # "id" is no object
    assert obj.is_object("result", "dup") and not obj.is_object("id")
    dup = RawObject.of(b'{"id":1,"result":{"a":1,"a":2}}')
    assert dup is not None and not dup.is_object("result") and dup.get("result", "a") is None


# A line of each kind that passes the core's byte pre-filter and must still go on unchanged.
UNCHANGED_HOST = [
    b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"pad":[' + b"{}," * 1000 + b"{}]}}\n",
    b'{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":'
    b'{"elicitation":{"form":{},"url":{}}}},"pad":[' + b"[" * 3000 + b"]" * 3000 + b"]}}\n",
]
UNCHANGED_SERVER = [
    b'{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"mode":"form","message":"'
    + b"x" * 100_000
    + b'","requestedSchema":{"type":"object"}}}\n',
    b'{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"e-1"}}\r\n',
    b'{"jsonrpc":"2.0","id":0,"result":{"serverInfo":{"name":"s"},"pad":[' + b"{}," * 1000 + b"{}]}}\n",
]


def test_unchanged_lines_past_the_pre_filter_are_never_parsed(monkeypatch):
    def refuse(line: bytes) -> None:
        raise AssertionError(f"parsed in full: {bytes(line[:60])!r}")

    monkeypatch.setattr(core_module, "parse_object", refuse)
    c = WrapCore("complement", id_prefix="P-")
    init = b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"form":{},"url":{}}}}}\n'
    for line in [init, *UNCHANGED_HOST]:
        (action,) = c.feed_host(line)
        assert isinstance(action, ToServer) and action.data is line
    for line in UNCHANGED_SERVER:
        (action,) = c.feed_server(line)
        assert isinstance(action, ToHost) and action.data is line
    assert c.server_info == {"name": "s"}  # read from the line in place


def test_a_line_across_chunks_is_one_buffer_and_the_rest_stays_apart():
    splitter = LineSplitter()
    line = b'{"blob":"' + b"y" * 3_000_000 + b'"}\n'
    chunks = [line[i : i + (1 << 20)] for i in range(0, len(line), 1 << 20)]
    out = []
    for chunk in chunks[:-1]:
        out += splitter.feed(chunk)
    assert out == []
    assert splitter.feed(chunks[-1] + b"a\nb") == [line, b"a\n"]
    assert splitter.rest() == b"b" and splitter.rest() == b""
    single = b"one\n"
    assert splitter.feed(single)[0] is single  # a whole chunk that is one line: no copy


@pytest.mark.parametrize(
    ("schema", "asks"),
    [
        (b'{"type":"object"}', True),
        (b'{"type":"object","x":1,"x":2}', False),  # a duplicate key deep inside: not one the proxy may act on
        (b'{"type":"object","x":"\xff"}', False),  # invalid UTF-8 in a member the scan skips
    ],
)
def test_a_line_the_proxy_acts_on_is_checked_in_full(schema, asks):
    c = WrapCore("complement", id_prefix="P-")
    init = (
        b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}\n'
    )
    (declared,) = c.feed_host(init)
    assert isinstance(declared, ToServer) and b'"elicitation":{"form":{},"url":{}}' in declared.data
    line = (
        b'{"jsonrpc":"2.0","id":5,"method":"elicitation/create","params":{"mode":"form","message":"m",'
        b'"requestedSchema":' + schema + b"}}\n"
    )
    (action,) = c.feed_server(line)
    assert (type(action).__name__, getattr(action, "data", None) is line) == (
        ("AskTray", False) if asks else ("ToHost", True)
    )
