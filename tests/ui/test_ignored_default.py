"""A default that does not satisfy its own field is left out, and the dialog says so next to the
field (it was silent: the field was simply empty). Exact JSON and texts compared."""

from __future__ import annotations

import pytest

from elicit_tray.schema import parse_requested_schema
from tests.ui.harness import Tray, shown_texts

NOTE = "The server suggested a value that does not fit here; it was left out."


def _form(prop):
    return {"message": "Your code", "requestedSchema": {"type": "object", "properties": {"code": prop}}}


@pytest.mark.parametrize(
    "prop",
    [
        {"type": "string", "pattern": "^[0-9]{4}$", "default": "12ab"},
        {"type": "string", "maxLength": 3, "default": "toolong"},
        {"type": "string", "format": "email", "default": "not an address"},
        {"type": "integer", "minimum": 1, "default": 0},
        {"type": "string", "enum": ["a", "b"], "default": "c"},
        {"type": "boolean", "default": "yes"},
    ],
)
def test_the_dialog_says_a_suggested_value_was_left_out_and_sends_nothing_for_it(aio, prop):
    from elicit_tray.ui.scripted import perform

    tray = Tray(aio)
    channel, dialog = tray.ask(_form({"title": "Code", **prop}), [])
    assert NOTE in dialog.rows["code"].hint.text()
    assert NOTE in dialog.rows["code"].spoken  # screen readers get it with the field
    assert NOTE in shown_texts(dialog)
    tray.arm(dialog)
    perform(dialog, [{"do": "submit"}])
    assert tray.reply(channel) == {"jsonrpc": "2.0", "id": 1, "result": {"action": "accept", "content": {}}}


def test_a_default_that_fits_gets_no_note(aio):
    tray = Tray(aio)
    _, dialog = tray.ask(_form({"type": "string", "pattern": "^[0-9]{4}$", "default": "1234"}), [])
    assert NOTE not in shown_texts(dialog)
    assert dialog.rows["code"].adapter.value() == ("1234", None)


def test_the_field_spec_marks_the_ignored_default():
    spec = parse_requested_schema(_form({"type": "string", "maxLength": 3, "default": "toolong"})["requestedSchema"])
    assert (spec.fields[0].default, spec.fields[0].default_ignored) == (None, True)
    spec = parse_requested_schema(_form({"type": "string", "maxLength": 3, "default": "ok"})["requestedSchema"])
    assert (spec.fields[0].default, spec.fields[0].default_ignored) == ("ok", False)
