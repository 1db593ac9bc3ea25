"""Dates through ``elicit-tray wrap`` in both protocol eras: a real ``mcp`` SDK server that
returns the content it got (``tests/integration/dates_server.py``), a host with no elicitation,
and the tray app with a scripted user on the real pickers. An untouched date or date-time
default comes back byte for byte (``...Z``, ``.000Z``, a lower-case ``t``); a date-time the user
changed is written with seconds and the default's offset as ``+HH:MM`` (README "What a form
sends")."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

from tests.integration.tray_process import TrayProcess

pytestmark = pytest.mark.anyio
ROOT = Path(__file__).resolve().parents[2]
UNTOUCHED = {
    "at": "2026-09-21T14:13:20Z",
    "at_ms": "2026-09-21T14:13:20.000Z",
    "local": "2026-09-21t16:13:20+02:00",
    "day": "2026-09-21",
}


@pytest.fixture
def anyio_backend():
    return "asyncio"


async def _content(scratch: Path, mode: str, steps: list[dict[str, str]]) -> str:
    plan = [{"match": "When should it run?", "steps": [*steps, {"do": "submit"}]}]
    tray = TrayProcess(scratch / "t" / "socket", plan, workdir=scratch, env={"TZ": "Europe/Berlin"}).start()
    env = dict(os.environ, ELICIT_TRAY_SOCKET=str(tray.sock), ELICIT_TRAY_LOG="off")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "elicit_tray", "wrap", "--", sys.executable, "-m", "tests.integration.dates_server"],
        env=env,
    )
    try:
        with anyio.fail_after(90):
            async with Client(server, mode=mode) as client:
                result = await client.call_tool("when", {})
    finally:
        assert tray.stop() == 0
    return result.content[0].text


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_untouched_date_defaults_come_back_byte_for_byte(scratch, mode):
    assert await _content(scratch, mode, []) == "accept " + json.dumps(UNTOUCHED)


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_a_changed_date_time_is_written_with_seconds_and_the_defaults_offset(scratch, mode):
    steps = [
        {"do": "clear", "field": "at"},
        {"do": "type", "field": "at", "text": "2027-03-04 05:06:07"},
        {"do": "clear", "field": "day"},
        {"do": "type", "field": "day", "text": "2027-03-04"},
    ]
    expected = dict(UNTOUCHED, at="2027-03-04T05:06:07+00:00", day="2027-03-04")
    assert await _content(scratch, mode, steps) == "accept " + json.dumps(expected)
