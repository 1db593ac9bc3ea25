"""On a real 1024x768 X screen (Xvfb of its own, openbox), at 100% and 200% scale: real Tab
and Shift+Tab presses (xdotool, after engaging with the dialog as a keyboard user does) walk a
form of every kind in reading order, and the screenshot shows each option of the option groups
whole and apart from the next, with every error shown and every label above its field
(WCAG 2.4.3, 1.4.10).

The dialog runs in ``focus_app.py`` (the app's own presenter and dialogs on the xcb platform),
which says where the focus went; the reading order comes from the widgets' screen positions
(tests/ui/tab_order.py); the screenshot is the X server's root window.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QImage

from tests.integration.tray_process import short_tmpdir
from tests.integration.xwindows import own_x_desktop, stop_processes

REPO = Path(__file__).resolve().parents[2]
WEEK = {"type": "string", "enum": ["Mon", "Tue", "Wed", "Thu"]}
PARAMS = {
    "message": "Fill in",
    "requestedSchema": {
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": "Name", "description": "Your full name as it appears on the card"},
            "day": {"type": "string", "format": "date", "title": "Day"},
            "amount": {"type": "number", "title": "Amount"},
            "agree": {"type": "boolean", "title": "Agree"},
            "size": {"type": "string", "title": "Size", "enum": ["S", "M", "L", "XL"]},
            "color": {"type": "string", "title": "Color", "enum": ["red", "green"]},
            "days": {"type": "array", "title": "Days", "items": WEEK, "minItems": 2},
        },
        "required": ["size", "days", "name"],
    },
}


WRAPS = "A description long enough to wrap onto a second line at the width of this dialog, as servers write them."
#: The same form with every label above its field (titles over 28 characters) and descriptions
#: that wrap: the window reaches the screen's height at 100% too.
LONG_TITLES = {
    **PARAMS,
    "requestedSchema": {
        **PARAMS["requestedSchema"],
        "properties": {
            key: dict(field, title=field["title"] + " for this request, as a long title says it", description=WRAPS)
            for key, field in PARAMS["requestedSchema"]["properties"].items()
        },
    },
}


class FocusApp:
    """``focus_app.py`` on ``display``: its reports, read with a deadline."""

    def __init__(self, display: str, scale: str, params: dict[str, Any]):
        env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb", QT_SCALE_FACTOR=scale, ELICIT_TRAY_LOG="off")
        env.pop("XAUTHORITY", None)
        self.env = env
        self.focused = ""  # the control focused now, as last reported
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.integration.focus_app", json.dumps(params)],
            cwd=REPO,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self._buffer = b""

    def next(self, key: str, timeout: float = 30) -> Any:
        """The next report that has ``key`` (earlier ones are dropped)."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" in self._buffer:
                line, self._buffer = self._buffer.split(b"\n", 1)
                message = json.loads(line)
                if key in message:
                    return message
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise AssertionError(f"focus_app said nothing with {key!r} in {timeout} s")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise AssertionError(f"focus_app ended (status {self.proc.wait(30)})")
            self._buffer += chunk

    def ask(self, command: str, key: str) -> Any:
        assert self.proc.stdin is not None
        self.proc.stdin.write(command.encode() + b"\n")
        self.proc.stdin.flush()
        return self.next(key)

    def close(self) -> None:
        """End the app (by its pid) and close its pipes."""
        stop_processes(self.proc)
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                pipe.close()

    def xdotool(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env=self.env, check=True, timeout=30, capture_output=True)

    def press(self, key: str) -> str:
        """Press ``key`` (a real X key event) and return the name of the control it focused
        (reports that the focus is where it was, as on the window's activation, are skipped)."""
        self.xdotool("key", key)
        while (name := self.next("focus")["focus"]) == self.focused:
            pass
        self.focused = name
        return name


@pytest.fixture(scope="module")
def desktop() -> Iterator[str]:
    workdir = short_tmpdir()
    processes, display = own_x_desktop("openbox", workdir / "wm.log", screen="1024x768x24")
    try:
        yield display
    finally:
        stop_processes(*processes)


def _engaged(display: str, scale: str, params: dict[str, Any] = PARAMS) -> tuple[FocusApp, list[str]]:
    app = FocusApp(display, scale, params)
    ready = app.next("ready")
    app.focused = ready["focus_now"]
    app.xdotool("mousemove_relative", "--", "1", "0")  # as a real switch to it: input first
    app.xdotool("windowactivate", "--sync", str(ready["ready"]))
    app.xdotool("key", "ctrl+shift+Return")  # engage: the dialog takes keys from now on
    return app, ready["stops"]


@pytest.mark.parametrize("scale", ["1", "2"], ids=["100%", "200%"])
def test_real_tab_presses_walk_every_kind_in_reading_order(desktop, scale):
    app, stops = _engaged(desktop, scale)
    try:
        assert stops == ["field-name", "Day", "Clear Day", "field-amount", "Not set", "S", "field-color"] + WEEK[
            "enum"
        ] + [
            "decline",
            "cancel",
        ]
        assert [app.press("Tab") for _ in stops] == stops[1:] + stops[:1]
        assert [app.press("shift+Tab") for _ in stops] == stops[::-1]
    finally:
        app.close()


@pytest.mark.parametrize("scale", ["1", "2"], ids=["100%", "200%"])
def test_the_screenshot_shows_every_option_whole_with_every_error_shown(desktop, scale, tmp_path):
    app, stops = _engaged(desktop, scale, LONG_TITLES)
    try:
        assert app.press("Tab") == stops[1]
        assert (
            app.press("Return") == "field-name"
        )  # a failed Accept: every error shows, the first invalid field is focused
        while app.press("Tab") != "Thu":  # the last option comes into view (bounded: one cycle at most)
            assert len(stops) > 0
            stops = stops[1:]
        assert app.ask("problems", "problems") == {"problems": []}
        shot = app.ask(f"shot {tmp_path / 'form.png'}", "shot")
        image = QImage(shot["shot"])
        assert (image.width(), image.height()) == (1024, 768)
        options = {name: rect for name, *rect in shot["options"]}
        for group in (WEEK["enum"], ["S", "M", "L", "XL"]):
            shown = [options[o] for o in group if o in options]
            if group == WEEK["enum"]:
                assert len(shown) == 4, shot["options"]  # the focused group is in view, whole
            if len(shown) < 2:
                continue
            x, height = shown[0][0], shown[0][3]
            runs = _indicator_rows(image, x, shown[0][1], shown[-1][1] + shown[-1][3], round(height * 0.7))
            assert len(runs) == len(shown), (group, runs, shown)  # one indicator each, apart
            for (top, bottom), (_x, y, _w, h) in zip(runs, shown, strict=True):
                assert y <= top and bottom < y + h and bottom - top + 1 >= height // 2, (group, runs, shown)
    finally:
        app.close()


def _indicator_rows(image: QImage, x: int, top: int, bottom: int, width: int) -> list[tuple[int, int]]:
    """Runs of screen rows (top, bottom) in ``top .. bottom`` whose pixels in the column band
    ``x .. x + width`` hold a dark grey edge (an option's indicator: the window is light; the
    focus ring around the focused option is a colour, not grey, and is not counted)."""
    runs: list[tuple[int, int]] = []
    start = None
    for y in range(top, bottom):
        dark = any(
            (c := image.pixelColor(px, y)).lightness() < 160 and c.hslSaturation() < 60 for px in range(x, x + width)
        )
        if dark and start is None:
            start = y
        elif not dark and start is not None:
            runs.append((start, y - 1))
            start = None
    if start is not None:
        runs.append((start, bottom - 1))
    return runs
