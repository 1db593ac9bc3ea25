"""Hostile input limits and the dispatcher's "never a made-up answer" rule (no Qt, no socket).

README "IPC contract": every limit has a documented value and a defined JSON-RPC answer; the
exact responses are pinned here. The dispatcher runs in-process on a plain asyncio loop with
fake handlers; the real socket and dialogs are covered by tests/integration/test_hostile.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from elicit_tray import elicitation
from elicit_tray.ipc import jsonrpc as rpc
from elicit_tray.ipc.jsonrpc import MAX_JSON_DEPTH, MAX_NUMBER_CHARS, ErrorReply, Request, Response, decode_line
from elicit_tray.ipc.protocol import (
    MAX_PENDING_PER_CONNECTION,
    MAX_PENDING_TOTAL,
    MAX_VIOLATIONS,
    Dispatcher,
    UiFunctions,
)
from elicit_tray.limits import (
    MAX_FORM_OPTIONS,
    MAX_MESSAGE_CHARS,
    MAX_OPTIONS,
    MAX_PATTERN_CHARS,
    MAX_PROPERTIES,
    MAX_TEXT_CHARS,
    MAX_URL_CHARS,
    limit_violations,
)
from elicit_tray.request import Accepted, Cancelled, Declined, ElicitationRequest, Failed, Peer
from elicit_tray.schema import Violation
from tests.fakes import FakeChannel
from tests.rpc import create_line, error, request_line, result

EMPTY = {"type": "object", "properties": {}}


# -- the documented values ----------------------------------------------------------------------


def test_the_limits_have_their_documented_values() -> None:
    assert (rpc.MAX_LINE_BYTES, MAX_JSON_DEPTH, MAX_NUMBER_CHARS) == (1024 * 1024, 64, 100)
    assert (MAX_MESSAGE_CHARS, MAX_TEXT_CHARS, MAX_PROPERTIES, MAX_OPTIONS, MAX_URL_CHARS) == (
        10_000,
        1_000,
        256,
        200,
        8_192,
    )
    assert (MAX_PENDING_PER_CONNECTION, MAX_PENDING_TOTAL, MAX_VIOLATIONS) == (16, 64, 50)
    assert rpc.SERVER_BUSY == -32000


# -- framing: numbers, nesting, duplicate keys, NUL -------------------------------------------------


def _ping(params: str) -> bytes:
    return b'{"jsonrpc":"2.0","id":5,"method":"ping","params":' + params.encode() + b"}"


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ('{"n":1e400}', "Parse error: number 1e400 is out of range"),
        ('{"n":-1e400}', "Parse error: number -1e400 is out of range"),
        ('{"n":' + "9" * 101 + "}", f"Parse error: number literal longer than {MAX_NUMBER_CHARS} characters"),
        ('{"n":0.' + "1" * 100 + "}", f"Parse error: number literal longer than {MAX_NUMBER_CHARS} characters"),
    ],
    ids=["overflow", "negative-overflow", "101-digit-integer", "102-char-float"],
)
def test_a_number_out_of_range_is_a_parse_error_with_the_id(params: str, message: str) -> None:
    assert decode_line(_ping(params)) == ErrorReply(5, rpc.PARSE_ERROR, message)


def test_numbers_within_the_limits_are_read_exactly() -> None:
    big = "9" * MAX_NUMBER_CHARS
    assert decode_line(_ping('{"a":' + big + ',"b":1.7976931348623157e308,"c":1e-400}')) == Request(
        5, "ping", {"a": int(big), "b": 1.7976931348623157e308, "c": 0.0}
    )


def test_nesting_up_to_the_limit_is_read_and_one_level_more_is_a_parse_error() -> None:
    # the message object is level 1, params level 2: 62 arrays inside make 64 levels
    ok = _ping('{"a":' + "[" * (MAX_JSON_DEPTH - 2) + "]" * (MAX_JSON_DEPTH - 2) + "}")
    assert isinstance(decode_line(ok), Request)
    deep = _ping('{"a":' + "[" * (MAX_JSON_DEPTH - 1) + "]" * (MAX_JSON_DEPTH - 1) + "}")
    assert decode_line(deep) == ErrorReply(5, rpc.PARSE_ERROR, "Parse error: JSON nested deeper than 64 levels")


def test_nesting_too_deep_for_the_parser_still_gets_its_id_back() -> None:
    line = b'{"jsonrpc":"2.0","id":6,"method":"ping","params":{"a":' + b"[" * 200_000 + b"]" * 200_000 + b"}}"
    assert decode_line(line) == ErrorReply(6, rpc.PARSE_ERROR, "Parse error: JSON nested deeper than 64 levels")


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (_ping('{"a":1,"a":2}'), ErrorReply(5, rpc.INVALID_REQUEST, 'Invalid Request: duplicate key "a"')),
        (
            b'{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}',
            ErrorReply(None, rpc.INVALID_REQUEST, 'Invalid Request: duplicate key "id"'),
        ),
        (
            b'{"jsonrpc":"2.0","id":3,"method":"ping","method":"elicitation/create"}',
            ErrorReply(3, rpc.INVALID_REQUEST, 'Invalid Request: duplicate key "method"'),
        ),
        (
            b'{"jsonrpc":"2.0","id":4,"method":"elicitation/create","params":{"message":"x","requestedSchema":'
            b'{"type":"object","properties":{"ok":{"type":"boolean"},"ok":{"type":"string"}}}}}',
            ErrorReply(4, rpc.INVALID_REQUEST, 'Invalid Request: duplicate key "ok"'),
        ),
    ],
    ids=["in-params", "the-id-itself", "method", "a-property-name"],
)
def test_a_duplicate_key_anywhere_is_refused_not_last_one_wins(line: bytes, expected: ErrorReply) -> None:
    assert decode_line(line) == expected


def test_a_response_with_duplicate_keys_is_still_only_ignored() -> None:
    assert decode_line(b'{"jsonrpc":"2.0","id":1,"result":{},"result":{"x":1}}') == Response(1)


def test_a_raw_nul_byte_is_a_parse_error_and_an_escaped_one_reaches_the_params_check() -> None:
    assert decode_line(b'{"jsonrpc":"2.0","id":7,"method":"ping\x00"}') == ErrorReply(
        7, rpc.PARSE_ERROR, "Parse error: Invalid control character at: line 1 column 39 (char 38)"
    )
    assert decode_line(b'{"jsonrpc":"2.0","id":7,"method":"ping",\x00"params":{}}').code == rpc.PARSE_ERROR
    assert decode_line(_ping('{"m":"a\\u0000b"}')) == Request(5, "ping", {"m": "a\x00b"})


# -- params limits: exact violations ----------------------------------------------------------------


def _form(**schema: Any) -> dict[str, Any]:
    return {"message": "m", "requestedSchema": {"type": "object", **schema}}


@pytest.mark.parametrize(
    ("params", "violations"),
    [
        ({"message": "x" * 10_001, "requestedSchema": EMPTY}, [("/message", "longer than 10000 characters (10001)")]),
        (
            _form(properties={f"p{i}": {"type": "boolean"} for i in range(MAX_PROPERTIES + 1)}),
            [("/requestedSchema/properties", f"more than {MAX_PROPERTIES} properties ({MAX_PROPERTIES + 1})")],
        ),
        (
            _form(title="t" * 1001, description="d" * 1001, properties={}),
            [
                ("/requestedSchema/description", "longer than 1000 characters (1001)"),
                ("/requestedSchema/title", "longer than 1000 characters (1001)"),
            ],
        ),
        (
            _form(properties={"a": {"type": "string", "title": "t" * 1001, "description": "d" * 1001}}),
            [
                ("/requestedSchema/properties/a/description", "longer than 1000 characters (1001)"),
                ("/requestedSchema/properties/a/title", "longer than 1000 characters (1001)"),
            ],
        ),
        (
            _form(properties={"n" * 1001: {"type": "boolean"}}),
            [("/requestedSchema/properties/" + "n" * 1001, "the name is longer than 1000 characters (1001)")],
        ),
        (
            _form(properties={"c": {"type": "string", "enum": [str(i) for i in range(201)]}}),
            [("/requestedSchema/properties/c/enum", "more than 200 options (201)")],
        ),
        (
            _form(properties={"c": {"type": "string", "oneOf": [{"const": str(i), "title": "x"} for i in range(201)]}}),
            [("/requestedSchema/properties/c/oneOf", "more than 200 options (201)")],
        ),
        (
            _form(properties={"c": {"type": "array", "items": {"anyOf": [{"const": str(i)} for i in range(201)]}}}),
            [("/requestedSchema/properties/c/items/anyOf", "more than 200 options (201)")],
        ),
        (
            _form(properties={"c": {"type": "string", "enum": ["a", "b" * 1001], "enumNames": ["A", "B" * 1001]}}),
            [
                ("/requestedSchema/properties/c/enum/1", "longer than 1000 characters (1001)"),
                ("/requestedSchema/properties/c/enumNames/1", "longer than 1000 characters (1001)"),
            ],
        ),
        (
            _form(properties={"c": {"type": "string", "oneOf": [{"const": "k" * 1001, "title": "T" * 1001}]}}),
            [
                ("/requestedSchema/properties/c/oneOf/0/const", "longer than 1000 characters (1001)"),
                ("/requestedSchema/properties/c/oneOf/0/title", "longer than 1000 characters (1001)"),
            ],
        ),
        (
            {"mode": "url", "message": "m", "url": "https://example.com/" + "a" * 8200, "elicitationId": "e"},
            [("/url", "longer than 8192 characters (8220)")],
        ),
        (
            {"message": "m", "requestedSchema": EMPTY, "_meta": {"elicit-tray/requester": {"serverName": "s" * 1001}}},
            [("/_meta/elicit-tray~1requester/serverName", "longer than 1000 characters (1001)")],
        ),
        ({"message": "a\x00b", "requestedSchema": EMPTY}, [("/message", "contains a NUL character (U+0000)")]),
        (
            _form(properties={"a\x00": {"type": "boolean"}}),
            [("/requestedSchema/properties/a\x00", "the key contains a NUL character (U+0000)")],
        ),
        (
            _form(properties={"a": {"type": "string", "default": "x\x00"}}),
            [("/requestedSchema/properties/a/default", "contains a NUL character (U+0000)")],
        ),
    ],
    ids=[
        "message",
        "properties",
        "top-title-and-description",
        "field-title-and-description",
        "property-name",
        "enum-count",
        "oneOf-count",
        "items-anyOf-count",
        "enum-and-enumNames-text",
        "oneOf-const-and-title",
        "url",
        "server-name",
        "nul-in-message",
        "nul-in-a-key",
        "nul-in-a-default",
    ],
)
def test_a_request_over_a_limit_is_refused_with_exactly_those_violations(
    params: dict[str, Any], violations: list[tuple[str, str]]
) -> None:
    expected = [Violation(path, message) for path, message in violations]
    assert limit_violations(params) == expected
    with pytest.raises(elicitation.ParamsError) as caught:
        elicitation.parse_elicit_params(params)
    assert caught.value.violations == expected


def test_a_request_exactly_at_every_limit_is_accepted() -> None:
    params = {
        "message": "x" * MAX_MESSAGE_CHARS,
        "_meta": {"elicit-tray/requester": {"serverName": "s" * MAX_TEXT_CHARS}},
        "requestedSchema": {
            "type": "object",
            "title": "t" * MAX_TEXT_CHARS,
            "properties": {
                **{f"p{i}": {"type": "boolean"} for i in range(MAX_PROPERTIES - 2)},
                "n" * MAX_TEXT_CHARS: {
                    "type": "string",
                    "title": "T" * MAX_TEXT_CHARS,
                    "description": "D" * MAX_TEXT_CHARS,
                },
                "choice": {"type": "string", "enum": [f"{i:0>{MAX_TEXT_CHARS}}" for i in range(MAX_OPTIONS)]},
            },
        },
    }
    request = elicitation.parse_elicit_params(params)
    assert len(request.form.fields) == MAX_PROPERTIES
    assert limit_violations({"mode": "url", "message": "m", "url": "h" * MAX_URL_CHARS}) == []


def _options_form(counts: list[int], multi: bool = True) -> dict[str, Any]:
    def prop(n: int) -> dict[str, Any]:
        enum = [f"o{j}" for j in range(n)]
        return {"type": "array", "items": {"enum": enum}} if multi else {"type": "string", "enum": enum}

    return _form(properties={f"f{i}": prop(n) for i, n in enumerate(counts)})


def test_options_per_form_are_limited_in_total_refs_counted_each_time() -> None:
    """Measured: 256 multi-selects x 200 options (51,200 checkboxes from a legal 389 KiB
    request) stalled the app 8.2 s. The options of all fields together are bounded."""
    assert MAX_FORM_OPTIONS == 512
    assert limit_violations(_options_form([200, 200, 112])) == []
    over = [Violation("/requestedSchema/properties", "more than 512 options in the form (513)")]
    assert limit_violations(_options_form([200, 200, 113])) == over
    assert limit_violations(_options_form([2] * 256 + [1], multi=False)) == [
        Violation("/requestedSchema/properties", "more than 256 properties (257)")
    ]
    assert limit_violations(_options_form([200] * 256)) == [
        Violation("/requestedSchema/properties", "more than 512 options in the form (51200)")
    ]
    shared = {
        "$defs": {"o": {"type": "string", "oneOf": [{"const": str(i)} for i in range(200)]}},
        "properties": {"a": {"$ref": "#/$defs/o"}, "b": {"$ref": "#/$defs/o"}, "c": {"$ref": "#/%24defs/o"}},
    }
    assert limit_violations(_form(**shared)) == [
        Violation("/requestedSchema/properties", "more than 512 options in the form (600)")
    ]
    with pytest.raises(elicitation.ParamsError) as caught:
        elicitation.parse_elicit_params(_options_form([200, 200, 113]))
    assert caught.value.violations == over


def test_a_pattern_is_limited_in_length_at_its_path() -> None:
    assert MAX_PATTERN_CHARS == 1_000
    ok = _form(properties={"a": {"type": "string", "pattern": "a" * 1000}})
    assert limit_violations(ok) == []
    long = _form(properties={"a": {"type": "string", "pattern": "a" * 1001}})
    assert limit_violations(long) == [
        Violation("/requestedSchema/properties/a/pattern", "longer than 1000 characters (1001)")
    ]


def test_the_new_limits_are_in_the_readme_table() -> None:
    from pathlib import Path

    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    assert (
        "| options in one form, all fields together (a `$ref` counts each time it is used) | 512 | "
        "-32602 `/requestedSchema/properties` |" in readme
    )
    assert "| `pattern` | 1,000 characters; an ECMA-262 expression | -32602 at its path |" in readme


def test_over_a_limit_nothing_else_is_checked() -> None:
    params = {"mode": "sms", "message": "x" * (MAX_MESSAGE_CHARS + 1)}
    with pytest.raises(elicitation.ParamsError) as caught:
        elicitation.parse_elicit_params(params)
    assert [v.path for v in caught.value.violations] == ["/message"]


# -- the dispatcher, in-process ---------------------------------------------------------------------


def create(request_id: Any, message: str = "m") -> bytes:
    return create_line(request_id, {"message": message, "requestedSchema": EMPTY})


def run(
    handler: Callable[[ElicitationRequest], Awaitable[Any]],
    script: Callable[[Dispatcher, asyncio.AbstractEventLoop], Awaitable[None]],
    **kwargs: Any,
) -> None:
    async def main() -> None:
        await script(Dispatcher(UiFunctions(handler), version="t", **kwargs), asyncio.get_running_loop())

    asyncio.run(main())


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_the_pending_limit_per_connection_answers_busy_and_frees_up_after_an_answer() -> None:
    gates: dict[str, asyncio.Future[Any]] = {}

    async def handler(request: ElicitationRequest) -> Any:
        gates[request.message] = asyncio.get_running_loop().create_future()
        return await gates[request.message]

    async def script(d: Dispatcher, _loop: Any) -> None:
        ch = FakeChannel()
        d.connection_made(ch)
        d.data_received(ch, b"".join(create(i, f"m{i}") for i in range(MAX_PENDING_PER_CONNECTION)))
        d.data_received(ch, create("over"))
        await settle()
        assert ch.sent == [
            error(
                "over",
                -32000,
                "Server busy: too many pending requests (16 on this connection)",
                {"limit": 16, "scope": "connection"},
            )
        ]
        d.data_received(ch, request_line("p", "ping"))  # other methods are never limited
        assert ch.sent[-1] == result("p", {})
        gates["m0"].set_result(Declined())
        await settle()
        assert ch.sent[-1] == result(0, {"action": "decline"})
        d.data_received(ch, create("again"))
        await settle()
        assert d.pending_count() == MAX_PENDING_PER_CONNECTION
        assert len(ch.sent) == 3
        d.connection_lost(ch)
        await settle()

    run(handler, script)


def test_the_total_pending_limit_answers_busy_on_any_connection() -> None:
    async def handler(_request: ElicitationRequest) -> Any:
        await asyncio.Event().wait()

    async def script(d: Dispatcher, _loop: Any) -> None:
        # one process each: a process alone may hold only half the total (its fair share)
        channels = [
            FakeChannel(Peer(pid=100 + n, uid=1000, process_name="requester"))
            for n in range(MAX_PENDING_TOTAL // MAX_PENDING_PER_CONNECTION)
        ]
        for ch in channels:
            d.connection_made(ch)
            d.data_received(ch, b"".join(create(i) for i in range(MAX_PENDING_PER_CONNECTION)))
        late = FakeChannel()
        d.connection_made(late)
        d.data_received(late, create(1))
        await settle()
        assert d.pending_count() == MAX_PENDING_TOTAL
        assert late.sent == [
            error(1, -32000, "Server busy: too many pending requests (64 in total)", {"limit": 64, "scope": "total"})
        ]
        assert all(ch.sent == [] for ch in channels)
        d.connection_lost(channels[0])  # its requests expire: room again
        await settle()
        d.data_received(late, create(2))
        await settle()
        assert d.pending_count() == MAX_PENDING_TOTAL - MAX_PENDING_PER_CONNECTION + 1
        assert len(late.sent) == 1
        for ch in [*channels[1:], late]:
            d.connection_lost(ch)
        await settle()
        assert d.pending_count() == 0

    run(handler, script)


@pytest.mark.parametrize(
    "failure",
    [RuntimeError("the dialog could not be built"), KeyError("x"), ZeroDivisionError()],
    ids=["runtime", "key", "zero-division"],
)
def test_a_handler_that_raises_answers_internal_error_never_an_action(failure: Exception) -> None:
    async def handler(_request: ElicitationRequest) -> Any:
        raise failure

    async def script(d: Dispatcher, _loop: Any) -> None:
        ch = FakeChannel()
        d.connection_made(ch)
        d.data_received(ch, create(1) + request_line(2, "ping"))
        await settle()
        assert ch.sent == [result(2, {}), error(1, -32603, f"internal error: {failure}")]

    run(handler, script)


@pytest.mark.parametrize(
    "outcome",
    [None, "accept", Accepted({"n": float("nan")}), Cancelled, object()],
    ids=["none", "a-string", "nan-content", "a-class", "an-object"],
)
def test_an_outcome_that_cannot_be_sent_answers_internal_error(outcome: Any) -> None:
    async def handler(_request: ElicitationRequest) -> Any:
        return outcome

    async def script(d: Dispatcher, _loop: Any) -> None:
        ch = FakeChannel()
        d.connection_made(ch)
        d.data_received(ch, create(1))
        await settle()
        assert len(ch.sent) == 1
        assert ch.sent[0]["id"] == 1 and ch.sent[0]["error"]["code"] == -32603
        assert "result" not in ch.sent[0]

    run(handler, script)


def test_a_failed_outcome_is_an_internal_error_with_its_message() -> None:
    async def handler(_request: ElicitationRequest) -> Any:
        return Failed("no display is available to show the dialog")

    async def script(d: Dispatcher, _loop: Any) -> None:
        ch = FakeChannel()
        d.connection_made(ch)
        d.data_received(ch, create("f"))
        await settle()
        assert ch.sent == [error("f", -32603, "no display is available to show the dialog")]

    run(handler, script)


def test_an_exception_while_reading_the_params_answers_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from elicit_tray.ipc import answers

    def broken(_params: Any, _peer: Any = None) -> Any:
        raise TypeError("a bug in the parser")

    monkeypatch.setattr(answers, "parse_elicit_params", broken)

    async def handler(_request: ElicitationRequest) -> Any:
        raise AssertionError("never called")

    async def script(d: Dispatcher, _loop: Any) -> None:
        ch = FakeChannel()
        d.connection_made(ch)
        d.data_received(ch, create(1) + request_line(2, "ping"))
        await settle()
        assert ch.sent == [error(1, -32603, "Internal error while reading the request"), result(2, {})]
        assert d.pending_count() == 0

    run(handler, script)


def test_a_response_sent_to_the_tray_gets_nothing_and_the_next_request_is_answered() -> None:
    async def handler(_request: ElicitationRequest) -> Any:
        return Accepted({})

    async def script(d: Dispatcher, _loop: Any) -> None:
        ch = FakeChannel()
        d.connection_made(ch)
        d.data_received(
            ch,
            b'{"jsonrpc":"2.0","id":1,"result":{"action":"accept"}}\n'
            b'{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"no"}}\n'
            b'{"jsonrpc":"2.0","id":null,"result":{}}\n' + request_line(3, "ping"),
        )
        assert ch.sent == [result(3, {})]

    run(handler, script)


def test_more_violations_than_the_limit_are_cut_to_the_first_fifty() -> None:
    async def handler(_request: ElicitationRequest) -> Any:
        raise AssertionError("never called")

    async def script(d: Dispatcher, _loop: Any) -> None:
        ch = FakeChannel()
        d.connection_made(ch)
        props = {f"p{i:03}": {"type": "object"} for i in range(MAX_PROPERTIES)}
        d.data_received(
            ch,
            create_line(1, {"message": "m", "requestedSchema": {"type": "object", "properties": props}}),
        )
        (reply,) = ch.sent
        assert reply["error"]["code"] == -32602
        paths = [v["path"] for v in reply["error"]["data"]["violations"]]
        assert paths == [f"/requestedSchema/properties/p{i:03}" for i in range(MAX_VIOLATIONS)]

    run(handler, script)


def test_a_cancelled_request_id_that_is_true_does_not_cancel_request_1() -> None:
    done: list[str] = []

    async def handler(request: ElicitationRequest) -> Any:
        await asyncio.sleep(0.01)
        done.append(request.message)
        return Accepted({})

    async def script(d: Dispatcher, _loop: Any) -> None:
        ch = FakeChannel()
        d.connection_made(ch)
        d.data_received(
            ch, create(1) + b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":true}}\n'
        )
        deadline = asyncio.get_running_loop().time() + 10
        while not ch.sent and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.02)  # bounded poll: until request 1 is answered (a cancelled one never is)
        assert ch.sent == [result(1, {"action": "accept", "content": {}})]

    run(handler, script)
