"""Real windows under X (Xvfb from ``scripts/test.sh``): the tray app on the xcb platform,
answered with real key presses from xdotool. What depends on a window system is checked
here: the dialog maps, takes focus on its first field, and keys reach the right widgets."""

from __future__ import annotations

import json
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests import rpc
from tests.integration.xwindows import Windows, engage, needs_x, xcb_tray

pytestmark = needs_x

PARAMS = {
    "message": "Deploy?",
    "_meta": {"elicit-tray/requester": {"serverName": "deployer"}},
    "requestedSchema": {
        "type": "object",
        "properties": {
            "environment": {
                "type": "string",
                "title": "Environment",
                "default": "stg",
                "oneOf": [{"const": "stg", "title": "Staging"}, {"const": "prd", "title": "Production"}],
            },
            "replicas": {"type": "integer", "title": "Replicas", "minimum": 1, "maximum": 10},
        },
        "required": ["environment", "replicas"],
    },
}


@pytest.fixture(scope="module")
def tray():
    with xcb_tray() as sock:
        yield sock


windows = Windows("deployer.*Deploy")  # a regular expression for xdotool (the title quotes and isolates the name)


def _ask(sock: Path, keys: list[str]) -> dict:
    with socket.socket(socket.AF_UNIX) as conn:
        conn.settimeout(30)
        conn.connect(str(sock))
        conn.sendall(rpc.create_line(1, PARAMS))
        windows.engage_new()
        subprocess.run(["xdotool", "key", "--delay", "30", *keys], check=True, timeout=30)
        return json.loads(conn.makefile(encoding="utf-8").readline())


def test_real_keys_fill_the_focused_first_field_onwards_and_enter_accepts(tray):
    reply = _ask(tray, ["Down", "Tab", "3", "Return"])
    assert reply == {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {"action": "accept", "content": {"environment": "prd", "replicas": 3}},
    }


def test_real_escape_cancels(tray):
    assert _ask(tray, ["Escape"])["result"] == {"action": "cancel"}


def test_real_alt_d_declines(tray):
    assert _ask(tray, ["alt+d"])["result"] == {"action": "decline"}


def _visible(title: str) -> list[str]:
    return subprocess.run(
        ["xdotool", "search", "--onlyvisible", "--name", title], capture_output=True, text=True, timeout=30
    ).stdout.split()


def _geometry(window: str) -> tuple[str, str]:
    out = subprocess.run(["xdotool", "getwindowgeometry", window], capture_output=True, text=True, timeout=30).stdout
    position = out.split("Position:")[1].split("(")[0].strip()
    return position, out.split("Geometry:")[1].strip()


def test_five_dialogs_at_once_never_sit_exactly_on_one_another_and_each_title_says_who_asks_what(tray):
    with socket.socket(socket.AF_UNIX) as conn:
        conn.settimeout(30)
        conn.connect(str(tray))
        for n in range(5):
            params = {
                "message": f"Question {n}?",
                "_meta": {"elicit-tray/requester": {"serverName": f"asker-{n}"}},
                "requestedSchema": {"type": "object", "properties": {}},
            }
            conn.sendall(rpc.create_line(n, params))
        deadline = time.monotonic() + 30
        while len(found := _visible("asker-[0-9].*Question")) < 5:
            assert time.monotonic() < deadline, found
            time.sleep(0.02)  # bounded poll of the X server for the windows to map
        names = sorted(
            subprocess.run(["xdotool", "getwindowname", w], capture_output=True, text=True, timeout=30).stdout.strip()
            for w in found
        )
        # the server's name is a claim (quoted); each run of server text is isolated
        assert names == [
            f"“\u2068\u2068asker-{n}\u2069\u2069”: \u2068Question {n}?\u2069 — elicit-tray" for n in range(5)
        ]
        positions = [_geometry(w)[0] for w in found]
        assert len(set(positions)) == 5, positions
        reader = conn.makefile(encoding="utf-8")
        for window in found:
            engage(window)
            subprocess.run(["xdotool", "key", "Escape"], check=True, timeout=30)
        replies = sorted((json.loads(reader.readline()) for _ in found), key=lambda r: r["id"])
        assert replies == [{"jsonrpc": "2.0", "id": n, "result": {"action": "cancel"}} for n in range(5)]
