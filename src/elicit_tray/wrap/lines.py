"""Raw JSON lines for the wrap proxy (no I/O; ``docs/wrap-design.md`` §2.5).

A line the proxy leaves alone is never parsed into anything it writes back. When it must
change one, it either edits the raw text of one member (:func:`raw_member`, :func:`with_id`:
every other byte unchanged) or re-encodes the whole message with :func:`encode`, which refuses
what it cannot write without loss (``1e400``, lone surrogates). :func:`parse_object` refuses
batches, non-JSON, invalid UTF-8 and duplicate keys. Ids are compared by :func:`id_key` (``1``
and ``"1"`` differ).
"""

from __future__ import annotations

import json
from typing import Any

from ..ipc.jsonrpc import INTERNAL_ERROR, skip_ws
from .actions import UNREACHABLE_MESSAGE

__all__ = [
    "elicitation_mode",
    "encode",
    "ending",
    "error_line",
    "id_key",
    "parse_object",
    "raw_member",
    "with_id",
]

_DECODER = json.JSONDecoder()


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise ValueError("duplicate key")
    return obj


def parse_object(line: bytes) -> dict[str, Any] | None:
    """The JSON object on ``line``, or None (not an object: batch, non-JSON, invalid UTF-8,
    duplicate keys; all forwarded untouched)."""
    start = line.lstrip()[:1]
    if start != b"{":
        return None
    try:
        obj = json.loads(line, object_pairs_hook=_no_duplicates)
    except (ValueError, RecursionError):
        return None
    return obj if isinstance(obj, dict) else None


def encode(obj: Any) -> bytes | None:
    """Compact UTF-8 JSON, or None if it cannot be written without loss (inf/nan from
    ``1e400``, lone surrogates)."""
    try:
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
    except (ValueError, UnicodeEncodeError, TypeError):
        return None


def ending(line: bytes) -> bytes:
    """The terminator of ``line``: ``b"\\r\\n"``, ``b"\\n"`` or ``b""`` (a last partial line)."""
    if line.endswith(b"\r\n"):
        return b"\r\n"
    return b"\n" if line.endswith(b"\n") else b""


def id_key(value: Any) -> str:
    """Map key of a JSON-RPC id: ``1`` and ``"1"`` differ (§2.3.1)."""
    return json.dumps(value, sort_keys=True)


def _members(text: str, start: int) -> dict[str, tuple[int, int]] | None:
    """Spans ``(begin, end)`` of the raw value text of each member of the JSON object that
    starts at ``text[start]`` (after whitespace); None when it is not a well-formed object."""
    try:
        idx = skip_ws(text, start)
        if text[idx] != "{":
            return None
        idx = skip_ws(text, idx + 1)
        spans: dict[str, tuple[int, int]] = {}
        if text[idx] == "}":
            return spans
        while True:
            if text[idx] != '"':
                return None
            key, idx = _DECODER.raw_decode(text, idx)
            idx = skip_ws(text, idx)
            if text[idx] != ":":
                return None
            begin = skip_ws(text, idx + 1)
            _value, end = _DECODER.raw_decode(text, begin)
            spans[key] = (begin, end)
            idx = skip_ws(text, end)
            if text[idx] == "}":
                return spans
            if text[idx] != ",":
                return None
            idx = skip_ws(text, idx + 1)
    except (ValueError, IndexError, RecursionError):
        return None


def raw_member(line: bytes, *path: str) -> str | None:
    """The raw JSON text of the member at ``path`` (top-level keys down), exactly as on the line."""
    text = line.decode("utf-8", "surrogatepass")
    start = 0
    span = None
    for key in path:
        spans = _members(text, start)
        if spans is None or key not in spans:
            return None
        span = spans[key]
        start = span[0]
    return None if span is None else text[span[0] : span[1]]


def with_id(line: bytes, raw_id: str) -> bytes | None:
    """``line`` with the raw text of its top-level ``id`` replaced by ``raw_id``; every other
    byte unchanged (a response passed on under another id, §2.3.4)."""
    text = line.decode("utf-8", "surrogatepass")
    spans = _members(text, 0)
    if spans is None or "id" not in spans:
        return None
    begin, end = spans["id"]
    return (text[:begin] + raw_id + text[end:]).encode("utf-8", "surrogatepass")


def error_line(raw_id: str, error: dict[str, Any]) -> bytes:
    """A JSON-RPC error response line: id ``raw_id`` (raw text, as the request wrote it) and
    ``error`` (``{code, message, data?}``; the unreachable error if it cannot be encoded)."""
    body = encode(error) or encode({"code": INTERNAL_ERROR, "message": UNREACHABLE_MESSAGE})
    assert body is not None
    return b'{"jsonrpc":"2.0","id":' + raw_id.encode("utf-8", "surrogatepass") + b',"error":' + body + b"}\n"


def elicitation_mode(params: Any) -> str | None:
    """The ``mode`` of elicitation params (``"form"`` when absent), or None if not a string."""
    if not isinstance(params, dict):
        return None
    mode = params.get("mode", "form")
    return mode if isinstance(mode, str) else None
