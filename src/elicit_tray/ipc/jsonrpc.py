"""Framing and JSON-RPC 2.0 envelopes of the IPC contract (pure Python, no Qt).

DESIGN.md "IPC contract": one UTF-8 JSON message per line (as the MCP stdio transport);
lines over :data:`MAX_LINE_BYTES`, invalid UTF-8 or invalid JSON get the matching JSON-RPC
error (-32700 / -32600), with the request's ``id`` when one can be read, else ``null``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Union

__all__ = [
    "MAX_LINE_BYTES", "PARSE_ERROR", "INVALID_REQUEST", "METHOD_NOT_FOUND", "INVALID_PARAMS",
    "INTERNAL_ERROR", "Request", "Notification", "Response", "ErrorReply", "Message",
    "LineSplitter", "OVERSIZE", "decode_line", "encode", "result", "error",
]

#: Longest accepted line, in bytes, without its newline (1 MiB).
MAX_LINE_BYTES = 1024 * 1024

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

RequestId = Union[str, int]


@dataclass(frozen=True)
class Request:
    """A JSON-RPC request: it gets exactly one response."""

    id: RequestId
    method: str
    params: dict[str, Any]


@dataclass(frozen=True)
class Notification:
    """A JSON-RPC notification: it never gets a response."""

    method: str
    params: dict[str, Any]


@dataclass(frozen=True)
class Response:
    """A response sent *to* us (a requester is not supposed to send one); ignored."""

    id: Any


@dataclass(frozen=True)
class ErrorReply:
    """A line that could not be understood, with the error to send back (``id`` may be None)."""

    id: RequestId | None
    code: int
    message: str


Message = Union[Request, Notification, Response, ErrorReply]

#: Marker yielded by :class:`LineSplitter` for a line that was longer than the limit.
OVERSIZE = object()

_ID_RE = re.compile(rb'"id"\s*:\s*(-?\d{1,15}(?![\d.eE])|"(?:[^"\\]|\\.){0,200}")')


class LineSplitter:
    """Splits a byte stream into lines of at most ``max_bytes`` (default 1 MiB).

    ``feed(data) -> list[bytes | tuple[OVERSIZE, bytes]]``: complete lines without their
    ``\\n`` (a ``\\r`` before it is dropped; blank lines are skipped). A line longer than the
    limit is discarded up to its newline and reported once as ``(OVERSIZE, first 4 KiB)`` so
    its id can still be read; the stream resynchronises on the next line and memory stays
    bounded by ``max_bytes``.
    """

    def __init__(self, max_bytes: int = MAX_LINE_BYTES):
        self.max_bytes = max_bytes
        self._buf = bytearray()
        self._skipping = False
        self._skipped_head = b""

    def feed(self, data: bytes) -> list[Any]:
        out: list[Any] = []
        start = 0
        while True:
            nl = data.find(b"\n", start)
            chunk = data[start:] if nl < 0 else data[start:nl]
            if self._skipping:
                if nl >= 0:
                    self._skipping = False
                    out.append((OVERSIZE, self._skipped_head))
            else:
                self._buf += chunk
                if len(self._buf) > self.max_bytes:
                    self._skipped_head = bytes(self._buf[:4096])
                    self._buf.clear()
                    if nl >= 0:
                        out.append((OVERSIZE, self._skipped_head))
                    else:
                        self._skipping = True
                elif nl >= 0:
                    line = bytes(self._buf).rstrip(b"\r")
                    self._buf.clear()
                    if line.strip():
                        out.append(line)
            if nl < 0:
                return out
            start = nl + 1


def _salvage_id(raw: bytes) -> RequestId | None:
    """Best-effort ``id`` of a line that is not valid JSON (for the error response)."""
    match = _ID_RE.search(raw)
    if not match:
        return None
    try:
        value = json.loads(match.group(1))
    except ValueError:
        return None
    return value if isinstance(value, (str, int)) else None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _valid_id(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def decode_line(line: Any) -> Message:
    """Decode one framed line (``bytes``, or ``(OVERSIZE, head)`` from the splitter).

    Returns a :class:`Request`, :class:`Notification`, :class:`Response` or an
    :class:`ErrorReply` (-32700 for oversize lines, invalid UTF-8 or invalid JSON; -32600
    for a JSON value that is not a valid JSON-RPC 2.0 request). Never raises.
    """
    if isinstance(line, tuple) and line[0] is OVERSIZE:
        return ErrorReply(_salvage_id(line[1]), PARSE_ERROR,
                          f"Parse error: message longer than {MAX_LINE_BYTES} bytes")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return ErrorReply(_salvage_id(line), PARSE_ERROR, f"Parse error: invalid UTF-8 ({exc.reason})")
    try:
        obj = json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as exc:
        return ErrorReply(_salvage_id(line), PARSE_ERROR, f"Parse error: {exc}")
    if not isinstance(obj, dict):
        return ErrorReply(None, INVALID_REQUEST, "Invalid Request: expected a JSON object")
    raw_id = obj.get("id")
    has_id = "id" in obj
    reply_id = raw_id if _valid_id(raw_id) else None
    if "method" not in obj and ("result" in obj or "error" in obj):
        return Response(raw_id)
    if obj.get("jsonrpc") != "2.0":
        return ErrorReply(reply_id, INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"')
    method = obj.get("method")
    if not isinstance(method, str):
        return ErrorReply(reply_id, INVALID_REQUEST, 'Invalid Request: "method" must be a string')
    if has_id and not _valid_id(raw_id):
        return ErrorReply(None, INVALID_REQUEST, 'Invalid Request: "id" must be a string or an integer')
    params = obj.get("params", {})
    if params is None:
        params = {}
    if not isinstance(params, dict):
        if has_id:
            return ErrorReply(raw_id, INVALID_PARAMS, 'Invalid params: "params" must be an object')
        params = {}
    if has_id:
        return Request(raw_id, method, params)
    return Notification(method, params)


def encode(message: dict[str, Any]) -> bytes:
    """One wire line: compact UTF-8 JSON plus ``\\n`` (non-ASCII kept as UTF-8).

    A string holding a lone surrogate (it can arrive as a ``"\\ud800"`` escape and be echoed,
    e.g. in a "Method not found" message) is sent as that escape instead of failing.

    Raises:
        ValueError: for NaN or infinite numbers (not JSON).
    """
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    try:
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        return json.dumps(message, separators=(",", ":"), allow_nan=False).encode("ascii") + b"\n"


def result(request_id: RequestId, value: dict[str, Any]) -> dict[str, Any]:
    """A JSON-RPC success response."""
    return {"jsonrpc": "2.0", "id": request_id, "result": value}


def error(request_id: RequestId | None, code: int, message: str, data: Any = None) -> dict[str, Any]:
    """A JSON-RPC error response (``id`` null when it could not be read)."""
    err: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": err}
