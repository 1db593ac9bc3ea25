"""A real ``mcp`` SDK server that asks for dates with defaults and returns the content it got,
byte for byte, for the ``wrap`` date tests (``python -m tests.integration.dates_server``; both
protocol eras: back-channel ``elicitation/create`` at 2025-11-25, ``input_required`` at
2026-07-28).

``when()`` asks "When should it run?" with ``at`` (date-time, default ``2026-09-21T14:13:20Z``),
``at_ms`` (date-time, default ``2026-09-21T14:13:20.000Z``, as JavaScript's ``toISOString``
writes it), ``local`` (date-time, default ``2026-09-21t16:13:20+02:00``) and ``day`` (date,
default ``2026-09-21``), all optional, and returns ``<action> <content as JSON>`` (the content
exactly as the client sent it, keys in its order).
"""

from __future__ import annotations

import json

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ElicitRequest, ElicitRequestFormParams, InputRequiredResult

SCHEMA = {
    "type": "object",
    "properties": {
        "at": {"type": "string", "format": "date-time", "title": "At", "default": "2026-09-21T14:13:20Z"},
        "at_ms": {"type": "string", "format": "date-time", "title": "At (ms)", "default": "2026-09-21T14:13:20.000Z"},
        "local": {"type": "string", "format": "date-time", "title": "Local", "default": "2026-09-21t16:13:20+02:00"},
        "day": {"type": "string", "format": "date", "title": "Day", "default": "2026-09-21"},
    },
}
MESSAGE = "When should it run?"
server = MCPServer("dates", version="1.0")


def _said(action: str, content: object) -> str:
    return f"{action} {json.dumps(content)}"


@server.tool()
async def when(ctx: Context) -> str | InputRequiredResult:
    if ctx.session.can_send_request:  # 2025-11-25: a back-channel request
        result = await ctx.session.elicit_form(MESSAGE, SCHEMA, related_request_id=ctx.request_id)
        return _said(result.action, result.content)
    if not ctx.input_responses:  # 2026-07-28: ask in the result, read the retry
        params = ElicitRequestFormParams(message=MESSAGE, requested_schema=SCHEMA)
        return InputRequiredResult(input_requests={"when": ElicitRequest(params=params)}, request_state="when")
    answer = ctx.input_responses["when"]
    return _said(answer.action, answer.content)


if __name__ == "__main__":
    server.run("stdio")
