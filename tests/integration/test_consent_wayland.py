"""Consent by a deliberate act on Wayland: headless sway 1.7 (wlroots) with foot where the user
types and wtype for keys (tests/integration/sway.py). DESIGN.md "UI rules".

sway gives every new window the focus, whatever the app asks; no Wayland client can hand it
back. What must hold: keys that reach a dialog before the user engaged with it are refused, in
bursts with pauses of any length; the dialog floats at its own size; the user's focus binding
then Ctrl+Shift+Enter (or a click) make it take the usual keys, with the exact JSON that comes
back. The times are the scenario (a user who pauses), not waits for the app.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.integration.sway import Sway, sway_desktop
from tests.integration.test_consent_keys import CONFIRM, NAME_FORM, URL, at

ARM_MS = 700


@pytest.fixture(scope="module")
def sway() -> Iterator[Sway]:
    with sway_desktop("--arm-delay-ms", str(ARM_MS), "--no-browser") as desktop:
        yield desktop


@pytest.fixture
def terminal(sway: Sway) -> Iterator[Sway]:
    """foot has the focus, as when the user types a command."""
    sway.focus("term")
    sway.wait_for(lambda: sway.focused() == "term", "foot's focus")
    yield sway
    sway.focus("term")


def _engage(sway: Sway) -> None:
    """The keyboard user's deliberate steps: the focus binding, then Ctrl+Shift+Enter."""
    sway.focus("elicit-tray")
    sway.wait_for(lambda: sway.focused() == "elicit-tray", "the dialog's focus")
    sway.key("ctrl+shift+Return")


@pytest.mark.parametrize("pause_ms", [0, 900, 2000])
def test_typing_after_any_pause_never_fills_or_answers_a_form_that_took_the_focus(terminal, pause_ms):
    sway = terminal
    requester = sway.ask(NAME_FORM)
    shown = time.monotonic()
    window = next(w for w in sway.windows() if w["app_id"] == "elicit-tray")
    assert window["floating"] and window["width"] < 1000  # floats at its own size, not tiled
    sway.type("git status && make test", delay_ms=30)  # the rest of a command, during the map
    sway.key("Return")
    at(shown, pause_ms + 400)
    sway.type("hunter2 secret")  # the next command, after a pause
    sway.key("Return", "space", "Escape", "alt+d", "Tab", "Return")
    at(time.monotonic(), ARM_MS + 300)
    assert requester.nothing_yet()
    _engage(sway)
    sway.type("Ada")
    sway.key("Return")
    assert requester.reply() == {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {"action": "accept", "content": {"displayName": "Ada"}},
    }


@pytest.mark.parametrize("keys", [["Return"], ["space"], ["Escape"], ["alt+a"], ["alt+d"], ["ctrl+Return"]])
def test_stray_keys_never_answer_a_confirmation(terminal, keys):
    sway = terminal
    requester = sway.ask(CONFIRM)
    at(time.monotonic(), ARM_MS + 400)  # long after the delay: a pause is not attention
    sway.key(*keys, *keys)
    at(time.monotonic(), 300)
    assert requester.nothing_yet()
    _engage(sway)
    sway.key("Escape")
    assert requester.reply() == {"jsonrpc": "2.0", "id": 1, "result": {"action": "cancel"}}


def test_shell_completion_and_mnemonics_never_open_a_url(terminal):
    sway = terminal
    requester = sway.ask(URL)
    at(time.monotonic(), ARM_MS + 400)
    sway.key("Tab", "Tab", "Return", "alt+o", "space")
    at(time.monotonic(), 300)
    assert requester.nothing_yet()
    _engage(sway)
    sway.key("alt+o")
    assert requester.reply() == {"jsonrpc": "2.0", "id": 1, "result": {"action": "accept"}}


def test_two_requests_together_take_no_key_and_each_answers_after_its_own_act(terminal):
    sway = terminal
    first = sway.ask(CONFIRM)
    second = sway.ask(NAME_FORM, request_id=2)
    shown = sway.dialogs()  # (a URL dialog of an earlier test may still wait for its completion)
    sway.type("yes y")
    sway.key("Return", "Escape")
    at(time.monotonic(), ARM_MS + 300)
    assert first.nothing_yet() and second.nothing_yet()
    _engage(sway)  # the newest one has the focus
    sway.type("Bo")
    sway.key("Return")
    assert second.reply() == {
        "jsonrpc": "2.0",
        "id": 2,
        "result": {"action": "accept", "content": {"displayName": "Bo"}},
    }
    sway.wait_for(lambda: sway.dialogs() == shown - 1, "the answered dialog's close")
    _engage(sway)
    sway.key("alt+d")
    assert first.reply() == {"jsonrpc": "2.0", "id": 1, "result": {"action": "decline"}}
