"""Framing and JSON-RPC 2.0 envelopes of the IPC contract (pure Python, no Qt).

docs/design.md "IPC contract": one UTF-8 JSON message per line (as the MCP stdio transport);
lines over :data:`MAX_LINE_BYTES`, invalid UTF-8 or invalid JSON get the matching JSON-RPC
error (-32700 / -32600), with the request's own top-level ``id`` when it can be read before the
broken part, else ``null`` (never an ``id`` found nested in ``params`` or in a string).

Hostile input (README "IPC contract", every value documented there):

- a number literal longer than :data:`MAX_NUMBER_CHARS` characters, or one that does not fit a
  double (``1e400``): -32700 (nothing is ever rounded to infinity);
- JSON nested deeper than :data:`MAX_JSON_DEPTH` levels: -32700 (with the id when it can be read);
- a duplicate key in any object: -32600 (not "last one wins": the requester's JSON library
  and ours could otherwise read two different requests from the same bytes);
- a response (``result``/``error`` without ``method``) sent to the tray: ignored and logged.

The requester side (:mod:`elicit_tray.client`) builds its lines with :func:`request`,
:func:`notification` and :func:`encode`, and reads the tray's answers with
:func:`decode_reply`, so both ends speak through this one module.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, TypeGuard, cast

__all__ = [
    "MAX_LINE_BYTES",
    "PARSE_ERROR",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "INVALID_PARAMS",
    "INTERNAL_ERROR",
    "SERVER_BUSY",
    "MAX_JSON_DEPTH",
    "MAX_NUMBER_CHARS",
    "Request",
    "Notification",
    "Response",
    "ErrorReply",
    "Message",
    "LineSplitter",
    "OVERSIZE",
    "decode_line",
    "encode",
    "result",
    "error",
    "request",
    "notification",
    "RemoteError",
    "Reply",
    "decode_reply",
    "skip_ws",
]

#: Longest accepted line, in bytes, without its newline (1 MiB).
MAX_LINE_BYTES = 1024 * 1024
#: Deepest accepted nesting of arrays/objects in one message (the message object is level 1).
MAX_JSON_DEPTH = 64
#: Longest accepted number literal, in characters (a double needs at most 24).
MAX_NUMBER_CHARS = 100

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
#: Implementation-defined server error: a limit on pending requests (or connections) was hit;
#: retry after an answer arrives.
SERVER_BUSY = -32000

RequestId = str | int


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


Message = Request | Notification | Response | ErrorReply

#: Marker yielded by :class:`LineSplitter` for a line that was longer than the limit.
OVERSIZE = object()

_WS = re.compile(r"[ \t\n\r]*")
_KEY = re.compile(r'"(?:[^"\\\x00-\x1f]|\\.)*"')


def skip_ws(text: str, i: int) -> int:
    """The index of the first character at or after ``i`` that is not JSON whitespace (space,
    tab, newline, carriage return); ``len(text)`` when there is none."""
    match = _WS.match(text, i)  # `[...]*` matches at any index (empty at worst), so never None
    return match.end() if match is not None else i


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
    """The ``id`` of a line that could not be read, for its -32700 error: the line's own
    top-level ``id`` or ``None``, never an ``id`` nested in ``params`` or inside a string.

    The line (invalid UTF-8 read with ``surrogateescape``) is walked member by member as the
    top-level object it starts: each key is read as a JSON string and each value skipped with
    the C decoder, up to the first member that cannot be read. The id is a member ``"id"``
    whose value is a string (without undecodable bytes) or an integer and is followed by ``,``
    or ``}``. ``None`` when the line is not an object, no such member comes before the broken
    part, its value is of another type, or ``id`` appears twice. Work is linear in the line
    (the C scanner); never raises.
    """
    text = raw.decode("utf-8", "surrogateescape")
    decoder = json.JSONDecoder()
    ids: list[Any] = []
    i = skip_ws(text, 0)
    if not text.startswith("{", i):
        return None
    i += 1
    while True:
        i = skip_ws(text, i)
        key_match = _KEY.match(text, i)
        if key_match is None:
            break
        try:
            key = json.loads(key_match.group())
        except ValueError:
            break
        i = skip_ws(text, key_match.end())
        if not text.startswith(":", i):
            break
        i = skip_ws(text, i + 1)
        try:
            value, i = decoder.raw_decode(text, i)
        except (ValueError, RecursionError):
            break
        i = skip_ws(text, i)
        ended = text[i : i + 1]
        if ended not in (",", "}"):
            break  # a value followed by anything else (``5x``, or the end of a cut line) is not read
        if key == "id":
            ids.append(value)
        if ended == "}":
            break
        i += 1
    if len(ids) != 1:
        return None
    found = ids[0]
    if not _valid_id(found):
        return None
    if isinstance(found, str) and any("\ud800" <= c <= "\udfff" for c in found):
        return None  # undecodable bytes in the id: not the id the requester will match
    return found


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _parse_float(text: str) -> float:
    if len(text) > MAX_NUMBER_CHARS:
        raise ValueError(f"number literal longer than {MAX_NUMBER_CHARS} characters")
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"number {text[:40]} is out of range")
    return value


def _parse_int(text: str) -> int:
    if len(text) > MAX_NUMBER_CHARS:
        raise ValueError(f"number literal longer than {MAX_NUMBER_CHARS} characters")
    return int(text)


class _Objects:
    """``object_pairs_hook`` that notes duplicate keys (the outermost object closes last)."""

    def __init__(self) -> None:
        self.duplicate: str | None = None
        self.top_duplicates: set[str] = set()

    def __call__(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        self.top_duplicates = set()
        if len(obj) != len(pairs):
            seen: set[str] = set()
            for key, _value in pairs:
                if key in seen:
                    self.top_duplicates.add(key)
                    if self.duplicate is None:
                        self.duplicate = key
                seen.add(key)
        return obj


def _too_deep(obj: Any, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether arrays/objects nest deeper than ``limit`` (iterative: no recursion)."""
    stack: list[tuple[Any, int]] = [(obj, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        children = node.values() if isinstance(node, dict) else node
        for child in children:
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1))
    return False


def _valid_id(value: Any) -> TypeGuard[RequestId]:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def decode_line(line: Any) -> Message:
    """Decode one framed line (``bytes``, or ``(OVERSIZE, head)`` from the splitter).

    Returns a :class:`Request`, :class:`Notification`, :class:`Response` or an
    :class:`ErrorReply` (-32700 for oversize lines, invalid UTF-8 or invalid JSON; -32600
    for a JSON value that is not a valid JSON-RPC 2.0 request). Never raises.
    """
    if isinstance(line, tuple) and line[0] is OVERSIZE:
        return ErrorReply(_salvage_id(line[1]), PARSE_ERROR, f"Parse error: message longer than {MAX_LINE_BYTES} bytes")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return ErrorReply(_salvage_id(line), PARSE_ERROR, f"Parse error: invalid UTF-8 ({exc.reason})")
    objects = _Objects()
    too_deep = f"Parse error: JSON nested deeper than {MAX_JSON_DEPTH} levels"
    try:
        obj = json.loads(
            text,
            parse_constant=_reject_constant,
            parse_float=_parse_float,
            parse_int=_parse_int,
            object_pairs_hook=objects,
        )
    except RecursionError:
        return ErrorReply(_salvage_id(line), PARSE_ERROR, too_deep)
    except ValueError as exc:
        return ErrorReply(_salvage_id(line), PARSE_ERROR, f"Parse error: {exc}")
    if not isinstance(obj, dict):
        return ErrorReply(None, INVALID_REQUEST, "Invalid Request: expected a JSON object")
    raw_id = obj.get("id")
    has_id = "id" in obj
    reply_id = raw_id if _valid_id(raw_id) and "id" not in objects.top_duplicates else None
    if "method" not in obj and ("result" in obj or "error" in obj):
        return Response(raw_id)  # never answered, even when malformed (no ping-pong of errors)
    if objects.duplicate is not None:
        return ErrorReply(
            reply_id, INVALID_REQUEST, f"Invalid Request: duplicate key {json.dumps(objects.duplicate)[:200]}"
        )
    if _too_deep(obj):
        return ErrorReply(reply_id, PARSE_ERROR, too_deep)
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
        return Request(cast(RequestId, raw_id), method, params)  # a valid id: checked above
    return Notification(method, params)


def encode(message: dict[str, Any], *, allow_nan: bool = False) -> bytes:
    """One wire line: compact UTF-8 JSON plus ``\\n`` (non-ASCII kept as UTF-8).

    A string holding a lone surrogate (it can arrive as a ``"\\ud800"`` escape and be echoed,
    e.g. in a "Method not found" message) is sent as that escape instead of failing.
    ``allow_nan``: write NaN and infinities as Python does (``NaN``, ``Infinity``) instead of
    refusing them; the requester side sends what it was given and lets the tray answer -32700.

    Raises:
        ValueError: for NaN or infinite numbers (not JSON) unless ``allow_nan``.
    """
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=allow_nan)
    try:
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        return json.dumps(message, separators=(",", ":"), allow_nan=allow_nan).encode("ascii") + b"\n"


def result(request_id: RequestId, value: dict[str, Any]) -> dict[str, Any]:
    """A JSON-RPC success response."""
    return {"jsonrpc": "2.0", "id": request_id, "result": value}


def error(request_id: RequestId | None, code: int, message: str, data: Any = None) -> dict[str, Any]:
    """A JSON-RPC error response (``id`` null when it could not be read)."""
    err: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": err}


def request(request_id: RequestId, method: str, params: dict[str, Any]) -> dict[str, Any]:
    """A JSON-RPC request (it gets exactly one response with ``request_id``)."""
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}


def notification(method: str, params: dict[str, Any]) -> dict[str, Any]:
    """A JSON-RPC notification (no ``id``: it never gets a response)."""
    return {"jsonrpc": "2.0", "method": method, "params": params}


@dataclass(frozen=True)
class RemoteError:
    """The error object of a response read by :func:`decode_reply`: ``code`` (-32603 when the
    peer sent none), ``message`` (``""`` when none) and ``data`` (``None`` when none)."""

    code: int
    message: str
    data: Any = None


@dataclass(frozen=True)
class Reply:
    """A response read by a requester (:func:`decode_reply`): ``error`` is ``None`` for a
    success, whose value is ``result``."""

    id: Any
    result: Any = None
    error: RemoteError | None = None


def decode_reply(line: bytes) -> Reply | None:
    """Read one line the tray app wrote to a requester: a :class:`Reply` for a response (an
    object with ``result`` or ``error``), ``None`` for any other JSON object (not an answer).

    Raises:
        ValueError: the line is not a JSON object.
    """
    obj = json.loads(line)
    if not isinstance(obj, dict):
        raise ValueError(f"expected a JSON-RPC response object, got {type(obj).__name__}")
    if "error" in obj:
        err = obj["error"]
        if not isinstance(err, dict):
            return Reply(obj.get("id"), error=RemoteError(INTERNAL_ERROR, str(err)))
        return Reply(
            obj.get("id"), error=RemoteError(err.get("code", INTERNAL_ERROR), err.get("message", ""), err.get("data"))
        )
    if "result" in obj:
        return Reply(obj.get("id"), obj["result"])
    return None
