"""The tray app's process leaves OpenSSL out (issue 11 §2: 4.7 MiB of RSS for nothing it does)
and still does everything that hashed or spoke through ``asyncio`` before."""

from __future__ import annotations

import sys

import pytest

from tests import rpc

from .tray_process import Conn, TrayProcess, short_tmpdir

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/PID/maps")

PATTERN_FORM = {
    "mode": "form",
    "message": "Your licence code",
    "requestedSchema": {
        "type": "object",
        "properties": {"code": {"type": "string", "title": "Code", "pattern": "^[A-Z]{3}-\\d{4}$"}},
        "required": ["code"],
    },
}
PLAN = [{"match": "licence code", "steps": [{"do": "type", "field": "code", "text": "ABC-1234"}, {"do": "submit"}]}]


def _mapped_libraries(pid: int) -> set[str]:
    with open(f"/proc/{pid}/maps", encoding="utf-8") as maps:
        return {line.rsplit("/", 1)[-1].strip() for line in maps if "/" in line}


def test_the_serving_process_maps_no_openssl_and_still_answers_a_pattern_form(tmp_path):
    tray = TrayProcess(short_tmpdir() / "socket", PLAN, workdir=tmp_path).start()
    try:
        with Conn(tray.sock) as conn:
            conn.send(rpc.create(1, PATTERN_FORM))  # the pattern check hashes each value (BLAKE2)
            assert conn.recv() == rpc.result(1, {"action": "accept", "content": {"code": "ABC-1234"}})
            assert conn.call(2, "ping") == rpc.pong(2)
        libraries = _mapped_libraries(tray.pid)
        assert [name for name in libraries if name.startswith(("libcrypto", "libssl"))] == []
        assert any(name.startswith("libQt6Widgets") for name in libraries)  # the reading is real
    finally:
        assert tray.stop() == 0
