"""A tray host (panel) that starts after the app still gets the icon (issue 12 §2: autostart can
beat the panel at login). Real X server, openbox and trayer (a standalone system tray)."""

from __future__ import annotations

import re
import shutil
import subprocess
import time

import pytest

from tests.integration.xwindows import needs_x, xcb_tray

pytestmark = [needs_x, pytest.mark.skipif(not shutil.which("trayer"), reason="needs trayer (scripts/setup.sh)")]


def _icon_in_panel() -> bool:
    """Whether an ``elicit-tray`` icon window is embedded in trayer's panel window."""
    tree = subprocess.run(["xwininfo", "-root", "-tree"], capture_output=True, text=True, timeout=30).stdout
    lines = tree.splitlines()
    for i, line in enumerate(lines):
        if '("panel" "trayer")' in line:
            depth = len(line) - len(line.lstrip())
            for child in lines[i + 1 :]:
                if len(child) - len(child.lstrip()) <= depth:
                    break
                if re.search(r'"elicit-tray": \("elicit-tray" "elicit-tray"\)', child):
                    return True
    return False


def test_a_tray_host_started_after_the_app_gets_the_icon():
    with xcb_tray() as _sock:
        assert not _icon_in_panel()
        panel = subprocess.Popen(
            ["trayer", "--edge", "top", "--align", "right", "--widthtype", "pixel", "--width", "120", "--height", "24"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 30
            while not _icon_in_panel():
                assert time.monotonic() < deadline, "the icon never appeared in the tray host"
                time.sleep(0.1)  # bounded poll of the X server's window tree
        finally:
            panel.terminate()
            panel.wait(timeout=30)
