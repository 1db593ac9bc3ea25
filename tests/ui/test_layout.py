"""Nothing is clipped or overlapping at 100% and 200% scale with a large font, in dark and
high-contrast palettes and a right-to-left locale, with long text in several scripts; the
error and warning colours keep their contrast. Each variant runs in its own process (the
scale factor must be set before Qt starts)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QPalette

from elicit_tray.ui.style import contrast_ratio, error_color, warning_color

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("variant", ["normal", "scale2", "dark", "high-contrast", "rtl"])
def test_no_widget_is_clipped_or_overlapping(variant):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    run = subprocess.run(
        [sys.executable, "-m", "tests.ui.layout_probe", variant],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert {name: r["problems"] for name, r in report.items()} == {name: [] for name in report}
    assert all(r["rtl"] is (variant == "rtl") for r in report.values())


@pytest.mark.parametrize(
    ("window", "text"), [("#ffffff", "#000000"), ("#efefef", "#000000"), ("#202124", "#e8eaed"), ("#000000", "#ffffff")]
)
def test_error_and_warning_colours_keep_aa_contrast_against_the_window(qapp, window, text):
    palette = QPalette()
    palette.setColor(QPalette.ColorRole.Window, QColor(window))
    palette.setColor(QPalette.ColorRole.WindowText, QColor(text))
    assert contrast_ratio(error_color(palette), QColor(window)) >= 4.5
    assert contrast_ratio(warning_color(palette), QColor(window)) >= 3.0  # a frame: non-text contrast
