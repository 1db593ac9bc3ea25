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


async def _over_process(d: Dispatcher, _ch: FakeChannel, _clock: Clock) -> None:
    per = d.load.max_pending_per_connection
    for _n in range(d.load.max_pending_per_peer // per):
        sibling = requester()  # another connection of the same process as ``ch``
        d.connection_made(sibling)
        d.data_received(sibling, b"".join(create(i) for i in range(per)))


#: scope -> what takes a dispatcher (and the connection ``ch`` of pid 4242) over that row's
#: limit, so that ``ch``'s next ``elicitation/create`` is refused by that row. A row without a
#: driver fails :func:`test_every_refusal_row_has_a_driver_and_a_readme_row`.
OVER: dict[str, Callable[[Dispatcher, FakeChannel, Clock], Awaitable[None]]] = {
    "connection": _over_connection,
    "process": _over_process,
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


# -- one process's fair share of the pending requests -----------------------------------------------

SHARE_MESSAGE = "Server busy: too many pending requests (32 from this process)"


class Held:
    """A handler whose requests each wait until :meth:`answer` releases that one (by message)."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self._events: dict[str, asyncio.Event] = {}

    def _event(self, message: str) -> asyncio.Event:
        return self._events.setdefault(message, asyncio.Event())

    async def __call__(self, request: ElicitationRequest) -> Any:
        self.asked.append(request.message)
        await self._event(request.message).wait()
        return Accepted({})

    def answer(self, message: str) -> None:
        self._event(message).set()


def busy(request_id: Any, message: str, limit: int, scope: str) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "error": {"code": -32000, "message": message, "data": {"limit": limit, "scope": scope}},
    }


def share_busy(request_id: Any) -> dict[str, Any]:
    return busy(request_id, SHARE_MESSAGE, 32, "process")


def total_busy(request_id: Any) -> dict[str, Any]:
    return busy(request_id, "Server busy: too many pending requests (64 in total)", 64, "total")


def send(d: Dispatcher, ch: FakeChannel, tag: str, ids: range) -> None:
    """``elicitation/create`` for each id of ``ids`` on ``ch``, messages ``<tag><id>``, in one read."""
    d.data_received(ch, b"".join(create(i, f"{tag}{i}") for i in ids))


def connect(d: Dispatcher, pid: int | None, count: int = 1) -> list[FakeChannel]:
    channels = [requester(pid=pid) for _ in range(count)]
    for ch in channels:
        d.connection_made(ch)
    return channels


def test_one_process_with_four_full_connections_gets_half_and_two_others_the_rest() -> None:
    async def main() -> None:
        handler = Held()
        d = Dispatcher(UiFunctions(handler), clock=Clock())
        hog = connect(d, 4242, 4)
        for n, ch in enumerate(hog):
            send(d, ch, f"hog{n}-", range(16))
        await turn()
        assert [ch.sent for ch in hog[:2]] == [[], []]
        assert [ch.sent for ch in hog[2:]] == [[share_busy(i) for i in range(16)]] * 2
        assert d.pending_count() == 32 and len(handler.asked) == 32
        # two other processes still get a full connection each: the other half
        others = connect(d, 5151) + connect(d, 6161)
        for n, ch in enumerate(others):
            send(d, ch, f"other{n}-", range(16))
        await turn()
        assert [ch.sent for ch in others] == [[], []]
        assert d.pending_count() == 64 and len(handler.asked) == 64
        # now the total is reached: a fourth process gets the total's answer, the hog its own
        (late,) = connect(d, 7171)
        send(d, late, "late", range(1))
        hog[3].sent.clear()
        send(d, hog[3], "again", range(1))
        assert late.sent == [total_busy(0)]
        assert hog[3].sent == [share_busy(0)]
        for ch in [*hog, *others, late]:
            d.connection_lost(ch)
        await turn()
        assert d.pending_count() == 0

    asyncio.run(main())


def test_two_processes_under_the_share_are_both_served_and_each_stops_at_its_own_share() -> None:
    async def main() -> None:
        handler = Held()
        d = Dispatcher(UiFunctions(handler), clock=Clock())
        a1, a2, a3 = connect(d, 100, 3)
        b1, b2, b3 = connect(d, 200, 3)
        send(d, a1, "a1-", range(16))
        send(d, a2, "a2-", range(15))
        send(d, b1, "b1-", range(10))
        send(d, b2, "b2-", range(10))
        send(d, b3, "b3-", range(11))
        await turn()
        assert [ch.sent for ch in (a1, a2, b1, b2, b3)] == [[]] * 5
        assert d.pending_count() == 62 and len(handler.asked) == 62
        send(d, a3, "a3-", range(2))  # the 32nd of process 100 is taken, its 33rd is not
        await turn()
        assert a3.sent == [share_busy(1)]
        assert handler.asked[-1] == "a3-0" and d.pending_count() == 63
        send(d, b3, "b3-", range(11, 13))  # process 200's 32nd is the 64th in all
        await turn()
        assert b3.sent == [share_busy(12)]  # over its share and the total: its share answers
        assert d.pending_count() == 64
        for ch in (a1, a2, a3, b1, b2, b3):
            d.connection_lost(ch)
        await turn()

    asyncio.run(main())


def test_the_share_is_freed_when_requests_are_cancelled_answered_or_their_connection_closes() -> None:
    async def main() -> None:
        handler = Held()
        d = Dispatcher(UiFunctions(handler), clock=Clock())
        c1, c2, c3 = connect(d, 4242, 3)
        send(d, c1, "c1-", range(16))
        send(d, c2, "c2-", range(16))
        await turn()
        send(d, c3, "x", range(1))
        assert c3.sent == [share_busy(0)]
        # cancelled: its place is free at once, for any connection of the process
        d.data_received(c1, rpc.line(rpc.cancelled(0)))
        send(d, c3, "x", range(1, 3))
        await turn()
        assert c3.sent == [share_busy(0), share_busy(2)] and handler.asked[-1] == "x1"
        # answered
        handler.answer("c2-0")
        await turn()
        assert c2.sent == [{"jsonrpc": "2.0", "id": 0, "result": {"action": "accept", "content": {}}}]
        send(d, c3, "x", range(3, 5))
        await turn()
        assert c3.sent[2:] == [share_busy(4)] and handler.asked[-1] == "x3"
        assert d.pending_count() == 32
        # a closed connection's requests expire and leave the share: 15 of c1 go
        d.connection_lost(c1)
        await turn()
        (c4,) = connect(d, 4242)
        send(d, c4, "c4-", range(16))
        await turn()
        assert c4.sent == [share_busy(15)]
        assert d.pending_count() == 32 and handler.asked[-15:] == [f"c4-{i}" for i in range(15)]
        for ch in (c2, c3, c4):
            d.connection_lost(ch)
        await turn()
        assert d.pending_count() == 0

    asyncio.run(main())


def test_without_a_pid_each_connection_is_on_its_own_and_only_the_total_stops_them() -> None:
    async def main() -> None:
        d = Dispatcher(UiFunctions(Held()), clock=Clock())
        anonymous = connect(d, None, 5)
        for n, ch in enumerate(anonymous[:4]):
            send(d, ch, f"anon{n}-", range(16))
        send(d, anonymous[4], "anon4-", range(1))
        await turn()
        assert [ch.sent for ch in anonymous[:4]] == [[]] * 4
        assert anonymous[4].sent == [total_busy(0)]
        for ch in anonymous:
            d.connection_lost(ch)
        await turn()

    asyncio.run(main())


def test_the_share_is_half_the_total_unless_given() -> None:
    assert LoadPolicy().max_pending_per_peer == 32
    assert LoadPolicy(max_pending_total=10).max_pending_per_peer == 5
    assert LoadPolicy(max_pending_total=1).max_pending_per_peer == 1
    assert LoadPolicy(max_pending_total=10, max_pending_per_peer=8).max_pending_per_peer == 8
