"""Reading an author's JSON text the way the tray reads an ``elicitation/create`` line: the
tray's own JSON-RPC framing and decoder, so a duplicate key or ``1e400`` gets the same
-32700/-32600 the tray would answer. Pure Python.
"""

from __future__ import annotations

import json
from typing import Any

from ..ipc import jsonrpc as rpc
from .report import InputError

__all__ = ["SCHEMA_MESSAGE", "read_params"]

#: The ``message`` used when only a ``requestedSchema`` is checked (``--schema``).
SCHEMA_MESSAGE = "(the server's message)"

#: The method a params object is checked for.
_METHOD = "elicitation/create"


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
