"""The widget adapters: one thin class per way of showing a field (which one a field gets is
:mod:`~elicit_tray.ui.registry`'s table).

Each adapter shares one value protocol (:class:`FieldWidget`): ``value()`` returns the
content-form value (``None`` = not given) and a parse error if the typed text cannot become a
value; ``changed`` fires on every edit; ``set_value`` applies a default. Constraints come from
the :class:`~elicit_tray.schema.FieldSpec`; defaults were already validated by the schema
layer, so they are applied as they are.

Each adapter also says what a user does with it (:meth:`FieldWidget.type_text`, ``paste``,
``clear``, ``toggle``, ``pick``, ``check``), through a :class:`Hand` that makes the real input
events (the scripted user's, :mod:`~elicit_tray.ui.scripted`), so no caller asks which adapter
it holds.
"""

from __future__ import annotations

import datetime as _dt
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, assert_never

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
from PySide6.QtGui import QKeyEvent, QMouseEvent, QWheelEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDateEdit,
    QDateTimeEdit,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QStyle,
    QStyleOptionComboBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..display import describe_char, display_line, invisible_chars
from ..schema import FieldKind, FieldSpec, coerce_number
from ..schema.formats import Keyboard, format_of
from .application import parent_as
from .form_row import field_id
from .i18n import translate
from .labels import WrappingLabel

__all__ = [
    "FieldWidget",
    "Hand",
    "escape_mnemonic",
    "WrappingLabel",
    "invisible_notice",
    "BooleanField",
    "ComboSelect",
    "DateField",
    "DateTimeField",
    "MultiSelect",
    "NumberField",
    "RadioSelect",
    "TextField",
    "TriStateBoolean",
    "picker_shows",
]
#: Sentinel date meaning "no date" in the date pickers (shown as the empty special text): Qt's
#: earliest picker date, so every date from 0100-01-02 on can be shown.
_NO_DATE = QDate(100, 1, 1)
#: Most characters a line edit holds (Qt's default, 32,767, silently cut longer text).
TEXT_CAPACITY = 2**31 - 1


def escape_mnemonic(text: str) -> str:
    """Server text for a widget whose text is parsed for ``&`` mnemonics: ``&`` -> ``&&``."""
    return text.replace("&", "&&")


def mnemonic_letter(text: str) -> str:
    """The lower-case letter after a single ``&`` in a widget text, or ``""``."""
    index = 0
    while (index := text.find("&", index)) >= 0 and index + 1 < len(text):
        if text[index + 1] != "&":
            return text[index + 1].lower()
        index += 2
    return ""


def assign_mnemonics(titles: list[str], reserved: str = "") -> list[str]:
    """Label texts for ``titles`` with a unique Alt+letter mnemonic each where one is free.

    Server ``&`` are escaped; the first letter or digit of a title not yet taken (nor in
    ``reserved``, e.g. the buttons' letters) gets the ``&``; a title without a free one gets
    none. Returns the texts in order.
    """
    taken = set(reserved.lower())
    out = []
    for title in titles:
        text = escape_mnemonic(title)
        for index, char in enumerate(title):
            if char.isalnum() and char.lower() not in taken and char.isascii():
                taken.add(char.lower())
                position = len(escape_mnemonic(title[:index]))
                text = text[:position] + "&" + text[position:]
                break
        out.append(text)
    return out


def invisible_notice(text: str) -> str:
    """What a field shows under a value holding characters that do not show as themselves
    (issue 10 §3: an invisible U+200F makes ``"\u200f12 34 56"`` read ``56 34 12``): their
    names and the value with them written out, e.g. ``Invisible characters in this value:
    U+200F RIGHT-TO-LEFT MARK. It is exactly: \\u200f12 34 56``; ``""`` for honest text."""
    found = invisible_chars(text)
    if not found:
        return ""
    return translate("Widgets", "Invisible characters in this value: {names}. It is exactly: {value}").format(
        names=", ".join(describe_char(c) for c in found), value=display_line(text)
    )


class Hand(Protocol):
    """What a user does to a control with real input events (the scripted user's hand,
    :mod:`~elicit_tray.ui.scripted`)."""

    def click(self, widget: QWidget) -> None:
        """A left click 8 px inside ``widget``'s top-left corner (on a button's indicator)."""

    def press(
        self, widget: QWidget, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
    ) -> None:
        """One key press and release on ``widget``."""

    def type(self, widget: QWidget, text: str) -> None:
        """Type ``text`` key by key into ``widget``."""

    def paste(self, widget: QWidget, text: str) -> None:
        """Put ``text`` on the clipboard and press Ctrl+V on ``widget``."""


_L = TypeVar("_L", QHBoxLayout, QVBoxLayout)


def _option_group(layout_type: type[_L], spacing: int | None = 2) -> tuple[QGroupBox, _L]:
    """A group of options (radio buttons, checkboxes): a ``QGroupBox`` for assistive technology,
    flat, untitled and borderless on screen, with its layout (no margins; ``spacing`` px between
    options, ``None`` for the style's)."""
    box = QGroupBox()
    box.setFlat(True)
    box.setStyleSheet("QGroupBox { border: none; margin: 0; padding: 0; }")
    layout = layout_type(box)
    layout.setContentsMargins(0, 0, 0, 0)
    if spacing is not None:
        layout.setSpacing(spacing)
    return box, layout


class FieldWidget(QObject):
    """Adapter base: ``widget`` goes into the form row; ``focus_target`` takes focus first.

    Subclasses set ``widget``, ``focus_target`` and ``controls`` (the widgets that need an
    accessible name/description), and implement ``value`` and ``set_value``.
    """

    changed = Signal()
    #: Whether the row label is the control's own text (checkbox, group box title).
    labels_itself = False
    #: Whether the field is one control named by the field title; otherwise ``widget`` is a
    #: group named by the title and each control is named by its option.
    single_control = True

    def __init__(self, spec: FieldSpec):
        super().__init__()
        self.spec = spec
        self.widget: QWidget
        self.focus_target: QWidget
        self.controls: list[QWidget] = []
        #: A label the form shows under ``widget`` (hidden while ``notice_text`` is empty).
        self.notice: QLabel | None = None
        #: What ``notice`` says now (:func:`invisible_notice`); part of the accessible description.
        self.notice_text = ""

    def value(self) -> tuple[Any, str | None]:
        """``(content value or None, parse error or None)``."""
        raise NotImplementedError

    def reveal_now(self) -> bool:
        """Whether the field's error must show at once, not only once the field is left (the
        control changed what the user typed)."""
        return False

    def set_value(self, value: Any) -> None:
        """Show ``value`` (content form)."""
        raise NotImplementedError

    def set_enabled(self, enabled: bool) -> None:
        """Enable or disable every control of the field."""
        self.widget.setEnabled(enabled)

    def set_label(self, text: str) -> None:
        """For controls that label themselves: show ``text`` (may hold an ``&`` mnemonic)."""

    def tab_chain(self) -> list[QWidget]:
        """The field's Tab stops, in order (its controls, then any helper button)."""
        return list(self.controls)

    # -- what a user does (scripted.py); the defaults fit a one-control field ---------------
    def _focus(self) -> QWidget:
        self.focus_target.setFocus()
        return self.focus_target

    def type_text(self, hand: Hand, text: str) -> None:
        """Focus the field and type ``text`` into it."""
        hand.type(self._focus(), text)

    def paste(self, hand: Hand, text: str) -> None:
        """Focus the field and paste ``text`` (whatever it holds, newlines too) with Ctrl+V."""
        hand.paste(self._focus(), text)

    def clear(self, hand: Hand) -> None:
        """Focus the field and empty it, where typing can (text fields; elsewhere: focus only)."""
        self._focus()

    def toggle(self, hand: Hand) -> None:
        """Focus the field and press Space (a checkbox flips)."""
        hand.press(self._focus(), Qt.Key.Key_Space)

    def pick(self, hand: Hand, title: str) -> None:
        """Choose the option titled ``title``. Raises ``ValueError`` (no such option; this
        field has no options)."""
        raise ValueError(f"no option titled {title!r}")

    def check(self, hand: Hand, titles: set[str], checked: bool, only: bool = False) -> None:
        """Check (``checked``) or uncheck the options titled ``titles``; ``only`` with
        ``checked`` unchecks every other one. Raises ``ValueError`` (not a multi-select, or
        ``titles`` names no option)."""
        raise ValueError(f"{self.spec.name!r} is not a multi-select")


def _input_hint(keyboard: Keyboard) -> Qt.InputMethodHint | None:
    """The input-method hint of a format's on-screen keyboard (``None``: the default one)."""
    match keyboard:
        case Keyboard.TEXT:
            return None
        case Keyboard.EMAIL:
            return Qt.InputMethodHint.ImhEmailCharactersOnly
        case Keyboard.URL:
            return Qt.InputMethodHint.ImhUrlCharactersOnly
        case _:
            assert_never(keyboard)


class TextField(FieldWidget):
    """A ``QLineEdit`` for plain strings and those of a ``format``
    (:data:`~elicit_tray.schema.formats.FORMATS`: its placeholder and keyboard). Empty text
    means "not given".

    Bidi controls and invisible characters in the text are kept exactly (the value goes back as
    typed or as the default was sent) and named under the field in ``notice``
    (:func:`invisible_notice`), kept current on every edit, before ``changed`` fires.
    """

    clear_button = True

    def __init__(self, spec: FieldSpec):
        super().__init__(spec)
        edit = QLineEdit()
        edit.setMaxLength(TEXT_CAPACITY)  # never cut: a value over maxLength gets its error instead
        edit.setClearButtonEnabled(self.clear_button)
        fmt = format_of(spec)
        if fmt is not None:
            if (hint := _input_hint(fmt.keyboard)) is not None:
                edit.setInputMethodHints(hint)
            if fmt.placeholder is not None:
                edit.setPlaceholderText(fmt.placeholder)
        self.notice = WrappingLabel()
        self.notice.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.notice.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.notice.hide()
        edit.textChanged.connect(self._update_notice)
        edit.textChanged.connect(self.changed)
        self.widget = self.focus_target = edit
        self.controls = [edit]
        self.edit = edit

    def _update_notice(self, text: str) -> None:
        self.notice_text = invisible_notice(text)
        assert self.notice is not None
        if self.notice.text() != self.notice_text:
            self.notice.setText(self.notice_text)
        if self.notice.parentWidget() is not None:  # placed in a form (never a window of its own)
            self.notice.setVisible(bool(self.notice_text))

    def value(self) -> tuple[Any, str | None]:
        text = self.edit.text()
        return (text or None), None

    def clear(self, hand: Hand) -> None:
        """Select all (Ctrl+A) and Backspace."""
        hand.press(self._focus(), Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        hand.press(self.edit, Qt.Key.Key_Backspace)

    def set_value(self, value: Any) -> None:
        self.edit.setText(value or "")


class NumberField(TextField):
    """A validated numeric entry that keeps exactly what was typed (no spin-box rounding)."""

    clear_button = False

    def __init__(self, spec: FieldSpec):
        super().__init__(spec)
        self.edit.setInputMethodHints(Qt.InputMethodHint.ImhFormattedNumbersOnly)

    def value(self) -> tuple[Any, str | None]:
        return coerce_number(self.spec, self.edit.text())

    def set_value(self, value: Any) -> None:
        self.edit.setText("" if value is None else str(value))


class BooleanField(FieldWidget):
    """A ``QCheckBox`` labelled with the title.

    For a required boolean, or one with a default: it always sends its visible state (an
    optional one without a default is a :class:`TriStateBoolean`).
    """

    labels_itself = True

    def __init__(self, spec: FieldSpec):
        super().__init__(spec)
        box = QCheckBox(escape_mnemonic(spec.title))
        box.toggled.connect(self._touch)
        self.widget = self.focus_target = box
        self.controls = [box]
        self.box = box
        self._given = spec.required or spec.default is not None

    def _touch(self) -> None:
        self._given = True
        self.changed.emit()

    def set_label(self, text: str) -> None:
        self.box.setText(text + (" *" if self.spec.required else ""))

    def value(self) -> tuple[Any, str | None]:
        return (self.box.isChecked() if self._given else None), None

    def set_value(self, value: Any) -> None:
        self.box.blockSignals(True)
        self.box.setChecked(bool(value))
        self.box.blockSignals(False)


class TriStateBoolean(FieldWidget):
    """An optional boolean without a default: three radio buttons, "Not set" (checked at
    first: nothing is sent), "Yes" (``true``) and "No" (``false``), so each answer is one
    deliberate choice (issue 12 §1)."""

    single_control = False

    def __init__(self, spec: FieldSpec):
        super().__init__(spec)
        box, layout = _option_group(QHBoxLayout, spacing=None)
        self.group = QButtonGroup(box)
        self.group.setExclusive(True)
        self.states: list[tuple[QRadioButton, bool | None]] = []
        for text, state in (
            (translate("Widgets", "Not set"), None),
            (translate("Widgets", "Yes"), True),
            (translate("Widgets", "No"), False),
        ):
            button = QRadioButton(text)
            self.group.addButton(button)
            layout.addWidget(button)
            self.states.append((button, state))
        layout.addStretch(1)
        self.states[0][0].setChecked(True)
        self.group.buttonToggled.connect(self._toggled)
        self.widget = box
        self.focus_target = self.states[0][0]
        self.controls = [b for b, _ in self.states]

    def _toggled(self, button: QAbstractButton, on: bool) -> None:
        if on:
            self.focus_target = button
            self.changed.emit()

    def value(self) -> tuple[Any, str | None]:
        return next(state for button, state in self.states if button.isChecked()), None

    def toggle(self, hand: Hand) -> None:
        """Click the next state: not set -> yes -> no -> not set."""
        self._focus()
        buttons = [b for b, _ in self.states]
        hand.click(buttons[(next(i for i, b in enumerate(buttons) if b.isChecked()) + 1) % len(buttons)])

    def set_value(self, value: Any) -> None:
        for button, state in self.states:
            if state is value:
                button.setChecked(True)


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


class _TabLeaves(_DatePicker):
    """Mixin for Qt's date pickers, so that typing a date works as people type it:

    - Tab moves to the next field (as everywhere in the form), not to the picker's next
      section; Left/Right still move between sections.
    - Typing ``2027-03-04`` gives 2027-03-04: Qt moves on by itself when a section is full,
      so a separator typed right after that is swallowed instead of skipping a section.
    - A number the calendar cannot take where it was typed (day 29 of February 2026, month 13,
      hour 25) is never quietly replaced: Qt shows the nearest value it can (2026-02-28), so the
      picker remembers what was typed (:attr:`refused`) and the field reports it as an error
      until the user types a value that stands or picks one (issue 12 §1: never an answer the
      user did not give).
    """

    _advanced = False
    _early: tuple[int, str, str] | None = None  # (section, typed, shown) Qt left before it was full
    _refusals: dict[int, tuple[str, str]] | None = None  # section index -> (typed, shown)
    _popup: _CalendarWatch | None = None
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
        if arrow.isEmpty():
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

    def mousePressEvent(self, event: QMouseEvent) -> None:
        """A press in the text only places the cursor (a refusal stays); one on the arrow opens
        the calendar, whose pick then stands."""
        shown = self.dateTime()
        super().mousePressEvent(event)
        if not self.calendarPopup():
            return
        arrow = self.style().hitTestComplexControl(
            QStyle.ComplexControl.CC_ComboBox, self._arrow_option(), event.position().toPoint(), self
        )
        if arrow != QStyle.SubControl.SC_ComboBoxArrow:
            return
        if self._popup is None:  # the calendar exists from now on
            self._popup = _CalendarWatch(self)
        self._popup.opened(shown)

    def wheelEvent(self, event: QWheelEvent) -> None:
        self.forget_refusal()
        super().wheelEvent(event)


class _CalendarWatch(QObject):
    """The calendar popup of one date picker: a date picked there (click, Enter) stands;
    closed without a pick (Escape, a click elsewhere) the picker gets back the value it had when
    the calendar opened (Qt's popup moves the field's date along with its arrow keys)."""

    def __init__(self, picker: _TabLeaves):
        super().__init__(picker)
        self._before: QDateTime | None = None
        self._picked = False
        calendar = picker.calendarWidget()
        calendar.clicked.connect(self._pick)
        calendar.activated.connect(self._pick)
        calendar.window().installEventFilter(self)

    @property
    def _picker(self) -> _TabLeaves:
        """The picker (its Qt parent: the picker holds this watcher, so no reference back)."""
        return parent_as(self, _TabLeaves)

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


class _DateEdit(_TabLeaves, QDateEdit):
    refusal_changed = Signal()  # ``refused`` changed


class _DateTimeEdit(_TabLeaves, QDateTimeEdit):
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
        edit.dateTimeChanged.connect(self.changed)
        edit.refusal_changed.connect(self.changed)
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
        """The error for a number typed that the picker could not take (see :class:`_TabLeaves`)."""
        refused = self.edit.refused
        if refused is None:
            return None
        typed, shown = refused
        return translate(
            "Validation", "{typed} is not possible there, so the picker shows {shown} instead. Type it again."
        ).format(typed=typed, shown=shown or "…")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Jump from "Not set" to now when the user starts to edit (a key, a click on the popup
        arrow), instead of stepping from the sentinel date. Tab, Shift+Tab and Escape pass through."""
        if watched is self.edit and self.is_empty():
            starts = event.type() == QEvent.Type.MouseButtonPress or (
                event.type() == QEvent.Type.KeyPress
                and isinstance(event, QKeyEvent)
                and event.key()
                not in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab, Qt.Key.Key_Escape, Qt.Key.Key_Return, Qt.Key.Key_Enter)
                and not event.modifiers() & (Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ControlModifier)
            )
            if starts:
                self.edit.forget_refusal()
                self.edit.setDateTime(self._start())
                first = self.edit.sectionAt(0)  # typing then writes the year, "-" moves on
                self.edit.setCurrentSection(first)
                self.edit.setSelectedSection(first)
        return False


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


def _parse_rfc3339(value: str) -> tuple[QDate, QTime, _dt.timedelta, bool] | None:
    """``(date, time to the second, offset, exact)`` of an RFC 3339 date-time; ``exact`` is
    False when the picker cannot show it as it is (a fraction of a second, a leap second)."""
    import re

    found = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(\.\d+)?(?:[Zz]|([+-])(\d\d):(\d\d))", value)
    if not found:
        return None
    y, mo, d, h, mi, sec = (int(g) for g in found.groups()[:6])
    fraction, sign, oh, om = found.groups()[6:]
    offset = (
        _dt.timedelta(0) if sign is None else (1 if sign == "+" else -1) * _dt.timedelta(hours=int(oh), minutes=int(om))
    )
    date = QDate(y, mo, d)
    exact = date.isValid() and date > _NO_DATE and sec < 60 and fraction is None
    return date, QTime(h, mi, min(sec, 59)), offset, exact


def picker_shows(spec: FieldSpec) -> bool:
    """Whether the date/date-time picker can show ``spec.default`` exactly (dates after
    0100-01-01, whole seconds); otherwise the field is a validated text field."""
    if spec.default is None:
        return True
    if spec.kind is FieldKind.DATE:
        date = QDate.fromString(spec.default, "yyyy-MM-dd")
        return date.isValid() and date > _NO_DATE
    parsed = _parse_rfc3339(spec.default)
    return parsed is not None and parsed[3]


def _offset_text(offset: _dt.timedelta) -> str:
    minutes = int(offset.total_seconds()) // 60
    sign = "+" if minutes >= 0 else "-"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


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


class ComboSelect(FieldWidget):
    """A ``QComboBox`` of option titles. Optional: a first "Not set" entry; required without
    default: nothing selected (placeholder) until the user picks."""

    def __init__(self, spec: FieldSpec):
        super().__init__(spec)
        combo = QComboBox()
        self._offset = 0
        if not spec.required:
            combo.addItem(translate("Widgets", "Not set"), None)
            self._offset = 1
        for option in spec.options:
            combo.addItem(option.title, option.value)
        combo.setPlaceholderText(translate("Widgets", "Choose…"))
        combo.setCurrentIndex(0 if not spec.required else -1)
        combo.currentIndexChanged.connect(self.changed)
        self.widget = self.focus_target = combo
        self.controls = [combo]
        self.combo = combo

    def value(self) -> tuple[Any, str | None]:
        index = self.combo.currentIndex()
        return (None if index < 0 else self.combo.itemData(index)), None

    def pick(self, hand: Hand, title: str) -> None:
        """Choose the entry titled ``title`` as the popup does (current index, ``activated``)."""
        index = self.combo.findText(title, Qt.MatchFlag.MatchExactly)
        if index < 0:
            raise ValueError(f"no option titled {title!r}")
        self.combo.setFocus()
        self.combo.setCurrentIndex(index)
        self.combo.activated.emit(index)

    def set_value(self, value: Any) -> None:
        self.combo.setCurrentIndex(self.combo.findData(value))


class RadioSelect(FieldWidget):
    """A radio group for a short required single-select; starts unselected without a default."""

    single_control = False

    def __init__(self, spec: FieldSpec):
        super().__init__(spec)
        box, layout = _option_group(QVBoxLayout)
        self.group = QButtonGroup(box)
        self.group.setExclusive(True)
        self.buttons: list[QRadioButton] = []
        for option in spec.options:
            button = QRadioButton(escape_mnemonic(option.title))
            button.setProperty("optionValue", option.value)
            self.group.addButton(button)
            layout.addWidget(button)
            self.buttons.append(button)
        self.group.buttonToggled.connect(lambda _b, _on: self.changed.emit())
        self.widget = box
        self.focus_target = self.buttons[0]
        self.controls = list(self.buttons)

    def value(self) -> tuple[Any, str | None]:
        checked: QAbstractButton | None = self.group.checkedButton()
        return (None if checked is None else checked.property("optionValue")), None

    def pick(self, hand: Hand, title: str) -> None:
        """Click the radio button titled ``title``."""
        for button in self.buttons:
            if button.text().replace("&&", "&") == title:
                hand.click(button)
                return
        raise ValueError(f"no option titled {title!r}")

    def set_value(self, value: Any) -> None:
        for button in self.buttons:
            if button.property("optionValue") == value:
                button.setChecked(True)
                self.focus_target = button


class MultiSelect(FieldWidget):
    """A group of checkable options, named by the field for assistive technology (the row label
    shows the title); the value lists checked options in option order."""

    single_control = False

    def __init__(self, spec: FieldSpec):
        super().__init__(spec)
        group, layout = _option_group(QVBoxLayout)
        self.boxes: list[QCheckBox] = []
        for option in spec.options:
            box = QCheckBox(escape_mnemonic(option.title))
            box.setProperty("optionValue", option.value)
            box.toggled.connect(self._touch)
            layout.addWidget(box)
            self.boxes.append(box)
        self.widget = group
        self.group = group
        self.focus_target = self.boxes[0]
        self.controls = list(self.boxes)
        self._given = False

    def _touch(self) -> None:
        self._given = True
        self.changed.emit()

    def check(self, hand: Hand, titles: set[str], checked: bool, only: bool = False) -> None:
        """Space on each box whose state must change."""
        boxes = {b.text().replace("&&", "&"): b for b in self.boxes}
        unknown = set(titles) - set(boxes)
        if unknown:
            raise ValueError(f"no such options: {sorted(unknown)}")
        for title, box in boxes.items():
            want = checked if title in titles else (False if only and checked else box.isChecked())
            if box.isChecked() != want:
                box.setFocus()
                hand.press(box, Qt.Key.Key_Space)

    def value(self) -> tuple[Any, str | None]:
        chosen = [b.property("optionValue") for b in self.boxes if b.isChecked()]
        if not chosen and not self._given and not self.spec.required:
            return None, None
        return chosen, None

    def set_value(self, value: Any) -> None:
        for box in self.boxes:
            box.blockSignals(True)
            box.setChecked(box.property("optionValue") in (value or []))
            box.blockSignals(False)
        self._given = value is not None


def __getattr__(name: str) -> Any:
    """``WidgetRegistry``, ``registry`` and ``RADIO_MAX_OPTIONS`` moved to
    :mod:`~elicit_tray.ui.registry`; importing them from here still works (read lazily:
    the registry imports this module)."""
    if name in ("WidgetRegistry", "registry", "RADIO_MAX_OPTIONS"):
        from . import registry as _registry

        return getattr(_registry, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
