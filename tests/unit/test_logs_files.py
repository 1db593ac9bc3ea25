"""The request log's file cannot be turned against the user (issue 11 §3, README "IPC contract").

``ELICIT_TRAY_LOG`` pointing at a symbolic link to ``~/.bashrc`` made the app append
requester-chosen text to it, also across users through a link planted in ``/tmp``; an existing
0644 log stayed 0644. Now: ``O_NOFOLLOW``, a regular file of the user's with one link, in a
directory no one else can change, mode forced to 0600, and a rotation that only renames.
Every "victim" below is a file the log must never write: its bytes are compared exactly.
"""

from __future__ import annotations

import json
import logging
import os
import stat
from pathlib import Path

import pytest

from elicit_tray.logs import ENV_LOG, LOG_BACKUPS, MAX_LOG_BYTES, Journal, UnsafeLogFile, open_journal

BASHRC = b"# ~/.bashrc\nalias ll='ls -l'\n"
HOSTILE = "$(touch /tmp/pwned)\n"  # a server name a requester chose
OTHER_UID = 65534  # nobody


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A file of the user's the log must never write (stands for ~/.bashrc)."""
    path = tmp_path / "home" / ".bashrc"
    path.parent.mkdir()
    path.write_bytes(BASHRC)
    return path


@pytest.fixture
def logdir(tmp_path: Path) -> Path:
    path = tmp_path / "logs"
    path.mkdir(mode=0o700)
    return path


def write_one(path: Path) -> None:
    journal = Journal(path)
    journal.record("elicitation", server=HOSTILE)
    journal.close()


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def test_a_symlink_to_the_users_bashrc_is_refused_and_the_file_is_untouched(logdir: Path, victim: Path) -> None:
    link = logdir / "tray.log.jsonl"
    link.symlink_to(victim)
    victim.chmod(0o644)
    before = victim.stat()
    with pytest.raises(UnsafeLogFile, match="is a symbolic link"):
        write_one(link)
    assert victim.read_bytes() == BASHRC
    assert stat.S_IMODE(victim.stat().st_mode) == stat.S_IMODE(before.st_mode)  # not chmodded either


def test_a_dangling_symlink_is_refused_and_its_target_is_not_created(logdir: Path, tmp_path: Path) -> None:
    target = tmp_path / "home" / ".profile"
    (logdir / "tray.log.jsonl").symlink_to(target)
    with pytest.raises(UnsafeLogFile, match="is a symbolic link"):
        write_one(logdir / "tray.log.jsonl")
    assert not os.path.lexists(target)


def test_a_symlink_planted_in_a_sticky_shared_directory_is_refused(tmp_path: Path, victim: Path) -> None:
    shared = tmp_path / "tmp"
    shared.mkdir()
    shared.chmod(0o1777)  # like /tmp
    planted = shared / "elicit.log"
    planted.symlink_to(victim)
    if os.getuid() == 0:
        os.lchown(planted, OTHER_UID, OTHER_UID)  # another user's link
    with pytest.raises(UnsafeLogFile, match="is a symbolic link"):
        write_one(planted)
    assert victim.read_bytes() == BASHRC


def test_a_fresh_log_in_a_sticky_shared_directory_is_created_0600(tmp_path: Path) -> None:
    shared = tmp_path / "tmp"
    shared.mkdir()
    shared.chmod(0o1777)
    write_one(shared / "elicit.log")
    assert stat.S_IMODE((shared / "elicit.log").stat().st_mode) == 0o600
    assert [e["server"] for e in lines(shared / "elicit.log")] == [HOSTILE]


@pytest.mark.skipif(os.getuid() != 0, reason="needs root to make a file of another user")
def test_another_users_file_is_refused_and_left_unchanged(tmp_path: Path) -> None:
    shared = tmp_path / "tmp"
    shared.mkdir()
    shared.chmod(0o1777)
    theirs = shared / "elicit.log"
    theirs.write_bytes(b"theirs\n")
    theirs.chmod(0o666)
    os.chown(theirs, OTHER_UID, OTHER_UID)
    with pytest.raises(UnsafeLogFile, match=f"owned by uid {OTHER_UID}"):
        write_one(theirs)
    assert theirs.read_bytes() == b"theirs\n" and stat.S_IMODE(theirs.stat().st_mode) == 0o666


@pytest.mark.skipif(os.getuid() != 0, reason="needs root to make a link of another user")
def test_a_directory_symlink_of_another_user_on_the_way_is_refused(tmp_path: Path, victim: Path) -> None:
    shared = tmp_path / "tmp"
    shared.mkdir()
    shared.chmod(0o1777)
    planted = shared / "logs"
    planted.symlink_to(victim.parent)  # /tmp/logs -> ~ : "logs/.bashrc" is the user's own regular file
    os.lchown(planted, OTHER_UID, OTHER_UID)
    with pytest.raises(UnsafeLogFile, match=f"symbolic link owned by uid {OTHER_UID}"):
        write_one(planted / ".bashrc")
    assert victim.read_bytes() == BASHRC


def test_a_directory_others_can_write_without_the_sticky_bit_is_refused(tmp_path: Path) -> None:
    shared = tmp_path / "open"
    shared.mkdir()
    shared.chmod(0o777)
    with pytest.raises(UnsafeLogFile, match="can be changed by another user"):
        write_one(shared / "elicit.log")
    assert not (shared / "elicit.log").exists()


def test_a_hard_link_to_another_file_is_refused(logdir: Path, victim: Path) -> None:
    os.link(victim, logdir / "tray.log.jsonl")
    with pytest.raises(UnsafeLogFile, match="2 hard links"):
        write_one(logdir / "tray.log.jsonl")
    assert victim.read_bytes() == BASHRC


@pytest.mark.parametrize("kind", ["fifo", "directory"])
def test_a_path_that_is_not_a_regular_file_is_refused_without_blocking(logdir: Path, kind: str) -> None:
    path = logdir / "tray.log.jsonl"
    os.mkfifo(path) if kind == "fifo" else path.mkdir()
    with pytest.raises(UnsafeLogFile, match="is not a regular file"):
        write_one(path)


@pytest.mark.parametrize("mode", [0o644, 0o666, 0o640, 0o400])
def test_an_existing_log_gets_mode_0600_and_keeps_its_lines(logdir: Path, mode: int) -> None:
    path = logdir / "tray.log.jsonl"
    path.write_text('{"event": "old"}\n', encoding="utf-8")
    path.chmod(mode)
    write_one(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [e["event"] for e in lines(path)] == ["old", "elicitation"]


def test_open_journal_warns_and_writes_nothing_through_a_link(
    monkeypatch: pytest.MonkeyPatch, logdir: Path, victim: Path, caplog: pytest.LogCaptureFixture
) -> None:
    link = logdir / "x.jsonl"
    link.symlink_to(victim)
    monkeypatch.setenv(ENV_LOG, str(link))
    with caplog.at_level(logging.WARNING, logger="elicit_tray.logs"):
        journal = open_journal()
    assert not journal.enabled
    journal.record("elicitation", server=HOSTILE)
    assert victim.read_bytes() == BASHRC
    assert [r.getMessage() for r in caplog.records] == [
        f"no request log: {link} is a symbolic link; the log is never written through one"
    ]


def _fill(journal: Journal, rounds: int) -> None:
    for i in range(rounds):
        journal.record("filler", n=i, pad="x" * 450)


def test_rotation_moves_planted_links_and_never_writes_through_them(logdir: Path, victim: Path) -> None:
    path = logdir / "tray.log.jsonl"
    journal = Journal(path)
    for i in range(1, LOG_BACKUPS + 1):  # every rotated name is a link to the victim
        Path(f"{path}.{i}").symlink_to(victim)
    _fill(journal, 10)
    os.unlink(path)  # and the current name too, replaced while the log is open
    path.symlink_to(victim)
    _fill(journal, MAX_LOG_BYTES * (LOG_BACKUPS + 1) // 500)
    journal.close()
    assert victim.read_bytes() == BASHRC
    names = sorted(p.name for p in logdir.iterdir())
    assert names == ["tray.log.jsonl", "tray.log.jsonl.1", "tray.log.jsonl.2", "tray.log.jsonl.3"]
    assert all(not p.is_symlink() and stat.S_IMODE(p.lstat().st_mode) == 0o600 for p in logdir.iterdir())
    assert all(p.stat().st_size <= MAX_LOG_BYTES for p in logdir.iterdir())
