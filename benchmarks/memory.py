"""Where the tray app's memory goes: one offscreen tray app (``benchmarks/memprobe.py``) taken
through warm-up, abandoned dialogs and answered requests, with a probe reading after each phase.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/memory.py [--abandoned 300] [--answered 700]

Prints one line per reading (RSS and glibc heap in MiB, live widgets, wrapped QObjects, Python
objects, grown types) and, at the end, what clearing the pixmap cache and ``malloc_trim(0)`` give
back. An *abandoned* request is sent, its dialog shown (a ``ping`` on the same connection answers
after the request is dispatched), and its connection closed: the dialog expires and closes.
Answered requests get a scripted Submit after the dialog armed (``--arm-delay-ms``, default
30 ms, so that each dialog is painted first). Nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from forms import form_params  # noqa: E402

PLAN = [{"match": "abandon", "steps": []}, {"match": "", "steps": [{"do": "submit"}]}]


class Line:
    """A blocking newline-delimited JSON-RPC connection."""

    def __init__(self, path: Path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(30)
        self.sock.connect(str(path))
        self.buf = b""
        self.n = 0

    def send(self, method: str, params: dict[str, Any] | None = None) -> int:
        self.n += 1
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": self.n, "method": method}
        if params is not None:
            msg["params"] = params
        self.sock.sendall(json.dumps(msg).encode() + b"\n")
        return self.n

    def recv(self) -> dict[str, Any]:
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        rid = self.send(method, params)
        while True:
            got = self.recv()
            if got.get("id") == rid:
                return got

    def close(self) -> None:
        self.sock.close()


class Probed:
    """The tray app under ``memprobe.py``."""

    def __init__(self, workdir: Path, arm_delay_ms: int, extra_env: dict[str, str] | None = None):
        self.sock = workdir / "run" / "socket"
        self.out = workdir / "probe.jsonl"
        plan = workdir / "plan.json"
        plan.write_text(json.dumps(PLAN))
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", ELICIT_TRAY_LOG="off", **(extra_env or {}))
        env.pop("ELICIT_TRAY_SOCKET", None)
        self.stderr = open(workdir / "stderr.txt", "wb")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                str(HERE / "memprobe.py"),
                str(self.out),
                "--",
                "--socket",
                str(self.sock),
                "serve",
                "--scripted-user",
                str(plan),
                "--no-browser",
                "--arm-delay-ms",
                str(arm_delay_ms),
            ],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self.stderr,
            stderr=self.stderr,
        )
        deadline = time.monotonic() + 20
        while True:
            try:
                Line(self.sock).close()
                break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError((workdir / "stderr.txt").read_text()[-2000:]) from None
                time.sleep(0.02)
        self.seq = 0

    def read(self, experiments: bool = False, timeout_s: float = 30) -> dict[str, Any]:
        """One probe reading (the app answers within its 200 ms wake-up timer)."""
        self.seq += 1
        self.proc.send_signal(signal.SIGUSR2 if experiments else signal.SIGUSR1)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.out.exists():
                for line in self.out.read_text().splitlines():
                    data = json.loads(line)
                    if data.get("seq") == self.seq:
                        return data
            time.sleep(0.05)
        raise TimeoutError("no probe reading")

    def settle(self, widgets: int, timeout_s: float = 30) -> dict[str, Any]:
        """Read until no more widgets are alive than ``widgets`` (expired dialogs close by
        themselves after 10 s, waiting ones get their window first), at most ``timeout_s``, then
        for the app's idle heap trim."""
        deadline = time.monotonic() + timeout_s
        while True:
            r = self.read()
            if r["widgets"] <= widgets or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        time.sleep(1.5)  # the app trims its heap 1 s after the last dialog window went (ui/release.py)
        return self.read()

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
        self.stderr.close()


def answered(tray: Probed, n: int, fields: int = 1) -> None:
    conn = Line(tray.sock)
    params = form_params(fields, f"Answered, {fields} fields")
    for _ in range(n):
        got = conn.call("elicitation/create", params)
        if got.get("result", {}).get("action") != "accept":
            raise RuntimeError(f"unexpected answer {got}")
    conn.close()


def abandoned(tray: Probed, n: int) -> None:
    """``n`` one-field requests whose requester leaves once the dialog is up, each from a process
    of its own (a forked child): the app throttles a process that keeps abandoning requests."""
    params = form_params(1, "abandon me")
    for _ in range(n):
        pid = os.fork()
        if pid == 0:  # the child: ask, wait until the request is dispatched, leave
            code = 1
            try:
                conn = Line(tray.sock)
                conn.send("elicitation/create", params)
                conn.call("ping")
                conn.close()
                code = 0
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        if status != 0:
            raise RuntimeError(f"abandoning child failed ({status})")


def show(label: str, r: dict[str, Any], base: dict[str, Any] | None = None) -> None:
    m = r["mallinfo"]
    grow = f" ({(r['VmRSS'] - base['VmRSS']) / 1024:+.1f})" if base else ""
    traced = f" traced {r['traced_bytes'] / 2**20:.1f} MiB" if r.get("traced_bytes") is not None else ""
    print(
        f"{label:<34} RSS {r['VmRSS'] / 1024:6.1f} MiB{grow} anon {r['RssAnon'] / 1024:5.1f} | heap arena "
        f"{m['arena'] / 2**20:5.1f} in use {m['uordblks'] / 2**20:5.1f} free {m['fordblks'] / 2**20:5.1f} "
        f"mmap {m['hblkhd'] / 2**20:4.1f} MiB |{traced} widgets {r['widgets']} wrappers {r.get('wrappers')} "
        f"py {r['py_objects']} tasks {r.get('asyncio_tasks')}",
        flush=True,
    )
    if r.get("modules_new"):
        print(f"{'':34} {r['modules']} modules; new packages since idle: {r['modules_new'][:30]}")
    if r.get("py_types_grown"):
        print(f"{'':34} grown: {r['py_types_grown'][:8]}")
    if r.get("traced_by_package"):
        print(f"{'':34} traced (KiB): " + ", ".join(f"{k} {v // 1024}" for k, v in r["traced_by_package"][:16]))
    for line in r.get("traced_lines") or ():
        print(f"{'':34} {line}")
    if base and r.get("smaps") and base.get("smaps"):
        grown_maps = sorted(
            ((k, v - base["smaps"].get(k, 0)) for k, v in r["smaps"].items()), key=lambda kv: -abs(kv[1])
        )
        print(f"{'':34} RSS grown by mapping (KiB): " + ", ".join(f"{k} {v:+d}" for k, v in grown_maps[:12]))
    if base and r.get("wrappers_by_type"):
        print(f"{'':34} wrappers: {r['wrappers_by_type'][:8]}")
    for key in ("after_pixmap_cache_clear", "after_malloc_trim"):
        if key in r:
            x = r[key]
            print(
                f"{'  ' + key:<34} RSS {x['VmRSS'] / 1024:6.1f} MiB heap in use {x['mallinfo']['uordblks'] / 2**20:5.1f}"
                f" free {x['mallinfo']['fordblks'] / 2**20:5.1f} arena {x['mallinfo']['arena'] / 2**20:5.1f} MiB"
            )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--abandoned", type=int, default=300)
    ap.add_argument("--answered", type=int, default=700)
    ap.add_argument("--rounds", type=int, default=2, help="abandoned + answered phases, one after the other")
    ap.add_argument("--arm-delay-ms", type=int, default=30)
    ap.add_argument("--steps", action="store_true", help="a reading after each first kind of request")
    ap.add_argument("--tracemalloc", action="store_true", help="PYTHONTRACEMALLOC=1 (slower)")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="et-mem-"))
    tray = Probed(work, args.arm_delay_ms, {"PYTHONTRACEMALLOC": "1"} if args.tracemalloc else None)
    try:
        time.sleep(0.5)
        idle = tray.read()
        show("idle", idle)
        if args.steps:
            answered(tray, 1, 1)
            show("first 1-field answered", tray.read(), idle)
            answered(tray, 1, 10)
            show("first 10-field answered", tray.read(), idle)
            abandoned(tray, 1)
            show("first abandoned", tray.settle(idle["widgets"]), idle)
        answered(tray, 40, 1)
        answered(tray, 20, 10)
        abandoned(tray, 20)
        answered(tray, 40, 1)
        warm = tray.settle(idle["widgets"])
        show("warm (60+40 answered, 20 abandoned)", warm, idle)
        for k in range(args.rounds):
            abandoned(tray, args.abandoned)
            r = tray.settle(warm["widgets"])
            show(f"round {k + 1}: +{args.abandoned} abandoned", r, warm)
            answered(tray, args.answered * 7 // 10, 1)
            answered(tray, args.answered - args.answered * 7 // 10, 10)
            r = tray.settle(warm["widgets"])
            show(f"round {k + 1}: +{args.answered} answered", r, warm)
        show("experiments", tray.read(experiments=True), warm)
    finally:
        tray.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
