"""Run the tray app as a real subprocess and talk to it over its socket (test helper).

- :class:`TrayProcess`: ``python -m elicit_tray --socket SOCK serve --scripted-user PLAN
  --no-browser`` offscreen; :meth:`TrayProcess.start` waits (bounded) for "listening on",
  :meth:`TrayProcess.stop` sends SIGTERM and returns the exit code.
- :class:`Conn`: one ``AF_UNIX`` connection speaking newline-delimited JSON, every read
  bounded by a socket timeout.
- :func:`short_tmpdir`: a private temporary directory short enough for an ``AF_UNIX`` path.

The JSON-RPC messages themselves (requests, ``pong``, errors) are built by :mod:`tests.rpc`.
"""

from __future__ import annotations

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

from tests import rpc

__all__ = [
    "Conn",
    "TrayProcess",
    "short_tmpdir",
    "START_TIMEOUT_S",
    "READ_TIMEOUT_S",
    "assert_still_serving",
]

#: Bound on waiting for a tray app to listen or to exit (seconds).
START_TIMEOUT_S = 30.0
#: Bound on every socket read (seconds).
READ_TIMEOUT_S = 10.0
_AF_UNIX_PATH_MAX = 100  # 108 on Linux, 104 on macOS, minus the NUL and some slack


def short_tmpdir() -> Path:
    """A fresh ``et-*`` directory (mode 0700) whose socket paths fit ``AF_UNIX``."""
    path = Path(tempfile.mkdtemp(prefix="et-"))
    if len(str(path / "sub" / "socket")) > _AF_UNIX_PATH_MAX and os.path.isdir("/tmp"):
        os.rmdir(path)
        path = Path(tempfile.mkdtemp(prefix="et-", dir="/tmp"))
    return path


def tray_env() -> dict[str, str]:
    """The environment for a child process: offscreen Qt, no inherited socket override, no
    journal written to the user's state directory (unless the test sets ELICIT_TRAY_LOG)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    env.pop("ELICIT_TRAY_SOCKET", None)
    env.setdefault("ELICIT_TRAY_LOG", "off")  # never the user's real log
    env.setdefault("ELICIT_TRAY_HISTORY", "off")  # nor the user's decision history
    env.setdefault("ELICIT_TRAY_CONFIG", os.devnull)  # nor the user's settings file
    return env


class TrayProcess:
    """One ``elicit-tray serve`` subprocess; stderr goes to a file (read with :attr:`stderr`)."""

    def __init__(
        self,
        sock: Path,
        plan: list[dict[str, Any]] | None,
        *,
        workdir: Path,
        extra_args: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
    ):
        """``plan`` None: no scripted user (a person, or xdotool, answers); ``extra_args`` go to
        ``serve``; ``env`` is added to :func:`tray_env`."""
        self.sock = Path(sock)
        self.plan = plan
        self.extra_args = tuple(extra_args)
        self.env = dict(env or {})
        self.workdir = Path(workdir)  # holds the plan and stderr files (not the socket's directory)
        self.plan_path = self.workdir / f"plan-{id(self)}.json"
        self.plan_path.write_text(json.dumps(plan or []), encoding="utf-8")
        self.stderr_path = self.workdir / f"stderr-{id(self)}.txt"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def argv(self) -> list[str]:
        scripted = [] if self.plan is None else ["--scripted-user", str(self.plan_path), "--no-browser"]
        return [sys.executable, "-m", "elicit_tray", "--socket", str(self.sock), "serve", *scripted, *self.extra_args]

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    @property
    def stderr(self) -> str:
        try:
            return self.stderr_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def spawn(self) -> TrayProcess:
        """Start the process without waiting for it."""
        with open(self.stderr_path, "wb") as err:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err,
                env={**tray_env(), **self.env},
            )
        return self

    def start(self) -> TrayProcess:
        """Start the process and wait (bounded) until it says it listens."""
        self.spawn()
        assert self.proc is not None
        deadline = time.monotonic() + START_TIMEOUT_S
        while "listening on" not in self.stderr:
            if self.proc.poll() is not None:
                raise AssertionError(f"the tray app exited with {self.proc.returncode}:\n{self.stderr}")
            if time.monotonic() > deadline:
                self.kill()
                raise AssertionError(f"the tray app did not listen within {START_TIMEOUT_S} s:\n{self.stderr}")
            time.sleep(0.02)  # bounded poll of the stderr file for "listening on"
        return self

    def wait(self, timeout_s: float = START_TIMEOUT_S) -> int:
        """The exit code, waiting at most ``timeout_s`` (the process is killed after that)."""
        assert self.proc is not None
        try:
            return self.proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"the tray app did not exit within {timeout_s} s:\n{self.stderr}") from None

    def terminate(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)

    def stop(self) -> int:
        """SIGTERM, then the exit code (bounded wait)."""
        self.terminate()
        return self.wait()

    def kill(self) -> None:
        """SIGKILL (idempotent) and reap."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=START_TIMEOUT_S)


class Conn:
    """A newline-delimited JSON connection to the tray app's socket."""

    def __init__(self, path: Path, timeout_s: float = READ_TIMEOUT_S):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout_s)
        self.sock.connect(str(path))
        self._buf = bytearray()
        self._ids = iter(range(1000, 10**9))

    def __enter__(self) -> Conn:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.sock.close()

    def send_raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def send(self, message: dict[str, Any] | list[Any]) -> None:
        self.sock.sendall(rpc.line(message))

    def request(self, request_id: Any, method: str, params: dict[str, Any] | None = None) -> None:
        self.send(rpc.request(request_id, method, params))

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self.send(rpc.notification(method, params))

    def read_line(self) -> bytes | None:
        """The next line (without ``\\n``), or None at end of stream; raises on timeout."""
        while b"\n" not in self._buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                if self._buf:
                    raise AssertionError(f"stream ended inside a line: {bytes(self._buf)[:200]!r}")
                return None
            self._buf += chunk
        line, _, rest = bytes(self._buf).partition(b"\n")
        self._buf = bytearray(rest)
        return line

    def recv(self) -> dict[str, Any]:
        """The next message (a timeout or end of stream fails the test)."""
        line = self.read_line()
        assert line is not None, "the tray app closed the connection"
        return json.loads(line)

    def call(self, request_id: Any, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.request(request_id, method, params)
        return self.recv()

    def ping(self) -> dict[str, Any]:
        """Send a ping with a fresh id; return the next message (should be its response)."""
        return self.call(self.next_id(), "ping")

    def next_id(self) -> int:
        return next(self._ids)


def assert_still_serving(tray: TrayProcess, conn: Conn | None = None) -> None:
    """``ping`` is answered on ``conn`` (if given) and on a new connection."""
    if conn is not None:
        request_id = conn.next_id()
        assert conn.call(request_id, "ping") == rpc.pong(request_id)
    with Conn(tray.sock) as fresh:
        assert fresh.call(1, "ping") == rpc.pong(1)
