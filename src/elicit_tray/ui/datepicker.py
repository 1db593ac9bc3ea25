"""The date and date-time fields: Qt's date pickers made to be typed into as people type a
date, and the two adapters built on them (which field gets which is
:mod:`~elicit_tray.ui.registry`'s table).

- :class:`_TypingPicker` (mixed into ``QDateEdit`` and ``QDateTimeEdit``): Tab leaves the
  picker, a separator typed after a full section is not swallowed, F4/Alt+Down open the
  calendar, and a number the calendar cannot take where it was typed is remembered as a
  refusal instead of being quietly replaced by the nearest date Qt can show.
- :class:`_CalendarWatch`: a date picked in the calendar popup stands; closing it without a
  pick puts the picker back where it was.
- :class:`DateField` (``format: date``) and :class:`DateTimeField` (``format: date-time``),
  the :class:`~elicit_tray.ui.widgets.FieldWidget` adapters; :func:`picker_shows` says when
  a default is kept as typed text instead (the registry's ``"date-as-text"`` row; it lives,
  with the RFC 3339 reading, in :mod:`~elicit_tray.ui.datetext`).
"""

from __future__ import annotations

import datetime as _dt
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QDate,
    QDateTime,
    QEvent,
    QObject,
    QPointF,
    Qt,
    QTime,
    QTimer,
    QTimeZone,
    Signal,
    SignalInstance,
)
from PySide6.QtGui import QFocusEvent, QKeyEvent, QMouseEvent, QWheelEvent
from PySide6.QtWidgets import (
    QApplication,
    QDateEdit,
    QDateTimeEdit,
    QHBoxLayout,
    QLabel,
    QStyle,
    QStyleOptionComboBox,
    QToolButton,
    QWidget,
)

from ..schema import FieldSpec
from .a11y import name_calendar
from .application import parent_as
from .datetext import NO_DATE as _NO_DATE
from .datetext import offset_text as _offset_text
from .datetext import parse_rfc3339 as _parse_rfc3339
from .datetext import picker_shows
from .form_row import field_id
from .i18n import translate
from .widgets import FieldWidget, WheelWhenFocused

__all__ = ["DateField", "DateTimeField", "picker_shows"]


_MODIFIER_KEYS = frozenset(
    {
        Qt.Key.Key_Shift,
        Qt.Key.Key_Control,
        Qt.Key.Key_Alt,
        Qt.Key.Key_AltGr,
        Qt.Key.Key_Meta,
        Qt.Key.Key_Super_L,
        Qt.Key.Key_Super_R,
    }
)


if TYPE_CHECKING:
    _DatePicker = QDateTimeEdit  # what the mixin is mixed into (QDateEdit is one), for the checker
else:
    _DatePicker = object


class _TypingPicker(_DatePicker):
    """Mixin for Qt's date pickers (``QDateEdit``, ``QDateTimeEdit``) that makes typing a date
    work as people type it, and remembers a number typed that the picker could not take:

    - Tab moves to the next field (as everywhere in the form), not to the picker's next
      section; Left/Right still move between sections.
    - Typing ``2027-03-04`` gives 2027-03-04: Qt moves on by itself when a section is full,
      so a separator typed right after that is swallowed instead of skipping a section.
    - A number the calendar cannot take where it was typed (day 29 of February 2026, month 13,
      hour 25) is never quietly replaced: Qt shows the nearest value it can (2026-02-28), so the
      picker remembers what was typed (:attr:`refused`) and the field reports it as an error
      until the user types a value that stands or picks one: a value is sent only when the
      user set it (``docs/design.md`` "UI rules"). So is a number left unfinished (year
      ``202``) that Qt replaces with the last date when the picker is left or Enter pressed.
    - F4 and Alt+Down open the calendar, as on a combo box (:meth:`open_calendar`).
    """

    _advanced = False
    _early: tuple[int, str, str] | None = None  # (section, typed, shown) Qt left before it was full
    _refusals: dict[int, tuple[str, str]] | None = None  # section index -> (typed, shown)
    _popup: _CalendarWatch | None = None
    _calendar_named = False  # the calendar was named by its month (a11y.name_calendar)
    _before_calendar: QDateTime | None = None  # the value to put back when the calendar closes unpicked
    _typed_at_leave: list[str] | None = None  # the sections as typed, before Qt's fixup on leaving
    if TYPE_CHECKING:
        refusal_changed: SignalInstance  # a Signal of the concrete pickers below

    @property
    def refused(self) -> tuple[str, str] | None:
        """``(typed, shown)`` of the first section whose number the picker did not take as
        typed, or None."""
        return self._refusals[min(self._refusals)] if self._refusals else None

    def forget_refusal(self) -> None:
        """The user picked a value without typing it (calendar, arrows, wheel, Clear): it stands."""
        self._early = None
        if self._refusals:
            self._refusals = None
            self.refusal_changed.emit()

    def _set_refused(self, index: int, refused: tuple[str, str] | None) -> None:
        refusals = dict(self._refusals or {})
        if refused is None:
            refusals.pop(index, None)
        else:
            refusals[index] = refused
        if refusals != (self._refusals or {}):
            self._refusals = refusals or None
            self.refusal_changed.emit()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab) and not (
            event.modifiers() & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)
        ):
            QWidget.focusNextPrevChild(self, event.key() == Qt.Key.Key_Tab)
            event.accept()
            return
        if event.key() in _MODIFIER_KEYS:  # Shift before ":" must not forget that Qt moved on
            super().keyPressEvent(event)
            return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):  # Qt's fixup, then the form's Enter
            sections = self._sections()
            super().keyPressEvent(event)
            self._judge(sections)
            return
        if self.calendarPopup() and (
            event.key() == Qt.Key.Key_F4
            or (event.key() == Qt.Key.Key_Down and event.modifiers() & Qt.KeyboardModifier.AltModifier)
        ):
            self.open_calendar()  # as on a combo box; Qt's picker opens it only by pointing
            event.accept()
            return
        text = event.text()
        digit = len(text) == 1 and text.isdigit()
        if not digit:
            self._early = None
        if event.key() in (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown):
            self.forget_refusal()  # stepping picks a value the picker can show
        if self._advanced and text.isprintable() and text and not text.isdigit() and not text.isalpha():
            self._advanced = False  # the separator after a section Qt already left (not Enter)
            event.accept()
            return
        before = self.currentSectionIndex()
        section = self.currentSection()
        if digit:
            self._select_if_inside(before, section)
        typed = self._typed_into(before, text) if digit else ""
        super().keyPressEvent(event)
        self._advanced = text.isdigit() and self.currentSectionIndex() != before
        if digit:
            self._after_digit(before, section, typed)

    def open_calendar(self) -> None:
        """Open the calendar popup from the keyboard (F4, Alt+Down): Qt opens it only for a
        press on the arrow, so the picker is handed that press, through the input gate like any."""
        arrow = self.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox, self._arrow_option(), QStyle.SubControl.SC_ComboBoxArrow, self
        )
        if arrow.isEmpty():  # no calendar to open: nothing is chosen by asking for it
            if self._before_calendar is not None:
                self.setDateTime(self._before_calendar)
                self._before_calendar = None
            return
        at = QPointF(arrow.center())
        button = Qt.MouseButton.LeftButton
        for kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease):
            pressed = button if kind == QEvent.Type.MouseButtonPress else Qt.MouseButton.NoButton
            click = QMouseEvent(kind, at, self.mapToGlobal(at), button, pressed, Qt.KeyboardModifier.NoModifier)
            QApplication.sendEvent(self, click)

    def _section_span(self, index: int) -> tuple[int, int] | None:
        """Where section ``index`` is in the line edit's text, or None when it cannot be found."""
        text, start, span = self.lineEdit().text(), 0, None
        for i in range(index + 1):
            part = self.sectionText(self.sectionAt(i))
            found = text.find(part, start)
            if found < 0:
                return None
            span, start = (found, found + len(part)), found + len(part)
        return span

    def _select_if_inside(self, index: int, section: QDateTimeEdit.Section) -> None:
        """A digit typed with the cursor inside a section (Home, arrows, a click), nothing
        selected, replaces the section, as it does right after Qt moved on: Qt's own result of
        a digit in the middle of a number is hard to foresee, so nobody can check it."""
        line = self.lineEdit()
        span = self._section_span(index)
        if line.hasSelectedText() or span is None:
            return
        if span[0] <= line.cursorPosition() < span[1]:
            self.setSelectedSection(section)

    def _typed_into(self, index: int, digit: str) -> str:
        """The text of section ``index`` as typing ``digit`` now makes it, by the cursor and the
        selection: what the user means, before Qt judges it."""
        line = self.lineEdit()
        span = self._section_span(index)
        if span is None:
            return digit  # cannot place the section: as if the digit started it
        first, end = span
        held = line.text()[first:end]
        if line.hasSelectedText():
            low = line.selectionStart()
            high = low + len(line.selectedText())
            if low <= end and high >= first:  # the selection reaches into the section: replaced
                low, high = max(low, first), min(high, end)
                return held[: low - first] + digit + held[high - first :]
        at = min(max(line.cursorPosition(), first), end)
        return held[: at - first] + digit + held[at - first :]

    def _after_digit(self, index: int, section: QDateTimeEdit.Section, typed: str) -> None:
        """``typed``: the section's text as the user made it, with the digit just typed."""
        early, self._early = self._early, None
        if early is not None:  # Qt left a section before it was full and another digit came at once
            self._refuse(early[0], early[1] + typed[-1], early[2])
        shown = self.sectionText(section)
        if not shown.isdigit() or int(shown) != int(typed):
            self._refuse(index, typed, shown)
        elif early is None:
            self._set_refused(index, None)  # typed again, and this time it stands
        width = 4 if section == QDateTimeEdit.Section.YearSection else 2  # yyyy, else MM dd HH mm ss
        if self.currentSectionIndex() != index and len(typed) < width:
            self._early = (index, typed, shown)  # Qt moved on after fewer digits than the section holds

    def _refuse(self, index: int, typed: str, shown: str) -> None:
        before = (self._refusals or {}).get(index)
        if before is not None and len(typed) == 1 and shown == before[1]:
            typed = before[0] + typed  # Qt took none of these digits (all text selected)
            if shown.isdigit() and int(shown) == int(typed):
                self._set_refused(index, None)  # ... and they spell what it shows: that stands
                return
        self._set_refused(index, (typed.lstrip("0") or "0", shown))

    def _arrow_option(self) -> QStyleOptionComboBox:
        option = QStyleOptionComboBox()
        option.initFrom(self)
        option.editable = True
        option.subControls = QStyle.SubControl.SC_All
        return option

    def on_arrow(self, event: QMouseEvent) -> bool:
        """Whether a mouse event is on the arrow that opens the calendar."""
        arrow = self.style().hitTestComplexControl(
            QStyle.ComplexControl.CC_ComboBox, self._arrow_option(), event.position().toPoint(), self
        )
        return self.calendarPopup() and arrow == QStyle.SubControl.SC_ComboBoxArrow

    def start_calendar_at(self, shown: QDateTime, before: QDateTime) -> None:
        """Show ``shown`` (where the calendar should open) for a calendar about to open; closed
        without a pick, the picker gets ``before`` back (its "not set" value: the user chose no
        date by opening and dismissing the calendar)."""
        self._before_calendar = before
        self.setDateTime(shown)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        """A press in the text only places the cursor (a refusal stays); one on the arrow opens
        the calendar, whose pick then stands."""
        before = self._before_calendar
        shown = before if before is not None else self.dateTime()
        self._before_calendar = None
        if not self._calendar_named and self.calendarPopup() and self.on_arrow(event):
            self._calendar_named = True  # before it first shows: screen readers read the month
            name_calendar(self.calendarWidget())
        super().mousePressEvent(event)
        if not self.on_arrow(event):
            return
        if not self.calendarWidget().isVisible():  # the calendar did not open (read-only, disabled)
            if before is not None:
                self.setDateTime(before)
            return
        if self._popup is None:  # the calendar exists from now on
            self._popup = _CalendarWatch(self)
        self._popup.opened(shown)

    def _sections(self) -> list[str]:
        return [self.sectionText(self.sectionAt(i)) for i in range(self.sectionCount())]

    def note_leaving(self) -> None:  # the text is about to lose the focus, and Qt to fix it up
        self._typed_at_leave = self._sections()

    def _judge(self, typed: list[str] | None) -> None:
        """After Qt's fixup of the text (the picker left, Enter), which puts the last date back
        for a number left unfinished (year ``202``): each section of ``typed`` it replaced is
        a refusal, as a number the calendar cannot take, never a date sent."""
        for index, before in enumerate(typed or ()):
            shown = self.sectionText(self.sectionAt(index))
            if before.isdigit() and not (shown.isdigit() and int(shown) == int(before)):
                self._set_refused(index, (before.lstrip("0") or "0", shown))

    def focusOutEvent(self, event: QFocusEvent) -> None:
        typed, self._typed_at_leave = self._typed_at_leave or self._sections(), None
        super().focusOutEvent(event)
        self._judge(typed)

    def wheelEvent(self, event: QWheelEvent) -> None:  # a step, only while focused (WheelWhenFocused)
        self.forget_refusal()
        super().wheelEvent(event)


class _CalendarWatch(QObject):
    """The calendar popup of one date picker: a date picked there (click, Enter) stands;
    closed without a pick (Escape, a click elsewhere) the picker gets back the value it had when
    the calendar opened (Qt's popup moves the field's date along with its arrow keys)."""

    def __init__(self, picker: _TypingPicker):
        super().__init__(picker)
        self._before: QDateTime | None = None
        self._picked = False
        calendar = picker.calendarWidget()
        calendar.clicked.connect(self._pick)
        calendar.activated.connect(self._pick)
        calendar.window().installEventFilter(self)

    @property
    def _picker(self) -> _TypingPicker:
        """The picker (its Qt parent: the picker holds this watcher, so no reference back)."""
        return parent_as(self, _TypingPicker)

    def opened(self, shown: QDateTime) -> None:
        self._before, self._picked = shown, False

    def _pick(self, _date: QDate) -> None:
        self._picked = True
        self._picker.forget_refusal()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Hide:
            QTimer.singleShot(0, self, self._closed)  # after the popup's own pick handling
        return False

    def _closed(self) -> None:
        if not self._picked and self._before is not None and self._picker.dateTime() != self._before:
            self._picker.setDateTime(self._before)
        self._before = None


class _DateEdit(_TypingPicker, QDateEdit):
    refusal_changed = Signal()  # ``refused`` changed


class _DateTimeEdit(_TypingPicker, QDateTimeEdit):
    refusal_changed = Signal()


class _DatePart(FieldWidget):
    """Shared by date and date-time: a picker whose minimum is the "not set" sentinel."""

    editor_class: type[_DateEdit] | type[_DateTimeEdit] = _DateTimeEdit

    def __init__(self, spec: FieldSpec):
        super().__init__(spec)
        edit = self.editor_class()
        edit.setCalendarPopup(True)
        edit.setSpecialValueText(translate("Widgets", "Not set"))
        self.edit = edit
        self._setup(edit)
        edit.setMinimumDate(_NO_DATE)
        self._clear()
        edit.installEventFilter(self)
        edit.lineEdit().installEventFilter(self)
        WheelWhenFocused(edit)  # after this adapter's filter: it sees the wheel first
        edit.dateTimeChanged.connect(self.changed)
        edit.refusal_changed.connect(self.changed)
        edit.lineEdit().textChanged.connect(self._emptied)
        box = QWidget()
        row = QHBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(edit, 1)
        self._add_beside(row)
        self.clear_button: QToolButton | None = None
        if not spec.required:
            clear = QToolButton()
            clear.setText(translate("Widgets", "Clear"))
            clear.setAccessibleName(translate("Widgets", "Clear {field}").format(field=spec.title))
            clear.clicked.connect(self._clear)
            clear.clicked.connect(edit.forget_refusal)
            row.addWidget(clear)
            self.clear_button = clear
        self.widget = box
        self.focus_target = edit
        self.controls = [edit]

    def _setup(self, edit: QDateEdit | QDateTimeEdit) -> None:
        """Configure the picker before anything is shown in it."""

    def _add_beside(self, row: QHBoxLayout) -> None:
        """Add what a kind shows right of the picker (the date-time's offset)."""

    def _clear(self) -> None:
        self.edit.setDateTime(QDateTime(_NO_DATE, QTime(0, 0)))

    def _emptied(self, text: str) -> None:
        """A date whose text the user emptied (Ctrl+A and Delete or Backspace, a paste of
        nothing over it, Ctrl+U) is "Not set" at once: Qt would put the last date back when the
        field is left, and send it, though the user deleted it."""
        if not any(char.isdigit() for char in text) and not self.is_empty():
            self.edit.forget_refusal()
            self._clear()

    def _start(self) -> QDateTime:
        """Where editing from "Not set" starts: this hour today, local time."""
        now = QDateTime.currentDateTime()
        return QDateTime(now.date(), QTime(now.time().hour(), 0))

    def tab_chain(self) -> list[QWidget]:
        return [self.edit] + ([self.clear_button] if self.clear_button is not None else [])

    def is_empty(self) -> bool:
        return self.edit.date() == _NO_DATE

    def reveal_now(self) -> bool:
        return self.edit.refused is not None  # the picker shows another number than the one typed

    def refusal(self) -> str | None:
        """The error for a number typed that the picker could not take (see :class:`_TypingPicker`)."""
        refused = self.edit.refused
        if refused is None:
            return None
        typed, shown = refused
        return translate(
            "Validation", "{typed} is not possible there, so the picker shows {shown} instead. Type it again."
        ).format(typed=typed, shown=shown or "…")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Jump from "Not set" to now when the user starts to edit (a digit typed, a step with
        Up/Down/PageUp/PageDown or the wheel while focused), instead of stepping from the
        sentinel date. Opening the calendar (F4, Alt+Down, a click on its arrow) shows this month
        but chooses nothing: dismissed, the field is "Not set" again. Any other key (letters,
        Shift, Tab, Escape, Enter, Delete, shortcuts) and a click in the text change nothing."""
        kind = event.type()
        if kind in (QEvent.Type.FocusAboutToChange, QEvent.Type.FocusOut) and self.edit._typed_at_leave is None:
            self.edit.note_leaving()
        if watched is not self.edit or not self.is_empty():
            return False
        if kind == QEvent.Type.Wheel and self.edit.hasFocus():  # a step, as Up/Down
            self._start_editing()
            return False
        if kind == QEvent.Type.MouseButtonPress and isinstance(event, QMouseEvent):
            if self.edit.on_arrow(event):
                self.edit.start_calendar_at(self._start(), self.edit.dateTime())
            return False
        if kind != QEvent.Type.KeyPress or not isinstance(event, QKeyEvent):
            return False
        key, modifiers = event.key(), event.modifiers()
        if key in (Qt.Key.Key_F4, Qt.Key.Key_Down) and (
            key == Qt.Key.Key_F4 or modifiers & Qt.KeyboardModifier.AltModifier
        ):
            self.edit.start_calendar_at(self._start(), self.edit.dateTime())  # the picker opens it next
            return False
        text = event.text()
        steps = key in (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown)
        starts = (steps or (len(text) == 1 and text.isdigit())) and not modifiers & (
            Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ControlModifier
        )
        if starts:
            self._start_editing()
        return False

    def _start_editing(self) -> None:
        """From "Not set" to this hour today (:meth:`_start`), the year selected: typing then
        writes the year ("-" moves on), a step steps it."""
        self.edit.forget_refusal()
        self.edit.setDateTime(self._start())
        first = self.edit.sectionAt(0)
        self.edit.setCurrentSection(first)
        self.edit.setSelectedSection(first)


class DateField(_DatePart):
    """``format: date`` -> ``YYYY-MM-DD``."""

    editor_class = _DateEdit

    def __init__(self, spec: FieldSpec):
        super().__init__(spec)
        self.edit.setDisplayFormat("yyyy-MM-dd")

    def value(self) -> tuple[Any, str | None]:
        shown = None if self.is_empty() else self.edit.date().toString("yyyy-MM-dd")
        return shown, self.refusal()

    def set_value(self, value: Any) -> None:
        if value:
            self.edit.setDate(QDate.fromString(value, "yyyy-MM-dd"))


class DateTimeField(_DatePart):
    """``format: date-time`` -> RFC 3339 with seconds and offset.

    The picker shows wall-clock time in the field's frame: the default's own offset when there
    is a default (so an untouched ``…02:30:00+01:00`` stays ``+01:00`` even in the repeated
    hour of a DST change), else local time. The offset is shown beside the picker
    (``UTC+01:00``) whenever it is not the local one at that instant, or local time is
    ambiguous there. An untouched default is sent back as the exact string received.
    """

    editor_class = _DateTimeEdit

    def __init__(self, spec: FieldSpec):
        super().__init__(spec)
        self.edit.setDisplayFormat("yyyy-MM-dd HH:mm:ss")
        self.edit.dateTimeChanged.connect(self._show_offset)

    def _setup(self, edit: QDateEdit | QDateTimeEdit) -> None:
        #: The frame: a fixed offset (from the default), or ``None`` for local time.
        self.offset: _dt.timedelta | None = None
        self._untouched: tuple[QDateTime, str] | None = None
        edit.setTimeZone(QTimeZone.utc())  # a plain wall clock: no local DST gap can shift it

    def _add_beside(self, row: QHBoxLayout) -> None:
        self.offset_label = QLabel()
        self.offset_label.setObjectName(field_id(self.spec.name, "offset"))
        self.offset_label.hide()
        row.addWidget(self.offset_label)

    def _clear(self) -> None:
        self.edit.setDateTime(QDateTime(_NO_DATE, QTime(0, 0), QTimeZone.utc()))

    def _start(self) -> QDateTime:
        now = _dt.datetime.now(_dt.timezone(self.offset) if self.offset is not None else None)
        return QDateTime(QDate(now.year, now.month, now.day), QTime(now.hour, 0), QTimeZone.utc())

    def _wall(self) -> _dt.datetime:
        shown = self.edit.dateTime()
        date, time = shown.date(), shown.time()
        return _dt.datetime(date.year(), date.month(), date.day(), time.hour(), time.minute(), time.second())

    def _aware(self) -> _dt.datetime:
        wall = self._wall()
        if self.offset is not None:
            return wall.replace(tzinfo=_dt.timezone(self.offset))
        return wall.astimezone()  # local time; the first of a repeated hour

    def shown_offset(self) -> str:
        """The offset text beside the picker now (``""`` when it is the local one)."""
        if self.is_empty():
            return ""
        try:
            aware = self._aware()
            local = aware.astimezone().utcoffset()
            wall = self._wall()
            ambiguous = wall.replace(fold=0).astimezone().utcoffset() != wall.replace(fold=1).astimezone().utcoffset()
        except (OverflowError, ValueError, OSError):  # outside what the C library converts
            return _offset_text(self.offset) if self.offset is not None else ""
        sent = aware.utcoffset()
        assert sent is not None
        return _offset_text(sent) if (sent != local or ambiguous) else ""

    def _show_offset(self) -> None:
        text = self.shown_offset()
        self.offset_label.setText(text)
        self.offset_label.setVisible(bool(text))

    def value(self) -> tuple[Any, str | None]:
        if refused := self.refusal():
            return (None if self.is_empty() else self._aware().isoformat(timespec="seconds")), refused
        if self.is_empty():
            return None, None
        if self._untouched is not None and self.edit.dateTime() == self._untouched[0]:
            return self._untouched[1], None
        return self._aware().isoformat(timespec="seconds"), None

    def set_value(self, value: Any) -> None:
        parsed = _parse_rfc3339(value) if value else None
        if parsed is None:
            return
        date, time, self.offset, _exact = parsed
        self.edit.setDateTime(QDateTime(date, time, QTimeZone.utc()))
        self._untouched = (self.edit.dateTime(), value)
        self._show_offset()
