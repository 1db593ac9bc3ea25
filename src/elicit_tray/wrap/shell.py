"""The anyio shell of ``elicit-tray wrap`` (``docs/wrap-design.md`` §2.6): owns the child's
pipes, the host's stdin/stdout and the tray requests; every decision is :class:`WrapCore`'s.

- The child runs in its own session (so its own process group), inherits the whole environment
  and our stderr (its log reaches the host's log); stdin/stdout are pipes to us.
- Lines are split on ``b"\\n"`` with no length limit; each goes to the core with its
  terminator, so a ``\\r\\n`` or a last line without one is forwarded as it came.
- Host EOF: close the child's stdin, wait 2 s, then end the tree. SIGTERM/SIGINT/SIGHUP to the
  proxy: end the tree at once. The server's own exit: drain its stdout (bounded: a process it
  left may hold the pipe), then end what is left. Ending the tree: SIGTERM to the server's
  process group and (as the ``wrap`` command, on Linux, a child subreaper: :mod:`.procs`) every
  other descendant, 2 s, SIGKILL, reaped. The proxy's exit status is the child's (``128 + n``
  when signal ``n`` ended it).
- The child's pipes are plain descriptors written from the line's own buffer (no copy of a
  large line) and read in 1 MiB chunks.
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
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import anyio
from anyio.abc import Process

from ..paths import PrivateFileRefused, open_private_append
from .core import AskTray, CancelTray, CompleteTray, Identity, ReleaseTray, ToHost, ToServer, TrayAnswer, WrapCore
from .pipes import CHUNK, End, LineSplitter
from .procs import Tree, become_subreaper

__all__ = [
    "run_wrap",
    "wrap_main",
    "LineSplitter",
    "SHUTDOWN_GRACE_S",
    "DRAIN_IDLE_S",
    "DRAIN_MAX_S",
    "PROBE_INTERVAL_S",
    "exit_status",
]

#: Seconds between closing the child's stdin and SIGTERM, and between SIGTERM and SIGKILL.
SHUTDOWN_GRACE_S = 2.0
#: Once the server has exited: seconds without data, and seconds in all, before its stdout is
#: closed (a process it left behind may hold the pipe open for ever).
DRAIN_IDLE_S = 0.5
DRAIN_MAX_S = 2.0
#: Seconds between two looks at the process tree while it is being ended.
POLL_S = 0.05
#: Seconds a tray reachability probe stays valid.
PROBE_INTERVAL_S = 1.0


def exit_status(returncode: int) -> int:
    """A child's ``returncode`` as a process exit status: itself, or ``128 + n`` for signal ``n``."""
    return 128 - returncode if returncode < 0 else returncode


@dataclass
class _Ends:
    """The four pipe ends the shell uses: the host's stdin/stdout, the server's stdin/stdout."""

    host_in: End
    host_out: End
    server_in: End
    server_out: End

    def restore(self) -> None:
        for end in (self.host_in, self.host_out):
            end.restore()
        for end in (self.server_in, self.server_out):
            end.close()


class _Shell:
    def __init__(
        self,
        core: WrapCore,
        process: Process,
        ends: _Ends,
        *,
        socket_path: Path | None,
        wire_log: BinaryIO | None,
        tree: Tree | None,
    ):
        from ..client import Completions

        self.core, self.process, self.ends, self.tree = core, process, ends, tree
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
        self.exited_at: float | None = None  # anyio clock, when the server exited
        self.read_scope: anyio.CancelScope | None = None
        self.done = anyio.Event()  # set when the proxy may exit

    # -- output ------------------------------------------------------------------------------

    def _log(self, direction: bytes, data: bytes | bytearray) -> None:
        if self.wire_log is not None:
            self.wire_log.write(direction)
            self.wire_log.write(data)
            if not data.endswith(b"\n"):
                self.wire_log.write(b"\n")
            self.wire_log.flush()

    async def to_host(self, data: bytes | bytearray) -> None:
        async with self.host_lock:
            if self.host_gone:
                return
            try:
                await self.ends.host_out.write(data)
            except OSError:  # the host closed its end: as at host EOF, stop the child
                self.host_gone = True
                self.tg.start_soon(lambda: self.shutdown(close_first=True))

    async def to_server(self, data: bytes | bytearray) -> None:
        async with self.server_lock:
            try:
                await self.ends.server_in.write(data)
            except OSError:
                pass  # the child is gone or closed its stdin; its exit ends the proxy

    async def perform(self, actions: list[Any]) -> None:
        """Carry out the core's actions in order (consecutive writes to one side go as one)."""
        pending_host: list[bytes | bytearray] = []
        pending_server: list[bytes | bytearray] = []
        for action in actions:
            if isinstance(action, ToHost):
                if pending_server:
                    await self.to_server(_joined(pending_server))
                    pending_server = []
                self._log(b"to-host ", action.data)
                pending_host.append(action.data)
                continue
            if isinstance(action, ToServer):
                if pending_host:
                    await self.to_host(_joined(pending_host))
                    pending_host = []
                self._log(b"to-server ", action.data)
                pending_server.append(action.data)
                continue
            if pending_host:
                await self.to_host(_joined(pending_host))
                pending_host = []
            if pending_server:
                await self.to_server(_joined(pending_server))
                pending_server = []
            if isinstance(action, AskTray):
                self.tg.start_soon(self.ask_tray, action)
            elif isinstance(action, CancelTray):
                scope = self.scopes.pop(action.ticket, None)
                if scope is not None:
                    scope.cancel()
            elif isinstance(action, CompleteTray):
                self.tg.start_soon(self.completions.complete, action.elicitation_id)
            elif isinstance(action, ReleaseTray):
                self.completions.release_owner(action.owner)
        if pending_host:
            await self.to_host(_joined(pending_host))
        if pending_server:
            await self.to_server(_joined(pending_server))

    # -- the tray ----------------------------------------------------------------------------

    async def refresh_tray_state(self) -> None:
        """Set ``core.tray_up`` from a probe of the socket (at most once per
        :data:`PROBE_INTERVAL_S`); nothing is written to the socket."""
        now = time.monotonic()
        if now - self.probed_at < PROBE_INTERVAL_S:
            return
        from ..client import TrayError, open_connection
        from ..paths import default_socket_path
        from ..requester.errors import unreachable_message, why_unreachable

        path = default_socket_path(self.socket_path)
        try:
            _reader, writer = await open_connection(path)
            writer.close()
            up = True
        except (OSError, TrayError) as exc:
            up = False
            said = exc.message if isinstance(exc, TrayError) else unreachable_message(path, why_unreachable(exc))
            _note(f"elicitation is not declared for the host: {said}")
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
                    hold_owner=action.owner,
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
            chunk = await self.ends.host_in.read()
            lines = splitter.feed(chunk) if chunk else [splitter.rest()]
            actions: list[Any] = []
            line: bytes | bytearray = b""
            for line in lines:
                if not line:
                    continue
                if core.wants_tray_state(line):
                    if actions:
                        await self.perform(actions)
                        actions = []
                    await self.refresh_tray_state()
                actions.extend(core.feed_host(line))
            del lines, line  # hold no line while waiting for the next chunk (README "Memory")
            if actions:
                await self.perform(actions)
                del actions
            if not chunk:
                break
        await self.shutdown(close_first=True)

    async def _read_server(self) -> bytes:
        """The next chunk of the server's stdout; ``b""`` at EOF, and once the server has
        exited, also after :data:`DRAIN_IDLE_S` without data or :data:`DRAIN_MAX_S` after its
        exit (a process it left behind may hold the pipe open for ever)."""
        chunk = b""
        with anyio.CancelScope() as scope:
            self.read_scope = scope
            if self.exited_at is not None:
                scope.deadline = min(anyio.current_time() + DRAIN_IDLE_S, self.exited_at + DRAIN_MAX_S)
            chunk = await self.ends.server_out.read()
        self.read_scope = None
        return chunk

    async def pump_server(self) -> None:
        """Child stdout -> core -> host stdout, until EOF or the end of the drain."""
        splitter = LineSplitter()
        core = self.core
        while True:
            chunk = await self._read_server()
            lines = splitter.feed(chunk) if chunk else [splitter.rest()]
            actions: list[Any] = []
            line: bytes | bytearray = b""
            for line in lines:
                if line:
                    actions.extend(core.feed_server(line))
            del lines, line
            if actions:
                await self.perform(actions)
                del actions
            if not chunk:
                self.ends.server_out.close()
                return

    async def watch_server(self) -> None:
        """At the server's exit, bound the drain of its stdout (:meth:`_read_server`)."""
        await self.process.wait()
        self.exited_at = anyio.current_time()
        if self.read_scope is not None:
            self.read_scope.deadline = self.exited_at + DRAIN_IDLE_S

    async def shutdown(self, *, close_first: bool) -> None:
        """§2.6 "Ending": (host gone) close the child's stdin and wait; then :meth:`terminate`,
        and end the proxy even if a write to the host never completes (a host that stopped
        reading)."""
        if close_first:
            self.ends.server_in.close()  # not under server_lock: a write the server never reads holds it
            with anyio.move_on_after(SHUTDOWN_GRACE_S):
                await self.process.wait()
        await self.terminate()
        with anyio.move_on_after(DRAIN_MAX_S + DRAIN_IDLE_S):
            await self.done.wait()
        self.done.set()

    def _everything_gone(self) -> bool:
        return self.process.returncode is not None and (self.tree is None or not self.tree.living())

    async def terminate(self) -> None:
        """§2.6 "Ending": SIGTERM to the server's process group and to every other process of
        its tree, up to :data:`SHUTDOWN_GRACE_S` for all to end, then SIGKILL and as long again;
        the orphans the proxy inherited are reaped."""
        for sig in (signal.SIGTERM, getattr(signal, "SIGKILL", signal.SIGTERM)):
            if self._everything_gone():
                return
            if self.process.returncode is None:
                _signal_group(self.process, sig)
            if self.tree is not None:
                self.tree.signal(sig)
            with anyio.move_on_after(SHUTDOWN_GRACE_S):
                while not self._everything_gone():
                    await anyio.sleep(POLL_S)

    async def watch_signals(self) -> None:
        signals = [s for s in (signal.SIGTERM, signal.SIGINT, getattr(signal, "SIGHUP", None)) if s is not None]
        with anyio.open_signal_receiver(*signals) as received:
            async for _sig in received:
                self.tg.start_soon(lambda: self.shutdown(close_first=False))

    async def reap_orphans(self) -> None:
        """Reap, as they end, the orphans of the server's tree the proxy inherited as a child
        subreaper (each would stay a zombie of ours until the end otherwise)."""
        assert self.tree is not None
        with anyio.open_signal_receiver(signal.SIGCHLD) as received:
            self.tree.living()  # those that ended before the receiver was there
            async for _sig in received:
                self.tree.living()  # reaps our zombie children on the way

    async def _relay_then_end(self) -> None:
        await self.pump_server()
        await self.process.wait()
        await self.terminate()  # what the server left behind
        self.done.set()

    async def run(self) -> int:
        async with anyio.create_task_group() as tg:
            self.tg = tg
            tg.start_soon(self.pump_host)
            tg.start_soon(self.watch_server)
            if os.name == "posix":
                tg.start_soon(self.watch_signals)
            if self.tree is not None:
                tg.start_soon(self.reap_orphans)
            tg.start_soon(self._relay_then_end)
            await self.done.wait()
            self.stopping = True
            tg.cancel_scope.cancel()
        returncode = self.process.returncode
        return exit_status(returncode) if returncode is not None else 128 + getattr(signal, "SIGKILL", 9)


def _joined(parts: list[bytes | bytearray]) -> bytes | bytearray:
    """One buffer of ``parts``; a single part as it is (no copy of a large line)."""
    return parts[0] if len(parts) == 1 else b"".join(parts)


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
    own_tree: bool = False,
) -> int:
    """Run ``argv`` as the wrapped MCP server and relay between it and the host on
    ``in_fd``/``out_fd`` (``docs/wrap-design.md``).

    Args:
        argv: the server command (``argv[0]`` looked up on ``PATH``), at least one item.
        policy: ``complement``, ``always`` or ``off`` (§2.7).
        socket_path: the tray app's socket (default: ``paths.default_socket_path()``).
        wire_log: append every line written to the host (``to-host <line>``) and to the server
            (``to-server <line>``) to this file (mode 0600); for tests and debugging.
        own_tree: this process is the proxy alone (the ``wrap`` command): on Linux it becomes a
            child subreaper, and at the end every process left of the server's tree is
            terminated and reaped (§2.6 "Ending"). Never set it in a process that has other
            children (they would be counted as the server's).

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
    tree_root = os.getpid() if own_tree and become_subreaper() else None
    try:
        child_in, server_in = os.pipe()  # ours are close-on-exec; the child gets them as 0 and 1
        server_out, child_out = os.pipe()
        try:
            process = await anyio.open_process(
                argv, stdin=child_in, stdout=child_out, stderr=None, start_new_session=True
            )
        except OSError as exc:
            os.close(server_in)
            os.close(server_out)
            _note(f"cannot run {argv[0]!r}: {exc.strerror or exc}")
            return 127 if isinstance(exc, FileNotFoundError) else 126
        finally:
            os.close(child_in)
            os.close(child_out)
        for fd in (server_in, server_out):
            _grow_pipe(fd)
        core.identity = Identity(tuple(argv), os.getpid(), process.pid)
        tree = Tree(process.pid, tree_root) if tree_root is not None else None
        try:
            ends = _Ends(End(in_fd), End(out_fd), End(server_in), End(server_out))
            try:
                return await _Shell(core, process, ends, socket_path=socket_path, wire_log=log, tree=tree).run()
            finally:
                ends.restore()
        finally:
            if process.returncode is None:
                _signal_group(process, getattr(signal, "SIGKILL", signal.SIGTERM))
    finally:
        if log is not None:
            log.close()


def _grow_pipe(fd: int) -> None:
    """Ask for a 1 MiB pipe buffer (Linux ``F_SETPIPE_SZ``; fewer wake-ups per large line)."""
    try:
        import fcntl

        fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), CHUNK)
    except (ImportError, OSError):
        pass


def wrap_main(
    argv: list[str], *, policy: str = "complement", socket_path: Path | None = None, wire_log: Path | None = None
) -> int:
    """``elicit-tray wrap``: :func:`run_wrap` on stdin/stdout under asyncio; returns the exit
    status (2 when no command is given)."""
    if not argv:
        _note("usage: elicit-tray wrap [--policy complement|always|off] -- <server command...>")
        return 2
    return anyio.run(lambda: run_wrap(argv, policy=policy, socket_path=socket_path, wire_log=wire_log, own_tree=True))
