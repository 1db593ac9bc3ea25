"""Pure unit tests of the IPC framing and JSON-RPC envelopes (``elicit_tray.ipc.jsonrpc``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from elicit_tray.ipc.jsonrpc import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    MAX_LINE_BYTES,
    METHOD_NOT_FOUND,
    OVERSIZE,
    PARSE_ERROR,
    ErrorReply,
    LineSplitter,
    Notification,
    Request,
    Response,
    decode_line,
    encode,
    error,
    result,
)


def feed_bytewise(splitter: LineSplitter, data: bytes) -> list[Any]:
    out: list[Any] = []
    for i in range(len(data)):
        out += splitter.feed(data[i : i + 1])
    return out


# -- LineSplitter -----------------------------------------------------------------------------------

STREAM = b'{"a":1}\n{"b":2}\r\n\n   \n\r\n{"c":"\xc3\xa9"}\n'
LINES = [b'{"a":1}', b'{"b":2}', b'{"c":"\xc3\xa9"}']


def test_lines_split_across_chunks_byte_by_byte_come_out_whole() -> None:
    assert feed_bytewise(LineSplitter(), STREAM) == LINES


def test_lines_in_one_chunk_come_out_in_order() -> None:
    assert LineSplitter().feed(STREAM) == LINES


def test_crlf_line_ends_lose_their_carriage_return_and_blank_lines_are_skipped() -> None:
    assert LineSplitter().feed(b"x\r\n\r\n \t \n\ny\r\n") == [b"x", b"y"]


def test_a_line_without_its_newline_waits_for_the_rest() -> None:
    splitter = LineSplitter()
    assert splitter.feed(b'{"a":') == []
    assert splitter.feed(b"1}") == []
    assert splitter.feed(b"\n") == [b'{"a":1}']


def test_a_line_exactly_at_the_limit_is_kept() -> None:
    line = b"x" * 64
    assert LineSplitter(max_bytes=64).feed(line + b"\n") == [line]


@pytest.mark.parametrize("bytewise", [False, True], ids=["one chunk", "byte by byte"])
def test_an_oversize_line_is_reported_once_and_the_next_line_is_still_parsed(bytewise: bool) -> None:
    long_line = b'{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"message":"' + b"x" * 200 + b'"}}'
    data = long_line + b"\n" + b'{"jsonrpc":"2.0","id":8,"method":"ping"}\n'
    splitter = LineSplitter(max_bytes=64)
    out = feed_bytewise(splitter, data) if bytewise else splitter.feed(data)
    assert len(out) == 2
    marker, head = out[0]
    assert marker is OVERSIZE
    assert long_line.startswith(head) and len(head) > 64
    assert out[1] == b'{"jsonrpc":"2.0","id":8,"method":"ping"}'
    assert decode_line(out[0]) == ErrorReply(7, PARSE_ERROR, f"Parse error: message longer than {MAX_LINE_BYTES} bytes")
    assert decode_line(out[1]) == Request(8, "ping", {})


def test_an_oversize_line_keeps_memory_bounded_until_its_newline() -> None:
    splitter = LineSplitter(max_bytes=64)
    for _ in range(1000):
        assert splitter.feed(b"y" * 100) == []
    assert len(splitter._buf) <= 64 + 100
    out = splitter.feed(b"tail\nnext\n")
    assert [type(x) for x in out] == [tuple, bytes]
    assert out[0][0] is OVERSIZE and out[0][1].startswith(b"y" * 64)
    assert out[1] == b"next"


def test_the_oversize_head_is_at_most_4_kib() -> None:
    (item,) = LineSplitter(max_bytes=64).feed(b"z" * 10_000 + b"\n")
    assert item[0] is OVERSIZE
    assert item[1] == b"z" * 4096


def test_the_default_limit_is_one_mebibyte() -> None:
    assert MAX_LINE_BYTES == 1024 * 1024
    assert LineSplitter().max_bytes == MAX_LINE_BYTES


# -- decode_line ------------------------------------------------------------------------------------


def test_a_request_is_decoded_with_its_id_method_and_params() -> None:
    line = b'{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"hi"}}'
    assert decode_line(line) == Request(1, "elicitation/create", {"message": "hi"})


def test_a_string_id_is_kept_as_a_string() -> None:
    assert decode_line(b'{"jsonrpc":"2.0","id":"abc","method":"ping"}') == Request("abc", "ping", {})


@pytest.mark.parametrize("params", ["", ',"params":null', ',"params":{}'])
def test_absent_or_null_params_become_an_empty_object(params: str) -> None:
    assert decode_line(f'{{"jsonrpc":"2.0","id":2,"method":"ping"{params}}}'.encode()) == Request(2, "ping", {})


def test_a_message_without_id_is_a_notification() -> None:
    line = b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"gone"}}'
    assert decode_line(line) == Notification("notifications/cancelled", {"requestId": 3, "reason": "gone"})


@pytest.mark.parametrize("params", ["[1, 2]", '"text"', "5"])
def test_params_that_are_not_an_object_are_invalid_params_for_a_request(params: str) -> None:
    line = f'{{"jsonrpc":"2.0","id":4,"method":"ping","params":{params}}}'.encode()
    assert decode_line(line) == ErrorReply(4, INVALID_PARAMS, 'Invalid params: "params" must be an object')


def test_params_that_are_not_an_object_are_dropped_from_a_notification() -> None:
    line = b'{"jsonrpc":"2.0","method":"notifications/x","params":[1]}'
    assert decode_line(line) == Notification("notifications/x", {})


def test_invalid_utf8_is_a_parse_error_that_keeps_a_readable_id() -> None:
    reply = decode_line(b'{"jsonrpc":"2.0","id": 5,"method":"\xff\xfe"}')
    assert isinstance(reply, ErrorReply)
    assert (reply.id, reply.code) == (5, PARSE_ERROR)
    assert reply.message.startswith("Parse error: invalid UTF-8")


def test_invalid_utf8_without_an_id_is_a_parse_error_with_a_null_id() -> None:
    reply = decode_line(b"\xc3\x28")
    assert isinstance(reply, ErrorReply)
    assert (reply.id, reply.code) == (None, PARSE_ERROR)


@pytest.mark.parametrize(
    ("line", "salvaged"),
    [
        (b'{"jsonrpc": "2.0", "id": 5, "method": "ping"', 5),
        (b'{"id": -12, oops}', -12),
        (b'{"id" :  "req-9", "method": }', "req-9"),
        (b'{"id": "a\\"b", trailing', 'a"b'),
        (b'{"method": "ping", ]', None),
        (b'{"id": 5.5, ]', None),  # not the 5 of 5.5
        (b'{"id": 1234567890123456789, ]', 1234567890123456789),  # the whole number, as a valid line would be read
        (b'{"id": 12', None),  # cut before its end: maybe not the whole number
        (b'{"id": 5x}', None),  # not the 5 of 5x
        (b'{"id": true, ]', None),
    ],
)
def test_invalid_json_is_a_parse_error_with_the_id_salvaged_when_readable(line: bytes, salvaged: Any) -> None:
    reply = decode_line(line)
    assert isinstance(reply, ErrorReply)
    assert (reply.id, reply.code) == (salvaged, PARSE_ERROR)
    assert reply.message.startswith("Parse error: ")


# Issue 11 §3: a -32700 carried an ``id`` found nested inside the line. Only the line's own
# top-level ``id``, read before the broken part, may be echoed; else ``null``.
@pytest.mark.parametrize(
    ("line", "salvaged"),
    [
        (b'{"jsonrpc":"2.0","method":"elicitation/create","params":{"id":"victim-7"}, oops', None),
        (b'{"params":{"id":3}', None),
        (b'{"params": {"x": [1, {"id": 4}]}, "method": ]', None),
        (b'[{"id": 5}, oops', None),  # not an object
        (b'{"note": "\\"id\\": 6", broken', None),  # inside a string
        (b'{"params": {"a": [}, "id": 5}', None),  # after the broken part: cannot be told apart from nesting
        (b'{"id": 1, "id": 2, broken', None),  # twice: ambiguous, as for a valid line
        (b'{"params":{"id":"victim"},"id":"mine", broken', "mine"),
        (b'{"\\u0069d": 8, broken', 8),  # the same key, escaped
        (b'{"id": "a\xffb", "method": "ping"}', None),  # undecodable bytes in the id itself
        (b'{"params": {"id": 1, "s": "\xff"}, "id": 2, "method": "ping"}', 2),  # invalid UTF-8 elsewhere
    ],
)
def test_a_parse_error_echoes_only_the_top_level_id_never_a_nested_one(line: bytes, salvaged: Any) -> None:
    reply = decode_line(line)
    assert isinstance(reply, ErrorReply) and reply.code == PARSE_ERROR
    assert reply.id == salvaged


def test_an_oversize_line_echoes_only_its_top_level_id() -> None:
    nested = b'{"jsonrpc":"2.0","method":"x","params":{"id":"victim","pad":"' + b"x" * (MAX_LINE_BYTES + 10) + b'"}}\n'
    own = b'{"jsonrpc":"2.0","params":{"id":"victim"},"id":"own","pad":"' + b"x" * (MAX_LINE_BYTES + 10) + b'"}\n'
    splitter = LineSplitter()
    out = splitter.feed(nested + own)
    assert [decode_line(x) for x in out] == [
        ErrorReply(None, PARSE_ERROR, f"Parse error: message longer than {MAX_LINE_BYTES} bytes"),
        ErrorReply("own", PARSE_ERROR, f"Parse error: message longer than {MAX_LINE_BYTES} bytes"),
    ]


@pytest.mark.parametrize(
    "line", [b"[1, 2]", b"5", b'"text"', b"null", b"true", b"[]", b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]']
)
def test_json_that_is_not_an_object_is_an_invalid_request_with_a_null_id(line: bytes) -> None:
    assert decode_line(line) == ErrorReply(None, INVALID_REQUEST, "Invalid Request: expected a JSON object")


def test_a_missing_jsonrpc_member_is_an_invalid_request_keeping_a_valid_id() -> None:
    assert decode_line(b'{"id":3,"method":"ping"}') == ErrorReply(
        3, INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"'
    )


def test_a_wrong_jsonrpc_version_is_an_invalid_request() -> None:
    assert decode_line(b'{"jsonrpc":"1.0","id":"x","method":"ping"}') == ErrorReply(
        "x", INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"'
    )


@pytest.mark.parametrize("line", [b'{"jsonrpc":"2.0","id":6}', b'{"jsonrpc":"2.0","id":6,"method":7}'])
def test_a_missing_or_non_string_method_is_an_invalid_request(line: bytes) -> None:
    assert decode_line(line) == ErrorReply(6, INVALID_REQUEST, 'Invalid Request: "method" must be a string')


@pytest.mark.parametrize("raw_id", ["true", "false", "1.5", "1.0", "null", "[1]", '{"a":1}'])
def test_an_id_that_is_not_a_string_or_integer_is_an_invalid_request_with_a_null_id(raw_id: str) -> None:
    line = f'{{"jsonrpc":"2.0","id":{raw_id},"method":"ping"}}'.encode()
    assert decode_line(line) == ErrorReply(
        None, INVALID_REQUEST, 'Invalid Request: "id" must be a string or an integer'
    )


def test_a_bool_id_does_not_leak_into_another_error() -> None:
    assert decode_line(b'{"id":true,"method":"ping"}') == ErrorReply(
        None, INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"'
    )


@pytest.mark.parametrize(
    "line", [b'{"jsonrpc":"2.0","id":1,"result":{}}', b'{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x"}}']
)
def test_a_response_object_is_recognised_as_a_response(line: bytes) -> None:
    assert decode_line(line) == Response(1)


@pytest.mark.parametrize("line", [b"[" * 100_000, b'{"a":' * 100_000, b"[" * 100_000 + b"]" * 100_000])
def test_deeply_nested_json_is_an_error_reply_not_a_crash(line: bytes) -> None:
    reply = decode_line(line)
    assert isinstance(reply, ErrorReply)
    assert reply.code == PARSE_ERROR


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_non_json_number_constants_are_a_parse_error(constant: str) -> None:
    reply = decode_line(f'{{"jsonrpc":"2.0","id":9,"method":"ping","params":{{"x":{constant}}}}}'.encode())
    assert isinstance(reply, ErrorReply)
    assert (reply.id, reply.code) == (9, PARSE_ERROR)


def test_an_integer_too_long_to_read_is_a_parse_error() -> None:
    reply = decode_line(b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"n":' + b"9" * 5000 + b"}}")
    assert isinstance(reply, ErrorReply)
    assert (reply.id, reply.code) == (1, PARSE_ERROR)


def test_a_decoded_line_never_raises_for_arbitrary_bytes() -> None:
    for i in range(256):
        assert decode_line(bytes([i]) * 3) is not None


# -- encode and helpers -------------------------------------------------------------------------------


def test_encode_writes_one_compact_utf8_line_keeping_non_ascii() -> None:
    message = {"jsonrpc": "2.0", "id": 1, "result": {"text": "héllo ✓ 日本\nnext"}}
    assert encode(message) == '{"jsonrpc":"2.0","id":1,"result":{"text":"héllo ✓ 日本\\nnext"}}\n'.encode()
    assert encode(message).count(b"\n") == 1


@pytest.mark.parametrize("number", [float("nan"), float("inf"), float("-inf")])
def test_encode_refuses_numbers_that_are_not_json(number: float) -> None:
    with pytest.raises(ValueError):
        encode({"jsonrpc": "2.0", "id": 1, "result": {"content": {"x": number}}})


def test_encode_escapes_a_lone_surrogate_instead_of_failing() -> None:
    # a request may carry "\ud800" in its method; "Method not found: <method>" must still go out
    method = json.loads('"\\ud800"')
    line = encode(error(1, METHOD_NOT_FOUND, f"Method not found: {method}"))
    assert line == b'{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found: \\ud800"}}\n'
    assert json.loads(line)["error"]["message"] == f"Method not found: {method}"


def test_an_encoded_request_decodes_back_to_the_same_request() -> None:
    message = {"jsonrpc": "2.0", "id": "r-1", "method": "elicitation/create", "params": {"message": "Größe?"}}
    (line,) = LineSplitter().feed(encode(message))
    assert decode_line(line) == Request("r-1", "elicitation/create", {"message": "Größe?"})


def test_result_and_error_build_json_rpc_responses() -> None:
    assert result(3, {}) == {"jsonrpc": "2.0", "id": 3, "result": {}}
    assert error(None, PARSE_ERROR, "Parse error") == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": -32700, "message": "Parse error"},
    }
    assert error("a", INVALID_PARAMS, "bad", {"violations": []}) == {
        "jsonrpc": "2.0",
        "id": "a",
        "error": {"code": -32602, "message": "bad", "data": {"violations": []}},
    }


def test_the_error_codes_are_the_json_rpc_ones() -> None:
    assert (PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR) == (
        -32700,
        -32600,
        -32601,
        -32602,
        -32603,
    )
