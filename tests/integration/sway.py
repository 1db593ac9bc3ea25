"""A headless Wayland desktop for the real-window tests: sway (wlroots) with foot as the other
application and wtype for keys, run as an unprivileged user the tests create (sway refuses to run
as root), with its own ``XDG_RUNTIME_DIR`` (0700) and D-Bus session.

The tray app and every requester run as that user too (the tray refuses another user's
connection). They use ``.venv-wayland``, a virtual environment on the system Python that
``scripts/setup.sh`` makes (the user cannot read an interpreter under a 0700 ``/root``). One
virtual keyboard stays open for the whole session: with none on the seat, each ``wtype`` run
adds and removes one, and Qt loses key presses while the window flips active and inactive.
"""

from __future__ import annotations

import json
import os
import pwd
import select
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
USER = "elicit-tray-test"
VENV_PYTHON = REPO / ".venv-wayland" / "bin" / "python"
#: Sent by the test user: one request, then the reply line (or nothing) on stdout.
_REQUESTER = r"""
import json, socket, sys
conn = socket.socket(socket.AF_UNIX)
conn.connect(sys.argv[1])
conn.sendall(sys.argv[2].encode() + b"\n")
print("sent", flush=True)
print(conn.makefile("rb").readline().decode().strip(), flush=True)
"""


def _user() -> pwd.struct_passwd:
    try:
        return pwd.getpwnam(USER)
    except KeyError:
        subprocess.run(["useradd", "-m", "-s", "/bin/sh", USER], check=True, capture_output=True, timeout=60)
        return pwd.getpwnam(USER)


class Sway:
    """One headless sway session: run commands as its user (:meth:`run`, :meth:`spawn`), the
    window tree, keys (:meth:`type`, :meth:`key`), the tray app's socket, the terminal's file."""

    def __init__(self, folder: Path, user: pwd.struct_passwd):
        self.folder = folder
        self.user = user
        self.env = {
            "HOME": user.pw_dir,
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "XDG_RUNTIME_DIR": str(folder),
            "WAYLAND_DISPLAY": "wayland-1",
            "LANG": "C.UTF-8",
        }
        self.socket = folder / "tray" / "socket"
        self.typed = folder / "typed.txt"
        self._processes: list[subprocess.Popen[bytes]] = []

    def _argv(self, argv: list[str]) -> list[str]:
        env = [f"{k}={v}" for k, v in self.env.items()]
        return ["runuser", "-u", self.user.pw_name, "--", "env", "-i", *env, *argv]

    def spawn(self, argv: list[str], **kwargs) -> subprocess.Popen[bytes]:
        kwargs.setdefault("stdout", subprocess.DEVNULL)
        kwargs.setdefault("stderr", subprocess.DEVNULL)
        process = subprocess.Popen(self._argv(argv), **kwargs)
        self._processes.append(process)
        return process

    def run(self, *argv: str) -> str:
        return subprocess.run(self._argv(list(argv)), capture_output=True, text=True, timeout=60, check=True).stdout

    # -- the desktop --------------------------------------------------------------------------
    def windows(self) -> list[dict]:
        """Every application window: app_id, focused, floating, width, height."""
        found: list[dict] = []

        def walk(node: dict, floating: bool) -> None:
            if node.get("app_id"):
                found.append(
                    {
                        "app_id": node["app_id"],
                        "focused": node.get("focused", False),
                        "floating": floating,
                        "width": node["rect"]["width"],
                        "height": node["rect"]["height"],
                    }
                )
            for child in node.get("nodes", []):
                walk(child, floating)
            for child in node.get("floating_nodes", []):
                walk(child, True)

        walk(json.loads(self.run("swaymsg", "-t", "get_tree")), False)
        return found

    def focused(self) -> str | None:
        return next((w["app_id"] for w in self.windows() if w["focused"]), None)

    def wait_for(self, predicate, what: str) -> None:
        deadline = time.monotonic() + 30
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"sway: {what} did not happen: {self.windows()}")
            time.sleep(0.02)  # bounded poll of the compositor's window tree

    def dialogs(self) -> int:
        return sum(w["app_id"] == "elicit-tray" for w in self.windows())

    def type(self, text: str, delay_ms: int = 40) -> None:
        self.run("wtype", "-d", str(delay_ms), text)

    def key(self, *keys: str) -> None:
        """Each key (``Return``, ``ctrl+shift+Return``, ``alt+d``) pressed and released."""
        for key in keys:
            *mods, name = key.split("+")
            argv = ["wtype"]
            for mod in mods:
                argv += ["-M", mod]
            argv += ["-k", name]
            for mod in reversed(mods):
                argv += ["-m", mod]
            self.run(*argv)

    def focus(self, app_id: str) -> None:
        """What the user's focus binding does."""
        self.run("swaymsg", f'[app_id="{app_id}"] focus')

    def received(self) -> str:
        """What reached the terminal's program (``cat``, in raw mode: every byte at once)."""
        return self.typed.read_text(encoding="utf-8") if self.typed.exists() else ""

    def ask(self, params: dict, request_id: int = 1) -> Requester:
        """Send ``elicitation/create`` as the user; returns once its dialog is on screen."""
        before = self.dialogs()
        line = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "elicitation/create", "params": params})
        process = self.spawn([str(VENV_PYTHON), "-c", _REQUESTER, str(self.socket), line], stdout=subprocess.PIPE)
        requester = Requester(process)
        self.wait_for(lambda: self.dialogs() > before, "the dialog's window")
        return requester

    def stop(self) -> None:
        """End every process it started, reaped, with their pipes closed."""
        for process in reversed(self._processes):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=10)
            if process.stdout is not None:
                process.stdout.close()


class Requester:
    """A requester process of the test user: its reply, once it comes."""

    def __init__(self, process: subprocess.Popen[bytes]):
        self.process = process
        assert process.stdout is not None
        self.stdout = process.stdout
        assert self.stdout.readline().strip() == b"sent"

    def nothing_yet(self) -> bool:
        return not select.select([self.stdout], [], [], 0)[0]

    def reply(self) -> dict:
        if not select.select([self.stdout], [], [], 30)[0]:
            raise AssertionError("no reply within 30 s")
        return json.loads(self.stdout.readline())


@contextmanager
def sway_desktop(*tray_args: str) -> Iterator[Sway]:
    """A headless sway with a long-lived virtual keyboard, foot running ``cat`` into
    :attr:`Sway.typed` (focused), and the tray app on the wayland platform. Fails (never skips)
    when something it needs is missing."""
    if os.geteuid() != 0:
        pytest.fail("the sway tests create an unprivileged user: run them as root (CI does)")
    for tool in ("sway", "foot", "wtype", "swaymsg", "dbus-run-session", "runuser"):
        if not shutil.which(tool):
            pytest.fail(f"{tool} is missing: scripts/setup.sh installs it")
    if not VENV_PYTHON.exists():
        pytest.fail(f"{VENV_PYTHON} is missing: scripts/setup.sh makes it")
    user = _user()
    folder = Path(f"/tmp/et-sway-{os.getpid()}-{time.monotonic_ns()}")
    folder.mkdir(mode=0o700)
    (folder / "tray").mkdir(mode=0o700)
    for path in (folder, folder / "tray"):
        os.chown(path, user.pw_uid, user.pw_gid)
    config = folder / "config"
    config.write_text("xwayland disable\noutput HEADLESS-1 resolution 1280x800\n", encoding="utf-8")
    os.chown(config, user.pw_uid, user.pw_gid)
    desktop = Sway(folder, user)
    desktop.env.update({"WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman"})
    log = open(folder / "sway.log", "wb")
    desktop.spawn(["dbus-run-session", "--", "sway", "-c", str(config)], stderr=log)
    try:
        deadline = time.monotonic() + 30
        while not (sockets := sorted(folder.glob("sway-ipc.*.sock"))) or not (folder / "wayland-1").exists():
            if time.monotonic() > deadline:
                raise AssertionError("sway did not start: " + (folder / "sway.log").read_text(errors="replace")[-2000:])
            time.sleep(0.02)  # bounded poll for the compositor's sockets
        desktop.env["SWAYSOCK"] = str(sockets[0])
        desktop.spawn(["wtype", "-s", "4000000", "-k", "F24"])  # the long-lived keyboard (see above)
        desktop.spawn(["foot", "-a", "term", "sh", "-c", f"stty -echo raw; cat > {desktop.typed}"])
        desktop.wait_for(lambda: desktop.focused() == "term", "foot's window")
        tray_log = open(folder / "tray.log", "wb")
        tray_env = [
            "QT_QPA_PLATFORM=wayland",
            "ELICIT_TRAY_LOG=off",
            "ELICIT_TRAY_HISTORY=off",
            "ELICIT_TRAY_CONFIG=/dev/null",
        ]
        desktop.spawn(
            [
                "env",
                *tray_env,
                str(VENV_PYTHON),
                "-m",
                "elicit_tray",
                "--socket",
                str(desktop.socket),
                "serve",
                *tray_args,
            ],
            stderr=tray_log,
        )
        deadline = time.monotonic() + 30
        while "listening on" not in (folder / "tray.log").read_text(errors="replace"):
            if time.monotonic() > deadline:
                raise AssertionError("the tray app did not start: " + (folder / "tray.log").read_text(errors="replace"))
            time.sleep(0.02)  # bounded poll of its stderr for "listening on"
        yield desktop
    finally:
        desktop.stop()
        log.close()
        if "tray_log" in locals():
            tray_log.close()
        shutil.rmtree(folder, ignore_errors=True)
