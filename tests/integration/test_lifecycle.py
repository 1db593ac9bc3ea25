"""The tray app exits cleanly under a real tray host: status 0, the socket and its lock file
removed, the decision it answered in the history, however it is told to stop (SIGTERM, SIGINT,
the tray menu's Quit) or loses its display.

Each case runs on an X server of its own (Xvfb with openbox) with trayer as the system tray, and
the app's icon embedded in it before it stops: a tray icon's X window is where exit used to
crash (SIGSEGV, status 139, only with a tray host running).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.integration.tray_process import Conn, TrayProcess, short_tmpdir, tray_env
from tests.integration.xwindows import own_x_desktop, stop_processes, tray_icon_window

QUESTION = "Proceed with the deployment?"
PLAN = [{"match": QUESTION, "steps": [{"do": "submit"}]}]
PARAMS = {
    "mode": "form",
    "message": QUESTION,
    "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean", "default": True}}},
}


def _wait_for(what: str, check, timeout_s: float = 30):
    deadline = time.monotonic() + timeout_s
    while not (found := check()):
        assert time.monotonic() < deadline, f"{what} did not happen within {timeout_s} s"
        time.sleep(0.05)  # bounded poll of the X server / the file system
    return found


def _quit_from_the_menu(display: str, icon: str) -> None:
    """Open the icon's menu with the pointer and choose its last item, Quit, with the keyboard
    (the menu holds the keyboard while it is open)."""
    env = {**os.environ, "DISPLAY": display}

    def windows() -> set[str]:
        found = subprocess.run(
            ["xdotool", "search", "--onlyvisible", "--class", "elicit-tray"],
            env=env,
            capture_output=True,
            text=True,
            timeout=30,
        )
        return set(found.stdout.split())

    before = windows()
    subprocess.run(["xdotool", "mousemove", "--window", icon, "4", "4", "click", "3"], env=env, check=True, timeout=30)
    _wait_for("the tray menu", lambda: windows() - before)
    subprocess.run(["xdotool", "key", "Up", "Return"], env=env, check=True, timeout=30)


@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT", "Quit", "display lost"])
def test_the_tray_app_exits_cleanly_under_a_tray_host(how, monkeypatch):
    for tool in ("trayer", "xwininfo", "xdotool"):
        if not shutil.which(tool):
            pytest.fail(f"{tool} is missing: scripts/setup.sh installs it")
    workdir = short_tmpdir()
    processes, display = own_x_desktop("openbox", workdir / "wm.log")
    monkeypatch.setenv("DISPLAY", display)
    monkeypatch.delenv("XAUTHORITY", raising=False)  # the server runs without -auth
    history = workdir / "history.sqlite3"
    panel = subprocess.Popen(
        ["trayer", "--edge", "top", "--align", "right", "--widthtype", "pixel", "--width", "120", "--height", "24"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    tray = TrayProcess(
        workdir / "socket",
        PLAN,
        workdir=workdir,
        extra_args=("--arm-delay-ms", "0"),
        env={"QT_QPA_PLATFORM": "xcb", "ELICIT_TRAY_HISTORY": str(history)},
    )
    try:
        tray.start()
        icon = _wait_for("the icon's embedding in the tray host", lambda: tray_icon_window(display))
        with Conn(tray.sock) as conn:
            assert conn.call(1, "elicitation/create", PARAMS) == {
                "jsonrpc": "2.0",
                "id": 1,
                "result": {"action": "accept", "content": {"ok": True}},
            }
        if how == "Quit":
            _quit_from_the_menu(display, icon)
        elif how == "display lost":
            stop_processes(processes[-1])  # the X server
        else:
            tray.proc.send_signal(getattr(signal, how))
        status = tray.wait()
    finally:
        if tray.proc is not None and tray.proc.poll() is None:
            tray.kill()
        stop_processes(panel, *processes)
    assert status == 0, tray.stderr
    assert not tray.sock.exists()
    assert not Path(f"{tray.sock}.lock").exists()
    rows = json.loads(
        subprocess.run(
            [sys.executable, "-m", "elicit_tray", "history", "--json"],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
            env={**os.environ, "ELICIT_TRAY_HISTORY": str(history)},
        ).stdout
    )
    assert [(row["message"], row["outcome"]) for row in rows] == [(QUESTION, "accept")]


def _free_x_display() -> str:
    return next(f":{n}" for n in range(4700, 4800) if not os.path.exists(f"/tmp/.X11-unix/X{n}"))


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({}, "no display to show dialogs on: DISPLAY and WAYLAND_DISPLAY are not set."),
        ({"DISPLAY": "free"}, "cannot open the display DISPLAY=free: no display server answers there"),
        (
            {"QT_QPA_PLATFORM": "wayland", "WAYLAND_DISPLAY": "wayland-none"},
            "cannot open the display WAYLAND_DISPLAY=wayland-none: no display server answers there",
        ),
    ],
)
def test_without_a_display_serve_says_what_is_missing_in_one_line_and_exits_7(env, said):
    workdir = short_tmpdir()
    free = _free_x_display()
    environ = {k: v for k, v in tray_env().items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    environ.update({k: v.replace("free", free) for k, v in env.items()}, XDG_RUNTIME_DIR=str(workdir))
    done = subprocess.run(
        [sys.executable, "-m", "elicit_tray", "--socket", str(workdir / "socket"), "serve"],
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 7, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("elicit-tray serve: " + said.replace("free", free))
    assert done.stderr.rstrip().endswith("or set QT_QPA_PLATFORM=offscreen to run without visible windows")
    assert not (workdir / "socket").exists()
