"""A URL flow over several rounds, end to end (docs/design.md "URL flows over several
rounds"): the demo server's ``link_account`` (the same URL asked again while its out-of-band step
is "not done"), a real ``mcp.Client`` host, the tray app as a subprocess whose scripted user
operates the real dialogs, both eras, both ways in: ``wrap`` (a host with no elicitation) and
``elicitation_callback()``. The tray's windows list is what its scripted user says on stderr
(``[tray] window N shown|round|gone``); the browser is the headless one (one stderr line per
open)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from elicit_tray.client import Completions, completion_forwarder, elicitation_callback
from elicit_tray.requester.completions import FLOW_LINGER_S
from tests.integration.test_wrap_e2e import assert_host_never_saw_proxy_traffic, text, wire, wrapped
from tests.integration.tray_process import TrayProcess

pytestmark = pytest.mark.anyio
SESSION_TIMEOUT_S = 90
MODES = ["legacy", "2026-07-28"]
LINK = "Link your account"
STEP1 = "https://auth.example.com/link?step=1"
STEP2 = "https://auth.example.com/link?step=2"


@pytest.fixture
def anyio_backend():
    return "asyncio"


def plan(*steps: str) -> list[dict[str, Any]]:
    """One scripted act per round of the flow, in order; then the user does nothing."""
    return [{"match": LINK, "once": True, "steps": [{"do": do}] if do else []} for do in steps]


def direct() -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "elicit_tray.demo.server"], env=dict(os.environ))


def windows(tray: TrayProcess) -> list[str]:
    return re.findall(r"\[tray\] window (\d+ (?:shown|round): \w+|\d+ gone)", tray.stderr)


def opened(tray: TrayProcess) -> list[str]:
    return re.findall(r"the browser would open: (\S+)", tray.stderr)


async def all_windows_gone(tray: TrayProcess) -> list[str]:
    """The windows list once every window shown is gone (bounded poll of the tray's stderr)."""
    with anyio.fail_after(SESSION_TIMEOUT_S):
        while True:
            seen = windows(tray)
            shown = {line.split()[0] for line in seen if "shown" in line}
            if shown == {line.split()[0] for line in seen if line.endswith("gone")}:
                return sorted(seen)
            await anyio.sleep(0.02)  # bounded poll (fail_after) of the stderr file


async def gone_soon(tray: TrayProcess) -> list[str]:
    """The windows list once every window shown is gone, within half of
    :data:`FLOW_LINGER_S` (so a window left to linger fails); bounded 20 ms polls."""
    with anyio.fail_after(FLOW_LINGER_S / 2):
        return await all_windows_gone(tray)


async def until(condition: Any) -> None:
    with anyio.fail_after(SESSION_TIMEOUT_S):
        while not condition():
            await anyio.sleep(0.02)  # bounded poll (fail_after) of the stderr file


def client(way: str, tray: TrayProcess, log: Path, mode: str) -> Client:
    if way == "wrap":
        return Client(wrapped(tray.sock, log), mode=mode)
    completions = Completions()
    return Client(
        direct(),
        mode=mode,
        elicitation_callback=elicitation_callback(socket_path=tray.sock, autostart=False, completions=completions),
        message_handler=completion_forwarder(completions=completions),
    )


@pytest.mark.parametrize("way", ["wrap", "callback"])
@pytest.mark.parametrize("mode", MODES)
async def test_three_rounds_are_one_consent_one_waiting_window_and_one_browser_open(scratch, mode, way):
    tray = TrayProcess(scratch / "t" / "socket", plan("open", "finished", "finished"), workdir=scratch).start()
    log = scratch / "wire.log"
    try:
        with anyio.fail_after(SESSION_TIMEOUT_S):
            async with client(way, tray, log, mode) as host:
                result = await host.call_tool("link_account", {"rounds": 3})
                assert (text(result), result.is_error) == ("linked after 3 rounds", False)
        assert await all_windows_gone(tray) == sorted(
            ["1 shown: UrlDialog", "1 gone", "2 shown: UrlWaitDialog", "2 round: UrlWaitDialog", "2 gone"]
        )
        assert opened(tray) == [STEP1]
    finally:
        assert tray.stop() == 0
    if way == "wrap":
        assert_host_never_saw_proxy_traffic(log)
        to_server = [m for d, m in wire(log) if d == "to-server"]
        if mode == "legacy":  # each round answered once, by the user's act
            answers = [m["result"] for m in to_server if "result" in m and "id" in m and "action" in m["result"]]
            assert answers == [{"action": "accept"}] * 3
        else:  # one retry per round, each sent after the user's act
            retries = [m for m in to_server if str(m.get("id", "")).startswith("elicit-tray-")]
            assert [r["params"]["inputResponses"] for r in retries] == [{"link_account": {"action": "accept"}}] * 3


@pytest.mark.parametrize("way", ["wrap", "callback"])
@pytest.mark.parametrize("mode", MODES)
async def test_a_later_round_for_another_url_asks_for_consent_again(scratch, mode, way):
    tray = TrayProcess(scratch / "t" / "socket", plan("open", "finished", "open"), workdir=scratch).start()
    try:
        with anyio.fail_after(SESSION_TIMEOUT_S):
            async with client(way, tray, scratch / "wire.log", mode) as host:
                result = await host.call_tool("link_account", {"rounds": 2, "step2_rounds": 1})
                assert text(result) == "linked after 3 rounds"
        assert await all_windows_gone(tray) == sorted(
            ["1 shown: UrlDialog", "1 gone", "2 shown: UrlWaitDialog", "2 gone", "3 shown: UrlDialog", "3 gone"]
        )
        assert opened(tray) == [STEP1, STEP2]
    finally:
        assert tray.stop() == 0


@pytest.mark.parametrize("way", ["wrap", "callback"])
@pytest.mark.parametrize("mode", MODES)
async def test_cancel_in_the_waiting_window_is_the_servers_answer(scratch, mode, way):
    tray = TrayProcess(scratch / "t" / "socket", plan("open", "cancel"), workdir=scratch).start()
    try:
        with anyio.fail_after(SESSION_TIMEOUT_S):
            async with client(way, tray, scratch / "wire.log", mode) as host:
                result = await host.call_tool("link_account", {"rounds": 3})
                assert text(result) == "cancel in round 2"
        assert await all_windows_gone(tray) == sorted(
            ["1 shown: UrlDialog", "1 gone", "2 shown: UrlWaitDialog", "2 gone"]
        )
    finally:
        assert tray.stop() == 0


@pytest.mark.parametrize("way", ["wrap", "callback"])
@pytest.mark.parametrize("mode", MODES)
async def test_host_gone_while_a_round_waits_leaves_no_window(scratch, mode, way):
    tray = TrayProcess(scratch / "t" / "socket", plan("open", ""), workdir=scratch).start()
    try:
        with anyio.fail_after(SESSION_TIMEOUT_S):
            with anyio.CancelScope() as scope:
                async with client(way, tray, scratch / "wire.log", mode) as host:
                    async with anyio.create_task_group() as tg:
                        tg.start_soon(host.call_tool, "link_account", {"rounds": 3})
                        await until(lambda: "2 shown: UrlWaitDialog" in windows(tray))
                        scope.cancel()  # the host goes away mid-flow (and with it wrap and the server)
        assert await all_windows_gone(tray) == sorted(
            ["1 shown: UrlDialog", "1 gone", "2 shown: UrlWaitDialog", "2 gone"]
        )
        assert opened(tray) == [STEP1]
    finally:
        assert tray.stop() == 0


async def test_wrap_closes_the_waiting_window_as_soon_as_the_host_has_its_answer(scratch):
    """2026-07-28 rounds carry no elicitationId: the requester cannot tell the server's final
    answer from a slow one, but wrap can (it hands the host the answer): the flow's window goes
    then, while the host, wrap and the server still run."""
    tray = TrayProcess(scratch / "t" / "socket", plan("open", "finished", "finished"), workdir=scratch).start()
    try:
        with anyio.fail_after(SESSION_TIMEOUT_S):
            async with client("wrap", tray, scratch / "wire.log", "2026-07-28") as host:
                result = await host.call_tool("link_account", {"rounds": 3})
                assert text(result) == "linked after 3 rounds"
                assert await gone_soon(tray) == sorted(
                    ["1 shown: UrlDialog", "1 gone", "2 shown: UrlWaitDialog", "2 round: UrlWaitDialog", "2 gone"]
                )
    finally:
        assert tray.stop() == 0
