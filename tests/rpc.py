"""The one set of JSON-RPC builders of the tests: what a requester writes, what the tray answers.

Written out here rather than taken from :mod:`elicit_tray.ipc.jsonrpc`, so that a test's input
and expected answer do not depend on the code under test.

- Messages (dicts): :func:`request`, :func:`notification`, :func:`create`, :func:`cancelled`,
  :func:`complete`; answers: :func:`result`, :func:`pong`, :func:`error` (any non-empty
  ``message`` unless one is given: :data:`ANY_STR`).
- Lines (bytes, one ``\\n`` at the end): :func:`line` of a message, or :func:`request_line`,
  :func:`create_line`, :func:`ping_line`, :func:`notification_line`.
"""

from __future__ import annotations

import json
from typing import Any

CREATE = "elicitation/create"


class _AnyStr:
    """Equal to any non-empty ``str`` (for the free-text ``message`` of JSON-RPC errors)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and bool(other)

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "<any non-empty str>"


ANY_STR: Any = _AnyStr()


# -- what a requester writes -------------------------------------------------------------------------


def request(request_id: Any, method: str, params: Any = None) -> dict[str, Any]:
    """A request; ``params`` left out when None."""
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def notification(method: str, params: Any = None) -> dict[str, Any]:
    """A notification (no id); ``params`` left out when None."""
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return message


def create(request_id: Any, params: dict[str, Any]) -> dict[str, Any]:
    """``elicitation/create`` with ``params``."""
    return request(request_id, CREATE, params)


def cancelled(request_id: Any) -> dict[str, Any]:
    """``notifications/cancelled`` for the request ``request_id``."""
    return notification("notifications/cancelled", {"requestId": request_id})


def complete(elicitation_id: Any) -> dict[str, Any]:
    """``notifications/elicitation/complete`` for the URL elicitation ``elicitation_id``."""
    return notification("notifications/elicitation/complete", {"elicitationId": elicitation_id})


def line(message: Any) -> bytes:
    """``message`` as one newline-terminated line."""
    return json.dumps(message).encode("utf-8") + b"\n"


def request_line(request_id: Any, method: str, params: Any = None) -> bytes:
    return line(request(request_id, method, params))


def notification_line(method: str, params: Any = None) -> bytes:
    return line(notification(method, params))


def create_line(request_id: Any, params: dict[str, Any]) -> bytes:
    return line(create(request_id, params))


def ping_line(request_id: Any) -> bytes:
    return request_line(request_id, "ping")


# -- what the tray answers ---------------------------------------------------------------------------


def result(request_id: Any, value: Any) -> dict[str, Any]:
    """A success response."""
    return {"jsonrpc": "2.0", "id": request_id, "result": value}


def pong(request_id: Any) -> dict[str, Any]:
    """The exact answer to ``ping``."""
    return result(request_id, {})


def error(request_id: Any, code: int, message: Any = ANY_STR, data: Any = None) -> dict[str, Any]:
    """An error response as the tray writes it (any non-empty message by default; ``data``
    left out when None)."""
    err: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": err}
