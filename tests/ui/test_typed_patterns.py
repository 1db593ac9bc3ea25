"""A typed value's ``pattern`` check never holds the UI thread (ui/typed_patterns.py): the keys
come back at once while the worker takes its time, the field says that its value is still
being checked and Accept waits for the verdict, which arrives by itself (ordering, not
milliseconds: the worker's answer is held back here until the test lets it go)."""

from __future__ import annotations

import threading

from elicit_tray.schema import pattern
from tests.ui.harness import Tray

PATTERN = "^[a-z]+(-held)?$"  # used by no other test: nothing of it is remembered yet
CHECKING = "The value is still being checked against the expected pattern."


def _params() -> dict:
    props = {"code": {"type": "string", "title": "Code", "pattern": PATTERN}, "note": {"type": "string"}}
    return {"message": "Code?", "requestedSchema": {"type": "object", "properties": props}}


def test_keys_never_wait_for_a_pattern_check_and_accept_waits_for_its_verdict(aio, qtbot, monkeypatch):
    held = threading.Event()
    real_check = pattern.engine.check

    def slow_check(pattern_text: str, value: str) -> str:
        if pattern_text == PATTERN:
            held.wait(3)  # the worker taking its time (before: every keystroke waited here)
        return real_check(pattern_text, value)

    monkeypatch.setattr(pattern.engine, "check", slow_check)
    tray = Tray(aio)
    channel, dialog = tray.ask(_params(), [{"do": "type", "field": "code", "text": "ab"}])
    row = dialog.rows["code"]
    assert row.current() == ("ab", CHECKING)
    assert not dialog.accept_button.isEnabled()
    assert not dialog.attempt_submit()  # Enter now: refused, and says why; nothing is sent
    assert dialog.errors() == {"code": CHECKING} and channel.sent == []
    held.set()
    qtbot.waitUntil(dialog.accept_button.isEnabled, timeout=5000)  # validated again by itself
    assert row.current() == ("ab", None) and dialog.errors() == {}
    assert dialog.attempt_submit()
    assert tray.reply(channel) == {"jsonrpc": "2.0", "id": 1, "result": {"action": "accept", "content": {"code": "ab"}}}


def test_the_scripted_user_waits_for_a_check_in_flight_before_it_submits(aio, monkeypatch):
    """The frozen bundle's worker took over a second to start, so the scripted user's Accept came
    while the value was still being checked, was refused, and the request was never answered."""
    held = threading.Event()
    real_check = pattern.engine.check

    def slow_check(pattern_text: str, value: str) -> str:
        if pattern_text == PATTERN:
            held.wait(3)  # a worker that is still starting
        return real_check(pattern_text, value)

    monkeypatch.setattr(pattern.engine, "check", slow_check)
    release = threading.Timer(0.3, held.set)  # the worker ready a while after the keys
    release.start()
    tray = Tray(aio)
    channel, _dialog = tray.ask(_params(), [{"do": "type", "field": "code", "text": "cd-held"}, {"do": "submit"}])
    assert tray.reply(channel) == {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {"action": "accept", "content": {"code": "cd-held"}},
    }
    release.join()
