"""A real ``mcp`` SDK server whose tools answer ``-32042`` (URL elicitation required), for the
``wrap`` tests (run as ``python -m tests.integration.url_required_server``; 2025-11-25).

- ``connect()``: the first call raises ``UrlElicitationRequiredError`` for
  ``https://login.example.com/start?s=1`` (``elicitationId`` ``login-1``); later calls return
  ``connected after <n> calls``.
- ``finish_login()``: sends ``notifications/elicitation/complete`` for ``login-1`` (what a server
  does when its web page reports the user done) and returns ``completed``.
- ``connect_twice()``: ``-32042`` for ``login-1`` at ``https://login.example.com/start?s=1``,
  then for ``login-2`` at ``https://consent.example.org/grant``, then ``granted after <n> calls``.
"""

from __future__ import annotations

from mcp import UrlElicitationRequiredError
from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ElicitRequestURLParams

FIRST = ElicitRequestURLParams(
    message="Log in to Example to connect.", url="https://login.example.com/start?s=1", elicitation_id="login-1"
)
SECOND = ElicitRequestURLParams(
    message="Grant access to your files.", url="https://consent.example.org/grant", elicitation_id="login-2"
)
server = MCPServer("url-required", version="1.0")
calls = {"connect": 0, "connect_twice": 0}


@server.tool()
async def connect() -> str:
    calls["connect"] += 1
    if calls["connect"] == 1:
        raise UrlElicitationRequiredError([FIRST])
    return f"connected after {calls['connect']} calls"


@server.tool()
async def finish_login(ctx: Context) -> str:
    await ctx.session.send_elicit_complete("login-1")
    return "completed"


@server.tool()
async def connect_twice() -> str:
    calls["connect_twice"] += 1
    if calls["connect_twice"] <= 2:
        raise UrlElicitationRequiredError([FIRST if calls["connect_twice"] == 1 else SECOND])
    return f"granted after {calls['connect_twice']} calls"


if __name__ == "__main__":
    server.run("stdio")
