"""Reading an author's JSON text the way the tray reads an ``elicitation/create`` line: the
tray's own JSON-RPC framing and decoder (:mod:`elicit_tray.ipc.jsonrpc`), so the same bytes get
the same -32700/-32600 the tray would answer: a line over its length limit, invalid UTF-8,
nesting deeper than its limit, ``NaN``/``Infinity``, a number literal too long or out of range
(``1e400``), a duplicate key. Input is read bounded (:func:`read_input`): never more than one
byte over the line limit, whatever the file (``/dev/zero``, a FIFO that never ends). Used by
``elicit-tray check`` and ``elicit-tray ask``. Pure Python.
"""

from __future__ import annotations

import errno
import json
import re
import sys
from collections.abc import Mapping
from typing import Any, BinaryIO

from ..ipc import jsonrpc as rpc
from .report import InputError

__all__ = ["MAX_INPUT_BYTES", "SCHEMA_MESSAGE", "read_input", "read_params", "read_value", "refusal", "source_name"]

#: The ``message`` used when only a ``requestedSchema`` is checked (``--schema``).
SCHEMA_MESSAGE = "(the server's message)"
#: Most bytes of input read: the tray's line limit (what is longer is refused whatever follows,
#: so :func:`read_input` reads one byte more and stops).
MAX_INPUT_BYTES = rpc.MAX_LINE_BYTES

#: The line the params are framed in, as a requester sends them (``params`` last).
_PREFIX = b'{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":'
#: ... and with ``--schema``, the params around a bare ``requestedSchema``.
_SCHEMA_PREFIX = _PREFIX + b'{"message":' + json.dumps(SCHEMA_MESSAGE).encode() + b',"requestedSchema":'
#: Where the JSON decoder says it stopped (a syntax error, not a limit of the tray).
_POSITION = re.compile(r"line \d+ column \d+ \(char \d+\)$")


def source_name(source: str) -> str:
    """How the messages name ``source`` (a path, or ``-``: ``stdin``)."""
    return "stdin" if source == "-" else source


def read_input(source: str, stdin: BinaryIO | None = None) -> bytes:
    """The bytes of ``source`` (a path, or ``-`` for ``stdin``, default ``sys.stdin.buffer``),
    at most :data:`MAX_INPUT_BYTES` + 1: input longer than the tray's line limit is known to be
    over it after that many, so the rest (of ``/dev/zero``, of a FIFO that never ends) is never
    read or held.

    Raises:
        OSError: the file cannot be opened or read.
    """
    if source == "-":
        stream = stdin if stdin is not None else getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise OSError(errno.EBADF, "there is no standard input")
        return stream.read(MAX_INPUT_BYTES + 1)
    with open(source, "rb") as file:
        return file.read(MAX_INPUT_BYTES + 1)


def refusal(error: dict[str, Any]) -> str:
    """The words for a framing ``error`` (``{code, message}`` from :func:`read_params`):
    ``the tray would answer JSON-RPC -32700: Parse error: ...``."""
    return f"the tray would answer JSON-RPC {error['code']}: {error['message']}"


def read_params(text: str | bytes, *, schema: bool = False) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """Frame ``text`` (one JSON value) as the tray reads an ``elicitation/create`` line.

    The value becomes the ``params`` of a request line (with ``schema``, the ``requestedSchema``
    of ``{"message": SCHEMA_MESSAGE, "requestedSchema": ...}``), which the tray's
    :class:`~elicit_tray.ipc.jsonrpc.LineSplitter` and
    :func:`~elicit_tray.ipc.jsonrpc.decode_line` read with all their limits. A line break is
    read as a tab: whitespace between tokens (a requester sends one line), an invalid control
    character inside a string (as the raw line break would be). A syntax error is said as the
    tray says it for ``text`` on a line of its own, at its place in ``text`` (``line L column C
    (char N)``, as :mod:`json` counts them). Text longer than :data:`MAX_INPUT_BYTES` is looked
    at no further than that: it is over the line limit whatever follows.

    Returns ``(params, None)``, or ``(None, error)`` with the -32700/-32600 error object
    (``{"code", "message"}``) the tray would answer. More than one JSON value is -32700
    ``Extra data`` (what the tray answers for a line of two values).

    Raises:
        InputError: ``text`` is one JSON value, but not an object.
    """
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    raw = raw[: MAX_INPUT_BYTES + 1]
    prefix = _SCHEMA_PREFIX if schema else _PREFIX
    line = prefix + raw.replace(b"\r", b"\t").replace(b"\n", b"\t") + (b"}}" if schema else b"}")
    (framed,) = rpc.LineSplitter().feed(line + b"\n")  # never blank: one line or OVERSIZE
    message = rpc.decode_line(framed)
    if isinstance(message, rpc.ErrorReply) and message.code == rpc.PARSE_ERROR:
        placed = _POSITION.search(message.message) is not None  # a syntax error, not a limit
        return None, {"code": message.code, "message": (placed and _alone(raw)) or message.message}
    # The line was read as JSON: so is ``raw`` (less deep, its numbers and constants passed),
    # unless it holds more than one value (``{...}, "x": 1`` reads as more members of the frame).
    extra = _alone(raw)
    if extra is not None:
        return None, {"code": rpc.PARSE_ERROR, "message": extra}
    if not raw.lstrip(b" \t\r\n").startswith(b"{"):  # one value: an object or not (the tray reads null as {})
        raise InputError(f"the {'schema' if schema else 'params'} must be a JSON object")
    if isinstance(message, rpc.ErrorReply):  # a duplicate key
        return None, {"code": message.code, "message": message.message}
    assert isinstance(message, rpc.Request)  # the frame has an id and a method
    return message.params, None


def read_value(
    params: Mapping[str, Any], *, schema: bool = False
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """:func:`read_params` for params given as a value: the line the requester side writes for
    them (:func:`~elicit_tray.ipc.jsonrpc.encode` with ``allow_nan``, as
    :func:`elicit_tray.client.request` sends them), read back as the tray reads it. A value
    nested deeper than the encoder goes (or holding itself) gets the tray's answer for any
    nesting over its limit.

    Raises:
        TypeError: a value JSON cannot hold (a ``set``, an ``int`` of more than 4300 digits).
    """
    try:
        line = rpc.encode(dict(params), allow_nan=True)
    except RecursionError:
        return None, _too_deep()
    except ValueError as exc:  # a cycle, or an int too long for str()
        if "Circular" in str(exc):
            return None, _too_deep()
        raise TypeError(f"the params hold a value JSON cannot carry: {exc}") from None
    return read_params(line[:-1], schema=schema)


def _too_deep() -> dict[str, Any] | None:
    """The tray's answer for params nested deeper than it reads (its own words)."""
    return read_params(b"[" * rpc.MAX_JSON_DEPTH + b"]" * rpc.MAX_JSON_DEPTH)[1]


def _alone(raw: bytes) -> str | None:
    """The tray's -32700 message for ``raw`` read as a line of its own (``decode_line``): for a
    syntax error json's words with positions in ``raw`` (``Extra data: line 2 column 1 (char
    17)``); ``None`` when ``raw`` reads as JSON."""
    answer = rpc.decode_line(raw)
    return answer.message if isinstance(answer, rpc.ErrorReply) and answer.code == rpc.PARSE_ERROR else None
