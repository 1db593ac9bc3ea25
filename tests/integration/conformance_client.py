"""The client under test for the MCP conformance suite's ``client`` mode (test helper).

``python -m tests.integration.conformance_client SERVER_URL``, started by the suite with
``MCP_CONFORMANCE_SCENARIO`` (and, from 0.2, ``MCP_CONFORMANCE_PROTOCOL_VERSION``) set: an
``mcp.Client`` (the Python SDK) over streamable HTTP whose only elicitation handling is elicit-tray's
``elicitation_callback()`` and ``completion_forwarder()``, talking to the tray on
``ELICIT_TRAY_SOCKET`` (the test's tray, whose scripted user answers). It lists the server's tools
and calls each one with ``{}`` in the order listed, printing one line per call
(``name: text``, or ``name: ExceptionType`` when the SDK raised); the suite judges what reached its
server. The protocol era follows the requested version: ``2026-07-28`` runs the
stateless lifecycle (``mode="2026-07-28"``), anything else the initialize handshake
(``mode="legacy"``). Exit 0 once the session ended normally, whatever each call gave.
"""

from __future__ import annotations

import asyncio
import os
import sys

from mcp import Client

from elicit_tray.client import completion_forwarder, elicitation_callback

MODERN = "2026-07-28"


async def run(url: str) -> int:
    """Call every tool of the server at ``url``; 0 once the session closed normally."""
    version = os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION", "")
    mode = MODERN if version == MODERN else "legacy"
    async with Client(
        url,
        mode=mode,
        elicitation_callback=elicitation_callback(autostart=False, client_name="conformance-client"),
        message_handler=completion_forwarder(),
    ) as client:
        tools = await client.list_tools()
        for tool in tools.tools:
            try:
                result = await client.call_tool(tool.name, {})
            except Exception as exc:  # the suite's verdict and the printed lines are what the test reads
                print(f"{tool.name}: {type(exc).__name__}", flush=True)
                continue
            text = " ".join(getattr(c, "text", "") for c in result.content)
            print(f"{tool.name}: {'error ' if result.is_error else ''}{text}", flush=True)
    return 0


def main() -> int:
    """Entry point: the server URL is the last argument (the suite appends it)."""
    return asyncio.run(run(sys.argv[-1]))


if __name__ == "__main__":
    sys.exit(main())
