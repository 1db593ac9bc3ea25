"""``elicit-tray wrap`` leaves no process of the server's behind and never hangs on a pipe a
leftover process holds (docs/wrap-design.md §2.6 "Ending"): real processes, found in ``/proc``
by a marker in their argv (``sleep 9000.<random>``, a duration no other process uses).

Each test reads the server's ``ready`` line first and waits (bounded poll) until every marked
process runs, so the processes whose end is checked did exist; a server that then exits is told
to go on (``read go``) only after that.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.test_wrap_pipe import WRAP, env_for

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="child subreaper and /proc: Linux")
TIMEOUT_S = 30  # far above the bound (drain 2 s + SIGTERM grace 2 s + SIGKILL grace 2 s)


def marked(marker: str) -> list[int]:
    """Pids of the running (not zombie) processes whose argv holds ``marker``."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
            with open(f"/proc/{name}/stat", "rb") as f:
                state = f.read().rsplit(b")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if marker.encode() in argv and state != b"Z":
            found.append(int(name))
    return found


def wait_for(predicate, what: str, timeout: float = TIMEOUT_S) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)  # bounded poll of /proc


@pytest.fixture
def marker() -> Iterator[str]:
    """A ``sleep`` duration that names this test's processes; any left are killed after."""
    mark = f"9000.{secrets.randbelow(10**9):09d}"
    yield mark
    for pid in marked(mark):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def start(scratch: Path, script: str, marker: str, count: int) -> tuple[subprocess.Popen[bytes], threading.Timer]:
    """``wrap -- sh -c script`` (``$M`` is the marker), once it said ``ready`` and ``count``
    marked processes run."""
    proc = subprocess.Popen(
        [*WRAP, "sh", "-c", script.replace("$M", marker)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env_for(scratch),
    )
    timer = threading.Timer(TIMEOUT_S, proc.kill)  # bounds the blocking reads below
    timer.start()
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == b"ready\n"
        wait_for(lambda: len(marked(marker)) >= count, f"{count} marked processes")
        if "read go" in script:  # the server goes on (to its exit) only once they were seen
            assert proc.stdin is not None
            proc.stdin.write(b"go\n")
            proc.stdin.flush()
    except BaseException:
        finish(proc, timer)
        raise
    return proc, timer


def finish(proc: subprocess.Popen[bytes], timer: threading.Timer) -> tuple[int, bytes]:
    """(exit status, the rest of its stdout)."""
    assert proc.stdout is not None
    try:
        rest = proc.stdout.read()
        return proc.wait(timeout=TIMEOUT_S), rest
    finally:
        timer.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None:
                pipe.close()


LEFT_BEHIND = [
    # (script, marked processes, exit status); each server exits once the test saw its leftovers
    # (``read go``: a server that exits at once could be cleaned up before they were seen)
    ("sleep $M & echo ready; read go; exit 5", 1, 5),  # holds wrap's pipe: the server's stdout
    ("sleep $M & sleep $M & echo ready; read go; echo last line; exit 0", 2, 0),
    ("setsid sleep $M & echo ready; read go; exit 6", 1, 6),  # another session, holding stdout too
    ("setsid sleep $M >/dev/null 2>&1 & echo ready; read go; exit 7", 1, 7),  # another session, no pipe
    ("sleep $M >/dev/null & (setsid sh -c 'sleep $M' &) ; echo ready; read go; exit 8", 2, 8),  # double fork
]


@pytest.mark.parametrize(("script", "count", "status"), LEFT_BEHIND)
def test_a_server_that_exits_ends_wrap_with_its_status_and_nothing_left(scratch, marker, script, count, status):
    proc, timer = start(scratch, script, marker, count)
    done, rest = finish(proc, timer)  # the host keeps its end open: the server's exit ends wrap
    assert (done, rest, marked(marker)) == (status, b"last line\n" if "last line" in script else b"", [])


HOST_GONE = [
    # (script, marked processes, exit status after the host closes stdin)
    ("sleep $M & echo ready; read x; exit 4", 1, 4),  # exits at EOF, its child holds stdout
    ("setsid sleep $M >/dev/null 2>&1 & sleep $M & echo ready; exec sleep $M", 3, 128 + signal.SIGTERM),
    ("trap 'exit 9' TERM; setsid sleep $M >/dev/null 2>&1 & sleep $M & echo ready; wait", 2, 9),
]


@pytest.mark.parametrize(("script", "count", "status"), HOST_GONE)
def test_the_host_closing_stdin_ends_wrap_with_the_servers_status_and_nothing_left(
    scratch, marker, script, count, status
):
    proc, timer = start(scratch, script, marker, count)
    assert proc.stdin is not None
    proc.stdin.close()
    assert finish(proc, timer) == (status, b"")
    assert marked(marker) == []


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
@pytest.mark.parametrize(
    ("script", "count", "status"),
    [
        ("setsid sleep $M >/dev/null 2>&1 & sleep $M & echo ready; exec sleep $M", 3, 128 + signal.SIGTERM),
        ("trap 'exit 9' TERM; sleep $M & setsid sleep $M & echo ready; wait", 2, 9),
        ("trap '' TERM; setsid sleep $M >/dev/null 2>&1 & echo ready; exec sleep $M", 2, 128 + signal.SIGKILL),
    ],
)
def test_a_signal_to_wrap_ends_the_servers_tree_with_its_status(scratch, marker, sig, script, count, status):
    proc, timer = start(scratch, script, marker, count)
    proc.send_signal(sig)
    assert finish(proc, timer) == (status, b"")
    assert marked(marker) == []


def test_a_signal_ends_wrap_even_while_the_host_does_not_read_its_stdout(scratch, marker):
    proc, timer = start(scratch, "sleep $M >/dev/null & echo ready; exec yes $M", marker, 2)
    # the host reads nothing more: wrap blocks writing `yes`'s flood to it
    proc.send_signal(signal.SIGTERM)
    try:
        assert proc.wait(timeout=TIMEOUT_S) == 128 + signal.SIGTERM
    finally:
        finish(proc, timer)
    assert marked(marker) == []


def _zombie_children(pid: int) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] == b"Z" and int(fields[1]) == pid:
            found.append(int(name))
    return found


def test_orphans_that_end_during_the_session_are_reaped_at_once(scratch, marker):
    # ten double-forked children end at once; as orphans they are wrap's children, not zombies of it
    script = "for i in 1 2 3 4 5 6 7 8 9 10; do (sh -c 'exit 0' &); done; echo ready; exec sleep $M"
    proc, timer = start(scratch, script, marker, 1)
    try:
        wait_for(lambda: _zombie_children(proc.pid) == [], "no zombie children of wrap", timeout=10)
    finally:
        proc.send_signal(signal.SIGTERM)
        assert finish(proc, timer) == (128 + signal.SIGTERM, b"")
