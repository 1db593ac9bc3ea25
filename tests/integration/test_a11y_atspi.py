"""What a screen reader is told beyond Qt's own accessibility (ui/a11y.py), read through AT-SPI
from the real tray app on Xvfb, as Orca gets it: on open only who asks is left to be read as
free text (field help and the legend describe their field or the form), the dialog's
description, the drop-down list's entry chosen by typing, and the calendar's month when it opens
and when the page turns. Needs what test_atspi.py needs; fails, never skips, without it."""

from __future__ import annotations

import calendar
import datetime as dt
import json
import os
import queue
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import rpc
from tests.integration.test_atspi import SYSTEM_PYTHON, _one, _tree, bus  # noqa: F401 (fixture)
from tests.integration.xwindows import Windows

HERE = Path(__file__).resolve().parent
#: Bound on waiting for one AT-SPI event (seconds).
EVENT_TIMEOUT_S = 20.0

FORM = {
    "message": "Where to?",
    "_meta": {"elicit-tray/requester": {"serverName": "travel"}},
    "requestedSchema": {
        "type": "object",
        "properties": {
            "region": {"type": "string", "title": "Region", "enum": ["us-east-1", "us-west-2", "eu-west-1"]},
            "day": {"type": "string", "format": "date", "title": "Day"},
            "name": {"type": "string", "title": "Traveller", "description": "As in the passport", "minLength": 2},
        },
        "required": ["name"],
    },
}


#: This module's dialogs (its own: X reuses the window ids of a tray app that has exited).
windows = Windows()


def _open(sock: Path, params: dict) -> socket.socket:
    """Send ``params`` as a request and engage with the dialog, as the user does."""
    conn = socket.socket(socket.AF_UNIX)
    conn.settimeout(30)
    conn.connect(str(sock))
    conn.sendall(rpc.create_line(1, params))
    windows.engage_new()
    return conn


@pytest.fixture(scope="module", autouse=True)
def _needs_the_rig() -> None:
    missing = [t for t in ("dbus-daemon", "xdotool") if not shutil.which(t)]
    if not os.environ.get("DISPLAY"):
        missing.append("a display (DISPLAY; scripts/test.sh starts Xvfb)")
    if not Path("/usr/libexec/at-spi-bus-launcher").exists():
        missing.append("at-spi2-core")
    if subprocess.run([SYSTEM_PYTHON, "-c", "import pyatspi"], capture_output=True, timeout=30).returncode != 0:
        missing.append("python3-pyatspi")
    if missing:
        pytest.fail(f"missing {', '.join(missing)}: scripts/setup.sh installs them as root")


class Events:
    """``atspi_events.py`` listening on the test's accessibility bus: :meth:`wait_for` an event."""

    def __init__(self, env: dict[str, str], *kinds: str):
        self.proc = subprocess.Popen(
            [SYSTEM_PYTHON, str(HERE / "atspi_events.py"), *kinds],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[dict] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        assert self.lines.get(timeout=EVENT_TIMEOUT_S) == "ready"

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.strip())

    def wait_for(self, **match: object) -> dict:
        """The first event (since the last one waited for) whose fields equal ``match``, waiting
        up to :data:`EVENT_TIMEOUT_S`; ``AssertionError`` with the events seen otherwise."""
        deadline = time.monotonic() + EVENT_TIMEOUT_S
        while True:
            try:
                event = json.loads(self.lines.get(timeout=max(0.0, deadline - time.monotonic())))
            except queue.Empty:
                raise AssertionError(f"no AT-SPI event {match}; seen: {self.seen[-30:]}") from None
            self.seen.append(event)
            if all(event.get(k) == v for k, v in match.items()):
                return event

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=20)
        self._reader.join(timeout=20)  # it has read to the end of the output
        assert self.proc.stdout is not None
        self.proc.stdout.close()


@pytest.fixture
def events(bus) -> Iterator[Events]:  # noqa: F811 (the fixture imported above)
    env, _sock = bus
    listener = Events(env, "focus:", "object:state-changed:focused", "object:property-change:accessible-name")
    yield listener
    listener.stop()


def _key(env: dict[str, str], *keys: str) -> None:
    subprocess.run(["xdotool", "key", *keys], env=env, check=True, timeout=30)


def _read_on_open(nodes: list[dict], dialog: dict) -> list[str]:
    """What Orca reads of a dialog when it opens besides its name (its "unrelated labels":
    showing labels of three words or more with no relation, not part of the dialog's name)."""
    return [
        n["name"]
        for n in nodes
        if n["role"] == "label"
        and "showing" in n["states"]
        and not n["relations"]
        and len(n["name"].split()) >= 3
        and n["name"] not in dialog["name"]
    ]


def test_on_open_only_who_asks_is_free_text_the_help_describes_its_field_and_typing_in_a_list_is_read(
    bus,  # noqa: F811
    events,
):
    env, sock = bus
    conn = _open(sock, FORM)
    try:
        events.wait_for(type="focus:", role="combo box", name="Not set")  # the first field, focused
        nodes = _tree(env, lambda ns: any(n["name"] == "Traveller" and n["role"] == "text" for n in ns))
        dialog = _one(nodes, role="dialog")
        assert dialog["description"] == (
            f"“travel” asks through the local program {os.path.realpath(sys.executable)}: Where to?"
        )
        assert _read_on_open(nodes, dialog) == [
            "That is what the server says it is; not verified.",
            _one(nodes, role="label", description="Requesting program")["name"],
        ]
        help_text = _one(nodes, role="label", name="As in the passport. At least 2 characters.")
        assert help_text["relations"] == {"description for": ["Traveller"]}
        assert _one(nodes, role="text", name="Traveller")["description"] == (
            "As in the passport. Required. At least 2 characters."
        )
        legend = _one(nodes, role="label", name="Fields marked * are required.")
        assert legend["relations"] == {"description for": [dialog["name"]]}
        assert "required" not in _one(nodes, role="text", name="Traveller")["states"]  # Qt has none (README)

        subprocess.run(["xdotool", "type", "--delay", "40", "us-w"], env=env, check=True, timeout=30)
        events.wait_for(type="object:state-changed:focused", role="list item", name="us-west-2", detail1=1)
        _key(env, "Down")  # an arrow key in the closed list: read the same way
        events.wait_for(type="object:state-changed:focused", role="list item", name="eu-west-1", detail1=1)
        _key(env, "Tab")  # leaving the list: the next field has the focus as usual
        events.wait_for(type="object:state-changed:focused", role="spin button", name="Day", detail1=1)
        _key(env, "Return")  # a failed submit: the error, made now, describes its field too
        nodes = _tree(env, lambda ns: any(n["name"] == "⚠ This field is required." for n in ns))
        assert _one(nodes, role="label", name="⚠ This field is required.")["relations"] == {
            "description for": ["Traveller"]
        }
        assert "⚠ This field is required." not in _read_on_open(nodes, _one(nodes, role="dialog"))
    finally:
        conn.close()


def test_the_calendar_says_its_month_when_it_opens_and_when_the_page_turns(bus, events):  # noqa: F811
    env, sock = bus
    conn = _open(sock, FORM)
    try:
        events.wait_for(type="focus:", role="combo box", name="Not set")
        _key(env, "Tab")
        events.wait_for(type="object:state-changed:focused", role="spin button", name="Day", detail1=1)
        today = dt.date.today()
        shown = f"{calendar.month_name[today.month]} {today.year}"
        _key(env, "F4")  # the calendar opens on this month: its table of days, named by it, focused
        opened = events.wait_for(type="object:state-changed:focused", role="table", detail1=1)
        assert (opened["name"], opened["parent"]) == (shown, ["table", shown])  # in the calendar, named too
        _key(env, "Next")  # Page Down: the next month
        following = dt.date(today.year + today.month // 12, today.month % 12 + 1, 1)
        turned = f"{calendar.month_name[following.month]} {following.year}"
        events.wait_for(type="object:property-change:accessible-name", role="table", name=turned)
        turn = events.wait_for(type="object:state-changed:focused", name=turned, detail1=1)
        assert turn["parent"] == ["filler", "elicit-tray"]  # the calendar itself, in its popup window
        _key(env, "Right")  # the next day: back in the table of days, under the new month's name
        events.wait_for(type="object:state-changed:focused", detail1=1, parent=["table", turned])
        _key(env, "Escape")
    finally:
        conn.close()
