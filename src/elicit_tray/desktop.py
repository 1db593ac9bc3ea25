"""Desktop integration on Linux (freedesktop.org and systemd): the files that make elicit-tray
a desktop app, for ``elicit-tray install-desktop`` / ``uninstall-desktop`` and the tray menu's
"Start at login".

Pure Python, no Qt. Every file is rendered here from one template, so the copies under
``packaging/linux/`` (for distribution packages, ``Exec=elicit-tray``) are exactly what
:func:`render` gives for ``("elicit-tray",)``; a test keeps them identical. A user install
points ``Exec``/``ExecStart`` at this installation's absolute command (:func:`command`).

Where the files go (XDG Base Directory; ``$XDG_DATA_HOME`` and ``$XDG_CONFIG_HOME`` honoured):

- ``<data>/applications/elicit-tray.desktop``: the launcher (desktop entry)
- ``<data>/icons/hicolor/scalable/apps/elicit-tray.svg``: the icon (the package's own)
- ``<data>/metainfo/io.github.elicit_tray.metainfo.xml``: AppStream metadata
- ``<config>/systemd/user/elicit-tray.socket`` and ``elicit-tray.service``: socket activation
  (the socket unit owns ``%t/elicit-tray/socket``, i.e. ``$XDG_RUNTIME_DIR/elicit-tray/socket``,
  and starts the app on the first connection; the app adopts it, see
  :func:`elicit_tray.ipc.server.listen_fds`)
- ``<config>/autostart/elicit-tray-autostart.desktop``: only while "Start at login" is on
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path

from . import __version__

__all__ = [
    "APP_ID",
    "DESKTOP_ID",
    "AUTOSTART_ID",
    "METAINFO_NAME",
    "SOCKET_UNIT",
    "SERVICE_UNIT",
    "RELEASE_DATE",
    "command",
    "render",
    "icon_svg",
    "install_plan",
    "install",
    "uninstall",
    "autostart_path",
    "autostart_enabled",
    "set_autostart",
    "data_home",
    "config_home",
]

#: AppStream component id (reverse DNS; the project has no domain of its own).
APP_ID = "io.github.elicit_tray"
#: Desktop file id; the app also calls ``QGuiApplication.setDesktopFileName("elicit-tray")``.
DESKTOP_ID = "elicit-tray.desktop"
#: Autostart entry; a user file of this name overrides one in ``$XDG_CONFIG_DIRS/autostart``.
AUTOSTART_ID = "elicit-tray-autostart.desktop"
METAINFO_NAME = f"{APP_ID}.metainfo.xml"
SOCKET_UNIT = "elicit-tray.socket"
SERVICE_UNIT = "elicit-tray.service"
ICON_NAME = "elicit-tray.svg"
#: Date of the release named by the package version (CHANGELOG.md has the same; a test checks).
RELEASE_DATE = "2026-11-29"

_COMMENT = "Answer the questions MCP servers ask, in native dialogs"

_DESKTOP = """\
[Desktop Entry]
Type=Application
Name=elicit-tray
GenericName=MCP elicitation dialogs
Comment={comment}
Exec={exec} serve
Icon=elicit-tray
Terminal=false
Categories=Utility;
Keywords=MCP;elicitation;dialog;consent;
StartupNotify=false
"""

_AUTOSTART = """\
[Desktop Entry]
Type=Application
Name=elicit-tray
Comment={comment}
Exec={exec} serve
Icon=elicit-tray
Terminal=false
NoDisplay=true
X-GNOME-Autostart-enabled=true
"""

_SOCKET = """\
# systemd user unit: owns the IPC socket and starts elicit-tray.service on the first connection.
# Enable with: systemctl --user enable --now elicit-tray.socket
[Unit]
Description=elicit-tray IPC socket (MCP elicitation dialogs)
Documentation=man:systemd.socket(5)

[Socket]
ListenStream=%t/elicit-tray/socket
SocketMode=0600
DirectoryMode=0700
Backlog=256

[Install]
WantedBy=sockets.target
"""

_SERVICE = """\
# systemd user unit, started by elicit-tray.socket; the app adopts the socket it is passed
# (LISTEN_FDS) and leaves it in place when it quits, so the next connection starts it again.
# It needs the graphical session's DISPLAY/WAYLAND_DISPLAY in the user manager's environment
# (GNOME and KDE import them; elsewhere: systemctl --user import-environment DISPLAY WAYLAND_DISPLAY).
[Unit]
Description=elicit-tray: native dialogs for MCP elicitations
Documentation=man:systemd.service(5)
Requires=elicit-tray.socket
After=elicit-tray.socket graphical-session.target
PartOf=graphical-session.target

[Service]
Type=simple
ExecStart={exec} serve
Restart=on-failure
"""

_METAINFO = """\
<?xml version="1.0" encoding="UTF-8"?>
<component type="desktop-application">
  <id>{app_id}</id>
  <metadata_license>CC0-1.0</metadata_license>
  <name>elicit-tray</name>
  <summary>Answer the questions MCP servers ask, in native dialogs</summary>
  <description>
    <p>
      When an MCP server needs a human decision in the middle of a tool call, it sends an
      elicitation. elicit-tray receives it from your local MCP client over a private socket and
      shows a native, accessible dialog: a form with one widget per field, or a consent dialog
      for a web address that shows who asks and warns about look-alike hosts.
    </p>
    <ul>
      <li>Form and URL requests, validated before anything is sent</li>
      <li>Keyboard and screen-reader friendly; follows the system palette and language</li>
      <li>Lives in the system tray and serves many clients at once</li>
    </ul>
  </description>
  <launchable type="desktop-id">{desktop_id}</launchable>
  <provides>
    <binary>elicit-tray</binary>
  </provides>
  <categories>
    <category>Utility</category>
  </categories>
  <content_rating type="oars-1.1"/>
  <releases>
    <release version="{version}" date="{date}"/>
  </releases>
</component>
"""

#: Characters that make an Exec argument need quoting (Desktop Entry Specification, "Exec key").
_DESKTOP_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


def data_home(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME`` when set to an absolute path, else ``~/.local/share``."""
    env = os.environ if env is None else env
    value = env.get("XDG_DATA_HOME", "")
    return Path(value) if os.path.isabs(value) else _home(env) / ".local" / "share"


def config_home(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_CONFIG_HOME`` when set to an absolute path, else ``~/.config``."""
    env = os.environ if env is None else env
    value = env.get("XDG_CONFIG_HOME", "")
    return Path(value) if os.path.isabs(value) else _home(env) / ".config"


def _config_dirs(env: Mapping[str, str]) -> list[Path]:
    dirs = [Path(d) for d in env.get("XDG_CONFIG_DIRS", "").split(":") if os.path.isabs(d)]
    return dirs or [Path("/etc/xdg")]


def _home(env: Mapping[str, str]) -> Path:
    return Path(env["HOME"]) if env.get("HOME") else Path.home()


def command() -> list[str]:
    """The absolute command line that starts this installation's ``elicit-tray``.

    A frozen bundle is its own executable; a venv or pipx install has the console script next to
    its Python; otherwise ``elicit-tray`` on ``PATH``; as a last resort ``python -m elicit_tray``.
    """
    if getattr(sys, "frozen", False):
        return [os.path.abspath(sys.executable)]
    beside = Path(sys.executable).parent / "elicit-tray"
    if beside.is_file() and os.access(beside, os.X_OK):
        return [os.path.abspath(beside)]
    found = shutil.which("elicit-tray")
    if found:
        return [os.path.abspath(found)]
    return [os.path.abspath(sys.executable), "-m", "elicit_tray"]


def _desktop_arg(arg: str) -> str:
    """One Exec argument (quoted per the spec when needed), escaped as a desktop-file string."""
    arg = arg.replace("%", "%%")
    if _DESKTOP_RESERVED & set(arg):
        arg = '"' + "".join("\\" + c if c in '"`$\\' else c for c in arg) + '"'
    return arg.replace("\\", "\\\\")  # the value is a string: a backslash is written twice


def _systemd_arg(arg: str) -> str:
    """One ExecStart argument: specifiers (%) and variables ($) kept literal, quoted when needed."""
    arg = arg.replace("%", "%%").replace("$", "$$")
    if any(c in arg for c in " \t\"'\\;"):
        arg = '"' + arg.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return arg


def render(name: str, argv: Sequence[str] = ("elicit-tray",)) -> str:
    """The text of the packaging file ``name`` (a key of :func:`install_plan`'s file names) whose
    ``Exec``/``ExecStart`` runs ``argv``. Raises ``KeyError`` for an unknown name."""
    if name == DESKTOP_ID:
        return _DESKTOP.format(comment=_COMMENT, exec=" ".join(_desktop_arg(a) for a in argv))
    if name == AUTOSTART_ID:
        return _AUTOSTART.format(comment=_COMMENT, exec=" ".join(_desktop_arg(a) for a in argv))
    if name == SOCKET_UNIT:
        return _SOCKET
    if name == SERVICE_UNIT:
        return _SERVICE.format(exec=" ".join(_systemd_arg(a) for a in argv))
    if name == METAINFO_NAME:
        return _METAINFO.format(app_id=APP_ID, desktop_id=DESKTOP_ID, version=__version__, date=RELEASE_DATE)
    raise KeyError(name)


def icon_svg() -> bytes:
    """The app icon shipped in the package (``importlib.resources``)."""
    return (resources.files("elicit_tray") / "resources" / "icons" / ICON_NAME).read_bytes()


def install_plan(env: Mapping[str, str] | None = None, argv: Sequence[str] | None = None) -> dict[Path, bytes]:
    """What ``install-desktop`` writes: absolute path -> content (the autostart entry is not
    part of it; see :func:`set_autostart`)."""
    argv = command() if argv is None else list(argv)
    data, config = data_home(env), config_home(env)
    text = {
        data / "applications" / DESKTOP_ID: render(DESKTOP_ID, argv),
        data / "metainfo" / METAINFO_NAME: render(METAINFO_NAME, argv),
        config / "systemd" / "user" / SOCKET_UNIT: render(SOCKET_UNIT, argv),
        config / "systemd" / "user" / SERVICE_UNIT: render(SERVICE_UNIT, argv),
    }
    plan = {path: content.encode("utf-8") for path, content in text.items()}
    plan[data / "icons" / "hicolor" / "scalable" / "apps" / ICON_NAME] = icon_svg()
    return plan


def _write(path: Path, content: bytes) -> None:
    """Write ``content`` atomically (a temporary file renamed over ``path``), mode 0644."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(content)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)


def install(env: Mapping[str, str] | None = None, argv: Sequence[str] | None = None) -> list[Path]:
    """Write every file of :func:`install_plan` (replacing older copies); returns the paths."""
    plan = install_plan(env, argv)
    for path, content in plan.items():
        _write(path, content)
    return list(plan)


def uninstall(env: Mapping[str, str] | None = None) -> list[Path]:
    """Remove what :func:`install` and :func:`set_autostart` wrote, and the ``sockets.target.wants``
    link ``systemctl --user enable`` made for the socket unit; returns the paths removed."""
    targets = list(install_plan(env, ["elicit-tray"])) + [autostart_path(env)]
    socket_unit = config_home(env) / "systemd" / "user" / SOCKET_UNIT
    wants = socket_unit.parent / "sockets.target.wants" / SOCKET_UNIT
    if wants.is_symlink() and Path(os.path.normpath(os.path.join(wants.parent, os.readlink(wants)))) == socket_unit:
        targets.append(wants)
    removed = []
    for path in targets:
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        removed.append(path)
    return removed


def autostart_path(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_CONFIG_HOME/autostart/elicit-tray-autostart.desktop``."""
    return config_home(env) / "autostart" / AUTOSTART_ID


def _entry_enabled(path: Path) -> bool:
    """An autostart file starts the app unless it says ``Hidden=true`` or
    ``X-GNOME-Autostart-enabled=false`` (in its ``[Desktop Entry]`` group)."""
    group = None
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        line = line.strip()
        if line.startswith("["):
            group = line
        elif group == "[Desktop Entry]" and "=" in line:
            key, value = (part.strip() for part in line.split("=", 1))
            if (key, value.lower()) in (("Hidden", "true"), ("X-GNOME-Autostart-enabled", "false")):
                return False
    return True


def _system_autostart(env: Mapping[str, str]) -> Path | None:
    for directory in _config_dirs(env):
        path = directory / "autostart" / AUTOSTART_ID
        if path.is_file():
            return path
    return None


def autostart_enabled(env: Mapping[str, str] | None = None) -> bool:
    """Whether the app starts at login (XDG Autostart: the user's file overrides a system one)."""
    env = os.environ if env is None else env
    user = autostart_path(env)
    if user.is_file():
        return _entry_enabled(user)
    system = _system_autostart(env)
    return system is not None and _entry_enabled(system)


def set_autostart(enabled: bool, env: Mapping[str, str] | None = None, argv: Sequence[str] | None = None) -> Path:
    """Turn "Start at login" on (write the user's autostart entry for ``argv``, default
    :func:`command`) or off (remove it; write ``Hidden=true`` over a system-wide entry instead).
    Returns the user's autostart path. Raises ``OSError`` when it cannot be written."""
    env = os.environ if env is None else env
    path = autostart_path(env)
    if enabled:
        _write(path, render(AUTOSTART_ID, command() if argv is None else argv).encode("utf-8"))
    elif _system_autostart(env) is not None:
        _write(
            path,
            render(AUTOSTART_ID, command() if argv is None else argv)
            .replace("X-GNOME-Autostart-enabled=true", "Hidden=true")
            .encode("utf-8"),
        )
    else:
        path.unlink(missing_ok=True)
    return path
