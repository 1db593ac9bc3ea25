"""A dialog's Python side is freed when the dialog is (issue 11 §2): nothing of it is left for
the cyclic garbage collector.

A reference cycle through a dialog (the dialog holding a helper that held the dialog back, a
closure over ``self``) kept every ended dialog's Python objects, and with them the request and
the answer's values, until a full collection ran, at a moment nobody chose: in the middle of the
next dialog's build, 10-20 ms in a warm app (46,000 objects to scan), while the garbage of each
dialog (49 objects for one field, 549 for fifty) piled up in the oldest generation. Each test
runs with the collector off and then asks it what it would have had to free: nothing of
elicit-tray and no Qt wrapper may be among it.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication
from shiboken6 import isValid

from elicit_tray.ui.scripted import perform
from tests.ui.harness import Tray

EVERY_KIND = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Name", "minLength": 1, "default": "Ada"},
        "email": {"type": "string", "format": "email", "default": "ada@example.org"},
        "site": {"type": "string", "format": "uri"},
        "day": {"type": "string", "format": "date", "default": "2026-11-30"},
        "when": {"type": "string", "format": "date-time"},
        "count": {"type": "integer", "minimum": 1, "maximum": 9, "default": 3},
        "ratio": {"type": "number", "minimum": 0, "maximum": 1},
        "agree": {"type": "boolean", "default": True},
        "color": {"type": "string", "enum": ["red", "green"], "default": "red"},
        "size": {"type": "string", "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]},
        "tags": {
            "type": "array",
            "items": {"type": "string", "enum": ["a", "b", "c"]},
            "minItems": 1,
            "default": ["a"],
        },
    },
    "required": ["name", "tags"],
}

URL = {
    "mode": "url",
    "message": "Sign in to continue.",
    "url": "https://auth.example.com/authorize?state=abc",
    "elicitationId": "e-1",
}


def _ours(obj: object) -> bool:
    module = type(obj).__module__ or ""
    return module.startswith(("elicit_tray", "PySide6", "shiboken6"))


@contextmanager
def collector_off() -> Iterator[list[str]]:
    """Runs the block with the cyclic collector off; yields the list that, once the block ended,
    holds the type of every elicit-tray or Qt object only a collection would have freed."""
    gc.collect()
    left: list[str] = []
    gc.disable()
    try:
        yield left
    finally:
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            gc.collect()
            left.extend(sorted({type(o).__qualname__ for o in gc.garbage if _ours(o)}))
        finally:
            gc.garbage.clear()
            gc.set_debug(0)
            gc.enable()


def _ended(tray: Tray, dialog_ref: weakref.ref[Any]) -> None:
    """Let the ended dialog's deleteLater run."""
    for _ in range(3):
        tray.settle()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    dialog = dialog_ref()
    assert dialog is None or not isValid(dialog)


@pytest.mark.parametrize(
    ("schema", "steps", "action"),
    [
        (EVERY_KIND, [{"do": "submit"}], "accept"),
        (EVERY_KIND, [{"do": "decline"}], "decline"),
        (EVERY_KIND, [{"do": "escape"}], "cancel"),
        (EVERY_KIND, [{"do": "close"}], "cancel"),
        ({"type": "object", "properties": {}}, [{"do": "submit"}], "accept"),
        # errors shown beside the fields (their labels are made on the first error) first
        (
            EVERY_KIND,
            [
                {"do": "clear", "field": "name"},
                {"do": "type", "field": "email", "text": "not an address"},
                {"do": "check", "field": "tags", "options": ["a"], "only": False},
                {"do": "uncheck", "field": "tags", "options": ["a"]},
                {"do": "submit"},
                {"do": "decline"},
            ],
            "decline",
        ),
        # a date the calendar cannot take, refused beside the field
        (
            EVERY_KIND,
            [{"do": "type", "field": "day", "text": "2026-02-31"}, {"do": "submit"}, {"do": "escape"}],
            "cancel",
        ),
        # values changed, then sent
        (
            EVERY_KIND,
            [
                {"do": "type", "field": "site", "text": "https://example.org/"},
                {"do": "pick", "field": "size", "option": "Large"},
                {"do": "toggle", "field": "agree"},
                {"do": "submit"},
            ],
            "accept",
        ),
    ],
)
def test_an_answered_form_leaves_nothing_for_the_garbage_collector(aio, schema, steps, action):
    tray = Tray(aio)
    with collector_off() as left:
        channel, dialog = tray.ask({"message": "Tell me.", "requestedSchema": schema}, steps)
        dialog_ref = weakref.ref(dialog)
        del dialog
        reply = tray.reply(channel)
        assert reply["result"]["action"] == action
        _ended(tray, dialog_ref)
        # the next form's frame, built ahead after this one ended, is alive on purpose
    assert left == []
    assert dialog_ref() is None


def test_an_answered_url_request_leaves_nothing_for_the_garbage_collector(aio):
    tray = Tray(aio)
    with collector_off() as left:
        channel, dialog = tray.ask(URL, [{"do": "decline"}])
        dialog_ref = weakref.ref(dialog)
        del dialog
        assert tray.reply(channel)["result"] == {"action": "decline"}
        _ended(tray, dialog_ref)
    assert left == []
    assert dialog_ref() is None


@pytest.mark.parametrize(
    ("url", "steps", "action"),
    [
        ("https://auth.example.com/authorize?state=abc", [{"do": "decline"}], "decline"),
        ("https://auth.example.com/authorize?state=abc", [{"do": "open"}], "accept"),
        ("https://xn--pypal-4ve.com/login", [{"do": "escape"}], "cancel"),  # a Punycode warning
    ],
)
def test_a_url_request_with_warnings_or_opened_leaves_nothing_for_the_garbage_collector(aio, url, steps, action):
    tray = Tray(aio)
    with collector_off() as left:
        channel, dialog = tray.ask({**URL, "url": url}, steps)
        dialog_ref = weakref.ref(dialog)
        del dialog
        assert tray.reply(channel)["result"] == {"action": action}
        waiting = dialog_ref()  # after Open it waits for the completion notice, until closed
        if waiting is not None and isValid(waiting) and waiting.isVisible():
            waiting.close()
        del waiting
        _ended(tray, dialog_ref)
    assert left == []


def test_an_abandoned_form_leaves_nothing_for_the_garbage_collector(aio):
    tray = Tray(aio)
    with collector_off() as left:
        channel = tray.connect()
        tray.send(
            channel,
            {
                "jsonrpc": "2.0",
                "id": 7,
                "method": "elicitation/create",
                "params": {"message": "Anyone?", "requestedSchema": EVERY_KIND},
            },
        )
        dialog = tray.run(tray.shown.get())
        dialog_ref = weakref.ref(dialog)
        del dialog
        tray.disconnect(channel)  # the requester leaves: the dialog says so, then closes
        expired = dialog_ref()
        assert expired is not None
        expired.close()
        del expired
        _ended(tray, dialog_ref)
    assert left == []
    assert dialog_ref() is None


def test_a_frame_built_ahead_and_dropped_leaves_nothing_for_the_garbage_collector(aio):
    """The next form's frame (built ahead once a dialog ended) is dropped unused when the
    settings changed since: it goes as a dialog does."""
    tray = Tray(aio)
    with collector_off() as left:
        channel, dialog = tray.ask({"message": "First.", "requestedSchema": EVERY_KIND}, [{"do": "escape"}])
        del dialog
        assert tray.reply(channel)["result"] == {"action": "cancel"}
        tray.settle()
        spare = tray.presenter._spare
        assert spare is not None
        spare_ref = weakref.ref(spare)
        del spare
        tray.presenter.arm_delay_ms += 1  # the frame's arming delay no longer matches: not used
        channel, dialog = tray.ask({"message": "Second.", "requestedSchema": EVERY_KIND}, [{"do": "escape"}])
        assert dialog is not spare_ref()
        dialog_ref = weakref.ref(dialog)
        del dialog
        assert tray.reply(channel)["result"] == {"action": "cancel"}
        _ended(tray, dialog_ref)
        _ended(tray, spare_ref)
    assert left == []
    assert spare_ref() is None


@pytest.mark.parametrize("steps, action", [([{"do": "submit"}], "accept"), ([{"do": "escape"}], "cancel")])
def test_a_form_with_a_countdown_leaves_nothing_for_the_garbage_collector(aio, steps, action):
    """With a timeout the dialog also holds its countdown, which must not hold it back."""
    tray = Tray(aio, timeout_s=60)
    with collector_off() as left:
        channel, dialog = tray.ask({"message": "Tell me.", "requestedSchema": EVERY_KIND}, steps)
        assert dialog.countdown is not None
        dialog_ref = weakref.ref(dialog)
        del dialog
        assert tray.reply(channel)["result"]["action"] == action
        _ended(tray, dialog_ref)
    assert left == []
    assert dialog_ref() is None


def test_an_expired_dialog_stays_on_screen_saying_so_with_no_one_else_holding_it(aio):
    """The presenter keeps an expired dialog until it closes by itself, whatever else lets go."""
    tray = Tray(aio, timeout_s=60)
    channel = tray.connect()
    tray.send(
        channel,
        {
            "jsonrpc": "2.0",
            "id": 8,
            "method": "elicitation/create",
            "params": {"message": "Anyone?", "requestedSchema": EVERY_KIND},
        },
    )
    dialog_ref = weakref.ref(tray.run(tray.shown.get()))
    tray.disconnect(channel)
    gc.collect()
    dialog = dialog_ref()
    assert dialog is not None and isValid(dialog) and dialog.isVisible()
    assert dialog.expired
    assert "no longer waiting" in dialog.status_label.text()
    dialog.close()
    del dialog
    _ended(tray, dialog_ref)
    assert dialog_ref() is None


def test_a_form_whose_calendar_was_opened_leaves_nothing_for_the_garbage_collector(aio):
    """A date picker keeps a watcher of its calendar once the calendar has opened."""
    tray = Tray(aio)
    with collector_off() as left:
        channel, dialog = tray.ask({"message": "When?", "requestedSchema": EVERY_KIND}, [])
        picker = dialog.rows["day"].adapter.edit
        picker.open_calendar()
        assert picker._popup is not None
        picker.calendarWidget().window().hide()  # closed without a pick
        tray.settle()
        del picker
        tray.arm(dialog)  # the dialog is active again once the calendar closed
        perform(dialog, [{"do": "submit"}])
        dialog_ref = weakref.ref(dialog)
        del dialog
        assert tray.reply(channel)["result"]["action"] == "accept"
        _ended(tray, dialog_ref)
    assert left == []
    assert dialog_ref() is None
