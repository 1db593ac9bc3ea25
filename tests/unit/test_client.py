"""The requester-side callback sends the request as the SDK gave it, plus who asks, and turns
tray errors into ErrorData, never into a decision."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import mcp_types as types

from elicit_tray import client

PARAMS = types.ElicitRequestFormParams(message="Proceed?", requested_schema={"type": "object", "properties": {}})


def _run(callback: Any, context: Any) -> Any:
    return asyncio.run(callback(context, PARAMS))


def _capture(monkeypatch: Any, answer: Any) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def fake_request(method: str, params: dict[str, Any], **_kw: Any) -> dict[str, Any]:
        sent.append({"method": method, "params": params})
        if isinstance(answer, Exception):
            raise answer
        return answer

    monkeypatch.setattr(client, "request", fake_request)
    return sent


def test_the_server_name_comes_from_the_session_and_an_unknown_one_stays_unknown(monkeypatch):
    sent = _capture(monkeypatch, {"action": "accept", "content": {}})
    named = SimpleNamespace(session=SimpleNamespace(server_info=SimpleNamespace(name="files", title=None,
                                                                                version="2.0")))
    assert _run(client.elicitation_callback(client_name="runner"), named) == types.ElicitResult(
        action="accept", content={})
    assert sent[0]["method"] == "elicitation/create"
    assert sent[0]["params"]["_meta"]["elicit-tray/requester"] == {"serverName": "files", "serverVersion": "2.0",
                                                                  "clientName": "runner"}
    unknown = SimpleNamespace(session=SimpleNamespace(server_info=None))
    _run(client.elicitation_callback(), unknown)
    assert sent[1]["params"]["_meta"]["elicit-tray/requester"] == {}
    assert sent[1]["params"]["message"] == "Proceed?"
    assert sent[1]["params"]["requestedSchema"] == {"type": "object", "properties": {}}


def test_a_tray_error_becomes_error_data_never_a_decision(monkeypatch):
    _capture(monkeypatch, client.TrayError(-32602, "Invalid params", {"violations": []}))
    answer = _run(client.elicitation_callback(), None)
    assert answer == types.ErrorData(code=-32602, message="Invalid params", data={"violations": []})
    _capture(monkeypatch, client.TrayUnavailable("no display"))
    answer = _run(client.elicitation_callback(), None)
    assert isinstance(answer, types.ErrorData) and answer.code == -32603
