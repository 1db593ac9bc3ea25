"""What screen readers are told beyond Qt's own accessibility (ui/a11y.py), read through Qt's
accessibility interfaces (what its AT-SPI bridge hands on): the dialog's description, the
labels that describe a field or the form (help, notice, error, legend) and those left to be
read when a dialog opens, the drop-down list's chosen entry, the calendar's month, and the
"required" state Qt does not have."""

from __future__ import annotations

import datetime as dt

import pytest
import shiboken6
from PySide6.QtCore import QLocale, Qt
from PySide6.QtGui import QAccessible
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QCalendarWidget, QComboBox, QLabel, QWidget

from elicit_tray.request import Peer
from elicit_tray.ui import a11y
from elicit_tray.ui.a11y import month_name, name_calendar
from tests import rpc
from tests.ui.harness import Tray

PEER = Peer(pid=31, uid=1000, executable="/usr/bin/python3.11", argv=("python3", "agent.py"))
FORM = {
    "message": "Book the trip?\nSecond line, not repeated.",
    "_meta": {"elicit-tray/requester": {"serverName": "travel"}},
    "requestedSchema": {
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": "Traveller", "description": "As in the passport", "minLength": 2},
            "code": {"type": "string", "title": "Code", "default": "a\u200bb"},
            "region": {"type": "string", "title": "Region", "enum": ["us-east-1", "us-west-2", "eu-west-1"]},
            "extras": {
                "type": "array",
                "title": "Extras",
                "description": "Pick any",
                "items": {"type": "string", "enum": ["Bag", "Seat"]},
            },
            "day": {"type": "string", "format": "date", "title": "Day"},
        },
        "required": ["name"],
    },
}


def _dialog(aio, params, peer=PEER):
    tray = Tray(aio)
    channel = tray.connect(peer)
    tray.send(channel, rpc.create(1, params))
    return tray, channel, tray.dialog()


def _described(label: QLabel) -> QWidget | None:
    """The widget ``label``'s accessible interface says it describes (AT-SPI description-for)."""
    iface = QAccessible.queryAccessibleInterface(label)
    relations = iface.relations(QAccessible.RelationFlag.Described)
    assert len(relations) <= 1
    return relations[0][0].object() if relations else None


def _read_on_open(dialog) -> list[str]:
    """The labels a screen reader reads as texts of their own when the dialog opens (Orca's
    "unrelated labels": showing, three words or more, no relation, not in the window title)."""
    said = []
    for label in dialog.findChildren(QLabel):
        iface = QAccessible.queryAccessibleInterface(label)
        name = iface.text(QAccessible.Text.Name)
        if label.isVisible() and len(name.split()) >= 3 and not iface.relations() and name not in dialog.windowTitle():
            said.append(name)
    return said


def test_the_dialog_describes_who_asks_and_the_first_line_of_the_message(aio):
    tray, channel, dialog = _dialog(aio, FORM)
    assert (
        dialog.accessibleDescription() == "“travel” asks through the local program /usr/bin/python3.11: Book the trip?"
    )
    tray.disconnect(channel)


@pytest.mark.parametrize(
    ("params", "peer", "expected"),
    [
        (
            {"message": "", "requestedSchema": {"type": "object", "properties": {}}},
            PEER,
            "An unnamed MCP server asks through the local program /usr/bin/python3.11.",
        ),
        (
            {"message": "x" * 200, "requestedSchema": {"type": "object", "properties": {}}},
            Peer(pid=5),
            (
                "An unnamed MCP server asks through the local program (unknown: the system did not tell): "
                + "x" * 149
                + "…"
            ),
        ),
        (
            {
                "mode": "url",
                "elicitationId": "e1",
                "message": "Sign in to continue.",
                "url": "https://auth.example.com/x",
                "_meta": {"elicit-tray/requester": {"serverName": "auth"}},
            },
            PEER,
            "“auth” asks through the local program /usr/bin/python3.11: Sign in to continue.",
        ),
    ],
    ids=["no-name-no-message", "long-message-unknown-program", "url-dialog"],
)
def test_the_dialog_description_without_a_name_a_message_or_a_known_program(aio, params, peer, expected):
    tray, channel, dialog = _dialog(aio, params, peer)
    assert dialog.accessibleDescription() == expected
    tray.disconnect(channel)


def test_help_notice_error_and_legend_describe_their_field_and_only_who_asks_is_read_on_open(aio):
    tray, channel, dialog = _dialog(aio, FORM)
    rows = dialog.rows
    hint = dialog.findChild(QLabel, "field-name-description")
    assert hint.text() == "As in the passport. At least 2 characters."
    assert _described(hint) is rows["name"].adapter.focus_target
    assert _described(dialog.findChild(QLabel, "field-code-invisible")) is rows["code"].adapter.focus_target
    assert _described(dialog.findChild(QLabel, "field-extras-description")) is rows["extras"].adapter.widget
    assert _described(dialog.findChild(QLabel, "required-legend")) is dialog
    assert _read_on_open(dialog) == [
        "That is what the server says it is; not verified.",
        "Asked by the local program /usr/bin/python3.11 agent.py (pid 31)",
        "Book the trip?\nSecond line, not repeated.",  # the message: beyond the window title
    ]
    dialog.attempt_submit()  # errors show: each one describes its field, none is read as a text
    assert _described(rows["name"].error) is rows["name"].adapter.focus_target
    assert rows["name"].error.isVisible()
    assert "This field is required." not in " ".join(_read_on_open(dialog))
    described = QAccessible.queryAccessibleInterface(rows["name"].error)
    assert described.role() == QAccessible.Role.StaticText and described.state().readOnly
    assert described.text(QAccessible.Text.Name) == "⚠ This field is required."
    tray.disconnect(channel)


def test_a_label_that_outlives_what_it_describes_describes_nothing(qapp):
    label, target = QLabel("help text of a field"), QLabel()
    a11y.describes(label, target)
    assert a11y.described_widget(label) is target
    shiboken6.delete(target)  # the field's widget goes first
    assert a11y.described_widget(label) is None
    assert QAccessible.queryAccessibleInterface(label).relations() == []


def test_typing_in_the_closed_drop_down_list_reports_the_chosen_entry_as_focused(aio, monkeypatch, qtbot):
    reported: list[tuple[object, int]] = []
    monkeypatch.setattr(a11y, "_focus", lambda of, child=-1: reported.append((of, child)))
    tray, channel, dialog = _dialog(aio, FORM)
    combo = dialog.rows["region"].adapter.combo
    combo.setFocus()
    qtbot.waitUntil(combo.hasFocus)
    QTest.keyClicks(combo, "us-w")
    qtbot.waitUntil(lambda: len(reported) == 1)
    assert combo.currentText() == "us-west-2"
    assert reported == [(combo.view(), combo.currentIndex())]
    QTest.keyClick(combo, Qt.Key.Key_Down)  # an arrow key: the next entry, reported the same way
    qtbot.waitUntil(lambda: len(reported) == 2)
    assert combo.currentText() == "eu-west-1" and reported[1] == (combo.view(), combo.currentIndex())
    combo.clearFocus()
    combo.setCurrentIndex(0)  # a change the user did not make in the list: nothing reported
    tray.settle()
    QTest.qWait(20)
    assert len(reported) == 2
    tray.disconnect(channel)


def test_the_calendar_is_named_by_the_month_it_shows_and_a_page_turn_in_the_open_calendar_is_reported(
    qapp, monkeypatch, qtbot
):
    reported: list[object] = []
    monkeypatch.setattr(a11y, "_focus", lambda of, child=-1: reported.append(of))
    calendar = QCalendarWidget()
    calendar.setLocale(QLocale("en_US"))
    calendar.setCurrentPage(2026, 3)
    name_calendar(calendar)
    table = calendar.findChild(QWidget, "qt_calendar_calendarview")
    assert calendar.accessibleName() == table.accessibleName() == "March 2026"
    named = {
        part: calendar.findChild(QWidget, f"qt_calendar_{part}").accessibleName()
        for part in ("prevmonth", "nextmonth", "yearedit")
    }
    assert named == {"prevmonth": "Previous month", "nextmonth": "Next month", "yearedit": "Year"}
    calendar.showNextMonth()  # not shown: renamed, nothing reported
    assert table.accessibleName() == "April 2026" and reported == []
    calendar.show()
    qtbot.waitExposed(calendar)
    calendar.showNextMonth()
    qtbot.waitUntil(lambda: reported == [calendar])
    assert calendar.accessibleName() == table.accessibleName() == "May 2026"
    calendar.close()


@pytest.mark.parametrize(("locale", "expected"), [("de_DE", "Januar 2027"), ("ar_EG", "يناير ٢٠٢٧")])
def test_the_month_is_named_in_the_calendar_locale(qapp, locale, expected):
    calendar = QCalendarWidget()
    calendar.setLocale(QLocale(locale))
    calendar.setCurrentPage(2027, 1)
    assert month_name(calendar) == expected


def test_the_date_field_names_its_calendar_by_this_month_when_it_opens(aio, qtbot):
    tray, channel, dialog = _dialog(aio, FORM)
    edit = dialog.rows["day"].adapter.edit
    edit.setFocus()
    QTest.keyClick(edit, Qt.Key.Key_F4)
    calendar = edit.calendarWidget()
    qtbot.waitUntil(calendar.isVisible)
    today = dt.date.today()
    assert calendar.accessibleName() == QLocale().standaloneMonthName(today.month) + f" {today.year}"
    assert calendar.findChild(QWidget, "qt_calendar_calendarview").accessibleName() == calendar.accessibleName()
    QTest.keyClick(calendar.findChild(QWidget, "qt_calendar_calendarview"), Qt.Key.Key_Escape)
    tray.disconnect(channel)


def test_qt_has_no_required_state_so_required_stays_in_the_description(aio):
    """Qt 6's QAccessible::State has no "required" flag (its AT-SPI bridge never sets
    ATSPI_STATE_REQUIRED): when one appears, this fails, and the state should be used."""
    assert not hasattr(QAccessible.State(), "required")
    tray, channel, dialog = _dialog(aio, FORM)
    control = dialog.rows["name"].adapter.focus_target
    assert control.accessibleDescription() == "As in the passport. Required. At least 2 characters."
    assert dialog.rows["name"].label.text() == "&Traveller *"
    tray.disconnect(channel)


def test_the_dialog_description_follows_the_language(aio):
    from elicit_tray.ui.i18n import install_translations

    try:
        assert install_translations(QLocale("de_DE")) == "de"
        tray, channel, dialog = _dialog(aio, FORM)
        assert dialog.accessibleDescription() == (
            "„travel“ fragt über das lokale Programm /usr/bin/python3.11: Book the trip?"
        )
        tray.disconnect(channel)
    finally:
        install_translations(QLocale("en_US"))


def test_every_drop_down_list_of_every_window_reads_a_typed_choice(aio, qtbot, tmp_path):
    """The kind, not the form's example: the form's lists, the Settings window's and the
    History window's filters all report a choice made in the closed list."""
    from elicit_tray.settings import Preferences
    from elicit_tray.ui.history_window import HistoryWindow
    from elicit_tray.ui.settings_window import SettingsWindow

    tray, channel, dialog = _dialog(aio, FORM)
    settings = SettingsWindow(Preferences(None), tmp_path / "s", autostart=(lambda: True, lambda _on: None))
    history = HistoryWindow(None)
    for window in (settings, history):
        qtbot.addWidget(window)
    lists = {w: w.findChildren(QComboBox) for w in (dialog, settings, history)}
    assert all(lists.values())  # each window has some
    assert [c.objectName() for found in lists.values() for c in found if not c.property(a11y.SPEAKS_SELECTION)] == []
    tray.disconnect(channel)
