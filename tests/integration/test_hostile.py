"""Hostile or broken requesters against the real tray app over its socket: the exact answers.

README "IPC contract" (limits and their errors): over-limit requests, NUL bytes, huge numbers,
deep nesting, duplicate keys, a response sent to the tray, a reused id, pending limits, a
burst of connections, the connection limit, a requester that never reads; after each, the app
keeps serving. Also: a restarted tray serves new requests.

:class:`HostileTray` (a :class:`TrayProcess` with extra ``serve`` arguments and its log in the
work directory) is shared by the other hostile/soak/fuzz tests.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from elicit_tray.ipc.protocol import MAX_PENDING_PER_CONNECTION, MAX_PENDING_TOTAL
from elicit_tray.ipc.server import MAX_CONNECTIONS, MAX_CONNECTIONS_PER_PEER
from elicit_tray.limits import MAX_MESSAGE_CHARS, MAX_OPTIONS, MAX_PROPERTIES, MAX_TEXT_CHARS
from tests.rpc import ANY_STR, error, pong

from .tray_process import START_TIMEOUT_S, Conn, TrayProcess, assert_still_serving, tray_env

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Unix sockets, /proc, signals")

PLAN = [
    {"match": "submit-me", "steps": [{"do": "submit"}]},
    {"match": "hold-me", "steps": []},
]
EMPTY = {"type": "object", "properties": {}}
SUBMIT = {"message": "submit-me: proceed?", "requestedSchema": EMPTY}
HOLD = {"message": "hold-me: wait", "requestedSchema": EMPTY}
#: Read timeout (s) for an answer that comes after an expired dialog on screen: the scripted user
#: goes to dialogs one at a time and leaves an expired one only when it closes (EXPIRED_CLOSE_MS).
AFTER_EXPIRY_S = 30


class HostileTray(TrayProcess):
    """``elicit-tray serve`` with extra arguments; its request log is ``workdir/tray.log.jsonl``."""

    def __init__(
        self,
        sock: Path,
        plan: list[dict[str, Any]] | None,
        *,
        workdir: Path,
        extra: tuple[str, ...] = ("--arm-delay-ms", "0"),
        env: dict[str, str] | None = None,
        prefix: tuple[str, ...] = (),
    ):
        super().__init__(sock, plan, workdir=workdir)
        self.extra = extra
        self.prefix = prefix
        self.log_path = self.workdir / f"tray-{id(self)}.log.jsonl"
        self.env = dict(tray_env(), ELICIT_TRAY_LOG=str(self.log_path), **(env or {}))

    @property
    def argv(self) -> list[str]:
        return [*self.prefix, *super().argv, *self.extra]

    def spawn(self) -> HostileTray:
        with open(self.stderr_path, "wb") as err:
            self.proc = subprocess.Popen(
                self.argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, env=self.env
            )
        return self

    def log_lines(self) -> list[dict[str, Any]]:
        """Every line of the request log, oldest first: the rotated files (``.N`` ... ``.1``)
        before the current one."""
        from elicit_tray.logs import LOG_BACKUPS

        lines: list[dict[str, Any]] = []
        for path in [Path(f"{self.log_path}.{n}") for n in range(LOG_BACKUPS, 0, -1)] + [self.log_path]:
            try:
                text = path.read_text(encoding="utf-8")
            except FileNotFoundError:
                continue
            lines += [json.loads(x) for x in text.splitlines()]
        return lines

    def open_fds(self) -> int:
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def rss_kib(self) -> int:
        for row in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if row.startswith("VmRSS:"):
                return int(row.split()[1])
        raise AssertionError("no VmRSS")


_PEER_SCRIPT = r"""
import socket, sys
ctrl = socket.socket(fileno=int(sys.argv[1]))
while ctrl.recv(1):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(sys.argv[2])
    except OSError:
        ctrl.sendall(b"E")
    else:
        socket.send_fds(ctrl, [b"C"], [s.fileno()])
    s.close()
"""


class PeerProcess:
    """Another requester process: connections it makes (its pid is the peer the tray sees) are
    handed to the test as :class:`Conn` objects (``SCM_RIGHTS``). The tray limits connections
    and abandoned requests per process (README limits table), so tests that act as many
    requesters spread their connections over several of these."""

    def __init__(self, sock: Path):
        self.sock = Path(sock)
        self._ctrl, theirs = socket.socketpair()
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _PEER_SCRIPT, str(theirs.fileno()), str(self.sock)],
            pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL,
        )
        theirs.close()
        self._lock = threading.Lock()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def connect(self, timeout_s: float = 10.0) -> Conn:
        with self._lock:
            self._ctrl.sendall(b"c")
            msg, fds, _flags, _addr = socket.recv_fds(self._ctrl, 1, 1)
        if msg != b"C" or not fds:
            raise ConnectionError(f"peer {self.pid} could not connect to {self.sock}")
        sock = socket.socket(fileno=fds[0])
        sock.settimeout(timeout_s)
        conn = Conn.__new__(Conn)
        conn.sock, conn._buf, conn._ids = sock, bytearray(), iter(range(1000, 10**9))
        return conn

    def close(self) -> None:
        self._ctrl.close()
        self.proc.wait(timeout=10)

    def __enter__(self) -> PeerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def peers(sock: Path, count: int) -> list[PeerProcess]:
    """``count`` requester processes for ``sock``."""
    return [PeerProcess(sock) for _ in range(count)]


def violations(*pairs: tuple[str, str]) -> dict[str, Any]:
    return {"violations": [{"path": p, "message": m} for p, m in pairs]}


@pytest.fixture(scope="module")
def tray(module_scratch: Path) -> Iterator[HostileTray]:
    proc = HostileTray(module_scratch / "run" / "socket", PLAN, workdir=module_scratch).start()
    try:
        yield proc
    finally:
        code = proc.stop()
        assert code == 0, proc.stderr


@pytest.fixture()
def conn(tray: HostileTray) -> Iterator[Conn]:
    with Conn(tray.sock) as c:
        yield c


# -- limits on what a request may ask to show --------------------------------------------------------


def _schema(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        (
            {"message": "x" * (MAX_MESSAGE_CHARS + 1), "requestedSchema": EMPTY},
            [("/message", "longer than 10000 characters (10001)")],
        ),
        (
            {
                "message": "m",
                "requestedSchema": _schema(**{f"f{i}": {"type": "boolean"} for i in range(MAX_PROPERTIES + 1)}),
            },
            [("/requestedSchema/properties", f"more than {MAX_PROPERTIES} properties ({MAX_PROPERTIES + 1})")],
        ),
        (
            {"message": "m", "requestedSchema": _schema(a={"type": "string", "title": "t" * (MAX_TEXT_CHARS + 1)})},
            [("/requestedSchema/properties/a/title", "longer than 1000 characters (1001)")],
        ),
        (
            {
                "message": "m",
                "requestedSchema": _schema(a={"type": "string", "description": "d" * (MAX_TEXT_CHARS + 1)}),
            },
            [("/requestedSchema/properties/a/description", "longer than 1000 characters (1001)")],
        ),
        (
            {
                "message": "m",
                "requestedSchema": _schema(a={"type": "string", "enum": [str(i) for i in range(MAX_OPTIONS + 1)]}),
            },
            [("/requestedSchema/properties/a/enum", "more than 200 options (201)")],
        ),
        (
            {"message": "hold-me \x00 NUL", "requestedSchema": EMPTY},
            [("/message", "contains a NUL character (U+0000)")],
        ),
    ],
    ids=["message", "properties", "title", "description", "options", "nul"],
)
def test_a_request_over_a_limit_gets_invalid_params_with_the_violation(
    tray: HostileTray, conn: Conn, params: dict[str, Any], expected: list[tuple[str, str]]
) -> None:
    assert conn.call(30, "elicitation/create", params) == error(30, -32602, ANY_STR, violations(*expected))
    assert_still_serving(tray, conn)


# -- framing-level hostility ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (
            b'{"jsonrpc":"2.0","id":40,"method":"ping","params":{"n":1e400}}\n',
            error(40, -32700, "Parse error: number 1e400 is out of range"),
        ),
        (
            b'{"jsonrpc":"2.0","id":41,"method":"ping","params":{"n":' + b"1" * 5000 + b"}}\n",
            error(41, -32700, "Parse error: number literal longer than 100 characters"),
        ),
        (
            b'{"jsonrpc":"2.0","id":42,"method":"ping","params":{"a":' + b"[" * 100 + b"]" * 100 + b"}}\n",
            error(42, -32700, "Parse error: JSON nested deeper than 64 levels"),
        ),
        (
            b'{"jsonrpc":"2.0","id":43,"method":"ping","params":{"a":' + b"[" * 500_000 + b"]" * 500_000 + b"}}\n",
            error(43, -32700, "Parse error: JSON nested deeper than 64 levels"),
        ),
        (
            b'{"jsonrpc":"2.0","id":44,"method":"ping","params":{"a":1,"a":2}}\n',
            error(44, -32600, 'Invalid Request: duplicate key "a"'),
        ),
        (
            b'{"jsonrpc":"2.0","id":45,"id":46,"method":"ping"}\n',
            error(None, -32600, 'Invalid Request: duplicate key "id"'),
        ),
        (
            b'{"jsonrpc":"2.0","id":47,"method":"pi\x00ng"}\n',
            error(47, -32700, "Parse error: Invalid control character at: line 1 column 38 (char 37)"),
        ),
        (b"\x00\x00\x00\x00\n", error(None, -32700, ANY_STR)),
        (
            b'{"jsonrpc":"2.0","id":48,"method":"elicit\\u0000-tray/info"}\n',
            error(48, -32601, "Method not found: elicit\x00-tray/info"),
        ),
    ],
    ids=[
        "huge-float",
        "huge-integer",
        "nested-100",
        "nested-500000",
        "duplicate-key",
        "duplicate-id",
        "raw-nul",
        "only-nuls",
        "escaped-nul-method",
    ],
)
def test_hostile_framing_gets_its_defined_error_and_the_connection_stays_usable(
    tray: HostileTray, conn: Conn, raw: bytes, expected: dict[str, Any]
) -> None:
    conn.send_raw(raw)
    assert conn.recv() == expected
    assert_still_serving(tray, conn)


def test_a_response_sent_to_the_tray_is_ignored_and_logged(tray: HostileTray, conn: Conn) -> None:
    conn.send_raw(
        b'{"jsonrpc":"2.0","id":"resp-1","result":{"action":"accept"}}\n'
        b'{"jsonrpc":"2.0","id":"resp-2","error":{"code":-32603,"message":"x"}}\n'
    )
    assert conn.call(50, "ping") == pong(50)  # the very next line is the ping's answer
    ignored = [e["id"] for e in tray.log_lines() if e["event"] == "ignored-response"]
    assert ignored[-2:] == ["resp-1", "resp-2"]


def test_an_id_reused_while_pending_is_refused_and_is_free_again_once_cancelled(tray: HostileTray, conn: Conn) -> None:
    conn.request("dup", "elicitation/create", HOLD)
    assert conn.call("dup", "elicitation/create", SUBMIT) == error(
        "dup", -32600, "Invalid Request: id 'dup' is already pending"
    )
    conn.notify("notifications/cancelled", {"requestId": "dup"})
    assert conn.call("dup", "elicitation/create", SUBMIT) == {
        "jsonrpc": "2.0",
        "id": "dup",
        "result": {"action": "accept", "content": {}},
    }


# -- rate limits --------------------------------------------------------------------------------


def test_the_17th_pending_request_on_a_connection_gets_server_busy(tray: HostileTray, conn: Conn) -> None:
    for i in range(MAX_PENDING_PER_CONNECTION):
        conn.request(i, "elicitation/create", HOLD)
    assert conn.call("one-more", "elicitation/create", HOLD) == error(
        "one-more",
        -32000,
        "Server busy: too many pending requests (16 on this connection)",
        {"limit": 16, "scope": "connection"},
    )
    conn.notify("notifications/cancelled", {"requestId": 0})
    conn.request("now", "elicitation/create", SUBMIT)
    assert conn.ping()["result"] == {}  # taken: it waits for a window behind the held ones
    for i in range(1, MAX_PENDING_PER_CONNECTION):  # the held ones go; those never shown need no window
        conn.notify("notifications/cancelled", {"requestId": i})
    conn.sock.settimeout(AFTER_EXPIRY_S)
    assert conn.recv() == {"jsonrpc": "2.0", "id": "now", "result": {"action": "accept", "content": {}}}
    assert_still_serving(tray, conn)


def test_the_65th_pending_request_in_total_gets_server_busy(tray: HostileTray) -> None:
    # one process per holder: one process alone may hold only half the total (its fair share)
    processes = peers(tray.sock, MAX_PENDING_TOTAL // MAX_PENDING_PER_CONNECTION)
    holders = [p.connect() for p in processes]
    try:
        for c in holders:
            for i in range(MAX_PENDING_PER_CONNECTION):
                c.request(i, "elicitation/create", HOLD)
            assert c.ping()["result"] == {}  # every request was read
        with Conn(tray.sock) as late:
            assert late.call(1, "elicitation/create", SUBMIT) == error(
                1, -32000, "Server busy: too many pending requests (64 in total)", {"limit": 64, "scope": "total"}
            )
            holders.pop().close()  # 16 dialogs expire
            deadline = time.monotonic() + 10
            while True:  # taken once the app has seen the close: then the ping is answered first
                late.request(2, "elicitation/create", SUBMIT)
                late.request("p", "ping")
                reply = late.recv()
                if reply == pong("p"):
                    break
                assert reply["error"]["data"] == {"limit": 64, "scope": "total"}, reply
                assert late.recv() == pong("p") and time.monotonic() < deadline
            for c in holders:  # the holders give up politely; request 2 gets its window
                for i in range(MAX_PENDING_PER_CONNECTION):
                    c.notify("notifications/cancelled", {"requestId": i})
            late.sock.settimeout(AFTER_EXPIRY_S)
            assert late.recv() == {"jsonrpc": "2.0", "id": 2, "result": {"action": "accept", "content": {}}}
    finally:
        for c in holders:
            c.close()
        for p in processes:
            p.close()
    assert_still_serving(tray)


def _until_pong(conn: Conn, ping_id: str) -> list[dict[str, Any]]:
    """Ping on ``conn`` and return what came before the pong (answers given at once)."""
    conn.request(ping_id, "ping")
    before = []
    while (reply := conn.recv()) != pong(ping_id):
        before.append(reply)
    return before


def test_one_process_with_four_full_connections_gets_its_share_and_another_still_gets_a_dialog(
    tray: HostileTray,
) -> None:
    share = MAX_PENDING_TOTAL // 2
    with PeerProcess(tray.sock) as hog:
        held = [hog.connect() for _ in range(MAX_PENDING_TOTAL // MAX_PENDING_PER_CONNECTION)]
        try:
            refused = []
            for c in held:
                for i in range(MAX_PENDING_PER_CONNECTION):
                    c.request(i, "elicitation/create", HOLD)
                refused.append(_until_pong(c, "p"))
            over = [
                error(
                    i,
                    -32000,
                    f"Server busy: too many pending requests ({share} from this process)",
                    {"limit": share, "scope": "process"},
                )
                for i in range(MAX_PENDING_PER_CONNECTION)
            ]
            assert refused == [[], [], over, over]
            with Conn(tray.sock, timeout_s=AFTER_EXPIRY_S) as other:  # another process is served
                other.request(1, "elicitation/create", SUBMIT)
                assert _until_pong(other, "p") == []  # taken: a refusal would come before the pong
                for i in range(MAX_PENDING_PER_CONNECTION):  # the hog withdraws one connection's requests
                    held[0].notify("notifications/cancelled", {"requestId": i})
                held[2].request("again", "elicitation/create", HOLD)
                assert _until_pong(held[2], "p2") == []  # its share has room again
                for i in range(MAX_PENDING_PER_CONNECTION):
                    held[1].notify("notifications/cancelled", {"requestId": i})
                held[2].notify("notifications/cancelled", {"requestId": "again"})
                assert other.recv() == {"jsonrpc": "2.0", "id": 1, "result": {"action": "accept", "content": {}}}
        finally:
            for c in held:
                c.close()
    busy = [e for e in tray.log_lines() if e.get("scope") == "process"]
    assert len(busy) == 2 * MAX_PENDING_PER_CONNECTION and all(e["pid"] == hog.pid for e in busy)
    assert_still_serving(tray)


# -- connections ----------------------------------------------------------------------------------


def test_a_burst_of_200_connections_at_once_is_served(tray: HostileTray) -> None:
    barrier = threading.Barrier(200)
    results: list[Any] = [None] * 200
    processes = peers(tray.sock, 8)  # 25 connections each, under the per-process limit

    def client(i: int) -> None:
        try:
            barrier.wait(timeout=20)
            with processes[i % 8].connect(timeout_s=20) as c:
                results[i] = c.call(i, "ping")
        except Exception as exc:  # noqa: BLE001 - reported below
            results[i] = repr(exc)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(200)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
    finally:
        for p in processes:
            p.close()
    assert results == [pong(i) for i in range(200)]
    assert_still_serving(tray)


def test_one_connection_over_the_limit_gets_server_busy_and_is_closed(tray: HostileTray) -> None:
    held: list[Conn] = []
    processes = peers(tray.sock, MAX_CONNECTIONS // MAX_CONNECTIONS_PER_PEER)
    try:
        for p in processes:
            for _ in range(MAX_CONNECTIONS_PER_PEER):
                held.append(p.connect())
        assert held[-1].ping()["result"] == {}  # the app has accepted all of them
        with Conn(tray.sock) as extra:
            assert extra.recv() == error(
                None,
                -32000,
                f"Server busy: too many connections ({MAX_CONNECTIONS})",
                {"limit": MAX_CONNECTIONS, "scope": "connections"},
            )
            assert extra.read_line() is None
        held.pop().close()
        assert _ping_once_a_slot_is_free(tray) == pong(1)
    finally:
        for c in held:
            c.close()
        for p in processes:
            p.close()
    _ping_once_a_slot_is_free(tray)  # the app notices the closed connections shortly
    assert_still_serving(tray)


def test_one_process_gets_at_most_32_connections_and_others_still_get_in(tray: HostileTray) -> None:
    with PeerProcess(tray.sock) as greedy:
        held = [greedy.connect() for _ in range(MAX_CONNECTIONS_PER_PEER)]
        try:
            assert held[-1].ping()["result"] == {}  # the app has accepted all of them
            extra = greedy.connect()
            assert extra.recv() == error(
                None,
                -32000,
                f"Server busy: too many connections ({MAX_CONNECTIONS_PER_PEER} from one process)",
                {"limit": MAX_CONNECTIONS_PER_PEER, "scope": "peer"},
            )
            assert extra.read_line() is None
            extra.close()
            with Conn(tray.sock, timeout_s=AFTER_EXPIRY_S) as other:  # another process is served, dialogs too
                assert other.call(1, "elicitation/create", SUBMIT) == {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "result": {"action": "accept", "content": {}},
                }
            held.pop().close()
            deadline = time.monotonic() + 10
            while True:  # its slot comes back once the app has seen the close
                try:
                    with greedy.connect() as again:
                        reply = again.call(1, "ping")
                except OSError:  # refused and closed before the ping was written
                    reply = None
                if reply == pong(1) or time.monotonic() > deadline:
                    break
            assert reply == pong(1)
        finally:
            for c in held:
                c.close()
    assert_still_serving(tray)


def test_a_process_that_keeps_abandoning_requests_is_refused_and_others_are_not(tray: HostileTray) -> None:
    from elicit_tray.ipc.protocol import MAX_ABANDONED_PER_PEER

    with PeerProcess(tray.sock) as flooder:
        cycles = 0
        for cycles in range(1, 64):  # noqa: B007 (read after the loop) connect, send 16, disconnect, until refused
            with flooder.connect() as c:
                for i in range(16):
                    c.request(i, "elicitation/create", HOLD)
                c.request("p", "ping")
                reply = c.recv()
                if reply.get("id") == 0:
                    break
                assert reply == pong("p")  # every request was read: all 16 pending
        assert reply == error(
            0,
            -32000,
            "Server busy: too many abandoned requests (32 in 60 s from this process)",
            {"limit": MAX_ABANDONED_PER_PEER, "scope": "abandoning"},
        )
        assert cycles >= MAX_ABANDONED_PER_PEER // 16 + 1
        with flooder.connect() as c:  # ping is always answered; every further request is refused at once
            assert c.call("p", "ping") == pong("p")
            assert c.call(7, "elicitation/create", SUBMIT)["error"]["data"] == {
                "limit": MAX_ABANDONED_PER_PEER,
                "scope": "abandoning",
            }
        with Conn(tray.sock, timeout_s=AFTER_EXPIRY_S) as other:  # another process is served, dialogs too
            assert other.call(1, "elicitation/create", SUBMIT) == {
                "jsonrpc": "2.0",
                "id": 1,
                "result": {"action": "accept", "content": {}},
            }
    busy = [e for e in tray.log_lines() if e.get("scope") == "abandoning"]
    assert busy and all(e["pid"] == flooder.pid for e in busy)


def _ping_once_a_slot_is_free(tray: HostileTray, timeout_s: float = 10) -> dict[str, Any]:
    """The reply to a ping on a new connection, retried (bounded) while the app is still busy."""
    deadline = time.monotonic() + timeout_s
    while True:
        with Conn(tray.sock) as again:
            reply = again.call(1, "ping")
        if reply == pong(1) or time.monotonic() > deadline:
            return reply


def test_a_requester_that_never_reads_its_answers_is_disconnected(tray: HostileTray) -> None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(20)
    sock.connect(str(tray.sock))
    ping = b'{"jsonrpc":"2.0","id":123456789,"method":"ping"}\n' * 1000
    closed = False
    deadline = time.monotonic() + 30
    try:
        while time.monotonic() < deadline:  # about 6 MiB of answers are never read
            sock.sendall(ping)
            if any(e.get("reason") == "unread-answers" for e in tray.log_lines()[-5:]):
                closed = True
                break
    except (BrokenPipeError, ConnectionResetError):
        closed = True
    finally:
        sock.close()
    assert closed
    assert_still_serving(tray)


def test_a_restarted_tray_serves_new_requests(scratch: Path) -> None:
    sock = scratch / "restart" / "socket"
    first = HostileTray(sock, PLAN, workdir=scratch).start()
    with Conn(sock) as c:
        c.request(1, "elicitation/create", HOLD)
        assert c.ping()["result"] == {}
        first.kill()  # no orderly shutdown at all
        assert c.read_line() is None  # the requester sees the end at once, not a hang
    second = HostileTray(sock, PLAN, workdir=scratch).start()
    try:
        with Conn(sock) as c:
            assert c.call(1, "elicitation/create", SUBMIT) == {
                "jsonrpc": "2.0",
                "id": 1,
                "result": {"action": "accept", "content": {}},
            }
    finally:
        assert second.stop() == 0, second.stderr
    assert second.wait(START_TIMEOUT_S) == 0
