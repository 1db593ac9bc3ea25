"""IPC methods go through one table (``elicit_tray.ipc.protocol`` docstring).

- The dispatcher's tables (:attr:`Dispatcher.requests`, :attr:`Dispatcher.notifications`) and
  the README "IPC contract" table list the same methods: a method added to one and not the
  other fails here.
- Adding a method is one row plus its handler: a subclass that adds ``x/echo`` answers it
  through the same path as the built-in ones, and everything else keeps its answer.
- The dispatcher sees the UI only through :class:`Ui` (``ask`` and ``complete``).
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from elicit_tray.ipc.protocol import Call, Dispatcher
from elicit_tray.request import Accepted, ElicitationRequest, Outcome, UrlRequest
from tests import rpc
from tests.fakes import FakeChannel

README = Path(__file__).resolve().parents[2] / "README.md"


class RecordingUi:
    """A :class:`~elicit_tray.ipc.protocol.Ui` with nothing but ``ask`` and ``complete``: the
    user consents to everything."""

    __slots__ = ("asked", "completed")

    def __init__(self) -> None:
        self.asked: list[ElicitationRequest] = []
        self.completed: list[str] = []

    async def ask(self, request: ElicitationRequest) -> Outcome:
        self.asked.append(request)
        return Accepted(None if isinstance(request, UrlRequest) else {})

    def complete(self, key: str) -> None:
        self.completed.append(key)


def readme_methods() -> list[str]:
    """The methods of the README's "IPC contract" table (``| method | params | result |``)."""
    text = README.read_text(encoding="utf-8")
    table = text[text.index("| method | params | result |") :].split("\n\n", 1)[0]
    return re.findall(r"^\| `([^`]+)` \|", table, re.MULTILINE)


def test_the_dispatch_tables_and_the_readme_list_the_same_methods() -> None:
    assert sorted(readme_methods()) == sorted([*Dispatcher.requests, *Dispatcher.notifications])
    assert not set(Dispatcher.requests) & set(Dispatcher.notifications)


def _run(dispatcher: Dispatcher, *lines: bytes) -> FakeChannel:
    async def scenario() -> FakeChannel:
        channel = FakeChannel(closable=False)
        dispatcher.connection_made(channel)
        for data in lines:
            dispatcher.data_received(channel, data)
            for _ in range(20):  # let a request's task answer (a bounded number of turns)
                await asyncio.sleep(0)
        return channel

    return asyncio.run(scenario())


class WithEcho(Dispatcher):
    """The built-in methods plus one: ``x/echo`` answers its params."""

    def _echo(self, call: Call) -> None:
        call.reply({"echo": call.msg.params})

    requests = {**Dispatcher.requests, "x/echo": _echo}


def test_a_method_is_one_table_row_plus_its_handler() -> None:
    channel = _run(
        WithEcho(RecordingUi(), "t"),
        rpc.request_line(1, "x/echo", {"a": [1]}),
        rpc.ping_line(2),
        rpc.request_line(3, "x/nothing"),
    )
    assert channel.sent == [
        {"jsonrpc": "2.0", "id": 1, "result": {"echo": {"a": [1]}}},
        {"jsonrpc": "2.0", "id": 2, "result": {}},
        {"jsonrpc": "2.0", "id": 3, "error": {"code": -32601, "message": "Method not found: x/nothing"}},
    ]
    # the base class is untouched by the subclass's row
    assert "x/echo" not in Dispatcher.requests
    assert _run(Dispatcher(RecordingUi(), "t"), rpc.request_line(1, "x/echo")).sent[0]["error"]["code"] == -32601


def test_a_notification_sent_as_a_request_is_named_as_one() -> None:
    channel = _run(Dispatcher(RecordingUi(), "t"), rpc.request_line(7, "notifications/cancelled", {"requestId": 1}))
    assert channel.sent == [
        {
            "jsonrpc": "2.0",
            "id": 7,
            "error": {
                "code": -32601,
                "message": "Method not found: notifications/cancelled (a notification: send it without an id)",
            },
        }
    ]


def test_the_dispatcher_uses_the_ui_through_ask_and_complete_only() -> None:
    ui = RecordingUi()
    url = {"mode": "url", "message": "Sign in", "url": "https://example.com/x", "elicitationId": "e-1"}
    form = {"message": "Proceed?", "requestedSchema": {"type": "object", "properties": {}}}
    channel = _run(
        Dispatcher(ui, "t"),
        rpc.create_line(1, form),
        rpc.create_line(2, url),
        rpc.line(rpc.complete("e-1")),
        rpc.line(rpc.complete("e-1")),
    )
    assert channel.sent == [
        {"jsonrpc": "2.0", "id": 1, "result": {"action": "accept", "content": {}}},
        {"jsonrpc": "2.0", "id": 2, "result": {"action": "accept"}},
    ]
    assert [r.mode for r in ui.asked] == ["form", "url"]
    assert ui.completed == [ui.asked[1].key]  # once, with the URL request's key
