"""The local socket endpoint (``QLocalServer``): a thin adapter around :class:`Dispatcher`.

DESIGN.md "IPC contract": a Unix domain socket (named pipe on Windows), directory 0700,
socket 0600, peer uid checked where the OS tells it (Linux ``SO_PEERCRED``); a stale socket
is probed and removed; a live one means another instance is running.
"""

from __future__ import annotations

import logging
import os
import socket
import struct
import sys
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from ..elicitation import Peer
from ..paths import ensure_private_dir
from .protocol import Dispatcher

__all__ = ["AlreadyRunning", "LocalEndpoint", "peer_of", "probe_socket"]

log = logging.getLogger(__name__)


class AlreadyRunning(RuntimeError):
    """Another tray app answers on the socket path."""


def probe_socket(path: Path, timeout_s: float = 0.5) -> bool:
    """True when something accepts connections on the Unix socket ``path``."""
    if not hasattr(socket, "AF_UNIX"):
        return False
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout_s)
        try:
            sock.connect(str(path))
        except OSError:
            return False
    return True


def peer_of(fd: int) -> Peer:
    """The peer process of a connected Unix socket ``fd`` (Linux ``SO_PEERCRED``).

    Returns an empty :class:`Peer` where the OS does not tell (macOS, Windows) or on error.
    """
    if not sys.platform.startswith("linux") or fd < 0:
        return Peer()
    try:
        # A duplicate of Qt's descriptor: closing it leaves Qt's own open.
        with socket.socket(fileno=os.dup(fd)) as dup:
            raw = dup.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    except OSError:
        return Peer()
    pid, uid, _gid = struct.unpack("3i", raw)
    name = None
    try:
        name = Path(f"/proc/{pid}/comm").read_text(encoding="utf-8").strip() or None
    except OSError:
        pass
    return Peer(pid=pid, uid=uid, process_name=name)


class _QtChannel(QObject):
    """A :class:`~elicit_tray.ipc.protocol.Channel` over one ``QLocalSocket``."""

    def __init__(self, sock: QLocalSocket, peer: Peer, endpoint: "LocalEndpoint"):
        super().__init__(endpoint)
        self.sock = sock
        self.peer = peer
        self._endpoint = endpoint

    def send(self, data: bytes) -> None:
        if self.sock.state() == QLocalSocket.LocalSocketState.ConnectedState:
            self.sock.write(data)
            self.sock.flush()

    def close(self) -> None:
        self.sock.disconnectFromServer()


class LocalEndpoint(QObject):
    """Listens on ``path`` and feeds every connection into ``dispatcher``.

    Raises (from :meth:`listen`): :class:`AlreadyRunning`, :class:`~elicit_tray.paths.UnsafeDirectory`,
    ``OSError`` when the socket cannot be created.
    """

    def __init__(self, dispatcher: Dispatcher, path: Path, parent: QObject | None = None):
        super().__init__(parent)
        self.dispatcher = dispatcher
        self.path = Path(path)
        self.server = QLocalServer(self)
        self.server.newConnection.connect(self._accept)

    def listen(self) -> None:
        """Create the private directory, recover a stale socket, listen, chmod 0600."""
        ensure_private_dir(self.path.parent)
        if self.path.exists() or self.path.is_symlink():
            if probe_socket(self.path):
                raise AlreadyRunning(f"elicit-tray is already running (socket {self.path})")
            log.info("removing stale socket %s", self.path)
            self.path.unlink()
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        if not self.server.listen(str(self.path)):
            raise OSError(f"cannot listen on {self.path}: {self.server.errorString()}")
        if hasattr(os, "chmod"):
            os.chmod(self.path, 0o600)

    def close(self) -> None:
        """Stop listening, close every connection (after writing what was sent), remove the
        socket file."""
        self.server.close()
        for channel in self.findChildren(_QtChannel):
            sock = channel.sock
            # Forget the connection first: a socket destroyed later (at exit) must not call
            # back into Python with an already deleted C++ object.
            for sig in (sock.readyRead, sock.disconnected):
                try:
                    sig.disconnect()
                except (RuntimeError, TypeError):
                    pass
            self.dispatcher.connection_lost(channel)
            if sock.state() == QLocalSocket.LocalSocketState.ConnectedState and sock.bytesToWrite():
                sock.waitForBytesWritten(1000)
            sock.abort()
        try:
            self.path.unlink()
        except OSError:
            pass

    def _accept(self) -> None:
        while self.server.hasPendingConnections():
            sock = self.server.nextPendingConnection()
            peer = peer_of(int(sock.socketDescriptor()))
            if peer.uid is not None and hasattr(os, "getuid") and peer.uid != os.getuid():
                log.warning("refusing a connection from uid %s (pid %s)", peer.uid, peer.pid)
                sock.abort()
                sock.deleteLater()
                continue
            channel = _QtChannel(sock, peer, self)
            self.dispatcher.connection_made(channel)
            sock.readyRead.connect(lambda ch=channel: self._read(ch))
            sock.disconnected.connect(lambda ch=channel: self._lost(ch))
            if sock.bytesAvailable():
                self._read(channel)

    def _read(self, channel: _QtChannel) -> None:
        data = bytes(channel.sock.readAll().data())
        if data:
            self.dispatcher.data_received(channel, data)

    def _lost(self, channel: _QtChannel) -> None:
        self.dispatcher.connection_lost(channel)
        channel.sock.deleteLater()
        channel.deleteLater()
