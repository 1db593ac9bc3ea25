"""The warnings about a form's fields: one property at a time, as the tray reads it.

Each property is resolved as the parser resolves it (a local ``$ref`` followed), then judged:
first by the rules that hold even when the tray refuses the field (``nullable-anyof``, the
pattern), then, for a field the dialog shows, by each rule of :data:`_FIELD_RULES`. A rule takes
the :class:`_Field` and returns one :class:`~.report.LintWarning` or ``None``; a new warning is
a new id in :data:`~.report.WARNING_IDS` and one rule, e.g.::

    def _title_too_long(field: _Field) -> LintWarning | None:
        if len(field.spec.title) <= 80:
            return None
        return LintWarning("title-too-long", field.base + "/title", "the title wraps; shorten it")

Pure Python: no Qt.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..request import ElicitationRequest, FormRequest, for_display
from ..schema.pointer import pointer, ref_tokens
from .patterns import pattern_warnings
from .report import LintWarning

if TYPE_CHECKING:
    from ..schema import FieldSpec

__all__ = ["form_warnings"]


def form_warnings(params: dict[str, Any], request: ElicitationRequest | None) -> list[LintWarning]:
    """The warnings about every property of the form-mode ``params`` (``[]`` for anything
    else); ``request`` is what the tray built from them (``None`` when refused)."""
    schema = params.get("requestedSchema")
    if params.get("mode", "form") != "form" or not isinstance(schema, dict):
        return []
    if not isinstance(schema.get("properties"), dict):
        return []
    listed = schema.get("required")
    required = listed if isinstance(listed, list) else []
    shown = _shown_fields(request)
    found: list[LintWarning] = []
    for name, prop in schema["properties"].items():
        if not isinstance(name, str):  # pragma: no cover - JSON keys are strings
            continue
        found += _field_warnings(schema, name, prop, name in required, shown)
    return found


def _shown_fields(request: ElicitationRequest | None) -> dict[str, FieldSpec] | None:
    """The fields as the form dialog gets them (through ``for_display``, as the presenter
    builds it), or ``None`` when there is no dialog."""
    if not isinstance(request, FormRequest):
        return None
    return {f.name: f for f in for_display(request).form.fields}


def _resolve(schema: dict[str, Any], prop: Any) -> tuple[Any, str | None]:
    """``prop`` with its local ``$ref`` followed (as the parser does), and the first ref."""
    first = None
    for _ in range(4):
        if not (isinstance(prop, dict) and isinstance(prop.get("$ref"), str)):
            break
        ref = prop["$ref"]
        first = first or ref
        if not ref.startswith(("#/$defs/", "#/definitions/")):
            return None, first
        tokens = ref_tokens(ref)
        section = schema.get(tokens[0])
        target = section.get("/".join(tokens[1:])) if isinstance(section, dict) and len(tokens) == 2 else None
        if not isinstance(target, dict):
            return None, first
        prop = {**target, **{k: v for k, v in prop.items() if k != "$ref"}}
    return prop, first


def _alone(schema: dict[str, Any], name: str, prop: Any, required: bool) -> FieldSpec | None:
    """The field ``name`` parsed on its own (with the schema's ``$defs``), or ``None`` when the
    tray refuses it: warnings about one field do not wait for the others to be fixed."""
    from ..schema import SchemaError, parse_requested_schema

    alone: dict[str, Any] = {"type": "object", "properties": {name: prop}}
    if required:
        alone["required"] = [name]
    for key in ("$defs", "definitions"):
        if key in schema:
            alone[key] = schema[key]
    try:
        return parse_requested_schema(alone).fields[0]
    except (SchemaError, IndexError):
        return None


@dataclass(frozen=True)
class _Field:
    """One property as the rules see it: ``base`` its JSON Pointer in the params,
    ``resolved`` the property with its ``$ref`` followed, ``ref`` the first ``$ref`` (if any),
    ``holder``/``holder_path`` where its options are (``items`` for a multi-select, else the
    property), ``spec`` the field as the dialog shows it."""

    base: str
    resolved: dict[str, Any]
    ref: str | None
    holder: dict[str, Any]
    holder_path: str
    spec: FieldSpec


def _field_warnings(
    schema: dict[str, Any], name: str, prop: Any, required: bool, shown: dict[str, FieldSpec] | None
) -> list[LintWarning]:
    """The warnings about property ``name`` (``prop`` as sent)."""
    base = "/requestedSchema" + pointer("properties", name)
    resolved, ref = _resolve(schema, prop)
    if not isinstance(resolved, dict):
        return []
    found = [w for w in (_nullable_anyof(base, resolved),) if w is not None]
    pattern = resolved.get("pattern")
    if resolved.get("type") == "string" and isinstance(pattern, str):
        found += pattern_warnings(base + "/pattern", pattern)
    spec = shown.get(name) if shown is not None else _alone(schema, name, prop, required)
    if spec is None:  # refused: the errors say why
        return found
    holder, holder_path = resolved, base
    if resolved.get("type") == "array" and isinstance(resolved.get("items"), dict):
        holder, holder_path = resolved["items"], base + "/items"
    field = _Field(base, resolved, ref, holder, holder_path, spec)
    return found + [w for rule in _FIELD_RULES if (w := rule(field)) is not None]


def _nullable_anyof(base: str, resolved: dict[str, Any]) -> LintWarning | None:
    branches = resolved.get("anyOf")
    if not (isinstance(branches, list) and {"type": "null"} in branches):
        return None
    return LintWarning(
        "nullable-anyof",
        base + "/anyOf",
        (
            '"anyOf" with a {"type": "null"} branch is how Pydantic renders an Optional field (X | None); '
            "the MCP schema has no null and no anyOf, so the tray refuses the request: make the field "
            'optional by leaving it out of "required" (give it a default), not by allowing null'
        ),
    )


def _local_ref(field: _Field) -> LintWarning | None:
    if field.ref is None:
        return None
    return LintWarning(
        "local-ref",
        field.base + "/$ref",
        (
            f'"$ref": "{field.ref}" is followed by this tray, but the MCP requested schema has no "$ref" and '
            "other clients refuse or mis-render it; inline the definition in the property (Pydantic: "
            'an Enum field renders as "$ref"; use Literal[...] or json_schema_extra)'
        ),
    )


def _items_oneof(field: _Field) -> LintWarning | None:
    if field.holder is field.resolved or "oneOf" not in field.holder:
        return None
    return LintWarning(
        "items-oneof",
        field.holder_path + "/oneOf",
        (
            'a multi-select\'s options are "items.anyOf" in MCP; this tray reads "items.oneOf" the '
            'same way, other clients may not: rename it to "anyOf"'
        ),
    )


def _enum_names(field: _Field) -> LintWarning | None:
    names, values = field.holder.get("enumNames"), field.holder.get("enum")
    if not (isinstance(names, list) and isinstance(values, list)):
        return None
    path = field.holder_path + "/enumNames"
    if len(names) != len(values):
        return LintWarning(
            "enum-names-length",
            path,
            (
                f'"enumNames" has {len(names)} labels for {len(values)} values: they cannot be paired, so '
                "it is ignored and the raw values are shown; give one label per value"
            ),
        )
    single = field.holder is field.resolved
    fix = 'a titled "oneOf": [{"const", "title"}]' if single else 'titled "items.anyOf": [{"const", "title"}]'
    return LintWarning(
        "legacy-enum-names",
        path,
        (
            f'"enumNames" is the legacy way to label options (MCP 2025-06-18); this tray shows its '
            f"labels, clients of the current revision may show the raw values: use {fix}"
        ),
    )


def _oneof_without_type(field: _Field) -> LintWarning | None:
    if field.resolved.get("type") is not None or "oneOf" not in field.resolved:
        return None
    return LintWarning(
        "oneof-without-type",
        field.base,
        (
            'a titled "oneOf" without "type": this tray reads it as a single-select because every '
            '"const" is a string; the MCP schema requires "type": "string" beside "oneOf"'
        ),
    )


def _default_ignored(field: _Field) -> LintWarning | None:
    if "default" not in field.resolved or field.spec.default is not None:
        return None
    default = field.resolved["default"]
    return LintWarning(
        "default-ignored",
        field.base + "/default",
        (
            f"the default {json.dumps(default, ensure_ascii=False)} is ignored and the field "
            f"starts empty: {_default_problem(field.spec, default)}; give a default the field accepts"
        ),
    )


def _default_problem(spec: FieldSpec, default: Any) -> str:
    """Why the parser ignored ``default`` (its own checks, in its order)."""
    from ..schema import check_value
    from ..schema import parse as parse_module

    type_problem = getattr(parse_module, "_default_type_problem", None)
    problem = type_problem(spec, default) if type_problem is not None else None
    if problem is not None:
        return f"it is {problem}"
    problem = check_value(replace(spec, required=False), default)
    return f'the field\'s own check says "{problem}"' if problem else "it does not satisfy its own field"


def _secret_field(field: _Field) -> LintWarning | None:
    from ..schema import looks_secret  # the form dialog's own rule (FormDialog.secret_fields)

    if not looks_secret(field.spec):
        return None
    return LintWarning(
        "secret-field",
        field.base,
        (
            f'"{field.spec.title}" seems to ask for a secret: MCP forbids requesting passwords, tokens or keys '
            "in form mode, and the dialog warns the user to decline; use URL mode for credentials"
        ),
    )


#: The rules for a field the dialog shows, in the order their warnings were always found (the
#: report sorts them by path, then id).
_FIELD_RULES: tuple[Callable[[_Field], LintWarning | None], ...] = (
    _local_ref,
    _items_oneof,
    _enum_names,
    _oneof_without_type,
    _default_ignored,
    _secret_field,
)
