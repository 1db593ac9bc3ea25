"""Cold start: launch -> listening, and where the import time goes."""

from __future__ import annotations

import statistics
import subprocess
from pathlib import Path
from typing import Any

from .common import PY, left_s, log, pct, summary
from .tray import Tray


def bench_cold_start(workdir: Path, runs: int) -> dict[str, Any]:
    """Process start -> socket accepting connections (xcb under Xvfb, no request)."""
    times = []
    for i in range(runs):
        if left_s() < 120:
            break
        tray = Tray(workdir, f"cold-{i}")
        try:
            times.append(tray.start() * 1000)
        finally:
            tray.stop()
    log(f"cold start p50 {pct(times, 50):.0f} ms")
    importtime = import_profile()
    return {
        "listening_ms": summary(times),
        "median_ms": statistics.median(times) if times else None,
        "runs_ms": times,
        "slowest_imports_ms": importtime,
    }


def import_profile() -> list[tuple[str, float]]:
    """The largest cumulative imports of the tray app's start-up path (``-X importtime``)."""
    code = (
        "import sys, elicit_tray.cli, elicit_tray.app; "
        "import qasync, PySide6.QtWidgets, elicit_tray.ipc.protocol, elicit_tray.ipc.server, elicit_tray.ui.presenter, "
        "elicit_tray.ui.tray"
    )
    done = subprocess.run([PY, "-X", "importtime", "-c", code], capture_output=True, text=True, timeout=60)
    rows = []
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            name = parts[2].rstrip()
            depth = (len(name) - len(name.lstrip())) // 2
            if depth <= 1:
                rows.append((name.strip(), int(parts[1]) / 1000))
    rows.sort(key=lambda r: -r[1])
    return rows[:10]
