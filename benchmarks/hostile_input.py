"""What hostile input costs the author tools: ``elicit-tray check`` and ``ask`` on deep, huge and
endless input, each in a process of its own; prints a table of exit status, wall time and peak
RSS (the target: about what a small valid file costs, whatever the input).

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/hostile_input.py``. Linux (``/dev/zero``,
GNU ``/usr/bin/time``).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MIB = 1024 * 1024


def _inputs(folder: Path) -> dict[str, str]:
    """Name -> path of each input (written into ``folder``)."""
    files = {
        "small valid params": '{"message": "Proceed?", "requestedSchema": {"type": "object", "properties": {}}}',
        "3,000 nested arrays": "[" * 3000 + "]" * 3000,
        "1,000,000 open arrays": "[" * 1_000_000,
        "a 2 MiB line": '{"message": "' + "a" * (2 * MIB) + '"}',
        "64 MiB of spaces": " " * (64 * MIB),
    }
    paths = {}
    for n, (name, text) in enumerate(files.items()):
        path = folder / f"{n}.json"
        path.write_text(text)
        paths[name] = str(path)
    paths["/dev/zero"] = "/dev/zero"
    return paths


def _run(command: str, path: str, folder: Path) -> tuple[int, float, float]:
    """(exit status, seconds, peak RSS in MiB) of ``elicit-tray <command> <path>``, measured by
    ``/usr/bin/time`` (a child forked from this process would inherit its high-water mark)."""
    extra = ["--no-start"] if command == "ask" else []
    args = [sys.executable, "-m", "elicit_tray", "--socket", str(folder / "none"), command, *extra, path]
    env = {**os.environ, "ELICIT_TRAY_LOG": "off"}
    start = time.perf_counter()
    done = subprocess.run(
        ["/usr/bin/time", "-f", "%M", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        check=False,
    )
    seconds = time.perf_counter() - start
    return done.returncode, seconds, int(done.stderr.split()[-1]) / 1024


def main() -> int:
    """Print the table; returns 0."""
    resource.setrlimit(resource.RLIMIT_AS, (2048 * MIB, 2048 * MIB))  # an unbounded read fails, not the machine
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print(f"{'command':8} {'input':24} {'exit':>4} {'seconds':>8} {'peak RSS MiB':>13}")
        for name, path in _inputs(folder).items():
            for command in ("check", "ask"):
                code, seconds, rss = _run(command, path, folder)
                print(f"{command:8} {name:24} {code:>4} {seconds:>8.2f} {rss:>13.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
