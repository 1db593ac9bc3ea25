"""The tray app under test (``elicit-tray serve`` on a private socket), its timing trace,
and a line-based client."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

from .common import ENV_TRACE, PY, log


class Tray:
    """``elicit-tray serve`` on a private socket; stopped with SIGTERM."""

    def __init__(
        self,
        workdir: Path,
        name: str,
        *,
        platform_name: str | None = None,
        plan: list[dict[str, Any]] | None = None,
        arm_delay_ms: int = 0,
        trace: bool = False,
    ):
        self.dir = workdir / name
        self.dir.mkdir(mode=0o700)
        self.socket = self.dir / "sock" / "socket"
        self.env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.env.pop("ELICIT_TRAY_SOCKET", None)
        self.env.pop(ENV_TRACE, None)
        #: with ``trace``: the app's own timing line per dialog (``ELICIT_TRAY_TRACE``), else None
        self.trace_path: Path | None = None
        if trace:
            self.trace_path = self.dir / "trace.jsonl"
            self.env[ENV_TRACE] = str(self.trace_path)
        if platform_name:
            self.env["QT_QPA_PLATFORM"] = platform_name
        self.argv = [
            PY,
            "-m",
            "elicit_tray",
            "--socket",
            str(self.socket),
            "serve",
            "--arm-delay-ms",
            str(arm_delay_ms),
        ]
        if plan is not None:
            plan_path = self.dir / "plan.json"
            plan_path.write_text(json.dumps(plan), encoding="utf-8")
            self.argv += ["--scripted-user", str(plan_path)]
        self.proc: subprocess.Popen[bytes] | None = None
        self.stderr_path = self.dir / "stderr.log"

    def start(self, timeout_s: float = 15.0) -> float:
        """Start and wait until the socket accepts a connection; returns seconds taken."""
        stderr = open(self.stderr_path, "ab")
        t0 = time.monotonic()
        self.proc = subprocess.Popen(self.argv, env=self.env, stdin=subprocess.DEVNULL, stdout=stderr, stderr=stderr)
        stderr.close()
        while time.monotonic() - t0 < timeout_s:
            if self.proc.poll() is not None:
                raise RuntimeError(f"tray exited with {self.proc.returncode}: {self.stderr_path.read_text()[-2000:]}")
            if self.socket.exists():
                with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
                    try:
                        probe.connect(str(self.socket))
                        return time.monotonic() - t0
                    except OSError:
                        pass
            time.sleep(0.002)
        raise RuntimeError("tray did not listen in time")

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)


class TraceReader:
    """Reads the lines the tray app appends to its ``ELICIT_TRAY_TRACE`` file, as they come.

    Each line is written when the dialog's request ends (before its response is sent), so after
    reading a response the line is normally there already; :meth:`next_line` waits a little.
    """

    def __init__(self, path: Path | None):
        self.path = path
        self.offset = path.stat().st_size if path is not None and path.exists() else 0
        self.partial = b""

    def new_lines(self) -> list[dict[str, Any]]:
        if self.path is None or not self.path.exists():
            return []
        with open(self.path, "rb") as f:
            f.seek(self.offset)
            data = f.read()
        self.offset += len(data)
        data = self.partial + data
        *complete, self.partial = data.split(b"\n")
        out = []
        for raw in complete:
            try:
                out.append(json.loads(raw))
            except ValueError:
                log(f"unreadable trace line: {raw[:200]!r}")
        return out

    def next_line(self, timeout_s: float = 1.0) -> dict[str, Any] | None:
        """The next dialog's line (the last one if several came), waiting up to ``timeout_s``."""
        deadline = time.monotonic() + timeout_s
        while True:
            lines = self.new_lines()
            if lines:
                return lines[-1]
            if self.path is None or time.monotonic() >= deadline:
                return None
            time.sleep(0.002)


class Conn:
    """A blocking newline-delimited JSON-RPC connection."""

    def __init__(self, path: Path, timeout_s: float = 10.0):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout_s)
        self.sock.connect(str(path))
        self.buf = b""
        self.next_id = 1

    def send_raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def request_bytes(self, method: str, params: dict[str, Any] | None = None) -> tuple[int, bytes]:
        rid = self.next_id
        self.next_id += 1
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        return rid, json.dumps(msg, separators=(",", ":")).encode() + b"\n"

    def readline(self) -> bytes:
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("tray closed the connection")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def call(self, method: str, params: dict[str, Any] | None = None) -> tuple[dict[str, Any], float]:
        """One request; returns (response, round trip in ms)."""
        _rid, data = self.request_bytes(method, params)
        t0 = time.perf_counter()
        self.sock.sendall(data)
        line = self.readline()
        return json.loads(line), (time.perf_counter() - t0) * 1000

    def close(self) -> None:
        self.sock.close()
