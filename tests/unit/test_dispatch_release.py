"""The dispatcher tells the UI when the connection of an accepted URL request with a flow or an
``elicitationId`` closes (:meth:`Ui.release`), and such a connection is not idle
(docs/design.md "URL flows over several rounds"). No Qt, no socket: the real dispatcher on a
plain asyncio loop, a user who consents to every URL request."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from elicit_tray.ipc.protocol import Dispatcher, UiFunctions
from elicit_tray.request import Accepted, ElicitationRequest, Outcome, Peer
from tests import rpc
from tests.fakes import FakeChannel


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def answered(params: dict[str, Any]) -> tuple[list[str], list[str], list[str], bool]:
    """(keys asked, keys released while the connection was open, keys released after it
    closed, whether the connection counted as idle after 61 s)."""
    asked: list[str] = []
    released: list[str] = []

    async def consent(request: ElicitationRequest) -> Outcome:
        asked.append(request.key)
        return Accepted(None)

    clock = Clock()
    dispatcher = Dispatcher(UiFunctions(consent, release=released.append), clock=clock)
    channel = FakeChannel(Peer(pid=7, uid=1000), closable=False)
    dispatcher.connection_made(channel)
    dispatcher.data_received(channel, rpc.create_line(1, params))
    for _ in range(100):  # the user answers at once; let the request's task run (a bounded number of turns)
        if channel.sent:
            break
        await asyncio.sleep(0)
    assert channel.sent == [{"jsonrpc": "2.0", "id": 1, "result": {"action": "accept"}}]
    before = list(released)
    clock.now = 61.0
    idle = dispatcher.idle_channels(60.0) == [channel]
    dispatcher.connection_lost(channel)
    return asked, before, released, idle


URL = {"mode": "url", "message": "Link", "url": "https://auth.example.com/x"}


@pytest.mark.parametrize(
    ("extra", "held"),
    [
        ({"_meta": {"elicit-tray/flow": "f"}}, True),
        ({"elicitationId": "e-1"}, True),
        ({}, False),
    ],
)
def test_an_accepted_url_round_is_released_when_its_connection_closes_and_is_not_idle_before(extra, held):
    asked, before, after, idle = asyncio.run(answered(URL | extra))
    assert before == []
    assert after == (asked if held else [])
    assert idle is not held


def test_a_flow_that_is_not_a_string_is_refused_with_its_path():
    async def run() -> list[dict[str, Any]]:
        dispatcher = Dispatcher(UiFunctions(lambda request: asyncio.sleep(0, Accepted(None))))
        channel = FakeChannel(Peer(pid=7, uid=1000), closable=False)
        dispatcher.connection_made(channel)
        dispatcher.data_received(channel, rpc.create_line(1, URL | {"_meta": {"elicit-tray/flow": 5}}))
        return channel.sent

    [reply] = asyncio.run(run())
    assert reply["error"]["code"] == -32602
    assert reply["error"]["data"]["violations"] == [
        {"path": "/_meta/elicit-tray~1flow", "message": "must be a non-empty string"}
    ]
