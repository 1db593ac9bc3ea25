"""A tray host (panel) that starts after the app still gets the icon (issue 12 §2: autostart can
beat the panel at login). Real X server, openbox and trayer (a standalone system tray)."""

from __future__ import annotations

import shutil
import subprocess
import time

import pytest

from tests.integration.xwindows import needs_x, tray_icon_window, xcb_tray

pytestmark = [needs_x, pytest.mark.skipif(not shutil.which("trayer"), reason="needs trayer (scripts/setup.sh)")]


def test_a_tray_host_started_after_the_app_gets_the_icon():
    with xcb_tray() as _sock:
        assert not tray_icon_window()
        panel = subprocess.Popen(
            ["trayer", "--edge", "top", "--align", "right", "--widthtype", "pixel", "--width", "120", "--height", "24"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 30
            while not tray_icon_window():
                assert time.monotonic() < deadline, "the icon never appeared in the tray host"
                time.sleep(0.1)  # bounded poll of the X server's window tree
        finally:
            panel.terminate()
            panel.wait(timeout=30)
