"""A bare QApplication's RSS (xcb and offscreen): the floor the tray app's RSS is read against."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
from typing import Any

from .common import HERE, PY


def bench_bare_rss(platform_name: str | None, runs: int = 3) -> dict[str, Any]:
    env = dict(os.environ)
    if platform_name:
        env["QT_QPA_PLATFORM"] = platform_name
    values = []
    for _ in range(runs):
        done = subprocess.run(
            [PY, str(HERE / "bare_qt.py"), "500"], env=env, capture_output=True, text=True, timeout=30
        )
        for line in done.stdout.splitlines():
            if line.startswith("{"):
                values.append(json.loads(line)["rss_kib"])
    return {"rss_kib": statistics.median(values) if values else None, "runs_kib": values}
