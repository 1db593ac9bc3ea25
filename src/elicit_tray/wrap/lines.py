"""Raw JSON lines for the wrap proxy (no I/O; ``docs/wrap-design.md`` §2.5).

A line the proxy leaves alone is never parsed into Python objects: it is read in place
(:class:`~.rawjson.RawObject`, only the members a rule names are decoded). When it must
change one, it either edits the raw text of one member (:func:`raw_member`, :func:`with_id`:
every other byte unchanged) or re-encodes the whole message with :func:`encode`, which refuses
what it cannot write without loss (``1e400``, lone surrogates). :func:`parse_object` refuses
batches, non-JSON, invalid UTF-8 and duplicate keys. Ids are compared by :func:`id_key` (``1``
and ``"1"`` differ).
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..ipc.jsonrpc import INTERNAL_ERROR
from .actions import UNREACHABLE_MESSAGE
from .rawjson import Line, RawObject

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

_WS = re.compile(rb"[ \t\n\r]*")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise ValueError("duplicate key")
    return obj


def parse_object(line: Line) -> dict[str, Any] | None:
    """The JSON object on ``line``, fully parsed and checked, or None (not an object: batch,
    non-JSON, invalid UTF-8, duplicate keys; all forwarded untouched). Only for a line the
    proxy changes or acts on; to decide, :class:`~.rawjson.RawObject` reads it in place."""
    match = _WS.match(line)
    first = match.end() if match is not None else 0
    if line[first : first + 1] != b"{":
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


def ending(line: Line) -> bytes:
    """The terminator of ``line``: ``b"\\r\\n"``, ``b"\\n"`` or ``b""`` (a last partial line)."""
    if line.endswith(b"\r\n"):
        return b"\r\n"
    return b"\n" if line.endswith(b"\n") else b""


def id_key(value: Any) -> str:
    """Map key of a JSON-RPC id: ``1`` and ``"1"`` differ (§2.3.1)."""
    return json.dumps(value, sort_keys=True)


def raw_member(line: Line, *path: str) -> str | None:
    """The raw JSON text of the member at ``path`` (top-level keys down), exactly as on the line."""
    obj = RawObject.of(line)
    return None if obj is None else obj.text(*path)


def with_id(line: Line, raw_id: str) -> bytes | None:
    """``line`` with the raw text of its top-level ``id`` replaced by ``raw_id``; every other
    byte unchanged (a response passed on under another id, §2.3.4). One copy of the line."""
    obj = RawObject.of(line)
    span = None if obj is None else obj.span("id")
    if span is None:
        return None
    view = memoryview(line)
    return b"".join((view[: span[0]], raw_id.encode("utf-8", "surrogatepass"), view[span[1] :]))


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
