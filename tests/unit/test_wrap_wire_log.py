"""The ``wrap`` proxy's wire log (``--wire-log``, ``ELICIT_TRAY_WRAP_LOG``) is opened as the tray
app's own log is: never through a symbolic link, only a regular file of the
user's with no other hard link, mode 0600. A refused log is a one-line error and exit status 2,
before the wrapped server is started."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import anyio
import pytest

from elicit_tray.wrap.shell import _open_wire_log, run_wrap


def _wrap(tmp_path: Path, log: Path) -> tuple[int, bool]:
    """Run the proxy with ``log`` as its wire log around a server that only leaves a mark;
    returns (exit status, whether the server ran)."""
    mark = tmp_path / "server-ran"
    argv = [sys.executable, "-c", f"open({str(mark)!r}, 'w').close()"]
    read_fd, write_fd = os.pipe()
    os.close(write_fd)  # the host sends nothing
    out_read, out_write = os.pipe()
    try:
        status = anyio.run(lambda: run_wrap(argv, wire_log=log, in_fd=read_fd, out_fd=out_write))
    finally:
        for fd in (read_fd, out_read, out_write):
            os.close(fd)
    return status, mark.exists()


def test_a_wire_log_that_is_a_symbolic_link_is_refused_and_its_target_untouched(tmp_path, capsys):
    target = tmp_path / "bashrc"
    target.write_text("echo hi\n")
    log = tmp_path / "wire.log"
    log.symlink_to(target)
    assert _wrap(tmp_path, log) == (2, False)
    assert target.read_text() == "echo hi\n"
    assert capsys.readouterr().err == f"elicit-tray wrap: cannot write the wire log {log}: it is a symbolic link\n"


def test_a_wire_log_that_is_a_fifo_is_refused_without_blocking(tmp_path, capsys):
    log = tmp_path / "wire.log"
    os.mkfifo(log)
    assert _wrap(tmp_path, log) == (2, False)
    assert capsys.readouterr().err == f"elicit-tray wrap: cannot write the wire log {log}: it is not a regular file\n"


def test_a_wire_log_that_is_a_directory_is_refused(tmp_path, capsys):
    log = tmp_path / "wire.log"
    log.mkdir()
    assert _wrap(tmp_path, log) == (2, False)
    assert capsys.readouterr().err == f"elicit-tray wrap: cannot write the wire log {log}: it is not a regular file\n"


def test_a_wire_log_with_another_hard_link_is_refused(tmp_path, capsys):
    other = tmp_path / "elsewhere"
    other.write_text("")
    log = tmp_path / "wire.log"
    os.link(other, log)
    assert _wrap(tmp_path, log) == (2, False)
    assert capsys.readouterr().err == f"elicit-tray wrap: cannot write the wire log {log}: it has 2 hard links\n"


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_another_users_wire_log_is_refused(tmp_path, capsys):
    log = tmp_path / "wire.log"
    log.write_text("")
    os.chown(log, 65534, 65534)
    assert _wrap(tmp_path, log) == (2, False)
    assert (
        capsys.readouterr().err
        == f"elicit-tray wrap: cannot write the wire log {log}: it is owned by uid 65534, not by you\n"
    )


def test_an_existing_readable_wire_log_is_made_private_and_appended_to(tmp_path):
    log = tmp_path / "wire.log"
    log.write_bytes(b"to-host {}\n")
    log.chmod(0o644)
    with _open_wire_log(log) as out:
        out.write(b"to-server {}\n")
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    assert log.read_bytes() == b"to-host {}\nto-server {}\n"


def test_a_new_wire_log_is_created_private(tmp_path):
    log = tmp_path / "wire.log"
    with _open_wire_log(log) as out:
        out.write(b"x\n")
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
