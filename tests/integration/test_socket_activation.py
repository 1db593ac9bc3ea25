"""Socket activation: the tray app adopts a listening socket passed the way systemd passes it
(``sd_listen_fds``: descriptor 3, ``LISTEN_FDS=1``, ``LISTEN_PID`` = the app's pid), answers on
it, and leaves it in place when it quits, so the next connection can start it again.

The test plays the service manager: it binds and listens, then starts the app through a tiny
wrapper that moves the socket to descriptor 3, sets ``LISTEN_PID`` to its own pid and execs the
app (the pid is only known in the child).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from elicit_tray.ipc.server import listen_fds

from .tray_process import START_TIMEOUT_S, Conn, short_tmpdir, tray_env

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Unix sockets, sd_listen_fds")

#: Runs in the child: socket to fd 3, the sd_listen_fds variables, then exec the app (same pid).
WRAPPER = """\
import os, sys
fd = int(sys.argv[1])
if fd != 3:
    os.dup2(fd, 3)
    os.close(fd)
os.environ["LISTEN_FDS"] = "1"
os.environ["LISTEN_PID"] = str(os.getpid())
os.execv(sys.executable, [sys.executable, "-m", "elicit_tray", *sys.argv[2:]])
"""
PLAN = [{"match": "submit-me", "steps": [{"do": "submit"}]}]
FORM = {
    "message": "submit-me: how many?",
    "requestedSchema": {"type": "object", "properties": {"copies": {"type": "integer", "default": 2}}},
}


@pytest.fixture
def manager() -> Iterator[tuple[Path, socket.socket]]:
    """A private directory with a listening socket in it, as ``elicit-tray.socket`` makes it."""
    scratch = short_tmpdir()
    run = scratch / "run"
    run.mkdir(mode=0o700)
    path = run / "socket"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    os.chmod(path, 0o600)
    listener.listen(16)
    try:
        yield scratch, listener
    finally:
        listener.close()
        shutil.rmtree(scratch, ignore_errors=True)


def activate(scratch: Path, listener: socket.socket, *serve_args: str) -> tuple[subprocess.Popen[bytes], Path]:
    """Start ``elicit-tray --socket <elsewhere> serve ...`` with ``listener`` passed like systemd
    does; wait (bounded) until it listens. The ``--socket`` path must be ignored."""
    plan = scratch / "plan.json"
    plan.write_text(json.dumps(PLAN), encoding="utf-8")
    err_path = scratch / f"stderr-{time.monotonic_ns()}.txt"
    fd = listener.fileno()
    argv = [
        sys.executable,
        "-c",
        WRAPPER,
        str(fd),
        "--socket",
        str(scratch / "not-this" / "socket"),
        "serve",
        "--scripted-user",
        str(plan),
        "--no-browser",
        "--arm-delay-ms",
        "0",
        *serve_args,
    ]
    with open(err_path, "wb") as err:
        proc = subprocess.Popen(
            argv, pass_fds=(fd,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, env=tray_env()
        )
    deadline = time.monotonic() + START_TIMEOUT_S
    while "listening on" not in err_path.read_text(errors="replace"):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            proc.wait()
            raise AssertionError(f"the activated app did not listen:\n{err_path.read_text(errors='replace')}")
        time.sleep(0.02)  # bounded poll of the stderr file for "listening on"
    return proc, err_path


def stop(proc: subprocess.Popen[bytes]) -> int:
    proc.terminate()
    try:
        return proc.wait(timeout=START_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise


def test_the_app_answers_on_the_socket_passed_by_the_service_manager(manager) -> None:
    scratch, listener = manager
    path = Path(listener.getsockname())
    proc, err = activate(scratch, listener)
    try:
        assert f"listening on {path}" in err.read_text()
        assert not (scratch / "not-this").exists()  # adopted: no socket of its own
        with Conn(path) as conn:
            assert conn.call(1, "ping") == {"jsonrpc": "2.0", "id": 1, "result": {}}
            assert conn.call(2, "elicitation/create", FORM) == {
                "jsonrpc": "2.0",
                "id": 2,
                "result": {"action": "accept", "content": {"copies": 2}},
            }
    finally:
        assert stop(proc) == 0, err.read_text()
    # The socket file stays: the service manager still listens and starts the app again.
    assert path.exists() and not [p for p in path.parent.iterdir() if p.name != "socket"]
    waiting = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    waiting.settimeout(10)
    waiting.connect(str(path))  # queued in the manager's backlog, like a requester that triggers activation
    waiting.sendall(b'{"jsonrpc": "2.0", "id": 7, "method": "ping"}\n')
    proc, err = activate(scratch, listener)
    try:
        assert json.loads(waiting.recv(4096)) == {"jsonrpc": "2.0", "id": 7, "result": {}}
    finally:
        waiting.close()
        assert stop(proc) == 0, err.read_text()


@pytest.mark.parametrize(
    "env, expected",
    [
        ({"LISTEN_FDS": "1", "LISTEN_PID": "1"}, []),  # meant for another process
        ({"LISTEN_FDS": "0", "LISTEN_PID": "self"}, []),
        ({"LISTEN_FDS": "one", "LISTEN_PID": "self"}, []),
        ({"LISTEN_FDS": "1"}, []),
        ({}, []),
    ],
)
def test_listen_fds_takes_only_what_is_meant_for_this_process_and_clears_the_variables(
    monkeypatch, env, expected
) -> None:
    for key in ("LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, str(os.getpid()) if value == "self" else value)
    monkeypatch.setenv("LISTEN_FDNAMES", "elicit-tray.socket")
    assert listen_fds() == expected
    assert not {"LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"} & set(os.environ)


def test_listen_fds_returns_the_passed_descriptors_close_on_exec(monkeypatch) -> None:
    """In a child process, so that descriptor 3 is the one passed."""
    code = (
        "import os, socket; from elicit_tray.ipc.server import listen_fds; "
        "fds = listen_fds(); print(fds, os.get_inheritable(3), 'LISTEN_FDS' in os.environ)"
    )
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        fd = sock.fileno()
        wrapper = WRAPPER.replace(
            'os.execv(sys.executable, [sys.executable, "-m", "elicit_tray", *sys.argv[2:]])',
            "os.execv(sys.executable, [sys.executable, '-c', sys.argv[2]])",
        )
        out = subprocess.run(
            [sys.executable, "-c", wrapper, str(fd), code],
            pass_fds=(fd,),
            capture_output=True,
            text=True,
            timeout=60,
            env=tray_env(),
        )
    assert out.stdout.strip() == "[3] False False", out.stderr


def test_a_descriptor_that_is_not_a_listening_socket_is_refused(manager) -> None:
    scratch, listener = manager
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as unbound:
        fd = unbound.fileno()
        argv = [sys.executable, "-c", WRAPPER, str(fd), "--socket", str(scratch / "x" / "socket"), "serve"]
        out = subprocess.run(
            argv, pass_fds=(fd,), capture_output=True, text=True, timeout=START_TIMEOUT_S, env=tray_env()
        )
    assert out.returncode == 6, out.stderr  # EXIT_SOCKET_ACTIVATION
    assert "not a listening Unix stream socket" in out.stderr


def test_a_manual_serve_while_the_activated_app_runs_exits_3_and_leaves_the_socket(manager) -> None:
    """Issue 11 §3: the activated app takes no lock (systemd starts one instance); a manual
    ``serve`` on the same path takes the lock, finds the socket live, exits 3 and leaves nothing."""
    scratch, listener = manager
    path = Path(listener.getsockname())
    proc, err = activate(scratch, listener)
    try:
        manual = subprocess.run(
            [sys.executable, "-m", "elicit_tray", "--socket", str(path), "serve"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env=tray_env(),
            timeout=START_TIMEOUT_S,
        )
        assert (manual.returncode, manual.stderr.decode()) == (
            3,
            f"elicit-tray: elicit-tray is already running (socket {path})\n",
        )
        assert sorted(p.name for p in path.parent.iterdir()) == ["socket"]  # its lock file went with it
        with Conn(path) as conn:
            assert conn.call(1, "ping") == {"jsonrpc": "2.0", "id": 1, "result": {}}
    finally:
        assert stop(proc) == 0, err.read_text()
    assert sorted(p.name for p in path.parent.iterdir()) == ["socket"]
