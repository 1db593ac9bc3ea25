"""Nothing goes out on the network before consent (and, with ``--no-browser``, not after it either).

The tray app runs with a ``sitecustomize`` on ``PYTHONPATH`` whose audit hook records and
refuses every non-``AF_UNIX`` ``connect``/``sendto`` and every name lookup made from Python,
and, where ``strace`` works, under ``strace -f`` recording every ``connect``/``sendto``/
``sendmsg`` system call of every thread and child (Qt's own C++ included). Form and URL
requests are answered through to Accept/Open. Then: no recorded attempt, no ``AF_INET``/
``AF_INET6`` system call, and no inet socket among the process's open descriptors.

The request log is checked on the same run: outcomes and timings, but no field value, no
query string; with ``--log-values`` the values are there.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .test_hostile import HostileTray
from .tray_process import Conn

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc, Unix sockets")

SITECUSTOMIZE = r"""
import os, socket, sys

_RECORD = os.environ["ELICIT_TRAY_NET_RECORD"]
_LOOKUPS = {"socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyname_ex", "socket.gethostbyaddr",
            "socket.getnameinfo"}


def _record(what):
    with open(_RECORD, "a", encoding="utf-8") as f:
        f.write(what + "\n")


def _hook(event, args):
    if event in ("socket.connect", "socket.sendto", "socket.sendmsg"):
        sock = args[0]
        if getattr(sock, "family", None) != socket.AF_UNIX:
            _record(f"{event} {args[1:]!r}")
            raise PermissionError(f"network access before consent: {event}")
    elif event in _LOOKUPS or event.startswith("urllib.") or event == "http.client.connect":
        _record(f"{event} {args!r}")
        raise PermissionError(f"network access before consent: {event}")


sys.addaudithook(_hook)
"""

PLAN = [
    {
        "match": "form-me",
        "steps": [
            {"do": "type", "field": "name", "text": "Ada Secret"},
            {"do": "type", "field": "site", "text": "https://typed.example.net/x?y=1"},
            {"do": "submit"},
        ],
    },
    {"match": "url-me", "steps": [{"do": "open"}]},
    {"match": "decline-me", "steps": [{"do": "decline"}]},
]
FORM = {
    "message": "form-me: your details",
    "requestedSchema": {
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": "Name"},
            "email": {"type": "string", "format": "email", "default": "ada@mail.example.org"},
            "site": {"type": "string", "format": "uri", "description": "see https://docs.example.com/help"},
            "home": {"type": "string", "format": "uri", "default": "https://home.example.org/"},
        },
    },
}
URLS = [
    "https://accounts.example.com/connect?token=tok-123&state=s",
    "https://xn--pypal-4ve.com/login?next=/",
    "http://localhost:8765/callback?code=c0de",
    "https://user:pass@example.org:8443/p#frag",
]


def url_request(url: str, n: int, verb: str = "url-me") -> dict[str, Any]:
    return {"mode": "url", "message": f"{verb}: connect {n}", "url": url, "elicitationId": f"e-{n}"}


def _strace_works() -> bool:
    exe = shutil.which("strace")
    if exe is None:
        return False
    try:
        done = subprocess.run(
            [exe, "-f", "-qq", "-e", "trace=connect", "-o", os.devnull, "true"],
            capture_output=True,
            timeout=20,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def inet_sockets(pid: int) -> list[str]:
    """The inet sockets among ``pid``'s open descriptors (``/proc/net/*`` rows by inode)."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        match = re.fullmatch(r"socket:\[(\d+)\]", target)
        if match:
            inodes.add(match.group(1))
    found = []
    for table in ("tcp", "tcp6", "udp", "udp6", "raw", "raw6"):
        try:
            rows = Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            cols = row.split()
            if len(cols) > 9 and cols[9] in inodes:
                found.append(f"{table}: {row.strip()}")
    return found


def run_everything(tray: HostileTray) -> tuple[int, list[dict[str, Any]]]:
    """Answer a form and four URL requests (Open) and one declined; returns (app pid, replies)."""
    replies = []
    with Conn(tray.sock, timeout_s=30) as c:
        pid = c.call("info", "elicit-tray/info")["result"]["pid"]
        replies.append(c.call(1, "elicitation/create", FORM))
        for n, url in enumerate(URLS, start=2):
            replies.append(c.call(n, "elicitation/create", url_request(url, n)))
        replies.append(c.call(9, "elicitation/create", url_request(URLS[0], 9, "decline-me")))
        assert inet_sockets(pid) == []
    return pid, replies


def test_no_outbound_connection_from_the_app_through_form_and_url_consent(scratch: Path) -> None:
    site = scratch / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    record = scratch / "net-attempts.txt"
    record.write_text("", encoding="utf-8")
    trace = scratch / "strace.txt"
    use_strace = _strace_works()
    prefix = ("strace", "-f", "-qq", "-e", "trace=connect,sendto,sendmsg", "-o", str(trace)) if use_strace else ()
    env = {
        "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
        "ELICIT_TRAY_NET_RECORD": str(record),
    }
    sock = scratch / "run" / "socket"
    sock.parent.mkdir(mode=0o700)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as stale:  # a stale socket: the app probes it
        stale.bind(str(sock))  # with connect(AF_UNIX), which shows that the trace sees connect calls
    tray = HostileTray(sock, PLAN, workdir=scratch, env=env, prefix=prefix).start()
    try:
        pid, replies = run_everything(tray)
        os.kill(pid, 15)  # the app itself (under strace, tray.pid is strace's)
        assert tray.wait() == 0, tray.stderr
    finally:
        tray.kill()
    assert replies[0] == {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {
            "action": "accept",
            "content": {
                "name": "Ada Secret",
                "email": "ada@mail.example.org",
                "site": "https://typed.example.net/x?y=1",
                "home": "https://home.example.org/",
            },
        },
    }
    assert replies[1] == {"jsonrpc": "2.0", "id": 2, "result": {"action": "accept"}}
    assert all(r["id"] == n and "result" in r for n, r in enumerate(replies[2:5], start=3))
    assert replies[5] == {"jsonrpc": "2.0", "id": 9, "result": {"action": "decline"}}
    assert "the browser would open: https://accounts.example.com/connect?token=tok-123&state=s" in tray.stderr
    assert record.read_text(encoding="utf-8") == ""  # the audit hook saw no attempt at all
    if use_strace:
        calls = trace.read_text(encoding="utf-8", errors="replace")
        assert "connect(" in calls and str(sock) in calls  # the trace works: it saw the probe of the stale socket
        assert [row for row in calls.splitlines() if "AF_INET" in row] == []
    # The request log of that run: no field value, no query string, no user info.
    log = tray.log_lines()
    kinds = [(e["id"], e["mode"], e["outcome"]) for e in log if e["event"] == "elicitation"]
    assert kinds == [
        (1, "form", "accept"),
        (2, "url", "accept"),
        (3, "url", kinds[2][2]),
        (4, "url", "accept"),
        (5, "url", "accept"),
        (9, "url", "decline"),
    ]
    form_line = next(e for e in log if e.get("id") == 1)
    assert form_line["fields"] == ["email", "home", "name", "site"] and "content" not in form_line
    assert form_line["pid"] > 0 and form_line["process"] and isinstance(form_line["ms"], float)
    assert [e["url"] for e in log if e.get("mode") == "url"] == [
        "https://accounts.example.com/connect?…",
        "https://xn--pypal-4ve.com/login?…",
        "http://localhost:8765/callback?…",
        "https://example.org:8443/p#…",
        "https://accounts.example.com/connect?…",
    ]
    text = tray.log_path.read_text(encoding="utf-8")
    for secret in ("Ada", "ada@", "typed.example", "tok-123", "c0de", "user:pass", "form-me"):
        assert secret not in text


def test_log_values_puts_the_values_and_full_urls_in_the_log(scratch: Path) -> None:
    tray = HostileTray(
        scratch / "run2" / "socket", PLAN, workdir=scratch, extra=("--arm-delay-ms", "0", "--log-values")
    ).start()
    try:
        with Conn(tray.sock, timeout_s=30) as c:
            assert "result" in c.call(1, "elicitation/create", FORM)
            assert "result" in c.call(2, "elicitation/create", url_request(URLS[0], 2))
    finally:
        assert tray.stop() == 0, tray.stderr
    form_line, url_line = [e for e in tray.log_lines() if e["event"] == "elicitation"]
    assert form_line["content"]["name"] == "Ada Secret" and form_line["message"] == FORM["message"]
    assert url_line["url"] == URLS[0]
    started = next(e for e in tray.log_lines() if e["event"] == "started")
    assert started["log_values"] is True
