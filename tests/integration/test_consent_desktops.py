"""Consent by a deliberate act under two real X11 window managers (openbox and xfwm4), each on
an X server of its own, with xterm as the application the user types into (DESIGN.md "UI rules":
only a deliberate act answers).

Stray typing, whatever the pause before it, never answers or fills a dialog, and the terminal
receives every key: dialogs never take the focus by themselves, a dialog that closes gives the
focus back to the terminal (the window manager would hand it to the next waiting dialog), and a
dialog that has the focus without an act refuses letters, Space, Enter, Tab, Escape and
Alt+letters. The positive paths end with the exact JSON that comes back: a click in the dialog,
or the window switcher's request then Ctrl+Shift+Enter, then the usual keys.

Times here are the scenario (a user who pauses, then types), not waits for the app.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.test_consent_keys import (
    CONFIRM,
    NAME_FORM,
    REVIEW,
    URL,
    Requester,
    Terminal,
    active_window,
    at,
    xdo,
)
from tests.integration.tray_process import TrayProcess, short_tmpdir
from tests.integration.xwindows import WINDOW_MANAGERS, engage, own_x_desktop, stop_processes

ARM_MS = 700


@pytest.fixture(scope="module", params=sorted(WINDOW_MANAGERS))
def desktop(request) -> Iterator[Path]:
    """(window manager name) -> the tray app's socket, on an X server with that manager; the
    tests' own X clients (xdotool, xterm) use it through $DISPLAY, put back afterwards."""
    before = os.environ.get("DISPLAY")
    before_auth = os.environ.pop("XAUTHORITY", None)  # (xvfb-run's, for its own display)
    workdir = short_tmpdir()
    processes, display = own_x_desktop(request.param, workdir / "wm.log")
    tray = None
    try:
        os.environ["DISPLAY"] = display
        tray = TrayProcess(
            workdir / "socket",
            None,
            workdir=workdir,
            extra_args=("--arm-delay-ms", str(ARM_MS), "--no-browser"),
            env={"QT_QPA_PLATFORM": "xcb"},
        ).start()
        yield tray.sock
    finally:
        if before is None:
            os.environ.pop("DISPLAY", None)
        else:
            os.environ["DISPLAY"] = before
        if before_auth is not None:
            os.environ["XAUTHORITY"] = before_auth
        try:
            if tray is not None:
                assert tray.stop() == 0, tray.stderr
        finally:
            stop_processes(*processes)


@pytest.fixture
def terminal(desktop) -> Iterator[Terminal]:
    with Terminal.open() as term:
        term.focus()
        yield term


def click(window: str, x: int = 20, y: int = 12) -> None:
    """A pointer user's click in ``window`` (near its top-left corner: the who-asks panel)."""
    xdo("mousemove", "--window", window, str(x), str(y), "click", "1")


@pytest.mark.parametrize("pause_ms", [0, 1300, 2500])
@pytest.mark.parametrize("resume_ms", [150, 900, 2000])
def test_a_pause_then_more_typing_never_fills_or_answers_a_form(desktop, terminal, pause_ms, resume_ms):
    requester = Requester(desktop)
    try:
        at(time.monotonic(), pause_ms)  # the user stopped typing for a while
        window, mapped = requester.ask(NAME_FORM)
        at(mapped, resume_ms)  # and goes on typing for the terminal
        xdo("type", "--delay", "60", "hunter2 secret")
        xdo("key", "Return")
        at(time.monotonic(), 300)
        assert active_window() == terminal.window
        assert requester.nothing_yet()
        assert terminal.received() == "hunter2 secret\n"
        click(window)  # the user's deliberate act, then the usual keys
        at(time.monotonic(), 200)
        xdo("type", "--delay", "40", "Ada")
        xdo("key", "Return")
        assert requester.reply() == {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {"action": "accept", "content": {"displayName": "Ada"}},
        }
        assert terminal.received() == "hunter2 secret\n"
    finally:
        requester.close()


@pytest.mark.parametrize("keys", [["space"], ["Return"], ["alt+a"], ["alt+d"], ["Escape"], ["Tab", "Tab", "Return"]])
def test_stray_keys_never_answer_a_confirmation_that_has_the_focus_without_an_act(desktop, terminal, keys):
    """The window manager (or a program) gave the dialog the focus: inert to every key."""
    requester = Requester(desktop)
    try:
        window, mapped = requester.ask(CONFIRM)
        at(mapped, 500)  # (a focus right after the map counts as the window manager's, and goes back)
        xdo("windowactivate", "--sync", window)  # focus without the user's act
        at(mapped, ARM_MS + 600)
        for _ in range(2):
            xdo("key", "--delay", "60", *keys)
        at(time.monotonic(), 300)
        assert requester.nothing_yet()
        xdo("key", "ctrl+shift+Return")  # the deliberate step
        at(time.monotonic(), 100)
        xdo("key", "Escape")
        assert requester.reply() == {"jsonrpc": "2.0", "id": 1, "result": {"action": "cancel"}}
    finally:
        requester.close()


def test_when_one_dialog_closes_the_next_keys_go_to_the_terminal_not_to_the_waiting_one(desktop, terminal):
    first, second = Requester(desktop), Requester(desktop)
    try:
        window_a, _ = first.ask(REVIEW)
        window_b, _ = second.ask(CONFIRM)  # a moment later: B waits, unfocused
        assert active_window() == terminal.window
        at(time.monotonic(), 600)  # the user notices them (a focus right after a map goes back)
        engage(window_a)  # the user goes to A and answers it
        at(time.monotonic(), 100)
        xdo("type", "--delay", "40", "fine")
        xdo("key", "Return")
        assert first.reply() == {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {"action": "accept", "content": {"comment": "fine"}},
        }
        xdo("type", "--delay", "60", "ls -la")  # the user's next command, for the terminal
        xdo("key", "Return")
        at(time.monotonic(), 300)
        assert second.nothing_yet()
        assert active_window() == terminal.window
        assert terminal.received() == "ls -la\n"
        at(time.monotonic(), 400)
        engage(window_b)
        at(time.monotonic(), 100)
        xdo("key", "Return")
        assert second.reply() == {"jsonrpc": "2.0", "id": 1, "result": {"action": "accept", "content": {}}}
    finally:
        first.close()
        second.close()


@pytest.mark.parametrize("keys", [["Tab", "Tab", "Return"], ["alt+o"], ["alt+d"], ["space"], ["Return"]])
def test_shell_keys_after_a_pause_never_open_or_decline_a_url(desktop, terminal, keys):
    requester = Requester(desktop)
    try:
        at(time.monotonic(), 1200)
        window, mapped = requester.ask(URL)
        at(mapped, 900)
        xdo("key", "--delay", "60", *keys)  # meant for the shell
        xdo("windowactivate", "--sync", window)  # and again into the dialog, focused without an act
        at(time.monotonic(), ARM_MS + 200)
        xdo("key", "--delay", "60", *keys)
        at(time.monotonic(), 300)
        assert requester.nothing_yet()
        xdo("key", "ctrl+shift+Return")
        at(time.monotonic(), 100)
        xdo("key", "alt+o")  # a deliberate Open
        assert requester.reply() == {"jsonrpc": "2.0", "id": 1, "result": {"action": "accept"}}
    finally:
        requester.close()


def test_two_requests_together_take_no_key_and_each_answers_after_its_own_act(desktop, terminal):
    first, second = Requester(desktop), Requester(desktop)
    try:
        window_a, _ = first.ask(CONFIRM)
        window_b, _ = second.ask(NAME_FORM)
        xdo("type", "--delay", "50", "yes y")
        xdo("key", "Return", "Escape", "alt+d")
        at(time.monotonic(), 300)
        assert first.nothing_yet() and second.nothing_yet()
        assert active_window() == terminal.window
        at(time.monotonic(), 300)
        engage(window_b)
        at(time.monotonic(), 100)
        xdo("type", "--delay", "40", "Bo")
        xdo("key", "Return")
        assert second.reply() == {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {"action": "accept", "content": {"displayName": "Bo"}},
        }
        assert first.nothing_yet()
        at(time.monotonic(), 600)  # B's window closed just now
        engage(window_a)
        at(time.monotonic(), 100)
        xdo("key", "alt+d")
        assert first.reply() == {"jsonrpc": "2.0", "id": 1, "result": {"action": "decline"}}
    finally:
        first.close()
        second.close()


@pytest.mark.parametrize("with_input", [True, False])
def test_a_switch_right_after_a_dialog_closed_is_kept_only_when_input_made_it(desktop, terminal, with_input):
    """Right after A closed, a focus that follows input (a taskbar click: the pointer moves) is
    the user's and stays on B; one without any input is the window manager's and goes back."""
    first, second = Requester(desktop), Requester(desktop)
    try:
        window_a, _ = first.ask(CONFIRM)
        window_b, _ = second.ask(CONFIRM)
        at(time.monotonic(), 600)
        engage(window_a)
        at(time.monotonic(), 100)
        xdo("key", "Return")
        assert first.reply() == {"jsonrpc": "2.0", "id": 1, "result": {"action": "accept", "content": {}}}
        if with_input:
            xdo("mousemove_relative", "--", "3", "3")
        xdo("windowactivate", "--sync", window_b)
        at(time.monotonic(), 300)
        assert active_window() == (window_b if with_input else terminal.window)
        if not with_input:
            xdo("windowactivate", "--sync", window_b)
        xdo("key", "ctrl+shift+Return")
        at(time.monotonic(), 100)
        xdo("key", "Escape")
        assert second.reply() == {"jsonrpc": "2.0", "id": 1, "result": {"action": "cancel"}}
    finally:
        first.close()
        second.close()
