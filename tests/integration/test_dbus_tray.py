"""Which tray path Qt takes decides how the tray shows server text (ui/tray.py): over D-Bus
(a StatusNotifierWatcher on the session bus) notification bodies are markup and the menu is a
dbusmenu. The check sees a watcher that appears on a real session bus, and none before."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _needs_dbus() -> None:
    """Fails (never skips) without D-Bus: scripts/setup.sh installs it."""
    if not shutil.which("dbus-run-session"):
        pytest.fail("needs dbus-run-session (D-Bus; scripts/setup.sh installs it)")


PROBE = """
from PySide6.QtDBus import QDBusConnection
from PySide6.QtWidgets import QApplication
app = QApplication([])
from elicit_tray.ui.tray import dbus_tray_in_use
before = dbus_tray_in_use()
assert QDBusConnection.sessionBus().registerService("org.kde.StatusNotifierWatcher")
print(before, dbus_tray_in_use())
"""


def test_the_dbus_tray_is_seen_once_a_status_notifier_watcher_is_on_the_session_bus():
    src = Path(__file__).resolve().parents[2] / "src"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(src))
    done = subprocess.run(
        ["dbus-run-session", "--", sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True"]
