"""Contrast and the focus ring read from the X server's own pixels (``xwd`` of the real
window, an Xvfb of its own with openbox), in the palettes the platform hands the app: Qt's gtk3
platform theme with GTK's dark and high-contrast themes (the live dark palette had a focus ring
of 1.28:1 and field borders of 1.21:1), and no platform theme (Fusion's light palette).
The dialog is tests/integration/contrast_window.py; the measures are tests/ui/pixels.py's."""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QColor, QImage

from tests.integration.xwindows import own_x_desktop, stop_processes
from tests.ui.pixels import edge_contrast, ring_failures, text_contrast

ROOT = Path(__file__).resolve().parents[2]
#: name -> (environment, the window colour that proves the platform gave that palette)
PLATFORM_PALETTES = {
    "gtk3-adwaita-dark": ({"QT_QPA_PLATFORMTHEME": "gtk3", "GTK_THEME": "Adwaita:dark"}, "#323232"),
    "gtk3-high-contrast-inverse": ({"QT_QPA_PLATFORMTHEME": "gtk3", "GTK_THEME": "HighContrastInverse"}, "#2f2f2f"),
    "no-platform-theme": ({"QT_QPA_PLATFORMTHEME": ""}, "#efefef"),
}


def read_xwd(data: bytes) -> QImage:
    """An ``xwd`` dump (ZPixmap, 24-bit depth in 32-bit pixels, as Xvfb -screen ...x24 gives)
    as an RGB32 image. Raises ``AssertionError`` for another format."""
    header = struct.unpack(">25I", data[:100])
    size, _version, pixmap_format, depth, width, height = header[:6]
    byte_order, bits_per_pixel, bytes_per_line, colors = header[7], header[11], header[12], header[19]
    assert (pixmap_format, depth, bits_per_pixel) == (2, 24, 32), header
    start = size + colors * 12
    pixels = data[start : start + bytes_per_line * height]
    if byte_order == 1:  # most significant byte first: turn each pixel round
        pixels = b"".join(pixels[i : i + 4][::-1] for i in range(0, len(pixels), 4))
    image = QImage(pixels, width, height, bytes_per_line, QImage.Format.Format_RGB32)
    return image.copy()


class Dialog:
    """The dialog process of contrast_window.py on ``display``."""

    def __init__(self, display: str, env: dict[str, str]):
        self.env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORMTHEME", "GTK_THEME")}
        self.env |= {"DISPLAY": display, "QT_QPA_PLATFORM": "xcb", "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}", **env}
        self.env.pop("XAUTHORITY", None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.integration.contrast_window"],
            cwd=ROOT,
            env=self.env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.opened: dict[str, Any] = self._answer()

    def _answer(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, f"the dialog process ended ({self.process.poll()})"
        return json.loads(line)

    def ask(self, command: str) -> dict[str, Any]:
        """Send one command line; its JSON answer."""
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        return self._answer()

    def shot(self) -> QImage:
        """The window's pixels as the X server holds them."""
        window = str(self.opened["window"])
        done = subprocess.run(["xwd", "-silent", "-id", window], env=self.env, capture_output=True, timeout=30)
        assert done.returncode == 0, done.stderr
        return read_xwd(done.stdout)

    def close(self) -> None:
        if self.process.poll() is None:
            self.ask_quietly("quit")
        stop_processes(self.process)  # type: ignore[arg-type]
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()

    def ask_quietly(self, command: str) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(command + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            pass


def _until(condition: Any, what: Any) -> Any:
    """``condition()`` once it is true, polled for 20 s; else fail with ``what`` (a string, or a
    callable saying what was seen)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.02)  # bounded poll of the X server (or the dialog) for the change
    raise AssertionError(what() if callable(what) else what)


@pytest.fixture(params=list(PLATFORM_PALETTES))
def dialog(request, tmp_path):
    if not shutil.which("xwd"):
        pytest.fail("xwd is missing: scripts/setup.sh installs x11-apps")
    processes, display = own_x_desktop("openbox", tmp_path / "openbox.log")
    env, window_color = PLATFORM_PALETTES[request.param]
    shown = None
    try:
        shown = Dialog(display, env)
        assert shown.opened["palette"]["window"] == window_color, shown.opened["palette"]
        subprocess.run(
            ["xdotool", "windowactivate", "--sync", str(shown.opened["window"])],
            env=shown.env,
            capture_output=True,
            timeout=30,
        )
        _until(lambda: shown.ask("state")["focus"] == "field-name", "the first field did not get the focus")
        yield shown
    finally:
        if shown is not None:
            shown.close()
        stop_processes(*processes)


def _rect(values: list[int]) -> QRect:
    return QRect(*values)


def test_the_real_window_shows_the_focus_ring_edges_and_text_with_their_contrast(dialog):
    opened = dialog.opened
    backgrounds = [QColor(c) for c in opened["palette"].values()]
    name = _rect(opened["controls"]["field-name"])
    probe = (name.center().x(), name.top() - 3)  # on the ring, above the field

    seen: list[str] = []

    def shot_with(ring: bool) -> QImage | None:
        shot, colors = dialog.shot(), dialog.ask("state")["ring"]  # active and inactive (GTK's differ)
        seen[:] = [shot.pixelColor(*probe).name(), *colors]
        return shot if (seen[0] in colors) == ring else None

    # bounded polls: the X server has the new pixels once the probe shows (or lost) the ring
    focused = _until(lambda: shot_with(ring=True), lambda: f"no ring on the X server: {seen}")
    assert dialog.ask("blur")["focus"] is None
    unfocused = _until(lambda: shot_with(ring=False), "the ring stayed")
    assert ring_failures(focused, unfocused, name, backgrounds) == []
    weak_edges = {}
    for control in ("field-name", "field-mail", "field-count", "decline", "cancel"):
        ratio, read = edge_contrast(unfocused, _rect(opened["controls"][control]), inside=control.startswith("field"))
        if ratio < 3.0:
            weak_edges[control] = (round(ratio, 2), read)
    assert weak_edges == {}
    help_text = next(rect for text, rect in opened["labels"].items() if text.startswith("Your full name"))
    help_ratio = text_contrast(unfocused, _rect(help_text))
    placeholder = text_contrast(unfocused, _rect(opened["controls"]["field-mail"]).adjusted(3, 3, -3, -3))
    assert help_ratio[0] >= 4.5 and placeholder[0] >= 4.5, (help_ratio, placeholder)
