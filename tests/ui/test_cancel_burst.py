"""A burst of cancellations brings up the queued dialogs that are due once, after the burst
(README "Limits": at most MAX_SHOWN_DIALOGS on screen): no window is built for a request that
the same burst cancels, and every request gets at most one answer (a cancelled one none, as
MCP says; the others theirs)."""

from __future__ import annotations

from typing import Any

from elicit_tray.request import Declined, Peer
from elicit_tray.ui.presenter import MAX_SHOWN_DIALOGS
from tests import rpc
from tests.fakes import FakeChannel
from tests.ui.harness import Tray
from tests.ui.test_queue import ask, counting

#: Requests per connection (under the per-connection pending limit, ipc/load.py).
PER_CONNECTION = 10


def _burst(tray: Tray, total: int, kept: list[int]) -> tuple[list[FakeChannel], list[str]]:
    """``total`` pending requests over connections of :data:`PER_CONNECTION`, then on each
    connection one write cancelling all its requests but ``kept`` (all in the same event-loop
    turn); the connections, and the messages of the dialogs built from the burst on. The queue
    moved once for the whole burst: the tray heard of it once (one menu rebuild, not one per
    cancel)."""
    # Each connection from a process of its own: one process may hold only a share of the total.
    channels = [tray.connect(Peer(pid=1000 + c, uid=1000)) for c in range(0, total, PER_CONNECTION)]
    for n in range(total):
        tray.send(channels[n // PER_CONNECTION], rpc.create(n, ask(n)))
    tray.settle()
    assert len(tray.presenter.dialogs) + len(tray.presenter.waiting) == total
    assert len(tray.presenter.dialogs) == min(total, MAX_SHOWN_DIALOGS)
    built = counting(tray)
    changes: list[int] = []
    tray.presenter.pending_changed.connect(lambda: changes.append(tray.presenter.pending_count()))
    for c, channel in enumerate(channels):
        ids = range(c * PER_CONNECTION, min(total, (c + 1) * PER_CONNECTION))
        tray.send(channel, b"".join(rpc.line(rpc.cancelled(n)) for n in ids if n not in kept))
    for _ in range(20):  # bounded: the cancelled tasks end, then the queue moves once
        tray.settle()
        if not tray.presenter.waiting and len(tray.presenter.dialogs) == min(len(kept), MAX_SHOWN_DIALOGS):
            break
    assert changes == [len(kept)]
    return channels, built


def _sent(channels: list[FakeChannel]) -> list[dict[str, Any]]:
    return [message for channel in channels for message in channel.sent]


def _decline_all(tray: Tray, channels: list[FakeChannel]) -> list[dict[str, Any]]:
    replies = []
    for dialog in list(tray.presenter.dialogs.values()):
        dialog.finish(Declined())
    for _ in range(20):
        tray.settle()
        if not tray.presenter.dialogs:
            break
    for channel in channels:
        replies += channel.sent
        channel.sent.clear()
    return sorted(replies, key=lambda r: r["id"])


def test_a_burst_of_50_cancels_shows_exactly_the_requests_left_and_answers_each_once(aio):
    tray = Tray(aio)
    kept = [2, 7, 20, 49]
    channels, built = _burst(tray, 50, kept)
    # 2 was on screen all along; 7, 20 and 49 get their windows once, none of the cancelled does
    assert built == ["Question 7?", "Question 20?", "Question 49?"]
    assert [d.request.message for d in tray.presenter.dialogs.values()] == [f"Question {n}?" for n in kept]
    assert tray.presenter.waiting == {}
    assert _sent(channels) == []  # a cancelled request gets no answer
    assert _decline_all(tray, channels) == [{"jsonrpc": "2.0", "id": n, "result": {"action": "decline"}} for n in kept]
    tray.settle()
    assert _sent(channels) == []


def test_cancelling_every_pending_request_at_once_builds_no_window(aio):
    tray = Tray(aio)
    channels, built = _burst(tray, 12, [])
    assert built == []
    assert tray.presenter.dialogs == {} and tray.presenter.waiting == {}
    assert _sent(channels) == []


def test_a_burst_that_leaves_more_than_fit_shows_the_oldest_and_keeps_the_rest_in_order(aio):
    tray = Tray(aio)
    kept = list(range(10, 40, 3))  # 10 requests left, all of them waiting before the burst
    channels, built = _burst(tray, 40, kept)
    assert built == [f"Question {n}?" for n in kept[:MAX_SHOWN_DIALOGS]]
    assert [e.request.message for e in tray.presenter.waiting.values()] == [
        f"Question {n}?" for n in kept[MAX_SHOWN_DIALOGS:]
    ]
    assert _sent(channels) == []
    tray.presenter.dismiss_all()
    assert _decline_all(tray, channels) == [{"jsonrpc": "2.0", "id": n, "result": {"action": "cancel"}} for n in kept]
