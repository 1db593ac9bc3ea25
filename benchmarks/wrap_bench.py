"""``elicit-tray wrap`` against a direct pipe to the same child, in the same run (DESIGN.md
"Targets": <= 0.25 ms added per request/response pair p50, >= 20,000 small messages/s,
>= 50 MB/s on large lines). Not a test: prints a table.

The child is ``cat`` (every line comes back as its own answer), so the figures are the
proxy's cost alone: each message crosses the proxy twice (host -> server, server -> host).
No tray app is involved (``ELICIT_TRAY_SOCKET`` names a socket that does not exist).

    .venv/bin/python benchmarks/wrap_bench.py [--pairs 2000] [--messages 100000] [--mb 200]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

WRAP = [sys.executable, "-m", "elicit_tray", "wrap", "--"]


def _start(argv: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, bufsize=0)


def _read_line(fd: int, buf: bytearray) -> bytes:
    while b"\n" not in buf:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            raise EOFError
        buf += chunk
    line, _, rest = bytes(buf).partition(b"\n")
    buf[:] = rest
    return line


def latency(argv: list[str], env: dict[str, str], pairs: int) -> list[float]:
    """Seconds per request/response pair (write one line, read its echo), ``pairs`` times."""
    proc = _start(argv, env)
    assert proc.stdin is not None and proc.stdout is not None
    out, buf, times = proc.stdout.fileno(), bytearray(), []
    try:
        for i in range(pairs + 200):  # the first 200 warm up
            line = b'{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"ok"}]}}\n' % i
            start = time.perf_counter()
            os.write(proc.stdin.fileno(), line)
            _read_line(out, buf)
            if i >= 200:
                times.append(time.perf_counter() - start)
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
        proc.stdout.close()
    return times


def stream(argv: list[str], env: dict[str, str], lines: list[bytes], repeat: int) -> float:
    """Seconds to push ``lines`` x ``repeat`` through and read them all back (writer thread)."""
    proc = _start(argv, env)
    assert proc.stdin is not None and proc.stdout is not None
    total = sum(len(x) for x in lines) * repeat
    payload = b"".join(lines)

    def writer() -> None:
        assert proc.stdin is not None
        for _ in range(repeat):
            proc.stdin.write(payload)
        proc.stdin.close()

    start = time.perf_counter()
    thread = threading.Thread(target=writer)
    thread.start()
    received = 0
    while True:
        chunk = os.read(proc.stdout.fileno(), 1 << 20)
        if not chunk:
            break
        received += len(chunk)
    elapsed = time.perf_counter() - start
    thread.join()
    proc.wait(timeout=30)
    proc.stdout.close()
    assert received == total, (received, total)
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--mb", type=int, default=200, help="MB of 1 MB lines")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, ELICIT_TRAY_SOCKET=os.path.join(tmp, "none", "socket"), ELICIT_TRAY_LOG="off")
        rows = []
        direct_lat = statistics.median(latency(["cat"], env, args.pairs)) * 1000
        wrap_lat = statistics.median(latency([*WRAP, "cat"], env, args.pairs)) * 1000
        small = [
            b'{"jsonrpc":"2.0","id":%d,"method":"notifications/progress","params":{"progress":%d}}\n' % (i, i)
            for i in range(1000)
        ]
        repeat = max(1, args.messages // len(small))
        count = len(small) * repeat
        direct_msg = count / stream(["cat"], env, small, repeat)
        wrap_msg = count / stream([*WRAP, "cat"], env, small, repeat)
        big = [b'{"jsonrpc":"2.0","id":1,"result":{"blob":"' + b"x" * (1024 * 1024 - 40) + b'"}}\n']
        mb = len(big[0]) * args.mb / 1e6
        direct_mbs = mb / stream(["cat"], env, big, args.mb)
        wrap_mbs = mb / stream([*WRAP, "cat"], env, big, args.mb)
        rows.append(
            (
                "request/response pair p50 (ms)",
                f"{direct_lat:.3f}",
                f"{wrap_lat:.3f}",
                f"+{wrap_lat - direct_lat:.3f}",
                "<= +0.25",
            )
        )
        rows.append(("small messages/s", f"{direct_msg:,.0f}", f"{wrap_msg:,.0f}", "", ">= 20,000"))
        rows.append(("MB/s, 1 MB lines", f"{direct_mbs:,.0f}", f"{wrap_mbs:,.0f}", "", ">= 50"))
    print(
        f"wrap vs a direct pipe to `cat` ({args.pairs} pairs, {count:,} small messages, {args.mb} x 1 MB lines; "
        f"{os.cpu_count()} CPUs)"
    )
    print(f"| {'measure':<32} | {'direct':>10} | {'wrap':>10} | {'added':>8} | {'target':>10} |")
    print(f"|{'-' * 34}|{'-' * 12}|{'-' * 12}|{'-' * 10}|{'-' * 12}|")
    for name, a, b, c, target in rows:
        print(f"| {name:<32} | {a:>10} | {b:>10} | {c:>8} | {target:>10} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
