"""Requesters started with a bare environment find the user's tray app (README "Using it from an
MCP client": the socket path).

The TypeScript and Python SDKs start stdio servers with only ``HOME LOGNAME PATH SHELL TERM USER``
unless told otherwise, so ``wrap`` (and whatever it starts) sees no ``XDG_RUNTIME_DIR`` and no
``ELICIT_TRAY_SOCKET``. Here an unprivileged user (the one the sway tests use) runs the tray app
with ``XDG_RUNTIME_DIR=/run/user/<uid>`` as a desktop login sets it, or with it unset, and every
requester runs with exactly that bare environment: ``elicit-tray ask``, ``wrap`` started by a real
``mcp.Client`` host with the SDK's default environment, and ``elicitation_callback()``. When no
tray runs, the message names the socket path tried and what to do. ``/run/user/<uid>`` is made
(0700, the user's) when no logind made it. Root only (CI runs as root); fails, never skips.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .sway import VENV_PYTHON, _user

RUN_TIMEOUT_S = 90
PLAN = [
    {"match": "confirm your booking", "steps": [{"do": "toggle", "field": "confirm"}, {"do": "submit"}]},
    {"match": "Bare?", "steps": [{"do": "submit"}]},
]
#: A host with no elicitation of its own: the SDK starts ``wrap`` with its default environment.
WRAP_HOST = r"""
import sys, anyio
from mcp import Client, StdioServerParameters
async def main():
    server = StdioServerParameters(command=sys.executable, args=["-m", "elicit_tray", "wrap", "--", sys.executable, "-m", "elicit_tray.demo.server"])
    async with Client(server, mode=sys.argv[1]) as client:
        result = await client.call_tool("book_table", {})
    print(" ".join(c.text for c in result.content))
anyio.run(main)
"""
#: A host that answers through ``elicitation_callback()``, itself started with a bare environment.
CALLBACK_HOST = r"""
import sys, anyio
from mcp import Client, StdioServerParameters
from elicit_tray.client import elicitation_callback
async def main():
    server = StdioServerParameters(command=sys.executable, args=["-m", "elicit_tray.demo.server"])
    async with Client(server, mode="auto", elicitation_callback=elicitation_callback()) as client:
        result = await client.call_tool("book_table", {})
    print(" ".join(c.text for c in result.content))
anyio.run(main)
"""


def bare(user: pwd.struct_passwd) -> dict[str, str]:
    """What the SDKs pass a stdio server by default (``get_default_environment``)."""
    return {
        "HOME": user.pw_dir,
        "LOGNAME": user.pw_name,
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "SHELL": "/bin/sh",
        "TERM": "dumb",
        "USER": user.pw_name,
    }


def as_user(user: pwd.struct_passwd, env: dict[str, str], *argv: str) -> list[str]:
    return ["runuser", "-u", user.pw_name, "--", "env", "-i", *[f"{k}={v}" for k, v in env.items()], *argv]


@pytest.fixture(scope="module")
def user() -> Iterator[pwd.struct_passwd]:
    """The unprivileged user, with ``/run/user/<uid>`` (0700, theirs) as logind makes it."""
    if os.geteuid() != 0:
        pytest.fail("these tests run requesters as an unprivileged user: run them as root (CI does)")
    if not shutil.which("runuser"):
        pytest.fail("runuser is missing (util-linux)")
    if not VENV_PYTHON.exists():
        pytest.fail(f"{VENV_PYTHON} is missing: scripts/setup.sh makes it")
    who = _user()
    runtime = Path("/run/user", str(who.pw_uid))
    made = not runtime.exists()
    if made:
        Path("/run/user").mkdir(mode=0o755, exist_ok=True)
        runtime.mkdir(mode=0o700)
        os.chown(runtime, who.pw_uid, who.pw_gid)
    info = runtime.stat()
    assert (info.st_uid, info.st_mode & 0o777) == (who.pw_uid, 0o700)
    try:
        yield who
    finally:
        if made:
            shutil.rmtree(runtime, ignore_errors=True)


@pytest.fixture
def folder(user: pwd.struct_passwd) -> Iterator[Path]:
    path = Path(f"/tmp/et-bare-{os.getpid()}-{time.monotonic_ns()}")
    path.mkdir(mode=0o700)
    os.chown(path, user.pw_uid, user.pw_gid)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def _tray(user: pwd.struct_passwd, folder: Path, runtime_dir: bool) -> tuple[subprocess.Popen[bytes], Path]:
    plan = folder / "plan.json"
    plan.write_text(json.dumps(PLAN), encoding="utf-8")
    os.chown(plan, user.pw_uid, user.pw_gid)
    env = dict(
        bare(user),
        QT_QPA_PLATFORM="offscreen",
        ELICIT_TRAY_LOG="off",
        ELICIT_TRAY_HISTORY="off",
        ELICIT_TRAY_CONFIG="/dev/null",
    )
    if runtime_dir:
        env["XDG_RUNTIME_DIR"] = f"/run/user/{user.pw_uid}"
    log = folder / "tray.err"
    with open(log, "wb") as err:
        argv = as_user(user, env, str(VENV_PYTHON), "-m", "elicit_tray", "serve", "--scripted-user", str(plan))
        process = subprocess.Popen([*argv, "--no-browser"], stdin=subprocess.DEVNULL, stderr=err)
    deadline = time.monotonic() + RUN_TIMEOUT_S
    while "listening on" not in log.read_text(errors="replace"):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise AssertionError("the tray app did not listen: " + log.read_text(errors="replace"))
        time.sleep(0.02)  # bounded poll for "listening on"
    return process, log


def _stop(runuser: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the tray app itself (``runuser``'s child: ``env`` ran it in its place), then its
    exit status, which ``runuser`` passes on, must be 0."""
    children = Path(f"/proc/{runuser.pid}/task/{runuser.pid}/children").read_text().split()
    for child in children:
        os.kill(int(child), signal.SIGTERM)
    assert runuser.wait(timeout=RUN_TIMEOUT_S) == 0


def _run(user: pwd.struct_passwd, *argv: str, data: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        as_user(user, bare(user), *argv), input=data, capture_output=True, text=True, timeout=RUN_TIMEOUT_S
    )


@pytest.mark.parametrize("runtime_dir", [True, False], ids=["tray-with-XDG_RUNTIME_DIR", "tray-without-it"])
def test_every_requester_with_a_bare_environment_finds_the_tray(user, folder, runtime_dir):
    tray, log = _tray(user, folder, runtime_dir)
    socket = f"/run/user/{user.pw_uid}/elicit-tray/socket"
    try:
        assert f"listening on {socket}" in log.read_text()
        params = json.dumps({"message": "Bare?", "requestedSchema": {"type": "object", "properties": {}}})
        asked = _run(user, str(VENV_PYTHON), "-m", "elicit_tray", "ask", data=params)
        assert (asked.returncode, asked.stdout, asked.stderr) == (0, '{"action": "accept", "content": {}}\n', "")
        for mode in ("legacy", "2026-07-28"):
            wrapped = _run(user, str(VENV_PYTHON), "-c", WRAP_HOST, mode)
            assert (wrapped.returncode, wrapped.stdout) == (0, 'accept {"confirm": true}\n'), wrapped.stderr
        called = _run(user, str(VENV_PYTHON), "-c", CALLBACK_HOST)
        assert (called.returncode, called.stdout) == (0, 'accept {"confirm": true}\n'), called.stderr
    finally:
        _stop(tray)
    assert not Path(socket).exists()  # the tray app removed it on its way out


def _advice(socket: str) -> str:
    return (
        f"no elicit-tray app answers at {socket} (no socket there). Start it (elicit-tray serve), or, if it "
        'runs on another socket (it says "listening on PATH"), set ELICIT_TRAY_SOCKET=PATH where this program '
        'is started: for a server behind elicit-tray wrap, in the "env" of its entry in the MCP host\'s '
        "configuration (hosts may start servers without XDG_RUNTIME_DIR)"
    )


def test_no_tray_the_message_names_the_socket_tried_and_what_to_do(user, folder):
    socket = f"/run/user/{user.pw_uid}/elicit-tray/socket"
    params = json.dumps({"message": "Bare?", "requestedSchema": {"type": "object", "properties": {}}})
    asked = _run(user, str(VENV_PYTHON), "-m", "elicit_tray", "ask", "--no-start", data=params)
    assert (asked.returncode, asked.stdout, asked.stderr) == (5, "", f"elicit-tray ask: {_advice(socket)}\n")
    started = _run(user, str(VENV_PYTHON), "-m", "elicit_tray", "ask", data=params)  # no display to start one on
    assert (started.returncode, started.stderr) == (
        5,
        f"elicit-tray ask: {_advice(socket)}; and none can be started here: no display to show dialogs on "
        "(DISPLAY, WAYLAND_DISPLAY and QT_QPA_PLATFORM are unset)\n",
    )
    init = (
        '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
        '"capabilities":{},"clientInfo":{"name":"h","version":"1"}}}\n'
    )
    wrapped = _run(user, str(VENV_PYTHON), "-m", "elicit_tray", "wrap", "--", "cat", data=init)
    assert (wrapped.returncode, wrapped.stdout) == (0, init)  # nothing declared: the host's own capabilities
    assert wrapped.stderr == f"elicit-tray wrap: elicitation is not declared for the host: {_advice(socket)}\n"
