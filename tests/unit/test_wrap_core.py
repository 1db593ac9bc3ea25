"""The I/O-free core of ``elicit-tray wrap`` (docs/wrap-design.md §2.1-2.5), table-driven:
every test feeds exact bytes and compares the exact bytes and actions that come out.

Proxy ids are ``"P-<n>"`` (``id_prefix="P-"``); tickets and retry ids share one counter, so
the first tray ticket is 1 and a retry after it is ``"P-2"``.
"""

from __future__ import annotations

import json

import pytest

from elicit_tray.wrap.core import (
    AskTray,
    CancelTray,
    CompleteTray,
    Identity,
    ToHost,
    ToServer,
    TrayAnswer,
    WrapCore,
    owned_modes,
)

WHO = "elicit-tray wrap (pid 10) running srv --x (pid 11)"
REQUESTER = {"clientName": WHO}
CAPS = "io.modelcontextprotocol/clientCapabilities"
UNREACHABLE = b'{"code":-32603,"message":"elicit-tray: tray app unreachable"}'


def core(policy: str = "complement", *, tray_up: bool = True) -> WrapCore:
    c = WrapCore(policy, identity=Identity(("srv", "--x"), 10, 11), id_prefix="P-")
    c.tray_up = tray_up
    return c


def init_line(caps: str, version: str = "2025-11-25", end: bytes = b"\n") -> bytes:
    return (
        b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"'
        + version.encode()
        + b'","capabilities":'
        + caps.encode()
        + b',"clientInfo":{"name":"h","version":"1"}}}'
        + end
    )


def init_out(caps: str, version: str = "2025-11-25", end: bytes = b"\n") -> bytes:
    return init_line(caps, version, end)


def legacy(core_: WrapCore, caps: str = "{}") -> WrapCore:
    core_.feed_host(init_line(caps))
    core_.feed_server(
        b'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},'
        b'"serverInfo":{"name":"demo","title":"Demo","version":"1.2"}}}\n'
    )
    return core_


# -- §2.1 ownership and capability injection --------------------------------------------------


@pytest.mark.parametrize(
    ("declared", "policy", "owned"),
    [
        (None, "complement", {"form", "url"}),
        ({}, "complement", {"url"}),
        ({"form": {}}, "complement", {"url"}),
        ({"url": {}}, "complement", {"form"}),
        ({"form": {}, "url": {}}, "complement", set()),
        ({"form": {}, "url": {}}, "always", {"form", "url"}),
        (None, "off", set()),
        (True, "complement", None),
    ],
)
def test_owned_modes(declared, policy, owned):
    result = owned_modes(declared, policy)
    assert (None if result is None else set(result)) == owned


@pytest.mark.parametrize(
    ("policy", "caps_in", "caps_out"),
    [
        ("complement", '{"sampling":{}}', '{"sampling":{},"elicitation":{"form":{},"url":{}}}'),
        ("complement", '{"elicitation":{}}', '{"elicitation":{"form":{},"url":{}}}'),
        (
            "complement",
            '{"elicitation":{"form":{}},"roots":{"listChanged":true}}',
            '{"elicitation":{"form":{},"url":{}},"roots":{"listChanged":true}}',
        ),
        ("complement", '{"elicitation":{"url":{}}}', '{"elicitation":{"url":{},"form":{}}}'),
        ("always", '{"elicitation":{}}', '{"elicitation":{"form":{},"url":{}}}'),
        ("always", "{}", '{"elicitation":{"form":{},"url":{}}}'),
    ],
)
def test_2025_initialize_declares_the_owned_modes(policy, caps_in, caps_out):
    c = core(policy)
    assert c.feed_host(init_line(caps_in)) == [ToServer(init_out(caps_out))]


@pytest.mark.parametrize(
    ("policy", "caps", "version", "tray_up"),
    [
        ("complement", '{"elicitation":{"form":{},"url":{}}}', "2025-11-25", True),  # host has both
        ("always", '{"elicitation":{"form":{},"url":{}}}', "2025-11-25", True),  # nothing to add
        ("off", "{}", "2025-11-25", True),
        ("complement", "{}", "2025-03-26", True),  # before elicitation existed
        ("complement", "{}", "2025-11-25", False),  # tray down before declaring (§2.5)
        ("complement", '{"elicitation":true}', "2025-11-25", True),  # not understood
    ],
)
def test_2025_initialize_left_untouched(policy, caps, version, tray_up):
    c = core(policy, tray_up=tray_up)
    line = init_line(caps, version)
    out = c.feed_host(line)
    assert out == [ToServer(line)] and out[0].data is line


def test_2025_06_18_gets_a_bare_form_capability_and_no_url():
    c = core()
    assert c.feed_host(init_line("{}", "2025-06-18")) == [ToServer(init_out('{"elicitation":{}}', "2025-06-18"))]
    assert c.owned_legacy == {"form"}


def test_initialize_is_edited_once_and_keeps_its_crlf():
    c = core()
    assert c.feed_host(init_line("{}", end=b"\r\n")) == [
        ToServer(init_out('{"elicitation":{"form":{},"url":{}}}', end=b"\r\n"))
    ]
    again = init_line("{}")
    assert c.feed_host(again)[0].data is again


def test_initialize_that_cannot_be_reencoded_is_forwarded_and_owns_nothing():
    c = core()
    line = (
        b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
        b'"capabilities":{},"x":1e400}}\n'
    )
    assert c.feed_host(line)[0].data is line
    assert c.owned_legacy == frozenset()


def enveloped(method: str, caps: str, request_id: str = "1", extra: str = "") -> bytes:
    return (
        '{"jsonrpc":"2.0","id":%s,"method":"%s","params":{%s"_meta":{"io.modelcontextprotocol/protocolVersion":'
        '"2026-07-28","%s":%s}}}\n' % (request_id, method, extra, CAPS, caps)
    ).encode()


@pytest.mark.parametrize("method", ["server/discover", "tools/list", "tools/call", "ping"])
def test_2026_every_enveloped_request_gets_the_owned_modes(method):
    c = core()
    assert c.feed_host(enveloped(method, '{"sampling":{}}')) == [
        ToServer(enveloped(method, '{"sampling":{},"elicitation":{"form":{},"url":{}}}'))
    ]


@pytest.mark.parametrize(
    ("policy", "tray_up", "line"),
    [
        ("complement", False, enveloped("tools/call", "{}")),  # tray down
        ("off", True, enveloped("tools/call", "{}")),
        ("complement", True, enveloped("tools/call", '{"elicitation":{"form":{},"url":{}}}')),
        (
            "complement",
            True,
            b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x",'
            b'"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}\n',
        ),  # no caps key
        ("complement", True, enveloped("tools/call", "{}", extra='"n":1e400,')),  # cannot be re-encoded
    ],
)
def test_2026_request_left_untouched(policy, tray_up, line):
    c = core(policy, tray_up=tray_up)
    assert c.feed_host(line)[0].data is line


def test_wants_tray_state_only_for_lines_that_may_declare():
    c = core()
    assert c.wants_tray_state(init_line("{}"))
    assert c.wants_tray_state(enveloped("tools/call", "{}"))
    assert not c.wants_tray_state(b'{"jsonrpc":"2.0","id":3,"method":"ping"}\n')
    c.feed_host(init_line("{}"))
    assert not c.wants_tray_state(init_line("{}"))
    assert not core("off").wants_tray_state(enveloped("tools/call", "{}"))


# -- §2.2 2025-11-25 message rules -------------------------------------------------------------

FORM = b'{"mode":"form","message":"Go?","requestedSchema":{"type":"object","properties":{}}}'
FORM_PARAMS = json.loads(FORM)


def test_owned_elicitation_is_answered_under_the_servers_id_and_never_reaches_the_host():
    c = legacy(core())
    ask = c.feed_server(b'{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":' + FORM + b"}\n")
    requester = {"serverName": "demo", "serverTitle": "Demo", "serverVersion": "1.2", "clientName": WHO}
    assert ask == [AskTray(1, {**FORM_PARAMS, "_meta": {"elicit-tray/requester": requester}})]
    assert c.tray_done(1, TrayAnswer(result={"action": "accept", "content": {"ok": True}})) == [
        ToServer(b'{"jsonrpc":"2.0","id":7,"result":{"action":"accept","content":{"ok":true}}}\n')
    ]


def test_a_string_id_comes_back_as_the_same_string():
    c = legacy(core())
    c.feed_server(b'{"jsonrpc":"2.0","id":"7","method":"elicitation/create","params":' + FORM + b"}\n")
    assert c.tray_done(1, TrayAnswer(result={"action": "decline"})) == [
        ToServer(b'{"jsonrpc":"2.0","id":"7","result":{"action":"decline"}}\n')
    ]


def test_the_servers_own_requester_meta_is_replaced():
    c = legacy(core())
    line = (
        b'{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"message":"m","requestedSchema":'
        b'{"type":"object","properties":{}},"_meta":{"elicit-tray/requester":{"serverName":"Your Bank"},"k":1}}}\n'
    )
    [ask] = c.feed_server(line)
    assert ask.params["_meta"] == {
        "k": 1,
        "elicit-tray/requester": {
            "serverName": "demo",
            "serverTitle": "Demo",
            "serverVersion": "1.2",
            "clientName": WHO,
        },
    }


@pytest.mark.parametrize(
    ("caps", "tray_up", "line"),
    [
        (
            '{"elicitation":{"form":{}}}',
            True,  # host-owned form
            b'{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":' + FORM + b"}\n",
        ),
        (
            '{"elicitation":{"url":{}}}',
            True,  # host-owned url
            b'{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"mode":"url","message":"m",'
            b'"url":"https://a.example","elicitationId":"e"}}\n',
        ),
        (
            "{}",
            False,  # the tray was down at initialize
            b'{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":' + FORM + b"}\n",
        ),
        (
            "{}",
            True,
            b'{"jsonrpc":"2.0","id":8,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":9}}\n',
        ),
        ("{}", True, b'{"jsonrpc":"2.0","id":9,"method":"roots/list"}\n'),
        ("{}", True, b'{"jsonrpc":"2.0","id":10,"method":"ping"}\n'),
        ("{}", True, b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}\n'),  # not ours
        (
            "{}",
            True,
            b'{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"zz"}}\n',
        ),
        (
            "{}",
            True,
            b'{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n',
        ),
    ],
)
def test_server_lines_forwarded_raw(caps, tray_up, line):
    c = core(tray_up=tray_up)
    legacy(c, caps)
    assert c.feed_server(line)[0].data is line


def test_host_answers_go_back_raw_and_host_cancel_is_forwarded_in_2025():
    c = legacy(core())
    for line in (
        b'{"jsonrpc":"2.0","id":8,"result":{"role":"assistant","content":{"type":"text","text":"x"},"model":"m"}}\n',
        b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"x"}}\n',
    ):
        assert c.feed_host(line)[0].data is line


def test_server_cancel_of_an_owned_elicitation_closes_the_dialog_and_sends_nothing():
    c = legacy(core())
    c.feed_server(b'{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":' + FORM + b"}\n")
    assert c.feed_server(b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}\n') == [
        CancelTray(1)
    ]
    assert c.tray_done(1, TrayAnswer(result={"action": "cancel"})) == []


def test_completion_of_a_url_elicitation_the_proxy_answered_goes_to_the_tray():
    c = legacy(core())
    c.feed_server(
        b'{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"mode":"url","message":"m",'
        b'"url":"https://a.example","elicitationId":"e1"}}\n'
    )
    assert c.tray_done(1, TrayAnswer(result={"action": "accept"})) == [
        ToServer(b'{"jsonrpc":"2.0","id":7,"result":{"action":"accept"}}\n')
    ]
    done = b'{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"e1"}}\n'
    assert c.feed_server(done) == [CompleteTray("e1")]
    assert c.feed_server(done)[0].data is done  # a repeat is unknown now: forwarded


def test_url_required_error_shows_the_url_and_is_forwarded_unchanged():
    c = legacy(core())
    line = (
        b'{"jsonrpc":"2.0","id":4,"error":{"code":-32042,"message":"auth","data":{"elicitations":[{"mode":"url",'
        b'"message":"Log in","url":"https://a.example/x","elicitationId":"e2"}]}}}\n'
    )
    out = c.feed_server(line)
    assert out == [
        AskTray(
            1,
            {
                "mode": "url",
                "message": "Log in",
                "url": "https://a.example/x",
                "elicitationId": "e2",
                "_meta": {
                    "elicit-tray/requester": {
                        "serverName": "demo",
                        "serverTitle": "Demo",
                        "serverVersion": "1.2",
                        "clientName": WHO,
                    }
                },
            },
        ),
        ToHost(line),
    ]
    assert out[1].data is line
    assert c.tray_done(1, TrayAnswer(result={"action": "accept"})) == []
    assert c.feed_server(
        b'{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"e2"}}\n'
    ) == [CompleteTray("e2")]


def test_tray_gone_after_declaring_answers_the_server_with_internal_error_never_a_decision():
    c = legacy(core())
    c.feed_server(b'{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":' + FORM + b"}\n")
    assert c.tray_done(1, TrayAnswer.unreachable()) == [
        ToServer(b'{"jsonrpc":"2.0","id":7,"error":' + UNREACHABLE + b"}\n")
    ]


def test_a_tray_error_is_relayed_to_the_server():
    c = legacy(core())
    c.feed_server(b'{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":' + FORM + b"}\n")
    error = {"code": -32602, "message": "bad", "data": {"violations": [{"path": "/message", "message": "x"}]}}
    assert c.tray_done(1, TrayAnswer(error=error)) == [
        ToServer(
            b'{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"bad","data":{"violations":'
            b'[{"path":"/message","message":"x"}]}}}\n'
        )
    ]


# -- §2.3 2026-07-28 MRTR ----------------------------------------------------------------------

CALL = enveloped("tools/call", "{}", extra='"name":"t","arguments":{"a":1},')
CALL_OUT = enveloped("tools/call", '{"elicitation":{"form":{},"url":{}}}', extra='"name":"t","arguments":{"a":1},')
META = (
    '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","%s":{"elicitation":{"form":{},"url":{}}}}' % CAPS
)
ELICIT_REQ = '{"method":"elicitation/create","params":{"mode":"form","message":"Go?","requestedSchema":{"type":"object","properties":{}}}}'
STATE = r'"v1.\u00e9\/x"'  # escapes kept byte for byte in the retry


def input_required(request_id: str, requests: str, state: str | None = STATE) -> bytes:
    body = '"resultType":"input_required","inputRequests":{%s}' % requests
    if state is not None:
        body += ',"requestState":%s' % state
    return ('{"jsonrpc":"2.0","id":%s,"result":{%s}}\n' % (request_id, body)).encode()


def retry(retry_id: str, responses: str, state: str | None = STATE) -> bytes:
    tail = ',"requestState":%s' % state if state is not None else ""
    return (
        '{"jsonrpc":"2.0","id":"%s","method":"tools/call","params":{"name":"t","arguments":{"a":1},%s,'
        '"inputResponses":{%s}%s}}\n' % (retry_id, META, responses, tail)
    ).encode()


def asked(ticket: int) -> AskTray:
    return AskTray(
        ticket,
        {
            "mode": "form",
            "message": "Go?",
            "requestedSchema": {"type": "object", "properties": {}},
            "_meta": {"elicit-tray/requester": REQUESTER},
        },
    )


def test_one_round_is_answered_retried_under_a_proxy_id_and_returned_under_the_host_id():
    c = core()
    assert c.feed_host(CALL) == [ToServer(CALL_OUT)]
    assert c.feed_server(input_required("1", '"k":' + ELICIT_REQ)) == [asked(1)]
    assert c.tray_done(1, TrayAnswer(result={"action": "accept", "content": {}})) == [
        ToServer(retry("P-2", '"k":{"action":"accept","content":{}}'))
    ]
    final = b'{"jsonrpc":"2.0","id":"P-2","result":{"content":[],"x-extra":1e400},"z":[1.5]}\n'
    assert c.feed_server(final) == [
        ToHost(b'{"jsonrpc":"2.0","id":1,"result":{"content":[],"x-extra":1e400},"z":[1.5]}\n')
    ]


def test_several_rounds_and_a_round_without_request_state():
    c = core()
    c.feed_host(CALL)
    c.feed_server(input_required("1", '"a":' + ELICIT_REQ + ',"b":' + ELICIT_REQ, state=None))
    assert c.tray_done(2, TrayAnswer(result={"action": "decline"})) == []  # waits for every key
    assert c.tray_done(1, TrayAnswer(result={"action": "cancel"})) == [
        ToServer(retry("P-3", '"a":{"action":"cancel"},"b":{"action":"decline"}', state=None))
    ]
    assert c.feed_server(input_required('"P-3"', '"c":' + ELICIT_REQ, state='"s2"')) == [asked(4)]
    assert c.tray_done(4, TrayAnswer(result={"action": "accept", "content": {}})) == [
        ToServer(retry("P-5", '"c":{"action":"accept","content":{}}', state='"s2"'))
    ]
    assert c.feed_server(b'{"jsonrpc":"2.0","id":"P-5","result":{"content":[]}}\n') == [
        ToHost(b'{"jsonrpc":"2.0","id":1,"result":{"content":[]}}\n')
    ]


def test_mixed_round_answers_the_owned_keys_and_forwards_the_rest_under_the_host_id():
    c = core()
    c.feed_host(CALL)
    sample = '{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}'
    assert c.feed_server(input_required("1", '"s":' + sample + ',"e":' + ELICIT_REQ)) == [asked(1)]
    assert c.tray_done(1, TrayAnswer(result={"action": "decline"})) == [
        ToServer(retry("P-2", '"e":{"action":"decline"}'))
    ]
    rest = input_required('"P-2"', '"s":' + sample, state='"s3"')
    assert c.feed_server(rest) == [ToHost(input_required("1", '"s":' + sample, state='"s3"'))]


@pytest.mark.parametrize(
    "result",
    [
        b'{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"only"}}\n',  # state only
        b'{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list"}}}}\n',
        b'{"jsonrpc":"2.0","id":1,"result":{"content":[]}}\n',
        b'{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}}\n',
    ],
)
def test_answers_with_nothing_owned_are_forwarded_raw(result):
    c = core()
    c.feed_host(CALL)
    assert c.feed_server(result)[0].data is result


def test_host_owned_modes_are_not_intercepted():
    c = core()
    c.feed_host(enveloped("tools/call", '{"elicitation":{"form":{}}}'))  # owns url only
    line = input_required("1", '"k":' + ELICIT_REQ)
    assert c.feed_server(line)[0].data is line


def test_requests_not_injected_are_not_watched():
    c = core(tray_up=False)
    c.feed_host(CALL)
    line = input_required("1", '"k":' + ELICIT_REQ)
    assert c.feed_server(line)[0].data is line


def test_a_server_error_on_a_retry_goes_to_the_host_under_its_id():
    c = core()
    c.feed_host(CALL)
    c.feed_server(input_required("1", '"k":' + ELICIT_REQ))
    c.tray_done(1, TrayAnswer(result={"action": "decline"}))
    assert c.feed_server(
        b'{"jsonrpc":"2.0","id":"P-2","error":{"code":-32602,"message":"Invalid or expired requestState"}}\n'
    ) == [ToHost(b'{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid or expired requestState"}}\n')]


def test_more_than_ten_rounds_is_an_error_for_the_host():
    c = core()
    c.feed_host(CALL)
    request_id = "1"
    for _ in range(10):
        [ask] = c.feed_server(input_required(request_id, '"k":' + ELICIT_REQ))
        [sent] = c.tray_done(ask.ticket, TrayAnswer(result={"action": "decline"}))
        request_id = json.dumps(json.loads(sent.data)["id"])
    assert c.feed_server(input_required(request_id, '"k":' + ELICIT_REQ)) == [
        ToHost(
            b'{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"elicit-tray: the server asked for input in more '
            b'than 10 rounds"}}\n'
        )
    ]


def test_ids_1_and_string_1_are_different_requests():
    c = core()
    c.feed_host(CALL)
    c.feed_host(enveloped("tools/call", "{}", request_id='"1"', extra='"name":"t","arguments":{"a":1},'))
    assert c.feed_server(input_required('"1"', '"k":' + ELICIT_REQ)) == [asked(1)]
    plain = b'{"jsonrpc":"2.0","id":1,"result":{"content":[]}}\n'
    assert c.feed_server(plain)[0].data is plain
    c.tray_done(1, TrayAnswer(result={"action": "decline"}))
    assert c.feed_server(b'{"jsonrpc":"2.0","id":"P-2","result":{}}\n') == [
        ToHost(b'{"jsonrpc":"2.0","id":"1","result":{}}\n')
    ]


def test_tray_gone_in_2026_is_an_internal_error_to_the_host_and_siblings_close():
    c = core()
    c.feed_host(CALL)
    c.feed_server(input_required("1", '"a":' + ELICIT_REQ + ',"b":' + ELICIT_REQ))
    assert c.tray_done(1, TrayAnswer.unreachable()) == [
        CancelTray(2),
        ToHost(b'{"jsonrpc":"2.0","id":1,"error":' + UNREACHABLE + b"}\n"),
    ]
    assert c.tray_done(2, TrayAnswer(result={"action": "accept", "content": {}})) == []


# -- §2.4 cancellation and progress -------------------------------------------------------------

CANCEL_H = b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"user"}}\n'


def test_host_cancel_while_the_tray_is_open_closes_it_and_is_dropped():
    c = core()
    c.feed_host(CALL)
    c.feed_server(input_required("1", '"k":' + ELICIT_REQ))
    assert c.feed_host(CANCEL_H) == [CancelTray(1)]
    assert c.tray_done(1, TrayAnswer(result={"action": "cancel"})) == []


def test_host_cancel_while_the_retry_is_at_the_server_is_rewritten_and_its_late_answer_dropped():
    c = core()
    c.feed_host(CALL)
    c.feed_server(input_required("1", '"k":' + ELICIT_REQ))
    c.tray_done(1, TrayAnswer(result={"action": "decline"}))
    assert c.feed_host(CANCEL_H) == [
        ToServer(b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"P-2","reason":"user"}}\n')
    ]
    assert c.feed_server(b'{"jsonrpc":"2.0","id":"P-2","result":{"content":[]}}\n') == []


def test_host_cancel_before_the_first_answer_is_forwarded_and_the_watch_ends():
    c = core()
    c.feed_host(CALL)
    assert c.feed_host(CANCEL_H)[0].data is CANCEL_H
    late = input_required("1", '"k":' + ELICIT_REQ)
    assert c.feed_server(late)[0].data is late


def test_progress_is_forwarded_raw_in_both_directions():
    c = core()
    c.feed_host(CALL)
    c.feed_server(input_required("1", '"k":' + ELICIT_REQ))
    progress = b'{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":2}}\n'
    assert c.feed_server(progress)[0].data is progress


# -- §2.5 odd input -------------------------------------------------------------------------------

ODD = [
    b'[{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}]\n',
    b'not json "initialize" "elicitation/create"\n',
    b'{"id":1.5,"method":"ping"}\n',
    b'{"jsonrpc":"2.0","id":1,"result":{"n":1e400}}\n',
    b'{"jsonrpc":"2.0","id":"1","method":"x","params":{"x-trace":"abc","\\u00e9":1}}\r\n',
    b'{"jsonrpc":"2.0","id":2,"method":"elicitation/create","method":"elicitation/create","params":{}}\n',  # dup key
    b'{"jsonrpc":"2.0","id":2,"method":"elicitation/create","params":{"message":"\xff"}}\n',  # invalid UTF-8
    b"   \n",
    b'{"jsonrpc":"2.0","method":"initialize"',  # last line without a terminator
]


@pytest.mark.parametrize("line", ODD)
@pytest.mark.parametrize("policy", ["complement", "always", "off"])
def test_odd_lines_pass_untouched_both_ways(line, policy):
    c = core(policy)
    if policy != "off":
        legacy(c)
    assert [a.data for a in c.feed_host(line)] == [line] and c.feed_host(line)[0].data is line
    assert c.feed_server(line)[0].data is line


def test_off_is_a_pure_pipe():
    c = core("off")
    line = init_line("{}")
    assert c.feed_host(line)[0].data is line
    ask = b'{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":' + FORM + b"}\n"
    assert c.feed_server(ask)[0].data is ask


def test_client_name_is_cut_to_the_trays_limit():
    name = Identity(("x" * 5000,), 1, 2).client_name()
    assert len(name) == 1000 and name.endswith("… (pid 2)")


def test_unknown_policy_is_refused():
    with pytest.raises(ValueError):
        WrapCore("sometimes")


# -- the rules cited by the code exist ------------------------------------------------------------


def test_every_section_the_wrap_code_cites_is_in_docs_wrap_design():
    """``wrap/`` cites ``docs/wrap-design.md`` by section (``§2.1``, ``§2.3.4``): each cited
    section is a heading there, and ``§2.3.N`` a numbered rule of §2.3."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    doc = (root / "docs" / "wrap-design.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^#+ (§\d+(?:\.\d+)?) ", doc, re.MULTILINE))
    mrtr = doc[doc.index("### §2.3 ") : doc.index("### §2.4 ")]
    rules = {f"§2.3.{n}" for n in re.findall(r"^(\d+)\. ", mrtr, re.MULTILINE)}
    cited = {
        ref
        for path in sorted((root / "src" / "elicit_tray" / "wrap").glob("*.py"))
        for ref in re.findall(r"§\d+(?:\.\d+)*", path.read_text(encoding="utf-8"))
    }
    assert cited and "§2.3.4" in cited
    assert cited <= headings | rules, sorted(cited - headings - rules)
