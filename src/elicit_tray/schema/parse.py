"""``requestedSchema`` -> :class:`FormSpec`, or every reason why not.

Implements the restricted subset of MCP 2025-11-25 / 2026-07-28 ``ElicitRequestFormParams``
(``PrimitiveSchemaDefinition``) plus the lenient extras of ``docs/design.md`` "Product policies":
legacy ``enumNames``; titled ``oneOf`` without ``type`` when every ``const`` is a string;
``items.oneOf`` as ``items.anyOf``; top-level ``$schema``; a local ``$ref`` into ``$defs``
that resolves to a primitive kind; annotation keywords (``examples``, ``x-*``) ignored.
A string ``format`` is one of :data:`~elicit_tray.schema.formats.FORMATS` (whose row gives
the field's kind). Everything else is a :class:`Violation` with its JSON Pointer path.
"""

from __future__ import annotations

import logging
import math
from typing import Any

from .formats import FORMATS, STRING_FORMATS
from .model import FieldKind, FieldSpec, FormSpec, Option, SchemaError, Violation, unknown_kind
from .pointer import pointer as _ptr
from .pointer import ref_tokens

__all__ = ["parse_requested_schema", "STRING_FORMATS"]

log = logging.getLogger(__name__)

_ANNOTATIONS = frozenset(
    {"title", "description", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly"}
)
_TOP_KEYS = frozenset(
    {
        "type",
        "properties",
        "required",
        "$schema",
        "$defs",
        "definitions",
        "title",
        "description",
        "additionalProperties",
        "$comment",
        "examples",
        "$id",
    }
)
_KIND_KEYS: dict[str, frozenset[str]] = {
    "text": frozenset({"type", "minLength", "maxLength", "format", "pattern"}),
    "number": frozenset({"type", "minimum", "maximum"}),
    "boolean": frozenset({"type"}),
    "enum": frozenset({"type", "enum", "enumNames"}),
    "oneOf": frozenset({"type", "oneOf"}),
    "array": frozenset({"type", "items", "minItems", "maxItems", "uniqueItems"}),
}


def _is_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    # an int is always finite (math.isfinite() would overflow on a 400-digit JSON integer)
    return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


class _Parser:
    def __init__(self, schema: dict[str, Any]):
        self.schema = schema
        self.violations: list[Violation] = []

    def bad(self, path: str, message: str) -> None:
        self.violations.append(Violation(path, message))

    # -- top level -------------------------------------------------------------------------
    def parse(self) -> tuple[FieldSpec, ...]:
        schema = self.schema
        if schema.get("type") != "object":
            self.bad("/type", 'the top-level "type" must be "object"')
        for key in schema:
            if key not in _TOP_KEYS and not key.startswith("x-"):
                self.bad(_ptr(key), f'unsupported top-level keyword "{key}"')
            elif key in ("$schema", "$id") and not isinstance(schema[key], str):
                self.bad(_ptr(key), f'"{key}" must be a string')
        properties = schema.get("properties")
        if not isinstance(properties, dict):
            self.bad("/properties", '"properties" must be an object')
            properties = {}
        required = schema.get("required", [])
        if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
            self.bad("/required", '"required" must be a list of property names')
            required = []
        for index, name in enumerate(required):
            if name not in properties:
                self.bad(_ptr("required", str(index)), f'required property "{name}" is not defined')
        _check_defaults(properties)
        fields = []
        for name, prop in properties.items():
            spec = self.field(name, prop, name in required)
            if spec is not None:
                fields.append(spec)
        return tuple(fields)

    # -- one property ----------------------------------------------------------------------
    def resolve(self, prop: Any, path: str) -> Any:
        """Follow a local ``$ref`` into ``$defs`` (at most a few hops)."""
        for _ in range(4):
            if not (isinstance(prop, dict) and "$ref" in prop):
                return prop
            ref = prop["$ref"]
            others = set(prop) - {"$ref"} - _ANNOTATIONS
            if others:
                self.bad(path, f"keywords beside $ref are not supported: {sorted(others)}")
                return None
            if not isinstance(ref, str) or not ref.startswith(("#/$defs/", "#/definitions/")):
                self.bad(_ptr_join(path, "$ref"), "only local references into $defs are supported")
                return None
            # The fragment is a JSON Pointer (percent-decoded, ~1 and ~0 unescaped), read exactly
            # as jsonschema reads it when validate_content follows the same reference.
            tokens = ref_tokens(ref)
            section, name = tokens[0], "/".join(tokens[1:])
            target = self.schema.get(section, {})
            if len(tokens) != 2 or not isinstance(target, dict) or name not in target:
                self.bad(_ptr_join(path, "$ref"), f'reference "{ref}" does not resolve')
                return None
            # Annotations on the referring schema win over the target's (JSON Schema 2020-12).
            merged = dict(target[name]) if isinstance(target[name], dict) else target[name]
            if isinstance(merged, dict):
                merged.update({k: v for k, v in prop.items() if k != "$ref"})
            prop = merged
        self.bad(path, "too many chained $ref")
        return None

    def field(self, name: str, prop: Any, required: bool) -> FieldSpec | None:
        path = _ptr("properties", name)
        if not isinstance(prop, dict):
            self.bad(path, "a property schema must be an object")
            return None
        prop = self.resolve(prop, path)
        if prop is None:
            return None
        if not isinstance(prop, dict):
            self.bad(path, "a property schema must be an object")
            return None
        before = len(self.violations)
        shape = self.shape(prop, path)
        if shape is None:
            return None
        allowed = _KIND_KEYS[shape] | _ANNOTATIONS
        for key in prop:
            if key not in allowed and not key.startswith("x-"):
                self.bad(_ptr_join(path, key), f'unsupported keyword "{key}"')
        title = prop.get("title", name)
        description = prop.get("description")
        if not isinstance(title, str):
            self.bad(_ptr_join(path, "title"), '"title" must be a string')
            title = name
        if description is not None and not isinstance(description, str):
            self.bad(_ptr_join(path, "description"), '"description" must be a string')
            description = None
        common: dict[str, Any] = {
            "name": name,
            "title": title or name,
            "description": description,
            "required": required,
        }
        spec = getattr(self, f"build_{shape.lower()}")(prop, path, common)
        if spec is None or len(self.violations) > before:
            return None
        return _with_default(spec, prop, path)

    def shape(self, prop: dict[str, Any], path: str) -> str | None:
        """Which of the subset's shapes ``prop`` is, or a violation."""
        kind = prop.get("type")
        if kind is None and "oneOf" in prop:
            return "oneOf"  # lenient: titled options without "type", checked in build_oneof
        if kind == "string":
            if "enum" in prop and "oneOf" in prop:
                self.bad(path, 'a string cannot have both "enum" and "oneOf"')
                return None
            return "enum" if "enum" in prop else "oneOf" if "oneOf" in prop else "text"
        if kind in ("number", "integer"):
            return "number"
        if kind == "boolean":
            return "boolean"
        if kind == "array":
            return "array"
        if kind == "object":
            self.bad(path, "nested objects are not supported; use flat primitive properties")
        elif kind is None:
            self.bad(path, 'missing "type"')
        else:
            self.bad(path, f"unsupported type {kind!r}; expected string, number, integer, boolean or array")
        return None

    # -- builders, one per shape ---------------------------------------------------------------
    def build_text(self, prop: dict[str, Any], path: str, common: dict[str, Any]) -> FieldSpec | None:
        fmt = prop.get("format")
        if (fmt is not None or "format" in prop) and (not isinstance(fmt, str) or fmt not in STRING_FORMATS):
            self.bad(
                _ptr_join(path, "format"),
                f"unsupported format {fmt!r}; expected one of " + ", ".join(sorted(STRING_FORMATS)),
            )
            return None
        lo, hi = self.bounds(prop, path, "minLength", "maxLength", _is_count, "a non-negative integer")
        pattern = prop.get("pattern")
        if "pattern" in prop:
            pattern = self.pattern(pattern, _ptr_join(path, "pattern"))
        kind = FORMATS[fmt].kind if fmt is not None else FieldKind.TEXT
        return FieldSpec(
            kind=kind,
            format=fmt if kind is FieldKind.TEXT else None,
            min_length=lo,
            max_length=hi,
            pattern=pattern,
            **common,
        )

    def build_number(self, prop: dict[str, Any], path: str, common: dict[str, Any]) -> FieldSpec | None:
        lo, hi = self.bounds(prop, path, "minimum", "maximum", _is_number, "a finite number")
        kind = FieldKind.INTEGER if prop["type"] == "integer" else FieldKind.NUMBER
        if kind is FieldKind.INTEGER and lo is not None and hi is not None and math.ceil(lo) > math.floor(hi):
            self.bad(_ptr_join(path, "minimum"), f"no whole number lies between {lo} and {hi}")
            return None
        return FieldSpec(kind=kind, minimum=lo, maximum=hi, **common)

    def build_boolean(self, prop: dict[str, Any], path: str, common: dict[str, Any]) -> FieldSpec | None:
        return FieldSpec(kind=FieldKind.BOOLEAN, **common)

    def build_enum(self, prop: dict[str, Any], path: str, common: dict[str, Any]) -> FieldSpec | None:
        options = self.enum_options(prop.get("enum"), prop.get("enumNames"), path)
        return None if options is None else FieldSpec(kind=FieldKind.SINGLE_SELECT, options=options, **common)

    def build_oneof(self, prop: dict[str, Any], path: str, common: dict[str, Any]) -> FieldSpec | None:
        options = self.titled_options(prop.get("oneOf"), _ptr_join(path, "oneOf"))
        return None if options is None else FieldSpec(kind=FieldKind.SINGLE_SELECT, options=options, **common)

    def build_array(self, prop: dict[str, Any], path: str, common: dict[str, Any]) -> FieldSpec | None:
        items = prop.get("items")
        ipath = _ptr_join(path, "items")
        if not isinstance(items, dict):
            self.bad(ipath, '"items" must be an object with "enum" or "anyOf" (arrays of objects are not supported)')
            return None
        options: tuple[Option, ...] | None
        choice_keys = [k for k in ("enum", "anyOf", "oneOf") if k in items]
        if len(choice_keys) != 1:
            self.bad(ipath, '"items" must have exactly one of "enum", "anyOf" or "oneOf" with string options')
            return None
        key = choice_keys[0]
        extra = set(items) - {"type", key, "title", "description", "enumNames"} - _ANNOTATIONS
        extra = {k for k in extra if not k.startswith("x-")}
        for k in sorted(extra):
            self.bad(_ptr_join(ipath, k), f'unsupported keyword "{k}"')
        if items.get("type", "string") != "string":
            self.bad(_ptr_join(ipath, "type"), 'multi-select items must be of type "string"')
            return None
        if key == "enum":
            options = self.enum_options(items.get("enum"), items.get("enumNames"), ipath)
        else:
            options = self.titled_options(items.get(key), _ptr_join(ipath, key))
        lo, hi = self.bounds(prop, path, "minItems", "maxItems", _is_count, "a non-negative integer")
        if options is None:
            return None
        if lo is not None and lo > len(options):
            self.bad(_ptr_join(path, "minItems"), f"minItems {lo} exceeds the {len(options)} options")
        if hi == 0:
            self.bad(_ptr_join(path, "maxItems"), "maxItems 0 leaves nothing to choose")
        if prop.get("uniqueItems", True) is not True:
            self.bad(_ptr_join(path, "uniqueItems"), "a multi-select always has unique items")
        return FieldSpec(kind=FieldKind.MULTI_SELECT, options=options, min_items=lo, max_items=hi, **common)

    # -- pieces ---------------------------------------------------------------------------------
    def bounds(self, prop: dict[str, Any], path: str, lo_key: str, hi_key: str, ok: Any, what: str) -> tuple[Any, Any]:
        lo, hi = prop.get(lo_key), prop.get(hi_key)
        for key, value in ((lo_key, lo), (hi_key, hi)):
            if (value is not None or key in prop) and not ok(value):  # an explicit null is not "absent"
                self.bad(_ptr_join(path, key), f'"{key}" must be {what}')
                return None, None
        if lo is not None and hi is not None and lo > hi:
            self.bad(_ptr_join(path, lo_key), f'"{lo_key}" ({lo}) is greater than "{hi_key}" ({hi})')
            return None, None
        return lo, hi

    def pattern(self, pattern: Any, path: str) -> str | None:
        """An ECMA-262 ``pattern`` (JSON Schema), at most ``MAX_PATTERN_CHARS`` long, that
        compiles (bounded: :func:`~elicit_tray.schema.pattern.compile_problem`)."""
        from .pattern import compile_problem

        if not isinstance(pattern, str):
            self.bad(path, '"pattern" must be a string')
            return None
        problem = compile_problem(pattern)
        if problem is not None:
            self.bad(path, problem)
            return None
        return pattern

    def enum_options(self, values: Any, names: Any, path: str) -> tuple[Option, ...] | None:
        if not isinstance(values, list) or not values:
            self.bad(_ptr_join(path, "enum"), '"enum" must be a non-empty list of strings')
            return None
        bad = [i for i, v in enumerate(values) if not isinstance(v, str)]
        for i in bad:
            self.bad(_ptr_join(path, "enum", str(i)), "enum values must be strings")
        if bad:
            return None
        if len(set(values)) != len(values):
            self.bad(_ptr_join(path, "enum"), "enum values must be unique")
            return None
        titles = list(values)
        if names is not None:
            if not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
                self.bad(_ptr_join(path, "enumNames"), '"enumNames" must be a list of strings')
                return None
            if len(names) == len(values):
                titles = names
            else:  # legacy labels that cannot be paired: the values are shown, never a wrong label
                log.warning(
                    "ignoring %s: %d names for %d values", _ptr_join(path, "enumNames"), len(names), len(values)
                )
        return tuple(Option(value=v, title=t or v) for v, t in zip(values, titles, strict=True))

    def titled_options(self, items: Any, path: str) -> tuple[Option, ...] | None:
        if not isinstance(items, list) or not items:
            self.bad(path, "options must be a non-empty list of {const, title}")
            return None
        options = []
        for i, item in enumerate(items):
            ipath = _ptr_join(path, str(i))
            if not isinstance(item, dict) or not isinstance(item.get("const"), str):
                self.bad(ipath, 'each option needs a string "const"')
                continue
            extra = set(item) - {"const", "title", "description"}
            if extra:
                self.bad(ipath, f"unsupported keywords in an option: {sorted(extra)}")
                continue
            title = item.get("title", item["const"])
            if not isinstance(title, str):
                self.bad(_ptr_join(ipath, "title"), '"title" must be a string')
                continue
            options.append(Option(value=item["const"], title=title or item["const"]))
        if len(options) != len(items):
            return None
        if len({o.value for o in options}) != len(options):
            self.bad(path, "option values must be unique")
            return None
        return tuple(options)


def _ptr_join(base: str, *parts: str) -> str:
    return base + _ptr(*parts)


def _check_defaults(properties: dict[str, Any]) -> None:
    """Match every string ``default`` against its ``pattern`` in one bounded worker round trip
    (:func:`~elicit_tray.schema.pattern.check_all`): :func:`_with_default` then finds the
    verdicts remembered, and a request's defaults cost the UI thread one budget in all."""
    from .pattern import MAX_PATTERN_CHARS, check_all

    pairs = [
        (prop["pattern"], prop["default"])
        for prop in properties.values()
        if isinstance(prop, dict)
        and isinstance(prop.get("pattern"), str)
        and len(prop["pattern"]) <= MAX_PATTERN_CHARS
        and isinstance(prop.get("default"), str)
    ]
    if pairs:
        check_all(pairs)


def _with_default(spec: FieldSpec, prop: dict[str, Any], path: str) -> FieldSpec:
    """Attach ``default`` if it satisfies its own field; otherwise log it and mark the field
    (``default_ignored``: the dialog says a suggested value was left out)."""
    if "default" not in prop:
        return spec
    from dataclasses import replace

    from .values import check_value

    default = prop["default"]
    optional = replace(spec, required=False) if spec.required else spec
    problem = _default_type_problem(spec, default) or check_value(optional, default)
    if problem:
        log.warning("ignoring the default of %s: %r (%s)", path, default, problem)
        return replace(spec, default_ignored=True)
    if spec.kind is FieldKind.MULTI_SELECT:  # content order is option order
        default = [o.value for o in spec.options if o.value in default]
    return replace(spec, default=default)


def _default_type_problem(spec: FieldSpec, default: Any) -> str | None:
    """Why ``default`` is not of the JSON type of ``spec``'s kind (a phrase), or ``None``.
    Raises :class:`~elicit_tray.schema.model.UnknownFieldKind` for a kind it has no case for."""
    kind = spec.kind
    match kind:
        case FieldKind.BOOLEAN:
            return None if isinstance(default, bool) else "not a boolean"
        case FieldKind.NUMBER | FieldKind.INTEGER:
            if not _is_number(default):
                return "not a finite number"
            if kind is FieldKind.INTEGER and isinstance(default, float) and not default.is_integer():
                return "not a whole number"
            return None
        case FieldKind.MULTI_SELECT:
            if not (isinstance(default, list) and all(isinstance(v, str) for v in default)):
                return "not a list of strings"
            if len(set(default)) != len(default):
                return "repeated options"
            return None
        case FieldKind.TEXT | FieldKind.DATE | FieldKind.DATETIME | FieldKind.SINGLE_SELECT:
            return None if isinstance(default, str) else "not a string"
        case _:
            unknown_kind(kind)


def parse_requested_schema(schema: Any) -> FormSpec:
    """Parse a ``requestedSchema`` (MCP ``ElicitRequestFormParams.requestedSchema``).

    Args:
        schema: the JSON value as received (normally a ``dict``).

    Returns:
        A :class:`FormSpec` whose fields are in the schema's property order, each with a
        validated default (invalid defaults are ignored and logged, never shown).

    Raises:
        SchemaError: the schema is outside the accepted subset; ``violations`` lists every
            problem with its JSON Pointer (e.g. ``/properties/address`` for a nested object).
    """
    if not isinstance(schema, dict):
        raise SchemaError([Violation("", "requestedSchema must be a JSON object")])
    parser = _Parser(schema)
    fields = parser.parse()
    if parser.violations:
        raise SchemaError(parser.violations)
    return FormSpec(fields=fields, schema=schema)
