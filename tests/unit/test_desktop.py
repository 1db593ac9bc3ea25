"""Desktop integration files (:mod:`elicit_tray.desktop`) and versioning from one place: what
``install-desktop`` writes where, what ``uninstall-desktop`` removes, "Start at login", and the
copies under ``packaging/`` staying identical to what the code renders. No Qt, temporary homes."""

from __future__ import annotations

import importlib.metadata
import os
import plistlib
import re
import sys
import tomllib
from pathlib import Path

import pytest

from elicit_tray import __version__, desktop

REPO = Path(__file__).resolve().parents[2]
LINUX = REPO / "packaging" / "linux"
NAMES = [desktop.DESKTOP_ID, desktop.AUTOSTART_ID, desktop.SOCKET_UNIT, desktop.SERVICE_UNIT, desktop.METAINFO_NAME]


@pytest.fixture
def home(tmp_path: Path) -> dict[str, str]:
    """An environment whose XDG directories are all inside ``tmp_path``."""
    return {
        "HOME": str(tmp_path / "home"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_CONFIG_DIRS": str(tmp_path / "etc-xdg"),
    }


def files_under(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file() or p.is_symlink()}


@pytest.mark.parametrize("name", NAMES)
def test_the_packaging_files_are_what_the_code_renders_for_elicit_tray_on_path(name):
    assert (LINUX / name).read_text(encoding="utf-8") == desktop.render(name, ["elicit-tray"])


def test_the_hicolor_icon_is_the_package_icon():
    assert (LINUX / "icons" / "hicolor" / "scalable" / "apps" / "elicit-tray.svg").read_bytes() == desktop.icon_svg()
    assert (REPO / "src" / "elicit_tray" / "resources" / "icons" / "elicit-tray.svg").read_bytes() == desktop.icon_svg()


def test_the_socket_unit_owns_a_private_socket_at_the_default_path_and_the_service_serves():
    socket_unit = desktop.render(desktop.SOCKET_UNIT)
    for line in (
        "ListenStream=%t/elicit-tray/socket",
        "SocketMode=0600",
        "DirectoryMode=0700",
        "WantedBy=sockets.target",
    ):
        assert line in socket_unit.splitlines()
    service = desktop.render(desktop.SERVICE_UNIT, ["/opt/et/bin/elicit-tray"]).splitlines()
    assert "ExecStart=/opt/et/bin/elicit-tray serve" in service
    assert "Requires=elicit-tray.socket" in service
    autostart = desktop.render(desktop.AUTOSTART_ID).splitlines()
    assert "Exec=elicit-tray serve" in autostart and "X-GNOME-Autostart-enabled=true" in autostart


def test_install_writes_the_plan_with_this_installations_command_and_uninstall_removes_exactly_it(home, tmp_path):
    argv = ["/opt/et/bin/elicit-tray"]
    foreign = Path(home["XDG_DATA_HOME"]) / "applications" / "other.desktop"
    foreign.parent.mkdir(parents=True)
    foreign.write_text("[Desktop Entry]\n")
    written = desktop.install(home, argv)
    data, config = Path(home["XDG_DATA_HOME"]), Path(home["XDG_CONFIG_HOME"])
    assert set(written) == {
        data / "applications" / "elicit-tray.desktop",
        data / "icons" / "hicolor" / "scalable" / "apps" / "elicit-tray.svg",
        data / "metainfo" / "io.github.elicit_tray.metainfo.xml",
        config / "systemd" / "user" / "elicit-tray.socket",
        config / "systemd" / "user" / "elicit-tray.service",
    }
    assert files_under(tmp_path) == set(written) | {foreign}
    assert "Exec=/opt/et/bin/elicit-tray serve" in (data / "applications" / "elicit-tray.desktop").read_text()
    assert (
        "ExecStart=/opt/et/bin/elicit-tray serve" in (config / "systemd" / "user" / "elicit-tray.service").read_text()
    )
    assert all(os.stat(p).st_mode & 0o777 == 0o644 for p in written)
    assert desktop.install(home, argv) == written  # again: replaces, adds nothing
    assert files_under(tmp_path) == set(written) | {foreign}

    desktop.set_autostart(True, home, argv)
    wants = config / "systemd" / "user" / "sockets.target.wants" / "elicit-tray.socket"
    wants.parent.mkdir()
    wants.symlink_to("../elicit-tray.socket")  # what systemctl --user enable makes
    removed = desktop.uninstall(home)
    assert set(removed) == set(written) | {desktop.autostart_path(home), wants}
    assert files_under(tmp_path) == {foreign}
    assert desktop.uninstall(home) == []


def test_relative_xdg_variables_are_ignored_as_the_specification_says(tmp_path):
    env = {"HOME": str(tmp_path), "XDG_DATA_HOME": "relative/data", "XDG_CONFIG_HOME": ""}
    assert desktop.data_home(env) == tmp_path / ".local" / "share"
    assert desktop.config_home(env) == tmp_path / ".config"


def exec_args(value: str) -> list[str]:
    """Split an (unescaped) Exec value into arguments: spaces separate, double quotes group, and
    inside them a backslash escapes the next character (Desktop Entry Specification)."""
    args, current, quoted, chars = [], "", False, iter(value)
    for c in chars:
        if quoted and c == "\\":
            current += next(chars)
        elif c == '"':
            quoted = not quoted
        elif c == " " and not quoted:
            args.append(current)
            current = ""
        else:
            current += c
    return [*args, current]


def test_exec_lines_quote_paths_with_spaces_percent_and_dollar():
    argv = ["/home/a b/100%/$x/elicit-tray"]
    line = next(ln for ln in desktop.render(desktop.DESKTOP_ID, argv).splitlines() if ln.startswith("Exec="))
    assert line == 'Exec="/home/a b/100%%/\\\\$x/elicit-tray" serve'
    # Read back as the specification says: unescape the string, expand %%, then split the quoting.
    value = line[len("Exec=") :].replace("\\\\", "\\").replace("%%", "%")
    assert exec_args(value) == [*argv, "serve"]
    unit = desktop.render(desktop.SERVICE_UNIT, argv).splitlines()
    assert 'ExecStart="/home/a b/100%%/$$x/elicit-tray" serve' in unit


def test_start_at_login_writes_and_removes_the_users_autostart_entry(home):
    assert not desktop.autostart_enabled(home)
    path = desktop.set_autostart(True, home, ["/opt/et/bin/elicit-tray"])
    assert path == Path(home["XDG_CONFIG_HOME"]) / "autostart" / "elicit-tray-autostart.desktop"
    assert "Exec=/opt/et/bin/elicit-tray serve" in path.read_text()
    assert desktop.autostart_enabled(home)
    desktop.set_autostart(False, home)
    assert not path.exists() and not desktop.autostart_enabled(home)


def test_start_at_login_overrides_a_system_wide_entry_with_hidden(home):
    system = Path(home["XDG_CONFIG_DIRS"]) / "autostart" / "elicit-tray-autostart.desktop"
    system.parent.mkdir(parents=True)
    system.write_text(desktop.render(desktop.AUTOSTART_ID))
    assert desktop.autostart_enabled(home)  # the distribution's entry applies
    path = desktop.set_autostart(False, home, ["/opt/et/bin/elicit-tray"])
    assert "Hidden=true" in path.read_text().splitlines()
    assert not desktop.autostart_enabled(home) and system.exists()
    desktop.set_autostart(True, home, ["/opt/et/bin/elicit-tray"])
    assert desktop.autostart_enabled(home)


def test_a_user_entry_switched_off_by_the_desktop_counts_as_off(home):
    path = desktop.set_autostart(True, home, ["elicit-tray"])
    path.write_text(path.read_text().replace("X-GNOME-Autostart-enabled=true", "X-GNOME-Autostart-enabled=false"))
    assert not desktop.autostart_enabled(home)


def test_the_command_is_the_console_script_of_this_installation():
    command = desktop.command()
    if (Path(sys.executable).parent / "elicit-tray").is_file():
        assert command == [os.path.abspath(Path(sys.executable).parent / "elicit-tray")]
    assert os.path.isabs(command[0])


# Versioning from one place: elicit_tray.__version__, which pyproject.toml reads.


def pyproject_version() -> str:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "elicit_tray.__version__"}
    return __version__


def test_the_package_metainfo_changelog_and_info_plist_name_the_pyproject_version():
    version = pyproject_version()
    assert __version__ == version
    assert importlib.metadata.version("elicit-tray") == version  # the installed metadata agrees
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    top = re.search(r"^## \[(\d[^\]]*)\] - (\d{4}-\d\d-\d\d)$", changelog, re.M)
    assert top is not None and top.groups() == (version, desktop.RELEASE_DATE)
    assert f'<release version="{version}" date="{desktop.RELEASE_DATE}"/>' in desktop.render(desktop.METAINFO_NAME)
    plist = plistlib.loads((REPO / "packaging" / "macos" / "Info.plist").read_bytes())
    assert plist["CFBundleShortVersionString"] == version and plist["LSUIElement"] is True
