"""Idle connections and unfinished input over a real socket, with the real endpoint in this
process (issue 11 §1): connections that hold nothing are closed after the idle time, so idle
connections cannot lock other requesters out; one holding a pending request stays; the
unfinished input of all connections is bounded. Waits are bounded polls on a condition."""

from __future__ import annotations

import asyncio
import json
import socket
import sys
from pathlib import Path
from typing import Any

import pytest

from elicit_tray.ipc.protocol import Dispatcher, UiFunctions
from elicit_tray.ipc.server import LocalEndpoint
from elicit_tray.request import Accepted, ElicitationRequest
from tests import rpc

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Unix sockets")

IDLE_MS = 1000
CONFIRM = {"message": "Proceed?", "requestedSchema": {"type": "object", "properties": {}}}


class Held:
    """A handler whose requests stay pending until the test ends."""

    def __init__(self) -> None:
        self.asked = 0

    async def __call__(self, request: ElicitationRequest) -> Any:
        self.asked += 1
        await asyncio.Event().wait()
        return Accepted({})


_OPEN: list[Client] = []


class Client:
    def __init__(self, path: Path):
        _OPEN.append(self)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(str(path))
        self.sock.setblocking(False)
        self.buf = b""
        self.eof = False

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def poll(self) -> None:
        try:
            chunk = self.sock.recv(65536)
        except BlockingIOError:
            return
        except ConnectionResetError:
            chunk = b""
        if chunk:
            self.buf += chunk
        else:
            self.eof = True

    def lines(self) -> list[dict[str, Any]]:
        return [json.loads(x) for x in self.buf.splitlines()]


@pytest.fixture
def endpoint(aio, scratch: Path):
    handler = Held()
    dispatcher = Dispatcher(UiFunctions(handler), version="test", max_unfinished_bytes=64 * 1024)
    ep = LocalEndpoint(
        dispatcher, scratch / "run" / "socket", max_connections=8, max_connections_per_peer=8, idle_close_ms=IDLE_MS
    )
    ep.listen()
    ep.handler = handler  # type: ignore[attr-defined]
    yield ep
    ep.close()
    while _OPEN:
        _OPEN.pop().sock.close()
    # The held requests' tasks were scheduled on the session loop, which Qt alone never ran:
    # end them here, or their never-started coroutines are reported in whichever test runs the
    # garbage collector next ("coroutine 'Dispatcher._run' was never awaited").
    dispatcher.shutdown("test over")
    aio.run_until_complete(asyncio.sleep(0))


def wait(qtbot, clients: list[Client], condition, timeout_ms: int = 10_000) -> None:
    def check() -> bool:
        for c in clients:
            c.poll()
        return bool(condition())

    qtbot.waitUntil(check, timeout=timeout_ms)


def test_idle_connections_are_closed_so_they_cannot_lock_others_out(endpoint, qtbot):
    idle = [Client(endpoint.path) for _ in range(7)]
    holder = Client(endpoint.path)
    holder.send(rpc.create_line(1, CONFIRM) + b'{"jsonrpc":"2.0","id":2,"method":"ping"}\n')
    wait(qtbot, [holder], lambda: holder.lines() == [{"jsonrpc": "2.0", "id": 2, "result": {}}])
    late = Client(endpoint.path)  # all 8 are taken
    wait(qtbot, [late], lambda: late.eof)
    assert late.lines() == [
        {
            "jsonrpc": "2.0",
            "id": None,
            "error": {
                "code": -32000,
                "message": "Server busy: too many connections (8)",
                "data": {"limit": 8, "scope": "connections"},
            },
        }
    ]
    # after the idle time the idle ones are closed without a message; the holder stays
    wait(qtbot, idle + [holder], lambda: all(c.eof for c in idle))
    assert [c.buf for c in idle] == [b""] * 7
    assert not holder.eof and endpoint.connection_count() == 1 and endpoint.handler.asked == 1
    again = Client(endpoint.path)
    again.send(b'{"jsonrpc":"2.0","id":"p","method":"ping"}\n')
    wait(qtbot, [again], lambda: again.lines() == [{"jsonrpc": "2.0", "id": "p", "result": {}}])


def test_the_connection_with_the_largest_unfinished_line_is_dropped_over_the_total(endpoint, qtbot):
    a, b, c = (Client(endpoint.path) for _ in range(3))
    a.send(b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"' + b"a" * 30_000)
    b.send(b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"' + b"b" * 20_000)
    wait(qtbot, [a, b], lambda: endpoint.dispatcher.unfinished_bytes() == 2 * 55 + 50_000)
    c.send(b"c" * 20_000)  # 70,110 bytes > 65,536: a holds the most
    wait(qtbot, [a, b, c], lambda: a.eof)
    assert a.lines() == [
        {
            "jsonrpc": "2.0",
            "id": None,
            "error": {
                "code": -32700,
                "message": "Parse error: unfinished input over the limit of 65536 bytes for all connections; "
                "connection closed",
                "data": {"limit": 65536, "scope": "unfinished-input"},
            },
        }
    ]
    assert endpoint.dispatcher.unfinished_bytes() == 55 + 20_000 + 20_000
    b.send(b'"}}\n')
    wait(qtbot, [b], lambda: b.buf.endswith(b"\n"))
    assert b.lines() == [{"jsonrpc": "2.0", "id": 1, "result": {}}] and not c.eof
    assert endpoint.dispatcher.unfinished_bytes() == 20_000
