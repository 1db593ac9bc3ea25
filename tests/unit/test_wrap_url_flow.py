"""URL flows over several rounds on the requester side (docs/design.md "URL flows over several
rounds", docs/wrap-design.md §2.9): wrap marks its URL rounds with one flow per session and does
not count a URL round asked again toward its round limit; the requester keeps the connection of
an accepted round open until the flow's next round is answered."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from elicit_tray.client import Completions, request
from elicit_tray.wrap.core import AskTray, CancelTray, ReleaseTray, ToHost, ToServer, TrayAnswer
from tests.unit.test_wrap_core import CALL, REQUESTER, core, input_required, legacy

FLOW = {"elicit-tray/flow": "P-flow"}


def url_request(url: str) -> str:
    return '{"method":"elicitation/create","params":{"mode":"url","message":"Link","url":"%s"}}' % url


def test_2026_url_rounds_carry_the_sessions_flow_and_a_round_asked_again_is_not_counted():
    c = core()
    c.feed_host(CALL)
    request_id = "1"
    for _ in range(15):  # more than the 10-round limit: the user paces these
        [ask] = c.feed_server(input_required(request_id, '"k":' + url_request("https://a.example/x")))
        assert ask == AskTray(
            ask.ticket,
            {
                "mode": "url",
                "message": "Link",
                "url": "https://a.example/x",
                "_meta": {"elicit-tray/requester": REQUESTER, **FLOW},
            },
            "1",  # held for host request 1
        )
        [sent] = c.tray_done(ask.ticket, TrayAnswer(result={"action": "accept"}))
        request_id = json.dumps(json.loads(sent.data)["id"])
    [ask] = c.feed_server(input_required(request_id, '"k":' + url_request("https://a.example/other")))  # counted
    assert isinstance(ask, AskTray)
    [sent] = c.tray_done(ask.ticket, TrayAnswer(result={"action": "accept"}))
    assert isinstance(sent, ToServer)
    final = b'{"jsonrpc":"2.0","id":%s,"result":{"content":[]}}\n' % json.dumps(json.loads(sent.data)["id"]).encode()
    # the host's answer lets go of the connections of its rounds: the flow's window closes now
    assert c.feed_server(final) == [ReleaseTray("1"), ToHost(b'{"jsonrpc":"2.0","id":1,"result":{"content":[]}}\n')]


def test_2026_rounds_for_ever_new_urls_still_end_at_the_limit():
    c = core()
    c.feed_host(CALL)
    request_id = "1"
    for n in range(10):
        [ask] = c.feed_server(input_required(request_id, '"k":' + url_request(f"https://a.example/{n}")))
        [sent] = c.tray_done(ask.ticket, TrayAnswer(result={"action": "accept"}))
        request_id = json.dumps(json.loads(sent.data)["id"])
    [release, error] = c.feed_server(input_required(request_id, '"k":' + url_request("https://a.example/10")))
    assert release == ReleaseTray("1") and json.loads(error.data)["error"]["code"] == -32603


def url_round(c: Any) -> AskTray:
    c.feed_host(CALL)
    [ask] = c.feed_server(input_required("1", '"k":' + url_request("https://a.example/x")))
    assert isinstance(ask, AskTray) and ask.owner == "1"
    return ask


def test_2026_the_host_cancelling_or_a_tray_error_lets_go_of_the_rounds_connections():
    c = core()
    ask = url_round(c)
    cancel = b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}\n'
    assert c.feed_host(cancel) == [ReleaseTray("1"), CancelTray(ask.ticket)]
    c = core()
    ask = url_round(c)
    [sent] = c.tray_done(ask.ticket, TrayAnswer(result={"action": "accept"}))
    retry_id = json.loads(sent.data)["id"]
    [release, forwarded] = c.feed_host(cancel)
    assert release == ReleaseTray("1") and json.loads(forwarded.data)["params"] == {"requestId": retry_id}
    c = core()
    ask = url_round(c)
    [release, error] = c.tray_done(ask.ticket, TrayAnswer.unreachable())
    assert release == ReleaseTray("1") and json.loads(error.data)["error"]["code"] == -32603


def test_2026_forms_are_not_held_and_their_end_releases_nothing():
    c = core()
    c.feed_host(CALL)
    form = '"f":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object"}}}'
    [ask] = c.feed_server(input_required("1", form))
    assert isinstance(ask, AskTray) and ask.owner is None
    [sent] = c.tray_done(ask.ticket, TrayAnswer(result={"action": "accept", "content": {}}))
    final = b'{"jsonrpc":"2.0","id":%s,"result":{}}\n' % json.dumps(json.loads(sent.data)["id"]).encode()
    assert c.feed_server(final) == [ToHost(b'{"jsonrpc":"2.0","id":1,"result":{}}\n')]


def test_2025_url_elicitations_carry_the_flow_and_forms_do_not():
    c = legacy(core())
    [ask] = c.feed_server(
        b'{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"mode":"url","message":"m",'
        b'"url":"https://a.example","elicitationId":"e1","_meta":{"elicit-tray/flow":"forged"}}}\n'
    )
    assert isinstance(ask, AskTray) and ask.params["_meta"]["elicit-tray/flow"] == "P-flow"
    [form] = c.feed_server(
        b'{"jsonrpc":"2.0","id":8,"method":"elicitation/create","params":{"message":"m",'
        b'"requestedSchema":{"type":"object","properties":{}},"_meta":{"elicit-tray/flow":"forged"}}}\n'
    )
    assert isinstance(form, AskTray) and "elicit-tray/flow" not in form.params["_meta"]


class _Tray:
    """A socket that answers every ``elicitation/create`` with ``accept`` and records, per
    connection, whether the requester closed it."""

    def __init__(self) -> None:
        self.closed: list[asyncio.Event] = []

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        closed = asyncio.Event()
        self.closed.append(closed)
        line = await reader.readline()
        message = json.loads(line)
        writer.write(
            json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": {"action": "accept"}}).encode() + b"\n"
        )
        await writer.drain()
        await reader.read()  # until the requester closes its end
        closed.set()
        writer.close()


@pytest.mark.parametrize("eid", [None, "e-1"])
def test_an_accepted_round_is_held_until_the_flows_next_round_is_answered(tmp_path: Path, eid: str | None):
    async def scenario() -> list[Any]:
        folder = tmp_path / "t"
        folder.mkdir(mode=0o700)
        tray = _Tray()
        server = await asyncio.start_unix_server(tray.serve, str(folder / "s"))
        completions = Completions(linger_s=60)
        params: dict[str, Any] = {"mode": "url", "message": "m", "url": "https://a.example"}
        params["_meta"] = {"elicit-tray/flow": "f"}
        if eid is not None:
            params["elicitationId"] = eid
        seen: list[Any] = []

        async def one_round() -> None:
            answer = await request(
                "elicitation/create", params, socket_path=folder / "s", autostart=False, completions=completions
            )
            seen.append((answer, completions.flows(), completions.waiting()))

        await one_round()
        seen.append(tray.closed[0].is_set())
        await one_round()
        await asyncio.wait_for(tray.closed[0].wait(), 10)  # round 1's connection closes once round 2 is answered
        completions.next_round("f")
        await asyncio.wait_for(tray.closed[1].wait(), 10)
        seen.append(completions.flows())
        server.close()
        return seen

    held = (["f"], [eid] if eid else [])
    assert asyncio.run(scenario()) == [({"action": "accept"}, *held), False, ({"action": "accept"}, *held), []]


def test_release_owner_closes_every_connection_held_for_that_owner_and_no_other(tmp_path: Path):
    async def scenario() -> list[Any]:
        folder = tmp_path / "t"
        folder.mkdir(mode=0o700)
        tray = _Tray()
        server = await asyncio.start_unix_server(tray.serve, str(folder / "s"))
        completions = Completions(linger_s=60)
        seen: list[Any] = []
        for owner, url in (("h1", "https://a.example"), ("h2", "https://b.example")):
            params = {"mode": "url", "message": "m", "url": url, "_meta": {"elicit-tray/flow": "f-" + owner}}
            await request(
                "elicitation/create",
                params,
                socket_path=folder / "s",
                autostart=False,
                completions=completions,
                hold_owner=owner,
            )
        seen.append(completions.release_owner("h1"))
        await asyncio.wait_for(tray.closed[0].wait(), 10)
        seen.extend([tray.closed[1].is_set(), completions.flows(), completions.release_owner("h1")])
        seen.append(completions.release_owner("h2"))
        await asyncio.wait_for(tray.closed[1].wait(), 10)
        seen.append(completions.flows())
        server.close()
        return seen

    assert asyncio.run(scenario()) == [1, False, ["f-h2"], 0, 1, []]
