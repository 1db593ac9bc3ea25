"""``elicit-tray wrap`` as a process: byte fidelity through ``wrap -- cat`` and the child's
lifecycle (docs/wrap-design.md §2.5, §2.6).

No tray app runs: ``ELICIT_TRAY_SOCKET`` names a socket that does not exist, so nothing is
declared and every line must come back exactly as it was sent.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

WRAP = [sys.executable, "-m", "elicit_tray", "wrap", "--"]
TIMEOUT_S = 60


def env_for(scratch: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ, ELICIT_TRAY_SOCKET=str(scratch / "no-tray" / "socket"), ELICIT_TRAY_LOG="off")
    env.update(extra)
    return env


def run(argv: list[str], data: bytes, env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(argv, input=data, capture_output=True, env=env, timeout=TIMEOUT_S)


ODD_LINES = [
    b'[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]\n',  # batch
    b'{"jsonrpc":"2.0","id":3,"method":"tools/list","x-trace":"abc","params":{"unknown":[1,{"a":null}]}}\n',
    b'{"id":1.5,"method":"ping"}\n',
    b'{"jsonrpc":"2.0","id":1,"result":{}}\n',
    b'{"jsonrpc":"2.0","id":"1","result":{}}\n',
    b'{"jsonrpc":"2.0","id":4,"result":{"n":1e400}}\n',
    b'this is not JSON at all "elicitation/create"\n',
    b'{"jsonrpc":"2.0","id":5,"method":"ping"}\r\n',
    b'{ "jsonrpc" : "2.0" , "id" : 6 , "method" : "x" , "params" : { "s" : "\\u00e9\\ud83d\\ude00" } }\n',
    b'{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}\n',
    b"\xff\xfe invalid UTF-8\n",
    b"\n",
    b'{"jsonrpc":"2.0","id":8,"result":{"big":"' + b"x" * (10 * 1024 * 1024) + b'"}}\n',  # 10 MB line
    b'{"jsonrpc":"2.0","id":9,"method":"ping"}',  # last line, no terminator
]


def test_wrap_cat_returns_every_line_byte_for_byte(scratch):
    data = b"".join(ODD_LINES)
    done = run([*WRAP, "cat"], data, env_for(scratch))
    assert done.returncode == 0, done.stderr
    assert done.stdout == data


def test_wrap_cat_many_small_lines_in_order(scratch):
    data = b"".join(b'{"jsonrpc":"2.0","id":%d,"method":"ping"}\n' % i for i in range(20000))
    done = run([*WRAP, "cat"], data, env_for(scratch))
    assert done.returncode == 0 and done.stdout == data


def test_child_exit_status_is_the_proxys(scratch):
    assert run([*WRAP, sys.executable, "-c", "import sys; sys.exit(3)"], b"", env_for(scratch)).returncode == 3
    crash = run(
        [*WRAP, sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"], b"", env_for(scratch)
    )
    assert crash.returncode == 128 + signal.SIGKILL


def test_a_command_that_does_not_exist_exits_127(scratch):
    done = run([*WRAP, str(scratch / "no-such-server")], b"", env_for(scratch))
    assert done.returncode == 127 and b"cannot run" in done.stderr


def test_environment_and_stderr_pass_through(scratch):
    code = (
        "import os, sys; print(os.environ['WRAP_TEST_SECRET'], flush=True); print('child-stderr-line', file=sys.stderr)"
    )
    done = run([*WRAP, sys.executable, "-c", code], b"", env_for(scratch, WRAP_TEST_SECRET="sk-123 with spaces"))
    assert done.returncode == 0
    assert done.stdout == b"sk-123 with spaces\n"
    assert done.stderr == b"child-stderr-line\n"


def test_the_child_runs_in_its_own_process_group(scratch):
    code = "import os; print(os.getpid(), os.getpgrp(), os.getsid(0), flush=True)"
    done = run([*WRAP, sys.executable, "-c", code], b"", env_for(scratch))
    pid, pgrp, sid = map(int, done.stdout.split())
    assert pid == pgrp == sid


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] == b"Z"
    except FileNotFoundError:
        return True


def _host_eof(scratch: Path, child_code: str) -> tuple[int, float, list[int]]:
    """Start wrap, read the child's first line (its pids), close stdin; (exit status, seconds
    from EOF to exit, pids)."""
    with subprocess.Popen(
        [*WRAP, sys.executable, "-c", textwrap.dedent(child_code)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env_for(scratch),
    ) as proc:
        assert proc.stdout is not None and proc.stdin is not None
        timer = threading.Timer(TIMEOUT_S, proc.kill)  # bound the blocking readline
        timer.start()
        try:
            pids = [int(p) for p in proc.stdout.readline().split()]
            started = time.monotonic()
            proc.stdin.close()
            status = proc.wait(timeout=TIMEOUT_S)
            return status, time.monotonic() - started, pids
        finally:
            timer.cancel()


def test_host_eof_closes_the_childs_stdin_and_a_well_behaved_child_exits_at_once(scratch):
    status, seconds, [pid] = _host_eof(
        scratch,
        """
        import os, sys
        print(os.getpid(), flush=True)
        sys.stdin.read()
        sys.exit(0)
        """,
    )
    assert status == 0 and seconds < 2.0 and _gone(pid)


def test_host_eof_then_sigterm_to_the_group_after_2_s(scratch):
    status, seconds, [pid, grandchild] = _host_eof(
        scratch,
        """
        import os, subprocess, sys, time
        sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
        print(os.getpid(), sleeper.pid, flush=True)
        time.sleep(300)
        """,
    )
    assert status == 128 + signal.SIGTERM
    assert 2.0 <= seconds < 10.0
    deadline = time.monotonic() + 10
    while not (_gone(pid) and _gone(grandchild)) and time.monotonic() < deadline:
        time.sleep(0.05)  # bounded poll: until both processes are gone
    assert _gone(pid) and _gone(grandchild)


def test_host_eof_then_sigkill_when_sigterm_is_ignored(scratch):
    status, seconds, [pid] = _host_eof(
        scratch,
        """
        import os, signal, time
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print(os.getpid(), flush=True)
        time.sleep(300)
        """,
    )
    assert status == 128 + signal.SIGKILL
    assert 4.0 <= seconds < 12.0 and _gone(pid)


def test_sigterm_to_the_proxy_ends_the_child_and_returns_its_status(scratch):
    with subprocess.Popen(
        [*WRAP, sys.executable, "-c", "import os, time; print(os.getpid(), flush=True); time.sleep(300)"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env_for(scratch),
    ) as proc:
        assert proc.stdout is not None
        try:
            pid = int(proc.stdout.readline())
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=TIMEOUT_S) == 128 + signal.SIGTERM
            assert _gone(pid)
        finally:
            if proc.poll() is None:
                proc.kill()


@pytest.mark.parametrize("policy", ["complement", "always", "off"])
def test_every_policy_is_accepted(scratch, policy):
    done = run(
        [sys.executable, "-m", "elicit_tray", "wrap", "--policy", policy, "--", "cat"], b'{"a":1}\n', env_for(scratch)
    )
    assert done.returncode == 0 and done.stdout == b'{"a":1}\n'


def _pad(n: int) -> bytes:
    return b"{}," * n + b"{}"


# 20 MiB lines that pass the byte pre-filter (a method name the rules name, serverInfo) and so
# are read in place by the core, in both directions (host -> cat -> host), every one unchanged
# (no tray app: nothing is declared, nothing owned).
BIG_LINES = [
    b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"pad":[' + _pad(7_000_000) + b"]}}\n",
    b'{"jsonrpc":"2.0","id":2,"method":"elicitation/create","params":{"mode":"form","message":"'
    + ('é😀\\"[{' * 1_500_000).encode()
    + b'","requestedSchema":{"type":"object"}}}\r\n',
    b'{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},'
    b'"deep":' + b"[" * 100_000 + b"]" * 100_000 + b',"pad":"' + b"z" * (20 << 20) + b'"}}\n',
    b'{"jsonrpc":"2.0","id":3,"result":{"serverInfo":{"name":"s"},"pad":[' + _pad(7_000_000) + b"]}}",  # no terminator
]


def test_twenty_mib_lines_the_core_looks_into_come_back_byte_for_byte(scratch):
    data = b"".join(BIG_LINES)
    done = run([*WRAP, "cat"], data, env_for(scratch))
    assert done.returncode == 0, done.stderr[-2000:]
    assert len(done.stdout) == len(data) and done.stdout == data
