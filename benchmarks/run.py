"""elicit-tray benchmarks in one run: ``./benchmarks/run.sh`` runs this under Xvfb.

The benchmarks themselves are the package ``benchmarks/bench/`` (one module per measured
thing; see its docstring). Prints a table and writes ``benchmarks/results.json``;
``--quick`` for fewer iterations.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench.main import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
