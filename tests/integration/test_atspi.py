"""What a screen reader gets, read through AT-SPI (the Linux accessibility bus) from the real
tray app on Xvfb: role, name, description (with constraints and "Required."), and after a
failed submit the error text, for every field kind; the URL dialog's parts."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests import rpc
from tests.integration.tray_process import short_tmpdir
from tests.integration.xwindows import Windows, window_manager

HERE = Path(__file__).resolve().parent
SYSTEM_PYTHON = "/usr/bin/python3"


def _have_pyatspi() -> bool:
    if not Path(SYSTEM_PYTHON).exists():
        return False
    return subprocess.run([SYSTEM_PYTHON, "-c", "import pyatspi"], capture_output=True, timeout=30).returncode == 0


@pytest.fixture(autouse=True)
def _needs_the_accessibility_rig() -> None:
    """Fails (never skips) when the rig is missing: a screen-reader test that did not run is a failure."""
    if not (
        os.environ.get("DISPLAY")
        and shutil.which("dbus-daemon")
        and shutil.which("xdotool")
        and Path("/usr/libexec/at-spi-bus-launcher").exists()
        and _have_pyatspi()
    ):
        pytest.fail(
            "needs Xvfb, D-Bus, at-spi2-core, xdotool and python3-pyatspi (scripts/setup.sh installs them as root)"
        )


FORM = {
    "message": "Book the trip?",
    "_meta": {"elicit-tray/requester": {"serverName": "travel"}},
    "requestedSchema": {
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": "Traveller", "description": "As in the passport", "minLength": 2},
            "email": {"type": "string", "format": "email", "title": "Email"},
            "day": {"type": "string", "format": "date", "title": "Day"},
            "seats": {"type": "integer", "title": "Seats", "minimum": 1, "maximum": 4},
            "insure": {"type": "boolean", "title": "Travel insurance", "default": False},
            "cabin": {
                "type": "string",
                "title": "Cabin",
                "oneOf": [{"const": "eco", "title": "Economy"}, {"const": "biz", "title": "Business"}],
            },
            "meal": {"type": "string", "title": "Meal", "enum": ["none", "veg", "fish", "meat", "kids"]},
            "extras": {
                "type": "array",
                "title": "Extras",
                "maxItems": 2,
                "items": {"type": "string", "enum": ["Bag", "Seat", "Lounge"]},
            },
        },
        "required": ["name", "seats", "cabin"],
    },
}


windows = Windows()


@pytest.fixture(scope="module")
def bus():
    """A private D-Bus session with the accessibility bus, and the tray app on it (xcb, under a
    window manager)."""
    window_manager()
    workdir = short_tmpdir()
    daemon = subprocess.Popen(
        ["dbus-daemon", "--session", "--nofork", "--print-address=1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    address = daemon.stdout.readline().strip()
    env = dict(
        os.environ,
        DBUS_SESSION_BUS_ADDRESS=address,
        QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1",
        QT_QPA_PLATFORM="xcb",
        NO_AT_BRIDGE="0",
    )
    launcher = subprocess.Popen(
        ["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    sock = workdir / "socket"
    tray = subprocess.Popen(
        [sys.executable, "-m", "elicit_tray", "--socket", str(sock), "serve", "--arm-delay-ms", "0"],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while not sock.exists():
        assert tray.poll() is None and time.monotonic() < deadline, "the tray app did not start"
        time.sleep(0.02)  # bounded wait for the process to listen
    yield env, sock
    tray.send_signal(signal.SIGTERM)
    tray.wait(timeout=20)
    for proc in (launcher, daemon):
        proc.terminate()
        proc.wait(timeout=20)
    daemon.stdout.close()


def _tree(env: dict[str, str], until) -> list[dict]:
    """The app's AT-SPI tree once ``until(nodes)`` holds (bounded)."""
    deadline = time.monotonic() + 20
    nodes: list[dict] = []
    while time.monotonic() < deadline:
        run = subprocess.run(
            [SYSTEM_PYTHON, str(HERE / "atspi_dump.py")], env=env, capture_output=True, text=True, timeout=30
        )
        nodes = [json.loads(line) for line in run.stdout.splitlines()]
        if nodes and until(nodes):
            return nodes
    raise AssertionError(f"the accessibility tree never showed what was expected: {nodes[:40]}")


def _one(nodes: list[dict], **match) -> dict:
    found = [n for n in nodes if all(n.get(k) == v for k, v in match.items()) and "showing" in n["states"]]
    assert len(found) == 1, (match, found)
    return found[0]


def _open(sock: Path, params: dict) -> socket.socket:
    conn = socket.socket(socket.AF_UNIX)
    conn.settimeout(30)
    conn.connect(str(sock))
    conn.sendall(rpc.create_line(1, params))
    windows.engage_new()  # the user goes to it (it waits to be chosen when the user was typing)
    return conn


def test_a_screen_reader_reads_every_field_its_constraints_and_after_a_failed_submit_its_error(bus):
    env, sock = bus
    conn = _open(sock, FORM)
    try:
        nodes = _tree(env, lambda ns: any(n["name"] == "Traveller" and n["role"] == "text" for n in ns))
        # the server's name is a claim (quoted); each run of server text is isolated
        assert _one(nodes, role="dialog")["name"] == (
            "“\u2068\u2068travel\u2069\u2069”: \u2068Book the trip?\u2069 — elicit-tray"
        )
        assert _one(nodes, role="label", name="Book the trip?")["description"] == "Message from the server"
        assert _one(nodes, role="label", name="“travel”")["description"] == "Requesting server"
        assert _one(nodes, role="label", description="Requesting program")["name"].startswith(
            f"Asked by the local program {os.path.realpath(sys.executable)} "
        )
        expected = {
            ("text", "Traveller"): "As in the passport. Required. At least 2 characters.",
            ("text", "Email"): "An email address.",
            ("spin button", "Day"): "A date.",
            ("text", "Seats"): "Required. Whole number between 1 and 4.",
            ("check box", "Travel insurance"): "",
        }
        for (role, name), description in expected.items():
            node = _one(nodes, role=role, name=name)
            assert node["description"] == description, (role, name)
            assert "focusable" in node["states"]
        assert "checked" not in _one(nodes, role="check box", name="Travel insurance")["states"]
        # On Linux Qt names a combo box by its value and labels it through a relation.
        meal = _one(nodes, role="combo box", name="Not set")
        assert meal["relations"].get("labelled by") == ["Meal"]
        assert _one(nodes, role="label", name="Traveller *")["relations"].get("label for") == ["Traveller"]
        cabin = _one(nodes, role="panel", name="Cabin")
        assert cabin["description"] == "Required."
        assert {n["name"] for n in nodes if n["role"] == "radio button"} == {"Economy", "Business"}
        extras = _one(nodes, role="panel", name="Extras")
        assert extras["description"] == "Choose at most 2."
        assert [n["name"] for n in nodes if n["role"] == "check box" and n["description"] == "Choose at most 2."] == [
            "Bag",
            "Seat",
            "Lounge",
        ]
        accept = _one(nodes, role="push button", name="Accept")
        assert "enabled" not in accept["states"]  # the form is not valid yet

        window = subprocess.run(
            ["xdotool", "search", "--sync", "--onlyvisible", "--name", "Book the trip"],
            env=env,
            capture_output=True,
            text=True,
            timeout=30,
        ).stdout.split()[0]
        subprocess.run(["xdotool", "windowactivate", "--sync", window], env=env, capture_output=True, timeout=30)
        subprocess.run(["xdotool", "key", "ctrl+shift+Return"], env=env, capture_output=True, timeout=30)
        subprocess.run(["xdotool", "key", "Return"], env=env, check=True, timeout=30)  # a failed submit
        nodes = _tree(env, lambda ns: any("This field is required." in n["description"] for n in ns))
        assert _one(nodes, role="text", name="Traveller")["description"] == (
            "As in the passport. Required. At least 2 characters. This field is required."
        )
        assert _one(nodes, role="text", name="Seats")["description"] == (
            "Required. Whole number between 1 and 4. This field is required."
        )
        assert _one(nodes, role="panel", name="Cabin")["description"] == "Required. This field is required."
        assert "focused" in _one(nodes, role="text", name="Traveller")["states"]  # the first invalid field
    finally:
        conn.close()


def test_a_screen_reader_reads_the_url_dialog(bus):
    env, sock = bus
    params = {
        "mode": "url",
        "elicitationId": "e1",
        "message": "Sign in to continue.",
        "url": "https://xn--80ak6aa92e.com/login",
        "_meta": {"elicit-tray/requester": {"serverName": "auth"}},
    }
    conn = _open(sock, params)
    try:
        nodes = _tree(env, lambda ns: any(n["name"] == "Full address" for n in ns))
        assert _one(nodes, name="Full address")["text"] == "https://xn--80ak6aa92e.com/login"
        host = _one(nodes, role="label", name="Website xn--80ak6aa92e.com, which belongs to xn--80ak6aa92e.com")
        assert host is not None
        warning = _one(nodes, role="label", description="Warning")
        assert warning["name"].startswith("⚠ Be careful before opening this address.")
        assert "focused" in _one(nodes, role="push button", name="Cancel")["states"]
        assert "enabled" in _one(nodes, role="push button", name="Open in browser")["states"]
    finally:
        conn.close()
