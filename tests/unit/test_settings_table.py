"""The settings table (:data:`elicit_tray.settings.SETTINGS`) is complete, and every part derived
from it holds for every row: its default and type, its ``serve`` option (which parses to the
setting's type and reaches ``serve``), its bounds, its round trip through the settings file and
its line in the README. A row missing a part, or a part of the app that forgets a row, fails here
(the Settings window and ``serve`` itself: ``tests/ui/test_settings_rows.py``)."""

from __future__ import annotations

import argparse
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from elicit_tray import cli, settings
from elicit_tray.history import DEFAULT_RETENTION_DAYS, Privacy
from elicit_tray.settings import KEYS, SETTINGS, Preferences, Setting, Settings

REPO = Path(__file__).resolve().parents[2]
ROWS = pytest.mark.parametrize("row", SETTINGS, ids=[row.name for row in SETTINGS])


def other_value(row: Setting[Any]) -> Any:
    """A valid value of ``row`` that is not its default (what a user would choose)."""
    if row.kind is bool:
        return not row.default
    if row.kind is int:
        assert row.bounds is not None
        low, high = row.bounds
        return next(v for v in (row.default + row.step, low, high) if low <= v <= high and v != row.default)
    return next(code for code, _name in row.choices if code != row.default)


def option_argv(row: Setting[Any], value: Any) -> list[str]:
    """The ``serve`` arguments that set ``row`` to ``value``."""
    if row.kind is bool:
        return [row.flag] if value else [f"--no-{row.flag[2:]}"]
    return [row.flag, str(value)]


class TextStore:
    """A settings file in memory that keeps what ``QSettings`` writes to the INI file: text."""

    def __init__(self) -> None:
        self.lines: dict[str, str] = {}

    def value(self, key: str) -> str | None:
        return self.lines.get(key)

    def setValue(self, key: str, value: object) -> None:  # noqa: N802 - QSettings' name
        self.lines[key] = str(value).lower() if isinstance(value, bool) else str(value)

    def sync(self) -> None:
        pass


def test_the_table_is_the_class_body_of_settings_and_keys_derive_from_it():
    assert [row.name for row in SETTINGS] == list(Settings().values) == list(KEYS)
    for row in SETTINGS:
        assert getattr(Settings, row.name) is row and KEYS[row.name] == row.key
    for column in ("key", "flag", "control"):
        values = [getattr(row, column) for row in SETTINGS]
        assert len(set(values)) == len(values), f"two rows share a {column}"


@ROWS
def test_every_row_has_every_part_its_type_needs(row):
    assert row.kind in (int, bool, str) and row.kind in cli._OPTION_KINDS
    assert getattr(Settings(), row.name) == row.default and type(getattr(Settings(), row.name)) is row.kind
    section, _, name = row.key.partition("/")
    assert section and name and "/" not in name
    assert row.flag.startswith("--") and row.help.strip() and row.control.isidentifier()
    assert row.label.count("&") == 1 and row.description.strip()  # one mnemonic
    assert row.clean(row.default) == row.default
    if row.kind is bool:
        assert row.metavar is None and not row.bounds and row.option == f"{row.flag}/--no-{row.flag[2:]}"
    else:
        assert row.metavar and row.accessible and row.option == row.flag  # a label before the control
    if row.kind is int:
        assert row.bounds is not None and row.bounds[0] <= row.default <= row.bounds[1]
    if row.kind is str:
        assert row.choices and all(code == row.clean(code) for code, _name in row.choices)
    if row.needs:
        assert getattr(Settings, row.needs).kind is bool


@ROWS
def test_every_row_has_a_serve_option_that_parses_to_its_type(row):
    value = other_value(row)
    args = cli._parser().parse_args(["serve", *option_argv(row, value)])
    given = getattr(args, row.name)
    assert given == value and type(given) is row.kind
    assert cli.setting_overrides(args) == {other.name: value if other is row else None for other in SETTINGS}
    assert cli.setting_overrides(cli._parser().parse_args(["serve"])) == dict.fromkeys(KEYS)
    assert cli.setting_overrides(cli._parser().parse_args([])) == dict.fromkeys(KEYS)  # serve is the default
    if row.kind is bool:
        assert getattr(cli._parser().parse_args(["serve", row.flag]), row.name) is True
        assert getattr(cli._parser().parse_args(["serve", f"--no-{row.flag[2:]}"]), row.name) is False


@ROWS
def test_main_hands_every_option_to_serve(row, monkeypatch):
    import elicit_tray.app
    import elicit_tray.logs

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(elicit_tray.app, "serve", lambda socket_path, **kwargs: calls.append(kwargs) or 0)
    monkeypatch.setattr(cli, "_leave_out_openssl", lambda: None)
    monkeypatch.setattr(elicit_tray.logs, "configure_logging", lambda **_kwargs: None)
    value = other_value(row)
    assert cli.main(["--socket", "/run/x/socket", "serve", *option_argv(row, value)]) == 0
    assert calls[0]["settings"][row.name] == value
    assert Preferences(None, calls[0]["settings"]).current == Settings(**{row.name: value})


def test_the_help_of_serve_names_every_option_with_its_text():
    parser = cli._parser()
    serve = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices["serve"]
    by_dest = {action.dest: action for action in serve._actions}
    for row in SETTINGS:
        action = by_dest[row.name]
        assert action.option_strings[0] == row.flag and action.help == row.help and action.default is None


@ROWS
def test_every_row_round_trips_through_the_settings_file(row):
    store = TextStore()
    value = other_value(row)
    Preferences(store).change(**{row.name: value})
    assert set(store.lines) == {row.key}
    again = Preferences(store)
    assert getattr(again.current, row.name) == value and not again.locked(row.name)
    store.lines[row.key] = "not a value" if row.kind is not str else "?!"
    assert getattr(Preferences(store).current, row.name) == row.default  # unreadable: the default


@ROWS
def test_the_command_line_wins_over_the_file_and_locks_the_setting(row):
    store = TextStore()
    store.setValue(row.key, row.default)
    value = other_value(row)
    prefs = Preferences(store, {row.name: value})
    assert getattr(prefs.current, row.name) == value and prefs.locked(row.name)
    before = dict(store.lines)
    prefs.change(**{row.name: row.default})
    assert getattr(prefs.current, row.name) == value and store.lines == before  # nothing saved


@pytest.mark.parametrize("row", [r for r in SETTINGS if r.bounds], ids=[r.name for r in SETTINGS if r.bounds])
def test_numbers_out_of_bounds_are_clamped(row):
    low, high = row.bounds
    assert getattr(Preferences(None, {row.name: high + 1}).current, row.name) == high
    assert getattr(Preferences(None, {row.name: low - 1}).current, row.name) == low
    assert getattr(Preferences(None).change(**{row.name: high * 10}), row.name) == high


@ROWS
def test_every_row_is_in_the_readme_settings_table(row):
    lines = [line for line in (REPO / "README.md").read_text(encoding="utf-8").splitlines() if line.startswith("| ")]
    assert any(f"`{row.key}`" in line and f"`{row.flag}" in line for line in lines), row.key


def test_the_history_defaults_are_the_settings_defaults():
    assert Settings.retention_days.default == DEFAULT_RETENTION_DAYS
    assert Settings().privacy() == Privacy()


def test_unknown_settings_are_refused():
    with pytest.raises(ValueError, match="unknown settings"):
        Preferences(None, {"timeout": 5})
    with pytest.raises(TypeError, match="unknown settings"):
        Settings(timeout=5)


def test_the_table_loads_neither_qt_nor_the_history_database():
    """Every CLI call builds the ``serve`` options from the table: reading it must stay cheap."""
    code = textwrap.dedent("""
        import sys
        for name in ("PySide6", "shiboken6"):
            sys.modules[name] = None
        from elicit_tray import cli, settings
        cli._parser().parse_args(["serve", "--timeout", "5"])
        prefs = settings.Preferences(None, {"timeout_s": 5})
        assert prefs.current.timeout_s == 5, prefs.current
        assert "sqlite3" not in sys.modules, "the table imported the history database"
        prefs.current.privacy()
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_the_module_docstring_shows_how_to_add_a_row():
    assert "Adding a setting is one row" in (settings.__doc__ or "")
    assert "sound = Setting(" in (settings.__doc__ or "")
