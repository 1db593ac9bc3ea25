"""Hostile input to the author tools: ``elicit-tray check``, ``check-url`` and ``ask`` give the
answer the tray gives for the same bytes, in one line on stderr with exit status 2, and read
no more than the tray's line limit (plus one byte) of any input.

The tray's answer is taken from a real :class:`~elicit_tray.ipc.protocol.Dispatcher` fed the
same params in a request line built here (:func:`tray_error`), so the tools cannot drift from
it. Positions in a decoder message are in the author's file: they are compared with what
:mod:`json` says for the file alone.
"""

from __future__ import annotations

import io
import json
import os
import resource
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

import elicit_tray
from elicit_tray.cli import main as cli_main
from elicit_tray.ipc.protocol import Dispatcher, UiFunctions
from elicit_tray.request import Accepted, ElicitationRequest, Peer
from tests.conftest import REPO
from tests.fakes import FakeChannel

MIB = 1024 * 1024
EMPTY = {"type": "object", "properties": {}}
OK = '{"message": "Proceed?", "requestedSchema": {"type": "object", "properties": {}}}'
TOO_DEEP = "-32700: Parse error: JSON nested deeper than 64 levels"
TOO_LONG = "-32700: Parse error: message longer than 1048576 bytes"


def tray_error(params: bytes) -> dict[str, Any]:
    """The error object the dispatcher answers at once to ``elicitation/create`` with the bytes
    ``params`` (written by hand here, as a requester would send them)."""

    async def never(_request: ElicitationRequest) -> Accepted:  # pragma: no cover - never asked
        raise AssertionError("no dialog for hostile input")

    dispatcher, channel = Dispatcher(UiFunctions(never), version="t"), FakeChannel(Peer())
    dispatcher.connection_made(channel)
    dispatcher.data_received(
        channel, b'{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":' + params + b"}\n"
    )
    dispatcher.connection_lost(channel)
    (answer,) = channel.sent
    return dict(answer["error"])


def run(capsys: Any, monkeypatch: Any, *argv: str, stdin: bytes = b"") -> tuple[int, str, str]:
    """``elicit-tray *argv`` in this process: (exit status, stdout, stderr)."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    capsys.readouterr()
    code = cli_main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def nested(depth: int, kind: str = "array") -> str:
    """``depth`` arrays (or objects ``{"a": ...}``) inside one another."""
    if kind == "array":
        return "[" * depth + "]" * depth
    return '{"a":' * (depth - 1) + "{}" + "}" * (depth - 1)


def with_value(value: str) -> str:
    """Valid params with ``value`` as the extra member ``x`` (at level 3 of the tray's line)."""
    return '{"message": "m", "requestedSchema": {"type": "object", "properties": {}}, "x": ' + value + "}"


# -- check: nesting -----------------------------------------------------------------------------------

DEEP = {
    "3000 arrays": nested(3000),
    "3000 objects": nested(3000, "object"),
    "100,000 arrays, unclosed": "[" * 100_000,
    "63 levels inside params (65 in the line)": with_value(nested(63)),
    "63 objects inside params": with_value(nested(63, "object")),
    "3000 arrays inside params": with_value(nested(3000)),
}


@pytest.mark.parametrize("text", DEEP.values(), ids=DEEP.keys())
@pytest.mark.parametrize("command", ["check", "ask"])
def test_nesting_deeper_than_the_tray_reads_is_its_parse_error_in_one_line_with_exit_2(
    text: str, command: str, tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    path = tmp_path / "deep.json"
    path.write_text(text)
    assert tray_error(text.encode()) == {"code": -32700, "message": "Parse error: JSON nested deeper than 64 levels"}
    extra = ["--no-start"] if command == "ask" else []
    code, out, err = run(capsys, monkeypatch, "--socket", str(tmp_path / "s"), command, *extra, str(path))
    assert (code, out, err) == (2, "", f"elicit-tray {command}: {path}: the tray would answer JSON-RPC {TOO_DEEP}\n")


def test_the_deepest_params_the_tray_reads_are_checked_and_one_level_more_is_refused(
    tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    deepest = tmp_path / "deepest.json"
    deepest.write_text(with_value(nested(62)))  # line 1, params 2, x's arrays 3..64
    assert run(capsys, monkeypatch, "check", str(deepest)) == (
        0,
        "ok: the tray would show this dialog (0 error(s), 0 warning(s))\n",
        "",
    )
    # --schema: the schema is level 3; a default's arrays start at level 6
    schema = '{"type": "object", "properties": {"a": {"type": "string", "default": %s}}}'
    (tmp_path / "59.json").write_text(schema % nested(59))
    (tmp_path / "60.json").write_text(schema % nested(60))
    code, out, _err = run(capsys, monkeypatch, "check", "--schema", str(tmp_path / "59.json"))
    assert code == 0 and out.endswith("ok: the tray would show this dialog (0 error(s), 1 warning(s))\n")
    assert run(capsys, monkeypatch, "check", "--schema", str(tmp_path / "60.json")) == (
        2,
        "",
        f"elicit-tray check: {tmp_path / '60.json'}: the tray would answer JSON-RPC {TOO_DEEP}\n",
    )


# -- check: size, bytes and tokens ---------------------------------------------------------------------

TOKENS = {
    "NaN": (with_value("NaN"), "Parse error: NaN is not valid JSON"),
    "Infinity": (with_value("Infinity"), "Parse error: Infinity is not valid JSON"),
    "-Infinity": (with_value("[1, -Infinity]"), "Parse error: -Infinity is not valid JSON"),
    "1e400": (with_value("1e400"), "Parse error: number 1e400 is out of range"),
    "a 101-digit number": (with_value("1" * 101), "Parse error: number literal longer than 100 characters"),
    "invalid UTF-8": (b'{"message": "caf\xe9"}', "Parse error: invalid UTF-8 (invalid continuation byte)"),
    "a lone 0xff byte": (b'{"message": "\xff"}', "Parse error: invalid UTF-8 (invalid start byte)"),
    "a 2 MiB line": ('{"message": "' + "a" * (2 * MIB) + '"}', "Parse error: message longer than 1048576 bytes"),
    "1 MiB and 1 byte of spaces": (" " * (MIB + 1), "Parse error: message longer than 1048576 bytes"),
}


@pytest.mark.parametrize(("text", "message"), TOKENS.values(), ids=TOKENS.keys())
def test_what_the_tray_s_framing_refuses_is_its_answer_in_one_line_with_exit_2(
    text: str | bytes, message: str, tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    raw = text.encode() if isinstance(text, str) else text
    assert tray_error(raw) == {"code": -32700, "message": message}
    path = tmp_path / "params.json"
    path.write_bytes(raw)
    line = f"the tray would answer JSON-RPC -32700: {message}\n"
    assert run(capsys, monkeypatch, "check", str(path)) == (2, "", f"elicit-tray check: {path}: {line}")
    assert run(capsys, monkeypatch, "check", "--json", "-", stdin=raw) == (2, "", f"elicit-tray check: stdin: {line}")
    ask = run(capsys, monkeypatch, "--socket", str(tmp_path / "s"), "ask", "--no-start", "-", stdin=raw)
    assert ask == (2, "", f"elicit-tray ask: stdin: {line}")


def test_a_duplicate_key_is_the_tray_s_invalid_request_with_exit_2(capsys: Any, monkeypatch: Any) -> None:
    raw = b'{"message": "m", "requestedSchema": {"type": "object", "properties": {}, "type": "object"}}'
    assert tray_error(raw) == {"code": -32600, "message": 'Invalid Request: duplicate key "type"'}
    assert run(capsys, monkeypatch, "check", "-", stdin=raw) == (
        2,
        "",
        'elicit-tray check: stdin: the tray would answer JSON-RPC -32600: Invalid Request: duplicate key "type"\n',
    )


SYNTAX = {
    "a missing comma on line 3": '{\n  "message": "m"\n  "requestedSchema": {}\n}\n',
    "unclosed object": '{\n  "message": "m",\n  "requestedSchema": {"type": "object"\n',
    "unterminated string": '{"message": "m',
    "a raw line break inside a string": '{\n  "message": "two\nlines"\n}',
    "a raw tab inside a string": '{"message": "two\tcolumns"}',
    "CRLF line ends": '{\r\n  "message": "m"\r\n  "x": 1}',
    "single quotes": "{'message': 'm'}",
    "a trailing comma": '{"message": "m",}',
    "a syntax error before a NaN": '{"message": x, "n": NaN}',
    "empty": "",
    "only white space": " \n\t\r\n",
    "a NUL byte": '{"message": "m"}\x00',
    "a byte-order mark": '\ufeff{"message": "m"}',
    "two values": '{"message": "m"}\n{"message": "n"}\n',
    "a value and more members": '{"message": "m"}, "id": 2',
    "a value closing the frame": '{"message": "m"}}, "x": {',
}


@pytest.mark.parametrize("text", SYNTAX.values(), ids=SYNTAX.keys())
def test_text_that_is_not_one_json_value_is_a_parse_error_at_its_place_in_the_file(
    text: str, tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    with pytest.raises(json.JSONDecodeError) as alone:
        json.loads(text)
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    expected = f"elicit-tray check: {path}: the tray would answer JSON-RPC -32700: Parse error: {alone.value}\n"
    assert run(capsys, monkeypatch, "check", str(path)) == (2, "", expected)


def test_one_json_value_that_is_not_an_object_is_a_usage_error(tmp_path: Path, capsys: Any, monkeypatch: Any) -> None:
    assert run(capsys, monkeypatch, "check", "-", stdin=b"[1, 2]") == (
        2,
        "",
        "elicit-tray check: stdin: the params must be a JSON object\n",
    )
    assert run(capsys, monkeypatch, "check", "--schema", "-", stdin=b'"a schema"') == (
        2,
        "",
        "elicit-tray check: stdin: the schema must be a JSON object\n",
    )
    sock = str(tmp_path / "s")
    assert run(capsys, monkeypatch, "--socket", sock, "ask", "--no-start", "-", stdin=b"null") == (
        2,
        "",
        "elicit-tray ask: stdin: the params must be a JSON object\n",
    )
    # good params get past the reading: then --no-start finds no tray app (5)
    code, out, err = run(capsys, monkeypatch, "--socket", sock, "ask", "--no-start", "-", stdin=OK.encode())
    assert (code, out) == (5, "") and err.startswith("elicit-tray ask: ") and "\n" not in err[:-1]
    # so do params whose _meta --server-name cannot go into: the tray answers those (-32602)
    for meta in ('"x"', '{"elicit-tray/requester": []}'):
        odd = OK[:-1] + ', "_meta": ' + meta + "}"
        argv = ("--socket", sock, "ask", "--no-start", "--server-name", "s", "-")
        assert run(capsys, monkeypatch, *argv, stdin=odd.encode())[:2] == (5, "")
    for command in ("check", "ask"):
        assert run(capsys, monkeypatch, "--socket", sock, command, str(tmp_path)) == (
            2,
            "",
            f"elicit-tray {command}: cannot read {tmp_path}: Is a directory\n",
        )


# -- reading is bounded -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("command", "how"), [("check", "path"), ("check", "stdin"), ("ask", "path"), ("ask", "stdin")])
def test_dev_zero_is_read_no_further_than_the_line_limit(command: str, how: str, tmp_path: Path) -> None:
    """In a process of its own with 1 GiB of address space: reading /dev/zero to the end fails."""

    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1024 * MIB, 1024 * MIB))

    extra = ["--no-start"] if command == "ask" else []
    source = "-" if how == "stdin" else "/dev/zero"
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "ELICIT_TRAY_LOG": "off"}
    args = [sys.executable, "-m", "elicit_tray", "--socket", str(tmp_path / "s"), command, *extra, source]
    with open("/dev/zero", "rb") as zero:
        done = subprocess.run(
            args,
            stdin=zero if how == "stdin" else subprocess.DEVNULL,
            capture_output=True,
            text=True,
            env=env,
            preexec_fn=limit_memory,
            timeout=60,
            check=False,
        )
    name = "stdin" if how == "stdin" else "/dev/zero"
    assert (done.returncode, done.stdout, done.stderr) == (
        2,
        "",
        f"elicit-tray {command}: {name}: the tray would answer JSON-RPC {TOO_LONG}\n",
    )


@pytest.mark.parametrize("command", ["check", "ask"])
def test_a_fifo_that_never_ends_is_read_no_further_than_the_line_limit(
    command: str, tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    fifo = tmp_path / "endless"
    os.mkfifo(fifo)
    chunk, cap = b"[" * 65536, 64 * MIB  # the writer stops at cap: the test never hangs
    written = [0]

    def writer() -> None:
        fd = os.open(fifo, os.O_WRONLY)  # waits for the reader
        try:
            while written[0] < cap:
                written[0] += os.write(fd, chunk)
        except BrokenPipeError:
            pass  # the reader is done
        finally:
            os.close(fd)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    extra = ["--no-start"] if command == "ask" else []
    code, out, err = run(capsys, monkeypatch, "--socket", str(tmp_path / "s"), command, *extra, str(fifo))
    thread.join(timeout=60)
    assert not thread.is_alive()
    assert (code, out, err) == (2, "", f"elicit-tray {command}: {fifo}: the tray would answer JSON-RPC {TOO_LONG}\n")
    assert written[0] < 2 * MIB  # the line limit, the pipe's buffer and one chunk: not the 64 MiB


# -- check-url ---------------------------------------------------------------------------------------------


def tray_url_error(url: str) -> dict[str, Any]:
    raw = json.dumps({"mode": "url", "message": "m", "url": url, "elicitationId": "e"}).encode()
    error = tray_error(raw)
    del error["data"]
    return error


LONG = "Invalid params: /url: longer than 8192 characters"
NUL = "/url: contains a NUL character (U+0000)"
URLS = {
    "8193 characters": ("https://example.com/" + "a" * (8192 - 20 + 1), f"{LONG} (8193)"),
    "a 200,000-character host": ("https://" + "a." * 100_000 + "example.com/", f"{LONG} (200020)"),
    "a NUL": ("https://example.com/\x00", f"Invalid params: {NUL}"),
    "long with a NUL": ("https://example.com/\x00" + "a" * 9000, f"{LONG} (9021); {NUL}"),
    "1 MiB (no line could carry it)": ("https://example.com/" + "a" * MIB, f"{LONG} (1048596)"),
}


@pytest.mark.parametrize(("url", "message"), URLS.values(), ids=URLS.keys())
def test_check_url_answers_a_url_the_tray_refuses_unread_in_one_line_with_exit_2(
    url: str, message: str, capsys: Any, monkeypatch: Any
) -> None:
    if len(url) < MIB:  # what the dispatcher answers to a URL-mode request with it
        assert tray_url_error(url) == {"code": -32602, "message": message}
    expected = f"elicit-tray check-url: the tray would answer JSON-RPC -32602: {message}\n"
    assert run(capsys, monkeypatch, "check-url", url) == (2, "", expected)
    assert run(capsys, monkeypatch, "check-url", "--json", url) == (2, "", expected)


def test_check_url_at_the_url_limit_prints_its_analysis(capsys: Any, monkeypatch: Any) -> None:
    url = "https://example.com/" + "a" * (8192 - 20)
    assert len(url) == 8192
    code, out, err = run(capsys, monkeypatch, "check-url", "--json", url)
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "verdict": "ok",
        "reasons": [],
        "display_host": "example.com",
        "registrable_domain": "example.com",
    }
    assert run(capsys, monkeypatch, "check-url", "--json", url + "a")[0] == 2


# -- the API: a dict is checked as the line that would be sent ----------------------------------------------


def _deep_list(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth - 1):
        value = [value]
    return value


def test_check_of_a_dict_gives_the_tray_s_answer_for_the_line_a_requester_would_send() -> None:
    too_deep = {"code": -32700, "message": "Parse error: JSON nested deeper than 64 levels"}
    params: dict[str, Any] = {"message": "m", "requestedSchema": EMPTY}
    assert elicit_tray.check({**params, "x": _deep_list(62)}).to_json() == {"errors": [], "warnings": []}
    for deep in (_deep_list(63), _deep_list(3000)):
        report = elicit_tray.check({**params, "x": deep})
        assert (report.params, report.error) == (None, too_deep)
        assert report.to_json() == {"errors": [{"path": "", "message": too_deep["message"]}], "warnings": []}
    cycle: dict[str, Any] = {}
    cycle["again"] = cycle
    assert elicit_tray.check({**params, "x": cycle}).error == too_deep
    schema = {"type": "object", "properties": {"a": {"type": "string", "default": _deep_list(3000)}}}
    assert elicit_tray.check(schema, schema=True).error == too_deep
    for value, name in ((float("nan"), "NaN"), (float("inf"), "Infinity"), (float("-inf"), "-Infinity")):
        assert elicit_tray.check({**params, "x": value}).error == {
            "code": -32700,
            "message": f"Parse error: {name} is not valid JSON",
        }
    assert elicit_tray.check({**params, "x": "a" * (2 * MIB)}).error == {
        "code": -32700,
        "message": "Parse error: message longer than 1048576 bytes",
    }
    with pytest.raises(TypeError):
        elicit_tray.check({**params, "x": {1, 2}})


def test_check_of_text_never_raises_for_what_the_tray_refuses() -> None:
    for text in (nested(3000), "[" * 100_000, with_value("NaN"), "", "\x00"):
        report = elicit_tray.check(text)
        assert report.params is None and report.error is not None and report.error["code"] == -32700
    assert elicit_tray.check(b"x" * (5 * MIB)).error == {
        "code": -32700,
        "message": "Parse error: message longer than 1048576 bytes",
    }
