"""The immutable elicitation request the UI handles, and the outcomes it can end in.

Pure Python (no Qt). Data flows one way (DESIGN.md): params -> :class:`ElicitationRequest`
-> dialog -> :class:`Outcome` -> :func:`outcome_to_result` (the MCP ``ElicitResult``).
Decline, dismiss, timeout and internal error are distinct outcomes here and in the logs,
even where the wire only has ``cancel`` or an error.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Union

from .schema import FormSpec, SchemaError, Violation, parse_requested_schema
from .urlcheck import UrlAnalysis, analyze_url

__all__ = [
    "Requester", "Peer", "ElicitationRequest", "ParamsError", "parse_elicit_params",
    "Accepted", "Declined", "Cancelled", "Failed", "Outcome", "outcome_to_result", "MODES",
]

#: Elicitation modes we render (MCP 2025-11-25 ``ElicitRequestParams.mode``).
MODES = ("form", "url")
_REQUESTER_KEY = "elicit-tray/requester"
_counter = itertools.count(1)


@dataclass(frozen=True)
class Requester:
    """Self-reported identity from ``_meta["elicit-tray/requester"]``; shown as self-reported."""

    server_name: str | None = None
    server_title: str | None = None
    server_version: str | None = None
    client_name: str | None = None
    declared_modes: tuple[str, ...] | None = None

    @property
    def label(self) -> str | None:
        """``"Title (name) 1.2"``-style label of the server, or ``None`` when unknown."""
        name = self.server_title or self.server_name
        if not name:
            return None
        if self.server_title and self.server_name and self.server_title != self.server_name:
            name = f"{self.server_title} ({self.server_name})"
        return f"{name} {self.server_version}" if self.server_version else name


@dataclass(frozen=True)
class Peer:
    """The requesting local process, as the OS reports the socket peer (Linux: SO_PEERCRED)."""

    pid: int | None = None
    uid: int | None = None
    process_name: str | None = None

    @property
    def label(self) -> str | None:
        """``"name (pid 123)"``, or ``None`` when the OS told nothing."""
        if self.pid is None:
            return None
        return f"{self.process_name or 'unknown process'} (pid {self.pid})"


@dataclass(frozen=True)
class ElicitationRequest:
    """One ``elicitation/create`` request, validated.

    ``mode`` is ``"form"`` (then ``form`` is set) or ``"url"`` (then ``url`` and
    ``url_analysis`` are set; ``elicitation_id`` exists only on 2025-11-25).
    ``key`` is a process-unique string used in logs and the pending list.
    """

    mode: str
    message: str
    form: FormSpec | None = None
    url: str | None = None
    url_analysis: UrlAnalysis | None = None
    elicitation_id: str | None = None
    requester: Requester = field(default_factory=Requester)
    peer: Peer = field(default_factory=Peer)
    key: str = field(default_factory=lambda: f"r{next(_counter)}")


class ParamsError(ValueError):
    """Params outside what we render (JSON-RPC -32602, ``data.violations``)."""

    def __init__(self, violations: list[Violation]):
        self.violations = violations
        super().__init__("; ".join(f"{v.path or '/'}: {v.message}" for v in violations))


def _requester(meta: Any) -> tuple[Requester, list[Violation]]:
    raw = meta.get(_REQUESTER_KEY) if isinstance(meta, dict) else None
    if raw is None:
        return Requester(), []
    path = "/_meta/elicit-tray~1requester"
    if not isinstance(raw, dict):
        return Requester(), [Violation(path, "must be an object")]
    problems = []
    values: dict[str, Any] = {}
    for key, attr in (("serverName", "server_name"), ("serverTitle", "server_title"),
                      ("serverVersion", "server_version"), ("clientName", "client_name")):
        value = raw.get(key)
        if value is not None and not isinstance(value, str):
            problems.append(Violation(f"{path}/{key}", "must be a string"))
        elif value:
            values[attr] = value
    modes = raw.get("declaredModes")
    if modes is not None:
        if isinstance(modes, list) and all(isinstance(m, str) for m in modes):
            values["declared_modes"] = tuple(modes)
        else:
            problems.append(Violation(f"{path}/declaredModes", "must be a list of mode names"))
    return Requester(**values), problems


def parse_elicit_params(params: dict[str, Any], peer: Peer | None = None) -> ElicitationRequest:
    """Validate ``elicitation/create`` params (MCP ``ElicitRequestParams``, both revisions).

    A missing ``mode`` means form (MCP 2025-11-25: "Requests without mode MUST be treated as
    form mode"). A mode other than form/url, or one outside the requester's
    ``declaredModes``, is refused as the specification requires of a client.

    Raises:
        ParamsError: with every violation (JSON Pointer paths into ``params``).
    """
    problems: list[Violation] = []
    requester, meta_problems = _requester(params.get("_meta"))
    problems += meta_problems
    mode = params.get("mode", "form")
    if mode not in MODES:
        raise ParamsError(problems + [Violation("/mode", f'unsupported elicitation mode {mode!r}; expected "form" or "url"')])
    if requester.declared_modes is not None and mode not in requester.declared_modes:
        raise ParamsError(problems + [Violation("/mode", f'mode "{mode}" was not declared by the client '
                                                f"(declared: {', '.join(requester.declared_modes) or 'none'})")])
    message = params.get("message")
    if not isinstance(message, str):
        problems.append(Violation("/message", '"message" must be a string'))
    common: dict[str, Any] = {"mode": mode, "message": message, "requester": requester, "peer": peer or Peer()}
    if mode == "form":
        if "requestedSchema" not in params:
            problems.append(Violation("/requestedSchema", '"requestedSchema" is required in form mode'))
        else:
            try:
                common["form"] = parse_requested_schema(params["requestedSchema"])
            except SchemaError as exc:
                problems += [Violation("/requestedSchema" + v.path, v.message) for v in exc.violations]
    else:
        url = params.get("url")
        eid = params.get("elicitationId")
        if not isinstance(url, str) or not url:
            problems.append(Violation("/url", '"url" must be a non-empty string in url mode'))
        else:
            common["url"] = url
            common["url_analysis"] = analyze_url(url)
        if eid is not None and not isinstance(eid, str):
            problems.append(Violation("/elicitationId", '"elicitationId" must be a string'))
        else:
            common["elicitation_id"] = eid
    if problems:
        raise ParamsError(problems)
    return ElicitationRequest(**common)


@dataclass(frozen=True)
class Accepted:
    """The user accepted: form ``content`` (a dict), or URL consent (``content`` None)."""

    content: dict[str, Any] | None = None


@dataclass(frozen=True)
class Declined:
    """The user explicitly said no (the Decline button)."""


@dataclass(frozen=True)
class Cancelled:
    """Dismissed without a choice. ``how``: ``"escape"``, ``"button"``, ``"close"``, ``"tray"`` or ``"timeout"``."""

    how: str = "close"


@dataclass(frozen=True)
class Failed:
    """No decision could be obtained (no UI, internal error): a JSON-RPC -32603, never an action."""

    message: str


Outcome = Union[Accepted, Declined, Cancelled, Failed]


def outcome_to_result(outcome: Outcome) -> dict[str, Any]:
    """The MCP ``ElicitResult`` of an outcome: ``{"action", "content"?}``.

    Raises:
        ValueError: for :class:`Failed`, which has no result (send an error instead).
    """
    if isinstance(outcome, Accepted):
        return {"action": "accept"} if outcome.content is None else {"action": "accept", "content": outcome.content}
    if isinstance(outcome, Declined):
        return {"action": "decline"}
    if isinstance(outcome, Cancelled):
        return {"action": "cancel"}
    raise ValueError(f"{outcome!r} has no ElicitResult")
