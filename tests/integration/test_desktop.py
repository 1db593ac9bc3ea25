"""Installing like a desktop app: the wheel carries the runtime data, ``install-desktop`` /
``uninstall-desktop`` work through the real command with a temporary home, the installed and
packaged files pass the freedesktop and systemd validators where these exist, and the tray
menu's "Start at login" toggles the autostart entry."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from elicit_tray import __version__, desktop

REPO = Path(__file__).resolve().parents[2]
LINUX = REPO / "packaging" / "linux"
TIMEOUT_S = 120
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG desktop integration")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel ``pip wheel`` builds from the checkout (a few seconds)."""
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--disable-pip-version-check",
            "-q",
            "-w",
            str(out),
            str(REPO),
        ],
        check=True,
        capture_output=True,
        timeout=TIMEOUT_S,
    )
    (built,) = out.glob("elicit_tray-*.whl")
    return built


def test_the_wheel_carries_the_icon_translations_and_data_lists_and_no_test_data(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    res = "elicit_tray/resources/"
    assert {
        res + "icons/elicit-tray.svg",
        res + "icons/elicit-tray-pending.svg",
        res + "i18n/elicit_tray_de.qm",
        res + "data/top_domains.txt",
        res + "data/chromium_top_domains.txt",
        res + "data/whole_script_confusables.txt",
    } <= names
    shipped_data = {n for n in names if n.startswith(res + "data/")}
    source_data = {res + "data/" + p.name for p in (REPO / "src" / "elicit_tray" / "resources" / "data").iterdir()}
    assert source_data - shipped_data == {res + "data/chromium_idn_cases.tsv"}  # test data only
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "elicit-tray = elicit_tray.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()
    assert wheel.name.startswith(f"elicit_tray-{__version__}-")


def test_installed_from_the_wheel_the_package_finds_its_data_through_importlib_resources(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--disable-pip-version-check",
            "-q",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
        capture_output=True,
        timeout=TIMEOUT_S,
    )
    code = (
        "import elicit_tray, importlib.metadata as m; from elicit_tray import urlcheck, desktop; "
        "from elicit_tray.ui.i18n import available_languages; "
        "print(elicit_tray.__file__); print(m.version('elicit-tray')); print(available_languages()); "
        "print(urlcheck.analyze_url('https://xn--pple-43d.com/').verdict); print(len(desktop.icon_svg()) > 100)"
    )
    env = dict(os.environ, PYTHONPATH=str(target), QT_QPA_PLATFORM="offscreen")
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        env=env,
        cwd=tmp_path,
        check=True,
    ).stdout.splitlines()
    assert out[0].startswith(str(target))  # the wheel's copy, not the checkout
    assert out[1:] == [__version__, "['ar', 'de']", "warn", "True"]


def home_env(tmp_path: Path) -> dict[str, str]:
    env = dict(
        os.environ,
        HOME=str(tmp_path / "home"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_CONFIG_DIRS=str(tmp_path / "etc-xdg"),
    )
    return env


def elicit_tray(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "elicit_tray", *args], capture_output=True, text=True, timeout=TIMEOUT_S, env=env
    )


def test_install_desktop_and_uninstall_desktop_through_the_command(tmp_path):
    env = home_env(tmp_path)
    done = elicit_tray("install-desktop", "--user", "--autostart", env=env)
    assert done.returncode == 0, done.stderr
    installed = sorted(
        Path(line.split(" ", 1)[1]) for line in done.stdout.splitlines() if line.startswith("installed ")
    )
    expected = sorted([*desktop.install_plan(env), desktop.autostart_path(env)])
    assert installed == expected and all(p.is_file() for p in installed)
    assert all(str(p).startswith(str(tmp_path)) for p in installed)
    command = desktop.command()[0]
    assert f"Exec={command} serve" in (tmp_path / "data" / "applications" / "elicit-tray.desktop").read_text()
    assert os.access(command, os.X_OK)
    done = elicit_tray("uninstall-desktop", env=env)
    assert done.returncode == 0, done.stderr
    assert sorted(Path(line.split(" ", 1)[1]) for line in done.stdout.splitlines()) == expected
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []


def run_tool(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    if shutil.which(argv[0]) is None:
        pytest.fail(f"{argv[0]} is not installed (scripts/setup.sh installs it as root)")
    return subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT_S, env=env)


@pytest.mark.parametrize("name", [desktop.DESKTOP_ID, desktop.AUTOSTART_ID])
def test_the_desktop_entries_pass_desktop_file_validate(name, tmp_path):
    installed = desktop.data_home(home_env(tmp_path)) / "applications" / name
    installed.parent.mkdir(parents=True)
    installed.write_text(desktop.render(name, [str(tmp_path / "a b" / "elicit-tray")]))  # quoted Exec too
    for path in (LINUX / name, installed):
        done = run_tool("desktop-file-validate", str(path))
        assert (done.returncode, done.stdout + done.stderr) == (0, ""), path


def test_the_metainfo_passes_appstreamcli_validate(tmp_path):
    done = run_tool("appstreamcli", "validate", "--no-net", "--pedantic", str(LINUX / desktop.METAINFO_NAME))
    assert done.returncode == 0, done.stdout + done.stderr
    broken = tmp_path / desktop.METAINFO_NAME
    broken.write_text(
        desktop.render(desktop.METAINFO_NAME).replace("<summary>", "<summary>.").replace("<id>", "<id>Not a valid id ")
    )
    assert run_tool("appstreamcli", "validate", "--no-net", str(broken)).returncode != 0  # it does check


def test_the_installed_systemd_units_pass_systemd_analyze_verify(tmp_path):
    env = home_env(tmp_path)
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    env["XDG_RUNTIME_DIR"] = str(runtime)
    units = [p for p in desktop.install(env) if p.suffix in (".socket", ".service")]
    done = run_tool("systemd-analyze", "verify", "--user", *map(str, units), env=env)
    if "Failed to initialize manager" in done.stderr or "Failed to lookup RuntimeDirectory" in done.stderr:
        pytest.skip(f"systemd-analyze cannot run a user manager here: {done.stderr.strip()}")
    assert (done.returncode, done.stderr.strip()) == (0, "")
    bad = units[0].with_name("broken.socket")
    bad.write_text(desktop.render(desktop.SOCKET_UNIT).replace("ListenStream=", "ListenStreem="))
    assert run_tool("systemd-analyze", "verify", "--user", str(bad), env=env).returncode != 0  # it does check


def test_the_tray_menus_start_at_login_toggles_the_autostart_entry(qapp, monkeypatch, tmp_path):
    from elicit_tray.ui.presenter import Presenter
    from elicit_tray.ui.tray import Tray

    for key, value in home_env(tmp_path).items():
        if key.startswith(("XDG_", "HOME")):
            monkeypatch.setenv(key, value)
    icon = Tray(Presenter())

    def toggle():
        icon.rebuild()
        return next(a for a in icon.menu.actions() if a.text() == "&Start at login")

    action = toggle()
    assert action.isCheckable() and not action.isChecked()
    action.trigger()
    path = desktop.autostart_path()
    assert path == tmp_path / "config" / "autostart" / "elicit-tray-autostart.desktop"
    assert f"Exec={desktop.command()[0]} serve" in path.read_text()
    action = toggle()
    assert action.isChecked()
    action.trigger()
    assert not path.exists()
    assert not toggle().isChecked()
    icon.hide()
    icon.deleteLater()
