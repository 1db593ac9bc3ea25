"""On a 1024x768 screen, at 100% and at 200% scale, every control keeps at least its minimum
size and none overlaps another, when a form opens, after a failed Accept shows every error and
while errors come and go (WCAG 1.4.10: what does not fit scrolls). Each scale runs the probe
(tests/ui/room_probe.py) in a process of its own on an offscreen screen of that size."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("scale", "logical"), [("1", [1024, 768]), ("2", [512, 384])], ids=["100%", "200%"])
def test_no_control_is_squeezed_or_overlaps_on_a_1024x768_screen(tmp_path, scale, logical):
    screens = {"screens": [{"name": "s", "x": 0, "y": 0, "width": 1024, "height": 768, "logicalDpi": 96, "dpr": 1}]}
    config = tmp_path / "screen.json"
    config.write_text(json.dumps(screens), encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}", QT_SCALE_FACTOR=scale)
    run = subprocess.run(
        [sys.executable, "-m", "tests.ui.room_probe"], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["screen"] == logical
    steps = {"open": [], "errors": [], "filling": []}
    assert report["forms"] == {"groups": steps, "groups-long-titles": steps, "groups-after-many": steps}
