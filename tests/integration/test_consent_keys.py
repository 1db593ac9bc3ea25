"""Consent integrity on a real desktop: keystrokes the user meant for something else never answer
or fill a dialog (issue 10 §1; DESIGN.md "UI rules").

Xvfb with a real window manager (openbox) and another application (xterm, where the user is
typing), the tray app on the xcb platform with the real arming delay, and XTEST key events
(xdotool) timed in ms after the dialog window maps. The times are the scenarios themselves (a
user typing at a given moment), not waits for the app. Each scenario ends with the user's
deliberate act (going to the dialog, then a key well after arming), and the test checks the
exact JSON that comes back: the deliberate answer, with no text typed for another window.
"""

from __future__ import annotations

import json
import select
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests import rpc
from tests.integration.tray_process import short_tmpdir
from tests.integration.xwindows import Windows, engage, needs_x, window_manager, xcb_tray

pytestmark = needs_x

ARM_MS = 700
#: When the deliberate key comes after the user went to a dialog (well past arming).
DELIBERATE_MS = ARM_MS + 800

NAME_FORM = {
    "message": "What name should we show?",
    "_meta": {"elicit-tray/requester": {"serverName": "profile"}},
    "requestedSchema": {"type": "object", "properties": {"displayName": {"type": "string", "title": "Display name"}}},
}
CONFIRM = {
    "message": "Delete the project?",
    "_meta": {"elicit-tray/requester": {"serverName": "projects"}},
    "requestedSchema": {"type": "object", "properties": {}},
}
REVIEW = {
    "message": "Your review",
    "_meta": {"elicit-tray/requester": {"serverName": "reviews"}},
    "requestedSchema": {"type": "object", "properties": {"comment": {"type": "string", "title": "Comment"}}},
}
URL = {
    "mode": "url",
    "elicitationId": "e1",
    "url": "https://auth.example.com/connect",
    "message": "Connect your account.",
    "_meta": {"elicit-tray/requester": {"serverName": "auth"}},
}


@pytest.fixture(scope="module")
def tray() -> Iterator[Path]:
    with xcb_tray("--arm-delay-ms", str(ARM_MS), "--no-browser") as sock:
        yield sock


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    with Terminal.open() as term:
        yield term


class Terminal:
    """An xterm where the user types (``cat`` writes what it receives to a file)."""

    def __init__(self, proc: subprocess.Popen[bytes], window: str, typed: Path):
        self.proc, self.window, self.typed = proc, window, typed

    @classmethod
    @contextmanager
    def open(cls) -> Iterator[Terminal]:
        window_manager()
        folder = short_tmpdir()
        typed = folder / "typed.txt"
        title = f"terminal-{folder.name}"
        proc = subprocess.Popen(
            ["xterm", "-title", title, "-e", "sh", "-c", f"stty -echo; cat > {typed}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            yield cls(proc, Windows(title).new(), typed)
        finally:
            proc.terminate()
            proc.wait(timeout=30)

    def focus(self) -> None:
        xdo("windowactivate", "--sync", self.window)

    def received(self) -> str:
        """What reached the terminal's program (complete lines only: cat reads lines)."""
        return self.typed.read_text(encoding="utf-8") if self.typed.exists() else ""


def xdo(*args: str) -> None:
    subprocess.run(["xdotool", *args], check=True, capture_output=True, timeout=30)


def at(t0: float, ms: float) -> None:
    """Wait until ``ms`` after ``t0`` (the scenario's timeline, not a wait for the app)."""
    delay = t0 + ms / 1000 - time.monotonic()
    if delay > 0:
        time.sleep(delay)


class Requester:
    """One connection to the tray that sends ``elicitation/create`` and reads the answers."""

    def __init__(self, sock: Path):
        self.conn = socket.socket(socket.AF_UNIX)
        self.conn.connect(str(sock))
        self.reader = self.conn.makefile("rb")
        self.windows = Windows("— elicit-tray")

    def ask(self, params: dict, request_id: int = 1) -> tuple[str, float]:
        """Send the request; returns the new dialog window and the monotonic time it mapped."""
        self.windows.seen.update(_visible("— elicit-tray"))
        self.conn.sendall(rpc.create_line(request_id, params))
        window = self.windows.new()
        return window, time.monotonic()

    def nothing_yet(self) -> bool:
        """No answer has arrived (checked without waiting)."""
        return not select.select([self.conn], [], [], 0)[0]

    def reply(self) -> dict:
        self.conn.settimeout(30)
        return json.loads(self.reader.readline())

    def close(self) -> None:
        self.reader.close()
        self.conn.close()


def _visible(title: str) -> list[str]:
    return subprocess.run(
        ["xdotool", "search", "--onlyvisible", "--name", title], capture_output=True, text=True, timeout=30
    ).stdout.split()


def active_window() -> str:
    return subprocess.run(["xdotool", "getactivewindow"], capture_output=True, text=True, timeout=30).stdout.strip()


def go_to(window: str, key: str) -> None:
    """The user's deliberate acts: switch to ``window``, press Ctrl+Shift+Enter in it, then
    ``key`` a moment later (the user notices the window first: a focus right after a window
    change with no input since is the window manager's, and is handed back)."""
    at(time.monotonic(), 400)
    engage(window)
    at(time.monotonic(), 300)
    xdo("key", key)


def test_typing_in_a_terminal_never_fills_or_answers_a_form_that_arrives(tray, terminal):
    terminal.focus()
    typing = subprocess.Popen(["xdotool", "type", "--delay", "90", "make deploy"])  # the user is typing
    requester = Requester(tray)
    try:
        at(time.monotonic(), 300)
        window, mapped = requester.ask(NAME_FORM)
        typing.wait(timeout=30)
        at(mapped, 650)
        xdo("type", "--delay", "40", "yes")  # the rest of "yes⏎" lands 0.65-0.8 s after the dialog appeared
        xdo("key", "Return")
        at(mapped, 2 * ARM_MS)
        assert active_window() == terminal.window  # the dialog did not take the keyboard
        assert requester.nothing_yet()
        go_to(window, "Return")
        assert requester.reply() == {"jsonrpc": "2.0", "id": 1, "result": {"action": "accept", "content": {}}}
        assert terminal.received() == "make deployyes\n"
    finally:
        requester.close()


def test_enter_held_from_before_the_dialog_appeared_never_accepts(tray, terminal):
    terminal.focus()
    requester = Requester(tray)
    try:
        xdo("keydown", "Return")
        window, mapped = requester.ask(CONFIRM)
        at(mapped, 2 * ARM_MS + 300)
        xdo("keyup", "Return")
        assert requester.nothing_yet()
        go_to(window, "Escape")
        assert requester.reply() == {"jsonrpc": "2.0", "id": 1, "result": {"action": "cancel"}}
    finally:
        requester.close()


def test_a_second_dialog_never_takes_the_keys_the_user_is_typing_into_the_first(tray, terminal):
    first, second = Requester(tray), Requester(tray)
    try:
        window_a, _mapped = first.ask(REVIEW)
        at(time.monotonic(), 500)  # the user notices it (a focus right after a map is handed back)
        engage(window_a)
        at(time.monotonic(), DELIBERATE_MS)
        typing = subprocess.Popen(["xdotool", "type", "--delay", "60", "looks good to me, ship it"])
        at(time.monotonic(), 500)
        window_b, _mapped = second.ask(CONFIRM)  # B arrives while the user types into A
        typing.wait(timeout=30)
        assert active_window() == window_a
        xdo("key", "Return")
        assert first.reply() == {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {"action": "accept", "content": {"comment": "looks good to me, ship it"}},
        }
        assert second.nothing_yet()
        go_to(window_b, "Escape")
        assert second.reply() == {"jsonrpc": "2.0", "id": 1, "result": {"action": "cancel"}}
    finally:
        first.close()
        second.close()
