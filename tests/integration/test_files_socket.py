"""``serve``'s socket path cannot be turned against the user (issue 11 §3, README "IPC contract").

Seen: ``--socket`` naming a regular file deleted it, naming a directory crashed with a traceback,
``--socket <dir>/x.sock`` chmodded ``<dir>`` (e.g. ``$HOME``) to 0700, and two instances started
together both ran, the orphan deleting the live socket when stopped. Now only a stale socket is
ever removed, anything else is one line on stderr and exit 4, only a directory the app created is
tightened, and the lock ``<socket>.lock`` (flock) is taken before the path is probed: the second
instance exits 3.
"""

from __future__ import annotations

import fcntl
import os
import socket
import stat
import sys
import time
from pathlib import Path

import pytest

from elicit_tray.paths import probe_socket

from .tray_process import START_TIMEOUT_S, TrayProcess, assert_still_serving

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Unix sockets, flock")

PLAN: list = []
NOT_A_SOCKET = (
    "not a socket; elicit-tray removes only a stale socket. Give --socket (or ELICIT_TRAY_SOCKET) "
    "the path of a socket file to create"
)


def refused(sock: Path, workdir: Path) -> tuple[int, str]:
    proc = TrayProcess(sock, PLAN, workdir=workdir).spawn()
    return proc.wait(), proc.stderr


def private(path: Path) -> Path:
    path.mkdir(mode=0o700)
    return path


@pytest.mark.parametrize("kind", ["regular file", "directory", "symbolic link", "fifo"])
def test_a_socket_path_that_is_not_a_socket_exits_4_with_one_line_and_is_left_alone(scratch: Path, kind: str) -> None:
    run = private(scratch / "run")
    sock = run / "x.sock"
    victim = scratch / "victim.txt"
    victim.write_bytes(b"precious\n")
    if kind == "regular file":
        sock.write_bytes(b"precious\n")
    elif kind == "directory":
        sock.mkdir()
        (sock / "inside").write_bytes(b"x")
    elif kind == "symbolic link":
        sock.symlink_to(victim)
    else:
        os.mkfifo(sock)
    before = os.lstat(sock)
    code, err = refused(sock, scratch)
    shown = "a FIFO" if kind == "fifo" else f"a {kind}"
    assert (code, err) == (4, f"elicit-tray: refusing to start: {sock} is {shown}, {NOT_A_SOCKET}\n")
    after = os.lstat(sock)
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
    assert victim.read_bytes() == b"precious\n"
    if kind == "regular file":
        assert sock.read_bytes() == b"precious\n"
    if kind == "directory":
        assert [p.name for p in sock.iterdir()] == ["inside"]
    assert sorted(p.name for p in run.iterdir()) == ["x.sock"]  # the lock file went with the failed start


@pytest.mark.parametrize("mode", [0o755, 0o750, 0o711])
def test_a_socket_in_an_existing_directory_others_can_read_exits_4_and_nothing_is_chmodded(
    scratch: Path, mode: int
) -> None:
    home = scratch / "home"
    home.mkdir()
    home.chmod(mode)
    sock = home / "x.sock"
    code, err = refused(sock, scratch)
    assert (code, err) == (
        4,
        f"elicit-tray: refusing to start: {home} can be read by other users (mode {mode:o}); "
        f"the socket must be in a directory only you can use: choose another --socket path, "
        f"or run: chmod 700 {home}\n",
    )
    assert stat.S_IMODE(home.stat().st_mode) == mode
    assert list(home.iterdir()) == []


def test_a_directory_the_app_creates_is_0700_and_only_it(scratch: Path) -> None:
    base = scratch / "base"
    base.mkdir()
    base.chmod(0o700)
    sock = base / "new" / "deeper" / "socket"
    tray = TrayProcess(sock, PLAN, workdir=scratch).start()
    try:
        assert [stat.S_IMODE(p.stat().st_mode) for p in (base / "new", base / "new" / "deeper")] == [0o700, 0o700]
        assert_still_serving(tray)
    finally:
        assert tray.stop() == 0, tray.stderr


def test_a_socket_directory_that_cannot_be_created_exits_4_with_one_line(scratch: Path) -> None:
    (scratch / "file").write_bytes(b"")
    sock = scratch / "file" / "run" / "socket"
    code, err = refused(sock, scratch)
    assert code == 4
    assert err.startswith(f"elicit-tray: refusing to start: cannot use the socket path {sock}: ")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_the_lock_is_taken_before_the_path_is_probed_and_a_held_lock_exits_3(scratch: Path) -> None:
    run = private(scratch / "run")
    sock = run / "socket"
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(sock))
    stale.close()  # a stale socket file: a free instance would remove it
    inode = os.lstat(sock).st_ino
    fd = os.open(run / "socket.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a running instance holds it
        code, err = refused(sock, scratch)
        assert (code, err) == (
            3,
            f"elicit-tray: elicit-tray is already running (socket {sock}; another instance "
            f"holds {run / 'socket.lock'})\n",
        )
        assert os.lstat(sock).st_ino == inode and stat.S_ISSOCK(os.lstat(sock).st_mode)  # not touched
    finally:
        os.close(fd)


def test_of_instances_started_together_one_runs_the_others_exit_3_and_the_socket_survives(scratch: Path) -> None:
    sock = scratch / "run" / "socket"
    procs = [TrayProcess(sock, PLAN, workdir=scratch) for _ in range(4)]
    for proc in procs:
        proc.spawn()
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:  # bounded: until all but one exited and that one listens
        alive = [p for p in procs if p.proc is not None and p.proc.poll() is None]
        if len(alive) == 0 or (len(alive) == 1 and "listening on" in alive[0].stderr):
            break
        time.sleep(0.02)  # bounded poll of the processes
    codes = {p: (p.proc.poll() if p.proc is not None else None) for p in procs}
    running = [p for p, c in codes.items() if c is None]
    try:
        assert len(running) == 1, {p.pid: (c, p.stderr) for p, c in codes.items()}
        winner = running[0]
        assert "listening on" in winner.stderr
        for proc in procs:
            if proc is not winner:
                assert codes[proc] == 3 and "already running" in proc.stderr, proc.stderr
        assert stat.S_ISSOCK(os.lstat(sock).st_mode) and probe_socket(sock)  # the losers deleted nothing
        assert_still_serving(winner)
    finally:
        codes_at_stop = [p.stop() for p in running]
        for proc in procs:
            proc.kill()
    assert codes_at_stop == [0]
    assert list((scratch / "run").iterdir()) == []  # socket and lock file removed on a clean stop


def test_a_second_instance_stopping_never_removes_the_live_socket(scratch: Path) -> None:
    sock = scratch / "run" / "socket"
    first = TrayProcess(sock, PLAN, workdir=scratch).start()
    try:
        second = TrayProcess(sock, PLAN, workdir=scratch).spawn()
        assert second.wait() == 3
        assert stat.S_ISSOCK(os.lstat(sock).st_mode) and (scratch / "run" / "socket.lock").exists()
        assert stat.S_IMODE((scratch / "run" / "socket.lock").stat().st_mode) == 0o600
        assert_still_serving(first)
    finally:
        assert first.stop() == 0, first.stderr
