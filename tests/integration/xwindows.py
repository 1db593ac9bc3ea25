"""Helpers for the real-window tests under X (Xvfb from scripts/test.sh): the tray app on the
xcb platform under a real window manager (openbox), and new dialog windows found through
xdotool."""

from __future__ import annotations

import atexit
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.integration.tray_process import TrayProcess, short_tmpdir

#: Skip marker for tests that need an X display and xdotool.
needs_x = pytest.mark.skipif(
    not os.environ.get("DISPLAY") or not shutil.which("xdotool"),
    reason="needs an X display and xdotool (scripts/test.sh starts Xvfb)",
)


WINDOW_MANAGERS = {
    "openbox": ["openbox", "--sm-disable"],
    "xfwm4": ["dbus-run-session", "xfwm4", "--compositor=off", "--sm-client-disable"],
}


#: Display numbers this process has used: a number a server just gave up is not taken again
#: (a window manager started on a reused number could not open it, now and then).
_used_displays: set[int] = set()


def stop_processes(*processes: subprocess.Popen[bytes]) -> None:
    """Terminate each process still running and reap it (killed after 30 s)."""
    for process in processes:
        if process.poll() is None:
            process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=30)


def own_x_server(screen: str = "1280x1024x24") -> tuple[subprocess.Popen[bytes], str]:
    """An Xvfb (one screen of ``screen``: width x height x depth) on a display number no server
    holds and this process never used, once clients can connect to it."""
    for number in range(200, 300):
        if number in _used_displays or Path(f"/tmp/.X{number}-lock").exists():
            continue
        _used_displays.add(number)
        display = f":{number}"
        server = subprocess.Popen(
            ["Xvfb", display, "-screen", "0", screen, "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        env = dict(os.environ, DISPLAY=display)
        env.pop("XAUTHORITY", None)  # a server without -auth: no cookie to send
        deadline = time.monotonic() + 30
        while server.poll() is None and time.monotonic() < deadline:
            probe = subprocess.run(["xprop", "-root", "-len", "0"], env=env, capture_output=True, timeout=10)
            if probe.returncode == 0:
                return server, display
            time.sleep(0.05)  # bounded poll until the new server accepts clients
        stop_processes(server)
    pytest.fail("no Xvfb could be started on displays :200-:299")


def own_x_desktop(manager: str, log: Path, screen: str = "1280x1024x24") -> tuple[list[subprocess.Popen[bytes]], str]:
    """An Xvfb of its own (:func:`own_x_server`) with ``manager`` running, its output in
    ``log``; fails (never skips) when either cannot start (three tries)."""
    for tool in ("Xvfb", "xdotool", "xterm", "xprop", manager):
        if not shutil.which(tool):
            pytest.fail(f"{tool} is missing: scripts/setup.sh installs it")
    said = ""
    for _attempt in range(3):
        server, display = own_x_server(screen)
        env = dict(os.environ, DISPLAY=display)
        env.pop("XAUTHORITY", None)
        with open(log, "wb") as out:
            wm = subprocess.Popen(WINDOW_MANAGERS[manager], env=env, stdout=out, stderr=out)
        deadline = time.monotonic() + 60
        while wm.poll() is None and time.monotonic() < deadline and not _has_window_manager(display):
            time.sleep(0.02)  # bounded poll of the X server for the window manager's check window
        if _has_window_manager(display):
            return [wm, server], display
        stop_processes(wm, server)
        said = log.read_text(errors="replace")[-2000:]
    pytest.fail(f"{manager} did not start: {said}")


def tray_icon_window(display: str | None = None) -> str | None:
    """The id of the ``elicit-tray`` icon window embedded in trayer's panel on ``display``
    (default: $DISPLAY), or None."""
    tree = subprocess.run(
        ["xwininfo", "-root", "-tree"],
        capture_output=True,
        text=True,
        timeout=30,
        env=None if display is None else {**os.environ, "DISPLAY": display},
    ).stdout
    lines = tree.splitlines()
    for i, line in enumerate(lines):
        if '("panel" "trayer")' in line:
            depth = len(line) - len(line.lstrip())
            for child in lines[i + 1 :]:
                if len(child) - len(child.lstrip()) <= depth:
                    break
                found = re.search(r'(0x[0-9a-f]+) "elicit-tray": \("elicit-tray" "elicit-tray"\)', child)
                if found:
                    return found.group(1)
    return None


_window_manager: subprocess.Popen[bytes] | None = None


def _has_window_manager(display: str | None = None) -> bool:
    """Whether a window manager runs on ``display`` (default: $DISPLAY)."""
    env = None if display is None else dict(os.environ, DISPLAY=display)
    found = subprocess.run(
        ["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], capture_output=True, text=True, timeout=10, env=env
    ).stdout
    return "window id" in found


def window_manager() -> None:
    """Make sure a real window manager runs on $DISPLAY (openbox, started once for the test
    session when none runs), so that focus, stacking and activation behave as on a desktop."""
    global _window_manager
    if _window_manager is not None and _window_manager.poll() is None:
        return
    if shutil.which("xprop") and _has_window_manager():
        return
    if not shutil.which("openbox"):
        pytest.fail("openbox is missing: scripts/setup.sh installs it")
    for _attempt in range(3):  # openbox now and then gives up when the X server is still busy
        log = tempfile.TemporaryFile()
        _window_manager = subprocess.Popen(["openbox", "--sm-disable"], stdout=log, stderr=log)
        deadline = time.monotonic() + 30
        while not _has_window_manager() and _window_manager.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)  # bounded poll of the X server for the window manager's check window
        if _has_window_manager():
            atexit.register(_window_manager.terminate)
            log.close()
            return
        _window_manager.kill()
        _window_manager.wait(timeout=30)
        log.seek(0)
        said = log.read().decode(errors="replace")
        log.close()
    raise AssertionError(f"openbox did not start: {said}")


@contextmanager
def xcb_tray(*extra_args: str, **env: str) -> Iterator[Path]:
    """A tray app showing real X windows under a window manager (arming off unless
    ``extra_args`` set ``--arm-delay-ms``, so keys act at once); yields its socket. It must exit
    with 0 on SIGTERM."""
    window_manager()
    workdir = short_tmpdir()
    tray = TrayProcess(
        workdir / "socket",
        None,
        workdir=workdir,
        extra_args=extra_args or ("--arm-delay-ms", "0"),
        env={"QT_QPA_PLATFORM": "xcb", **env},
    ).start()
    try:
        yield tray.sock
    finally:
        assert tray.stop() == 0, tray.stderr


class Windows:
    """Finds the dialog window that has just been mapped, never one seen before."""

    def __init__(self, title_part: str = "— elicit-tray"):
        self.title_part = title_part
        self.seen: set[str] = set()

    def new(self) -> str:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            found = subprocess.run(
                ["xdotool", "search", "--onlyvisible", "--name", self.title_part],
                capture_output=True,
                text=True,
                timeout=30,
            ).stdout.split()
            fresh = [w for w in found if w not in self.seen]
            if fresh:
                self.seen.update(fresh)
                return fresh[0]
            time.sleep(0.02)  # bounded poll of the X server for the window to map
        raise AssertionError("the dialog window did not appear")

    def activate_new(self) -> str:
        """Wait for the new window and give it the keyboard focus (the History and Settings
        windows, file dialogs: windows that take keys once they have the focus)."""
        window = self.new()
        subprocess.run(["xdotool", "windowactivate", "--sync", window], capture_output=True, timeout=30)
        return window

    def engage_new(self) -> str:
        """Wait for the new elicitation dialog and engage with it as a keyboard user does (focus
        alone never makes a dialog take keys): :func:`engage`."""
        window = self.new()
        engage(window)
        return window


def engage(window: str) -> None:
    """The keyboard user's two deliberate steps before the usual keys: go to ``window`` (the
    window switcher's request, as xdotool makes it, after input as a real switch has: a nudge
    of the pointer) and press Ctrl+Shift+Enter in it."""
    subprocess.run(["xdotool", "mousemove_relative", "--", "1", "0"], capture_output=True, timeout=30)
    subprocess.run(["xdotool", "windowactivate", "--sync", window], capture_output=True, timeout=30)
    subprocess.run(["xdotool", "key", "ctrl+shift+Return"], capture_output=True, timeout=30)
