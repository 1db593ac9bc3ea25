"""The demo server's own elicitations as params, so that ``elicit-tray check`` can vet them.

``python -m elicit_tray.checker.demo OUT_DIR`` writes one ``<tool>.json`` per elicitation of
:mod:`elicit_tray.demo.server` (the params its ``MCPServer`` sends: the message and the
``requestedSchema`` the SDK renders from each Pydantic model with
``mcp.server.elicitation.render_elicitation_schema``; for ``connect_account`` and ``link_account``
the URL-mode params) and prints their paths. ``.ci/run`` checks each with ``elicit-tray check --strict``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

__all__ = ["demo_params", "main"]


def demo_params() -> dict[str, dict[str, Any]]:
    """Tool name -> the ``elicitation/create`` params the demo server sends for it (2025-11-25
    form; under 2026-07-28 the same object sits in ``inputRequests``). Imports the ``mcp`` SDK."""
    from mcp.server.elicitation import render_elicitation_schema
    from mcp.server.mcpserver import Elicit

    from ..demo import server

    asks: dict[str, Elicit[Any]] = {
        "book_table": server.ask_booking(),
        "deploy": server.ask_deploy(),
        "delete_project": server.ask_delete("prj_123"),
        "feedback": server.ask_feedback(),
    }
    params = {
        name: {"message": ask.message, "requestedSchema": render_elicitation_schema(ask.schema)}
        for name, ask in asks.items()
    }
    message, url, elicitation_id = server._consent_request()
    params["connect_account"] = {"mode": "url", "message": message, "url": url, "elicitationId": elicitation_id}
    params["link_account"] = {
        "mode": "url",
        "message": server._LINK_MESSAGE,
        "url": server._link_url(1, 1),
        "elicitationId": elicitation_id,
    }
    return params


def main(argv: list[str] | None = None) -> int:
    """Write the params to ``argv[0]`` (a folder); returns 0, or 2 without a folder."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m elicit_tray.checker.demo OUT_DIR", file=sys.stderr)
        return 2
    out = Path(args[0])
    out.mkdir(parents=True, exist_ok=True)
    for name, params in demo_params().items():
        path = out / f"{name}.json"
        path.write_text(json.dumps(params, ensure_ascii=False) + "\n", encoding="utf-8")
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
