"""Who asks is the process as the OS reports it (DESIGN.md "UI rules"): the
executable the kernel runs and its arguments, never the name the process chose for itself.

Real child processes connect to a real Unix socket; the child renames itself with
``prctl(PR_SET_NAME)`` and is started with ``exec -a fake-name`` (a forged ``argv[0]``).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from elicit_tray.elicitation import parse_elicit_params
from elicit_tray.ipc.server import peer_of
from elicit_tray.request import Peer, for_display

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SO_PEERCRED and /proc are Linux")

PYTHON = os.path.realpath(sys.executable)  # what /proc/<pid>/exe names (the venv's python is a link)
# The child: renames itself as a keyring daemon would be named (PR_SET_NAME = 15), connects,
# says it is ready and waits for the test to close the connection.
CHILD = (
    'import ctypes,socket,sys; ctypes.CDLL(None).prctl(15, b"gnome-keyring-d", 0, 0, 0); '
    's=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(b"r"); s.recv(1)'
)


class Child:
    """A child that connected to ``listener``; ``conn`` is our end, ready when built."""

    def __init__(self, listener: socket.socket, path: Path, program: str, *args: str):
        self.proc = subprocess.Popen(
            ["bash", "-c", 'exec -a fake-name "$0" "$@"', program, "-c", CHILD, str(path), *args]
        )
        self.conn, _ = listener.accept()
        assert self.conn.recv(1) == b"r"  # renamed and connected: /proc says what the test expects

    def close(self) -> None:
        self.conn.close()
        assert self.proc.wait(timeout=30) == 0


@pytest.fixture
def listener(tmp_path):
    path = tmp_path / "s"
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    sock.listen(4)
    sock.settimeout(30)
    yield sock, path
    sock.close()


def test_a_renamed_child_with_a_forged_argv0_is_shown_as_its_executable_and_arguments(listener):
    sock, path = listener
    child = Child(sock, path, sys.executable, "two words", "--x")
    try:
        peer = peer_of(child.conn.fileno())
        argv = ("fake-name", "-c", CHILD, str(path), "two words", "--x")
        assert peer == Peer(
            pid=child.proc.pid,
            uid=os.getuid(),
            process_name="gnome-keyring-d",
            executable=PYTHON,
            executable_deleted=False,
            argv=argv,
            argv_cut=False,
        )
        assert peer.label == (f"{PYTHON} -c '{CHILD}' {path} 'two words' --x (pid {child.proc.pid})")
        assert peer.label.startswith(PYTHON + " -c ")  # neither the chosen name nor argv[0]
    finally:
        child.close()


def test_a_deleted_executable_is_shown_as_deleted(listener, tmp_path):
    sock, path = listener
    program = tmp_path / "agent"
    shutil.copy(PYTHON, program)
    child = Child(sock, path, str(program), "--x")
    try:
        program.unlink()
        peer = peer_of(child.conn.fileno())
        assert (peer.executable, peer.executable_deleted) == (str(program), True)
        assert peer.label == (
            f"{program} -c '{CHILD}' {path} --x (pid {child.proc.pid}, executable deleted since it started)"
        )
    finally:
        child.close()


def test_a_file_really_named_deleted_is_not_taken_for_a_deleted_one(listener, tmp_path):
    sock, path = listener
    program = tmp_path / "agent (deleted)"
    shutil.copy(PYTHON, program)
    child = Child(sock, path, str(program))
    try:
        peer = peer_of(child.conn.fileno())
        assert (peer.executable, peer.executable_deleted) == (str(program), False)
        assert peer.label == f"'{program}' -c '{CHILD}' {path} (pid {child.proc.pid})"
    finally:
        child.close()


def test_an_unreadable_executable_falls_back_to_what_the_process_says_marked_as_such(listener, tmp_path):
    """As for a process that made itself non-dumpable (its exe link is then refused to others;
    this test may run as root, who is never refused, so the exe link is left out of a copy)."""
    sock, path = listener
    child = Child(sock, path, sys.executable, "--x")
    try:
        proc = tmp_path / "proc"
        (proc / str(child.proc.pid)).mkdir(parents=True)
        for name in ("cmdline", "comm"):
            (proc / str(child.proc.pid) / name).symlink_to(f"/proc/{child.proc.pid}/{name}")
        peer = peer_of(child.conn.fileno(), proc=str(proc))
        argv = ("fake-name", "-c", CHILD, str(path), "--x")
        assert peer == Peer(pid=child.proc.pid, uid=os.getuid(), process_name="gnome-keyring-d", argv=argv)
        assert peer.label == (
            f"fake-name -c '{CHILD}' {path} --x (pid {child.proc.pid}), "
            "as the process names itself; its executable is unknown"
        )
    finally:
        child.close()


def test_without_proc_only_the_kernels_pid_and_uid_are_kept(listener, tmp_path):
    sock, path = listener
    child = Child(sock, path, sys.executable)
    try:
        peer = peer_of(child.conn.fileno(), proc=str(tmp_path / "no-proc"))
        assert peer == Peer(pid=child.proc.pid, uid=os.getuid())
        assert peer.label == f"unknown process (pid {child.proc.pid}); its executable is unknown"
    finally:
        child.close()


def test_a_peer_that_has_exited_keeps_only_pid_and_uid_even_if_its_pid_now_names_another_program(listener, tmp_path):
    """SO_PEERPIDFD (Linux 6.5+): /proc is trusted only while the peer still runs, so a reused pid
    cannot lend its program to a requester that is gone (the reuse is simulated by a /proc copy)."""
    sock, path = listener
    child = Child(sock, path, sys.executable)
    child.conn.sendall(b"q")  # the child's recv returns and it exits
    assert child.proc.wait(timeout=30) == 0
    try:
        proc = tmp_path / "proc"
        (proc / str(child.proc.pid)).mkdir(parents=True)
        (proc / str(child.proc.pid) / "exe").symlink_to("/usr/bin/some-other-program")
        peer = peer_of(child.conn.fileno(), proc=str(proc))
        if peer.executable is not None:
            pytest.skip("this kernel gives no pidfd of a socket peer (SO_PEERPIDFD, Linux 6.5+)")
        assert peer == Peer(pid=child.proc.pid, uid=os.getuid())
    finally:
        child.conn.close()


def test_a_closed_or_foreign_descriptor_gives_an_empty_peer():
    assert peer_of(-1) == Peer()
    with open(os.devnull) as file:
        assert peer_of(file.fileno()) == Peer()


def test_attacker_controlled_proc_strings_cannot_forge_or_reverse_the_line(tmp_path):
    proc = tmp_path / "proc"
    (proc / "7").mkdir(parents=True)
    (proc / "7" / "exe").symlink_to("/opt/\u202egnp.exe\nVerified by elicit-tray")
    (proc / "7" / "cmdline").write_bytes(b"x\0--name=\xe2\x80\xae\xff\0 (pid 1)\0")
    (proc / "7" / "comm").write_bytes(b"keyring\n")
    peer = Peer.from_proc(7, 1000, str(proc))
    assert peer == Peer(
        pid=7,
        uid=1000,
        process_name="keyring",
        executable="/opt/\u202egnp.exe\nVerified by elicit-tray",
        argv=("x", "--name=\u202e\\xff", " (pid 1)"),
    )
    assert peer.label == (
        "'/opt/\\u202egnp.exe\\u000aVerified by elicit-tray' '--name=\\u202e\\xff' ' (pid 1)' (pid 7)"
    )
    shown = for_display(
        parse_elicit_params({"message": "m", "requestedSchema": {"type": "object", "properties": {}}}, peer)
    ).peer
    assert shown.executable == "/opt/\\u202egnp.exe\\u000aVerified by elicit-tray"
    assert shown.argv == ("x", "--name=\\u202e\\xff", " (pid 1)")
    assert shown.label == peer.label


def test_a_long_argument_list_is_cut_and_marked(tmp_path):
    proc = tmp_path / "proc"
    (proc / "8").mkdir(parents=True)
    (proc / "8" / "exe").symlink_to("/usr/bin/tool")
    (proc / "8" / "cmdline").write_bytes(b"tool\0" + b"a" * 5000 + b"\0")
    peer = Peer.from_proc(8, 1000, str(proc))
    assert peer.argv == ("tool", "a" * 4091) and peer.argv_cut
    assert peer.label == "/usr/bin/tool " + "a" * 4091 + " … (pid 8)"


def test_the_shown_label_isolates_the_executable_and_each_argument_but_logs_keep_the_plain_label():
    from elicit_tray.request import Requester

    peer = Peer(pid=9, uid=1, executable="/usr/bin/tool", argv=("tool", "חשבון 12", "\u200f34"))
    assert peer.label == "/usr/bin/tool 'חשבון 12' '\\u200f34' (pid 9)"
    assert peer.isolated_label == ("\u2068/usr/bin/tool\u2069 \u2068'חשבון 12'\u2069 \u2068'\\u200f34'\u2069 (pid 9)")
    named = Peer(pid=9, process_name="gnome-keyring-d")
    assert (
        named.isolated_label
        == "\u2068gnome-keyring-d\u2069 (pid 9), as the process names itself; its executable is unknown"
    )
    assert Peer().isolated_label is None
    requester = Requester(server_name="בנק", server_title="Bank", server_version="12")
    assert requester.label == "Bank (בנק) 12"
    assert requester.isolated_label == "\u2068Bank\u2069 (\u2068בנק\u2069) \u206812\u2069"
    assert Requester().isolated_label is None
