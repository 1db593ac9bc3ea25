"""``elicit-tray wrap`` in front of a server written with the TypeScript SDK v2
(``tests/node/wrap_server.mjs``, ``@modelcontextprotocol/server`` 2.4.0 on the pinned Node 22):
a real ``mcp.Client`` host with NO elicitation callback, the tray app as a subprocess whose
scripted user operates the real widgets. Both eras: under 2025-11-25 (``legacy``) the SDK's legacy
shim sends ``elicitation/create``; under 2026-07-28 the server answers ``input_required`` and the
proxy retries. Every field kind of the schema subset, URL mode, and a URL step that takes
several rounds with the user's acts in between (``connect_rounds`` with its flag file missing:
one consent, then the flow's waiting window; the tray's windows are what its scripted user says
on stderr). The wire log must never show the host an ``elicitation/create`` or a proxy id.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

from tests.integration.node import NODE_DIR, node, require
from tests.integration.test_url_flow_e2e import all_windows_gone, gone_soon, opened, until, windows
from tests.integration.test_wrap_e2e import assert_host_never_saw_proxy_traffic, text, wire
from tests.integration.tray_process import TrayProcess

pytestmark = pytest.mark.anyio
SESSION_TIMEOUT_S = 90

FORM_STEPS = [
    {"do": "type", "field": "name", "text": "Ada"},
    {"do": "type", "field": "email", "text": "ada@example.org"},
    {"do": "type", "field": "homepage", "text": "https://example.org/ada"},
    {"do": "type", "field": "age", "text": "36"},
    {"do": "type", "field": "height", "text": "1.7"},
    {"do": "toggle", "field": "subscribe"},
    {"do": "pick", "field": "size", "option": "m"},
    {"do": "pick", "field": "plan", "option": "Pro"},
    {"do": "pick", "field": "pet", "option": "Dogs"},
    {"do": "check", "field": "toppings", "options": ["cheese", "olives"]},
    {"do": "check", "field": "colors", "options": ["Green"]},
    {"do": "submit"},
]
PLAN = [
    {"match": "Tell us about yourself", "once": True, "steps": FORM_STEPS},
    {"match": "Tell us about yourself", "once": True, "steps": [{"do": "decline"}]},
    {"match": "Connect your example.com account", "once": True, "steps": [{"do": "open"}]},
    {"match": "Connect your example.com account", "once": True, "steps": [{"do": "escape"}]},
    {"match": "Connect your example.com account", "once": True, "steps": [{"do": "open"}]},
]
# What the user typed and picked, and the untouched defaults (date, date-time) byte for byte.
FORM_CONTENT = {
    "name": "Ada",
    "email": "ada@example.org",
    "homepage": "https://example.org/ada",
    "birthday": "1990-12-10",
    "meeting": "2026-12-02T10:30:00+02:00",
    "age": 36,
    "height": 1.7,
    "subscribe": True,
    "size": "m",
    "plan": "pro",
    "pet": "p2",
    "toppings": ["cheese", "olives"],
    "colors": ["g"],
}
CALLS = ["every_field", "every_field", "connect", "connect", "connect_rounds"]
EXPECTED_REST = ["decline", "accept", "cancel", "accept after 1 round(s)"]


@pytest.fixture
def anyio_backend():
    return "asyncio"


def wrapped(sock: Path, log: Path, flag: Path) -> StdioServerParameters:
    env = dict(os.environ, ELICIT_TRAY_SOCKET=str(sock), ELICIT_TRAY_WRAP_LOG=str(log), ELICIT_TRAY_LOG="off")
    env["ELICIT_TEST_DONE_FLAG"] = str(flag)
    server = [node(), str(require(NODE_DIR / "wrap_server.mjs"))]
    return StdioServerParameters(command=sys.executable, args=["-m", "elicit_tray", "wrap", "--", *server], env=env)


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_a_typescript_v2_server_gets_the_users_answers_through_wrap(scratch, mode):
    tray = TrayProcess(scratch / "t" / "socket", PLAN, workdir=scratch).start()
    log, flag = scratch / "wire.log", scratch / "done"
    flag.touch()  # connect_rounds: the out-of-band step is finished before the first retry
    texts = []
    try:
        with anyio.fail_after(SESSION_TIMEOUT_S):
            async with Client(wrapped(tray.sock, log, flag), mode=mode) as client:
                for tool in CALLS:
                    result = await client.call_tool(tool, {})
                    assert not result.is_error, (tool, text(result))
                    texts.append(text(result))
    finally:
        assert tray.stop() == 0
    first, _, content = texts[0].partition(" ")
    assert (first, json.loads(content)) == ("accept", FORM_CONTENT)
    assert texts[1:] == EXPECTED_REST
    assert_host_never_saw_proxy_traffic(log)
    sent = wire(log)
    if mode == "legacy":  # the SDK's shim asked with elicitation/create; the proxy answered each
        asks = [m for d, m in sent if d == "to-server" and "result" in m and "action" in m["result"]]
        assert [m["result"]["action"] for m in asks] == ["accept", "decline", "accept", "cancel", "accept"]
    else:  # input_required: the proxy's own retries, one per answered round
        retries = [m for d, m in sent if d == "to-server" and str(m.get("id", "")).startswith("elicit-tray-")]
        assert [r["params"]["name"] for r in retries] == CALLS


CONNECT_URL = "https://auth.example.com/connect?session=4711"
ROUNDS_PLAN = [
    {"match": "Connect your example.com account", "once": True, "steps": [{"do": "open"}]},
    {"match": "Connect your example.com account", "once": True, "steps": [{"do": "finished"}]},
]
#: The user's acts arm this long after a window shows: time for the test to finish the
#: out-of-band step (create the flag) once it sees the waiting window, as the user would.
ROUNDS_ARM_MS = "2000"


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
@pytest.mark.parametrize(("act", "expected"), [("finished", "accept after 2 round(s)"), ("cancel", "cancel")])
async def test_a_url_step_over_several_rounds_is_one_consent_and_one_waiting_window(scratch, mode, act, expected):
    plan = [ROUNDS_PLAN[0], {**ROUNDS_PLAN[1], "steps": [{"do": act}]}]
    tray = TrayProcess(scratch / "t" / "socket", plan, workdir=scratch, extra_args=("--arm-delay-ms", ROUNDS_ARM_MS))
    tray.start()
    log, flag = scratch / "wire.log", scratch / "done"
    one_flow = sorted(["1 shown: UrlDialog", "1 gone", "2 shown: UrlWaitDialog", "2 gone"])
    try:
        with anyio.fail_after(SESSION_TIMEOUT_S):
            async with Client(wrapped(tray.sock, log, flag), mode=mode) as client:
                async with anyio.create_task_group() as tg:
                    got: list[str] = []

                    async def call() -> None:
                        got.append(text(await client.call_tool("connect_rounds", {})))

                    tg.start_soon(call)
                    await until(lambda: "2 shown: UrlWaitDialog" in windows(tray))  # the server is not done yet
                    if act == "finished":
                        flag.touch()  # the out-of-band step is done now
                assert got == [expected]
                if mode != "legacy":  # the host has its answer: the window goes now, wrap still runs
                    assert await gone_soon(tray) == one_flow
        assert await all_windows_gone(tray) == one_flow
        assert opened(tray) == [CONNECT_URL]
    finally:
        assert tray.stop() == 0
    assert_host_never_saw_proxy_traffic(log)
    answers = [{"action": "accept"}, {"action": "accept" if act == "finished" else "cancel"}]  # Open, then the act
    sent = [m for d, m in wire(log) if d == "to-server"]
    if mode == "legacy":  # each round's elicitation/create answered once, by the user's act
        assert [m["result"] for m in sent if "result" in m and "action" in m["result"]] == answers
    else:  # one retry per round, each sent after the user's act
        retries = [m for m in sent if str(m.get("id", "")).startswith("elicit-tray-")]
        assert [r["params"]["inputResponses"] for r in retries] == [{"connect": a} for a in answers]
