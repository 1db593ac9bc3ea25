"""Params -> request: reading an ``elicitation/create`` the way the tray shows it (pure Python).

Data flows one way (docs/design.md "Layout"): params -> :func:`parse_elicit_params` -> a
:class:`~elicit_tray.request.FormRequest` or :class:`~elicit_tray.request.UrlRequest` ->
dialog -> :data:`~elicit_tray.request.Outcome` -> :func:`~elicit_tray.request.outcome_to_result`.

This module holds only the reading (:func:`parse_elicit_params`, :class:`ParamsError`): import
the request and outcome types from :mod:`elicit_tray.request` and the limits from
:mod:`elicit_tray.limits`, where they are defined.
"""

from __future__ import annotations

from typing import Any

from .limits import limit_violations
from .request import FLOW_KEY, MODES, REQUESTER_KEY, ElicitationRequest, FormRequest, Peer, Requester, UrlRequest
from .schema import SchemaError, Violation, parse_requested_schema
from .schema.pointer import pointer

__all__ = ["ParamsError", "parse_elicit_params"]


class ParamsError(ValueError):
    """Params outside what we render (JSON-RPC -32602, ``data.violations``)."""

    def __init__(self, violations: list[Violation]):
        self.violations = violations
        super().__init__("; ".join(f"{v.path or '/'}: {v.message}" for v in violations))


def _requester(meta: Any) -> tuple[Requester, list[Violation]]:
    raw = meta.get(REQUESTER_KEY) if isinstance(meta, dict) else None
    if raw is None:
        return Requester(), []
    path = pointer("_meta", REQUESTER_KEY)
    if not isinstance(raw, dict):
        return Requester(), [Violation(path, "must be an object")]
    problems = []
    values: dict[str, Any] = {}
    for key, attr in (
        ("serverName", "server_name"),
        ("serverTitle", "server_title"),
        ("serverVersion", "server_version"),
        ("clientName", "client_name"),
    ):
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
    """Validate ``elicitation/create`` params (MCP ``ElicitRequestParams``, both revisions):
    a :class:`~elicit_tray.request.FormRequest` or a :class:`~elicit_tray.request.UrlRequest`.

    A missing ``mode`` means form (MCP 2025-11-25: "Requests without mode MUST be treated as
    form mode"). A mode other than form/url, or one outside the requester's
    ``declaredModes``, is refused as the specification requires of a client.

    Requests over the limits (:data:`~elicit_tray.limits.MAX_MESSAGE_CHARS` and the others, see
    :func:`~elicit_tray.limits.limit_violations`) are refused with those violations only, before anything is built.

    Raises:
        ParamsError: with every violation (JSON Pointer paths into ``params``).
    """
    over = limit_violations(params)
    if over:
        raise ParamsError(over)
    problems: list[Violation] = []
    requester, meta_problems = _requester(params.get("_meta"))
    problems += meta_problems
    mode = params.get("mode", "form")
    if mode not in MODES:
        raise ParamsError(
            problems + [Violation("/mode", f'unsupported elicitation mode {mode!r}; expected "form" or "url"')]
        )
    if requester.declared_modes is not None and mode not in requester.declared_modes:
        raise ParamsError(
            problems
            + [
                Violation(
                    "/mode",
                    f'mode "{mode}" was not declared by the client '
                    f"(declared: {', '.join(requester.declared_modes) or 'none'})",
                )
            ]
        )
    message = params.get("message")
    if not isinstance(message, str):
        problems.append(Violation("/message", '"message" must be a string'))
    common: dict[str, Any] = {"message": message, "requester": requester, "peer": peer or Peer()}
    if mode == "form":
        form = None
        if "requestedSchema" not in params:
            problems.append(Violation("/requestedSchema", '"requestedSchema" is required in form mode'))
        else:
            try:
                form = parse_requested_schema(params["requestedSchema"])
            except SchemaError as exc:
                problems += [Violation("/requestedSchema" + v.path, v.message) for v in exc.violations]
        if problems or form is None:
            raise ParamsError(problems)
        return FormRequest(form=form, **common)
    raw_url = params.get("url")
    url = raw_url if isinstance(raw_url, str) else ""
    eid = params.get("elicitationId")
    analysis = None
    if not url:
        problems.append(Violation("/url", '"url" must be a non-empty string in url mode'))
    else:
        from .urlcheck import analyze_url  # loaded on the first URL request, not at start-up

        analysis = analyze_url(url)
    if eid is not None and not isinstance(eid, str):
        problems.append(Violation("/elicitationId", '"elicitationId" must be a string'))
    meta = params.get("_meta")
    flow = meta.get(FLOW_KEY) if isinstance(meta, dict) else None
    if flow is not None and (not isinstance(flow, str) or not flow):
        problems.append(Violation(pointer("_meta", FLOW_KEY), "must be a non-empty string"))
    if problems or analysis is None:
        raise ParamsError(problems)
    return UrlRequest(url=url, url_analysis=analysis, elicitation_id=eid, flow=flow, **common)
