"""Request -> deliberate answer, on a real X11 desktop: how many deliberate steps and keys a
user needs, and how many milliseconds it takes (DESIGN.md target: at most 2 deliberate steps
before the usual keys).

Runs under the current $DISPLAY (``xvfb-run``), starts openbox when no window manager runs and
one tray app on the xcb platform with the default consent delay, then for each path: sends a
confirmation, waits for its window, performs the path with xdotool (XTEST), and times the
answer from the moment the request was sent. Prints a table.

    xvfb-run -a .venv/bin/python benchmarks/consent_steps.py
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CONFIRM = {"message": "Deploy to production?", "requestedSchema": {"type": "object", "properties": {}}}
PATHS = {
    # name: (deliberate steps before the usual keys, xdotool actions, keys pressed)
    "pointer: a click in it, then Enter": (1, "click", 1),
    "keyboard: switch to it, Ctrl+Shift+Enter, Enter": (2, "keys", 2),
}


def _xdo(*args: str) -> str:
    return subprocess.run(["xdotool", *args], capture_output=True, text=True, timeout=30).stdout.strip()


def _window(title: str, seen: set[str]) -> str:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = [w for w in _xdo("search", "--onlyvisible", "--name", title).split() if w not in seen]
        if found:
            seen.add(found[0])
            return found[0]
        time.sleep(0.005)  # bounded poll of the X server for the window to map
    raise SystemExit("the dialog did not appear")


def main() -> int:
    if not os.environ.get("DISPLAY"):
        print("consent_steps: needs an X display (run it under xvfb-run)", file=sys.stderr)
        return 2
    wm = None
    if (
        "window id"
        not in subprocess.run(["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], capture_output=True, text=True).stdout
    ):
        wm = subprocess.Popen(["openbox", "--sm-disable"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)  # openbox takes over the screen (a benchmark, not a test)
    folder = Path(tempfile.mkdtemp(prefix="et-"))
    sock = folder / "socket"
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="xcb",
        ELICIT_TRAY_LOG="off",
        ELICIT_TRAY_HISTORY="off",
        ELICIT_TRAY_CONFIG=os.devnull,
    )
    err = open(folder / "stderr.txt", "wb")
    tray = subprocess.Popen([sys.executable, "-m", "elicit_tray", "--socket", str(sock), "serve"], env=env, stderr=err)
    while not sock.exists():
        time.sleep(0.02)
    seen: set[str] = set()
    rows = []
    try:
        for number, (name, (steps, how, keys)) in enumerate(PATHS.items(), 1):
            conn = socket.socket(socket.AF_UNIX)
            conn.connect(str(sock))
            sent = time.monotonic()
            conn.sendall(
                json.dumps({"jsonrpc": "2.0", "id": number, "method": "elicitation/create", "params": CONFIRM}).encode()
                + b"\n"
            )
            window = _window("— elicit-tray", seen)
            mapped = time.monotonic()
            time.sleep(1.5)  # the user sees it and decides (longer than the consent delay)
            acted = time.monotonic()
            if how == "click":
                _xdo("mousemove", "--window", window, "20", "12", "click", "1")  # the who-asks panel
                _xdo("key", "Return")
            else:
                _xdo("windowactivate", "--sync", window)
                _xdo("key", "ctrl+shift+Return")
                _xdo("key", "Return")
            conn.settimeout(30)
            reply = json.loads(conn.makefile("rb").readline())
            done = time.monotonic()
            conn.close()
            rows.append(
                (name, steps, keys, round((mapped - sent) * 1000), round((done - acted) * 1000), reply.get("result"))
            )
    finally:
        tray.terminate()
        tray.wait(timeout=30)
        if wm is not None:
            wm.terminate()
    print(
        f"| {'path':<48} | steps before the usual keys | keys | request -> window (ms) | first act -> answer (ms) | answer |"
    )
    print(f"|{'-' * 50}|---|---|---|---|---|")
    for name, steps, keys, shown, answered, result in rows:
        print(f"| {name:<48} | {steps} | {keys} | {shown} | {answered} | {json.dumps(result)} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
