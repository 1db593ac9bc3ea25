"""The dispatcher's load limits (``elicit_tray.ipc.load``), sans-IO with a fake clock: requests
whose requester is gone reach no handler, an abandoning requester process is refused, idle
connections are named for closing, and the unfinished input of all connections is bounded.
Everything is counted (handler calls, bytes held, lines sent); no wall clock is read.

Each row of ``CREATE_LIMITS`` is checked from the table: the README limits table names its
scope and limit, and a driver (:data:`OVER`) takes the dispatcher over it and gets its error."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from elicit_tray.ipc.load import CREATE_LIMITS, CreateLimit, LoadPolicy
from elicit_tray.ipc.protocol import (
    ABANDON_WINDOW_S,
    IDLE_CLOSE_S,
    MAX_ABANDONED_PER_PEER,
    MAX_UNFINISHED_BYTES_TOTAL,
    Dispatcher,
    UiFunctions,
)
from elicit_tray.request import Accepted, ElicitationRequest, Peer
from tests import rpc
from tests.fakes import FakeChannel

CONFIRM = {"message": "Proceed?", "requestedSchema": {"type": "object", "properties": {}}}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def requester(pid: int | None = 4242, uid: int = 1000) -> FakeChannel:
    """A connection from process ``pid``; set ``gone`` for what the socket's poll would say."""
    return FakeChannel(Peer(pid=pid, uid=uid, process_name="requester"))


class Handler:
    """Counts the requests that reached the UI; each waits until released."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.release = asyncio.Event()

    async def __call__(self, request: ElicitationRequest) -> Any:
        self.asked.append(request.message)
        await self.release.wait()
        return Accepted({})


def create(request_id: Any, message: str = "Proceed?") -> bytes:
    return rpc.create_line(request_id, dict(CONFIRM, message=message))


async def turn() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_requests_read_after_the_requester_left_reach_no_handler_and_ping_is_still_answered() -> None:
    async def main() -> None:
        handler = Handler()
        d = Dispatcher(UiFunctions(handler), clock=Clock())
        ch = requester()
        d.connection_made(ch)
        # 16 requests and a ping in the buffer of a connection whose peer has already closed
        ch.gone = True
        d.data_received(ch, b"".join(create(i, f"q{i}") for i in range(16)) + rpc.ping_line("p"))
        await turn()
        assert handler.asked == []
        assert ch.sent == [{"jsonrpc": "2.0", "id": "p", "result": {}}]
        assert d.pending_count() == 0
        # Read while present, but the requester leaves before the task runs: still no handler call.
        other = requester(pid=5151)
        d.connection_made(other)
        d.data_received(other, create(1))
        other.gone = True
        await turn()
        assert handler.asked == [] and other.sent == [] and d.pending_count() == 0
        d.connection_lost(ch)
        d.connection_lost(other)

    asyncio.run(main())


def test_a_process_that_keeps_abandoning_is_refused_with_scope_abandoning_until_the_window_passes() -> None:
    async def main() -> None:
        clock = Clock()
        handler = Handler()
        d = Dispatcher(UiFunctions(handler), clock=clock)
        # connect, send 16, disconnect: twice is 32 abandoned requests from pid 4242
        for _cycle in range(MAX_ABANDONED_PER_PEER // 16):
            ch = requester()
            d.connection_made(ch)
            d.data_received(ch, b"".join(create(i) for i in range(16)))
            await turn()
            d.connection_lost(ch)
            clock.now += 1
        await turn()
        shown_so_far = len(handler.asked)
        ch = requester()
        d.connection_made(ch)
        d.data_received(ch, create("next") + rpc.ping_line("p"))
        assert ch.sent == [
            {
                "jsonrpc": "2.0",
                "id": "next",
                "error": {
                    "code": -32000,
                    "message": "Server busy: too many abandoned requests (32 in 60 s from this process)",
                    "data": {"limit": MAX_ABANDONED_PER_PEER, "scope": "abandoning"},
                },
            },
            {"jsonrpc": "2.0", "id": "p", "result": {}},
        ]
        # another process of the same user is not affected
        fine = requester(pid=5151)
        d.connection_made(fine)
        d.data_received(fine, create("ok"))
        await turn()
        assert fine.sent == [] and len(handler.asked) == shown_so_far + 1
        # requests cancelled with notifications/cancelled are not abandoned
        d.data_received(
            fine,
            rpc.line(rpc.cancelled("ok")),
        )
        await turn()
        d.connection_lost(fine)
        assert not d.abandoning(("process", 1000, 5151))
        # the oldest abandoned request leaves the window: one more request is taken
        clock.now += ABANDON_WINDOW_S - (MAX_ABANDONED_PER_PEER // 16) + 1
        ch.sent.clear()
        d.data_received(ch, create("later"))
        await turn()
        assert ch.sent == [] and d.pending_count() == 1
        handler.release.set()
        await turn()
        assert ch.sent == [{"jsonrpc": "2.0", "id": "later", "result": {"action": "accept", "content": {}}}]

    asyncio.run(main())


def test_only_connections_with_nothing_pending_and_no_message_for_the_idle_time_are_named() -> None:
    async def main() -> None:
        clock = Clock()
        handler = Handler()
        d = Dispatcher(UiFunctions(handler), clock=clock)
        idle, busy, chatty, trickle = requester(), requester(pid=2), requester(pid=3), requester(pid=4)
        for ch in (idle, busy, chatty, trickle):
            d.connection_made(ch)
        d.data_received(busy, create(1))
        await turn()
        clock.now += IDLE_CLOSE_S - 1
        d.data_received(chatty, rpc.ping_line(1))
        d.data_received(trickle, b'{"jsonrpc":"2.0",')  # an unfinished line is no message
        assert d.idle_channels(IDLE_CLOSE_S) == []
        clock.now += 1
        assert d.idle_channels(IDLE_CLOSE_S) == [idle, trickle]
        clock.now += IDLE_CLOSE_S
        assert d.idle_channels(IDLE_CLOSE_S) == [idle, trickle, chatty]  # busy holds a pending request
        handler.release.set()
        await turn()
        assert busy.sent[0]["result"] == {"action": "accept", "content": {}}
        assert d.idle_channels(IDLE_CLOSE_S) == [idle, trickle, chatty]  # its answer just went out
        clock.now += IDLE_CLOSE_S
        assert d.idle_channels(IDLE_CLOSE_S) == [idle, trickle, chatty, busy]

    asyncio.run(main())


def test_unfinished_input_over_the_total_drops_the_largest_line_with_a_parse_error() -> None:
    async def main() -> None:
        d = Dispatcher(UiFunctions(Handler()), clock=Clock())
        channels = [requester(pid=100 + i) for i in range(17)]
        for ch in channels:
            d.connection_made(ch)
        sizes = [1_000_000] * 15 + [1_040_000, 900_000]  # 16,940,000 bytes in all
        prefix = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"'
        for ch, size in zip(channels[:16], sizes[:16], strict=True):
            d.data_received(ch, prefix + b"x" * (size - len(prefix)))
        assert d.unfinished_bytes() == sum(sizes[:16]) == 16_040_000 <= MAX_UNFINISHED_BYTES_TOTAL
        assert all(ch.sent == [] and not ch.closed for ch in channels)
        d.data_received(channels[16], b"y" * sizes[16])  # now 16,940,000 > 16,777,216
        largest = channels[15]
        assert largest.sent == [
            {
                "jsonrpc": "2.0",
                "id": None,
                "error": {
                    "code": -32700,
                    "message": "Parse error: unfinished input over the limit of 16777216 bytes for all "
                    "connections; connection closed",
                    "data": {"limit": MAX_UNFINISHED_BYTES_TOTAL, "scope": "unfinished-input"},
                },
            }
        ]
        assert largest.closed
        assert d.unfinished_bytes() == 16_940_000 - 1_040_000
        assert [ch for ch in channels if ch.closed or ch.sent] == [largest]
        d.data_received(largest, b"more\n")  # nothing more is read from it
        assert d.unfinished_bytes() == 15_900_000 and len(largest.sent) == 1
        d.connection_lost(largest)
        assert d.unfinished_bytes() == 15_900_000
        # the others finish their lines and are answered; what they held is released
        for ch in channels[:15]:
            d.data_received(ch, b'"}}\n')
        assert all(ch.sent == [{"jsonrpc": "2.0", "id": 1, "result": {}}] for ch in channels[:15])
        assert d.unfinished_bytes() == 900_000
        d.connection_lost(channels[16])
        assert d.unfinished_bytes() == 0
        # one connection alone never passes the total: its line is cut at 1 MiB (-32700 per line)
        single = requester(pid=999)
        d.connection_made(single)
        for _ in range(40):
            d.data_received(single, b"z" * 1_000_000)
            assert d.unfinished_bytes() <= 1024 * 1024
        assert not single.closed

    asyncio.run(main())


# -- the refusal table, row by row ------------------------------------------------------------------

README = Path(__file__).resolve().parents[2] / "README.md"


def _limits_table() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("| pending `elicitation/create` per connection |")
    return text[text.rindex("\n\n", 0, start) : text.index("\n\n", start)]


async def _over_connection(d: Dispatcher, ch: FakeChannel, _clock: Clock) -> None:
    d.data_received(ch, b"".join(create(i) for i in range(d.load.max_pending_per_connection)))


async def _over_total(d: Dispatcher, _ch: FakeChannel, _clock: Clock) -> None:
    per = d.load.max_pending_per_connection
    for n in range(d.load.max_pending_total // per):
        other = requester(pid=7000 + n)
        d.connection_made(other)
        d.data_received(other, b"".join(create(i) for i in range(per)))


async def _over_abandoning(d: Dispatcher, _ch: FakeChannel, clock: Clock) -> None:
    for _cycle in range(d.load.max_abandoned_per_peer // 16):
        gone = requester()  # the same process as ``ch``
        d.connection_made(gone)
        d.data_received(gone, b"".join(create(i) for i in range(16)))
        await turn()
        d.connection_lost(gone)
        clock.now += 1


#: scope -> what takes a dispatcher (and the connection ``ch`` of pid 4242) over that row's
#: limit, so that ``ch``'s next ``elicitation/create`` is refused by that row. A row without a
#: driver fails :func:`test_every_refusal_row_has_a_driver_and_a_readme_row`.
OVER: dict[str, Callable[[Dispatcher, FakeChannel, Clock], Awaitable[None]]] = {
    "connection": _over_connection,
    "total": _over_total,
    "abandoning": _over_abandoning,
}


def test_every_refusal_row_has_a_driver_and_a_readme_row() -> None:
    scopes = [row.scope for row in CREATE_LIMITS]
    assert len(set(scopes)) == len(scopes)
    assert sorted(OVER) == sorted(scopes)
    table, policy = _limits_table(), LoadPolicy()
    for row in CREATE_LIMITS:
        assert f'"limit": {row.limit(policy)}, "scope": "{row.scope}"' in table, row.scope


@pytest.mark.parametrize("row", CREATE_LIMITS, ids=lambda row: row.scope)
def test_each_refusal_row_answers_its_own_error_and_journal_scope(row: CreateLimit) -> None:
    class Recording:
        enabled, log_values = True, False

        def __init__(self) -> None:
            self.events: list[dict[str, Any]] = []

        def record(self, event: str, **fields: Any) -> None:
            self.events.append({"event": event, **fields})

    async def main() -> None:
        clock, journal = Clock(), Recording()
        d = Dispatcher(UiFunctions(Handler()), journal=journal, clock=clock)  # type: ignore[arg-type]
        ch = requester()
        d.connection_made(ch)
        await OVER[row.scope](d, ch, clock)
        await turn()
        ch.sent.clear()
        d.data_received(ch, create("over"))
        limit = row.limit(d.load)
        message = row.message.format(limit=limit, window=d.load.abandon_window_s)
        assert re.fullmatch(r"Server busy: .+ \(.*\d.*\)", message)
        assert ch.sent == [
            {
                "jsonrpc": "2.0",
                "id": "over",
                "error": {"code": -32000, "message": message, "data": {"limit": limit, "scope": row.scope}},
            }
        ]
        busy = [e for e in journal.events if e.get("outcome") == "busy"]
        assert [(e["id"], e["scope"], e["code"]) for e in busy] == [("over", row.scope, -32000)]
        for channel in list(d._states.values()):
            d.connection_lost(channel.channel)
        await turn()

    asyncio.run(main())
