"""``-32042`` (URL elicitation required) for a host without URL mode, in the wrap core
(docs/wrap-design.md §2.8): exact bytes in, exact bytes and actions out. The consent and the
wait are rounds of the session's URL flow (§2.9): the same params, the second one answered in
the flow's waiting window ("I have finished, check again" = accept, Cancel = cancel).

Proxy ids are ``"P-<n>"``; tickets and retry ids share one counter; the flow is ``"P-flow"``.
"""

from __future__ import annotations

import json

from elicit_tray.wrap.core import AskTray, CancelTray, CompleteTray, ReleaseTray, ToHost, ToServer, TrayAnswer
from tests.unit.test_wrap_core import WHO, core, enveloped, legacy

REQUESTER = {"serverName": "demo", "serverTitle": "Demo", "serverVersion": "1.2", "clientName": WHO}
CALL = b'{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"connect","arguments":{"a":1e2}}}\n'
ACCEPT = TrayAnswer(result={"action": "accept"})


def required(eid: str = "e2", url: str = "https://a.example/x", request_id: str = "4") -> bytes:
    return (
        b'{"jsonrpc":"2.0","id":' + request_id.encode() + b',"error":{"code":-32042,"message":"auth","data":'
        b'{"elicitations":[{"mode":"url","message":"Log in","url":"'
        + url.encode()
        + b'","elicitationId":"'
        + eid.encode()
        + b'"}]}}}\n'
    )


def complete(eid: str = "e2") -> bytes:
    return (
        b'{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"'
        + eid.encode()
        + b'"}}\n'
    )


def consent(ticket: int, eid: str = "e2", url: str = "https://a.example/x") -> AskTray:
    return AskTray(
        ticket,
        {
            "mode": "url",
            "message": "Log in",
            "url": url,
            "elicitationId": eid,
            "_meta": {"elicit-tray/requester": REQUESTER, "elicit-tray/flow": "P-flow"},
        },
        "4",  # its connection is held for host request 4
    )


#: The round that waits in the flow's window: the same URL elicitation again, in the same flow.
waiting = consent
RELEASE = ReleaseTray("4")


def retry(n: int) -> ToServer:
    return ToServer(CALL.replace(b'"id":4', b'"id":"P-%d"' % n))


def started():
    c = legacy(core())
    out = c.feed_host(CALL)
    assert out == [ToServer(CALL)] and out[0].data is CALL
    assert c.feed_server(required()) == [consent(1)]
    return c


def test_accept_then_the_servers_completion_notice_retries_and_the_host_gets_the_answer_under_its_id():
    c = started()
    assert c.tray_done(1, ACCEPT) == [waiting(2)]
    assert c.feed_server(complete()) == [CompleteTray("e2"), CancelTray(2), retry(3)]
    assert c.feed_server(b'{"jsonrpc":"2.0","id":"P-3","result":{"content":[],"x":1e400}}\n') == [
        RELEASE,  # the flow's window closes with the host's answer
        ToHost(b'{"jsonrpc":"2.0","id":4,"result":{"content":[],"x":1e400}}\n'),
    ]
    assert c.required.flows == {}
    assert c.feed_server(complete()) == []  # a late repeat of the notice never reaches the host


def test_a_completion_notice_before_the_consent_retries_at_the_consent():
    c = started()
    assert c.feed_server(complete()) == []
    assert c.tray_done(1, ACCEPT) == [CompleteTray("e2"), retry(2)]


def test_i_have_finished_retries_without_a_notice_and_the_held_connection_is_let_go_at_the_end():
    c = started()
    assert c.tray_done(1, ACCEPT) == [waiting(2)]
    assert c.tray_done(2, ACCEPT) == [retry(3)]
    assert c.feed_server(b'{"jsonrpc":"2.0","id":"P-3","error":{"code":-32603,"message":"no"}}\n') == [
        RELEASE,
        ToHost(b'{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"no"}}\n'),
    ]


def refused(action: str, verb: str) -> bytes:
    return (
        b'{"jsonrpc":"2.0","id":4,"error":{"code":-32800,"message":"elicit-tray: the user '
        + verb.encode()
        + b'; the request was not retried","data":{"action":"'
        + action.encode()
        + b'"}}}\n'
    )


DECLINED = refused("decline", "declined to open the web page the server asked for")
CANCELLED = refused("cancel", "cancelled the web page step the server asked for")


def test_decline_and_cancel_of_the_url_give_the_host_an_error_it_can_act_on():
    for action, expected in (("decline", DECLINED), ("cancel", CANCELLED)):
        c = started()
        assert c.tray_done(1, TrayAnswer(result={"action": action})) == [RELEASE, ToHost(expected)]
        assert c.feed_server(complete()) == []


def test_cancel_in_the_waiting_window_ends_the_flow_and_the_next_request_asks_for_consent_again():
    c = started()
    c.tray_done(1, ACCEPT)
    assert c.tray_done(2, TrayAnswer(result={"action": "cancel"})) == [RELEASE, ToHost(CANCELLED)]
    assert c.feed_host(CALL) == [ToServer(CALL)]  # the tray forgot the consent: so does wrap
    assert c.feed_server(required("e5")) == [consent(3, "e5")]


def test_after_a_finished_flow_the_same_url_goes_straight_to_the_waiting_window():
    c = started()
    c.tray_done(1, ACCEPT)
    c.tray_done(2, ACCEPT)
    c.feed_server(b'{"jsonrpc":"2.0","id":"P-3","result":{}}\n')
    c.feed_host(CALL)
    assert c.feed_server(required("e5")) == [waiting(4, "e5")]  # the tray remembers the consent
    assert c.tray_done(4, ACCEPT) == [retry(5)]


def test_a_tray_error_goes_to_the_host_and_closes_the_other_dialogs():
    c = legacy(core())
    c.feed_host(CALL)
    two = required().replace(
        b"}]}}}", b'},{"mode":"url","message":"m","url":"https://b.example/","elicitationId":"e3"}]}}}'
    )
    out = c.feed_server(two)
    assert [type(a) for a in out] == [AskTray, AskTray]
    assert c.tray_done(1, TrayAnswer.unreachable()) == [
        CancelTray(2),
        RELEASE,
        ToHost(b'{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"elicit-tray: tray app unreachable"}}\n'),
    ]
    assert c.tray_done(2, ACCEPT) == [RELEASE]  # an accept on its way: its held connection goes


def test_a_host_that_declared_url_mode_gets_the_error_unchanged():
    c = legacy(core(), caps='{"elicitation":{"url":{}}}')
    assert c.feed_host(CALL)[0].data is CALL
    line = required()
    out = c.feed_server(line)
    assert out == [ToHost(line)] and out[0].data is line


def test_a_second_round_asks_consent_only_for_a_new_url_and_never_spins():
    c = started()
    c.tray_done(1, ACCEPT)
    assert c.tray_done(2, ACCEPT) == [retry(3)]
    # the same URL again (a new elicitationId): no second consent, the user says when done
    assert c.feed_server(required("e4", request_id='"P-3"')) == [waiting(4, "e4")]
    assert c.tray_done(4, ACCEPT) == [retry(5)]
    # a new URL: consent again
    assert c.feed_server(required("e6", "https://c.example/", '"P-5"')) == [consent(6, "e6", "https://c.example/")]


def test_rounds_are_bounded():
    c = legacy(core())
    c.required.max_rounds = 2
    c.feed_host(CALL)
    c.feed_server(required())
    c.tray_done(1, ACCEPT)
    c.tray_done(2, ACCEPT)
    c.feed_server(required("e4", request_id='"P-3"'))
    c.tray_done(4, ACCEPT)
    assert c.feed_server(required("e6", request_id='"P-5"')) == [
        RELEASE,
        ToHost(
            b'{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"elicit-tray: the server asked for a web '
            b'page step in more than 2 rounds"}}\n'
        ),
    ]


def cancel(request_id: str) -> bytes:
    return (
        b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":'
        + request_id.encode()
        + b',"reason":"x"}}\n'
    )


def test_host_cancel_during_consent_closes_the_dialog_and_nothing_goes_anywhere():
    c = started()
    assert c.feed_host(cancel("4")) == [CancelTray(1), RELEASE]
    assert c.tray_done(1, TrayAnswer(result={"action": "decline"})) == []
    assert c.feed_server(complete()) == []


def test_an_accept_that_crossed_the_hosts_cancel_lets_its_held_connection_go():
    c = started()
    assert c.feed_host(cancel("4")) == [CancelTray(1), RELEASE]
    assert c.tray_done(1, ACCEPT) == [RELEASE]
    assert c.tray_done(1, ACCEPT) == []


def test_host_cancel_while_waiting_closes_the_dialog_and_the_held_connection():
    c = started()
    c.tray_done(1, ACCEPT)
    assert c.feed_host(cancel("4")) == [CancelTray(2), RELEASE]


def test_host_cancel_while_the_retry_is_at_the_server_cancels_the_retry_and_drops_its_answer():
    c = started()
    c.tray_done(1, ACCEPT)
    c.tray_done(2, ACCEPT)
    assert c.feed_host(cancel("4")) == [
        RELEASE,
        ToServer(b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"P-3","reason":"x"}}\n'),
    ]
    assert c.feed_server(b'{"jsonrpc":"2.0","id":"P-3","result":{}}\n') == []


def test_host_cancel_before_the_first_answer_is_forwarded_and_the_watch_ends():
    c = legacy(core())
    c.feed_host(CALL)
    line = cancel("4")
    assert c.feed_host(line)[0].data is line
    assert c.required.flows == {}


def test_other_answers_to_a_watched_request_pass_byte_for_byte():
    c = legacy(core())
    c.feed_host(CALL)
    line = b'{"jsonrpc":"2.0","id":4,"result":{"content":[]}}\n'
    out = c.feed_server(line)
    assert out == [ToHost(line)] and out[0].data is line
    assert json.loads(line) and c.required.flows == {}


def test_2026_a_first_answer_of_32042_is_finished_the_same_way_with_the_request_as_forwarded():
    c = core()
    host = enveloped("tools/call", "{}", extra='"name":"connect",')
    forwarded = c.feed_host(host)[0].data
    requester = {"clientName": WHO}
    item = {"mode": "url", "message": "Log in", "url": "https://a.example/x", "elicitationId": "e2"}
    meta = {"elicit-tray/requester": requester, "elicit-tray/flow": "P-flow"}
    assert c.feed_server(required(request_id="1")) == [AskTray(1, {**item, "_meta": meta}, "1")]
    assert c.tray_done(1, ACCEPT) == [AskTray(2, {**item, "_meta": meta}, "1")]  # the user says when
    [sent] = c.tray_done(2, ACCEPT)
    assert isinstance(sent, ToServer)
    assert json.loads(sent.data) == dict(json.loads(forwarded), id="P-3")
    assert c.feed_server(b'{"jsonrpc":"2.0","id":"P-3","result":{"content":[]}}\n') == [
        ReleaseTray("1"),
        ToHost(b'{"jsonrpc":"2.0","id":1,"result":{"content":[]}}\n'),
    ]
