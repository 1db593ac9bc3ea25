"""The README's recipe for TypeScript agent runners, run exactly as committed:
``node examples/ts-agent-runner/runner.ts`` (``@modelcontextprotocol/client`` 2.4.0, its
``elicitation/create`` handler calling ``elicit-tray ask``) against the TypeScript SDK v2 server
of ``tests/node/wrap_server.mjs``, with the tray app as a subprocess whose scripted user operates
the real dialogs. Both eras (``--modern``: 2026-07-28, where the SDK fulfils ``input_required``
through the same handler). The lines the runner prints are exact: the user's decisions, the tray's
-32602 for a request over its limits, and ``ask``'s refusal of a socket that is not the user's own
as -32603, never a decision.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.node import NODE_DIR, REPO, node, require
from tests.integration.test_wrap_e2e_ts import FORM_CONTENT, FORM_STEPS
from tests.integration.tray_process import TrayProcess

RUNNER = REPO / "examples" / "ts-agent-runner" / "runner.ts"
TIMEOUT_S = 90
PLAN = [
    {"match": "Tell us about yourself", "once": True, "steps": FORM_STEPS},
    {"match": "Connect your example.com account", "once": True, "steps": [{"do": "open"}]},
    {"match": "Connect your example.com account", "once": True, "steps": [{"do": "decline"}]},
]
ERAS = {"legacy": ([], "2025-11-25"), "modern": (["--modern"], "2026-07-28")}


def run_runner(flags: list[str], tools: list[str], sock: Path) -> subprocess.CompletedProcess[str]:
    """The recipe with ``elicit-tray`` (this venv's) on PATH and the test's socket."""
    require(RUNNER.parent / "node_modules" / "@modelcontextprotocol" / "client")
    bin_dir = Path(sys.executable).parent
    require(bin_dir / "elicit-tray")
    env = dict(os.environ, ELICIT_TRAY_SOCKET=str(sock), PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    server = [node(), str(require(NODE_DIR / "wrap_server.mjs"))]
    argv = [node(), str(RUNNER), *flags, *tools, "--", *server]
    return subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=TIMEOUT_S)


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_the_recipe_hands_every_elicitation_to_the_tray_and_returns_its_answer(scratch, era):
    flags, version = ERAS[era]
    tray = TrayProcess(scratch / "t" / "socket", PLAN, workdir=scratch).start()
    try:
        done = run_runner(flags, ["every_field", "connect", "connect", "too_long"], tray.sock)
    finally:
        assert tray.stop() == 0
    assert (done.returncode, done.stderr) == (0, f"connected: protocol {version}\n")
    lines = done.stdout.splitlines()
    first, _, content = lines[0].partition(" ")
    assert (first, json.loads(content)) == ("accept", FORM_CONTENT)
    refused = "Invalid params: /message: longer than 10000 characters (10001)"
    # The server's SDK decides how an error of the client's handler reaches the tool's caller:
    # under 2025-11-25 its legacy shim makes it an error result, under 2026-07-28 it is the call's error.
    last = f"tool error: Fulfilling input required by 'tools/call' failed: {refused}"
    assert lines[1:] == ["accept", "decline", last if era == "legacy" else f"error -32602 {refused}"]


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_a_socket_that_is_not_the_users_own_is_an_error_never_a_decision(scratch, era):
    flags, _ = ERAS[era]
    shared = scratch / "shared"
    shared.mkdir(mode=0o755)
    shared.chmod(0o755)
    done = run_runner(flags, ["connect"], shared / "socket")
    said = (
        f"elicit-tray ask: refusing to use the elicit-tray socket {shared}/socket: its directory {shared} "
        f"(owned by uid {os.getuid()}) has mode 0755, open to other users; it must be 0700; nothing was sent. "
        f"Other users may have put a socket there. If you trust its contents, run: chmod 700 {shared}; "
        f"otherwise remove {shared}/socket. Then start elicit-tray again."
    )
    expected = f"tool error: Fulfilling input required by 'tools/call' failed: {said}"
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [expected if era == "legacy" else f"error -32603 {said}"]


def test_the_readme_shows_the_runners_own_lines():
    """The README's ``ts`` block is a piece of ``runner.ts`` as committed (indented by 2 there)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = readme.split("```ts\n", 1)[1].split("```", 1)[0]
    indented = "".join(f"  {line}" if line.strip() else line for line in block.splitlines(keepends=True))
    assert indented in RUNNER.read_text(encoding="utf-8")
