"""The whole run, in order: ``benchmarks/run.py`` (and ``python -m bench`` in ``benchmarks/``)."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .common import HERE, STARTED, log, rss_kib
from .flood import bench_flood
from .inproc import bench_inproc
from .latency import bench_dialog_latency
from .memory import bench_bare_rss
from .report import build_rows, machine, print_table
from .scripted import bench_scripted
from .startup import bench_cold_start
from .tray import Tray
from .xwatch import XWatch
from .zenity import bench_helpers

DESCRIPTION = "elicit-tray benchmarks: latency, round trips, memory, cold start, flood, and zenity/yad side by side"


def main() -> int:
    parser = argparse.ArgumentParser(description=DESCRIPTION)
    parser.add_argument("--quick", action="store_true", help="fewer iterations (a smoke run)")
    parser.add_argument("--out", type=Path, default=HERE / "results.json")
    args = parser.parse_args()
    if not os.environ.get("DISPLAY"):
        print("benchmarks/run.py needs an X display: run ./benchmarks/run.sh (it uses xvfb-run)", file=sys.stderr)
        return 2
    q = args.quick
    series = {1: 10, 10: 10, 50: 5, 100: 5, 200: 5} if q else {1: 40, 10: 40, 50: 20, 100: 15, 200: 15}
    results: dict[str, Any] = {"machine": machine(), "started": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    workdir = Path(tempfile.mkdtemp(prefix="elicit-bench-"))
    os.chmod(workdir, 0o700)
    xw = XWatch()
    if not xw.has_damage:
        log("the X server has no DAMAGE extension: first-paint figures are not available")
    try:
        log("cold start")
        results["cold_start"] = bench_cold_start(workdir, 3 if q else 5)
        log("bare QApplication RSS (xcb, offscreen)")
        bare_xcb = bench_bare_rss(None)
        bare_off = bench_bare_rss("offscreen")
        tray = Tray(workdir, "xcb", trace=True)
        tray.start()
        try:
            time.sleep(1.0)
            idle = rss_kib(tray.pid)
            log("request -> window mapped / painted (xcb under Xvfb, warm)")
            results["dialog_latency"] = bench_dialog_latency(tray, xw, series)
            if tray.proc is not None and tray.proc.poll() is not None:
                log("the xcb tray app died; restarting it for the flood")
                tray.start()
            log("flood")
            results["flood"] = bench_flood(tray, xw, rate=1000, seconds=1.0 if q else 3.0)
            time.sleep(0.5)
            after = rss_kib(tray.pid)
            xcb_requests = (
                sum(v["mapped_ms"]["n"] + 3 for v in results["dialog_latency"].values() if "mapped_ms" in v) + 1
            )
        finally:
            tray.stop()
        log("scripted round trips (offscreen)")
        results["scripted"] = bench_scripted(
            workdir,
            sequential=100 if q else 400,
            concurrent=20,
            per_requester=10 if q else 30,
            pings=200 if q else 1000,
        )
        results["memory"] = {
            "bare_xcb_kib": bare_xcb["rss_kib"],
            "bare_offscreen_kib": bare_off["rss_kib"],
            "bare_runs": {"xcb": bare_xcb["runs_kib"], "offscreen": bare_off["runs_kib"]},
            "tray_xcb_idle_kib": idle,
            "tray_xcb_after_kib": after,
            "tray_xcb_requests": xcb_requests,
            "tray_offscreen_idle_kib": results["scripted"]["rss_idle_kib"],
            "tray_offscreen_after_kib": results["scripted"]["rss_after_kib"],
            "tray_offscreen_requests": results["scripted"]["answered"],
            "tray_offscreen_post_warm_up_kib": results["scripted"].get("rss_post_warm_up_kib"),
            "tray_offscreen_right_after_kib": results["scripted"].get("rss_right_after_kib"),
            "tray_offscreen_abandoned": results["scripted"].get("abandoned"),
        }
        log("helpers side by side: zenity, yad, bare PySide6")
        results["helpers"] = bench_helpers(xw, 3 if q else 7)
        log("in-process build/paint breakdown")
        results["inproc"] = bench_inproc()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    results["elapsed_s"] = round(time.monotonic() - STARTED, 1)
    rows = build_rows(results)
    results["table"] = rows
    args.out.write_text(json.dumps(results, indent=2, default=str) + "\n", encoding="utf-8")
    m = results["machine"]
    print(
        f"\nelicit-tray benchmarks — {m['nproc']} CPUs ({m['cpu']}), {m['ram_gib']} GiB RAM, "
        f"Python {m['python']}, PySide6 {m['pyside6']}, {m['display']}; {results['elapsed_s']} s\n"
    )
    print(print_table(rows))
    print(f"\n(JSON: {args.out})")
    return 0
