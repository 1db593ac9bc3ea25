"""zenity --forms and yad --form with 10 fields, and a bare PySide6 helper, side by side:
launch -> window mapped."""

from __future__ import annotations

import shutil
import subprocess
import time
from typing import Any

from .common import HERE, PY, left_s, log, pct, summary
from .xwatch import XWatch


def bench_helpers(xw: XWatch, runs: int) -> dict[str, Any]:
    """zenity --forms / yad --form with 10 fields, and a bare PySide6 helper: launch -> mapped."""
    helpers: dict[str, list[str]] = {
        "zenity": ["zenity", "--forms", "--title=bench", "--text=Benchmark form with 10 fields"]
        + [f"--add-entry=Field {k}" for k in range(10)],
        "yad": ["yad", "--form", "--title=bench", "--text=Benchmark form with 10 fields"]
        + [f"--field=Field {k}" for k in range(10)],
        "bare PySide6 helper": [PY, str(HERE / "bare_qt.py"), "5000"],
    }
    out: dict[str, Any] = {}
    for name, argv in helpers.items():
        if shutil.which(argv[0]) is None:
            out[name] = {"missing": True}
            log(f"{name} is not installed; skipped")
            continue
        maps: list[float] = []
        paints: list[float] = []
        for _ in range(runs):
            if left_s() < 60:
                break
            xw.drain()
            t0 = time.perf_counter()
            proc = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            seen = xw.wait_window(t0, 10.0)
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
            if seen["mapped"] is not None:
                maps.append(seen["mapped"])
            if seen["painted"] is not None:
                paints.append(seen["painted"])
            time.sleep(0.05)
        out[name] = {
            "mapped_ms": summary(maps),
            "painted_ms": summary(paints),
            "first_run_mapped_ms": maps[0] if maps else None,
        }
        log(f"{name}: launch -> mapped p50 {pct(maps, 50) or float('nan'):.1f} ms (runs {len(maps)})")
    return out
