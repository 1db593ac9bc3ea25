"""Real windows under X (Xvfb from ``scripts/test.sh``): the tray app on the xcb platform,
answered with real key presses from xdotool. What depends on a window system is checked
here: the dialog maps, takes focus on its first field, and keys reach the right widgets."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from elicit_tray.ipc.server import probe_socket

pytestmark = pytest.mark.skipif(not os.environ.get("DISPLAY") or not shutil.which("xdotool"),
                                reason="needs an X display and xdotool (scripts/test.sh starts Xvfb)")

PARAMS = {"message": "Deploy?", "_meta": {"elicit-tray/requester": {"serverName": "deployer"}},
          "requestedSchema": {"type": "object", "properties": {
              "environment": {"type": "string", "title": "Environment", "default": "stg", "oneOf": [
                  {"const": "stg", "title": "Staging"}, {"const": "prd", "title": "Production"}]},
              "replicas": {"type": "integer", "title": "Replicas", "minimum": 1, "maximum": 10}},
              "required": ["environment", "replicas"]}}


@pytest.fixture(scope="module")
def tray():
    with tempfile.TemporaryDirectory(prefix="et-") as tmp:
        sock = Path(tmp) / "socket"
        env = dict(os.environ, QT_QPA_PLATFORM="xcb")
        proc = subprocess.Popen([sys.executable, "-m", "elicit_tray", "--socket", str(sock), "serve",
                                 "--arm-delay-ms", "0"], env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while not probe_socket(sock):
            assert proc.poll() is None, "the tray app exited on the xcb platform"
            assert time.monotonic() < deadline
            time.sleep(0.02)  # bounded wait for the process to listen
        yield sock
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0


_seen: set[str] = set()


def _new_window() -> str:
    """The id of the dialog window that has just been mapped (not one of an earlier test)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "deployer asks"],
                               capture_output=True, text=True, timeout=30).stdout.split()
        new = [w for w in found if w not in _seen]
        if new:
            _seen.update(new)
            return new[0]
        time.sleep(0.02)  # bounded poll of the X server for the window to map
    raise AssertionError("the dialog window did not appear")


def _ask(sock: Path, keys: list[str]) -> dict:
    with socket.socket(socket.AF_UNIX) as conn:
        conn.settimeout(30)
        conn.connect(str(sock))
        conn.sendall(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "elicitation/create",
                                 "params": PARAMS}).encode() + b"\n")
        window = _new_window()
        subprocess.run(["xdotool", "windowactivate", "--sync", window], capture_output=True, timeout=30)
        subprocess.run(["xdotool", "key", "--delay", "30", *keys], check=True, timeout=30)
        return json.loads(conn.makefile(encoding="utf-8").readline())


def test_real_keys_fill_the_focused_first_field_onwards_and_enter_accepts(tray):
    reply = _ask(tray, ["Down", "Tab", "3", "Return"])
    assert reply == {"jsonrpc": "2.0", "id": 1,
                     "result": {"action": "accept", "content": {"environment": "prd", "replicas": 3}}}


def test_real_escape_cancels(tray):
    assert _ask(tray, ["Escape"])["result"] == {"action": "cancel"}


def test_real_alt_d_declines(tray):
    assert _ask(tray, ["alt+d"])["result"] == {"action": "decline"}
