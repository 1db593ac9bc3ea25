"""End to end through ``elicit-tray wrap -- python -m elicit_tray.demo.server``: a real
``mcp.Client`` host with NO elicitation callback, a real MCP server, and the tray app (a
subprocess whose scripted user operates the real widgets) or a fake tray on a socket for the
failure and cancellation cases. Modes ``legacy``, ``2026-07-28`` and ``auto``.

Every test reads the proxy's wire log (``ELICIT_TRAY_WRAP_LOG``): no ``elicitation/create``
and no proxy id (``"elicit-tray-…"``) ever reaches the host.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, MCPError, StdioServerParameters, types

from tests.integration.tray_process import TrayProcess

pytestmark = pytest.mark.anyio
SESSION_TIMEOUT_S = 90
SERVER = [sys.executable, "-m", "elicit_tray.demo.server"]

PLAN = [
    {"match": "confirm your booking", "once": True, "steps": [{"do": "toggle", "field": "confirm"}, {"do": "submit"}]},
    {"match": "Confirm the deployment", "once": True, "steps": [{"do": "decline"}]},
    {"match": "Delete project", "once": True, "steps": [{"do": "escape"}]},
    {
        "match": "How was the demo?",
        "once": True,
        "steps": [{"do": "type", "field": "rating", "text": "4"}, {"do": "submit"}],
    },
    {"match": "Publish this summary?", "once": True, "steps": [{"do": "toggle", "field": "publish"}, {"do": "submit"}]},
    {"match": "Authorize access", "once": True, "steps": [{"do": "open"}]},
]
EXPECTED = [
    ("book_table", 'accept {"confirm": true}'),
    ("deploy", "decline"),
    ("delete_project", "cancel"),
    ("feedback", 'accept {"rating": 4}'),
    ("summarize_and_confirm", 'It works. | accept {"publish": true}'),
    ("connect_account", "accept"),
]


@pytest.fixture
def anyio_backend():
    return "asyncio"


async def sampling(_context: Any, _params: Any) -> types.CreateMessageResult:
    """The host's own LLM (sampling is never the proxy's business)."""
    return types.CreateMessageResult(
        role="assistant", content=types.TextContent(type="text", text="It works."), model="fake"
    )


def wrapped(sock: Path, log: Path, *, policy: str = "complement") -> StdioServerParameters:
    env = dict(os.environ, ELICIT_TRAY_SOCKET=str(sock), ELICIT_TRAY_WRAP_LOG=str(log), ELICIT_TRAY_LOG="off")
    return StdioServerParameters(
        command=sys.executable, args=["-m", "elicit_tray", "wrap", "--policy", policy, "--", *SERVER], env=env
    )


def direct() -> StdioServerParameters:
    return StdioServerParameters(command=SERVER[0], args=SERVER[1:], env=dict(os.environ))


def wire(log: Path) -> list[tuple[str, dict[str, Any]]]:
    """The wire log as ``(direction, message)``; every line must be JSON."""
    out = []
    for raw in log.read_bytes().splitlines():
        direction, _, line = raw.partition(b" ")
        out.append((direction.decode(), json.loads(line)))
    return out


def assert_host_never_saw_proxy_traffic(log: Path) -> None:
    for direction, message in wire(log):
        if direction == "to-host":
            assert message.get("method") != "elicitation/create", message
            assert not str(message.get("id", "")).startswith("elicit-tray-"), message


def text(result: types.CallToolResult) -> str:
    return " ".join(getattr(c, "text", "") for c in result.content)


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28", "auto"])
async def test_every_demo_tool_through_wrap_with_a_host_that_has_no_elicitation(scratch, mode):
    tray = TrayProcess(scratch / "t" / "socket", PLAN, workdir=scratch).start()
    log = scratch / "wire.log"
    try:
        with anyio.fail_after(SESSION_TIMEOUT_S):
            async with Client(wrapped(tray.sock, log), mode=mode, sampling_callback=sampling) as client:
                for tool, expected in EXPECTED:
                    result = await client.call_tool(tool, {})
                    assert (text(result), result.is_error) == (expected, False), tool
    finally:
        assert tray.stop() == 0
    assert_host_never_saw_proxy_traffic(log)
    sent = wire(log)
    if mode == "legacy":
        init = next(m for d, m in sent if m.get("method") == "initialize")
        assert init["params"]["capabilities"] == {"sampling": {}, "elicitation": {"form": {}, "url": {}}}
    else:  # MRTR: the proxy's own retries reached the server, never the host
        retries = [m for d, m in sent if d == "to-server" and str(m.get("id", "")).startswith("elicit-tray-")]
        assert len(retries) == 6
        assert all(
            r["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]["elicitation"] == {"form": {}, "url": {}}
            for r in retries
        )


async def _error_of(server: StdioServerParameters, mode: str, tool: str = "book_table") -> tuple[int, str]:
    with anyio.fail_after(SESSION_TIMEOUT_S):
        async with Client(server, mode=mode) as client:
            try:
                result = await client.call_tool(tool, {})
            except MCPError as exc:
                return exc.error.code, exc.error.message
    raise AssertionError(f"no error: {result}")


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_tray_down_before_declaring_gives_what_the_host_gets_without_the_proxy(scratch, mode):
    log = scratch / "wire.log"
    through = await _error_of(wrapped(scratch / "none" / "socket", log), mode)
    assert through == await _error_of(direct(), mode)
    assert through[0] == -32021  # missing required client capability (elicitation)
    assert_host_never_saw_proxy_traffic(log)


class FakeTray:
    """A socket that passes every check of ``client.open_connection`` (the user's own, 0700)
    and answers each ``elicitation/create`` with ``behaviour(params)``: a result dict, ``"drop"``
    (close without answering: the tray died) or ``"hang"`` (wait for the requester's
    ``notifications/cancelled`` or EOF)."""

    def __init__(self, path: Path, behaviour: Callable[[dict[str, Any]], Any]):
        self.path, self.behaviour = path, behaviour
        self.requests: list[dict[str, Any]] = []
        self.cancelled: list[Any] = []
        self.got_request = asyncio.Event()
        self.got_cancel = asyncio.Event()

    async def __aenter__(self) -> FakeTray:
        self.path.parent.mkdir(mode=0o700)
        self.server = await asyncio.start_unix_server(self._serve, str(self.path))
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.server.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            line = await reader.readline()
            if not line:
                return
            message = json.loads(line)
            self.requests.append(message["params"])
            self.got_request.set()
            behaviour = self.behaviour(message["params"])
            if behaviour == "hang":
                line = await reader.readline()
                self.cancelled.append(json.loads(line) if line else "eof")
                self.got_cancel.set()
            elif behaviour != "drop":
                writer.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": behaviour}).encode() + b"\n")
                await writer.drain()
        finally:
            writer.close()


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_tray_gone_after_declaring_is_an_internal_error_never_a_decision(scratch, mode):
    log = scratch / "wire.log"
    async with FakeTray(scratch / "t" / "socket", lambda params: "drop") as tray:
        code, message = await _error_of(wrapped(tray.path, log), mode)
    assert (code, message) == (-32603, "elicit-tray: tray app unreachable")
    assert len(tray.requests) == 1
    assert_host_never_saw_proxy_traffic(log)


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_host_cancellation_mid_dialog_closes_the_dialog_and_nothing_stray_reaches_the_host(scratch, mode):
    log = scratch / "wire.log"
    behaviours = iter(["hang", {"action": "accept", "content": {"confirm": False}}])
    async with FakeTray(scratch / "t" / "socket", lambda params: next(behaviours)) as tray:
        with anyio.fail_after(SESSION_TIMEOUT_S):
            async with Client(wrapped(tray.path, log), mode=mode) as client:
                async with anyio.create_task_group() as tg:

                    async def call() -> None:
                        with anyio.CancelScope() as scope:
                            calls.append(scope)
                            await client.call_tool("book_table", {})

                    calls: list[anyio.CancelScope] = []
                    tg.start_soon(call)
                    await tray.got_request.wait()
                    calls[0].cancel()
                await tray.got_cancel.wait()  # the dialog expires: the proxy withdrew the request
                result = await client.call_tool("book_table", {})  # the session still works
                assert text(result) == 'accept {"confirm": false}'
    assert tray.cancelled[0] == "eof" or tray.cancelled[0]["method"] == "notifications/cancelled"
    assert_host_never_saw_proxy_traffic(log)
    host_ids = [m.get("id") for d, m in wire(log) if d == "to-host" and "id" in m]
    assert len(host_ids) == len(set(host_ids))  # exactly one answer per host request, none for the cancelled one


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
@pytest.mark.parametrize("policy", ["complement", "always"])
async def test_a_host_with_its_own_callback_is_left_alone_under_complement(scratch, mode, policy):
    log = scratch / "wire.log"
    seen: list[str] = []

    async def own(_context: Any, params: Any) -> types.ElicitResult:
        seen.append(params.message)
        return types.ElicitResult(action="decline")

    async with FakeTray(scratch / "t" / "socket", lambda params: {"action": "cancel"}) as tray:
        with anyio.fail_after(SESSION_TIMEOUT_S):
            async with Client(wrapped(tray.path, log, policy=policy), mode=mode, elicitation_callback=own) as client:
                result = await client.call_tool("book_table", {})
    if policy == "complement":
        assert (text(result), seen, tray.requests) == ("decline", ["Please confirm your booking."], [])
    else:
        assert (text(result), seen, len(tray.requests)) == ("cancel", [], 1)
        assert_host_never_saw_proxy_traffic(log)


@pytest.mark.skipif(shutil.which("socat") is None, reason="socat is not installed")
async def test_a_socat_relay_between_two_socket_paths_reaches_the_tray(scratch):
    """Remote runners (README "Remote agent runners"): ``ssh -R`` forwards a socket the way this relay does; the
    requester uses the relay's path through ``ELICIT_TRAY_SOCKET``."""
    tray = TrayProcess(scratch / "t" / "socket", PLAN[:1], workdir=scratch).start()
    relay_dir = scratch / "r"
    relay_dir.mkdir(mode=0o700)
    relay_path = relay_dir / "socket"
    relay = subprocess.Popen(["socat", f"UNIX-LISTEN:{relay_path},fork,mode=600", f"UNIX-CONNECT:{tray.sock}"])
    log = scratch / "wire.log"
    try:
        with anyio.fail_after(SESSION_TIMEOUT_S):
            while not relay_path.exists():
                assert relay.poll() is None
                await anyio.sleep(0.02)  # bounded by fail_after: waiting for socat to listen
            async with Client(wrapped(relay_path, log), mode="2026-07-28") as client:
                result = await client.call_tool("book_table", {})
        assert text(result) == 'accept {"confirm": true}'
    finally:
        relay.terminate()
        relay.wait(timeout=10)
        assert tray.stop() == 0
    assert_host_never_saw_proxy_traffic(log)
