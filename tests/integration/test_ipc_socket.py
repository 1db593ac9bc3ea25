"""The IPC contract over a real socket, against the tray app running as a real subprocess.

DESIGN.md "IPC contract": newline-delimited JSON-RPC 2.0 on a private Unix socket; framing
errors get -32700/-32600 and the connection stays usable; exactly one response per request
id; a cancelled or disconnected request gets nothing; shutdown answers -32603, never an
action. Also the single-instance rules of ``serve`` (exit codes 3 and 4) and ``ask``.

One tray app (module fixture) serves the tests that do not interfere; the scripted user
follows :data:`PLAN`. Every socket read is bounded by a timeout; nothing sleeps to
synchronise (the only polling is for process start and exit, with a deadline).
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from elicit_tray import __version__
from elicit_tray.ipc.jsonrpc import MAX_LINE_BYTES
from elicit_tray.paths import probe_socket
from tests.rpc import ANY_STR, error, pong

from .tray_process import Conn, TrayProcess, assert_still_serving, tray_env

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Unix sockets, SO_PEERCRED, signals")

#: What the scripted user does, by a substring of the request's message.
PLAN = [
    {"match": "submit-me", "steps": [{"do": "submit"}]},
    {"match": "decline-me", "steps": [{"do": "decline"}]},
    {"match": "hold-me", "steps": []},  # the dialog stays open until it expires
]
EMPTY_SCHEMA = {"type": "object", "properties": {}}
SUBMIT = {"message": "submit-me: proceed?", "requestedSchema": EMPTY_SCHEMA}
DECLINE = {"message": "decline-me: proceed?", "requestedSchema": EMPTY_SCHEMA}
HOLD = {"message": "hold-me: wait", "requestedSchema": EMPTY_SCHEMA}
NESTED_SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "address": {"type": "object", "properties": {"street": {"type": "string"}}},
    },
}
CLI_TIMEOUT_S = 30


@pytest.fixture(scope="module")
def workdir(module_scratch: Path) -> Path:
    """The shared tray app's socket, plan and stderr."""
    return module_scratch


@pytest.fixture(scope="module")
def tray(workdir: Path) -> Iterator[TrayProcess]:
    """The shared tray app; it must exit with 0 on SIGTERM."""
    proc = TrayProcess(workdir / "run" / "socket", PLAN, workdir=workdir)
    proc.start()
    try:
        yield proc
    finally:
        code = proc.stop()
        proc.kill()
    assert code == 0, proc.stderr


@pytest.fixture
def conn(tray: TrayProcess) -> Iterator[Conn]:
    with Conn(tray.sock) as c:
        yield c


# -- framing and envelopes -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected_id"),
    [
        (b"{not json\n", None),
        (b'{"jsonrpc": "2.0", "id": 9, "method": "ping", \n', 9),
        (b'{"jsonrpc": "2.0", "method": "ping", "params": {"id": 7}, \n', None),  # issue 11 §3: never a nested id
        (b'{"jsonrpc": "2.0", "params": {"id": 7}, "id": "own", \n', "own"),
    ],
    ids=["garbage", "truncated-with-readable-id", "nested-id-only", "own-id-after-a-nested-one"],
)
def test_a_line_that_is_not_json_gets_a_parse_error_and_the_connection_stays_usable(
    tray: TrayProcess, conn: Conn, line: bytes, expected_id: Any
) -> None:
    conn.send_raw(line)
    assert conn.recv() == error(expected_id, -32700)
    assert_still_serving(tray, conn)


@pytest.mark.parametrize(
    ("line", "expected_id"),
    [
        (b'{"jsonrpc": "2.0", "id": 3, "method": "ping", "params": {"x": "\xff\xfe"}}\n', 3),
        (b"\xc3\x28\xff\n", None),
    ],
    ids=["with-readable-id", "no-id"],
)
def test_invalid_utf8_gets_a_parse_error_and_the_connection_stays_usable(
    tray: TrayProcess, conn: Conn, line: bytes, expected_id: Any
) -> None:
    conn.send_raw(line)
    assert conn.recv() == error(expected_id, -32700)
    assert_still_serving(tray, conn)


def test_a_line_over_one_mebibyte_gets_a_parse_error_and_the_next_line_is_still_answered(
    tray: TrayProcess, conn: Conn
) -> None:
    head = b'{"jsonrpc": "2.0", "id": 7, "method": "ping", "params": {"padding": "'
    line = head + b"a" * MAX_LINE_BYTES + b'"}}\n'
    assert len(line) > MAX_LINE_BYTES + 1
    conn.send_raw(line + b'{"jsonrpc": "2.0", "id": 8, "method": "ping"}\n')
    assert conn.recv() == error(7, -32700)
    assert conn.recv() == pong(8)
    assert_still_serving(tray, conn)


def test_a_json_array_gets_invalid_request_with_a_null_id(tray: TrayProcess, conn: Conn) -> None:
    conn.send([{"jsonrpc": "2.0", "id": 1, "method": "ping"}])
    assert conn.recv() == error(None, -32600)
    assert_still_serving(tray, conn)


def test_a_request_without_jsonrpc_gets_invalid_request_with_its_id(tray: TrayProcess, conn: Conn) -> None:
    conn.send({"id": 4, "method": "ping"})
    assert conn.recv() == error(4, -32600)
    assert_still_serving(tray, conn)


def test_an_unknown_method_gets_method_not_found_with_its_id(tray: TrayProcess, conn: Conn) -> None:
    assert conn.call("req-5", "elicit-tray/nope", {}) == error("req-5", -32601)
    assert_still_serving(tray, conn)


def test_info_reports_the_version_the_modes_and_the_pid_of_the_tray_process(tray: TrayProcess, conn: Conn) -> None:
    assert conn.call(6, "elicit-tray/info") == {
        "jsonrpc": "2.0",
        "id": 6,
        "result": {"version": __version__, "modes": {"form": {}, "url": {}}, "pid": tray.pid},
    }
    assert_still_serving(tray, conn)


# -- invalid elicitation params ---------------------------------------------------------------------


def test_a_nested_object_schema_is_refused_with_one_violation_at_its_path(tray: TrayProcess, conn: Conn) -> None:
    reply = conn.call(10, "elicitation/create", {"message": "x", "requestedSchema": NESTED_SCHEMA})
    assert reply == error(
        10, -32602, data={"violations": [{"path": "/requestedSchema/properties/address", "message": ANY_STR}]}
    )
    assert_still_serving(tray, conn)


def test_an_unknown_mode_is_refused_at_the_mode_path(tray: TrayProcess, conn: Conn) -> None:
    reply = conn.call(11, "elicitation/create", {"mode": "sms", "message": "x", "requestedSchema": EMPTY_SCHEMA})
    assert reply == error(11, -32602, data={"violations": [{"path": "/mode", "message": ANY_STR}]})
    assert_still_serving(tray, conn)


def test_url_mode_without_a_url_is_refused_at_the_url_path(tray: TrayProcess, conn: Conn) -> None:
    reply = conn.call(12, "elicitation/create", {"mode": "url", "message": "x", "elicitationId": "e-1"})
    assert reply == error(12, -32602, data={"violations": [{"path": "/url", "message": ANY_STR}]})
    assert_still_serving(tray, conn)


# -- dialogs answered, expired, refused ---------------------------------------------------------------


def test_a_submitted_dialog_answers_accept_with_empty_content(tray: TrayProcess, conn: Conn) -> None:
    assert conn.call(20, "elicitation/create", SUBMIT) == {
        "jsonrpc": "2.0",
        "id": 20,
        "result": {"action": "accept", "content": {}},
    }
    assert_still_serving(tray, conn)


def test_a_declined_dialog_answers_decline_without_content(tray: TrayProcess, conn: Conn) -> None:
    assert conn.call(21, "elicitation/create", DECLINE) == {"jsonrpc": "2.0", "id": 21, "result": {"action": "decline"}}
    assert_still_serving(tray, conn)


def test_disconnecting_during_a_dialog_leaves_the_tray_answering_new_requests(tray: TrayProcess) -> None:
    with Conn(tray.sock) as leaving:
        leaving.request(1, "elicitation/create", HOLD)
        assert leaving.call(2, "ping") == pong(2)  # the request was read: its dialog is open
    with Conn(tray.sock) as fresh:
        assert fresh.call(1, "ping") == pong(1)
        assert fresh.call(2, "elicitation/create", SUBMIT) == {
            "jsonrpc": "2.0",
            "id": 2,
            "result": {"action": "accept", "content": {}},
        }
    assert_still_serving(tray)


def test_a_cancelled_request_never_gets_a_response(tray: TrayProcess, conn: Conn) -> None:
    conn.request(1, "elicitation/create", HOLD)
    conn.notify("notifications/cancelled", {"requestId": 1, "reason": "the test gave up"})
    assert conn.call(2, "ping") == pong(2)
    # A dialog that takes the arm delay to answer: still nothing for id 1 before its answer.
    assert conn.call(3, "elicitation/create", SUBMIT) == {
        "jsonrpc": "2.0",
        "id": 3,
        "result": {"action": "accept", "content": {}},
    }
    assert_still_serving(tray, conn)


def test_a_reused_id_while_pending_is_refused_and_the_first_request_stays_pending(
    tray: TrayProcess, conn: Conn
) -> None:
    conn.request(7, "elicitation/create", HOLD)
    assert conn.call(7, "elicitation/create", SUBMIT) == error(7, -32600)
    assert conn.call(7, "ping") == error(7, -32600)  # id 7 is still taken: the first is pending
    assert conn.call(8, "ping") == pong(8)
    assert_still_serving(tray, conn)


# -- the socket and the single instance -------------------------------------------------------------------


def test_the_socket_is_0600_and_its_directory_0700(tray: TrayProcess) -> None:
    info = os.lstat(tray.sock)
    assert stat.S_ISSOCK(info.st_mode)
    assert stat.S_IMODE(info.st_mode) == 0o600
    assert stat.S_IMODE(os.lstat(tray.sock.parent).st_mode) == 0o700


def test_a_second_serve_on_the_same_socket_exits_3_saying_already_running(tray: TrayProcess, workdir: Path) -> None:
    second = TrayProcess(tray.sock, PLAN, workdir=workdir).spawn()
    assert second.wait() == 3
    assert "already running" in second.stderr
    assert tray.proc is not None and tray.proc.poll() is None
    assert_still_serving(tray)


def test_a_stale_socket_left_by_a_killed_instance_is_recovered(scratch: Path) -> None:
    sock = scratch / "run" / "socket"
    first = TrayProcess(sock, PLAN, workdir=scratch).start()
    first.kill()
    assert sock.exists() and not probe_socket(sock)  # a stale socket file
    second = TrayProcess(sock, PLAN, workdir=scratch).start()
    try:
        assert_still_serving(second)
    finally:
        code = second.stop()
    assert code == 0, second.stderr


def test_a_socket_directory_writable_by_others_makes_serve_exit_4(scratch: Path) -> None:
    shared = scratch / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    refused = TrayProcess(shared / "socket", PLAN, workdir=scratch).spawn()
    assert refused.wait() == 4
    assert "refusing to start" in refused.stderr
    assert not (shared / "socket").exists()
    assert stat.S_IMODE(shared.stat().st_mode) == 0o777  # not "fixed" silently


def test_sigterm_while_a_dialog_is_open_answers_an_internal_error_and_exits_0(scratch: Path) -> None:
    proc = TrayProcess(scratch / "run" / "socket", PLAN, workdir=scratch).start()
    try:
        with Conn(proc.sock) as c:
            c.request(1, "elicitation/create", HOLD)
            assert c.call(2, "ping") == pong(2)  # the request was read: its dialog is open
            proc.terminate()
            assert c.recv() == error(1, -32603)
            assert c.read_line() is None  # nothing else (never an action): the connection ends
        assert proc.wait() == 0, proc.stderr
        assert not proc.sock.exists()
    finally:
        proc.kill()


# -- elicit-tray ask -------------------------------------------------------------------------------


def run_ask(sock: Path, params: Any, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "elicit_tray", "--socket", str(sock), "ask", *extra],
        input=json.dumps(params),
        capture_output=True,
        text=True,
        env=tray_env(),
        timeout=CLI_TIMEOUT_S,
        check=False,
    )


def test_ask_prints_the_elicit_result_of_params_on_stdin_and_exits_0(tray: TrayProcess) -> None:
    done = run_ask(tray.sock, SUBMIT, "--server-name", "test-server")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"action": "accept", "content": {}}


def test_ask_with_a_bad_schema_exits_1_with_the_error_json_on_stderr(tray: TrayProcess) -> None:
    done = run_ask(tray.sock, {"message": "x", "requestedSchema": NESTED_SCHEMA})
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""
    assert json.loads(done.stderr) == {
        "code": -32602,
        "message": ANY_STR,
        "data": {"violations": [{"path": "/requestedSchema/properties/address", "message": ANY_STR}]},
    }


def test_ask_with_no_start_and_no_tray_exits_5(scratch: Path) -> None:
    done = run_ask(scratch / "run" / "socket", SUBMIT, "--no-start")
    assert done.returncode == 5, done.stderr
    assert done.stdout == ""
    assert not (scratch / "run").exists()  # nothing was started


def test_connections_leave_no_descriptor_behind(tray: TrayProcess) -> None:
    def open_fds() -> int:
        return len(os.listdir(f"/proc/{tray.pid}/fd"))

    with Conn(tray.sock) as first:
        assert first.ping()["result"] == {}
        baseline = open_fds()  # with one connection open
    for _ in range(100):
        with Conn(tray.sock) as c:
            assert c.ping()["result"] == {}
    with Conn(tray.sock) as last:
        for _ in range(200):  # each ping round trip lets the app run its pending clean-ups
            assert last.ping()["result"] == {}
            if open_fds() <= baseline:
                break
        assert open_fds() <= baseline


def test_serve_timeout_answers_cancel_for_an_untouched_dialog(scratch: Path) -> None:
    proc = TrayProcess(scratch / "run" / "socket", None, workdir=scratch, extra_args=("--timeout", "1")).start()
    try:
        with Conn(proc.sock) as c:
            assert c.call(1, "elicitation/create", {"message": "wait", "requestedSchema": EMPTY_SCHEMA}) == {
                "jsonrpc": "2.0",
                "id": 1,
                "result": {"action": "cancel"},
            }
    finally:
        assert proc.stop() == 0


def test_a_socket_path_too_long_for_af_unix_makes_serve_exit_4_and_ask_exit_5_saying_what_to_do(scratch: Path) -> None:
    sock = scratch / ("d" * 110) / "socket"
    size = len(os.fsencode(str(sock)))
    advice = (
        f"the socket path {sock} is {size} bytes long; Unix sockets take at most 107. Set ELICIT_TRAY_SOCKET "
        "(or pass --socket) to a shorter path in a directory only you can use (mode 0700), for the tray app "
        "and its clients alike, or set XDG_RUNTIME_DIR to a short private directory"
    )
    refused = TrayProcess(sock, PLAN, workdir=scratch).spawn()
    assert refused.wait() == 4
    assert refused.stderr == f"elicit-tray: refusing to start: {advice}\n"
    assert not sock.parent.exists()
    done = run_ask(sock, SUBMIT)
    assert (done.returncode, done.stdout, done.stderr) == (
        5,
        "",
        f"elicit-tray ask: cannot use the elicit-tray socket: {advice}; nothing was sent\n",
    )
