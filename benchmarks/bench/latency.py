"""Request -> window mapped / painted, warm, on xcb under Xvfb: one to 200 concurrent dialogs."""

from __future__ import annotations

import json
import time
from typing import Any

from .common import MAX_PROPERTIES, form_params, left_s, log, pct, summary, tail
from .tray import Conn, TraceReader, Tray
from .xwatch import XWatch


def bench_dialog_latency(tray: Tray, xw: XWatch, series: dict[int, int]) -> dict[str, Any]:
    """Request written to the socket -> window mapped / first paint, per form size (warm).

    Outside: the X server's MapNotify and first XDamage event. Inside, when the tray app runs
    with ``ELICIT_TRAY_TRACE``: its own line per dialog (``start_ns`` is CLOCK_MONOTONIC, as is
    ``time.monotonic_ns()`` here), turned into request written -> presenter start (IPC and
    parsing), -> built, -> shown, -> first paint event, and the outside figure minus the inside
    one for the same request (how far apart the two measurements are).
    """
    conn = Conn(tray.socket)
    tracer = TraceReader(tray.trace_path)
    out: dict[str, Any] = {}
    for n, count in series.items():
        if MAX_PROPERTIES is not None and n > MAX_PROPERTIES:
            rtts, codes = [], set()
            for _ in range(count):
                response, ms = conn.call("elicitation/create", form_params(n))
                rtts.append(ms)
                codes.add(response.get("error", {}).get("code"))
            out[str(n)] = {
                "refused": True,
                "limit": MAX_PROPERTIES,
                "error_codes": sorted(c for c in codes if c),
                "round_trip_ms": summary(rtts),
            }
            log(f"{n:>3} fields: refused by the tray (more than {MAX_PROPERTIES} properties), codes {codes}")
            continue
        maps: list[float] = []
        paints: list[float] = []
        app: dict[str, list[float]] = {
            "start": [],
            "built": [],
            "shown": [],
            "painted": [],
            "paint_outside_minus_inside": [],
            "mapped_minus_shown": [],
        }
        missing_trace = 0
        failures = 0
        for i in range(count + 3):  # 3 warm-ups
            if left_s() < 150:
                log(f"time budget: stopping the {n}-field series early")
                break
            xw.drain()
            tracer.new_lines()  # skip anything left from an earlier request
            _rid, data = conn.request_bytes("elicitation/create", form_params(n))
            t0 = time.perf_counter()
            written_ns = time.monotonic_ns()
            conn.send_raw(data)
            seen = xw.wait_window(t0, 5.0)
            if seen["window"] is None or seen["mapped"] is None:
                failures += 1
                log(f"{n} fields: no window seen ({seen})")
                continue
            xw.press_escape(seen["window"])
            try:
                response = json.loads(conn.readline())
            except (ConnectionError, OSError) as exc:
                out["crash"] = {
                    "fields": n,
                    "iteration": i,
                    "error": repr(exc),
                    "returncode": tray.proc and tray.proc.poll(),
                    "stderr_tail": tail(tray.stderr_path),
                }
                log(f"the tray app stopped answering during the {n}-field series: {exc!r}")
                break
            if response.get("result", {}).get("action") != "cancel":
                failures += 1
                log(f"unexpected answer to Escape: {response}")
            line = tracer.next_line() if tray.trace_path is not None else None
            xw.wait_gone(seen["window"], 2.0)
            if i >= 3:
                maps.append(seen["mapped"])
                if seen["painted"] is not None:
                    paints.append(seen["painted"])
                if line is not None and line.get("fields") == n and line.get("start_ns", 0) >= written_ns:
                    start = (line["start_ns"] - written_ns) / 1e6
                    app["start"].append(start)
                    for mark in ("built", "shown", "painted"):
                        if line.get(f"{mark}_ms") is not None:
                            app[mark].append(start + line[f"{mark}_ms"])
                    if line.get("painted_ms") is not None and seen["painted"] is not None:
                        app["paint_outside_minus_inside"].append(seen["painted"] - (start + line["painted_ms"]))
                    if line.get("shown_ms") is not None:
                        app["mapped_minus_shown"].append(seen["mapped"] - (start + line["shown_ms"]))
                elif tray.trace_path is not None:
                    missing_trace += 1
            time.sleep(0.03)  # let deleteLater and the server settle
        out[str(n)] = {"mapped_ms": summary(maps), "painted_ms": summary(paints), "failures": failures}
        if tray.trace_path is not None:
            out[str(n)]["app_trace"] = {
                f"to_{k}_ms" if k in ("start", "built", "shown", "painted") else f"{k}_ms": summary(v)
                for k, v in app.items()
            }
            out[str(n)]["app_trace"]["missing_lines"] = missing_trace
        if "crash" in out:
            break
        inside = f", in the app {pct(app['painted'], 50):.1f} ms" if app["painted"] else ""
        log(
            f"{n:>3} fields: mapped p50 {pct(maps, 50):.1f} ms, painted p50 {pct(paints, 50) or float('nan'):.1f} ms"
            + inside
        )
    conn.close()
    return out
