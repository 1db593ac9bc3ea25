"""The Settings window (tray menu "Settings…") and the settings it applies at once: the settings
file's values, the command line winning (locked controls), bounds, and the running app's
presenter and recorder following each change."""

from __future__ import annotations

from pathlib import Path

from elicit_tray.history import History, Privacy, Recorder
from elicit_tray.settings import Preferences, Settings, settings_store
from elicit_tray.ui.settings_window import SettingsWindow, connect_settings


class FakePresenter:
    timeout_s = 0
    arm_delay_ms = 700


def test_the_file_is_read_the_command_line_wins_and_bounds_hold(tmp_path):
    path = tmp_path / "settings.ini"
    path.write_text(
        "[dialogs]\ntimeout=45\nconsent=50\n[history]\nvalues=false\ntext=yes\nretention=7\n[ui]\nlanguage=de\n"
    )
    prefs = Preferences(settings_store(path), {"retention_days": 30, "timeout_s": None})
    assert prefs.current == Settings(
        timeout_s=45,
        consent_delay_ms=300,
        history=True,
        history_values=False,
        history_text=True,
        history_query=False,
        retention_days=30,
        language="de",
    )
    assert (prefs.locked("retention_days"), prefs.locked("timeout_s")) == (True, False)
    prefs.change(retention_days=1, history_query=True, consent_delay_ms=99999)
    assert (prefs.current.retention_days, prefs.current.history_query, prefs.current.consent_delay_ms) == (
        30,
        True,
        5000,
    )
    assert path.read_text() == (
        "[dialogs]\nconsent=5000\ntimeout=45\n\n[history]\nquery=true\nretention=7\ntext=yes\nvalues=false\n\n"
        "[ui]\nlanguage=de\n"
    )


def test_changes_in_the_window_apply_at_once_to_the_app(tmp_path, qtbot):
    prefs = Preferences(settings_store(tmp_path / "s.ini"), {"history_query": False})
    presenter = FakePresenter()
    history = History(tmp_path / "h.sqlite3")
    recorder = Recorder(None, history)
    timer = connect_settings(prefs, presenter, recorder)
    toggled: list[bool] = []
    window = SettingsWindow(prefs, Path("/run/user/1000/elicit-tray/socket"), autostart=(lambda: False, toggled.append))
    qtbot.addWidget(window)
    window.timeout.setValue(120)
    window.consent.setValue(1500)
    window.values.setChecked(False)
    window.retention.setValue(14)
    window.autostart.setChecked(True)
    assert (presenter.timeout_s, presenter.arm_delay_ms) == (120, 1500)
    assert recorder.privacy == Privacy(enabled=True, values=False, query=False, retention_days=14)
    assert toggled == [True]
    assert not window.query.isEnabled() and "--history-query" in window.query.toolTip()
    assert not window.free_text.isChecked()
    window.free_text.setChecked(True)
    assert recorder.privacy == Privacy(enabled=True, values=False, text=True, query=False, retention_days=14)
    window.history.setChecked(False)
    assert recorder.privacy.enabled is False and not window.values.isEnabled() and not window.retention.isEnabled()
    assert not window.free_text.isEnabled()
    assert window.socket.text() == "/run/user/1000/elicit-tray/socket" and window.socket.isReadOnly()
    window.copy.click()
    from PySide6.QtWidgets import QApplication

    assert QApplication.clipboard().text() == "/run/user/1000/elicit-tray/socket"
    assert timer.interval() == 24 * 3600 * 1000 and timer.isActive()
    timer.stop()
    assert (tmp_path / "s.ini").read_text() == (
        "[dialogs]\nconsent=1500\ntimeout=120\n\n[history]\nenabled=false\nretention=14\ntext=true\nvalues=false\n"
    )


def test_every_control_has_an_accessible_name_and_a_mnemonic_label(tmp_path, qtbot):
    window = SettingsWindow(Preferences(None), "/s", autostart=(lambda: True, lambda _on: None))
    qtbot.addWidget(window)
    names = [
        w.accessibleName() or w.text().replace("&", "")
        for w in (
            window.autostart,
            window.timeout,
            window.consent,
            window.history,
            window.values,
            window.free_text,
            window.query,
            window.retention,
            window.language,
            window.socket,
            window.copy,
        )
    ]
    assert names == [
        "Start elicit-tray at login",
        "Timeout",
        "Consent delay",
        "Keep a history of decisions",
        "Keep the values chosen in forms (yes/no, options, numbers, dates)",
        "Keep free text typed in forms (never secret-looking fields)",
        "Keep the query strings of addresses",
        "Retention",
        "Language",
        "Socket in use",
        "Copy the socket path",
    ]
    assert window.timeout.specialValueText() == "Never" and window.consent.minimum() == 300
