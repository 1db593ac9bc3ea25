"""Who may ask: only the user who runs the tray app (issue 5, "Who may ask").

Two layers, each tested:

1. The filesystem: the socket's directory is 0700 and the socket 0600, so another user's
   process cannot even reach it. Shown with a real client running as ``nobody`` (root only).
2. The peer uid check (``SO_PEERCRED``): a connection from another uid is closed before
   anything is read. Shown with the real ``nobody`` client after the test itself relaxes the
   directory (0711) and socket (0666) modes, which the app never does; and in-process with a
   fake peer uid (any user).
"""

from __future__ import annotations

import errno
import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from elicit_tray.elicitation import Peer
from elicit_tray.ipc.protocol import Dispatcher
from elicit_tray.logs import Journal

from .test_hostile import HostileTray, pong
from .tray_process import Conn

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SO_PEERCRED, Unix sockets")

#: Run as the other user: connect, send a ping, report what came back (JSON on stdout).
CLIENT = r"""
import json, socket, sys
out = {}
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(10)
try:
    s.connect(sys.argv[1])
except OSError as exc:
    out["connect"] = exc.errno
else:
    out["connect"] = 0
    try:
        s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n')
    except OSError as exc:
        out["send"] = exc.errno
    data = b""
    try:
        while True:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
        out["eof"] = True
    except OSError as exc:
        out["recv"] = exc.errno if exc.errno is not None else type(exc).__name__
    out["data"] = data.decode("utf-8", "replace")
print(json.dumps(out))
"""


def _nobody() -> pwd.struct_passwd | None:
    try:
        return pwd.getpwnam("nobody")
    except KeyError:
        return None


def _interpreter_for(user: pwd.struct_passwd) -> str | None:
    """A Python the other user can run (the venv's may sit under a private home)."""
    for exe in (sys.executable, "/usr/bin/python3", shutil.which("python3") or ""):
        if not exe:
            continue
        try:
            done = subprocess.run([exe, "-c", "pass"], user=user.pw_uid, group=user.pw_gid, extra_groups=[],
                                  capture_output=True, timeout=20, check=False, cwd="/")
        except OSError:
            continue
        if done.returncode == 0:
            return exe
    return None


def run_as(user: pwd.struct_passwd, exe: str, sock: Path) -> dict[str, Any]:
    done = subprocess.run([exe, "-c", CLIENT, str(sock)], user=user.pw_uid, group=user.pw_gid, extra_groups=[],
                          capture_output=True, text=True, timeout=30, check=False, cwd="/",
                          env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def other_user() -> tuple[pwd.struct_passwd, str]:
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("running a client as another user needs root (the tests do not run as root here)")
    user = _nobody()
    if user is None:
        pytest.skip("there is no user 'nobody' on this system")
    exe = _interpreter_for(user)
    if exe is None:
        pytest.skip("no Python interpreter the user 'nobody' can run")
    return user, exe


def test_another_user_cannot_reach_the_socket_in_its_private_directory(
        other_user: tuple[pwd.struct_passwd, str], scratch: Path) -> None:
    user, exe = other_user
    scratch.chmod(0o711)  # the scratch folder is traversable, as /run/user is
    tray = HostileTray(scratch / "run" / "socket", [], workdir=scratch).start()
    try:
        assert run_as(user, exe, tray.sock) == {"connect": errno.EACCES}
        assert not any(e["event"] == "connection-refused" for e in tray.log_lines())  # never got that far
        with Conn(tray.sock) as mine:
            assert mine.call(1, "ping") == pong(1)
    finally:
        assert tray.stop() == 0, tray.stderr


def test_another_users_connection_is_closed_before_anything_is_read(
        other_user: tuple[pwd.struct_passwd, str], scratch: Path) -> None:
    user, exe = other_user
    scratch.chmod(0o711)
    tray = HostileTray(scratch / "run" / "socket", [], workdir=scratch).start()
    try:
        # Test-only: open the way to the socket so that only the uid check stands in the way.
        tray.sock.parent.chmod(0o711)
        tray.sock.chmod(0o666)
        got = run_as(user, exe, tray.sock)
        assert got["connect"] == 0 and got["data"] == ""  # not a single byte: not even an error
        assert got.get("eof") or got.get("recv") == errno.ECONNRESET or got.get("send") in (errno.EPIPE,
                                                                                            errno.ECONNRESET)
        refused = [e for e in tray.log_lines() if e["event"] == "connection-refused"]
        assert [(e["reason"], e["uid"]) for e in refused] == [("other-user", user.pw_uid)]
        with Conn(tray.sock) as mine:
            assert mine.call(1, "ping") == pong(1)
    finally:
        assert tray.stop() == 0, tray.stderr


# -- in-process: the uid check of LocalEndpoint with a fake peer -----------------------------------

def test_local_endpoint_closes_a_connection_from_another_uid_without_reading(
        qtbot: Any, monkeypatch: pytest.MonkeyPatch, scratch: Path) -> None:
    from elicit_tray.ipc import server

    other = os.getuid() + 1
    monkeypatch.setattr(server, "peer_of", lambda _fd: Peer(pid=99999, uid=other, process_name="intruder"))

    async def handler(_request: Any) -> Any:
        raise AssertionError("never called")

    journal = Journal(scratch / "log.jsonl")
    dispatcher = Dispatcher(handler, journal=journal)
    received: list[bytes] = []
    monkeypatch.setattr(dispatcher, "data_received", lambda _ch, data: received.append(data))
    endpoint = server.LocalEndpoint(dispatcher, scratch / "run" / "socket")
    endpoint.listen()
    try:
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.connect(str(endpoint.path))
        client.sendall(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n')
        client.setblocking(False)
        outcome: list[bytes] = []

        def closed() -> bool:
            try:
                outcome.append(client.recv(4096))
            except BlockingIOError:
                return False
            except ConnectionResetError:
                outcome.append(b"")
            return True

        qtbot.waitUntil(closed, timeout=5000)
        client.close()
        assert outcome == [b""]
        assert received == []
        assert dispatcher.connection_count() == 0
        assert endpoint.connection_count() == 0
    finally:
        endpoint.close()
        journal.close()
    (line,) = [json.loads(x) for x in (scratch / "log.jsonl").read_text().splitlines()]
    del line["ts"]
    assert line == {"event": "connection-refused", "reason": "other-user", "uid": other, "pid": 99999,
                    "process": "intruder"}


def test_local_endpoint_serves_a_connection_from_the_same_uid(qtbot: Any, scratch: Path) -> None:
    from elicit_tray.ipc import server

    async def handler(_request: Any) -> Any:
        raise AssertionError("never called")

    dispatcher = Dispatcher(handler)
    endpoint = server.LocalEndpoint(dispatcher, scratch / "run" / "socket")
    endpoint.listen()
    try:
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.connect(str(endpoint.path))
        client.sendall(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n')
        client.setblocking(False)
        data = bytearray()

        def answered() -> bool:
            try:
                data.extend(client.recv(4096))
            except BlockingIOError:
                pass
            return data.endswith(b"\n")

        qtbot.waitUntil(answered, timeout=5000)
        client.close()
        assert json.loads(data) == pong(1)
    finally:
        endpoint.close()
