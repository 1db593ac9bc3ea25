"""Where the socket is by default (issue 10 §2 "Only the real tray app can answer"): never in a
directory another user could create first, and the same for ``serve`` and its requesters.

``$XDG_RUNTIME_DIR`` is used only when it is an absolute path to a directory of ours that
others cannot write; then ``/run/user/<uid>``; then the user state dir under the home. There is
no ``/tmp`` fallback any more.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path

import pytest

from elicit_tray import paths
from elicit_tray.paths import (
    MAX_SOCKET_PATH_BYTES,
    SocketPathTooLong,
    UnsafeDirectory,
    check_socket_path_length,
    default_socket_path,
)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG base directories, uids")


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A clean environment: HOME in ``tmp_path``, no socket override, no XDG variables, no
    ``/run/user`` (RUN_USER_ROOT points into ``tmp_path``), TMPDIR in ``tmp_path``."""
    for name in ("ELICIT_TRAY_SOCKET", "XDG_RUNTIME_DIR", "XDG_STATE_HOME"):
        monkeypatch.delenv(name, raising=False)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    monkeypatch.setattr(paths, "RUN_USER_ROOT", str(tmp_path / "run-user"))
    return tmp_path


def _dir(path: Path, mode: int) -> Path:
    path.mkdir(parents=True)
    path.chmod(mode)
    return path


def test_without_any_runtime_dir_the_socket_is_under_the_home_state_dir_never_in_tmp(env: Path) -> None:
    assert default_socket_path() == env / "home" / ".local" / "state" / "elicit-tray" / "run" / "socket"


def test_xdg_state_home_moves_the_home_fallback(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(env / "state"))
    assert default_socket_path() == env / "state" / "elicit-tray" / "run" / "socket"


def test_a_private_xdg_runtime_dir_is_used(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runtime = _dir(env / "xdg", 0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    assert default_socket_path() == runtime / "elicit-tray" / "socket"


def test_an_xdg_runtime_dir_of_ours_that_others_can_only_read_is_used(
    env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = _dir(env / "xdg", 0o755)  # the socket's own directory below it is 0700
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    assert default_socket_path() == runtime / "elicit-tray" / "socket"


@pytest.mark.parametrize("case", ["missing", "relative", "group-writable", "world-writable", "a-file", "another-users"])
def test_an_unusable_xdg_runtime_dir_falls_back_to_the_home_state_dir(
    env: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    runtime = env / "xdg"
    if case == "relative":
        _dir(env / "xdg", 0o700)
        monkeypatch.chdir(env)
        value = "xdg"
    else:
        value = str(runtime)
    if case == "group-writable":
        _dir(runtime, 0o770)
    elif case == "world-writable":
        _dir(runtime, 0o1777)
    elif case == "a-file":
        runtime.write_text("")
    elif case == "another-users":
        _dir(runtime, 0o700)
        monkeypatch.setattr(paths, "_uid", lambda: os.getuid() + 1)  # as if it belonged to someone else
    monkeypatch.setenv("XDG_RUNTIME_DIR", value)
    assert default_socket_path() == env / "home" / ".local" / "state" / "elicit-tray" / "run" / "socket"


def test_without_xdg_runtime_dir_a_run_user_dir_of_ours_is_used(env: Path) -> None:
    mine = _dir(env / "run-user" / str(os.getuid()), 0o700)
    assert default_socket_path() == mine / "elicit-tray" / "socket"


@pytest.mark.parametrize("mode", [0o777, 0o1777])
def test_a_run_user_dir_that_others_can_write_is_not_used(env: Path, mode: int) -> None:
    _dir(env / "run-user" / str(os.getuid()), mode)
    assert default_socket_path() == env / "home" / ".local" / "state" / "elicit-tray" / "run" / "socket"


def test_a_run_user_dir_of_another_user_is_not_used(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _dir(env / "run-user" / str(os.getuid()), 0o700)
    monkeypatch.setattr(paths, "_uid", lambda: os.getuid() + 1)
    assert default_socket_path() == env / "home" / ".local" / "state" / "elicit-tray" / "run" / "socket"


def test_the_override_then_the_environment_variable_win_over_the_default(
    env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ELICIT_TRAY_SOCKET", str(env / "from-env"))
    assert default_socket_path() == env / "from-env"
    assert default_socket_path(env / "from-flag") == env / "from-flag"


def test_no_default_lies_in_the_temporary_directory(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    tmp = Path(tempfile.gettempdir())
    assert tmp == env / "tmp"
    for runtime in (None, str(env / "absent")):
        if runtime is None:
            monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
        else:
            monkeypatch.setenv("XDG_RUNTIME_DIR", runtime)
        assert tmp not in default_socket_path().parents


def test_a_path_of_107_bytes_fits_and_108_bytes_is_refused_with_what_to_do() -> None:
    assert MAX_SOCKET_PATH_BYTES == 107
    fits = Path("/" + "a" * 106)
    check_socket_path_length(fits)
    long = Path("/" + "a" * 107)
    with pytest.raises(SocketPathTooLong) as caught:
        check_socket_path_length(long)
    assert isinstance(caught.value, UnsafeDirectory)  # serve reports it as exit 4
    assert str(caught.value) == (
        f"the socket path {long} is 108 bytes long; Unix sockets take at most 107. Set ELICIT_TRAY_SOCKET "
        "(or pass --socket) to a shorter path in a directory only you can use (mode 0700), for the tray app "
        "and its clients alike, or set XDG_RUNTIME_DIR to a short private directory"
    )


def test_the_length_counts_bytes_not_characters() -> None:
    with pytest.raises(SocketPathTooLong):
        check_socket_path_length(Path("/" + "é" * 54))  # 54 characters, 109 bytes


# -- the socket's directory and the instance lock (issue 11 §3) -----------------------------------------


def test_missing_directories_are_created_0700_and_reported_as_created(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "run"
    assert paths.ensure_private_dir(target) is True
    assert [stat.S_IMODE(p.stat().st_mode) for p in (tmp_path / "a", tmp_path / "a" / "b", target)] == [0o700] * 3
    assert paths.ensure_private_dir(target) is False  # exists now: checked, not created


@pytest.mark.parametrize("mode", [0o750, 0o755, 0o701, 0o711])
def test_an_existing_directory_others_can_read_or_enter_is_refused_and_never_chmodded(
    tmp_path: Path, mode: int
) -> None:
    home = _dir(tmp_path / "home", mode)  # e.g. --socket ~/x.sock
    with pytest.raises(UnsafeDirectory) as caught:
        paths.ensure_private_dir(home)
    assert str(caught.value) == (
        f"{home} can be read by other users (mode {mode:o}); the socket must be in a directory only you can "
        f"use: choose another --socket path, or run: chmod 700 {home}"
    )
    assert stat.S_IMODE(home.stat().st_mode) == mode


@pytest.mark.parametrize("mode", [0o770, 0o777, 0o1777])
def test_an_existing_directory_others_can_write_is_refused_and_never_chmodded(tmp_path: Path, mode: int) -> None:
    shared = _dir(tmp_path / "shared", mode)
    with pytest.raises(UnsafeDirectory, match="is writable by other users"):
        paths.ensure_private_dir(shared)
    assert stat.S_IMODE(shared.stat().st_mode) == mode


def test_a_symlink_as_the_directory_is_refused(tmp_path: Path) -> None:
    real = _dir(tmp_path / "real", 0o700)
    (tmp_path / "link").symlink_to(real)
    with pytest.raises(UnsafeDirectory, match="is a symbolic link"):
        paths.ensure_private_dir(tmp_path / "link")


def test_the_lock_file_is_beside_the_socket_0600_and_exclusive(tmp_path: Path) -> None:
    sock = _dir(tmp_path / "run", 0o700) / "x.sock"
    first, second = paths.InstanceLock(sock), paths.InstanceLock(sock)
    assert first.path == paths.lock_path(sock) == tmp_path / "run" / "x.sock.lock"
    first.acquire()
    assert first.held and stat.S_IMODE(first.path.stat().st_mode) == 0o600
    with pytest.raises(paths.LockHeld, match=f"another instance holds {first.path}"):
        second.acquire()
    assert not second.held
    first.release()
    assert not first.held and not first.path.exists()  # removed while still held
    second.acquire()
    assert second.held
    second.release()


def test_an_existing_lock_file_gets_mode_0600(tmp_path: Path) -> None:
    sock = _dir(tmp_path / "run", 0o700) / "socket"
    paths.lock_path(sock).write_bytes(b"")
    paths.lock_path(sock).chmod(0o644)
    lock = paths.InstanceLock(sock)
    lock.acquire()
    assert stat.S_IMODE(os.fstat(lock.fd).st_mode) == 0o600  # type: ignore[arg-type]
    lock.release()


@pytest.mark.parametrize("kind", ["symlink", "directory", "fifo"])
def test_a_lock_path_that_is_not_a_regular_file_is_refused_and_left_alone(tmp_path: Path, kind: str) -> None:
    run = _dir(tmp_path / "run", 0o700)
    victim = tmp_path / "victim"
    victim.write_bytes(b"keep\n")
    victim.chmod(0o644)
    lock_file = paths.lock_path(run / "socket")
    {
        "symlink": lambda: lock_file.symlink_to(victim),
        "directory": lock_file.mkdir,
        "fifo": lambda: os.mkfifo(lock_file),
    }[kind]()
    with pytest.raises(paths.UnsafeSocketPath, match="the lock file .* is (a symbolic link|not a regular file)"):
        paths.InstanceLock(run / "socket").acquire()
    assert victim.read_bytes() == b"keep\n" and stat.S_IMODE(victim.stat().st_mode) == 0o644
    assert os.path.lexists(lock_file)
