"""The limits on what one request may ask to show, and the check against them (pure Python).

README "IPC contract", limits table: a request over any of them gets -32602 with one violation
per excess (:func:`limit_violations`), and nothing else is checked or built. The limits of the
framing (line length, JSON depth, number length) are in :mod:`elicit_tray.ipc.jsonrpc`, the
pending and connection limits in :mod:`elicit_tray.ipc.protocol` and :mod:`elicit_tray.ipc.server`.
"""

from __future__ import annotations

from typing import Any, TypeGuard

from .request import FLOW_KEY, MAX_CMDLINE_BYTES, REQUESTER_KEY
from .schema import Violation
from .schema.pattern import MAX_PATTERN_CHARS
from .schema.pointer import pointer, ref_tokens

__all__ = [
    "MAX_MESSAGE_CHARS",
    "MAX_TEXT_CHARS",
    "MAX_PROPERTIES",
    "MAX_OPTIONS",
    "MAX_FORM_OPTIONS",
    "MAX_URL_CHARS",
    "MAX_PATTERN_CHARS",
    "MAX_CMDLINE_BYTES",
    "limit_violations",
]

#: Longest ``message``, in characters (code points).
MAX_MESSAGE_CHARS = 10_000
#: Longest title, description, property name, option value or title (``enum``, ``enumNames``,
#: ``const``), and self-reported requester string, in characters.
MAX_TEXT_CHARS = 1_000
#: Most properties (form fields) in a ``requestedSchema`` (docs/design.md "Targets": 200-field forms).
MAX_PROPERTIES = 256
#: Most options in one ``enum``, ``enumNames``, ``oneOf`` or ``anyOf`` list.
MAX_OPTIONS = 200
#: Most options in one form, all its selects together (a ``$ref`` counts each time it is used):
#: every option of a multi-select is a widget, so this bounds what one request builds
#: (measured: 256 fields x 200 options stalled the app for 8.2 s; at this limit a form builds in
#: about 0.2 s of batched UI-thread work and under 20 MiB).
MAX_FORM_OPTIONS = 512
#: Longest ``url`` (URL mode), in characters.
MAX_URL_CHARS = 8_192
# MAX_PATTERN_CHARS (longest ``pattern``) lives with the pattern compiler in schema.pattern and
# MAX_CMDLINE_BYTES (how much of /proc/<pid>/cmdline is read) with Peer in request; both are
# re-exported here so that every limit is found in one place.
_TEXT_KEYS = frozenset({"title", "description", "const"})
_OPTION_LISTS = frozenset({"enum", "enumNames", "oneOf", "anyOf"})
_NAMED_MAPS = frozenset({"properties", "$defs", "definitions"})


def _option_count(schema: dict[str, Any], prop: Any) -> int:
    """How many options property ``prop`` shows: its ``enum``/``oneOf``, or its ``items``'
    ``enum``/``anyOf``/``oneOf``, after following local ``$ref`` (a few hops, as the parser)."""
    for _ in range(5):
        if not (isinstance(prop, dict) and isinstance(prop.get("$ref"), str)):
            break
        tokens = ref_tokens(prop["$ref"])
        section, name = tokens[0], "/".join(tokens[1:])  # read as the parser reads it
        target = schema.get(section)
        prop = target.get(name) if isinstance(target, dict) else None
    if not isinstance(prop, dict):
        return 0
    items = prop.get("items")
    holder: dict[str, Any] = items if isinstance(items, dict) else prop
    lists = (holder.get(key) for key in ("enum", "oneOf", "anyOf"))
    return sum(len(options) for options in lists if isinstance(options, list))


def limit_violations(params: dict[str, Any]) -> list[Violation]:
    """Every way ``params`` exceeds the request limits or holds a NUL character (U+0000).

    Walks ``params`` iteratively (no recursion; depth is already bounded by the framing).
    Returns the violations sorted by path (JSON Pointers into ``params``), ``[]`` within the
    limits (README "IPC contract", limits table). Raises nothing for a ``dict``.
    """
    problems = _top_level_violations(params) + _walk_violations(params)
    problems.sort(key=lambda v: v.path)
    return problems


def _too_long(value: Any, limit: int) -> TypeGuard[str]:
    return isinstance(value, str) and len(value) > limit


def _longer(path: str, value: str, limit: int) -> Violation:
    return Violation(path, f"longer than {limit} characters ({len(value)})")


def _top_level_violations(params: dict[str, Any]) -> list[Violation]:
    """The limits on named places: ``message``, ``url``, the requester's strings, and the
    number of properties (or, within that, of options) of the ``requestedSchema``."""
    problems: list[Violation] = []
    for key, limit in (("message", MAX_MESSAGE_CHARS), ("url", MAX_URL_CHARS)):
        value = params.get(key)
        if _too_long(value, limit):
            problems.append(_longer(f"/{key}", value, limit))
    meta = params.get("_meta")
    requester = meta.get(REQUESTER_KEY) if isinstance(meta, dict) else None
    if isinstance(requester, dict):
        for key, value in requester.items():
            if _too_long(value, MAX_TEXT_CHARS):
                problems.append(_longer(pointer("_meta", REQUESTER_KEY, key), value, MAX_TEXT_CHARS))
    flow = meta.get(FLOW_KEY) if isinstance(meta, dict) else None
    if _too_long(flow, MAX_TEXT_CHARS):
        problems.append(_longer(pointer("_meta", FLOW_KEY), flow, MAX_TEXT_CHARS))
    schema = params.get("requestedSchema")
    if not (isinstance(schema, dict) and isinstance(schema.get("properties"), dict)):
        return problems
    where, count = "/requestedSchema/properties", len(schema["properties"])
    if count > MAX_PROPERTIES:
        problems.append(Violation(where, f"more than {MAX_PROPERTIES} properties ({count})"))
        return problems
    options = sum(_option_count(schema, prop) for prop in schema["properties"].values())
    if options > MAX_FORM_OPTIONS:
        problems.append(Violation(where, f"more than {MAX_FORM_OPTIONS} options in the form ({options})"))
    return problems


def _walk_violations(params: dict[str, Any]) -> list[Violation]:
    """One walk over all of ``params``: NUL anywhere; inside ``requestedSchema``, the text,
    pattern, option-list and name limits. A node's place is kept as its keys; the JSON Pointer
    is written only for a violation."""
    problems: list[Violation] = []
    stack: list[tuple[Any, tuple[str, ...], str | None, bool]] = [(params, (), None, False)]
    while stack:
        node, parts, parent_key, in_schema = stack.pop()
        if isinstance(node, dict):
            items: Any = node.items()
        elif isinstance(node, list):
            items = ((str(i), v) for i, v in enumerate(node))
        else:
            if isinstance(node, str) and "\x00" in node:
                problems.append(Violation(pointer(*parts), "contains a NUL character (U+0000)"))
            elif in_schema and _too_long(node, MAX_TEXT_CHARS) and parent_key in _TEXT_KEYS | {"enum", "enumNames"}:
                problems.append(_longer(pointer(*parts), node, MAX_TEXT_CHARS))
            elif in_schema and parent_key == "pattern" and _too_long(node, MAX_PATTERN_CHARS):
                problems.append(_longer(pointer(*parts), node, MAX_PATTERN_CHARS))
            continue
        if in_schema and parent_key in _OPTION_LISTS and isinstance(node, list) and len(node) > MAX_OPTIONS:
            problems.append(Violation(pointer(*parts), f"more than {MAX_OPTIONS} options ({len(node)})"))
        is_dict = isinstance(node, dict)
        for key, value in items:
            if is_dict:
                if "\x00" in key:
                    problems.append(Violation(pointer(*parts, key), "the key contains a NUL character (U+0000)"))
                elif in_schema and parent_key in _NAMED_MAPS and len(key) > MAX_TEXT_CHARS:
                    problems.append(
                        Violation(
                            pointer(*parts, key), f"the name is longer than {MAX_TEXT_CHARS} characters ({len(key)})"
                        )
                    )
                child_key: str | None = key
            else:
                child_key = parent_key  # items of a list: judged by the list's key
            stack.append((value, (*parts, key), child_key, in_schema or (not parts and key == "requestedSchema")))
    return problems
