"""The pattern worker also runs as an entry point (what a frozen bundle starts with
``--pattern-worker``, since it has no ``python -c``): same protocol, same answers."""

from __future__ import annotations

import json
import subprocess
import sys

from elicit_tray.schema.pattern import WORKER_ARG
from tests.conftest import REPO


def test_the_worker_entry_point_answers_like_the_python_c_worker():
    code = "import sys; from elicit_tray.schema.pattern import worker_main; sys.exit(worker_main())"
    lines = [json.dumps(["^[A-Z][a-z]+$", "Ada"]), json.dumps(["^\\d{5}$", "১২৩৪৫"]), json.dumps(["(", "x"])]
    run = subprocess.run(
        [sys.executable, "-c", code], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["ready", "1", "0", "!"]  # Bengali digits are not ECMA-262 \d


def test_the_bundle_entry_point_dispatches_the_worker_argument():
    source = (REPO / "packaging" / "pyinstaller" / "elicit_tray_main.py").read_text(encoding="utf-8")
    assert f'sys.argv[1:2] == ["{WORKER_ARG}"]' in source
