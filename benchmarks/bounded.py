"""Bounded work on the UI thread (README "Benchmarks"): the longest stall of the event loop, and
the total time, while the app takes a big form, a form of slow patterns, or a burst of cancels.

In process, offscreen or on any display: the real dispatcher, presenter and dialogs over fake
connections (``tests/ui/harness.py``), on the qasync loop the app runs. The stall is measured
as the app's other connections see it: a ``ping`` sent every 2 ms on another connection, and
the longest time one waited for its answer (the UI thread was busy that long; the fake
connection answers as soon as the loop reads it, so the wait is the lateness of the loop). The target for
every row is a stall of at most 50 ms.

Usage: ``PYTHONPATH=src:. QT_QPA_PLATFORM=offscreen python benchmarks/bounded.py [--runs N]``
prints a table of medians over N runs (default 5); ``--only TEXT`` runs the cases whose
name holds TEXT.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from forms import form_params  # noqa: E402

#: Seconds between pings on the watching connection.
PING_EVERY_S = 0.002


def slow_pattern_params(n: int) -> dict[str, Any]:
    """``n`` fields, each with a pattern that backtracks for ever on its 800-character default."""
    props = {
        f"f{i}": {"type": "string", "title": f"Code {i}", "pattern": f"(x+x+)+y|q{i}", "default": "x" * 800}
        for i in range(n)
    }
    return {"message": "Slow patterns", "requestedSchema": {"type": "object", "properties": props}}


class Watch:
    """Pings on its own connection while running; :attr:`worst_ms` is the longest wait for a pong."""

    def __init__(self, tray: Any, loop: asyncio.AbstractEventLoop):
        self.tray, self.loop = tray, loop
        self.channel = tray.connect()
        self.worst_ms = 0.0
        self._stop = False

    async def run(self) -> None:
        n = 0
        while not self._stop:
            n += 1
            sent = time.perf_counter()
            self.tray.send(self.channel, {"jsonrpc": "2.0", "id": f"p{n}", "method": "ping"})
            await self.channel.next_message()
            due = time.perf_counter() + PING_EVERY_S
            await asyncio.sleep(PING_EVERY_S)
            # The next ping is read only when the loop comes round: the wait beyond its due time
            # is how long a ping written then waited for its answer.
            self.worst_ms = max(self.worst_ms, (time.perf_counter() - due) * 1000, (due - PING_EVERY_S - sent) * 1000)

    def stop(self) -> None:
        self._stop = True


async def _until(check: Any, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError("the benchmark waited too long")
        await asyncio.sleep(0.001)


async def one_form(tray: Any, loop: asyncio.AbstractEventLoop, params: dict[str, Any]) -> tuple[float, float]:
    """(ms from the request to every row built, longest stall ms) for one form request."""
    watch = Watch(tray, loop)
    pinger = loop.create_task(watch.run())
    await asyncio.sleep(0.02)
    channel = tray.connect()
    start = time.perf_counter()
    tray.send(channel, {"jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": params})
    dialog = await tray.shown.get()
    await _until(lambda: not dialog._later and dialog.can_commit() is not None)
    built_ms = (time.perf_counter() - start) * 1000
    await asyncio.sleep(0.05)
    watch.stop()
    await pinger
    dialog.finish(__import__("elicit_tray.request", fromlist=["Cancelled"]).Cancelled("bench"))
    await channel.next_message()
    return built_ms, watch.worst_ms


async def cancel_burst(tray: Any, loop: asyncio.AbstractEventLoop, count: int) -> tuple[float, float]:
    """(ms until no request is pending, longest stall ms): ``count`` pending confirmations
    over connections of 10, all cancelled by ``notifications/cancelled``, one write per
    connection (a cancelled request gets no answer)."""
    per = 10  # under the pending limit of one connection (ipc/load.py)
    channels = [tray.connect() for _ in range(0, count, per)]
    for i in range(count):
        params = {"message": f"Question {i}?", "requestedSchema": {"type": "object", "properties": {}}}
        tray.send(channels[i // per], {"jsonrpc": "2.0", "id": i, "method": "elicitation/create", "params": params})
    await _until(lambda: len(tray.presenter.dialogs) >= min(count, tray.presenter.max_shown))
    while not tray.shown.empty():
        tray.shown.get_nowait()
    watch = Watch(tray, loop)
    pinger = loop.create_task(watch.run())
    await asyncio.sleep(0.02)
    start = time.perf_counter()
    for c, channel in enumerate(channels):
        burst = b"".join(
            json.dumps(
                {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": i, "reason": "bench"}}
            ).encode()
            + b"\n"
            for i in range(c * per, min(count, (c + 1) * per))
        )
        tray.send(channel, burst)
    await _until(lambda: tray.presenter.pending_count() == 0)
    done_ms = (time.perf_counter() - start) * 1000
    await asyncio.sleep(0.05)
    watch.stop()
    await pinger
    for dialog in list(tray.presenter._expired):
        dialog.close()
    return done_ms, watch.worst_ms


def main() -> int:
    import qasync
    from PySide6.QtWidgets import QApplication

    from elicit_tray.schema import pattern
    from tests.ui.harness import Tray

    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 5
    app = QApplication.instance() or QApplication(sys.argv[:1])
    loop = qasync.QEventLoop(app, already_running=False)
    asyncio.set_event_loop(loop)
    tray = Tray(loop)
    cases: list[tuple[str, Any]] = [
        ("200 mixed fields: all rows built", lambda: one_form(tray, loop, form_params(200))),
        ("256 mixed fields: all rows built", lambda: one_form(tray, loop, form_params(256))),
        ("256 slow patterns, 800-char defaults", lambda: one_form(tray, loop, slow_pattern_params(256))),
        ("10 pending cancelled at once", lambda: cancel_burst(tray, loop, 10)),
        ("50 pending cancelled at once", lambda: cancel_burst(tray, loop, 50)),
    ]
    print("| case | total (ms) | longest stall (ms) | target |")
    print("|---|---|---|---|")
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""
    for name, make in cases:
        if only not in name:
            continue
        loop.run_until_complete(make())  # warm-up
        totals, stalls = [], []
        for _ in range(runs):
            pattern.engine.close()  # a fresh worker and cache each run
            pattern.engine._cache.clear()
            pattern.engine._slow.clear()
            total, stall = loop.run_until_complete(make())
            totals.append(total)
            stalls.append(stall)
        print(f"| {name} | {statistics.median(totals):.0f} | {statistics.median(stalls):.0f} | stall <= 50 |")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
