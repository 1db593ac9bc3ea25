"""The anyio shell of ``elicit-tray wrap`` (``docs/wrap-design.md`` §2.6): owns the child's
pipes, the host's stdin/stdout and the tray requests; every decision is :class:`WrapCore`'s.

- The child runs in its own session (so its own process group), inherits the whole environment
  and our stderr (its log reaches the host's log); stdin/stdout are pipes to us.
- Lines are split on ``b"\\n"`` with no length limit; each goes to the core with its
  terminator, so a ``\\r\\n`` or a last line without one is forwarded as it came.
- Host EOF: close the child's stdin, wait 2 s, SIGTERM its process group, wait 2 s, SIGKILL.
  SIGTERM/SIGINT/SIGHUP to the proxy: SIGTERM the group at once, SIGKILL 2 s later. The proxy's
  exit status is the child's (``128 + n`` when signal ``n`` ended it).
- The tray app is reached through :func:`elicit_tray.client.request` (the user's own tray
  only, :func:`~elicit_tray.client.open_connection`); its reachability, needed before the
  capability is declared (§2.1), is probed at most once a second.
- Host stdin/stdout that are pipes or sockets are read and written non-blocking through
  ``anyio.wait_readable``/``wait_writable`` (no thread hop per line); anything else (a file,
  a terminal) through a worker thread / plain writes.
"""

from __future__ import annotations

import math
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, BinaryIO

import anyio
from anyio.abc import Process

from ..paths import PrivateFileRefused, open_private_append
from .core import AskTray, CancelTray, CompleteTray, Identity, ToHost, ToServer, TrayAnswer, WrapCore

__all__ = ["run_wrap", "wrap_main", "LineSplitter", "SHUTDOWN_GRACE_S", "PROBE_INTERVAL_S", "exit_status"]

#: Seconds between closing the child's stdin and SIGTERM, and between SIGTERM and SIGKILL.
SHUTDOWN_GRACE_S = 2.0
#: Seconds a tray reachability probe stays valid.
PROBE_INTERVAL_S = 1.0
_CHUNK = 1 << 20


class LineSplitter:
    """Splits a byte stream into lines *with* their ``\\n`` (no length limit, no copy of a
    chunk that holds exactly one line). ``feed(chunk) -> list[bytes]``; ``rest()`` returns the
    unterminated tail at EOF (``b""`` if none)."""

    def __init__(self) -> None:
        self._parts: list[bytes] = []

    def feed(self, chunk: bytes) -> list[bytes]:
        nl = chunk.find(b"\n")
        if nl < 0:
            if chunk:
                self._parts.append(chunk)
            return []
        if self._parts:
            self._parts.append(chunk[: nl + 1])
            lines = [b"".join(self._parts)]
            self._parts = []
        else:
            lines = [chunk[: nl + 1]]
        start = nl + 1
        while True:
            nl = chunk.find(b"\n", start)
            if nl < 0:
                break
            lines.append(chunk[start : nl + 1])
            start = nl + 1
        if start < len(chunk):
            self._parts.append(chunk[start:])
        return lines

    def rest(self) -> bytes:
        rest = b"".join(self._parts)
        self._parts = []
        return rest


def exit_status(returncode: int) -> int:
    """A child's ``returncode`` as a process exit status: itself, or ``128 + n`` for signal ``n``."""
    return 128 - returncode if returncode < 0 else returncode


def _is_stream(fd: int) -> bool:
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return os.name == "posix" and (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode))


class _HostIO:
    """The host's side: our stdin (read) and stdout (write), non-blocking where they are pipes."""

    def __init__(self, in_fd: int, out_fd: int):
        self.in_fd, self.out_fd = in_fd, out_fd
        self._saved: dict[int, bool] = {}
        self.in_async = _is_stream(in_fd)
        self.out_async = _is_stream(out_fd)
        for fd, use in ((in_fd, self.in_async), (out_fd, self.out_async)):
            if use and fd not in self._saved:
                self._saved[fd] = os.get_blocking(fd)
                os.set_blocking(fd, False)

    def restore(self) -> None:
        for fd, blocking in self._saved.items():
            try:
                os.set_blocking(fd, blocking)
            except OSError:
                pass

    async def read(self) -> bytes:
        if not self.in_async:
            return await anyio.to_thread.run_sync(os.read, self.in_fd, _CHUNK, abandon_on_cancel=True)
        while True:
            try:
                return os.read(self.in_fd, _CHUNK)
            except BlockingIOError:
                await anyio.wait_readable(self.in_fd)
            except ConnectionResetError:
                return b""

    async def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            try:
                written = os.write(self.out_fd, view)
            except BlockingIOError:
                await anyio.wait_writable(self.out_fd)
                continue
            view = view[written:]


class _Shell:
    def __init__(
        self,
        argv: list[str],
        core: WrapCore,
        process: Process,
        host: _HostIO,
        *,
        socket_path: Path | None,
        wire_log: BinaryIO | None,
    ):
        from ..client import Completions

        self.argv, self.core, self.process, self.host = argv, core, process, host
        self.socket_path = socket_path
        self.wire_log = wire_log
        self.completions = Completions()
        self.scopes: dict[int, anyio.CancelScope] = {}
        self.host_lock = anyio.Lock()
        self.server_lock = anyio.Lock()
        self.probed_at = -math.inf
        self.tg: Any = None
        self.stopping = False
        self.host_gone = False

    # -- output ------------------------------------------------------------------------------

    def _log(self, direction: bytes, data: bytes) -> None:
        if self.wire_log is not None:
            self.wire_log.write(direction + data + (b"" if data.endswith(b"\n") else b"\n"))
            self.wire_log.flush()

    async def to_host(self, data: bytes) -> None:
        async with self.host_lock:
            if self.host_gone:
                return
            try:
                await self.host.write(data)
            except OSError:  # the host closed its end: as at host EOF, stop the child
                self.host_gone = True
                self.tg.start_soon(lambda: self.shutdown(close_first=True))

    async def to_server(self, data: bytes) -> None:
        async with self.server_lock:
            stdin = self.process.stdin
            assert stdin is not None
            try:
                await stdin.send(data)
            except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
                pass  # the child is gone or closed its stdin; its exit ends the proxy

    async def perform(self, actions: list[Any]) -> None:
        """Carry out the core's actions in order (consecutive writes to one side go as one)."""
        pending_host: list[bytes] = []
        pending_server: list[bytes] = []
        for action in actions:
            if isinstance(action, ToHost):
                if pending_server:
                    await self.to_server(b"".join(pending_server))
                    pending_server = []
                self._log(b"to-host ", action.data)
                pending_host.append(action.data)
                continue
            if isinstance(action, ToServer):
                if pending_host:
                    await self.to_host(b"".join(pending_host))
                    pending_host = []
                self._log(b"to-server ", action.data)
                pending_server.append(action.data)
                continue
            if pending_host:
                await self.to_host(b"".join(pending_host))
                pending_host = []
            if pending_server:
                await self.to_server(b"".join(pending_server))
                pending_server = []
            if isinstance(action, AskTray):
                self.tg.start_soon(self.ask_tray, action)
            elif isinstance(action, CancelTray):
                scope = self.scopes.pop(action.ticket, None)
                if scope is not None:
                    scope.cancel()
            elif isinstance(action, CompleteTray):
                self.tg.start_soon(self.completions.complete, action.elicitation_id)
        if pending_host:
            await self.to_host(b"".join(pending_host))
        if pending_server:
            await self.to_server(b"".join(pending_server))

    # -- the tray ----------------------------------------------------------------------------

    async def refresh_tray_state(self) -> None:
        """Set ``core.tray_up`` from a probe of the socket (at most once per
        :data:`PROBE_INTERVAL_S`); nothing is written to the socket."""
        now = time.monotonic()
        if now - self.probed_at < PROBE_INTERVAL_S:
            return
        from ..client import TrayError, open_connection
        from ..paths import default_socket_path

        try:
            _reader, writer = await open_connection(default_socket_path(self.socket_path))
            writer.close()
            up = True
        except (OSError, TrayError) as exc:
            up = False
            _note(f"the tray app is not reachable, so elicitation is not declared for the host: {exc}")
        self.core.tray_up = up
        self.probed_at = time.monotonic()

    async def ask_tray(self, action: AskTray) -> None:
        from ..client import TrayError, TrayUnavailable, request

        answer = TrayAnswer.unreachable()
        with anyio.CancelScope() as scope:
            self.scopes[action.ticket] = scope
            try:
                result = await request(
                    "elicitation/create",
                    action.params,
                    socket_path=self.socket_path,
                    autostart=False,
                    completions=self.completions,
                )
                answer = TrayAnswer(
                    result=result if isinstance(result, dict) else None,
                    error=None if isinstance(result, dict) else TrayAnswer.unreachable().error,
                )
            except TrayUnavailable as exc:
                _note(f"the tray app could not answer: {exc.message}")
            except TrayError as exc:
                error: dict[str, Any] = {"code": exc.code, "message": exc.message}
                if exc.data is not None:
                    error["data"] = exc.data
                answer = TrayAnswer(error=error)
            except (OSError, ValueError) as exc:
                _note(f"the tray app could not answer: {exc}")
        self.scopes.pop(action.ticket, None)
        if scope.cancelled_caught or self.stopping:
            return
        await self.perform(self.core.tray_done(action.ticket, answer))

    # -- the pumps ---------------------------------------------------------------------------

    async def pump_host(self) -> None:
        """Host stdin -> core -> child stdin; at EOF, the shutdown sequence."""
        splitter = LineSplitter()
        core = self.core
        while True:
            chunk = await self.host.read()
            lines = splitter.feed(chunk) if chunk else [splitter.rest()]
            actions: list[Any] = []
            for line in lines:
                if not line:
                    continue
                if core.wants_tray_state(line):
                    if actions:
                        await self.perform(actions)
                        actions = []
                    await self.refresh_tray_state()
                actions.extend(core.feed_host(line))
            if actions:
                await self.perform(actions)
            if not chunk:
                break
        await self.shutdown(close_first=True)

    async def pump_server(self) -> None:
        """Child stdout -> core -> host stdout, until EOF."""
        stdout = self.process.stdout
        assert stdout is not None
        splitter = LineSplitter()
        core = self.core
        while True:
            try:
                chunk = await stdout.receive(_CHUNK)
            except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
                chunk = b""
            lines = splitter.feed(chunk) if chunk else [splitter.rest()]
            actions: list[Any] = []
            for line in lines:
                if line:
                    actions.extend(core.feed_server(line))
            if actions:
                await self.perform(actions)
            if not chunk:
                return

    async def shutdown(self, *, close_first: bool) -> None:
        """§2.6: close the child's stdin, wait, SIGTERM its process group, wait, SIGKILL."""
        if close_first:
            stdin = self.process.stdin
            if stdin is not None:
                async with self.server_lock:
                    try:
                        await stdin.aclose()
                    except (OSError, anyio.BrokenResourceError):
                        pass
            with anyio.move_on_after(SHUTDOWN_GRACE_S):
                await self.process.wait()
        for sig in (signal.SIGTERM, getattr(signal, "SIGKILL", signal.SIGTERM)):
            if self.process.returncode is not None:
                return
            _signal_group(self.process, sig)
            with anyio.move_on_after(SHUTDOWN_GRACE_S):
                await self.process.wait()

    async def watch_signals(self) -> None:
        signals = [s for s in (signal.SIGTERM, signal.SIGINT, getattr(signal, "SIGHUP", None)) if s is not None]
        with anyio.open_signal_receiver(*signals) as received:
            async for _sig in received:
                self.tg.start_soon(lambda: self.shutdown(close_first=False))

    async def run(self) -> int:
        async with anyio.create_task_group() as tg:
            self.tg = tg
            tg.start_soon(self.pump_host)
            if os.name == "posix":
                tg.start_soon(self.watch_signals)
            await self.pump_server()
            returncode = await self.process.wait()
            self.stopping = True
            tg.cancel_scope.cancel()
        return exit_status(returncode)


def _signal_group(process: Process, sig: int) -> None:
    try:
        if hasattr(os, "killpg"):
            os.killpg(process.pid, sig)
        else:  # pragma: no cover - Windows
            process.terminate() if sig == signal.SIGTERM else process.kill()
    except (ProcessLookupError, PermissionError):
        pass


def _open_wire_log(path: Path) -> BinaryIO:
    """``path`` opened for appending as a private file (:func:`~elicit_tray.paths.open_private_append`:
    never through a symbolic link, a regular file of the user's with one link, mode 0600).

    Raises:
        PrivateFileRefused: the file is refused.
        OSError: it cannot be opened.
    """
    return os.fdopen(open_private_append(path), "ab")


def _refusal_text(exc: OSError | PrivateFileRefused) -> str:
    if isinstance(exc, OSError):
        return str(exc.strerror or exc)
    return {
        "link": "it is a symbolic link",
        "not_regular": "it is not a regular file",
        "owner": f"it is owned by uid {exc.value}, not by you",
        "links": f"it has {exc.value} hard links",
    }.get(exc.kind, exc.kind)


def _note(text: str) -> None:
    """One line on stderr (the host's log), never on stdout."""
    try:
        sys.stderr.write(f"elicit-tray wrap: {text}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


async def run_wrap(
    argv: list[str],
    *,
    policy: str = "complement",
    socket_path: Path | None = None,
    wire_log: Path | None = None,
    in_fd: int = 0,
    out_fd: int = 1,
) -> int:
    """Run ``argv`` as the wrapped MCP server and relay between it and the host on
    ``in_fd``/``out_fd`` (``docs/wrap-design.md``).

    Args:
        argv: the server command (``argv[0]`` looked up on ``PATH``), at least one item.
        policy: ``complement``, ``always`` or ``off`` (§2.7).
        socket_path: the tray app's socket (default: ``paths.default_socket_path()``).
        wire_log: append every line written to the host (``to-host <line>``) and to the server
            (``to-server <line>``) to this file (mode 0600); for tests and debugging.

    Returns:
        The exit status: the child's (``128 + n`` if signal ``n`` ended it); 127 if the command
        was not found, 126 if it could not be run, 2 if ``wire_log`` is refused (a symbolic
        link, not a regular file, another user's, another hard link) or cannot be opened.
    """
    core = WrapCore(policy)
    log = None
    if wire_log is not None:  # before the server runs: a refused log starts nothing
        try:
            log = _open_wire_log(wire_log)
        except (OSError, PrivateFileRefused) as exc:
            _note(f"cannot write the wire log {wire_log}: {_refusal_text(exc)}")
            return 2
    try:
        try:
            process = await anyio.open_process(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None, start_new_session=True
            )
        except FileNotFoundError as exc:
            _note(f"cannot run {argv[0]!r}: {exc.strerror or exc}")
            return 127
        except OSError as exc:
            _note(f"cannot run {argv[0]!r}: {exc.strerror or exc}")
            return 126
        core.identity = Identity(tuple(argv), os.getpid(), process.pid)
        try:
            host = _HostIO(in_fd, out_fd)
            try:
                return await _Shell(argv, core, process, host, socket_path=socket_path, wire_log=log).run()
            finally:
                host.restore()
        finally:
            if process.returncode is None:
                _signal_group(process, getattr(signal, "SIGKILL", signal.SIGTERM))
    finally:
        if log is not None:
            log.close()


def wrap_main(
    argv: list[str], *, policy: str = "complement", socket_path: Path | None = None, wire_log: Path | None = None
) -> int:
    """``elicit-tray wrap``: :func:`run_wrap` on stdin/stdout under asyncio; returns the exit
    status (2 when no command is given)."""
    if not argv:
        _note("usage: elicit-tray wrap [--policy complement|always|off] -- <server command...>")
        return 2
    return anyio.run(lambda: run_wrap(argv, policy=policy, socket_path=socket_path, wire_log=wire_log))
