"""Where the socket is by default (issue 10 §2 "Only the real tray app can answer"): never in a
directory another user could create first, and the same for ``serve`` and its requesters.

``$XDG_RUNTIME_DIR`` is used only when it is an absolute path to a directory of ours that
others cannot write; then ``/run/user/<uid>``; then the user state dir under the home. There is
no ``/tmp`` fallback any more.
"""

from __future__ import annotations

import os
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
        env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runtime = _dir(env / "xdg", 0o755)  # the socket's own directory below it is 0700
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    assert default_socket_path() == runtime / "elicit-tray" / "socket"


@pytest.mark.parametrize("case", ["missing", "relative", "group-writable", "world-writable", "a-file",
                                  "another-users"])
def test_an_unusable_xdg_runtime_dir_falls_back_to_the_home_state_dir(
        env: Path, monkeypatch: pytest.MonkeyPatch, case: str) -> None:
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
        env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
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
        "and its clients alike, or set XDG_RUNTIME_DIR to a short private directory")


def test_the_length_counts_bytes_not_characters() -> None:
    with pytest.raises(SocketPathTooLong):
        check_socket_path_length(Path("/" + "é" * 54))  # 54 characters, 109 bytes
