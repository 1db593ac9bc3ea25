"""What the dispatcher answers to an ``elicitation/create``, in bytes and in the journal
(no I/O, no asyncio, no Qt): one function per step, each returning a value, never raising to
steer the dispatcher.

- :func:`vet_create`: params -> the typed request, or the -32602 error object to send instead.
- :func:`answer`: the UI's outcome -> the one line to send (:class:`Answer`): its result, or a
  -32603 error for a :class:`~elicit_tray.request.Failed` outcome and for one that cannot be
  encoded; never an action the user did not take.
- :func:`request_record`: the journal's ``elicitation`` fields of a request that got that far.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from ..elicitation import ParamsError, parse_elicit_params
from ..logs import redact_url
from ..request import Accepted, ElicitationRequest, Failed, Outcome, Peer, UrlRequest, outcome_kind, outcome_to_result
from . import jsonrpc as rpc

__all__ = ["MAX_VIOLATIONS", "Answer", "answer", "request_record", "vet_create"]

#: Most violations listed in one -32602 error (the first ones by path).
MAX_VIOLATIONS = 50

log = logging.getLogger(__name__)


def vet_create(
    params: dict[str, Any], peer: Peer | None = None
) -> tuple[ElicitationRequest | None, dict[str, Any] | None]:
    """How the tray reads the params of an ``elicitation/create``: ``(request, None)`` when it
    would show a dialog for them, ``(None, error)`` when it answers -32602 instead.

    ``error`` is the JSON-RPC error object the dispatcher sends, ``{"code": -32602, "message":
    "Invalid params: ...", "data": {"violations": [{"path", "message"}, ...]}}``, listing at
    most :data:`MAX_VIOLATIONS` violations (the first by path order of
    :func:`~elicit_tray.elicitation.parse_elicit_params`). Pure (no I/O, no Qt): the
    dispatcher and ``elicit-tray check`` both answer from it. Raises nothing for a ``dict``
    (README "IPC contract", limits table).
    """
    try:
        return parse_elicit_params(params, peer), None
    except ParamsError as exc:
        shown = exc.violations[:MAX_VIOLATIONS]
        return None, {
            "code": rpc.INVALID_PARAMS,
            "message": f"Invalid params: {ParamsError(shown)}",
            "data": {"violations": [v.to_json() for v in shown]},
        }


@dataclass(frozen=True)
class Answer:
    """The one line that answers a request (``data``, encoded with its newline) and how the
    journal records it: the outcome ``kind`` (``accept``, ``decline``, ``cancel`` or ``error``)
    and ``extra`` fields (``fields``/``content`` of an accept; ``code``/``error`` of an error)."""

    data: bytes
    kind: str
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def error(cls, request_id: rpc.RequestId, message: str) -> Answer:
        """A -32603 error with ``message``: never an action."""
        return cls(
            rpc.encode(rpc.error(request_id, rpc.INTERNAL_ERROR, message)),
            "error",
            {"code": rpc.INTERNAL_ERROR, "error": message},
        )


def answer(request: ElicitationRequest, request_id: rpc.RequestId, outcome: Outcome, *, log_values: bool) -> Answer:
    """The answer to ``request`` (id ``request_id``) for the UI's ``outcome``.

    A :class:`~elicit_tray.request.Failed` outcome becomes a -32603 error with its message; an
    outcome that cannot be encoded becomes a -32603 ``"internal error: ..."`` (logged). With
    ``log_values``, an accept's ``content`` goes in :attr:`Answer.extra` too. Raises nothing.
    """
    if isinstance(outcome, Failed):
        return Answer.error(request_id, outcome.message)
    try:
        data = rpc.encode(rpc.result(request_id, outcome_to_result(outcome)))
        extra: dict[str, Any] = {}
        if isinstance(outcome, Accepted) and outcome.content is not None:
            extra["fields"] = sorted(outcome.content)
            if log_values:
                extra["content"] = outcome.content
        return Answer(data, outcome_kind(outcome), extra)
    except Exception as exc:  # an outcome that cannot be sent: an error, never an action
        log.exception("request %s: the answer could not be encoded", request.key)
        return Answer.error(request_id, f"internal error: {exc}")


def request_record(
    request: ElicitationRequest, request_id: rpc.RequestId, kind: str, *, ms: float, parse_ms: float, log_values: bool
) -> dict[str, Any]:
    """The journal's fields for ``request`` answered (or expired) as ``kind``: who asked, the
    mode, the outcome, ``ms`` (since it was read) and ``parse_ms``; the URL redacted and no
    message unless ``log_values``."""
    fields: dict[str, Any] = {
        "id": request_id,
        "key": request.key,
        "pid": request.peer.pid,
        "process": request.peer.label,
        "uid": request.peer.uid,
        "server": request.requester.server_name,
        "client": request.requester.client_name,
        "mode": request.mode,
        "outcome": kind,
        "ms": ms,
        "parse_ms": parse_ms,
    }
    if isinstance(request, UrlRequest):
        fields["url"] = request.url if log_values else redact_url(request.url)
    if log_values:
        fields["message"] = request.message
    return fields
