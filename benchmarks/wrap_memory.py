"""Peak memory of ``elicit-tray wrap -- cat`` for one large line, against the line's size
(README "Hosts without elicitation", memory: peak <= 3x the largest line). Not a test: prints a
table.

Each case starts a fresh proxy around ``cat``, sends one line and reads it back whole (so the
line crosses the proxy twice: host -> server, server -> host), then reads the proxy's ``VmHWM``
(peak resident set) from ``/proc``. "idle" is its resident set before the line. No tray app
(``ELICIT_TRAY_SOCKET`` names a socket that does not exist), so every line comes back unchanged;
the cases with a method name the proxy's rules name pass its byte pre-filter and are read in
place by the core (``wrap/rawjson.py``) instead of being forwarded at once. Linux only.

    PYTHONPATH=src .venv/bin/python benchmarks/wrap_memory.py [--mib 200] [--braces 10000000]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading

WRAP = [sys.executable, "-m", "elicit_tray", "wrap", "--"]


def _status_mib(pid: int, key: str) -> float:
    with open(f"/proc/{pid}/status") as f:
        for row in f:
            if row.startswith(key + ":"):
                return int(row.split()[1]) / 1024
    raise KeyError(key)


def _read_exactly(fd: int, size: int) -> bytes:
    parts, got = [], 0
    while got < size:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            raise EOFError(f"{got} of {size} bytes")
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def peak(line: bytes, env: dict[str, str]) -> tuple[float, float]:
    """(idle MiB, peak MiB) of the proxy while ``line`` goes through it and back."""
    proc = subprocess.Popen([*WRAP, "cat"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, bufsize=0)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        ping = b'{"jsonrpc":"2.0","id":0,"method":"ping"}\n'
        proc.stdin.write(ping)
        assert _read_exactly(proc.stdout.fileno(), len(ping)) == ping
        idle = _status_mib(proc.pid, "VmRSS")
        writer = threading.Thread(target=proc.stdin.write, args=(line,))
        writer.start()
        back = _read_exactly(proc.stdout.fileno(), len(line))
        writer.join()
        high = _status_mib(proc.pid, "VmHWM")
        assert back == line, "the line came back changed"
        del back
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
        proc.stdout.close()
    return idle, high


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mib", type=int, default=200, help="MiB of the string lines")
    parser.add_argument("--braces", type=int, default=10_000_000, help="number of {} in the braces line")
    args = parser.parse_args()
    size = args.mib << 20
    cases = [
        (f"{args.mib} MiB string, a result", b'{"jsonrpc":"2.0","id":1,"result":{"blob":"%s"}}\n'),
        (
            f"{args.mib} MiB string, elicitation/create",
            b'{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"mode":"form","message":"%s"}}\n',
        ),
    ]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, ELICIT_TRAY_SOCKET=os.path.join(tmp, "none", "socket"), ELICIT_TRAY_LOG="off")
        for name, template in cases:
            line = template.replace(b"%s", b"x" * size)
            rows.append((name, len(line), *peak(line, env)))
            del line
        braces = (
            b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"x":['
            + b"{}," * (args.braces - 1)
            + b"{}]}}\n"
        )
        rows.append((f"{args.braces:,} {{}}, notifications/cancelled", len(braces), *peak(braces, env)))
        del braces
    print(f"wrap -- cat, one line there and back: peak resident set against the line ({os.cpu_count()} CPUs)")
    print(
        f"| {'line':<42} | {'line MiB':>8} | {'idle MiB':>8} | {'peak MiB':>8} | {'peak/line':>9} "
        f"| {'added/line':>10} | {'target':>6} |"
    )
    print(f"|{'-' * 44}|{'-' * 10}|{'-' * 10}|{'-' * 10}|{'-' * 11}|{'-' * 12}|{'-' * 8}|")
    for name, length, idle, high in rows:
        mib = length / (1 << 20)
        print(
            f"| {name:<42} | {mib:>8.1f} | {idle:>8.1f} | {high:>8.1f} | {high / mib:>8.2f}x "
            f"| {(high - idle) / mib:>9.2f}x | {'<= 3x':>6} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
