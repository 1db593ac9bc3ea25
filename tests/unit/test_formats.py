"""The string ``format`` table (elicit_tray.schema.formats): every row is whole, and everything
that knows a format reads it from the row, so a row added without a part fails here.

The registry side (every row has a widget and an example) is in ``tests/ui/test_registry.py``.
"""

from __future__ import annotations

import dataclasses

import pytest

from elicit_tray.schema import FieldKind, FormSpec, check_value, describe_constraints, parse_requested_schema
from elicit_tray.schema.formats import FORMATS, STRING_FORMATS, Keyboard, StringFormat, format_of
from elicit_tray.schema.model import FieldSpec, UnknownFieldKind
from elicit_tray.schema.parse import _default_type_problem
from elicit_tray.schema.values import Message, validate_content

ROWS = [pytest.param(row, id=name) for name, row in FORMATS.items()]


def _field(row: StringFormat) -> FieldSpec:
    schema = {"type": "object", "properties": {"f": {"type": "string", "format": row.name}}, "required": ["f"]}
    (spec,) = parse_requested_schema(schema).fields
    return spec


@pytest.mark.parametrize("row", ROWS)
def test_every_row_accepts_its_good_example_and_rejects_its_bad_one(row: StringFormat):
    assert row.accepts(row.good) is True
    assert row.accepts(row.bad) is False


@pytest.mark.parametrize("row", ROWS)
def test_every_row_is_parsed_to_its_kind_and_found_again_from_the_field(row: StringFormat):
    spec = _field(row)
    assert spec.kind is row.kind
    assert spec.format == (row.name if row.kind is FieldKind.TEXT else None)
    assert format_of(spec) is row


@pytest.mark.parametrize("row", ROWS)
def test_the_form_and_the_last_gate_judge_by_the_row(row: StringFormat):
    spec = _field(row)
    message = row.message(row.bad)
    assert isinstance(message, str) and message.endswith(".")
    assert check_value(spec, row.good) is None
    assert check_value(spec, row.bad) == message
    form = FormSpec(fields=(spec,), schema={"type": "object", "properties": {"f": {"format": row.name}}})
    assert validate_content(form, {"f": row.good}) == []
    assert [v.path for v in validate_content(form, {"f": row.bad})] == ["/f"]


@pytest.mark.parametrize("row", ROWS)
def test_every_row_describes_itself_and_says_what_the_entry_shows(row: StringFormat):
    assert str(Message(row.described)) in describe_constraints(_field(row))
    assert isinstance(row.keyboard, Keyboard)
    assert row.placeholder is None or row.placeholder.strip()


def test_the_parser_accepts_exactly_the_table_and_lists_it_when_it_refuses():
    assert STRING_FORMATS == set(FORMATS)
    assert all(name == row.name for name, row in FORMATS.items())
    with pytest.raises(ValueError) as caught:
        parse_requested_schema({"type": "object", "properties": {"f": {"type": "string", "format": "time"}}})
    assert ", ".join(sorted(FORMATS)) in str(caught.value)


def test_a_kind_of_its_own_belongs_to_one_row_only():
    own = [row.kind for row in FORMATS.values() if row.kind is not FieldKind.TEXT]
    assert len(own) == len(set(own))
    assert set(own) <= {FieldKind.DATE, FieldKind.DATETIME}  # kinds whose value is a string


def test_a_time_is_not_accepted_as_any_text():
    """What a format without a validator would have done: ``"25:99"`` passed as a time."""
    assert "time" not in FORMATS
    with pytest.raises(ValueError):
        parse_requested_schema({"type": "object", "properties": {"t": {"type": "string", "format": "time"}}})


class _Unknown:
    value = "unknown"


@pytest.mark.parametrize("value", ["x", None, ""])
def test_an_unknown_kind_fails_loudly_instead_of_passing(value):
    spec = dataclasses.replace(_field(FORMATS["email"]), kind=_Unknown())  # type: ignore[arg-type]
    with pytest.raises(UnknownFieldKind) as caught:
        check_value(spec, value)
    assert caught.value.kind is spec.kind
    with pytest.raises(UnknownFieldKind):
        _default_type_problem(spec, "x")
