"""The worst ping stall while another process holds the history database's write lock.

The tray app's UI thread runs the event loop that answers every requester, so whatever blocks
it shows as a late ``ping``. This runs the real dispatcher and recorder in process (no Qt, no
socket: the dialog is a handler that accepts at once), sends ``elicitation/create`` requests on
one connection and a ``ping`` every 5 ms on another, and prints, for each way of writing the
history and with or without a second process holding ``BEGIN EXCLUSIVE`` on the database (a
real ``python -c`` process with the standard ``sqlite3`` module, released after the run):

- *worst ping stall*: the latest a pong came after its ping was due (ms), and the median;
- *rows*: the decisions in the history once the lock is released and the writes are done,
  against the requests answered; *dropped*: the request log's ``history-dropped`` lines.

Ways of writing: ``writer thread`` (the app's :class:`~elicit_tray.history.writer.Writer`) and
``UI thread`` (every write on the calling thread with a 2 s busy timeout: how the app wrote
before the writer thread, for comparison).

Usage: ``PYTHONPATH=src python benchmarks/history_lock.py [--requests N]`` (default 3: the UI
thread way takes about 6 s a request under the lock). Timing is never a pass/fail test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from elicit_tray.history import History, Recorder
from elicit_tray.history.writer import Job, Kind, Writer
from elicit_tray.ipc.protocol import Dispatcher, UiFunctions
from elicit_tray.logs import Journal
from elicit_tray.request import Accepted, ElicitationRequest, Peer

PING_EVERY_S = 0.005
FORM = {
    "message": "Deploy web?",
    "requestedSchema": {"type": "object", "properties": {"env": {"type": "string", "title": "Environment"}}},
}
HOLDER = r"""
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.readline()
db.execute("ROLLBACK")
"""


class UiThreadWriter:
    """The writes as the app made them before the writer thread: on the caller's thread, each
    waiting up to 2 s for the lock, a failed one logged and lost (the :class:`Writer`
    interface the recorder uses)."""

    def __init__(self, path: Path, *, on_written: Any = None, on_dropped: Any = None, **_: Any) -> None:
        self.db = History(path, busy_ms=2000, mark_interrupted=False, check_file=False)
        self.ids: dict[str, int] = {}
        self.on_dropped = on_dropped
        self.max_wait_s = self.close_wait_s = 2.0
        self.max_queued = 0

    def submit(self, kind: Kind, key: str | None, values: dict[str, Any], fallback: Any = None) -> bool:
        try:
            if kind in ("arrival", "refused"):
                self.ids[key or ""] = self.db.insert(**values)
            elif kind == "prune":
                self.db.prune(int(values["days"]))
            elif key in self.ids:
                self.db.update(self.ids[key], **values)
            elif kind == "end":  # as before: a request without its arrival row got a row at its end
                self.db.insert(**{**(fallback or {}), **values})
        except sqlite3.OperationalError:
            self.on_dropped(Job(kind, key, values), "locked")
            return False
        return True

    def flush(self, timeout: float) -> bool:
        return True

    def close(self, timeout: float | None = None) -> None:
        self.db.close()


class Channel:
    """A requester connection: records when each message came back."""

    def __init__(self) -> None:
        self.peer = Peer(pid=4242, uid=1000, process_name="bench")
        self.sent: list[tuple[float, dict[str, Any]]] = []

    def send(self, data: bytes) -> None:
        self.sent.append((time.perf_counter(), json.loads(data)))

    def close(self) -> None:
        pass


async def drive(recorder: Recorder, requests: int) -> list[float]:
    """Send ``requests`` creates (answered at once) while pinging; returns the ping stalls (s)."""

    async def accept(request: ElicitationRequest) -> Any:
        recorder.shown(request.key)
        return Accepted({"env": "prd"})

    dispatcher = Dispatcher(recorder.watch(UiFunctions(accept)), version="bench", journal=recorder)  # type: ignore[arg-type]
    asking, pinging = Channel(), Channel()
    dispatcher.connection_made(asking)
    dispatcher.connection_made(pinging)
    done = asyncio.Event()
    due: dict[int, float] = {}

    async def ping() -> None:
        number = 0
        while not done.is_set():
            number += 1
            due[number] = time.perf_counter() + PING_EVERY_S
            await asyncio.sleep(PING_EVERY_S)
            dispatcher.data_received(
                pinging, json.dumps({"jsonrpc": "2.0", "id": number, "method": "ping"}).encode() + b"\n"
            )

    pinger = asyncio.ensure_future(ping())
    for number in range(1, requests + 1):
        create = {"jsonrpc": "2.0", "id": number, "method": "elicitation/create", "params": FORM}
        dispatcher.data_received(asking, json.dumps(create).encode() + b"\n")
        while len(asking.sent) < number:
            await asyncio.sleep(0.001)
        await asyncio.sleep(0.05)
    done.set()
    await pinger
    dispatcher.connection_lost(asking)
    dispatcher.connection_lost(pinging)
    return [at - due[message["id"]] for at, message in pinging.sent if message.get("id") in due]


def one(way: str, locked: bool, requests: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "h.sqlite3"
        history = History(path)
        journal = Journal(Path(tmp) / "log.jsonl")
        recorder = Recorder(journal, history, writer=Writer if way == "writer thread" else UiThreadWriter)
        holder = None
        if locked:
            holder = subprocess.Popen(
                [sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
            )
            assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        stalls = asyncio.run(drive(recorder, requests))
        if holder is not None:
            assert holder.stdin is not None
            holder.stdin.write("\n")
            holder.stdin.close()
            holder.wait(30)
        recorder.flush(60)
        rows = len(history.rows())
        recorder.close()
        lines = (Path(tmp) / "log.jsonl").read_text().splitlines()
        dropped = sum(json.loads(x)["event"] == "history-dropped" for x in lines)
    return {
        "way": way,
        "lock": "held" if locked else "none",
        "worst": max(stalls) * 1000,
        "p50": statistics.median(stalls) * 1000,
        "rows": f"{rows}/{requests}",
        "dropped": dropped,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=3)
    args = parser.parse_args()
    results = [one(way, locked, args.requests) for way in ("writer thread", "UI thread") for locked in (False, True)]
    print("| history writes | other process's lock | worst ping stall (ms) | p50 (ms) | rows | dropped |")
    print("|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['way']} | {r['lock']} | {r['worst']:.1f} | {r['p50']:.1f} | {r['rows']} | {r['dropped']} |")


if __name__ == "__main__":
    main()
