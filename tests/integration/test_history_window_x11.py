"""The History window of the real tray app on X (xcb, under a window manager), as the dialogs
are checked: driven with real keys only (xdotool), and read through AT-SPI (issue 15)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from elicit_tray.history import History
from tests.integration.test_atspi import _have_pyatspi
from tests.integration.tray_process import short_tmpdir
from tests.integration.xwindows import Windows, needs_x, xcb_tray

pytestmark = needs_x
TITLE = "History — elicit-tray"


def _filled(directory: Path) -> Path:
    from tests.ui.test_history_window import fill

    path = directory / "history.sqlite3"
    history = History(path)
    fill(history)
    history.close()
    return path


def _keys(*args: str) -> None:
    subprocess.run(["xdotool", *args], check=True, timeout=30)


def _wait_file(path: Path) -> str:
    deadline = time.monotonic() + 30
    while not (path.exists() and path.stat().st_size):
        assert time.monotonic() < deadline, f"{path} was not written"
        time.sleep(0.02)  # bounded poll for the file the app writes
    return path.read_text(encoding="utf-8")


def test_the_keyboard_alone_filters_exports_and_clears(scratch):
    db = _filled(short_tmpdir())
    out = short_tmpdir() / "github.json"
    with xcb_tray(ELICIT_TRAY_HISTORY=str(db), ELICIT_TRAY_OPEN_WINDOW="history", TZ="UTC"):
        Windows("History").activate_new()
        _keys("type", "--delay", "20", "github")  # the search field has the focus
        _keys("key", "alt+o", "Down")  # Outcome: the next choice, Accepted
        _keys("key", "alt+j")  # Export JSON…: a file dialog
        Windows("Export the decisions shown").activate_new()
        _keys("key", "ctrl+a")
        _keys("type", "--delay", "10", str(out))
        _keys("key", "Return")
        rows = json.loads(_wait_file(out))
        assert [(r["server"], r["message"], r["outcome"]) for r in rows] == [
            ("github", "Connect your GitHub account", "accept")
        ]
        _keys("key", "alt+l")  # Clear history…, then Yes
        Windows("Clear history").activate_new()
        _keys("key", "alt+y")
        deadline = time.monotonic() + 30
        while True:
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
                left = [r[0] for r in conn.execute("SELECT outcome FROM decisions")]
            if left == [] or time.monotonic() > deadline:
                break
            time.sleep(0.02)  # bounded poll of the database the app changes
        # everything: the app read the fixture's pending row as "interrupted" when it started
        assert left == []


def test_a_screen_reader_reads_the_history_window(scratch):
    if not (
        os.environ.get("DISPLAY")
        and shutil.which("dbus-daemon")
        and Path("/usr/libexec/at-spi-bus-launcher").exists()
        and _have_pyatspi()
    ):
        pytest.fail("needs Xvfb, D-Bus, at-spi2-core and python3-pyatspi (scripts/setup.sh installs them as root)")
    from tests.integration import test_atspi

    db = _filled(short_tmpdir())
    daemon = subprocess.Popen(
        ["dbus-daemon", "--session", "--nofork", "--print-address=1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    address = daemon.stdout.readline().strip()
    env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address, QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1", NO_AT_BRIDGE="0")
    launcher = subprocess.Popen(
        ["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        with xcb_tray(
            ELICIT_TRAY_HISTORY=str(db),
            ELICIT_TRAY_OPEN_WINDOW="history",
            TZ="UTC",
            DBUS_SESSION_BUS_ADDRESS=address,
            QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1",
            NO_AT_BRIDGE="0",
        ):
            Windows("History").activate_new()
            nodes = test_atspi._tree(env, lambda ns: any(n["name"] == "Decisions" for n in ns))
            one = test_atspi._one
            assert one(nodes, name="Search")["role"] == "text"
            assert one(nodes, role="dialog", name=TITLE)
            for label, shown, says in (
                ("Server:", "All servers", "of one server only"),
                ("Outcome:", "All outcomes", "with this outcome only"),
                ("Period:", "All time", "received in this period only"),
            ):
                node = one(nodes, role="combo box", name=shown)  # Qt names a combo box by its choice
                assert node["relations"].get("labelled by") == [label]
                assert node["description"] == f"Shows the decisions {says}."
            table = one(nodes, name="Decisions")
            assert table["role"] == "table" and table["description"].startswith("Newest first.")
            assert one(nodes, role="table cell", name="Re-authorise the GitHub app")
            details = one(nodes, name="Details")
            assert details["text"].startswith(
                "Outcome: Interrupted (the app stopped) (interrupted)\nReceived: 2026-09-22 02:53:20\n"
            )
            for name in ("Export JSON…", "Export CSV…", "Clear history…", "Close"):
                assert one(nodes, role="push button", name=name)["description"]
    finally:
        for proc in (launcher, daemon):
            proc.terminate()
            proc.wait(timeout=20)
        daemon.stdout.close()
