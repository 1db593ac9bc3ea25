"""The real ``elicit-tray -v serve``: its files and its stderr cannot be turned against the user
(issue 11 §3, README "IPC contract").

A journal path that is a symbolic link to a ``.bashrc`` is never written (the app warns and runs
without a journal); an existing 0644 journal becomes 0600; with ``-v`` but without
``--log-values`` stderr shows no field value, and a newline in a cancel reason cannot start a
line of its own.
"""

from __future__ import annotations

import json
import re
import stat
import sys
from pathlib import Path

import pytest

from .tray_process import Conn, TrayProcess

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Unix sockets")

PLAN = [{"match": "submit-me", "steps": [{"do": "submit"}]}, {"match": "hold-me", "steps": []}]
SECRET = "open sesame 4711"
FORM = {
    "message": "submit-me: the phrase?",
    "requestedSchema": {"type": "object", "properties": {"phrase": {"type": "string", "default": SECRET}}},
    "_meta": {"elicit-tray/requester": {"serverName": "$(touch /tmp/pwned)\nsrv"}},
}
HOLD = {"message": "hold-me", "requestedSchema": {"type": "object", "properties": {}}}
FORGED = "2026-01-01 00:00:00,000 elicit_tray.app WARNING forged"
BASHRC = b"# .bashrc\nexport PS1='$ '\n"
WINDOW_LINE = re.compile(r"\[tray\] window \d+ (shown: \w+|round: \w+|gone)")
STAMPED = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} elicit_tray\.[\w.]+ (INFO|WARNING|ERROR|DEBUG) ")


class VerboseTray(TrayProcess):
    """``elicit-tray -v --socket SOCK serve ...``."""

    @property
    def argv(self) -> list[str]:
        argv = super().argv
        return [*argv[:3], "-v", *argv[3:]]


def exchange(tray: TrayProcess) -> None:
    with Conn(tray.sock) as conn:
        assert conn.call(1, "elicitation/create", FORM) == {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {"action": "accept", "content": {"phrase": SECRET}},
        }
        conn.send({"jsonrpc": "2.0", "id": 2, "method": "elicitation/create", "params": HOLD})
        assert conn.call(3, "ping") == {"jsonrpc": "2.0", "id": 3, "result": {}}
        conn.send(
            {
                "jsonrpc": "2.0",
                "method": "notifications/cancelled",
                "params": {"requestId": 2, "reason": f"bye\n{FORGED}\r\u2028x"},
            }
        )
        assert conn.call(4, "ping") == {"jsonrpc": "2.0", "id": 4, "result": {}}


def test_a_journal_symlink_to_bashrc_is_never_written_and_stderr_has_no_value_and_no_forged_line(scratch: Path) -> None:
    home = scratch / "home"
    home.mkdir(mode=0o700)
    bashrc = home / ".bashrc"
    bashrc.write_bytes(BASHRC)
    link = scratch / "tray.log.jsonl"
    link.symlink_to(bashrc)
    tray = VerboseTray(
        scratch / "run" / "socket",
        PLAN,
        workdir=scratch,
        extra_args=("--arm-delay-ms", "0"),
        env={"ELICIT_TRAY_LOG": str(link)},
    ).start()
    try:
        exchange(tray)
    finally:
        assert tray.stop() == 0, tray.stderr
    assert bashrc.read_bytes() == BASHRC
    err = tray.stderr
    lines = err.splitlines()
    assert any(
        line.endswith(
            f"elicit_tray.logs WARNING no request log: {link} is a symbolic link; the log is never written through one"
        )
        for line in lines
    ), err
    assert SECRET not in err and "sesame" not in err
    assert any(line.endswith(" -> Accepted(content=<1 field(s): phrase>)") for line in lines), err
    assert any(line.endswith("dialog r1 answered: accept") for line in lines), err  # the kind, never a value
    assert any(line.endswith(f"request 2 cancelled by the requester: bye\\n{FORGED}\\r\\u2028x") for line in lines), err
    for line in lines:  # a stamped record, the listening notice, a traceback line or the scripted user's window line
        assert STAMPED.match(line) or line.startswith(("elicit-tray ", "  | ")) or WINDOW_LINE.fullmatch(line), line
    assert not any(line.startswith(FORGED) for line in lines)


def test_an_existing_0644_journal_becomes_0600_and_gets_no_values(scratch: Path) -> None:
    journal = scratch / "tray.log.jsonl"
    journal.write_text('{"event": "old"}\n', encoding="utf-8")
    journal.chmod(0o644)
    tray = TrayProcess(
        scratch / "run" / "socket",
        PLAN,
        workdir=scratch,
        extra_args=("--arm-delay-ms", "0"),
        env={"ELICIT_TRAY_LOG": str(journal)},
    ).start()
    try:
        assert stat.S_IMODE(journal.stat().st_mode) == 0o600  # at start, before any request
        exchange(tray)
    finally:
        assert tray.stop() == 0, tray.stderr
    entries = [json.loads(x) for x in journal.read_text(encoding="utf-8").splitlines()]
    assert [e["event"] for e in entries[:2]] == ["old", "started"] and entries[-1]["event"] == "stopped"
    accepted = next(e for e in entries if e.get("id") == 1)
    assert (accepted["event"], accepted["outcome"], accepted["fields"], accepted["server"]) == (
        "elicitation",
        "accept",
        ["phrase"],
        "$(touch /tmp/pwned)\nsrv",
    )
    assert "content" not in accepted and "message" not in accepted
    assert SECRET not in journal.read_text(encoding="utf-8")
    assert journal.read_text(encoding="utf-8").count("\n") == len(entries)  # the server's newline is escaped
