"""Pure unit tests of ``elicit_tray.schema`` (no Qt): subset parsing, defaults, values, content.

DESIGN.md "Product policies" and notes/spec-client-requirements.md A.3 are the reference.
"""

from __future__ import annotations

import copy
import logging
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from elicit_tray.schema import (
    FieldKind,
    FieldSpec,
    FormSpec,
    Option,
    SchemaError,
    Violation,
    build_content,
    check_value,
    coerce_number,
    describe_constraints,
    looks_secret,
    parse_requested_schema,
    validate_content,
)

K = FieldKind
PARSE_LOGGER = "elicit_tray.schema.parse"


def form(props: dict[str, Any], required: list[str] | None = None, **top: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": props, **top}
    if required is not None:
        schema["required"] = required
    return schema


def one_field(prop: Any, *, name: str = "f", required: bool = False, **top: Any) -> FieldSpec:
    spec = parse_requested_schema(form({name: prop}, [name] if required else None, **top))
    assert len(spec.fields) == 1
    return spec.fields[0]


def violation_paths(schema: Any) -> list[str]:
    with pytest.raises(SchemaError) as info:
        parse_requested_schema(schema)
    return [v.path for v in info.value.violations]


def spec_of(kind: FieldKind, **kw: Any) -> FieldSpec:
    return FieldSpec(name=kw.pop("name", "f"), kind=kind, title=kw.pop("title", "f"), **kw)


# -- every kind of the subset -> its exact FieldSpec ------------------------------------------------

ABC = (Option("a", "a"), Option("b", "b"), Option("c", "c"))
TITLED = (Option("r", "Red"), Option("g", "Green"))

KIND_CASES = [
    pytest.param({"type": "string"}, spec_of(K.TEXT), id="plain string"),
    pytest.param(
        {"type": "string", "title": "Name", "description": "Your full name", "minLength": 1, "maxLength": 50},
        spec_of(K.TEXT, title="Name", description="Your full name", min_length=1, max_length=50),
        id="string with title, description and length bounds",
    ),
    pytest.param({"type": "string", "format": "email"}, spec_of(K.TEXT, format="email"), id="email"),
    pytest.param({"type": "string", "format": "uri"}, spec_of(K.TEXT, format="uri"), id="uri"),
    pytest.param({"type": "string", "format": "date"}, spec_of(K.DATE), id="date"),
    pytest.param({"type": "string", "format": "date-time"}, spec_of(K.DATETIME), id="date-time"),
    pytest.param({"type": "string", "pattern": "^[A-Z]{3}$"}, spec_of(K.TEXT, pattern="^[A-Z]{3}$"), id="pattern"),
    pytest.param(
        {"type": "number", "minimum": -90, "maximum": 90.5},
        spec_of(K.NUMBER, minimum=-90, maximum=90.5),
        id="number with bounds",
    ),
    pytest.param(
        {"type": "integer", "minimum": 1, "maximum": 10, "default": 3},
        spec_of(K.INTEGER, minimum=1, maximum=10, default=3),
        id="integer with bounds and default",
    ),
    pytest.param({"type": "integer"}, spec_of(K.INTEGER), id="bare integer"),
    pytest.param({"type": "boolean", "default": True}, spec_of(K.BOOLEAN, default=True), id="boolean"),
    pytest.param({"type": "boolean", "default": False}, spec_of(K.BOOLEAN, default=False), id="boolean false"),
    pytest.param(
        {"type": "string", "enum": ["a", "b", "c"], "default": "b"},
        spec_of(K.SINGLE_SELECT, options=ABC, default="b"),
        id="untitled enum",
    ),
    pytest.param(
        {"type": "string", "oneOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]},
        spec_of(K.SINGLE_SELECT, options=TITLED),
        id="titled oneOf",
    ),
    pytest.param(
        {"type": "string", "enum": ["r", "g"], "enumNames": ["Red", "Green"]},
        spec_of(K.SINGLE_SELECT, options=TITLED),
        id="legacy enumNames",
    ),
    pytest.param(
        {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "minItems": 1, "maxItems": 2},
        spec_of(K.MULTI_SELECT, options=ABC, min_items=1, max_items=2),
        id="multi-select items.enum",
    ),
    pytest.param(
        {"type": "array", "items": {"anyOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]}},
        spec_of(K.MULTI_SELECT, options=TITLED),
        id="multi-select items.anyOf",
    ),
    pytest.param(
        {
            "type": "array",
            "items": {"oneOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]},
            "maxItems": 1,
        },
        spec_of(K.MULTI_SELECT, options=TITLED, max_items=1),
        id="multi-select items.oneOf",
    ),
    pytest.param(
        {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "default": ["c", "a"]},
        spec_of(K.MULTI_SELECT, options=ABC, default=["a", "c"]),
        id="multi-select default in option order",
    ),
    pytest.param({"type": "string", "title": ""}, spec_of(K.TEXT), id="empty title falls back to the name"),
    pytest.param(
        {"type": "string", "enum": ["a", "b"], "enumNames": ["", "B"]},
        spec_of(K.SINGLE_SELECT, options=(Option("a", "a"), Option("b", "B"))),
        id="empty option title falls back to the value",
    ),
]


@pytest.mark.parametrize(("prop", "expected"), KIND_CASES)
def test_each_kind_of_the_subset_becomes_this_field_spec(prop: dict[str, Any], expected: FieldSpec) -> None:
    assert one_field(prop) == expected


def test_required_properties_are_marked_required_and_fields_keep_schema_order() -> None:
    spec = parse_requested_schema(
        form(
            {"zeta": {"type": "string"}, "alpha": {"type": "boolean"}, "mid": {"type": "number"}},
            required=["mid", "zeta"],
        )
    )
    assert [(f.name, f.kind, f.required) for f in spec.fields] == [
        ("zeta", K.TEXT, True),
        ("alpha", K.BOOLEAN, False),
        ("mid", K.NUMBER, True),
    ]


def test_the_form_spec_keeps_the_schema_as_received() -> None:
    schema = form({"a": {"type": "string"}})
    assert parse_requested_schema(schema).schema is schema


def test_an_empty_form_is_accepted() -> None:
    assert parse_requested_schema(form({})) == FormSpec(fields=())


# -- lenient extras ---------------------------------------------------------------------------------


def test_one_of_without_type_is_a_single_select_when_every_const_is_a_string() -> None:
    prop = {"oneOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}], "title": "Colour"}
    assert one_field(prop) == spec_of(K.SINGLE_SELECT, title="Colour", options=TITLED)


def test_one_of_without_type_is_rejected_when_a_const_is_not_a_string() -> None:
    prop = {"oneOf": [{"const": "r", "title": "Red"}, {"const": 2, "title": "Two"}]}
    assert violation_paths(form({"f": prop})) == ["/properties/f/oneOf/1"]


def test_a_titled_option_without_title_shows_its_value() -> None:
    assert one_field({"type": "string", "oneOf": [{"const": "x"}]}).options == (Option("x", "x"),)


def test_a_top_level_dollar_schema_is_accepted() -> None:
    schema = form({"a": {"type": "string"}}, **{"$schema": "https://json-schema.org/draft/2020-12/schema"})
    assert parse_requested_schema(schema).fields == (spec_of(K.TEXT, name="a", title="a"),)


def test_a_local_ref_into_defs_resolves_to_its_primitive_and_local_annotations_win() -> None:
    schema = form(
        {"when": {"$ref": "#/$defs/day", "title": "Arrival"}, "count": {"$ref": "#/definitions/n"}},
        **{
            "$defs": {"day": {"type": "string", "format": "date", "title": "Day"}},
            "definitions": {"n": {"type": "integer", "minimum": 0}},
        },
    )
    assert parse_requested_schema(schema).fields == (
        spec_of(K.DATE, name="when", title="Arrival"),
        spec_of(K.INTEGER, name="count", title="count", minimum=0),
    )


def test_a_chain_of_local_refs_is_followed() -> None:
    schema = form({"f": {"$ref": "#/$defs/a"}}, **{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"type": "boolean"}}})
    assert parse_requested_schema(schema).fields == (spec_of(K.BOOLEAN),)


def test_a_ref_fragment_is_read_as_a_json_pointer_like_jsonschema_reads_it() -> None:
    schema = form({"f": {"$ref": "#/$defs/a~1b"}}, **{"$defs": {"a/b": {"type": "string", "maxLength": 1}}})
    spec = parse_requested_schema(schema)
    assert spec.fields == (spec_of(K.TEXT, max_length=1),)
    assert [v.path for v in validate_content(spec, {"f": "xx"})] == ["/f"]


def test_examples_and_x_keywords_are_ignored() -> None:
    prop = {"type": "string", "examples": ["x"], "x-widget": {"any": "thing"}, "$comment": "note"}
    schema = form({"f": prop}, **{"x-vendor": [1, 2]})
    assert parse_requested_schema(schema).fields == (spec_of(K.TEXT),)


# -- rejections: every violation, exact JSON Pointer paths -----------------------------------------

REJECTION_CASES = [
    pytest.param(
        form({"address": {"type": "object", "properties": {"street": {"type": "string"}}}}),
        ["/properties/address"],
        id="nested object",
    ),
    pytest.param(
        form({"f": {"type": "array", "items": {"type": "object", "properties": {}}}}),
        ["/properties/f/items"],
        id="array of objects",
    ),
    pytest.param(
        form({"f": {"type": "array", "items": [{"type": "string"}]}}), ["/properties/f/items"], id="tuple items"
    ),
    pytest.param(
        form({"f": {"type": "string", "enum": ["a", 1, True, None]}}),
        ["/properties/f/enum/1", "/properties/f/enum/2", "/properties/f/enum/3"],
        id="non-string enum values",
    ),
    pytest.param(
        form({"f": {"type": "array", "items": {"type": "string", "enum": [1]}}}),
        ["/properties/f/items/enum/0"],
        id="non-string multi-select values",
    ),
    pytest.param(form({"f": {"type": "string", "format": "hostname"}}), ["/properties/f/format"], id="unknown format"),
    pytest.param(
        form({"f": {"type": "string", "format": ["email"]}}), ["/properties/f/format"], id="format that is not a string"
    ),
    pytest.param(
        form({"f": {"type": "string", "if": {"minLength": 1}, "then": {"maxLength": 2}}}),
        ["/properties/f/if", "/properties/f/then"],
        id="conditional in a property",
    ),
    pytest.param(form({"f": {"type": "string", "allOf": [{"minLength": 1}]}}), ["/properties/f/allOf"], id="allOf"),
    pytest.param(
        {**form({}), "if": {}, "then": {}, "allOf": []}, ["/if", "/then", "/allOf"], id="top-level conditionals"
    ),
    pytest.param(
        form({"f": {"$ref": "https://example.com/schema.json#/$defs/x"}}), ["/properties/f/$ref"], id="non-local ref"
    ),
    pytest.param(
        form({"f": {"$ref": "#/$defs/missing"}}, **{"$defs": {}}), ["/properties/f/$ref"], id="unresolvable ref"
    ),
    pytest.param(
        form({"f": {"$ref": "#/$defs/a/b"}}, **{"$defs": {"a": {"b": {"type": "string"}}}}),
        ["/properties/f/$ref"],
        id="ref deeper than $defs",
    ),
    pytest.param(
        form({"f": {"$ref": "#/$defs/a"}}, **{"$defs": {"a": {"$ref": "#/$defs/a"}}}), ["/properties/f"], id="ref cycle"
    ),
    pytest.param(
        form({"f": {"$ref": "#/$defs/a", "minLength": 2}}, **{"$defs": {"a": {"type": "string"}}}),
        ["/properties/f"],
        id="constraints beside a ref",
    ),
    pytest.param(
        form({"f": {"$ref": "#/$defs/a"}}, **{"$defs": {"a": {"type": "object"}}}),
        ["/properties/f"],
        id="ref to a nested object",
    ),
    pytest.param(
        form({"f": {"type": "number", "minimum": 5, "maximum": 1}}),
        ["/properties/f/minimum"],
        id="minimum greater than maximum",
    ),
    pytest.param(
        form({"f": {"type": "string", "minLength": 5, "maxLength": 1}}),
        ["/properties/f/minLength"],
        id="minLength greater than maxLength",
    ),
    pytest.param(
        form({"f": {"type": "string", "minLength": -1}}), ["/properties/f/minLength"], id="negative minLength"
    ),
    pytest.param(
        form({"f": {"type": "string", "maxLength": 2.5}}), ["/properties/f/maxLength"], id="fractional maxLength"
    ),
    pytest.param(form({"f": {"type": "number", "minimum": "0"}}), ["/properties/f/minimum"], id="string minimum"),
    pytest.param(
        form({"f": {"type": "number", "maximum": float("inf")}}), ["/properties/f/maximum"], id="infinite maximum"
    ),
    pytest.param(
        form({"f": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 2}}),
        ["/properties/f/exclusiveMinimum", "/properties/f/multipleOf"],
        id="numeric keywords outside the subset",
    ),
    pytest.param({"type": "array", "properties": {}}, ["/type"], id="top-level type array"),
    pytest.param({"properties": {}}, ["/type"], id="top-level type missing"),
    pytest.param({"type": "object"}, ["/properties"], id="properties missing"),
    pytest.param({"type": "object", "properties": []}, ["/properties"], id="properties not an object"),
    pytest.param(form({"a": {"type": "string"}}, required="a"), ["/required"], id="required not a list"),
    pytest.param(form({"a": {"type": "string"}}, required=["a", "b"]), ["/required/1"], id="required undefined"),
    pytest.param(["type", "object"], [""], id="schema not an object"),
    pytest.param(form({"f": {"type": ["string", "null"]}}), ["/properties/f"], id="type list"),
    pytest.param(form({"f": {"title": "no type"}}), ["/properties/f"], id="missing type"),
    pytest.param(form({"f": "string"}), ["/properties/f"], id="property schema not an object"),
    pytest.param(form({"a/b~c": {"type": "object"}}), ["/properties/a~1b~0c"], id="pointer escaping"),
    pytest.param(form({"f": {"type": "string", "enum": []}}), ["/properties/f/enum"], id="empty enum"),
    pytest.param(form({"f": {"type": "string", "enum": ["a", "a"]}}), ["/properties/f/enum"], id="repeated enum"),
    pytest.param(
        form({"f": {"type": "string", "enum": ["a", "b"], "enumNames": ["A", 2]}}),
        ["/properties/f/enumNames"],
        id="enumNames not all strings",
    ),
    pytest.param(
        form({"f": {"type": "string", "enum": ["a"], "oneOf": [{"const": "a"}]}}),
        ["/properties/f"],
        id="enum and oneOf together",
    ),
    pytest.param(
        form({"f": {"type": "string", "oneOf": [{"const": "a", "title": "A", "type": "string"}]}}),
        ["/properties/f/oneOf/0"],
        id="extra keyword in an option",
    ),
    pytest.param(
        form({"f": {"type": "string", "oneOf": [{"const": "a"}, {"const": "a"}]}}),
        ["/properties/f/oneOf"],
        id="repeated option values",
    ),
    pytest.param(
        form({"f": {"type": "array", "items": {"type": "number", "enum": ["1"]}}}),
        ["/properties/f/items/type"],
        id="multi-select items not strings",
    ),
    pytest.param(
        form({"f": {"type": "array", "items": {"enum": ["a"], "anyOf": [{"const": "a"}]}}}),
        ["/properties/f/items"],
        id="two option lists in items",
    ),
    pytest.param(
        form({"f": {"type": "array", "items": {"enum": ["a", "b"]}, "minItems": 3}}),
        ["/properties/f/minItems"],
        id="minItems above the option count",
    ),
    pytest.param(
        form({"f": {"type": "array", "items": {"enum": ["a"]}, "minItems": 2, "maxItems": 1}}),
        ["/properties/f/minItems"],
        id="minItems greater than maxItems",
    ),
    pytest.param(
        form({"f": {"type": "array", "items": {"enum": ["a"]}, "uniqueItems": False}}),
        ["/properties/f/uniqueItems"],
        id="uniqueItems false",
    ),
    pytest.param(
        form({"f": {"type": "string", "title": 5, "description": ["x"]}}),
        ["/properties/f/title", "/properties/f/description"],
        id="non-string title and description",
    ),
    pytest.param(form({"f": {"type": "string", "pattern": "("}}), ["/properties/f/pattern"], id="invalid pattern"),
    pytest.param(form({"f": {"type": "string", "pattern": 5}}), ["/properties/f/pattern"], id="non-string pattern"),
    pytest.param(form({}, **{"$id": 5}), ["/$id"], id="non-string $id"),
    pytest.param(form({}, **{"$schema": {"x": 1}}), ["/$schema"], id="non-string $schema"),
]


@pytest.mark.parametrize(("schema", "paths"), REJECTION_CASES)
def test_a_schema_outside_the_subset_is_rejected_with_these_paths(schema: Any, paths: list[str]) -> None:
    assert violation_paths(schema) == paths


def test_every_violation_of_a_schema_is_listed_not_just_the_first() -> None:
    schema = {
        "type": "array",
        "allOf": [],
        "required": ["name", "ghost"],
        "properties": {
            "address": {"type": "object"},
            "name": {"type": "string", "enum": ["a", 1], "if": {}},
            "when": {"type": "string", "format": "time"},
            "n": {"type": "number", "minimum": 3, "maximum": 1},
            "ok": {"type": "string"},
            "ref": {"$ref": "other.json#/x"},
        },
    }
    assert violation_paths(schema) == [
        "/type",
        "/allOf",
        "/required/1",
        "/properties/address",
        "/properties/name/if",
        "/properties/name/enum/1",
        "/properties/when/format",
        "/properties/n/minimum",
        "/properties/ref/$ref",
    ]


def test_the_schema_error_carries_messages_and_wire_form() -> None:
    with pytest.raises(SchemaError) as info:
        parse_requested_schema(form({"address": {"type": "object"}}))
    (violation,) = info.value.violations
    assert violation.to_json() == {
        "path": "/properties/address",
        "message": "nested objects are not supported; use flat primitive properties",
    }
    assert "/properties/address" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_huge_integer_bounds_and_defaults_are_handled_without_overflow() -> None:
    huge = 10**400
    assert one_field({"type": "number", "minimum": huge}) == spec_of(K.NUMBER, minimum=huge)
    assert one_field({"type": "integer", "default": huge}) == spec_of(K.INTEGER, default=huge)


# -- defaults ---------------------------------------------------------------------------------------

INVALID_DEFAULTS = [
    pytest.param({"type": "integer", "minimum": 1, "maximum": 10, "default": 11}, id="above maximum"),
    pytest.param({"type": "number", "minimum": 0, "default": -0.5}, id="below minimum"),
    pytest.param({"type": "integer", "default": 2.5}, id="fractional integer"),
    pytest.param({"type": "number", "default": True}, id="boolean for a number"),
    pytest.param({"type": "number", "default": "5"}, id="string for a number"),
    pytest.param({"type": "boolean", "default": "yes"}, id="string for a boolean"),
    pytest.param({"type": "boolean", "default": 1}, id="number for a boolean"),
    pytest.param({"type": "string", "default": 5}, id="number for a string"),
    pytest.param({"type": "string", "maxLength": 3, "default": "abcd"}, id="too long"),
    pytest.param({"type": "string", "format": "email", "default": "not an address"}, id="bad email"),
    pytest.param({"type": "string", "format": "date", "default": "2026-02-30"}, id="impossible date"),
    pytest.param(
        {"type": "string", "format": "date-time", "default": "2026-01-01T10:00"}, id="date-time without offset"
    ),
    pytest.param({"type": "string", "enum": ["a", "b"], "default": "z"}, id="not an option"),
    pytest.param({"type": "string", "oneOf": [{"const": "a", "title": "A"}], "default": ["a"]}, id="list for a select"),
    pytest.param({"type": "array", "items": {"enum": ["a", "b"]}, "default": ["a", "z"]}, id="multi outside options"),
    pytest.param({"type": "array", "items": {"enum": ["a", "b"]}, "default": "a"}, id="string for a multi-select"),
    pytest.param({"type": "array", "items": {"enum": ["a", "b"]}, "default": ["a", "a"]}, id="repeated choice"),
    pytest.param(
        {"type": "array", "items": {"enum": ["a", "b"]}, "maxItems": 1, "default": ["a", "b"]}, id="more than maxItems"
    ),
    pytest.param(
        {"type": "array", "items": {"enum": ["a", "b"]}, "minItems": 2, "default": ["a"]}, id="fewer than minItems"
    ),
]


@pytest.mark.parametrize("prop", INVALID_DEFAULTS)
def test_an_invalid_default_is_ignored_and_logged(prop: dict[str, Any], caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger=PARSE_LOGGER):
        spec = one_field(prop)
    assert spec.default is None
    messages = [r.getMessage() for r in caplog.records if r.name == PARSE_LOGGER]
    assert len(messages) == 1
    assert messages[0].startswith("ignoring the default of /properties/f: ")


VALID_DEFAULTS = [
    pytest.param({"type": "string", "minLength": 2, "default": "hi"}, "hi", id="text"),
    pytest.param({"type": "string", "format": "email", "default": "ada@example.com"}, "ada@example.com", id="email"),
    pytest.param(
        {"type": "string", "format": "uri", "default": "https://example.com/a"}, "https://example.com/a", id="uri"
    ),
    pytest.param({"type": "string", "format": "date", "default": "2026-02-28"}, "2026-02-28", id="date"),
    pytest.param(
        {"type": "string", "format": "date-time", "default": "2026-02-28T09:30:00Z"},
        "2026-02-28T09:30:00Z",
        id="date-time",
    ),
    pytest.param({"type": "integer", "minimum": 1, "maximum": 10, "default": 10}, 10, id="integer at maximum"),
    pytest.param({"type": "number", "minimum": -74.5, "default": -74.01}, -74.01, id="number"),
    pytest.param({"type": "boolean", "default": False}, False, id="boolean"),
    pytest.param({"type": "string", "enum": ["a", "b"], "default": "a"}, "a", id="enum"),
    pytest.param(
        {"type": "array", "items": {"enum": ["a", "b", "c"]}, "default": ["c", "b"]},
        ["b", "c"],
        id="multi-select, in option order",
    ),
    pytest.param({"type": "array", "items": {"enum": ["a", "b"]}, "default": []}, [], id="empty multi-select"),
]


@pytest.mark.parametrize(("prop", "expected"), VALID_DEFAULTS)
def test_a_valid_default_is_kept(prop: dict[str, Any], expected: Any, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger=PARSE_LOGGER):
        spec = one_field(prop)
    assert spec.default == expected
    assert type(spec.default) is type(expected)
    assert [r for r in caplog.records if r.name == PARSE_LOGGER] == []


def test_a_required_field_keeps_a_valid_default() -> None:
    assert one_field({"type": "string", "enum": ["a", "b"], "default": "b"}, required=True).default == "b"


# -- coerce_number: never rounds --------------------------------------------------------------------

NUMBER = spec_of(K.NUMBER)
INTEGER = spec_of(K.INTEGER)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("-74.01", -74.01),
        ("5", 5),
        (" 42 ", 42),
        ("+7", 7),
        ("0.1", 0.1),
        (".5", 0.5),
        ("1e3", 1000.0),
        ("2.50", 2.5),
        ("-0", 0),
        ("1" * 30, int("1" * 30)),
    ],
)
def test_text_for_a_number_becomes_the_exact_json_number(text: str, value: float) -> None:
    result, message = coerce_number(NUMBER, text)
    assert (result, message) == (value, None)
    assert type(result) is type(value)


@pytest.mark.parametrize(("text", "value"), [("5", 5), ("3.0", 3), ("-12", -12), ("1e2", 100), ("  8\t", 8)])
def test_text_for_an_integer_becomes_a_json_integer(text: str, value: int) -> None:
    assert coerce_number(INTEGER, text) == (value, None)
    assert type(coerce_number(INTEGER, text)[0]) is int


def test_integer_text_with_a_fraction_is_not_a_whole_number() -> None:
    value, message = coerce_number(INTEGER, "2.5")
    assert value is None
    assert "whole number" in message


@pytest.mark.parametrize("spec", [NUMBER, INTEGER], ids=["number", "integer"])
@pytest.mark.parametrize("text", ["1e400", "-1e400", "1e999999999"])
def test_a_number_too_large_for_json_is_refused(spec: FieldSpec, text: str) -> None:
    value, message = coerce_number(spec, text)
    assert value is None
    assert message == "Enter a number of a reasonable size."


@pytest.mark.parametrize("text", ["abc", "1,5", "1.2.3", "nan", "inf", "0x10", "1e", "--1", "5 5"])
def test_text_that_is_not_a_number_is_an_error(text: str) -> None:
    assert coerce_number(NUMBER, text) == (None, "Enter a number, such as 3 or 2.5.")
    assert coerce_number(INTEGER, text) == (None, "Enter a whole number.")


@pytest.mark.parametrize("text", ["", "   "])
def test_empty_text_is_no_number_and_no_error(text: str) -> None:
    assert coerce_number(NUMBER, text) == (None, None)


# -- check_value ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "value", "message"),
    [
        (spec_of(K.INTEGER, minimum=1), 0, "The minimum is 1."),
        (spec_of(K.NUMBER, maximum=90.5), 90.51, "The maximum is 90.5."),
        (spec_of(K.NUMBER, minimum=-180.0), -181, "The minimum is -180."),
        (spec_of(K.TEXT, min_length=3), "ab", "Enter at least 3 characters."),
        (spec_of(K.TEXT, max_length=5), "abcdef", "Enter at most 5 characters."),
        (spec_of(K.TEXT, required=True), None, "This field is required."),
        (spec_of(K.TEXT, required=True), "", "This field is required."),
        (spec_of(K.BOOLEAN, required=True), None, "This field is required."),
        (spec_of(K.TEXT, format="email"), "ada.example.com", "Enter an email address, such as name@example.com."),
        (spec_of(K.TEXT, format="email"), "ada@@example.com", "This email address is not in a valid format."),
        (
            spec_of(K.TEXT, format="uri"),
            "example.com",
            "Enter a full address with its scheme, such as https://example.com/.",
        ),
        (spec_of(K.DATE), "2026-13-01", "Enter a date as YYYY-MM-DD."),
        (spec_of(K.DATE), "20260101", "Enter a date as YYYY-MM-DD."),
        (
            spec_of(K.DATETIME),
            "2026-05-01T09:30",
            "Enter a date and time with an offset, such as 2026-05-01T09:30:00+02:00.",
        ),
        (spec_of(K.SINGLE_SELECT, options=ABC), "z", "Choose one of the options."),
        (spec_of(K.MULTI_SELECT, options=ABC), ["a", "z"], "Choose only from the options."),
        (spec_of(K.MULTI_SELECT, options=ABC, min_items=2), ["a"], "Choose at least 2."),
        (spec_of(K.MULTI_SELECT, options=ABC, max_items=1), ["a", "b"], "Choose at most 1."),
        (spec_of(K.MULTI_SELECT, options=ABC), ["a", "a"], "Choose each option only once."),
        (spec_of(K.TEXT, pattern="^[0-9]+$"), "12a", "The value does not match the expected pattern."),
    ],
)
def test_check_value_explains_the_first_problem(spec: FieldSpec, value: Any, message: str) -> None:
    assert check_value(spec, value) == message


@pytest.mark.parametrize(
    ("spec", "value"),
    [
        (spec_of(K.INTEGER, minimum=1, maximum=10), 1),
        (spec_of(K.INTEGER, minimum=1, maximum=10), 10),
        (spec_of(K.TEXT, min_length=2, max_length=2), "ab"),
        (spec_of(K.TEXT, format="email"), "ada@example.com"),
        (spec_of(K.TEXT, format="uri"), "https://example.com/path?q=1"),
        (spec_of(K.DATE), "2024-02-29"),
        (spec_of(K.DATETIME), "2026-05-01T09:30:00+02:00"),
        (spec_of(K.DATETIME), "2026-05-01T09:30:00Z"),
        (spec_of(K.SINGLE_SELECT, options=ABC), "c"),
        (spec_of(K.MULTI_SELECT, options=ABC, min_items=1, max_items=2), ["a", "c"]),
        (spec_of(K.TEXT, pattern="[0-9]"), "abc1def"),  # unanchored search, as JSON Schema
        (spec_of(K.TEXT), None),
        (spec_of(K.TEXT), ""),
        (spec_of(K.BOOLEAN, required=True), False),
        (spec_of(K.INTEGER, required=True), 0),
    ],
)
def test_check_value_accepts_a_fitting_value(spec: FieldSpec, value: Any) -> None:
    assert check_value(spec, value) is None


def test_text_length_counts_characters_not_bytes() -> None:
    assert check_value(spec_of(K.TEXT, max_length=3), "日本語") is None


def test_a_required_multi_select_without_min_items_needs_at_least_one_choice() -> None:
    spec = spec_of(K.MULTI_SELECT, options=ABC, required=True)
    assert spec.effective_min_items == 1
    assert check_value(spec, []) == "Choose at least 1."
    assert check_value(spec, None) == "Choose at least 1."
    assert check_value(spec, ["b"]) is None


def test_an_optional_multi_select_may_be_left_empty() -> None:
    spec = spec_of(K.MULTI_SELECT, options=ABC)
    assert spec.effective_min_items == 0
    assert check_value(spec, []) is None
    assert check_value(spec, None) is None


def test_a_catastrophic_pattern_is_a_mismatch_not_a_hang() -> None:
    spec = one_field({"type": "string", "pattern": "^(a+)+$"})
    assert check_value(spec, "a" * 5000 + "b") == "The value could not be checked against the expected pattern in time."
    assert check_value(spec, "aaaa") is None


# -- build_content / validate_content ---------------------------------------------------------------

CONTENT_SCHEMA = form(
    {
        "name": {"type": "string", "maxLength": 5},
        "email": {"type": "string", "format": "email"},
        "age": {"type": "integer", "minimum": 0},
        "ratio": {"type": "number"},
        "agree": {"type": "boolean"},
        "size": {"type": "string", "enum": ["s", "m", "l"]},
        "tags": {"type": "array", "items": {"type": "string", "enum": ["x", "y", "z"]}},
        "when": {"type": "string", "format": "date-time"},
        "day": {"type": "string", "format": "date"},
    },
    required=["name"],
)


def test_build_content_omits_untouched_fields_and_keeps_schema_order() -> None:
    spec = parse_requested_schema(CONTENT_SCHEMA)
    values = {"tags": [], "agree": False, "email": None, "age": 0, "name": "Ada", "size": None}
    content = build_content(spec, values)
    assert content == {"name": "Ada", "age": 0, "agree": False, "tags": []}
    assert list(content) == ["name", "age", "agree", "tags"]


def test_build_content_ignores_values_for_unknown_names() -> None:
    spec = parse_requested_schema(CONTENT_SCHEMA)
    assert build_content(spec, {"name": "Ada", "intruder": 1}) == {"name": "Ada"}


def test_validate_content_accepts_content_that_fits_the_schema() -> None:
    spec = parse_requested_schema(CONTENT_SCHEMA)
    content = {
        "name": "Ada",
        "email": "ada@example.com",
        "age": 36,
        "ratio": -74.01,
        "agree": True,
        "size": "m",
        "tags": ["x", "z"],
        "when": "2026-05-01T09:30:00+02:00",
        "day": "2026-05-01",
    }
    assert validate_content(spec, content) == []
    assert validate_content(spec, {"name": "Ada"}) == []


@pytest.mark.parametrize(
    ("content", "paths"),
    [
        ({"name": "toolong"}, ["/name"]),
        ({"name": "Ada", "size": "xl"}, ["/size"]),
        ({"name": "Ada", "when": "2026-05-01 09:30"}, ["/when"]),
        ({"name": "Ada", "day": "2026-02-30"}, ["/day"]),
        ({"name": "Ada", "email": "nobody"}, ["/email"]),
        ({"name": "Ada", "age": -1}, ["/age"]),
        ({"name": "Ada", "age": 1.5}, ["/age"]),
        ({"name": "Ada", "tags": ["x", "w"]}, ["/tags/1"]),
        ({"name": "Ada", "tags": ["x", "x"]}, ["/tags"]),
        ({"name": "Ada", "agree": "yes"}, ["/agree"]),
        ({"name": 5, "age": "5", "ratio": "x"}, ["/name", "/age", "/ratio"]),
        ({}, ["/", "/name"]),
    ],
)
def test_validate_content_rejects_content_breaking_the_schema(content: dict[str, Any], paths: list[str]) -> None:
    spec = parse_requested_schema(CONTENT_SCHEMA)
    assert [v.path for v in validate_content(spec, content)] == paths


def test_validate_content_reports_our_own_policy_for_a_required_multi_select() -> None:
    spec = parse_requested_schema(form({"tags": {"type": "array", "items": {"enum": ["x"]}}}, required=["tags"]))
    assert validate_content(spec, {"tags": []}) == [Violation("/tags", "Choose at least 1.")]


def test_validate_content_follows_local_refs() -> None:
    spec = parse_requested_schema(
        form({"f": {"$ref": "#/$defs/n"}}, **{"$defs": {"n": {"type": "integer", "maximum": 3}}})
    )
    assert [v.path for v in validate_content(spec, {"f": 4})] == ["/f"]
    assert validate_content(spec, {"f": 3}) == []


def test_validate_content_with_a_catastrophic_pattern_reports_a_mismatch() -> None:
    spec = parse_requested_schema(form({"f": {"type": "string", "pattern": "^(a+)+$"}}))
    assert [v.path for v in validate_content(spec, {"f": "a" * 5000 + "b"})] == ["/f"]
    assert validate_content(spec, {"f": "aaa"}) == []


# -- describe_constraints / looks_secret --------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "text"),
    [
        (spec_of(K.INTEGER, required=True, minimum=1, maximum=10), "Required. Whole number between 1 and 10."),
        (spec_of(K.NUMBER, minimum=0.5), "Number of at least 0.5."),
        (spec_of(K.NUMBER, maximum=-180.0), "Number of at most -180."),
        (spec_of(K.NUMBER), "Number."),
        (spec_of(K.TEXT, min_length=2, max_length=8, format="email"), "2 to 8 characters. An email address."),
        (spec_of(K.TEXT, min_length=2), "At least 2 characters."),
        (spec_of(K.TEXT, max_length=8), "At most 8 characters."),
        (spec_of(K.TEXT, format="uri"), "A web address."),
        (spec_of(K.DATE, required=True), "Required. A date."),
        (spec_of(K.DATETIME), "A date and time."),
        (spec_of(K.MULTI_SELECT, options=ABC, required=True, max_items=3), "Required. Choose 1 to 3."),
        (spec_of(K.MULTI_SELECT, options=ABC, min_items=2, max_items=2), "Choose 2."),
        (spec_of(K.MULTI_SELECT, options=ABC, min_items=2), "Choose at least 2."),
        (spec_of(K.MULTI_SELECT, options=ABC, max_items=2), "Choose at most 2."),
        (spec_of(K.TEXT), ""),
        (spec_of(K.BOOLEAN), ""),
    ],
)
def test_describe_constraints_puts_the_constraints_in_words(spec: FieldSpec, text: str) -> None:
    assert describe_constraints(spec) == text


@pytest.mark.parametrize(
    ("name", "title", "description"),
    [
        ("password", "Password", None),
        ("apiKey", "Key", None),
        ("key", "API key", None),
        ("card_number", "Card", None),
        ("otp", "One-time code", None),
        ("pin", "Your PIN", "Four digits"),
        ("cvv", "CVV", None),
        ("passphrase", "Passphrase", None),
        ("user_pin", "PIN", None),
        ("accessToken", "Access", None),
    ],
)
def test_fields_that_ask_for_secrets_are_recognised(name: str, title: str, description: str | None) -> None:
    assert looks_secret(spec_of(K.TEXT, name=name, title=title, description=description))


@pytest.mark.parametrize(
    ("name", "title"),
    [
        ("email", "Email"),
        ("name", "Your name"),
        ("city", "City"),
        ("spin", "Spin speed"),
        ("footprint", "Carbon footprint"),
        ("boarding", "Boarding pass"),
        ("tokenizer", "Tokenizer"),
    ],
)
def test_ordinary_fields_do_not_look_secret(name: str, title: str) -> None:
    assert not looks_secret(spec_of(K.TEXT, name=name, title=title))


# -- property-based: nothing but SchemaError ever escapes ---------------------------------------------

JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
)
JSON = st.recursive(
    JSON_SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=5), st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=25,
)
KEYWORDS = [
    "type",
    "title",
    "description",
    "default",
    "enum",
    "enumNames",
    "oneOf",
    "anyOf",
    "items",
    "const",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
    "format",
    "pattern",
    "$ref",
    "uniqueItems",
    "examples",
    "x-ui",
    "properties",
    "required",
    "allOf",
    "if",
]
SHAPED_VALUES = st.one_of(
    JSON,
    st.sampled_from(
        [
            "string",
            "number",
            "integer",
            "boolean",
            "array",
            "object",
            "email",
            "uri",
            "date",
            "date-time",
            "#/$defs/a",
            "#/$defs/b",
            "#/definitions/a",
            "a",
            "b",
        ]
    ),
    st.lists(st.sampled_from(["a", "b", "c"]), max_size=4),
    st.lists(
        st.fixed_dictionaries({"const": st.sampled_from(["a", "b", 1]), "title": st.text(max_size=3)}), max_size=3
    ),
    st.fixed_dictionaries({"type": st.just("string"), "enum": st.lists(st.sampled_from(["a", "b"]), max_size=3)}),
)
PROPERTY = st.one_of(JSON, st.dictionaries(st.sampled_from(KEYWORDS), SHAPED_VALUES, max_size=6))
OBJECT_SCHEMAS = st.fixed_dictionaries(
    {"type": st.just("object"), "properties": st.dictionaries(st.text(max_size=6), PROPERTY, max_size=4)},
    optional={
        "required": st.one_of(JSON, st.lists(st.text(max_size=6), max_size=3)),
        "$defs": st.dictionaries(st.sampled_from(["a", "b"]), PROPERTY, max_size=2),
        "$schema": JSON,
        "$id": JSON,
        "additionalProperties": JSON,
    },
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(JSON, OBJECT_SCHEMAS))
@example({"type": "object", "properties": {"f": {"type": "string", "format": ["email"]}}})
@example({"type": "object", "properties": {"f": {"type": "number", "minimum": 10**400}}})
@example({"type": "object", "properties": {"f": {"type": "integer", "default": 10**400}}})
@example({"type": "object", "properties": {"f": {"type": {"string": 1}}}})
@example({"type": "object", "properties": {"f": {"$ref": ["#/$defs/a"]}}})
@example({"type": "object", "properties": {}, "$id": 5})
def test_parsing_any_json_value_raises_nothing_but_schema_error(schema: Any) -> None:
    original = copy.deepcopy(schema)
    try:
        spec = parse_requested_schema(schema)
    except SchemaError as exc:
        assert exc.violations
        assert all(isinstance(v.path, str) and (v.path == "" or v.path.startswith("/")) for v in exc.violations)
    else:
        # whatever we accept, the final gate can check content against without blowing up
        assert isinstance(validate_content(spec, {}), list)
        defaults = {f.name: f.default for f in spec.fields}
        assert isinstance(validate_content(spec, build_content(spec, defaults)), list)
    assert schema == original or schema != schema  # never mutated (NaN is never equal to itself)


# -- conformance with the MCP SDK's own model ---------------------------------------------------------


def _sdk_adapter() -> Any:
    mcp_v2025_11_25 = pytest.importorskip("mcp_types._v2025_11_25")
    from pydantic import TypeAdapter

    assert hasattr(mcp_v2025_11_25, "PrimitiveSchemaDefinition")
    return TypeAdapter(mcp_v2025_11_25.PrimitiveSchemaDefinition)


def _sdk_accepts(prop: Any) -> bool:
    from pydantic import ValidationError

    try:
        _sdk_adapter().validate_python(prop)
    except ValidationError:
        return False
    return True


def _we_accept(prop: Any) -> bool:
    try:
        parse_requested_schema(form({"f": prop}))
    except SchemaError:
        return False
    return True


STRICT_SUBSET = [
    {"type": "string"},
    {"type": "string", "title": "T", "description": "D", "minLength": 0, "maxLength": 10, "default": "abc"},
    {"type": "string", "format": "email"},
    {"type": "string", "format": "uri"},
    {"type": "string", "format": "date", "default": "2026-01-31"},
    {"type": "string", "format": "date-time"},
    {"type": "number", "minimum": -1.5, "maximum": 2, "default": 0.25},
    {"type": "integer", "minimum": 0, "maximum": 100, "default": 7},
    {"type": "boolean", "default": True},
    {"type": "string", "enum": ["a", "b"], "default": "a"},
    {"type": "string", "oneOf": [{"const": "a", "title": "A"}, {"const": "b", "title": "B"}], "default": "b"},
    {"type": "string", "enum": ["a", "b"], "enumNames": ["A", "B"]},
    {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "minItems": 1, "maxItems": 2, "default": ["a"]},
    {"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}]}, "default": ["a"]},
]


@pytest.mark.parametrize("prop", STRICT_SUBSET)
def test_a_schema_strictly_in_the_subset_is_accepted_by_us_and_by_the_sdk(prop: dict[str, Any]) -> None:
    assert _we_accept(prop)
    assert _sdk_accepts(prop)


OUTSIDE_FOR_BOTH = [
    {"type": "object", "properties": {}},
    {"type": "string", "format": "hostname"},
    {"type": "string", "title": 5},
    {"type": "array", "items": {"type": "object"}},
    {"type": "array", "items": {"anyOf": [{"const": 1, "title": "One"}]}},
    {"type": "null"},
    {"type": ["string", "null"]},
    {"enum": ["a"]},
]


@pytest.mark.parametrize("prop", OUTSIDE_FOR_BOTH)
def test_a_schema_the_sdk_model_refuses_is_refused_by_us_too(prop: dict[str, Any]) -> None:
    assert not _sdk_accepts(prop)
    assert not _we_accept(prop)


STRICTER_THAN_THE_SDK = [
    # the SDK's StringSchema/NumberSchema ignore unknown keywords, so these pass as plain fields there
    {"type": "string", "enum": [1, 2]},
    {"type": "string", "allOf": [{"minLength": 1}]},
    {"type": "string", "pattern": "("},
    {"type": "number", "exclusiveMinimum": 0},
    {"type": "string", "if": {}},
    # pydantic's lax mode turns "5" into 5 and accepts a negative length
    {"type": "string", "minLength": "5"},
    {"type": "string", "minLength": -1},
]


@pytest.mark.parametrize("prop", STRICTER_THAN_THE_SDK)
def test_keywords_the_sdk_model_silently_ignores_are_refused_by_us(prop: dict[str, Any]) -> None:
    assert _sdk_accepts(prop)
    assert not _we_accept(prop)


LENIENT_EXTRAS = [
    {"oneOf": [{"const": "a", "title": "A"}]},  # titled options without "type"
    {"type": "array", "items": {"oneOf": [{"const": "a", "title": "A"}]}},  # SEP-1330's items.oneOf
    {"type": "array", "items": {"enum": ["a"]}},  # items without "type"
    {"type": "string", "default": 5},  # accepted; the default is ignored
    {"type": "string", "format": "date", "default": ["2026-01-01"]},
]


@pytest.mark.parametrize("prop", LENIENT_EXTRAS)
def test_the_lenient_extras_are_the_known_places_where_we_accept_more_than_the_sdk(prop: dict[str, Any]) -> None:
    assert _we_accept(prop)
    assert not _sdk_accepts(prop)


STRICT_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.floats(-5, 5, allow_nan=False),
    st.text(max_size=3),
    st.sampled_from(["a", "b", "email", "uri", "date", "date-time", "2026-01-01"]),
    st.lists(st.sampled_from(["a", "b", "c"]), max_size=3),
)
STRICT_OPTIONS = st.lists(
    st.fixed_dictionaries({"const": st.sampled_from(["a", "b", "c"]), "title": st.text(max_size=3)}), max_size=3
)
STRICT_PROPERTIES = st.one_of(
    st.fixed_dictionaries(
        {"type": st.just("string")},
        optional={k: STRICT_VALUES for k in ("title", "description", "minLength", "maxLength", "format", "default")},
    ),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["number", "integer"])},
        optional={k: STRICT_VALUES for k in ("title", "description", "minimum", "maximum", "default")},
    ),
    st.fixed_dictionaries(
        {"type": st.just("boolean")}, optional={k: STRICT_VALUES for k in ("title", "description", "default")}
    ),
    st.fixed_dictionaries(
        {"type": st.just("string"), "enum": st.lists(STRICT_VALUES, max_size=3)},
        optional={k: STRICT_VALUES for k in ("title", "description", "default", "enumNames")},
    ),
    st.fixed_dictionaries(
        {"type": st.just("string"), "oneOf": STRICT_OPTIONS},
        optional={k: STRICT_VALUES for k in ("title", "description", "default")},
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("array"),
            "items": st.one_of(
                st.fixed_dictionaries({"type": st.just("string"), "enum": st.lists(STRICT_VALUES, max_size=3)}),
                st.fixed_dictionaries({"anyOf": STRICT_OPTIONS}),
            ),
        },
        optional={k: STRICT_VALUES for k in ("title", "description", "minItems", "maxItems", "default")},
    ),
)


@settings(max_examples=400, deadline=None)
@given(STRICT_PROPERTIES)
def test_every_strict_subset_schema_we_accept_validates_with_the_sdk_model(prop: dict[str, Any]) -> None:
    try:
        field = one_field(prop)
    except SchemaError:
        return
    checked = dict(prop)
    if field.default is None:
        checked.pop("default", None)  # an invalid default is ignored (product policy), not rendered
    assert _sdk_accepts(checked), prop


@pytest.mark.parametrize(
    ("prop", "path"),
    [
        (None, "/properties/p"),
        ({"type": "integer", "minimum": 0.5, "maximum": 0.7}, "/properties/p/minimum"),
        ({"type": "array", "maxItems": 0, "items": {"type": "string", "enum": ["a"]}}, "/properties/p/maxItems"),
        ({"type": "string", "format": None}, "/properties/p/format"),
        ({"type": "string", "minLength": None}, "/properties/p/minLength"),
        ({"type": "string", "pattern": None}, "/properties/p/pattern"),
        ({"type": "number", "maximum": None}, "/properties/p/maximum"),
    ],
)
def test_a_property_that_no_answer_could_satisfy_or_an_explicit_null_is_refused(prop, path) -> None:
    with pytest.raises(SchemaError) as caught:
        parse_requested_schema({"type": "object", "properties": {"p": prop}})
    assert [v.path for v in caught.value.violations] == [path]


def test_a_tiny_number_is_not_silently_sent_as_zero() -> None:
    spec = FieldSpec(name="x", kind=FieldKind.NUMBER, title="x")
    assert coerce_number(spec, "1e-400") == (None, "Enter a number of a reasonable size.")
    assert coerce_number(spec, "0.0") == (0.0, None)


# -- issue 12 §1: values come back as meant ---------------------------------------------------------


def test_enum_names_of_the_wrong_length_are_ignored_and_the_values_shown(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger=PARSE_LOGGER):
        spec = one_field({"type": "string", "enum": ["p1", "p2", "p3"], "enumNames": ["Cats", "Dogs"], "default": "p3"})
    assert spec.options == (Option("p1", "p1"), Option("p2", "p2"), Option("p3", "p3"))
    assert spec.default == "p3"
    assert "ignoring /properties/f/enumNames: 2 names for 3 values" in caplog.text


def test_an_option_whose_value_is_empty_answers_a_required_select() -> None:
    spec = one_field({"type": "string", "oneOf": [{"const": "", "title": "None"}, {"const": "v"}]}, required=True)
    assert check_value(spec, "") is None
    assert check_value(spec, None) == "This field is required."
    assert (
        validate_content(parse_requested_schema(form({"f": {"type": "string", "enum": ["", "v"]}}, ["f"])), {"f": ""})
        == []
    )


@pytest.mark.parametrize(
    ("pattern", "value", "found"),
    [
        (r"^\d{5}$", "12345", True),
        (r"^\d{5}$", "\u09e7\u09e8\u09e9\u09ea\u09eb", False),  # Bengali digits are not ECMA \d
        (r"^\w+$", "\u00e9t\u00e9", False),  # \w is ASCII
        (r"\bfoo\b", "\u00e9foo\u00e9", True),  # \b between ASCII word and non-word characters
        (r"^prod-[0-9]+$", "prod-42\n", False),  # $ is the very end, not before a final newline
        (r"^prod-[0-9]+$", "prod-42", True),
        (r"(?<=\$)\d+", "$42", True),  # look-behind (ECMA 2018)
        (r"^\p{L}+$", "\u00e9t\u00e9", True),  # the u flag, as JSON Schema recommends
        (r"^.$", "\U0001f600", True),  # code points, not UTF-16 units
        (r"[0-9]", "abc1def", True),  # unanchored search
    ],
)
def test_pattern_follows_ecma_262(pattern: str, value: str, found: bool) -> None:
    spec = spec_of(K.TEXT, pattern=pattern)
    assert (check_value(spec, value) is None) is found
    schema = form({"f": {"type": "string", "pattern": pattern}})
    assert (validate_content(parse_requested_schema(schema), {"f": value}) == []) is found


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("(", "invalid ECMA-262 regular expression: Unbalanced parenthesis"),
        ("(?P<n>x)", "invalid ECMA-262 regular expression: Invalid group modifier"),  # Python syntax, not ECMA
        ("a" * 1001, "longer than 1000 characters (1001)"),
    ],
)
def test_a_pattern_that_cannot_be_used_is_refused_at_its_path(pattern: str, message: str) -> None:
    with pytest.raises(SchemaError) as info:
        parse_requested_schema(form({"f": {"type": "string", "pattern": pattern}}))
    assert info.value.violations == [Violation("/properties/f/pattern", message)]


def test_a_slow_match_is_cut_off_and_not_repeated_for_longer_values() -> None:
    from elicit_tray.schema.pattern import PatternEngine, Verdict

    engine = PatternEngine()
    try:
        assert engine.check("^(a+)+$", "aaaa") == Verdict.MATCH
        assert engine.check("((a{100}){100}){100}|z1", "a" * 100) == Verdict.NO_MATCH
        assert (engine.starts, engine.kills, engine.sent) == (1, 0, 2)
        assert engine.check("^(a+)+$", "a" * 40 + "b") == Verdict.TOO_SLOW
        # the worker and its memory are gone; its successor starts at once, to be ready when needed
        assert (engine.starts, engine.kills, engine.sent) == (2, 1, 3)
        # a longer value for that pattern is not tried again; a known one is answered from the cache
        assert engine.check("^(a+)+$", "a" * 41 + "b") == Verdict.TOO_SLOW
        assert engine.check("^(a+)+$", "aaaa") == Verdict.MATCH
        assert engine.sent == 3
        assert engine.check("^(a+)+$", "aa") == Verdict.MATCH  # shorter values are still checked
        assert (engine.starts, engine.sent) == (2, 4)  # by the successor started at the kill
    finally:
        engine.close()


@pytest.mark.parametrize(
    ("address", "valid"),
    [
        ("ops@corp.local", True),  # special-use domains: nothing is looked up
        ("a@localhost", True),
        ('"joe bloggs"@example.com', True),
        ('"a\\"b"@example.com', True),
        ("user+tag@sub.example.co.uk", True),
        ("joe@[192.0.2.1]", True),
        ("joe@[IPv6:2001:db8::1]", True),
        ("joe@@example.com", False),
        ("joe@example..com", False),
        ("joe.@example.com", False),
        (".joe@example.com", False),
        ("joe@-example.com", False),
        ("joe@[300.0.0.1]", False),
        ("joe bloggs@example.com", False),
        ("x" * 65 + "@example.com", False),
        ("j\u00f6rg@b\u00fccher.example", False),  # only idn-email takes UTF-8
    ],
)
def test_email_is_what_json_schema_email_accepts(address: str, valid: bool) -> None:
    assert (check_value(spec_of(K.TEXT, format="email"), address) is None) is valid
    spec = parse_requested_schema(form({"f": {"type": "string", "format": "email"}}))
    assert (validate_content(spec, {"f": address}) == []) is valid


@pytest.mark.parametrize(
    ("address", "valid"),
    [
        ("j\u00f6rg@b\u00fccher.example", True),
        ("\u7528\u6237@\u4f8b\u5b50.\u516c\u53f8", True),
        ("ops@corp.local", True),
        ("j\u00f6rg@@b\u00fccher.example", False),
    ],
)
def test_idn_email_takes_utf8_where_the_schema_says_so(address: str, valid: bool) -> None:
    spec = one_field({"type": "string", "format": "idn-email"})
    assert spec.format == "idn-email"
    assert (check_value(spec, address) is None) is valid


def test_an_email_default_on_a_special_use_domain_is_kept() -> None:
    assert one_field({"type": "string", "format": "email", "default": "ops@corp.local"}).default == "ops@corp.local"


@pytest.mark.parametrize(
    ("kind", "value", "valid"),
    [
        (K.DATE, "1700-06-15", True),
        (K.DATE, "0000-02-29", True),  # year 0 is a leap year in the proleptic calendar
        (K.DATE, "1900-02-29", False),
        (K.DATE, "2000-02-29", True),
        (K.DATE, "2026-04-31", False),
        (K.DATETIME, "2026-10-25t02:30:00z", True),  # RFC 3339: T and Z in either case
        (K.DATETIME, "2026-10-25T02:30:00.123456789-00:00", True),
        (K.DATETIME, "1990-12-31T23:59:60Z", True),  # a leap second at 23:59 UTC
        (K.DATETIME, "1991-01-01T00:59:60+01:00", True),
        (K.DATETIME, "1990-12-31T23:59:60+01:00", False),
        (K.DATETIME, "0001-01-01T00:00:00Z", True),
        (K.DATETIME, "2026-10-25 02:30:00Z", False),
        (K.DATETIME, "2026-10-25T24:00:00Z", False),
        (K.DATETIME, "2026-10-25T02:30:00+24:00", False),
    ],
)
def test_dates_and_date_times_are_every_rfc_3339_value(kind: FieldKind, value: str, valid: bool) -> None:
    assert (check_value(spec_of(kind), value) is None) is valid
    fmt = "date" if kind is K.DATE else "date-time"
    spec = parse_requested_schema(form({"f": {"type": "string", "format": fmt}}))
    assert (validate_content(spec, {"f": value}) == []) is valid


@pytest.mark.parametrize(
    ("prop", "secret"),
    [
        ({"type": "integer", "title": "Integer", "description": "do not give us your phone number, pin"}, False),
        ({"type": "string", "title": "Comment", "description": "Never paste your password here"}, False),
        ({"type": "boolean", "title": "Remember my password"}, False),  # asks yes or no, not for the password
        ({"type": "string", "enum": ["bearer", "basic"], "title": "Token type"}, False),
        ({"type": "string", "title": "Card PIN"}, True),
        ({"type": "integer", "title": "PIN"}, True),
    ],
)
def test_the_secret_warning_judges_by_what_a_field_asks_for(prop: dict[str, Any], secret: bool) -> None:
    assert looks_secret(one_field(prop, name="f")) is secret
