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

import asyncio
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

from elicit_tray import __version__
from elicit_tray.ipc.protocol import Dispatcher, UiFunctions
from elicit_tray.logs import Journal
from elicit_tray.request import Peer
from tests.rpc import pong

from .test_hostile import HostileTray
from .tray_process import Conn, tray_env

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
            done = subprocess.run(
                [exe, "-c", "pass"],
                user=user.pw_uid,
                group=user.pw_gid,
                extra_groups=[],
                capture_output=True,
                timeout=20,
                check=False,
                cwd="/",
            )
        except OSError:
            continue
        if done.returncode == 0:
            return exe
    return None


def run_as(user: pwd.struct_passwd, exe: str, sock: Path) -> dict[str, Any]:
    done = subprocess.run(
        [exe, "-c", CLIENT, str(sock)],
        user=user.pw_uid,
        group=user.pw_gid,
        extra_groups=[],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        cwd="/",
        env={"PATH": "/usr/bin:/bin"},
    )
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
    other_user: tuple[pwd.struct_passwd, str], scratch: Path
) -> None:
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
    other_user: tuple[pwd.struct_passwd, str], scratch: Path
) -> None:
    user, exe = other_user
    scratch.chmod(0o711)
    tray = HostileTray(scratch / "run" / "socket", [], workdir=scratch).start()
    try:
        # Test-only: open the way to the socket so that only the uid check stands in the way.
        tray.sock.parent.chmod(0o711)
        tray.sock.chmod(0o666)
        got = run_as(user, exe, tray.sock)
        assert got["connect"] == 0 and got["data"] == ""  # not a single byte: not even an error
        assert (
            got.get("eof") or got.get("recv") == errno.ECONNRESET or got.get("send") in (errno.EPIPE, errno.ECONNRESET)
        )
        refused = [e for e in tray.log_lines() if e["event"] == "connection-refused"]
        assert [(e["reason"], e["uid"]) for e in refused] == [("other-user", user.pw_uid)]
        with Conn(tray.sock) as mine:
            assert mine.call(1, "ping") == pong(1)
    finally:
        assert tray.stop() == 0, tray.stderr


# -- in-process: the uid check of LocalEndpoint with a fake peer -----------------------------------


def test_local_endpoint_closes_a_connection_from_another_uid_without_reading(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch, scratch: Path
) -> None:
    from elicit_tray.ipc import server

    other = os.getuid() + 1
    monkeypatch.setattr(server, "peer_of", lambda _fd: Peer(pid=99999, uid=other, process_name="intruder"))

    async def handler(_request: Any) -> Any:
        raise AssertionError("never called")

    journal = Journal(scratch / "log.jsonl")
    dispatcher = Dispatcher(UiFunctions(handler), journal=journal)
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
    assert line == {
        "event": "connection-refused",
        "reason": "other-user",
        "uid": other,
        "pid": 99999,
        # the process as the OS reports it; this fake peer has no executable, so its own name is marked
        "process": "intruder (pid 99999), as the process names itself; its executable is unknown",
    }


def test_local_endpoint_serves_a_connection_from_the_same_uid(qtbot: Any, scratch: Path) -> None:
    from elicit_tray.ipc import server

    async def handler(_request: Any) -> Any:
        raise AssertionError("never called")

    dispatcher = Dispatcher(UiFunctions(handler))
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


# -- the requester side: only the real tray app can answer (issue 10 §2) ---------------------------
#
# A fake tray runs as ``nobody`` (setpriv), listens at every path the requester might try and
# answers any request with an ``accept`` of its own choosing. The requester must refuse before
# sending a byte: ``elicit-tray ask`` exits 5 with the exact message, the mcp callback returns
# ErrorData -32603 with it, and ``request``/``notify``/``ensure_running`` raise UntrustedSocket.

#: Run as the other user: listen on every path in argv, answer every request with an accept,
#: and when stdin closes print {path: {"connections", "bytes"}} counting what was received.
FAKE_TRAY = r"""
import json, os, select, socket, sys
listeners, conns = {}, {}
stats = {p: {"connections": 0, "bytes": 0} for p in sys.argv[1:]}
for p in sys.argv[1:]:
    os.makedirs(os.path.dirname(p), exist_ok=True)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(p)
    os.chmod(p, 0o777)
    s.listen(16)
    s.setblocking(False)
    listeners[s] = p
print("ready", flush=True)

def accept_all(lsock):
    while True:
        try:
            c, _ = lsock.accept()
        except BlockingIOError:
            return
        c.setblocking(False)
        conns[c] = [listeners[lsock], b""]
        stats[listeners[lsock]]["connections"] += 1

def read(c):
    path = conns[c][0]
    while True:
        try:
            data = c.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            del conns[c]
            c.close()
            return
        stats[path]["bytes"] += len(data)
        buf = conns[c][1] + data
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if isinstance(msg, dict) and "id" in msg:
                c.sendall(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {
                    "action": "accept", "content": {"chosen": "by another user"}}}).encode() + b"\n")
        conns[c][1] = buf

stdin = sys.stdin.fileno()
while True:
    ready, _, _ = select.select([stdin, *listeners, *conns], [], [])
    stop = stdin in ready and not os.read(stdin, 1024)
    for s in ready:
        if s in listeners:
            accept_all(s)
        elif s in conns:
            read(s)
    if stop:  # what a requester wrote is already queued on its socket: take all of it
        for s in listeners:
            accept_all(s)
        for c in list(conns):
            read(c)
        break
print(json.dumps(stats), flush=True)
"""

ASK_PARAMS = {"message": "Deploy to production?", "requestedSchema": {"type": "object", "properties": {}}}
REMEDY_OTHER = (
    "Another user may be impersonating the tray app: do not use this path. Remove {target} (an "
    "administrator may have to) or choose a socket in a directory only you own, with mode 0700 "
    "(--socket PATH or ELICIT_TRAY_SOCKET), then start elicit-tray again."
)


class FakeTray:
    """The other user's impostor (see :data:`FAKE_TRAY`), started with ``setpriv``."""

    def __init__(self, user: pwd.struct_passwd, exe: str, paths: list[Path]):
        self.paths = paths
        self.proc = subprocess.Popen(
            [
                "setpriv",
                f"--reuid={user.pw_uid}",
                f"--regid={user.pw_gid}",
                "--clear-groups",
                exe,
                "-c",
                FAKE_TRAY,
                *map(str, paths),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd="/",
            env={"PATH": "/usr/bin:/bin"},
        )
        assert self.proc.stdout is not None
        import selectors

        with selectors.DefaultSelector() as sel:  # bounded wait for "ready"
            sel.register(self.proc.stdout, selectors.EVENT_READ)
            if not sel.select(timeout=30):
                self.proc.kill()
                raise AssertionError("the fake tray did not start")
        line = self.proc.stdout.readline()
        if line != b"ready\n":
            self.proc.kill()
            raise AssertionError(f"the fake tray failed: {line!r} {self.proc.stderr.read()!r}")  # type: ignore[union-attr]

    @property
    def pid(self) -> int:
        return self.proc.pid

    def received(self) -> dict[str, dict[str, int]]:
        """Stop it; what each path received."""
        out, err = self.proc.communicate(input=b"", timeout=30)
        assert self.proc.returncode == 0, err
        return json.loads(out)


def _mkdir(path: Path, mode: int, owner: pwd.struct_passwd | None = None) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(mode)
    if owner is not None:
        os.chown(path, owner.pw_uid, owner.pw_gid)
    return path


def _clean_env(monkeypatch: pytest.MonkeyPatch, scratch: Path) -> dict[str, str]:
    """HOME, TMPDIR in ``scratch``; no socket override, no XDG runtime/state dir (in this process
    too, so that the in-process requester computes the same default as ``ask``)."""
    home = _mkdir(scratch / "home", 0o755)
    tmp = _mkdir(scratch / "tmp", 0o1777)  # a shared temporary directory, as /tmp
    for name in ("ELICIT_TRAY_SOCKET", "XDG_RUNTIME_DIR", "XDG_STATE_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("TMPDIR", str(tmp))
    env = tray_env()
    for name in ("ELICIT_TRAY_SOCKET", "XDG_RUNTIME_DIR", "XDG_STATE_HOME"):
        env.pop(name, None)
    return env


def _ask(env: dict[str, str], *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "elicit_tray", *extra],
        input=json.dumps(ASK_PARAMS),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def _plant(
    case: str,
    scratch: Path,
    user: pwd.struct_passwd,
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[list[str], Path, list[Path], Any]:
    """Set the stage for ``case``; returns (the ``elicit-tray`` arguments before ``ask``, the
    path the requester uses, where the fake tray listens, a function that finishes the stage
    once the fake listens, or None)."""
    from elicit_tray.paths import default_socket_path

    legacy = scratch / "tmp" / f"elicit-tray-{os.getuid()}" / "socket"  # the old /tmp fallback
    me = os.getuid()
    if case in ("default-xdg-unset", "default-xdg-set"):
        if case == "default-xdg-set":
            runtime = _mkdir(scratch / "xdg", 0o700)
            monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
        sock = default_socket_path()
        if scratch not in sock.parents:
            pytest.skip(f"the default socket is {sock} here (/run/user/{me} exists), outside the test's reach")
        _mkdir(sock.parent.parent, 0o755)
        _mkdir(sock.parent, 0o700, user)  # the other user got there first
        return [], sock, [sock, legacy], None
    if case == "explicit-their-dir":
        sock = _mkdir(scratch / "theirs", 0o700, user) / "socket"
        return ["--socket", str(sock)], sock, [sock], None
    ours = _mkdir(scratch / "ours", 0o777)  # open while the other user binds; closed by `finish`
    sock = ours / "socket"
    final_mode = {"explicit-our-dir-0755": 0o755, "explicit-our-dir-0777": 0o777}.get(case, 0o700)

    def finish() -> None:
        ours.chmod(final_mode)
        if case == "explicit-our-socket-file-their-listener":
            os.chown(sock, me, 0)  # the file is ours now; only the listener's uid gives it away

    return ["--socket", str(sock)], sock, [sock], finish


def _expected(case: str, sock: Path, them: int, fake_pid: int) -> str:
    me, directory = os.getuid(), sock.parent
    head = f"refusing to use the elicit-tray socket {sock}: "
    if case in ("default-xdg-unset", "default-xdg-set", "explicit-their-dir"):
        return (
            head
            + f"its directory {directory} is owned by uid {them}, not by you (uid {me}); nothing was sent. "
            + REMEDY_OTHER.format(target=directory)
        )
    if case in ("explicit-our-dir-0755", "explicit-our-dir-0777"):
        mode = case[-4:]
        return (
            head + f"its directory {directory} (owned by uid {me}) has mode {mode}, open to other users; "
            f"it must be 0700; nothing was sent. Other users may have put a socket there. If you trust its "
            f"contents, run: chmod 700 {directory}; otherwise remove {sock}. Then start elicit-tray again."
        )
    if case == "explicit-their-socket-in-our-0700-dir":
        return (
            head
            + f"the socket is owned by uid {them}, not by you (uid {me}); nothing was sent. "
            + REMEDY_OTHER.format(target=sock)
        )
    assert case == "explicit-our-socket-file-their-listener"
    return (
        head + f"the process listening there (pid {fake_pid}) runs as uid {them}, not as you (uid {me}); "
        "nothing was sent. " + REMEDY_OTHER.format(target=sock)
    )


CASES = [
    "default-xdg-unset",
    "default-xdg-set",
    "explicit-their-dir",
    "explicit-our-dir-0755",
    "explicit-our-dir-0777",
    "explicit-their-socket-in-our-0700-dir",
    "explicit-our-socket-file-their-listener",
]


@pytest.mark.parametrize("case", CASES)
def test_the_requester_sends_nothing_to_another_users_socket_and_says_why(
    other_user: tuple[pwd.struct_passwd, str], scratch: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    import mcp_types as types

    from elicit_tray import client

    user, exe = other_user
    scratch.chmod(0o711)  # the other user may reach its own directories inside, as under /run/user
    env = _clean_env(monkeypatch, scratch)
    args, sock, listen_at, finish = _plant(case, scratch, user, monkeypatch)
    if "XDG_RUNTIME_DIR" in os.environ:  # set by the stage: ask sees what this process sees
        env["XDG_RUNTIME_DIR"] = os.environ["XDG_RUNTIME_DIR"]
    fake = FakeTray(user, exe, listen_at)
    try:
        if finish is not None:
            finish()
        message = _expected(case, sock, user.pw_uid, fake.pid)

        done = _ask(env, *args, "ask")  # autostart on: nothing may be started either
        assert (done.returncode, done.stdout, done.stderr) == (5, "", f"elicit-tray ask: {message}\n")

        socket_path = sock if args else None
        callback = client.elicitation_callback(socket_path=socket_path)
        params = types.ElicitRequestFormParams(message="Deploy?", requested_schema={"type": "object", "properties": {}})
        assert asyncio.run(callback(None, params)) == types.ErrorData(code=-32603, message=message)

        for attempt in (
            client.request("ping", socket_path=socket_path, autostart=False),
            client.request("ping", socket_path=socket_path),
            client.notify("notifications/cancelled", {"requestId": 1}, socket_path=socket_path),
            client.ensure_running(socket_path),
        ):
            with pytest.raises(client.UntrustedSocket) as caught:
                asyncio.run(attempt)
            owner = os.getuid() if case in ("explicit-our-dir-0755", "explicit-our-dir-0777") else user.pw_uid
            assert (caught.value.message, caught.value.code, caught.value.path, caught.value.owner_uid) == (
                message,
                -32603,
                sock,
                owner,
            )
    finally:
        received = fake.received()
    # Not a byte reached the impostor. Only in the last case does the requester connect (to read
    # the listener's uid), once per attempt above: ask, the callback, request twice, notify,
    # ensure_running.
    connections = 6 if case == "explicit-our-socket-file-their-listener" else 0
    assert received == {str(p): {"connections": connections if p == sock else 0, "bytes": 0} for p in listen_at}


def test_with_xdg_runtime_dir_of_another_user_both_sides_ignore_it_and_the_real_tray_answers(
    other_user: tuple[pwd.struct_passwd, str], scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The victim's own ``serve`` starts beside the impostor's sockets (the old /tmp fallback and
    an XDG_RUNTIME_DIR that is not ours), ``ask`` reaches it at the same path, and the impostor
    receives nothing."""
    from elicit_tray.paths import default_socket_path

    user, exe = other_user
    scratch.chmod(0o711)
    env = _clean_env(monkeypatch, scratch)
    theirs = _mkdir(scratch / "their-xdg", 0o700, user)
    env["XDG_RUNTIME_DIR"] = str(theirs)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(theirs))
    expected = default_socket_path()
    if scratch not in expected.parents:
        pytest.skip(f"the default socket is {expected} here (/run/user/{os.getuid()} exists)")
    assert expected == scratch / "home" / ".local" / "state" / "elicit-tray" / "run" / "socket"
    legacy = scratch / "tmp" / f"elicit-tray-{os.getuid()}" / "socket"
    fake = FakeTray(user, exe, [theirs / "elicit-tray" / "socket", legacy])
    plan = scratch / "plan.json"
    plan.write_text(json.dumps([{"match": "Deploy", "steps": [{"do": "submit"}]}]))
    tray = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "elicit_tray",
            "serve",
            "--scripted-user",
            str(plan),
            "--no-browser",
            "--arm-delay-ms",
            "0",
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    try:
        assert tray.stderr is not None
        first = tray.stderr.readline()  # its first line, once listening (or EOF if it exits)
        assert first.removesuffix("\n").removesuffix(" (no system tray available yet)") == (
            f"elicit-tray {__version__} listening on {expected}"
        ), first
        done = _ask(env, "ask")
        assert (done.returncode, done.stderr) == (0, "")
        assert json.loads(done.stdout) == {"action": "accept", "content": {}}
    finally:
        tray.terminate()
        code = tray.wait(timeout=30)
        tray.stderr.close()  # type: ignore[union-attr]
        received = fake.received()
    assert code == 0
    assert received == {
        str(theirs / "elicit-tray" / "socket"): {"connections": 0, "bytes": 0},
        str(legacy): {"connections": 0, "bytes": 0},
    }
