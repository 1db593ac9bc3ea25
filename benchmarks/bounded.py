"""Bounded work on the UI thread (README "Benchmarks"): the longest stall of the event loop, and
the total time, while the app takes a big form, a form of slow patterns, or a burst of cancels.

In process, offscreen or on any display: the real dispatcher, presenter and dialogs over fake
connections (``tests/ui/harness.py``), on the qasync loop the app runs. The stall is measured
as the app's other connections see it: a ``ping`` sent every 2 ms on another connection, and
the longest time one waited for its answer (the UI thread was busy that long; the fake
connection answers as soon as the loop reads it, so the wait is the lateness of the loop). The target for
every row is a stall of at most 50 ms.

Besides the wall-clock figures, each row has the UI thread's own CPU time for the case
(``time.thread_time``: less at the mercy of other processes on a shared machine than the wall
clock) and, for the forms, how many events the input gate's Python filter saw
(``ui/arming.py``: each costs a call into Python).

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


class GateCount:
    """Counts the events the input gate's filter sees (a subclass put in its place)."""

    seen = 0

    @classmethod
    def install(cls) -> None:
        from PySide6.QtWidgets import QApplication

        from elicit_tray.ui.arming import InputGate

        class Counting(InputGate):
            def eventFilter(self, watched: Any, event: Any) -> bool:  # noqa: N802 (Qt naming)
                cls.seen += 1
                return super().eventFilter(watched, event)

        app = QApplication.instance()
        InputGate.install()
        if InputGate._installed is not None:
            app.removeEventFilter(InputGate._installed)
        InputGate._installed = Counting()
        app.installEventFilter(InputGate._installed)


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


async def keystrokes(tray: Any, loop: asyncio.AbstractEventLoop, count: int) -> tuple[float, float]:
    """(ms from the first key to the last verdict, longest stall ms): ``count`` keys typed, one
    every 10 ms, into a field whose pattern backtracks for ever on a run of ``x``."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from elicit_tray.request import Cancelled

    props = {"code": {"type": "string", "title": "Code", "pattern": "(x+x+)+y"}}
    channel = tray.connect()
    params = {"message": "Type", "requestedSchema": {"type": "object", "properties": props}}
    tray.send(channel, {"jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": params})
    dialog = await tray.shown.get()
    dialog.arming.welcome()  # the user went to it (as tests/ui/harness.py's arm, on this loop)
    dialog.activateWindow()
    await _until(lambda: dialog.is_armed)
    edit = dialog.rows["code"].adapter.focus_target
    pattern_engine = __import__("elicit_tray.schema.pattern", fromlist=["engine"]).engine
    pattern_engine.check("a", "a")  # the worker is up: its start is not typing
    watch = Watch(tray, loop)
    pinger = loop.create_task(watch.run())
    await asyncio.sleep(0.02)
    start = time.perf_counter()
    for _ in range(count):
        QTest.keyClick(edit, Qt.Key.Key_X)
        await asyncio.sleep(0.01)
    await _until(lambda: "still" not in (dialog.rows["code"].current()[1] or ""))
    done_ms = (time.perf_counter() - start) * 1000
    watch.stop()
    await pinger
    dialog.finish(Cancelled("bench"))
    await channel.next_message()
    return done_ms, watch.worst_ms


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
        ("64 mixed fields: all rows built", lambda: one_form(tray, loop, form_params(64))),
        ("128 mixed fields: all rows built", lambda: one_form(tray, loop, form_params(128))),
        ("200 mixed fields: all rows built", lambda: one_form(tray, loop, form_params(200))),
        ("256 mixed fields: all rows built", lambda: one_form(tray, loop, form_params(256))),
        ("256 slow patterns, 800-char defaults", lambda: one_form(tray, loop, slow_pattern_params(256))),
        ("20 keys typed into a field of a slow pattern", lambda: keystrokes(tray, loop, 20)),
        ("10 pending cancelled at once", lambda: cancel_burst(tray, loop, 10)),
        ("50 pending cancelled at once", lambda: cancel_burst(tray, loop, 50)),
    ]
    GateCount.install()
    print("| case | total (ms) | longest stall (ms) | UI thread CPU (ms) | gate filter calls | target |")
    print("|---|---|---|---|---|---|")
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""
    for name, make in cases:
        if only not in name:
            continue
        loop.run_until_complete(make())  # warm-up
        totals, stalls, cpus, gates = [], [], [], []
        for _ in range(runs):
            pattern.engine.close()  # a fresh worker and cache each run
            pattern.engine._cache.clear()
            pattern.engine._slow.clear()
            GateCount.seen = 0
            cpu = time.thread_time()
            total, stall = loop.run_until_complete(make())
            cpus.append((time.thread_time() - cpu) * 1000)
            gates.append(GateCount.seen)
            totals.append(total)
            stalls.append(stall)
        print(
            f"| {name} | {statistics.median(totals):.0f} | {statistics.median(stalls):.0f} "
            f"| {statistics.median(cpus):.0f} | {statistics.median(gates):.0f} | stall <= 50 |"
        )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
