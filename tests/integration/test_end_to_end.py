"""The whole path, with nothing faked but the user: the bundled MCP server (stdio subprocess)
-> ``mcp.Client`` with elicit-tray's callback -> local socket -> the tray app (subprocess,
offscreen) whose scripted user operates the real dialog widgets -> answer -> server.
Both protocol versions, form (accept, decline, cancel) and URL mode."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import tempfile
from pathlib import Path

import anyio
import pytest

from elicit_tray.client import TrayUnavailable, completion_forwarder, elicitation_callback, request
from elicit_tray.paths import probe_socket
from tests.integration.tray_process import TrayProcess, short_tmpdir
from tests.rpc import create_line, ping_line

pytestmark = pytest.mark.anyio

PLAN = [
    {"match": "confirm your booking", "once": True, "steps": [{"do": "toggle", "field": "confirm"}, {"do": "submit"}]},
    {"match": "confirm your booking", "once": True, "steps": [{"do": "decline"}]},
    {"match": "confirm your booking", "once": True, "steps": [{"do": "escape"}]},
    {
        "match": "Confirm the deployment",
        "once": True,
        "steps": [{"do": "pick", "field": "environment", "option": "Production"}, {"do": "submit"}],
    },
    {
        "match": "How was the demo?",
        "once": True,
        "steps": [
            {"do": "type", "field": "rating", "text": "4.5"},
            {"do": "type", "field": "comment", "text": "ok"},
            {"do": "submit"},
        ],
    },
    {"match": "Authorize access", "once": True, "steps": [{"do": "open"}]},
    {"match": "Authorize access", "once": True, "steps": [{"do": "decline"}]},
]


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
def tray():
    workdir = short_tmpdir()
    process = TrayProcess(workdir / "socket", PLAN, workdir=workdir).start()
    yield process.sock
    assert process.stop() == 0


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_the_bundled_server_gets_the_users_answers_through_the_tray(tray, mode):
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    completions: list[str] = []

    async def seen(message):
        params = getattr(message, "params", None)
        if getattr(params, "elicitation_id", None):
            completions.append(params.elicitation_id)

    server = StdioServerParameters(command=sys.executable, args=["-m", "elicit_tray.demo.server"], env=dict(os.environ))
    callback = elicitation_callback(socket_path=tray, autostart=False, client_name="pytest")
    texts = []
    with anyio.fail_after(120):
        async with Client(
            server,
            mode=mode,
            elicitation_callback=callback,
            message_handler=completion_forwarder(socket_path=tray, then=seen),
        ) as client:
            for tool, args in [
                ("book_table", {}),
                ("book_table", {}),
                ("book_table", {}),
                ("deploy", {}),
                ("feedback", {}),
                ("connect_account", {}),
                ("connect_account", {}),
            ]:
                result = await client.call_tool(tool, args)
                assert not result.is_error, result
                texts.append(result.content[0].text)
    assert texts == [
        'accept {"confirm": true}',
        "decline",
        "cancel",
        'accept {"environment": "prd", "notify": true}',
        'accept {"rating": 4.5, "comment": "ok"}',
        "accept",
        "decline",
    ]
    assert len(completions) == (1 if mode == "legacy" else 0)  # the completion notice exists only in 2025-11-25


async def test_a_schema_outside_the_subset_reaches_the_server_as_an_error_not_a_decision(tray):
    import mcp_types as types

    callback = elicitation_callback(socket_path=tray, autostart=False)
    params = types.ElicitRequestFormParams(
        message="Address?",
        requested_schema={"type": "object", "properties": {"address": {"type": "object", "properties": {}}}},
    )
    answer = await callback(None, params)
    assert isinstance(answer, types.ErrorData)
    assert answer.code == -32602
    assert answer.data == {
        "violations": [
            {
                "path": "/requestedSchema/properties/address",
                "message": "nested objects are not supported; use flat primitive properties",
            }
        ]
    }


async def test_the_client_starts_the_tray_app_when_none_is_running(monkeypatch):
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    with tempfile.TemporaryDirectory(prefix="et-") as tmp:
        sock = Path(tmp) / "socket"
        with anyio.fail_after(60):
            info = await request("elicit-tray/info", socket_path=sock)
        try:
            assert info["modes"] == {"form": {}, "url": {}}
            assert probe_socket(sock)
        finally:
            os.kill(info["pid"], signal.SIGTERM)


async def test_without_a_display_the_callback_returns_an_error_never_a_decision(monkeypatch):
    import mcp_types as types

    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    with tempfile.TemporaryDirectory(prefix="et-") as tmp:
        callback = elicitation_callback(socket_path=Path(tmp) / "socket")
        params = types.ElicitRequestFormParams(
            message="Proceed?", requested_schema={"type": "object", "properties": {}}
        )
        with anyio.fail_after(60):
            answer = await callback(None, params)
    assert isinstance(answer, types.ErrorData)
    assert answer.code == -32603
    assert "display" in answer.message


async def test_request_reports_an_unreachable_tray_without_autostart():
    with tempfile.TemporaryDirectory(prefix="et-") as tmp:
        with pytest.raises(TrayUnavailable):
            await request("ping", socket_path=Path(tmp) / "socket", autostart=False)


async def test_the_scripted_user_answers_requests_that_arrive_at_once(tmp_path):
    """Offscreen activates every new window, so a second dialog takes the focus from the first
    before it arms: the scripted user goes back to the one at hand, and answers each in turn."""
    plan = [{"match": "question", "steps": [{"do": "submit"}]}]
    workdir = short_tmpdir()
    process = TrayProcess(workdir / "socket", plan, workdir=workdir).start()
    schema = {"type": "object", "properties": {"n": {"type": "integer", "default": 0}}}
    answers: dict[int, dict] = {}

    async def ask(n: int) -> None:
        params = {
            "mode": "form",
            "message": f"question {n}",
            "requestedSchema": {**schema, "properties": {"n": {"type": "integer", "default": n}}},
        }
        answers[n] = await request("elicitation/create", params, socket_path=process.sock, autostart=False)

    try:
        with anyio.fail_after(60):
            async with anyio.create_task_group() as group:
                for n in range(4):
                    group.start_soon(ask, n)
    finally:
        assert process.stop() == 0
    assert answers == {n: {"action": "accept", "content": {"n": n}} for n in range(4)}


async def test_a_dialog_whose_requester_left_never_takes_the_focus_back_from_the_next(tmp_path):
    """The first requester leaves before its dialog armed; the scripted user moves on, and the
    expired dialog (still on screen, saying so) must not pull the focus back each time the next
    one takes it: the next one is answered."""
    plan = [{"match": "abandon", "steps": []}, {"match": "question", "steps": [{"do": "submit"}]}]
    workdir = short_tmpdir()
    process = TrayProcess(workdir / "socket", plan, workdir=workdir, extra_args=("--arm-delay-ms", "20")).start()
    schema = {"type": "object", "properties": {"n": {"type": "integer", "default": 7}}}
    try:
        for round_ in range(10):
            # Within the 10 s an expired dialog stays on screen (base.EXPIRED_CLOSE_MS): an
            # answer that needs the expired one gone came only because it went away.
            with anyio.fail_after(8):
                reader, writer = await asyncio.open_unix_connection(str(process.sock))
                writer.write(
                    create_line(f"a{round_}", {"mode": "form", "message": "abandon me", "requestedSchema": schema})
                )
                writer.write(ping_line("p"))  # answered once the request was dispatched
                await writer.drain()
                while json.loads(await reader.readline()).get("id") != "p":
                    pass
                writer.close()
                params = {"mode": "form", "message": f"question {round_}", "requestedSchema": schema}
                answer = await request("elicitation/create", params, socket_path=process.sock, autostart=False)
                assert answer == {"action": "accept", "content": {"n": 7}}
    finally:
        assert process.stop() == 0
