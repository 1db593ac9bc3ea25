"""``-32042`` (URL elicitation required) through ``elicit-tray wrap`` for a host that declared no
URL mode (docs/wrap-design.md §2.8): a real ``mcp`` SDK server that raises
``UrlElicitationRequiredError`` (``tests/integration/url_required_server.py``), wrap, a real
``mcp.Client`` with no elicitation callback (so no URL mode; 2025-11-25), and the tray app with
a scripted user operating the real dialogs. The wait after the consent is a round of the
session's URL flow (§2.9): the flow's waiting window, "I have finished, check again" / Cancel.

Each test asserts the exact JSON the host got for its ``tools/call`` (read from wrap's wire log)
and the tray's windows (``[tray] window N shown|round|gone``, what its scripted user says).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, MCPError, StdioServerParameters, types

from tests.integration.test_url_flow_e2e import all_windows_gone, opened, until, windows
from tests.integration.test_wrap_e2e import FakeTray, assert_host_never_saw_proxy_traffic, wire
from tests.integration.tray_process import TrayProcess

pytestmark = pytest.mark.anyio
SESSION_TIMEOUT_S = 90
SERVER = [sys.executable, "-m", "tests.integration.url_required_server"]
ROOT = Path(__file__).resolve().parents[2]
LOGIN_URL = "https://login.example.com/start?s=1"
LOGIN = {"match": "Log in to Example", "once": True, "steps": [{"do": "open"}]}
GRANT = {"match": "Grant access", "once": True, "steps": [{"do": "open"}]}
# in the flow's waiting window: "I have finished, check again"; doing nothing; Cancel
FINISHED = {"match": "Log in to Example", "once": True, "steps": [{"do": "finished"}]}
IDLE = {"match": "Log in to Example", "once": True, "steps": []}
STOP = {"match": "Log in to Example", "once": True, "steps": [{"do": "cancel"}]}
#: One consent, then one waiting window: both gone at the end.
ONE_FLOW = sorted(["1 shown: UrlDialog", "1 gone", "2 shown: UrlWaitDialog", "2 gone"])
CANCELLED = "elicit-tray: the user cancelled the web page step the server asked for; the request was not retried"


@pytest.fixture
def anyio_backend():
    return "asyncio"


def wrapped(sock: Path, log: Path) -> StdioServerParameters:
    env = dict(os.environ, ELICIT_TRAY_SOCKET=str(sock), ELICIT_TRAY_WRAP_LOG=str(log), ELICIT_TRAY_LOG="off")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return StdioServerParameters(command=sys.executable, args=["-m", "elicit_tray", "wrap", "--", *SERVER], env=env)


def answer_of(log: Path, tool: str) -> dict[str, Any]:
    """What the host got for its (first) ``tools/call`` of ``tool``, exactly."""
    sent = wire(log)
    ids = [
        m["id"] for d, m in sent if d == "to-server" and m.get("method") == "tools/call" and m["params"]["name"] == tool
    ]
    host_id = next(i for i in ids if not str(i).startswith("elicit-tray-"))
    answers = [m for d, m in sent if d == "to-host" and m.get("id") == host_id and "method" not in m]
    assert len(answers) == 1, answers
    return answers[0]


def retries(log: Path, tool: str) -> int:
    return sum(
        1
        for d, m in wire(log)
        if d == "to-server"
        and m.get("method") == "tools/call"
        and m["params"]["name"] == tool
        and str(m["id"]).startswith("elicit-tray-")
    )


def ok(host_id: Any, text: str) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": host_id,
        "result": {
            "content": [{"type": "text", "text": text}],
            "structuredContent": {"result": text},
            "isError": False,
        },
    }


async def run(tray: TrayProcess, log: Path, tool: str, mode: str = "legacy") -> tuple[str | None, MCPError | None]:
    with anyio.fail_after(SESSION_TIMEOUT_S):
        async with Client(wrapped(tray.sock, log), mode=mode) as client:
            try:
                result = await client.call_tool(tool, {})
            except MCPError as exc:
                return None, exc
    return " ".join(getattr(c, "text", "") for c in result.content), None


async def one_flow(scratch: Path, log: Path, waiting_step: dict, mode: str) -> tuple[str | None, MCPError | None]:
    """``connect`` through wrap with a user who opens the login URL, then takes
    ``waiting_step`` in the flow's waiting window: one consent and one waiting window, both gone
    at the end, and the browser opened once. Returns what ``run`` returns."""
    tray = TrayProcess(scratch / "t" / "socket", [LOGIN, waiting_step], workdir=scratch).start()
    try:
        text, error = await run(tray, log, "connect", mode)
        assert await all_windows_gone(tray) == ONE_FLOW
        assert opened(tray) == [LOGIN_URL]
    finally:
        assert tray.stop() == 0
    return text, error


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_accept_then_i_have_finished_retries_and_the_host_gets_the_retrys_answer(scratch, mode):
    log = scratch / "wire.log"
    text, error = await one_flow(scratch, log, FINISHED, mode)
    assert (text, error) == ("connected after 2 calls", None)
    answer = answer_of(log, "connect")
    expected = ok(answer["id"], "connected after 2 calls")
    if mode != "legacy":  # 2026-07-28 results say what they are and who answered
        expected["result"] = {
            **expected["result"],
            "resultType": "complete",
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "url-required", "version": "1.0"}},
        }
    assert answer == expected
    assert retries(log, "connect") == 1
    assert_host_never_saw_proxy_traffic(log)


async def test_accept_then_the_servers_completion_notice_retries_without_asking_again(scratch):
    log = scratch / "wire.log"
    tray = TrayProcess(scratch / "t" / "socket", [LOGIN, IDLE], workdir=scratch).start()
    got: dict[str, Any] = {}
    try:
        with anyio.fail_after(SESSION_TIMEOUT_S):
            async with Client(wrapped(tray.sock, log), mode="legacy") as client:
                async with anyio.create_task_group() as tg:

                    async def call() -> None:
                        got["connect"] = await client.call_tool("connect", {})

                    tg.start_soon(call)
                    await until(lambda: "2 shown: UrlWaitDialog" in windows(tray))  # the round waits
                    done = await client.call_tool("finish_login", {})
                    assert done.content[0].text == "completed"
        assert await all_windows_gone(tray) == ONE_FLOW  # the notice withdrew the waiting round
    finally:
        assert tray.stop() == 0
    assert got["connect"].content[0].text == "connected after 2 calls"
    answer = answer_of(log, "connect")
    assert answer == ok(answer["id"], "connected after 2 calls")
    # the notice went to the tray, never to the host
    assert not [m for d, m in wire(log) if d == "to-host" and m.get("method") == "notifications/elicitation/complete"]
    assert_host_never_saw_proxy_traffic(log)


@pytest.mark.parametrize(
    ("step", "action", "message"),
    [
        (
            "decline",
            "decline",
            "elicit-tray: the user declined to open the web page the server asked for; the request was not retried",
        ),
        (
            "escape",
            "cancel",
            "elicit-tray: the user cancelled the web page step the server asked for; the request was not retried",
        ),
    ],
)
async def test_decline_or_cancel_gives_the_host_an_error_it_can_act_on(scratch, step, action, message):
    log = scratch / "wire.log"
    plan = [{"match": "Log in to Example", "once": True, "steps": [{"do": step}]}]
    tray = TrayProcess(scratch / "t" / "socket", plan, workdir=scratch).start()
    try:
        text, error = await run(tray, log, "connect")
    finally:
        assert tray.stop() == 0
    assert text is None and error is not None
    assert (error.error.code, error.error.message, error.error.data) == (-32800, message, {"action": action})
    answer = answer_of(log, "connect")
    assert answer == {
        "jsonrpc": "2.0",
        "id": answer["id"],
        "error": {"code": -32800, "message": message, "data": {"action": action}},
    }
    assert retries(log, "connect") == 0
    assert_host_never_saw_proxy_traffic(log)


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_cancel_in_the_waiting_window_gives_the_host_the_cancel_error(scratch, mode):
    log = scratch / "wire.log"
    text, error = await one_flow(scratch, log, STOP, mode)
    assert text is None and error is not None
    answer = answer_of(log, "connect")
    assert answer == {
        "jsonrpc": "2.0",
        "id": answer["id"],
        "error": {"code": -32800, "message": CANCELLED, "data": {"action": "cancel"}},
    }
    assert retries(log, "connect") == 0
    assert_host_never_saw_proxy_traffic(log)


async def test_a_second_required_url_asks_again_then_the_answer_reaches_the_host(scratch):
    log = scratch / "wire.log"
    plan = [LOGIN, FINISHED, GRANT, {**GRANT, "steps": [{"do": "finished"}]}]
    tray = TrayProcess(scratch / "t" / "socket", plan, workdir=scratch).start()
    try:
        text, error = await run(tray, log, "connect_twice")
        assert await all_windows_gone(tray) == sorted(
            [
                f"{n} {what}"
                for n in "1234"
                for what in ("gone", "shown: " + ("UrlDialog" if n in "13" else "UrlWaitDialog"))
            ]
        )
        assert opened(tray) == [LOGIN_URL, "https://consent.example.org/grant"]
    finally:
        assert tray.stop() == 0
    assert (text, error) == ("granted after 3 calls", None)
    answer = answer_of(log, "connect_twice")
    assert answer == ok(answer["id"], "granted after 3 calls")
    assert retries(log, "connect_twice") == 2


async def test_a_host_that_declared_url_mode_gets_the_error_unchanged(scratch):
    log = scratch / "wire.log"
    tray = TrayProcess(scratch / "t" / "socket", [], workdir=scratch).start()

    async def own(_context: Any, _params: Any) -> types.ElicitResult:
        return types.ElicitResult(action="decline")

    try:
        with anyio.fail_after(SESSION_TIMEOUT_S):
            async with Client(wrapped(tray.sock, log), mode="legacy", elicitation_callback=own) as client:
                with pytest.raises(MCPError) as caught:
                    await client.call_tool("connect", {})
    finally:
        assert tray.stop() == 0
    assert caught.value.error.code == -32042
    answer = answer_of(log, "connect")
    assert answer["error"]["code"] == -32042
    assert answer["error"]["data"] == {
        "elicitations": [
            {
                "mode": "url",
                "message": "Log in to Example to connect.",
                "url": "https://login.example.com/start?s=1",
                "elicitationId": "login-1",
            }
        ]
    }
    assert retries(log, "connect") == 0


async def test_host_cancel_while_waiting_withdraws_the_dialog_and_nothing_reaches_the_host(scratch):
    log = scratch / "wire.log"
    replies = iter([{"action": "accept"}, "hang"])  # consent, then the user leaves the waiting round open
    async with FakeTray(scratch / "t" / "socket", lambda params: next(replies)) as tray:
        with anyio.fail_after(SESSION_TIMEOUT_S):
            async with Client(wrapped(tray.path, log), mode="legacy") as client:
                async with anyio.create_task_group() as tg:
                    scopes: list[anyio.CancelScope] = []

                    async def call() -> None:
                        with anyio.CancelScope() as scope:
                            scopes.append(scope)
                            await client.call_tool("connect", {})

                    tg.start_soon(call)
                    while len(tray.requests) < 2:  # the waiting round is up
                        await anyio.sleep(0.02)  # bounded by fail_after
                    scopes[0].cancel()
                await tray.got_cancel.wait()  # the proxy withdrew the waiting round
                assert (await client.call_tool("finish_login", {})).content[0].text == "completed"
    # the round is the consent's URL elicitation again, in the same flow
    assert tray.requests[0] == tray.requests[1]
    assert tray.requests[1]["url"] == LOGIN_URL and tray.requests[1]["_meta"]["elicit-tray/flow"]
    assert tray.cancelled[0] == "eof" or tray.cancelled[0]["method"] == "notifications/cancelled"
    sent = wire(log)
    host_id = next(m["id"] for d, m in sent if d == "to-server" and m.get("method") == "tools/call")
    assert [m for d, m in sent if d == "to-host" and m.get("id") == host_id] == []
    assert not [m for d, m in sent if d == "to-host" and m.get("method") == "notifications/elicitation/complete"]
    assert retries(log, "connect") == 0
