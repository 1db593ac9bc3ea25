"""A flood of malformed lines while a dialog is open: how long the UI thread is stalled."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

from .common import form_params, log, summary
from .tray import Conn, Tray
from .xwatch import XWatch

MALFORMED: list[Callable[[int], bytes]] = [
    lambda i: b"this is not json\n",  # -32700, id null
    lambda i: b'{"jsonrpc":"2.0","id":%d,"method":"ping"\n' % i,  # -32700 (truncated)
    lambda i: b"[1,2,3]\n",  # -32600
    lambda i: b'{"jsonrpc":"1.0","id":%d,"method":"ping"}\n' % i,  # -32600
    lambda i: b'\xff\xfe{"id":%d}\n' % i,  # -32700 (invalid UTF-8)
    lambda i: (
        b'{"jsonrpc":"2.0","id":%d,"method":"elicitation/create","params":{"message":"x",'
        b'"requestedSchema":{"type":"object","properties":{"a":{"type":"object"}}}}}\n' % i
    ),  # -32602
    lambda i: b'{"jsonrpc":"2.0","id":%d,"method":"no/such/method"}\n' % i,  # -32601
]


def bench_flood(tray: Tray, xw: XWatch, rate: int, seconds: float) -> dict[str, Any]:
    """``rate`` malformed lines/s for ``seconds`` while a 10-field dialog is open; a ping every
    5 ms on another connection measures how long the UI thread (which runs the event loop)
    is blocked: the proxy for the worst frame time."""
    holder = Conn(tray.socket)
    xw.drain()
    _rid, data = holder.request_bytes("elicitation/create", form_params(10))
    t0 = time.perf_counter()
    holder.send_raw(data)
    seen = xw.wait_window(t0, 5.0)
    if seen["window"] is None:
        return {"error": "the dialog did not appear"}

    pinger = Conn(tray.socket)
    idle_pings = [pinger.call("ping")[1] for _ in range(200)]
    flood = Conn(tray.socket)
    received = {"n": 0, "in_window": 0, "codes": {}}
    stop_reading = threading.Event()
    flood_end = [float("inf")]

    def reader() -> None:
        flood.sock.settimeout(0.2)
        while not stop_reading.is_set():
            try:
                line = flood.readline()
            except TimeoutError:
                continue
            except (ConnectionError, OSError):
                return
            received["n"] += 1
            if time.perf_counter() <= flood_end[0]:
                received["in_window"] += 1
            try:
                code = json.loads(line)["error"]["code"]
            except Exception:  # noqa: BLE001
                code = "?"
            received["codes"][code] = received["codes"].get(code, 0) + 1

    ping_rtts: list[float] = []
    ping_stop = threading.Event()

    def ping_loop() -> None:
        while not ping_stop.is_set():
            ping_rtts.append(pinger.call("ping")[1])
            time.sleep(0.005)

    reader_thread = threading.Thread(target=reader, daemon=True)
    ping_thread = threading.Thread(target=ping_loop, daemon=True)
    reader_thread.start()
    ping_thread.start()
    tick_s = 0.01
    per_tick = max(1, int(rate * tick_s))
    total = int(rate * seconds)
    sent = 0
    start = time.perf_counter()
    while sent < total and time.perf_counter() - start < seconds + 2:
        target = start + (sent // per_tick) * tick_s
        delay = target - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        batch = b"".join(MALFORMED[(sent + k) % len(MALFORMED)](sent + k + 1) for k in range(per_tick))
        flood.send_raw(batch)
        sent += per_tick
    flood_end[0] = time.perf_counter()
    sent_for_s = flood_end[0] - start
    deadline = time.perf_counter() + 3.0
    while received["n"] < sent and time.perf_counter() < deadline:
        time.sleep(0.01)
    ping_stop.set()
    ping_thread.join(5)
    stop_reading.set()
    reader_thread.join(5)

    # the dialog still works: Escape answers cancel
    xw.press_escape(seen["window"])
    holder.sock.settimeout(5)
    after = json.loads(holder.readline())
    for c in (holder, pinger, flood):
        c.close()
    xw.wait_gone(seen["window"], 2.0)
    result = {
        "rate_sent_per_s": sent / sent_for_s if sent_for_s else None,
        "sent": sent,
        "seconds": sent_for_s,
        "responses": received["n"],
        "responses_per_s": received["in_window"] / sent_for_s if sent_for_s else None,
        "error_codes": {str(k): v for k, v in sorted(received["codes"].items(), key=lambda kv: str(kv[0]))},
        "ping_idle_ms": summary(idle_pings),
        "ping_during_flood_ms": summary(ping_rtts),
        "dialog_answer_after_flood": after.get("result"),
    }
    log(
        f"flood: sent {sent} in {sent_for_s:.2f}s, {received['n']} responses "
        f"({result['responses_per_s']:.0f}/s); ping max {max(ping_rtts):.1f} ms during flood"
    )
    return result
