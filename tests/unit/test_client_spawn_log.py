"""The tray app started by a requester writes its output to the state dir's ``tray.log`` under the
request log's rules: never through a link another user planted, mode 0600."""

from __future__ import annotations

import os
import stat
import sys
import time
from pathlib import Path

from elicit_tray.requester import launch


def _spawn(monkeypatch, state: Path) -> int | None:
    monkeypatch.setattr("platformdirs.user_state_dir", lambda *_a, **_k: str(state))
    monkeypatch.setattr(launch, "tray_command", lambda: [sys.executable, "-c", "print('tray output')"])
    poll = launch._spawn_tray(state / "socket")
    deadline = time.monotonic() + 30
    while (code := poll()) is None and time.monotonic() < deadline:
        time.sleep(0.01)  # bounded wait for the short child to exit
    return code


def test_the_started_tray_writes_to_a_private_tray_log(monkeypatch, tmp_path):
    state = tmp_path / "state"
    assert _spawn(monkeypatch, state) == 0
    log = state / "tray.log"
    assert log.read_text(encoding="utf-8") == "tray output\n"
    assert stat.S_IMODE(log.stat().st_mode) == 0o600


def test_a_planted_link_is_never_followed(monkeypatch, tmp_path):
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    victim = tmp_path / "bashrc"
    victim.write_text("alias ls='ls -F'\n", encoding="utf-8")
    victim.chmod(0o644)
    os.symlink(victim, state / "tray.log")
    assert _spawn(monkeypatch, state) == 0
    assert victim.read_text(encoding="utf-8") == "alias ls='ls -F'\n"
    assert stat.S_IMODE(victim.stat().st_mode) == 0o644
