"""Shared by every benchmark: the run's time budget, its log, statistics and RSS."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]  # benchmarks/: the helper scripts run in their own processes
ROOT = HERE.parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
from forms import form_params  # noqa: E402, F401 - benchmarks/forms.py (shared with inproc.py), for the benchmarks

PY = sys.executable
try:  # the tray app refuses forms with more properties than this (None: no limit)
    from elicit_tray.limits import MAX_PROPERTIES
except ImportError:
    MAX_PROPERTIES = None
ENV_TRACE = "ELICIT_TRAY_TRACE"  # the app appends one timing line per dialog to this file
RUN_BUDGET_S = 270.0  # the whole run stays under 5 minutes
STARTED = time.monotonic()


def left_s() -> float:
    return RUN_BUDGET_S - (time.monotonic() - STARTED)


def log(msg: str) -> None:
    print(f"[bench {time.monotonic() - STARTED:6.1f}s] {msg}", file=sys.stderr, flush=True)


def pct(values: list[float], p: float) -> float | None:
    """Nearest-rank percentile (p in 0..100); None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(-(-p * len(ordered) // 100))))
    return ordered[rank - 1]


def summary(values: list[float]) -> dict[str, Any]:
    return {
        "n": len(values),
        "p50": pct(values, 50),
        "p95": pct(values, 95),
        "p99": pct(values, 99),
        "max": max(values) if values else None,
        "min": min(values) if values else None,
    }


def rss_kib(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def tail(path: Path, n: int = 1500) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")[-n:]
    except OSError:
        return ""
