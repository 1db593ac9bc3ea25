"""``elicit-tray demo``: the bundled MCP server's elicitations answered through the tray app.

The real path: MCP server (``elicit_tray.demo.server``, stdio subprocess) -> ``mcp.Client``
with :func:`elicit_tray.client.elicitation_callback` -> local socket -> tray app dialog ->
answer -> server. Runs both protocol versions (legacy 2025-11-25 and 2026-07-28) and prints
each request and each answer. With a display a person answers real windows; without one
(or with ``--headless``) the tray app runs offscreen with a scripted user that operates the
real widgets, and a PNG of every dialog is saved.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

__all__ = ["run_demo", "HEADLESS_PLAN", "TOOLS"]

#: The tools called, in order, with their arguments.
TOOLS: list[tuple[str, dict[str, Any]]] = [
    ("book_table", {"restaurant": "Chez Demo"}),
    ("deploy", {"service": "web"}),
    ("delete_project", {"project": "prj_123"}),
    ("feedback", {}),
    ("connect_account", {}),
]

#: What the headless scripted user does, dialog by dialog (first run legacy, then 2026-07-28).
HEADLESS_PLAN: list[dict[str, Any]] = [
    {"match": "confirm your booking", "once": True, "steps": [{"do": "toggle", "field": "confirm"}, {"do": "submit"}]},
    {
        "match": "Confirm the deployment",
        "once": True,
        "steps": [{"do": "pick", "field": "environment", "option": "Production"}, {"do": "submit"}],
    },
    {"match": "Delete project", "once": True, "steps": [{"do": "decline"}]},
    {
        "match": "How was the demo?",
        "once": True,
        "steps": [
            {"do": "type", "field": "rating", "text": "5"},
            {"do": "type", "field": "comment", "text": "Clear & quick."},
            {"do": "submit"},
        ],
    },
    {"match": "Authorize access", "once": True, "steps": [{"do": "open"}]},
    {"match": "confirm your booking", "once": True, "steps": [{"do": "escape"}]},
    {"match": "Confirm the deployment", "once": True, "steps": [{"do": "submit"}]},
    {"match": "Delete project", "once": True, "steps": [{"do": "toggle", "field": "confirm"}, {"do": "submit"}]},
    {
        "match": "How was the demo?",
        "once": True,
        "steps": [{"do": "type", "field": "rating", "text": "4.5"}, {"do": "submit"}],
    },
    {"match": "Authorize access", "once": True, "steps": [{"do": "decline"}]},
    # The run through `elicit-tray wrap` (a host without elicitation support).
    {"match": "confirm your booking", "once": True, "steps": [{"do": "toggle", "field": "confirm"}, {"do": "submit"}]},
]


def _has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) or sys.platform in ("darwin", "win32")


def _start_headless_tray(workdir: Path, out_dir: Path) -> tuple[subprocess.Popen[bytes], Path]:
    from ..client import tray_command

    socket_path = workdir / "socket"
    plan = workdir / "plan.json"
    plan.write_text(json.dumps(HEADLESS_PLAN), encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.Popen(
        [
            *tray_command(),
            "--socket",
            str(socket_path),
            "serve",
            "--scripted-user",
            str(plan),
            "--screenshots",
            str(out_dir),
            "--no-browser",
        ],
        env=env,
        stdin=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 20
    from ..paths import probe_socket

    while not probe_socket(socket_path):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"the headless tray app did not start (exit code {proc.poll()})")
        time.sleep(0.05)
    return proc, socket_path


def _describe(params: Any) -> str:
    if getattr(params, "mode", "form") == "url":
        return f"URL mode: {params.message!r} -> {params.url}"
    props = params.requested_schema.get("properties", {})
    return f"form: {params.message!r} fields: {', '.join(props) or '(none: a confirmation)'}"


async def _drive(socket_path: Path, modes: list[str]) -> None:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    from ..client import completion_forwarder, elicitation_callback

    # A client pinned to 2026-07-28 skips server/discover, so the SDK session knows no server
    # name; the demo knows which server it started.
    tray_callback = elicitation_callback(
        socket_path=socket_path, client_name="elicit-tray demo", server_name="elicit-tray-demo"
    )

    async def traced(context: Any, params: Any) -> Any:
        print(f"    server asks ({_describe(params)})", flush=True)
        answer = await tray_callback(context, params)
        print(f"    user answered: {json.dumps(answer.model_dump(by_alias=True, exclude_none=True))}", flush=True)
        return answer

    server = StdioServerParameters(command=sys.executable, args=["-m", "elicit_tray.demo.server"], env=dict(os.environ))
    for mode in modes:
        print(f"== MCP protocol {mode} ==", flush=True)
        async with Client(
            server,
            mode=mode,
            elicitation_callback=traced,
            message_handler=completion_forwarder(socket_path=socket_path),
        ) as client:
            for tool, arguments in TOOLS:
                print(f"  -> tools/call {tool} {json.dumps(arguments)}", flush=True)
                result = await client.call_tool(tool, arguments)
                text = " ".join(getattr(c, "text", "") for c in result.content)
                print(f"  <- {tool}: {text}{' (tool error)' if result.is_error else ''}", flush=True)
    # One run through `elicit-tray wrap`: the host has no elicitation callback at all; the proxy
    # declares elicitation for it and answers the server's question through the tray.
    wrapped = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "elicit_tray",
            "--socket",
            str(socket_path),
            "wrap",
            "--",
            sys.executable,
            "-m",
            "elicit_tray.demo.server",
        ],
        env=dict(os.environ),
    )
    print(f"== through `elicit-tray wrap`, MCP protocol {modes[-1]}, a host WITHOUT elicitation support ==", flush=True)
    async with Client(wrapped, mode=modes[-1]) as client:
        print('  -> tools/call book_table {"restaurant": "Chez Demo"} (wrap asks the tray)', flush=True)
        result = await client.call_tool("book_table", {"restaurant": "Chez Demo"})
        text = " ".join(getattr(c, "text", "") for c in result.content)
        print(f"  <- book_table: {text}{' (tool error)' if result.is_error else ''}", flush=True)


def run_demo(*, headless: bool = False, out_dir: Path = Path("demo-output"), modes: str = "both") -> int:
    """Run the demo; returns the exit code (0 when every call completed).

    ``modes``: ``"legacy"``, ``"2026-07-28"`` or ``"both"``. Headless when asked or when there
    is no display; the PNGs then go to ``out_dir``.
    """
    from ..client import ensure_running

    selected = ["legacy", "2026-07-28"] if modes == "both" else [modes]
    headless = headless or not _has_display()
    proc = None
    with tempfile.TemporaryDirectory(prefix="elicit-tray-demo-") as tmp:
        try:
            if headless:
                out_dir = out_dir.resolve()
                print(
                    f"No display (or --headless): a scripted user answers offscreen; PNGs go to {out_dir}", flush=True
                )
                proc, socket_path = _start_headless_tray(Path(tmp), out_dir)
            else:
                socket_path = asyncio.run(ensure_running())
                print(f"Answer the dialogs as they appear (tray app on {socket_path}).", flush=True)
            asyncio.run(_drive(socket_path, selected))
        except Exception as exc:  # report, don't trace back at the user
            print(f"demo failed: {type(exc).__name__}: {exc}", file=sys.stderr)
            return 1
        finally:
            if proc is not None:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
    if headless:
        print(f"Screenshots of every dialog: {out_dir}", flush=True)
    return 0
