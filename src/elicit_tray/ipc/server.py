"""The local socket endpoint (``QLocalServer``): a thin adapter around :class:`Dispatcher`.

docs/design.md "IPC contract": a Unix domain socket (named pipe on Windows), directory 0700,
socket 0600, peer uid checked where the OS tells it (Linux ``SO_PEERCRED``); a stale socket
is probed and removed; a live one means another instance is running.

Socket activation (systemd ``elicit-tray.socket``): :func:`listen_fds` reads the descriptors a
service manager passed (``sd_listen_fds`` protocol) and :meth:`LocalEndpoint.adopt` serves on the
listening socket instead of creating one; the socket file is left in place on exit.

Limits (README "IPC contract"): at most :data:`MAX_CONNECTIONS` connections at once, and at
most :data:`MAX_CONNECTIONS_PER_PEER` of them from one requester process (one more gets a
-32000 error line with a null id, ``data.scope`` ``"connections"`` or ``"peer"``, and is
closed); a connection that holds no pending request and sent no complete message for
:data:`~elicit_tray.ipc.protocol.IDLE_CLOSE_S` is closed; a connection whose unread
answers exceed :data:`MAX_UNSENT_BYTES` is closed (its dialogs expire).
"""

from __future__ import annotations

import logging
import os
import select
import socket
import stat
import struct
import sys
from pathlib import Path

from PySide6.QtCore import QObject, QTimer
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from ..paths import (
    InstanceLock,
    LockHeld,
    UnsafeSocketPath,
    check_socket_path_length,
    ensure_private_dir,
    probe_socket,
)
from ..request import Peer
from . import jsonrpc as rpc
from .protocol import IDLE_CLOSE_S, Dispatcher

__all__ = [
    "AlreadyRunning",
    "LocalEndpoint",
    "listen_fds",
    "peer_of",
    "MAX_CONNECTIONS",
    "MAX_UNSENT_BYTES",
    "LISTEN_BACKLOG",
    "SD_LISTEN_FDS_START",
    "MAX_CONNECTIONS_PER_PEER",
]

#: Most requester connections open at once.
MAX_CONNECTIONS = 256
#: Most connections open at once from one requester process (peer uid and pid; not limited where
#: the OS does not tell the pid), so that one process cannot take every connection.
MAX_CONNECTIONS_PER_PEER = 32
#: Most bytes of answers waiting to be read by one requester before its connection is closed.
MAX_UNSENT_BYTES = 4 * 1024 * 1024
#: Connections the OS queues before the app accepts them (a burst waits instead of failing).
LISTEN_BACKLOG = 256
#: The first descriptor a service manager passes (``sd_listen_fds(3)``).
SD_LISTEN_FDS_START = 3

log = logging.getLogger(__name__)


class AlreadyRunning(RuntimeError):
    """Another tray app answers on the socket path."""


def listen_fds() -> list[int]:
    """The descriptors passed by a service manager (``sd_listen_fds(3)`` with unset_environment):
    ``LISTEN_FDS`` descriptors from 3 on, if ``LISTEN_PID`` is this process; otherwise none.

    ``LISTEN_PID``, ``LISTEN_FDS`` and ``LISTEN_FDNAMES`` are removed from the environment in
    every case, and the descriptors are made close-on-exec, so a child (the browser) inherits
    neither.
    """
    pid, count = os.environ.pop("LISTEN_PID", ""), os.environ.pop("LISTEN_FDS", "")
    os.environ.pop("LISTEN_FDNAMES", None)
    try:
        if int(pid) != os.getpid() or int(count) <= 0:
            return []
    except ValueError:
        return []
    fds = list(range(SD_LISTEN_FDS_START, SD_LISTEN_FDS_START + int(count)))
    for fd in fds:
        try:
            os.set_inheritable(fd, False)
        except OSError:
            log.warning("LISTEN_FDS names descriptor %d, which is not open", fd)
            return []
    return fds


def peer_of(fd: int, proc: str = "/proc") -> Peer:
    """The peer process of a connected Unix socket ``fd`` (docs/design.md "UI rules": who asks is the
    process as the OS reports it).

    Linux: pid and uid from ``SO_PEERCRED``; the executable, arguments and self-chosen name from
    ``{proc}/<pid>`` (:meth:`Peer.from_proc`). Where the kernel gives a pidfd of the peer
    (``SO_PEERPIDFD``, Linux 6.5+), what ``/proc`` told is kept only if the peer still runs
    after it was read, so a pid reused after the peer exited cannot lend it another program's
    identity (then only pid and uid are kept). Returns an empty :class:`Peer` where the OS does
    not tell (macOS, Windows) or on error; raises nothing.
    """
    import select  # used only here

    if not sys.platform.startswith("linux") or fd < 0:
        return Peer()
    pidfd = None
    try:
        # A duplicate of Qt's descriptor: closing it leaves Qt's own open.
        with socket.socket(fileno=os.dup(fd)) as dup:
            raw = dup.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
            try:
                pidfd = dup.getsockopt(socket.SOL_SOCKET, getattr(socket, "SO_PEERPIDFD", 77))
            except OSError:  # an older kernel
                pidfd = None
    except OSError:
        return Peer()
    pid, uid, _gid = struct.unpack("3i", raw)
    if pid <= 0:  # a peer in another pid namespace
        return Peer(uid=uid)
    peer = Peer.from_proc(pid, uid, proc)
    if pidfd is not None:
        try:
            exited = bool(select.select([pidfd], [], [], 0)[0])  # a pidfd is readable once its process exits
        except (OSError, ValueError):
            exited = False
        finally:
            os.close(pidfd)
        if exited:
            peer = Peer(pid=pid, uid=uid)
    return peer


def _silence(sock: QLocalSocket) -> None:
    """Disconnect our slots from ``sock`` (it may already have none)."""
    for signal in (sock.readyRead, sock.disconnected):
        try:
            signal.disconnect()
        except (RuntimeError, TypeError):
            pass


class _QtChannel(QObject):
    """A :class:`~elicit_tray.ipc.protocol.Channel` over one ``QLocalSocket``."""

    def __init__(self, sock: QLocalSocket, peer: Peer, endpoint: LocalEndpoint):
        super().__init__(endpoint)
        self.sock = sock
        self.peer = peer
        self._endpoint = endpoint

    def send(self, data: bytes) -> None:
        if self.sock.state() == QLocalSocket.LocalSocketState.ConnectedState:
            if self.sock.bytesToWrite() + len(data) > self._endpoint.max_unsent_bytes:
                log.warning(
                    "closing the connection of %s: over %d bytes of answers unread",
                    self.peer.label or "a requester",
                    self._endpoint.max_unsent_bytes,
                )
                self._endpoint.journal.record(
                    "connection-closed", reason="unread-answers", pid=self.peer.pid, process=self.peer.label
                )
                self._endpoint.drop(self)
                return
            self.sock.write(data)
            self.sock.flush()

    def close(self) -> None:
        self.sock.disconnectFromServer()

    def peer_gone(self) -> bool:
        """True once the peer closed the connection or shut down its writing side, even while
        what it wrote before is still being read (Linux: ``POLLRDHUP``/``POLLHUP`` on the
        socket; elsewhere only once Qt saw the end)."""
        if self.sock.state() != QLocalSocket.LocalSocketState.ConnectedState:
            return True
        fd = int(self.sock.socketDescriptor())
        if fd < 0 or not hasattr(select, "poll"):
            return False
        poller = select.poll()
        poller.register(fd, select.POLLHUP | getattr(select, "POLLRDHUP", 0))
        try:
            return bool(poller.poll(0))
        except OSError:
            return False


def _peer_key(peer: Peer) -> tuple[int | None, int] | None:
    """The key of the per-process connection limit: (uid, pid); None where the pid is unknown."""
    return (peer.uid, peer.pid) if peer.pid else None


class LocalEndpoint(QObject):
    """Listens on ``path`` and feeds every connection into ``dispatcher``.

    Raises (from :meth:`listen`): :class:`AlreadyRunning`, :class:`~elicit_tray.paths.UnsafeDirectory`,
    ``OSError`` when the socket cannot be created.
    """

    def __init__(
        self,
        dispatcher: Dispatcher,
        path: Path,
        parent: QObject | None = None,
        *,
        max_connections: int = MAX_CONNECTIONS,
        max_unsent_bytes: int = MAX_UNSENT_BYTES,
        max_connections_per_peer: int = MAX_CONNECTIONS_PER_PEER,
        idle_close_ms: int = int(IDLE_CLOSE_S * 1000),
    ):
        super().__init__(parent)
        self.dispatcher = dispatcher
        self.journal = dispatcher.journal
        self.path = Path(path)
        self.max_connections = max_connections
        self.max_unsent_bytes = max_unsent_bytes
        self.max_connections_per_peer = max_connections_per_peer
        #: A connection idle this long (ms) with nothing pending is closed (0: never).
        self.idle_close_ms = idle_close_ms
        self._per_peer: dict[tuple[int | None, int], int] = {}
        self._idle_timer = QTimer(self)
        self._idle_timer.setInterval(max(20, min(5000, idle_close_ms // 4)))
        self._idle_timer.timeout.connect(self._close_idle)
        self.server = QLocalServer(self)
        self.server.setListenBacklogSize(LISTEN_BACKLOG)
        self.server.setMaxPendingConnections(LISTEN_BACKLOG)
        self.server.newConnection.connect(self._accept)
        self._channels: dict[int, _QtChannel] = {}
        #: True when serving on a socket passed by a service manager (:meth:`adopt`).
        self.adopted = False
        self._adopted_file = False

    def adopt(self, fd: int) -> None:
        """Serve on ``fd``, a listening Unix stream socket passed by a service manager (systemd
        socket activation), instead of creating one; :attr:`path` becomes its bound path. Qt owns
        (and at :meth:`close` closes) ``fd``; the socket file stays for the next activation.

        No instance lock is taken (systemd starts one service instance per socket; a manual
        ``serve`` finds the socket live and exits 3), and :meth:`close` never removes the file.

        Raises ``OSError`` when ``fd`` is not a listening Unix stream socket.
        """
        with socket.socket(fileno=os.dup(fd)) as probe:  # a duplicate: closing it keeps fd open
            if (
                probe.family != getattr(socket, "AF_UNIX", None)
                or probe.type != socket.SOCK_STREAM
                or not probe.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN)
            ):
                raise OSError(f"descriptor {fd} is not a listening Unix stream socket")
            name = probe.getsockname()
        if not self.server.listen(fd):
            raise OSError(f"cannot serve on descriptor {fd}: {self.server.errorString()}")
        self._adopted_file = isinstance(name, str) and bool(name)  # not an abstract or unnamed socket
        if self._adopted_file:
            self.path = Path(name)
        self.adopted = True

    #: The instance lock :meth:`listen` holds (None before it, and for an adopted socket: the
    #: service manager starts one instance).
    lock: InstanceLock | None = None
    #: ``(st_dev, st_ino)`` of the socket file :meth:`listen` made; only that file is removed.
    _bound: tuple[int, int] | None = None

    def listen(self) -> None:
        """Check the path fits ``AF_UNIX``, make sure its directory is private, take the instance
        lock, recover a stale socket, listen, chmod 0600 (README "IPC contract").

        The directory: created 0700 if missing, else it must already be the user's with mode 0700
        (:func:`~elicit_tray.paths.ensure_private_dir`: nothing existing is chmodded). The lock:
        ``<socket>.lock`` beside the socket (:class:`~elicit_tray.paths.InstanceLock`), taken
        before the path is probed, so of two instances started together one runs and the other
        gets :class:`AlreadyRunning`. The path: nothing there, or a socket of the user's that
        nothing accepts on (stale: removed); a live socket means another instance runs; anything
        else (a regular file, a directory, a symbolic link, a FIFO, another user's socket) is
        left alone and refused.

        Raises: :class:`~elicit_tray.paths.SocketPathTooLong` (an ``UnsafeDirectory``: the
        message says what to do), :class:`~elicit_tray.paths.UnsafeDirectory` (also
        :class:`~elicit_tray.paths.UnsafeSocketPath` for the path itself),
        :class:`AlreadyRunning`, ``OSError``. The lock is released on every error.
        """
        check_socket_path_length(self.path)
        ensure_private_dir(self.path.parent)
        lock = InstanceLock(self.path)
        try:
            lock.acquire()
        except LockHeld:
            raise AlreadyRunning(
                f"elicit-tray is already running (socket {self.path}; another instance holds {lock.path})"
            ) from None
        try:
            self._clear_stale()
            self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
            if not self.server.listen(str(self.path)):
                raise OSError(f"cannot listen on {self.path}: {self.server.errorString()}")
            if hasattr(os, "chmod"):
                os.chmod(self.path, 0o600)
            info = os.lstat(self.path)
        except BaseException:
            self.server.close()
            lock.release()
            raise
        self.lock, self._bound = lock, (info.st_dev, info.st_ino)

    def _clear_stale(self) -> None:
        """With the lock held: remove a stale socket of ours at :attr:`path`; refuse anything else."""
        try:
            info = os.lstat(self.path)
        except FileNotFoundError:
            return
        kind = (
            "a symbolic link"
            if stat.S_ISLNK(info.st_mode)
            else "a directory"
            if stat.S_ISDIR(info.st_mode)
            else "a regular file"
            if stat.S_ISREG(info.st_mode)
            else "a FIFO"
            if stat.S_ISFIFO(info.st_mode)
            else None
            if stat.S_ISSOCK(info.st_mode)
            else "a device or special file"
        )
        if kind is not None:
            raise UnsafeSocketPath(
                f"{self.path} is {kind}, not a socket; elicit-tray removes only a stale socket. "
                f"Give --socket (or ELICIT_TRAY_SOCKET) the path of a socket file to create"
            )
        if hasattr(os, "getuid") and info.st_uid != os.getuid():
            raise UnsafeSocketPath(f"{self.path} is a socket of uid {info.st_uid}, not yours; it is left alone")
        if probe_socket(self.path):
            raise AlreadyRunning(f"elicit-tray is already running (socket {self.path})")
        log.info("removing stale socket %s", self.path)
        os.unlink(self.path)

    def close(self) -> None:
        """Stop listening, close every connection (after writing what was sent), remove the
        socket file, then the lock file, and release the lock. The socket file is removed only
        if this instance holds the lock and the path still names the socket it bound, so an
        instance that never got the lock cannot delete another one's live socket; an adopted
        socket stays for the service manager."""
        keep = None
        if self._adopted_file and self.server.isListening():
            # QLocalServer.close() removes the file of an adopted socket too; a second name for
            # the same socket puts it back right after (the service manager still listens on it).
            keep = self.path.with_name(f".{self.path.name}.{os.getpid()}.keep")
            try:
                os.link(self.path, keep)
            except OSError as exc:
                log.warning("cannot keep the socket file %s: %s", self.path, exc)
                keep = None
        self.server.close()
        if keep is not None:
            try:
                os.replace(keep, self.path)
            except OSError as exc:
                log.warning("cannot restore the socket file %s: %s", self.path, exc)
        for channel in self.findChildren(_QtChannel):
            sock = channel.sock
            # Forget the connection first: a socket destroyed later (at exit) must not call
            # back into Python with an already deleted C++ object.
            _silence(sock)
            self._channels.pop(id(channel), None)
            self.dispatcher.connection_lost(channel)
            if sock.state() == QLocalSocket.LocalSocketState.ConnectedState and sock.bytesToWrite():
                sock.waitForBytesWritten(1000)
            sock.abort()
        lock, self.lock = self.lock, None
        if self.adopted or lock is None or not lock.held:
            return
        try:
            info = os.lstat(self.path)
            if self._bound == (info.st_dev, info.st_ino):
                os.unlink(self.path)
        except OSError:
            pass
        self._bound = None
        lock.release()

    def _accept(self) -> None:
        while self.server.hasPendingConnections():
            sock = self.server.nextPendingConnection()
            peer = peer_of(int(sock.socketDescriptor()))
            if peer.uid is not None and hasattr(os, "getuid") and peer.uid != os.getuid():
                # Before anything is read: another user's process gets nothing, not even an error.
                log.warning("refusing a connection from uid %s (pid %s)", peer.uid, peer.pid)
                self.journal.record(
                    "connection-refused", reason="other-user", uid=peer.uid, pid=peer.pid, process=peer.label
                )
                sock.abort()
                sock.deleteLater()
                continue
            key = _peer_key(peer)
            if len(self._channels) >= self.max_connections:
                self._refuse(
                    sock,
                    peer,
                    "too-many-connections",
                    f"Server busy: too many connections ({self.max_connections})",
                    {"limit": self.max_connections, "scope": "connections"},
                )
                continue
            if key is not None and self._per_peer.get(key, 0) >= self.max_connections_per_peer:
                self._refuse(
                    sock,
                    peer,
                    "too-many-connections-from-peer",
                    f"Server busy: too many connections ({self.max_connections_per_peer} from one process)",
                    {"limit": self.max_connections_per_peer, "scope": "peer"},
                )
                continue
            channel = _QtChannel(sock, peer, self)
            # A socket from nextPendingConnection() stays a shiboken child of the server's
            # wrapper, which keeps its Python wrapper after Qt deleted it: one dead wrapper per
            # connection, never freed (627 after 600 connections). With the channel as its
            # parent, the wrapper goes with the channel.
            sock.setParent(channel)
            self._channels[id(channel)] = channel
            if key is not None:
                self._per_peer[key] = self._per_peer.get(key, 0) + 1
            if self.idle_close_ms > 0 and not self._idle_timer.isActive():
                self._idle_timer.start()
            self.dispatcher.connection_made(channel)
            sock.readyRead.connect(lambda ch=channel: self._read(ch))
            sock.disconnected.connect(lambda ch=channel: self._lost(ch))
            if sock.bytesAvailable():
                self._read(channel)

    def _refuse(self, sock: QLocalSocket, peer: Peer, reason: str, message: str, data: dict[str, object]) -> None:
        """One -32000 line with a null id, then close (a connection over a connection limit)."""
        log.warning(
            "refusing a connection from %s: %s (%d connections open)",
            peer.label or "a requester",
            reason,
            len(self._channels),
        )
        self.journal.record("connection-refused", reason=reason, uid=peer.uid, pid=peer.pid, process=peer.label)
        sock.write(rpc.encode(rpc.error(None, rpc.SERVER_BUSY, message, data)))
        sock.flush()
        sock.disconnectFromServer()
        if sock.state() == QLocalSocket.LocalSocketState.UnconnectedState:
            sock.deleteLater()
        else:
            sock.disconnected.connect(sock.deleteLater)

    def _read(self, channel: _QtChannel) -> None:
        data = bytes(channel.sock.readAll().data())
        if data:
            self.dispatcher.data_received(channel, data)

    def _close_idle(self) -> None:
        """Close the connections idle for :attr:`idle_close_ms` with nothing pending
        (:meth:`Dispatcher.idle_channels`); stop the timer when no connection is left."""
        if not self._channels:
            self._idle_timer.stop()
            return
        for channel in self.dispatcher.idle_channels(self.idle_close_ms / 1000):
            if not isinstance(channel, _QtChannel) or id(channel) not in self._channels:
                continue
            log.info("closing the idle connection of %s", channel.peer.label or "a requester")
            self.journal.record("connection-closed", reason="idle", pid=channel.peer.pid, process=channel.peer.label)
            _silence(channel.sock)
            self._lost(channel)
            channel.sock.disconnectFromServer()  # what was written still goes out

    def _lost(self, channel: _QtChannel) -> None:
        if self._channels.pop(id(channel), None) is None:
            return  # already dropped
        key = _peer_key(channel.peer)
        if key is not None and key in self._per_peer:
            self._per_peer[key] -= 1
            if self._per_peer[key] <= 0:
                del self._per_peer[key]
        self.dispatcher.connection_lost(channel)
        channel.sock.deleteLater()
        channel.deleteLater()

    def drop(self, channel: _QtChannel) -> None:
        """Close ``channel`` at once (unsent data is discarded); its requests expire."""
        _silence(channel.sock)
        self._lost(channel)
        channel.sock.abort()

    def connection_count(self) -> int:
        """Requester connections open now."""
        return len(self._channels)
