"""What screen readers are told beyond Qt's own accessibility (docs/design.md "UI rules":
accessible by a screen reader; README "Accessibility").

Qt's AT-SPI bridge (Linux) leaves three gaps that Orca, the screen reader people run there,
falls into; each helper here fills one, with what Qt and Orca do support:

- :func:`describes`: a label that describes another widget (a field's help, its inline error
  and invisible-character notice, the form's legend). Qt exposes every label without a buddy as a
  free-standing text, and a screen reader reads all such texts of a dialog when it opens (Orca's
  "unrelated labels": each showing label of three words or more with no relation), before the
  first field. A label marked here carries a ``description-for`` relation to what it describes:
  it is read with that widget (whose accessible description holds the same text), not on open.
- :func:`speak_selection`: typing or an arrow key in a closed drop-down list changes its value
  silently (Qt reports a name change and a selection change on the combo box; Orca ignores the
  first for combo boxes and, as Qt's combo box has no selection interface, finds nothing selected
  for the second). The chosen entry of the list is reported as focused, which Orca reads.
- :func:`name_calendar`: a date picker's calendar is a bare table of day numbers, with unnamed
  arrows to turn its page. Its table and the calendar are named by the month and year shown, the
  arrows by what they do; when the month changes the calendar is reported as focused, so that the
  new month is read (a table's name is read only when the focus enters it).

Qt has no "required" state (``QAccessible::State`` has no such flag in Qt 6, and its AT-SPI
bridge never sets ``ATSPI_STATE_REQUIRED``): a required field says so in its description.
"""

from __future__ import annotations

import weakref

from PySide6.QtCore import QDate, QObject, QTimer
from PySide6.QtGui import QAccessible, QAccessibleEvent, QAccessibleInterface
from PySide6.QtWidgets import QAccessibleWidget, QCalendarWidget, QComboBox, QLabel, QTableView, QWidget
from shiboken6 import isValid

from .i18n import translate

__all__ = ["SPEAKS_SELECTION", "describes", "described_widget", "month_name", "name_calendar", "speak_selection"]

#: label -> the widget it describes (weakly: either may go first).
_DESCRIBED: weakref.WeakKeyDictionary[QLabel, weakref.ref[QWidget]] = weakref.WeakKeyDictionary()
_installed = False
#: Dynamic property set on a combo box by :func:`speak_selection` (tests find one without it).
SPEAKS_SELECTION = "elicitTraySpeaksSelection"


class _DescribingLabel(QAccessibleWidget):
    """A label's accessible interface as Qt's own (static text, read-only, its text as the name)
    plus the relation ``Described`` to the widget it describes (AT-SPI ``description-for``)."""

    def __init__(self, label: QLabel):
        super().__init__(label, QAccessible.Role.StaticText)

    def text(self, kind: QAccessible.Text) -> str:
        label = self.widget()
        if not isinstance(label, QLabel):
            return ""
        if kind == QAccessible.Text.Name:
            return label.accessibleName() or label.text()
        if kind == QAccessible.Text.Description:
            return label.accessibleDescription()
        return super().text(kind)

    def state(self) -> QAccessible.State:
        state = super().state()
        state.readOnly = True
        return state

    def relations(
        self, match: QAccessible.RelationFlag = QAccessible.RelationFlag.AllRelations
    ) -> list[tuple[QAccessibleInterface, QAccessible.RelationFlag]]:
        found = list(super().relations(match))
        label = self.widget()
        target = described_widget(label) if isinstance(label, QLabel) else None
        if target is not None and match & QAccessible.RelationFlag.Described:
            iface = QAccessible.queryAccessibleInterface(target)
            if iface is not None:
                found.append((iface, QAccessible.RelationFlag.Described))
        return found


def _factory(_key: str, obj: QObject) -> QAccessibleInterface | None:
    """Qt asks every installed factory first, for each object it makes an interface for."""
    if isinstance(obj, QLabel) and obj in _DESCRIBED:
        return _DescribingLabel(obj)
    return None


def describes(label: QLabel, target: QWidget) -> None:
    """Mark ``label`` as describing ``target`` (its text is part of ``target``'s accessible
    description): screen readers read it with ``target``, not as a text of its own when the
    window opens. Call it before ``label`` is first shown (Qt makes a widget's accessible
    interface once)."""
    global _installed
    if not _installed:
        QAccessible.installFactory(_factory)
        _installed = True
    _DESCRIBED[label] = weakref.ref(target)
    if QAccessible.isActive():
        # With a screen reader on, Qt made the label's interface already (setting its text
        # reports a name change): drop it, so that the next one asked for is made here.
        iface = QAccessible.queryAccessibleInterface(label)
        if iface is not None and not isinstance(iface, _DescribingLabel):
            QAccessible.deleteAccessibleInterface(QAccessible.uniqueId(iface))


def described_widget(label: QLabel) -> QWidget | None:
    """The widget ``label`` describes (:func:`describes`), ``None`` for any other label."""
    ref = _DESCRIBED.get(label)
    target = ref() if ref is not None else None
    return target if target is not None and isValid(target) else None


def _focus(iface_of: QObject, child: int = -1) -> None:
    event = QAccessibleEvent(iface_of, QAccessible.Event.Focus)
    if child >= 0:
        event.setChild(child)
    QAccessible.updateAccessibility(event)


def speak_selection(combo: QComboBox) -> None:
    """Make the entry chosen in ``combo`` while its list is closed (typing, arrow keys) reach
    screen readers: it is reported as the focused item of the list, once per event-loop turn
    and after Qt's own events for the change (so that the item's states are current)."""

    def report() -> None:
        index = combo.currentIndex()
        if index >= 0 and combo.hasFocus() and not combo.view().isVisible():
            _focus(combo.view(), index)  # the list's children are its rows

    combo.setProperty(SPEAKS_SELECTION, True)
    later = QTimer(combo)  # one report for the changes of one turn (a typed run of letters)
    later.setSingleShot(True)
    later.setInterval(0)
    later.timeout.connect(report)
    combo.currentIndexChanged.connect(later.start)


def month_name(calendar: QCalendarWidget) -> str:
    """The month and year ``calendar`` shows, in its locale (e.g. ``March 2026``)."""
    locale = calendar.locale()
    first = QDate(calendar.yearShown(), calendar.monthShown(), 1)
    return translate("Widgets", "{month} {year}").format(
        month=locale.standaloneMonthName(calendar.monthShown()), year=locale.toString(first, "yyyy")
    )


def name_calendar(calendar: QCalendarWidget) -> None:
    """Name ``calendar`` and its table of days by the month and year shown (:func:`month_name`),
    name the navigation bar's arrows and year box, and keep them named: when the month changes while the calendar is open, the calendar is
    reported as focused so that screen readers read the new month (the next key returns to the
    day, with the table's new name)."""
    table = calendar.findChild(QTableView)

    def rename() -> None:
        name = month_name(calendar)
        calendar.setAccessibleName(name)
        if table is not None:
            table.setAccessibleName(name)

    def changed(_year: int, _month: int) -> None:
        rename()
        if calendar.isVisible():  # the user turned the page in the open calendar
            QTimer.singleShot(0, calendar, lambda: _focus(calendar))

    rename()
    calendar.currentPageChanged.connect(changed)
    for part, name in (  # Qt's navigation bar: two arrow buttons and the year's box, unnamed
        ("qt_calendar_prevmonth", translate("Widgets", "Previous month")),
        ("qt_calendar_nextmonth", translate("Widgets", "Next month")),
        ("qt_calendar_yearedit", translate("Widgets", "Year")),
    ):
        widget = calendar.findChild(QWidget, part)
        if widget is not None:
            widget.setAccessibleName(name)
