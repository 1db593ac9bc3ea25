"""A screen reader in the test rig: Debian's Orca on a test's own Xvfb, window manager and
AT-SPI bus, with the tray app on them; what Orca would have said, read from its debug log.

- :func:`orca_desktop`: an Xvfb of its own with openbox, a private D-Bus session with the
  accessibility bus (``at-spi-bus-launcher``), Orca, and the tray app on xcb with Qt's
  accessibility on; yields an :class:`OrcaDesktop`.
- :class:`Orca`: Orca with speech off (``--disable speech``: no speech server is started) and
  its debug log on (``--debug-file``). Every utterance Orca makes goes through its
  ``speech.speak`` and is logged as a ``SPEECH OUTPUT: '...'`` line whether or not a speech
  server listens: :meth:`Orca.spoken` is what it would have said, in order.
  :meth:`Orca.wait_for` waits (bounded poll) for an exact utterance.

Orca runs in a home of its own (``HOME``, ``XDG_*``, ``-u`` preferences: the defaults Orca ships
with) and with GSettings in memory, so nothing of the machine's own settings counts. It is
started through ``orca_launch.py`` (Orca's own command without its one-instance check). When
Orca cannot start, the test fails and says why; it never skips.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.integration.tray_process import TrayProcess, short_tmpdir
from tests.integration.xwindows import own_x_desktop, stop_processes

__all__ = ["Orca", "OrcaDesktop", "orca_desktop", "START_TIMEOUT_S", "SAY_TIMEOUT_S"]

HERE = Path(__file__).resolve().parent
SYSTEM_PYTHON = "/usr/bin/python3"
#: Bound on Orca's start (seconds).
START_TIMEOUT_S = 60.0
#: Default bound on waiting for an utterance (seconds).
SAY_TIMEOUT_S = 20.0
#: The line Orca logs once its event loop is about to run (orca.py ``main``).
_READY = "ORCA: Starting ATSPI registry."
#: One logged utterance: ``HH:MM:SS.ffffff - SPEECH OUTPUT: 'text'`` then an optional voice name
#: and the voice (a dict); lines of a multi-line text go on indented by 18 spaces.
_ENTRY = re.compile(r"^\d\d:\d\d:\d\d\.\d+ - ", re.MULTILINE)
_SPEECH = re.compile(r"SPEECH OUTPUT: '(.*?)'(?: voice=\S+)?(?:\{.*\})?\s*\Z", re.DOTALL)


class Orca:
    """Debian's Orca (``/usr/bin/orca``) on ``env``'s ``DISPLAY`` and D-Bus session, logging to
    ``workdir / "orca-debug.out"``. :meth:`start` waits until it listens; :meth:`stop` ends it."""

    def __init__(self, env: dict[str, str], workdir: Path):
        self.workdir = workdir
        self.log = workdir / "orca-debug.out"
        self.output = workdir / "orca-output.txt"
        home = workdir / "orca-home"
        (home / "prefs").mkdir(parents=True)
        self.env = dict(
            env,
            HOME=str(home),
            XDG_CONFIG_HOME=str(home / "config"),
            XDG_DATA_HOME=str(home / "data"),
            XDG_CACHE_HOME=str(home / "cache"),
            GSETTINGS_BACKEND="memory",
            LANG="C.UTF-8",
            LANGUAGE="",
        )
        self.prefs = home / "prefs"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Orca:
        """Start Orca and wait (bounded) until its event loop runs; fails the test with Orca's
        own words when it cannot."""
        if not Path("/usr/bin/orca").exists() or not Path(SYSTEM_PYTHON).exists():
            pytest.fail("Orca is missing (/usr/bin/orca): scripts/setup.sh installs the orca package as root")
        argv = [
            SYSTEM_PYTHON,
            str(HERE / "orca_launch.py"),
            "--debug",
            f"--debug-file={self.log}",
            f"--user-prefs={self.prefs}",
            "--disable=speech,braille,sound",  # no speech server, no braille display, no sound
        ]
        with open(self.output, "wb") as out:
            self.proc = subprocess.Popen(argv, env=self.env, stdin=subprocess.DEVNULL, stdout=out, stderr=out)
        deadline = time.monotonic() + START_TIMEOUT_S
        while _READY not in self._log_text():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                said = self.output.read_text(errors="replace")[-2000:]
                self.stop()
                pytest.fail(f"Orca did not start (exit {self.proc.returncode}): {said}\n{self._log_text()[-3000:]}")
            time.sleep(0.02)  # bounded poll of Orca's debug log for its event loop
        return self

    def stop(self) -> None:
        """End Orca (SIGTERM, killed after 30 s)."""
        if self.proc is not None:
            stop_processes(self.proc)

    def _log_text(self) -> str:
        try:
            return self.log.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def spoken(self) -> list[str]:
        """Everything Orca would have said so far, one string per utterance, in order."""
        said = []
        for entry in _ENTRY.split(self._log_text()):
            match = _SPEECH.match(entry.replace("\n" + " " * 18, "\n"))
            if match:
                said.append(match.group(1))
        return said

    def mark(self) -> int:
        """How many utterances there are now: pass it to :meth:`wait_for` as ``since``."""
        return len(self.spoken())

    def wait_for(self, expected: str, since: int = 0, timeout_s: float = SAY_TIMEOUT_S) -> list[str]:
        """Wait (bounded poll) until Orca has said exactly ``expected`` (one whole utterance)
        after the first ``since`` utterances; returns those utterances. Raises
        ``AssertionError`` listing what it did say when it does not within ``timeout_s``."""
        deadline = time.monotonic() + timeout_s
        while True:
            said = self.spoken()[since:]
            if expected in said:
                return said
            if time.monotonic() > deadline:
                raise AssertionError(f"Orca never said {expected!r}; it said: {said!r}")
            time.sleep(0.02)  # bounded poll of Orca's debug log


@dataclass
class OrcaDesktop:
    """What :func:`orca_desktop` yields: ``env`` (``DISPLAY`` and ``DBUS_SESSION_BUS_ADDRESS``
    of this desktop, for xdotool), the tray app's socket ``sock``, and ``orca``; ``seen``: the
    dialog windows :meth:`new_window` has returned (window ids are per X server)."""

    env: dict[str, str]
    sock: Path
    orca: Orca
    seen: set[str] = field(default_factory=set)

    def xdotool(self, *args: str) -> str:
        """Run ``xdotool ARGS`` on this desktop; its standard output."""
        run = subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True, timeout=30)
        return run.stdout

    def new_window(self, title_part: str = "— elicit-tray") -> str:
        """The id of a dialog window mapped on this desktop that was never returned before,
        waiting (bounded poll) for it."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            fresh = [
                w for w in self.xdotool("search", "--onlyvisible", "--name", title_part).split() if w not in self.seen
            ]
            if fresh:
                self.seen.add(fresh[0])
                return fresh[0]
            time.sleep(0.02)  # bounded poll of the X server for the window to map
        raise AssertionError("the dialog window did not appear")

    def go_to(self, window: str) -> None:
        """The user goes to ``window`` (the window switcher's request after a nudge of the
        pointer, as :func:`~tests.integration.xwindows.engage` does) without pressing a key."""
        self.xdotool("mousemove_relative", "--", "1", "0")
        self.xdotool("windowactivate", "--sync", window)


@contextmanager
def orca_desktop(*serve_args: str) -> Iterator[OrcaDesktop]:
    """A desktop of its own with Orca and the tray app (``serve --arm-delay-ms 0`` plus
    ``serve_args``) on it; everything is stopped afterwards. The tray app must exit with 0."""
    for tool in ("dbus-daemon", "xdotool"):
        if not shutil.which(tool):
            pytest.fail(f"{tool} is missing: scripts/setup.sh installs it")
    if not Path("/usr/libexec/at-spi-bus-launcher").exists():
        pytest.fail("at-spi-bus-launcher is missing: scripts/setup.sh installs at-spi2-core")
    workdir = short_tmpdir()
    started: list[subprocess.Popen[bytes]] = []
    orca: Orca | None = None
    try:
        desktop, display = own_x_desktop("openbox", workdir / "openbox.log")
        started += desktop
        env = dict(os.environ, DISPLAY=display)
        env.pop("XAUTHORITY", None)
        daemon = subprocess.Popen(
            ["dbus-daemon", "--session", "--nofork", "--print-address=1"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        started.insert(0, daemon)
        assert daemon.stdout is not None
        env["DBUS_SESSION_BUS_ADDRESS"] = daemon.stdout.readline().decode().strip()
        daemon.stdout.close()
        launcher = subprocess.Popen(
            ["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        started.insert(0, launcher)
        orca = Orca(env, workdir).start()
        app_env = {
            "DISPLAY": display,
            "DBUS_SESSION_BUS_ADDRESS": env["DBUS_SESSION_BUS_ADDRESS"],
            "QT_QPA_PLATFORM": "xcb",
            "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1",
            "NO_AT_BRIDGE": "0",
            "LANG": "C.UTF-8",
            "LANGUAGE": "",
        }
        tray = TrayProcess(
            workdir / "socket", None, workdir=workdir, extra_args=("--arm-delay-ms", "0", *serve_args), env=app_env
        ).start()
        try:
            yield OrcaDesktop(env, tray.sock, orca)
        finally:
            assert tray.stop() == 0, tray.stderr
    finally:
        if orca is not None:
            orca.stop()
        stop_processes(*started)
        shutil.rmtree(workdir, ignore_errors=True)
