"""Issue 12 §1 on the real widgets: three-state optional booleans, date-time offsets shown and
kept, defaults no picker can show kept as text, long text never cut. Exact JSON compared."""

from __future__ import annotations

import time

import pytest

from tests.ui.harness import Tray


def _form(prop, required=False):
    return {
        "message": "m",
        "requestedSchema": {"type": "object", "properties": {"f": prop}, **({"required": ["f"]} if required else {})},
    }


def _answer(aio, params, steps, check=lambda dialog: None):
    """Perform ``steps``, run ``check(dialog)`` while it is open, submit; the result sent."""
    from elicit_tray.ui.scripted import perform

    tray = Tray(aio)
    channel, dialog = tray.ask(params, steps)
    check(dialog)
    perform(dialog, [{"do": "submit"}])
    return tray.reply(channel)["result"]


@pytest.mark.parametrize(("toggles", "content"), [(0, {}), (1, {"f": True}), (2, {"f": False}), (3, {})])
def test_an_optional_boolean_without_default_is_unset_yes_or_no(aio, toggles, content):
    def check(dialog):
        assert [b.text() for b in dialog.rows["f"].adapter.controls] == ["Not set", "Yes", "No"]

    result = _answer(
        aio, _form({"type": "boolean", "title": "Subscribe"}), [{"do": "toggle", "field": "f"}] * toggles, check
    )
    assert result == {"action": "accept", "content": content}


@pytest.fixture
def berlin(monkeypatch):
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize(
    ("default", "shown"),
    [
        ("2026-10-25T02:30:00+01:00", "UTC+01:00"),  # the repeated hour: both offsets are local, so it is shown
        ("2026-10-25T02:30:00+02:00", "UTC+02:00"),
        ("2026-07-01T12:00:00+02:00", ""),  # the local offset at that instant: not shown
        ("2026-07-01T12:00:00+05:30", "UTC+05:30"),
        ("2026-07-01t12:00:00z", "UTC+00:00"),
    ],
)
def test_a_date_time_default_shows_a_foreign_offset_and_comes_back_exactly(aio, berlin, default, shown):
    params = _form({"type": "string", "format": "date-time", "default": default}, required=True)

    def check(dialog):
        assert dialog.rows["f"].adapter.shown_offset() == shown
        label = dialog.rows["f"].adapter.offset_label
        assert (label.text(), label.isVisible()) == (shown, bool(shown))

    assert _answer(aio, params, [], check) == {"action": "accept", "content": {"f": default}}


def test_an_edited_date_time_keeps_the_default_offset(aio, berlin):
    tray = Tray(aio)
    params = _form({"type": "string", "format": "date-time", "default": "2026-07-01T12:00:00+05:30"}, required=True)
    channel, dialog = tray.ask(params, [])
    edit = dialog.rows["f"].adapter.edit
    edit.setDateTime(edit.dateTime().addSecs(3600))
    from elicit_tray.ui.scripted import perform

    perform(dialog, [{"do": "submit"}])
    assert tray.reply(channel)["result"] == {"action": "accept", "content": {"f": "2026-07-01T13:00:00+05:30"}}


@pytest.mark.parametrize(
    ("fmt", "default"),
    [
        ("date", "0000-02-29"),
        ("date", "0100-01-01"),
        ("date", "0100-01-02"),
        ("date", "1700-06-15"),
        ("date-time", "1990-12-31T23:59:60Z"),
        ("date-time", "2026-01-01T00:00:00.250+01:00"),
    ],
)
def test_every_rfc_3339_default_comes_back_exactly(aio, fmt, default):
    assert _answer(aio, _form({"type": "string", "format": fmt, "default": default}), []) == {
        "action": "accept",
        "content": {"f": default},
    }


def test_a_long_default_is_not_cut_and_too_long_text_says_so(aio):
    text = "x" * 40_000
    assert _answer(aio, _form({"type": "string", "default": text}), []) == {"action": "accept", "content": {"f": text}}
    tray = Tray(aio)
    channel, dialog = tray.ask(
        _form({"type": "string", "maxLength": 33_000}),
        [{"do": "paste", "field": "f", "text": "y", "repeat": 33_001}, {"do": "submit"}],
    )
    assert dialog.errors() == {"f": "Enter at most 33000 characters."}
    assert channel.sent == []
    tray.disconnect(channel)
