"""What the tray would do with an elicitation, for MCP server authors (issue 16).

``elicit_tray.check(params) -> Report`` reads the params of an ``elicitation/create`` (MCP
2025-11-25 ``ElicitRequestParams``; under 2026-07-28 one entry of ``inputRequests``) exactly as
the tray app does, without a display, a socket or a tray app, and says:

- ``errors``: exactly the ``data.violations`` (``[{path, message}]``, JSON Pointers into the
  params) of the -32602 the tray would answer; they come from
  :func:`elicit_tray.ipc.protocol.vet_create`, the function the dispatcher answers with, so the
  two cannot drift. Empty when the tray would show a dialog.
- ``warnings``: what the tray accepts but a server author should know, each with a stable
  ``id`` (:data:`WARNING_IDS`), a ``path`` and a sentence saying what happens and how to fix it.

Pure Python: importing this package or calling :func:`check` loads no Qt module. Rendering the
dialog (:meth:`Report.render_png`, ``elicit-tray check --png``) lives in
:mod:`elicit_tray.check.render` and imports PySide6 only when called.

The package object is callable (``elicit_tray.check(params)`` is :func:`check` whether the
name resolves to this package or to the function), because importing the package makes
``elicit_tray.check`` name it.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..ipc.protocol import vet_create
from ..limits import MAX_PATTERN_CHARS, limit_violations
from ..request import ElicitationRequest, FormRequest, Peer, UrlRequest
from ..schema.pointer import pointer as _ptr
from ..schema.pointer import ref_tokens

if TYPE_CHECKING:
    from ..schema import FieldSpec

__all__ = ["check", "Report", "LintWarning", "WARNING_IDS", "SCHEMA_MESSAGE", "InputError", "read_params"]

#: Every warning id, with what it means. Ids are stable: tests and CI scripts may match them.
WARNING_IDS: dict[str, str] = {
    "legacy-enum-names": 'the legacy "enumNames" labels are used (MCP 2025-06-18); prefer titled "oneOf"',
    "enum-names-length": '"enumNames" is not as long as "enum": it is ignored and the raw values are shown',
    "oneof-without-type": 'a titled "oneOf" without "type": "string" is read as a single-select',
    "items-oneof": 'a multi-select\'s "items.oneOf" is read as "items.anyOf"',
    "local-ref": 'a local "$ref" into "$defs" is followed; the MCP schema subset has no "$ref"',
    "default-ignored": "a default that does not satisfy its own field is ignored (never shown)",
    "secret-field": "a field seems to ask for a secret, which MCP forbids in form mode; the dialog warns the user",
    "pattern-not-ecma": 'a "pattern" uses syntax outside ECMA-262 (JSON Schema\'s regex dialect)',
    "url-verdict": "the URL is shown with a warning, or cannot be opened at all",
    "nullable-anyof": 'a property is "anyOf" with a "null" branch (an Optional field): the tray refuses it',
}

#: The ``message`` used when only a ``requestedSchema`` is checked (``--schema``).
SCHEMA_MESSAGE = "(the server's message)"

#: The method a params object is checked for.
_METHOD = "elicitation/create"


class InputError(ValueError):
    """The input is not something to check (not JSON, not an object): a usage error, exit 2."""


@dataclass(frozen=True)
class LintWarning:
    """One warning: ``id`` (a key of :data:`WARNING_IDS`), ``path`` (JSON Pointer into the
    params) and ``message`` (what the tray does, and how to fix it)."""

    id: str
    path: str
    message: str

    def to_json(self) -> dict[str, str]:
        """``{"id", "path", "message"}``."""
        return {"id": self.id, "path": self.path, "message": self.message}


@dataclass(frozen=True)
class Report:
    """The result of :func:`check`.

    Attributes:
        params: the params checked (``None`` when the text could not even be framed).
        error: the JSON-RPC error object the tray would answer (``{code, message, data?}``:
            -32602 with ``data.violations``; for text input also -32700/-32600 from the framing),
            or ``None`` when it would show a dialog.
        errors: ``error["data"]["violations"]``; for a framing error one ``{"path": "",
            "message"}``; empty when accepted.
        warnings: sorted by path, then id.
        request: the parsed request the dialog is built from (``None`` when refused).
    """

    params: dict[str, Any] | None
    error: dict[str, Any] | None
    errors: tuple[dict[str, str], ...] = ()
    warnings: tuple[LintWarning, ...] = ()
    request: ElicitationRequest | None = field(default=None, repr=False, compare=False)

    @property
    def accepted(self) -> bool:
        """Whether the tray would show a dialog (no JSON-RPC error)."""
        return self.error is None

    def exit_code(self, strict: bool = False) -> int:
        """0 accepted, 1 refused (or, with ``strict``, accepted with warnings)."""
        return 1 if not self.accepted or (strict and self.warnings) else 0

    def to_json(self) -> dict[str, Any]:
        """``{"errors": [{path, message}], "warnings": [{id, path, message}]}`` (``--json``)."""
        return {"errors": [dict(e) for e in self.errors], "warnings": [w.to_json() for w in self.warnings]}

    def render_png(self, out: str | Path, **options: Any) -> Path:
        """Render the dialog the tray would show to the PNG ``out`` (imports Qt); see
        :func:`elicit_tray.check.render.render_png` for ``options``.

        Raises:
            ValueError: the tray refuses the request (there is no dialog to render).
        """
        from .render import render_png

        if self.params is None or not self.accepted:
            raise ValueError("the tray refuses this request: there is no dialog to render")
        return render_png(self.params, out, **options)


def read_params(text: str | bytes, *, schema: bool = False) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """Frame ``text`` (one JSON value) as the tray reads an ``elicitation/create`` line.

    With ``schema`` the value is a bare ``requestedSchema``, checked inside
    ``{"message": SCHEMA_MESSAGE, "requestedSchema": ...}``. Newlines between tokens are read
    as spaces (a requester sends one line). The tray's own decoder then applies its limits
    (line length, nesting, number range, duplicate keys).

    Returns ``(params, None)``, or ``(None, error)`` with the -32700/-32600 error object the
    tray would answer.

    Raises:
        InputError: ``text`` is not one JSON value, or not an object.
    """
    from ..ipc import jsonrpc as rpc

    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    try:
        value = json.loads(raw)
    except ValueError as exc:
        raise InputError(f"not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise InputError(f"the {'schema' if schema else 'params'} must be a JSON object")
    body = raw.strip().replace(b"\r", b" ").replace(b"\n", b" ")
    if schema:
        body = b'{"message":' + json.dumps(SCHEMA_MESSAGE).encode() + b',"requestedSchema":' + body + b"}"
    line = b'{"jsonrpc":"2.0","id":1,"method":"' + _METHOD.encode() + b'","params":' + body + b"}"
    framed = rpc.LineSplitter().feed(line + b"\n")
    message = rpc.decode_line(framed[0])
    if isinstance(message, rpc.Request):
        return message.params, None
    assert isinstance(message, rpc.ErrorReply)
    return None, {"code": message.code, "message": message.message}


def check(params: Mapping[str, Any] | str | bytes, *, schema: bool = False) -> Report:
    """What the tray would answer to ``elicitation/create`` with ``params``, and why.

    Args:
        params: the params as a ``dict`` (e.g. what an MCP SDK sends), or their JSON text (then
            read with the tray's own decoder: :func:`read_params`).
        schema: ``params`` is a bare ``requestedSchema`` (checked under :data:`SCHEMA_MESSAGE`).

    Returns:
        A :class:`Report`; ``report.accepted`` says whether a dialog would be shown,
        ``report.errors`` are the tray's -32602 violations, ``report.warnings`` the rest.

    Raises:
        InputError: text that is not a JSON object (usage error).
        TypeError: ``params`` is neither a mapping nor text.

    Spec: MCP 2025-11-25 "Elicitation" (form and URL mode, requested schema); README "IPC
    contract" for the -32602 answer and the limits. Loads no Qt module.
    """
    if isinstance(params, (str, bytes, bytearray)):
        read, framing = read_params(params, schema=schema)
        if read is None:
            assert framing is not None
            return Report(None, framing, ({"path": "", "message": framing["message"]},))
        return _check(read)
    if not isinstance(params, Mapping):
        raise TypeError(f"check() takes the params as a dict or JSON text, not {type(params).__name__}")
    value = dict(params)
    if schema:
        value = {"message": SCHEMA_MESSAGE, "requestedSchema": value}
    return _check(value)


class _Quiet(logging.Filter):
    """Drops the parser's "ignoring ..." log lines while checking: the report says it."""

    def filter(self, record: logging.LogRecord) -> bool:
        return False


def _check(params: dict[str, Any]) -> Report:
    parse_log, quiet = logging.getLogger("elicit_tray.schema.parse"), _Quiet()
    parse_log.addFilter(quiet)
    try:
        return _checked(params)
    finally:
        parse_log.removeFilter(quiet)


def _checked(params: dict[str, Any]) -> Report:
    request, error = vet_create(params, Peer())
    errors = tuple(error["data"]["violations"]) if error is not None else ()
    warnings = [] if limit_violations(params) else _warnings(params, request)
    warnings.sort(key=lambda w: (w.path, w.id))
    return Report(params, error, errors, tuple(warnings), request)


# -- warnings ---------------------------------------------------------------------------------------


def _warnings(params: dict[str, Any], request: ElicitationRequest | None) -> list[LintWarning]:
    mode = params.get("mode", "form")
    if mode == "url":
        return _url_warnings(params, request)
    schema = params.get("requestedSchema")
    if mode != "form" or not isinstance(schema, dict) or not isinstance(schema.get("properties"), dict):
        return []
    found: list[LintWarning] = []
    listed = schema.get("required")
    required = listed if isinstance(listed, list) else []
    shown = _shown_fields(request)
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
    from ..request import for_display

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


def _field_warnings(
    schema: dict[str, Any], name: str, prop: Any, required: bool, shown: dict[str, FieldSpec] | None
) -> list[LintWarning]:
    base = "/requestedSchema" + _ptr("properties", name)
    resolved, ref = _resolve(schema, prop)
    if not isinstance(resolved, dict):
        return []
    found: list[LintWarning] = []
    branches = resolved.get("anyOf")
    if isinstance(branches, list) and {"type": "null"} in branches:
        found.append(
            LintWarning(
                "nullable-anyof",
                base + "/anyOf",
                (
                    '"anyOf" with a {"type": "null"} branch is how Pydantic renders an Optional field (X | None); '
                    "the MCP schema has no null and no anyOf, so the tray refuses the request: make the field "
                    'optional by leaving it out of "required" (give it a default), not by allowing null'
                ),
            )
        )
    for text_path, pattern in _patterns(resolved, base):
        found += _pattern_warnings(text_path, pattern)
    spec = shown.get(name) if shown is not None else _alone(schema, name, prop, required)
    if spec is None:  # refused: the errors say why
        return found
    if ref is not None:
        found.append(
            LintWarning(
                "local-ref",
                base + "/$ref",
                (
                    f'"$ref": "{ref}" is followed by this tray, but the MCP requested schema has no "$ref" and '
                    "other clients refuse or mis-render it; inline the definition in the property (Pydantic: "
                    'an Enum field renders as "$ref"; use Literal[...] or json_schema_extra)'
                ),
            )
        )
    holder, hpath = resolved, base
    if resolved.get("type") == "array" and isinstance(resolved.get("items"), dict):
        holder, hpath = resolved["items"], base + "/items"
        if "oneOf" in holder:
            found.append(
                LintWarning(
                    "items-oneof",
                    hpath + "/oneOf",
                    (
                        'a multi-select\'s options are "items.anyOf" in MCP; this tray reads "items.oneOf" the '
                        'same way, other clients may not: rename it to "anyOf"'
                    ),
                )
            )
    names = holder.get("enumNames")
    if isinstance(names, list) and isinstance(holder.get("enum"), list):
        values = holder["enum"]
        if len(names) == len(values):
            fix = (
                'a titled "oneOf": [{"const", "title"}]'
                if holder is resolved
                else 'titled "items.anyOf": [{"const", "title"}]'
            )
            found.append(
                LintWarning(
                    "legacy-enum-names",
                    hpath + "/enumNames",
                    (
                        f'"enumNames" is the legacy way to label options (MCP 2025-06-18); this tray shows its '
                        f"labels, clients of the current revision may show the raw values: use {fix}"
                    ),
                )
            )
        else:
            found.append(
                LintWarning(
                    "enum-names-length",
                    hpath + "/enumNames",
                    (
                        f'"enumNames" has {len(names)} labels for {len(values)} values: they cannot be paired, so '
                        "it is ignored and the raw values are shown; give one label per value"
                    ),
                )
            )
    if resolved.get("type") is None and "oneOf" in resolved:
        found.append(
            LintWarning(
                "oneof-without-type",
                base,
                (
                    'a titled "oneOf" without "type": this tray reads it as a single-select because every '
                    '"const" is a string; the MCP schema requires "type": "string" beside "oneOf"'
                ),
            )
        )
    if "default" in resolved and spec.default is None:
        found.append(
            LintWarning(
                "default-ignored",
                base + "/default",
                (
                    f"the default {json.dumps(resolved['default'], ensure_ascii=False)} is ignored and the field "
                    f"starts empty: {_default_problem(spec, resolved['default'])}; give a default the field accepts"
                ),
            )
        )
    if _looks_secret(spec):
        found.append(
            LintWarning(
                "secret-field",
                base,
                (
                    f'"{spec.title}" seems to ask for a secret: MCP forbids requesting passwords, tokens or keys '
                    "in form mode, and the dialog warns the user to decline; use URL mode for credentials"
                ),
            )
        )
    return found


def _looks_secret(spec: FieldSpec) -> bool:
    """The form dialog's own rule (``FormDialog.secret_fields``)."""
    from ..schema import looks_secret

    return looks_secret(spec)


def _default_problem(spec: FieldSpec, default: Any) -> str:
    """Why the parser ignored ``default`` (its own checks, in its order)."""
    from dataclasses import replace

    from ..schema import check_value
    from ..schema import parse as parse_module

    type_problem = getattr(parse_module, "_default_type_problem", None)
    problem = type_problem(spec, default) if type_problem is not None else None
    if problem is not None:
        return f"it is {problem}"
    problem = check_value(replace(spec, required=False), default)
    return f'the field\'s own check says "{problem}"' if problem else "it does not satisfy its own field"


def _patterns(prop: dict[str, Any], base: str) -> list[tuple[str, str]]:
    pattern = prop.get("pattern")
    if prop.get("type") == "string" and isinstance(pattern, str):
        return [(base + "/pattern", pattern)]
    return []


#: Syntax other regex dialects have and ECMA-262 has not (or reads differently), with the fix.
_FOREIGN: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\(\?P[<=>]"), 'Python\'s named groups "(?P<name>...)": write "(?<name>...)"'),
    (re.compile(r"\\[AZz]"), 'the anchors "\\A", "\\Z", "\\z": write "^" and "$"'),
    (
        re.compile(r"\(\?[aiLmsux]*(?:-[imsx]+)?[:)]"),
        'inline flags such as "(?i)": ECMA-262 has none; spell out both cases ("[Aa]")',
    ),
    (re.compile(r"\(\?>|[*+?}]\+"), "atomic groups and possessive quantifiers"),
    (
        re.compile(r"\[:(?:alnum|alpha|ascii|blank|cntrl|digit|graph|lower|print|punct|space|upper|word|xdigit):\]"),
        'POSIX classes such as "[:alpha:]": write "[A-Za-z]"',
    ),
    (re.compile(r"\\[hHRKGQEX]"), 'escapes such as "\\h", "\\R", "\\K", "\\Q...\\E"'),
)


def _pattern_warnings(path: str, pattern: str) -> list[LintWarning]:
    from ..schema.pattern import compile_problem

    if len(pattern) > MAX_PATTERN_CHARS:
        return []  # a limit violation already
    plain = re.sub(r"\\\\", "", pattern)  # an escaped backslash starts nothing
    foreign = [fix for regex, fix in _FOREIGN if regex.search(plain)]
    problem = compile_problem(pattern)
    if not foreign and problem is None:
        return []
    if foreign:
        what = "uses syntax outside ECMA-262, the regex dialect of JSON Schema: " + "; ".join(foreign)
    else:
        what = f"is not an ECMA-262 regular expression (with the u flag): {problem}"
    outcome = (
        "the tray refuses the request"
        if problem is not None
        else "the tray accepts it but matches something other than intended"
    )
    return [
        LintWarning(
            "pattern-not-ecma",
            path,
            f"the pattern {json.dumps(pattern, ensure_ascii=False)} {what}; "
            f"{outcome}. Pydantic's pattern= is not checked against ECMA-262",
        )
    ]


def _url_warnings(params: dict[str, Any], request: ElicitationRequest | None) -> list[LintWarning]:
    url = params.get("url")
    if not isinstance(url, str) or not url:
        return []
    if isinstance(request, UrlRequest):
        analysis = request.url_analysis
    else:
        from ..urlcheck import analyze_url

        analysis = analyze_url(url)
    if analysis.verdict == "ok":
        return []
    from ..urlcheck import REASONS

    why = "; ".join(f"{r} ({REASONS.get(r, '').rstrip('.')})" for r in analysis.reasons)
    effect = (
        "the dialog shows a prominent warning before Open"
        if analysis.verdict == "warn"
        else "Open is disabled: the user can only decline or cancel"
    )
    return [LintWarning("url-verdict", "/url", f'verdict "{analysis.verdict}": {effect}. Reasons: {why}')]


class _CallableModule(types.ModuleType):
    """This package, callable as :func:`check` (see the module docstring)."""

    def __call__(self, params: Mapping[str, Any] | str | bytes, *, schema: bool = False) -> Report:
        return check(params, schema=schema)


sys.modules[__name__].__class__ = _CallableModule
