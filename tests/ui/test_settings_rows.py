"""Every row of the settings table (:data:`elicit_tray.settings.SETTINGS`) has its Settings window
control (the kind of its type, with its label, named and described, changing the setting at
once, locked when the command line set it), round-trips through the real ``QSettings`` INI file,
and, given on the ``serve`` command line, is in force in ``serve`` itself. The table's own
parts: ``tests/unit/test_settings_table.py``."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QLabel, QSpinBox

from elicit_tray import app, cli
from elicit_tray.settings import SETTINGS, Preferences, Setting, Settings, settings_store
from elicit_tray.ui.i18n import translate
from elicit_tray.ui.settings_window import KINDS, SettingsWindow
from tests.unit.test_settings_table import option_argv, other_value

ROWS = pytest.mark.parametrize("row", SETTINGS, ids=[row.name for row in SETTINGS])

#: Setting type -> the control the window must show, how a user sets it and what it shows.
CONTROLS: dict[type, tuple[type, Any, Any]] = {
    int: (QSpinBox, lambda box, value: box.setValue(value), lambda box: box.value()),
    bool: (QCheckBox, lambda box, value: box.setChecked(value), lambda box: box.isChecked()),
    str: (QComboBox, lambda box, value: box.setCurrentIndex(box.findData(value)), lambda box: box.currentData()),
}


def _window(qtbot, preferences: Preferences) -> SettingsWindow:
    window = SettingsWindow(preferences, "/run/x/socket", autostart=None)
    qtbot.addWidget(window)
    return window


def _label_of(window: SettingsWindow, control) -> QLabel | None:
    return next((label for label in window.findChildren(QLabel) if label.buddy() is control), None)


def test_every_type_of_the_table_has_a_kind_of_control():
    assert {row.kind for row in SETTINGS} <= set(KINDS) == set(CONTROLS)


@ROWS
def test_every_row_has_its_control_with_its_label_and_changes_the_setting(row, qtbot):
    prefs = Preferences(None)
    window = _window(qtbot, prefs)
    control = window.controls[row.name]
    kind, set_value, shown = CONTROLS[row.kind]
    assert isinstance(control, kind) and getattr(window, row.control) is control
    assert shown(control) == row.default
    label = _label_of(window, control)
    if KINDS[row.kind].labelled:
        assert label is not None and label.text() == translate("Settings", row.label)
        assert control.accessibleName() == translate("Settings", row.accessible)
    else:
        assert label is None and control.text() == translate("Settings", row.label)
    description = translate("Settings", row.description)
    if row.bounds:
        assert (control.minimum(), control.maximum()) == row.bounds
        description = description.format(low=row.bounds[0], high=row.bounds[1])
    assert control.accessibleDescription() == description and "{" not in description
    value = other_value(row)
    set_value(control, value)
    assert getattr(prefs.current, row.name) == value and shown(control) == value


def test_the_controls_are_in_the_order_of_the_table(qtbot):
    window = _window(qtbot, Preferences(None))
    form = window.findChild(QFormLayout)
    shown = [form.itemAt(i).widget() for i in range(form.count())]
    assert [c for c in shown if c in window.controls.values()] == [window.controls[row.name] for row in SETTINGS]


@ROWS
def test_a_row_set_on_the_command_line_is_shown_locked_naming_its_option(row, qtbot):
    value = other_value(row)
    window = _window(qtbot, Preferences(None, {row.name: value}))
    control = window.controls[row.name]
    assert CONTROLS[row.kind][2](control) == value
    assert not control.isEnabled() and f"({row.option})" in control.toolTip()
    assert control.toolTip() in control.accessibleDescription()


@pytest.mark.parametrize("row", [r for r in SETTINGS if r.needs], ids=[r.name for r in SETTINGS if r.needs])
def test_a_row_that_needs_another_setting_is_off_while_that_is_off(row, qtbot):
    prefs = Preferences(None)
    window = _window(qtbot, prefs)
    needed = window.controls[row.needs]
    assert window.controls[row.name].isEnabled()
    needed.setChecked(False)
    assert getattr(prefs.current, row.needs) is False and not window.controls[row.name].isEnabled()
    needed.setChecked(True)
    assert window.controls[row.name].isEnabled()


@ROWS
def test_every_row_round_trips_through_the_ini_file(row, tmp_path):
    path = tmp_path / "settings.ini"
    value = other_value(row)
    Preferences(settings_store(path)).change(**{row.name: value})
    section, _, key = row.key.partition("/")
    text = path.read_text()
    assert f"[{section}]\n" in text and f"\n{key}=" in text
    assert getattr(Preferences(settings_store(path)).current, row.name) == value


@ROWS
def test_every_row_given_to_serve_is_in_force_in_serve(row, qapp, tmp_path, monkeypatch, capsys):
    """``serve`` up to its socket (refused here): the settings it runs with are the file's under
    the command line's, parsed by the real parser."""
    config = tmp_path / "settings.ini"
    monkeypatch.setenv("ELICIT_TRAY_CONFIG", str(config))
    Preferences(settings_store(config)).change(**{row.name: row.default})  # the file says the default
    in_force: list[Preferences] = []
    make = app._preferences

    def preferences(settings):
        in_force.append(make(settings))
        return in_force[-1]

    monkeypatch.setattr(app, "_qt_application", lambda: qapp)
    monkeypatch.setattr(app, "_preferences", preferences)
    monkeypatch.setattr(app, "_start_endpoint", lambda _endpoint, _path: app._StartFailure("the test stops here", 3))
    value = other_value(row)
    settings = cli.setting_overrides(cli._parser().parse_args(["serve", *option_argv(row, value)]))
    assert app.serve(tmp_path / "socket", settings=settings) == 3
    assert "the test stops here" in capsys.readouterr().err
    (prefs,) = in_force
    assert prefs.current == Settings(**{row.name: value}) and prefs.locked(row.name)
    assert [other.name for other in SETTINGS if prefs.locked(other.name)] == [row.name]


def test_the_table_rows_are_setting_objects():
    assert all(isinstance(row, Setting) for row in SETTINGS)
