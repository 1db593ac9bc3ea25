"""The in-process build/paint breakdown (``benchmarks/inproc.py`` in its own process)."""

from __future__ import annotations

import json
import subprocess
from typing import Any

from .common import HERE, PY


def bench_inproc() -> dict[str, Any]:
    done = subprocess.run([PY, str(HERE / "inproc.py")], capture_output=True, text=True, timeout=90)
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            return json.loads(line)
    return {"error": done.stderr[-1000:]}
