"""``notifications/elicitation/complete`` counts only on the connection that made the
elicitation (DESIGN.md "IPC contract"; no other process can end its waiting): the dispatcher keys waiting URL
elicitations by (connection, ``elicitationId``) and hands ``on_complete`` the request's key.

No Qt, no socket: the real :class:`Dispatcher` on a plain asyncio loop, with a handler that
consents to every URL request and fake connections that record what they are sent.
"""

from __future__ import annotations

import asyncio
from typing import Any

from elicit_tray.ipc.protocol import Dispatcher, UiFunctions
from elicit_tray.request import Accepted, Declined, ElicitationRequest, Outcome, Peer
from tests import rpc
from tests.fakes import FakeChannel


def url_request(request_id: int, eid: str, url: str = "https://auth.example.com/x") -> bytes:
    return rpc.create_line(request_id, {"mode": "url", "message": "Sign in", "url": url, "elicitationId": eid})


class Rig:
    """A dispatcher whose user consents to URL requests (declines those whose URL ends in
    ``/no``); ``keys[channel]`` lists the request keys made on each channel, ``completed`` the
    keys ``on_complete`` got, in order."""

    def __init__(self) -> None:
        self.completed: list[str] = []
        self.keys: dict[str, list[str]] = {}
        self.dispatcher = Dispatcher(UiFunctions(self.handler, self.completed.append))
        self.channels: dict[str, FakeChannel] = {}

    async def handler(self, request: ElicitationRequest) -> Outcome:
        self.keys.setdefault(request.peer.process_name or "", []).append(request.key)
        return Declined() if (request.url or "").endswith("/no") else Accepted(None)

    def connect(self, name: str) -> FakeChannel:
        channel = self.channels[name] = FakeChannel(Peer(pid=1000, uid=1000, process_name=name), closable=False)
        self.dispatcher.connection_made(channel)
        return channel

    async def ask(
        self, channel: FakeChannel, request_id: int, eid: str, url: str = "https://auth.example.com/x"
    ) -> None:
        line = url_request(request_id, eid, url)
        self.dispatcher.data_received(channel, line)
        for _ in range(100):  # the handler answers at once; let its task run (a bounded number of turns)
            if channel.sent:
                break
            await asyncio.sleep(0)
        assert channel.sent.pop() == {
            "jsonrpc": "2.0",
            "id": request_id,
            "result": {"action": "decline" if url.endswith("/no") else "accept"},
        }

    async def notice(self, channel: FakeChannel, eid: Any) -> None:
        self.dispatcher.data_received(channel, rpc.line(rpc.complete(eid)))
        await asyncio.sleep(0)


def test_only_the_connection_that_made_the_elicitation_completes_it_and_only_its_own() -> None:
    async def scenario() -> None:
        rig = Rig()
        a, b, c = rig.connect("a"), rig.connect("b"), rig.connect("c")
        await rig.ask(a, 1, "e-1")
        await rig.ask(b, 1, "e-1")  # the same elicitationId on another connection
        (key_a,), (key_b,) = rig.keys["a"], rig.keys["b"]
        await rig.notice(c, "e-1")  # a connection that made no elicitation: ignored
        assert rig.completed == []
        await rig.notice(b, "e-1")  # b's notice completes b's dialog only
        assert rig.completed == [key_b]
        await rig.notice(b, "e-1")  # repeated: ignored
        await rig.notice(b, "e-2")  # unknown: ignored
        await rig.notice(b, 7)  # not a string: ignored
        assert rig.completed == [key_b]
        await rig.notice(a, "e-1")
        assert rig.completed == [key_b, key_a]
        assert (a.sent, b.sent, c.sent) == ([], [], [])  # notifications are never answered

    asyncio.run(scenario())


def test_a_declined_url_elicitation_is_not_waiting_for_completion() -> None:
    async def scenario() -> None:
        rig = Rig()
        a = rig.connect("a")
        await rig.ask(a, 1, "e-1", "https://auth.example.com/no")
        await rig.notice(a, "e-1")
        assert rig.completed == []

    asyncio.run(scenario())


def test_after_a_disconnect_nobody_can_complete_that_connections_elicitations() -> None:
    async def scenario() -> None:
        rig = Rig()
        a, b = rig.connect("a"), rig.connect("b")
        await rig.ask(a, 1, "e-1")
        rig.dispatcher.connection_lost(a)
        await rig.notice(b, "e-1")
        assert rig.completed == []

    asyncio.run(scenario())


def test_two_elicitations_with_the_same_id_on_one_connection_complete_together() -> None:
    async def scenario() -> None:
        rig = Rig()
        a = rig.connect("a")
        await rig.ask(a, 1, "e-1")
        await rig.ask(a, 2, "e-1")
        await rig.notice(a, "e-1")
        assert rig.completed == rig.keys["a"] and len(rig.completed) == 2

    asyncio.run(scenario())
