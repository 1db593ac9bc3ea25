"""The widget adapters: one thin class per way of showing a field (which one a field gets is
:mod:`~elicit_tray.ui.registry`'s table; the date and date-time adapters, built on Qt's date
pickers, are in :mod:`~elicit_tray.ui.datepicker`).

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

from typing import Any, Protocol, TypeVar, assert_never

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from ..display import describe_char, display_line, invisible_chars
from ..schema import FieldSpec, coerce_number
from ..schema.formats import Keyboard, format_of
from .a11y import speak_selection
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
    "MultiSelect",
    "NumberField",
    "OneTabStop",
    "RadioSelect",
    "TextField",
    "TriStateBoolean",
    "WheelWhenFocused",
]

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
    (an invisible U+200F makes ``"\u200f12 34 56"`` read ``56 34 12``, so the value seen is
    not the value sent): their
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

    For a required boolean, or one with a default: it always sends its visible state, checked
    ``true``, unchecked ``false`` (an optional one without a default is a
    :class:`TriStateBoolean`). Should it serve one anyway (a registry override), unchecked is
    its "not set" look and sends nothing, however often it was toggled: what is sent depends
    only on what it shows (README "What a form sends").
    """

    labels_itself = True

    def __init__(self, spec: FieldSpec):
        super().__init__(spec)
        box = QCheckBox(escape_mnemonic(spec.title))
        box.toggled.connect(self.changed)
        self.widget = self.focus_target = box
        self.controls = [box]
        self.box = box
        #: Whether unchecked is the answer ``false`` (required, or a default was applied).
        self._unchecked_is_false = spec.required or spec.default is not None

    def set_label(self, text: str) -> None:
        self.box.setText(text + (" *" if self.spec.required else ""))

    def value(self) -> tuple[Any, str | None]:
        if self.box.isChecked():
            return True, None
        return (False if self._unchecked_is_false else None), None

    def set_value(self, value: Any) -> None:
        self.box.blockSignals(True)
        self.box.setChecked(bool(value))
        self.box.blockSignals(False)
        self._unchecked_is_false = self.spec.required or value is not None


class TriStateBoolean(FieldWidget):
    """An optional boolean without a default: three radio buttons, "Not set" (checked at
    first: nothing is sent), "Yes" (``true``) and "No" (``false``), so each answer is one
    deliberate choice (``docs/design.md`` "UI rules": a value is sent only when the user set
    it or the server's default stands as shown)."""

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
        OneTabStop(self.group, [b for b, _ in self.states])
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


class OneTabStop(QObject):
    """Makes an exclusive group of radio ``buttons`` one Tab stop, as native toolkits do (the
    WAI-ARIA radio group pattern): Tab and Shift+Tab enter it at its checked option, else at
    its first; the arrows move within it. Qt moves the stop to whichever option had the focus
    last; this puts it back when the choice changes and when the focus leaves the group."""

    def __init__(self, group: QButtonGroup, buttons: list[QRadioButton]):
        super().__init__(group)
        self._buttons = list(buttons)
        for button in self._buttons:
            button.installEventFilter(self)
        group.buttonToggled.connect(lambda _button, _on: self.reset())
        self.reset()

    def reset(self) -> None:
        """The checked option (else the first) takes Tab, the others only the arrows and clicks."""
        entry = next((b for b in self._buttons if b.isChecked()), self._buttons[0])
        tab = Qt.FocusPolicy.TabFocus.value
        for button in self._buttons:
            policy = button.focusPolicy().value
            button.setFocusPolicy(Qt.FocusPolicy(policy | tab if button is entry else policy & ~tab))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt naming)
        if event.type() == QEvent.Type.FocusOut and QApplication.focusWidget() not in self._buttons:
            self.reset()
        return False


class WheelWhenFocused(QObject):
    """Event filter: the mouse wheel changes the value of a control (combo box, date picker)
    only while the control has the keyboard focus; over any other it scrolls the form. A wheel
    turned to scroll a long form must not pick an option or a date on the way (README "What a
    form sends"). The control's focus policy becomes ``StrongFocus`` (Qt's ``WheelFocus``
    would give it the focus by the very wheel event)."""

    def __init__(self, control: QWidget):
        super().__init__(control)
        control.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        control.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Wheel and isinstance(watched, QWidget) and not watched.hasFocus():
            event.ignore()  # Qt hands an ignored wheel event on to the parents: the scroll area
            return True
        return False


class ComboSelect(FieldWidget):
    """A ``QComboBox`` of option titles. Optional: a first "Not set" entry; required without
    default: nothing selected (placeholder) until the user picks. The wheel changes the entry
    only while the combo box has the focus (:class:`WheelWhenFocused`)."""

    def __init__(self, spec: FieldSpec):
        super().__init__(spec)
        combo = QComboBox()
        WheelWhenFocused(combo)
        self._offset = 0
        if not spec.required:
            combo.addItem(translate("Widgets", "Not set"), None)
            self._offset = 1
        for option in spec.options:
            combo.addItem(option.title, option.value)
        combo.setPlaceholderText(translate("Widgets", "Choose…"))
        combo.setCurrentIndex(0 if not spec.required else -1)
        combo.currentIndexChanged.connect(self.changed)
        speak_selection(combo)  # typing or an arrow key in the closed list is read
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
        OneTabStop(self.group, self.buttons)
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
    shows the title); the value lists checked options in option order.

    Nothing checked is the answer ``[]`` for a required field or one whose default was applied
    (the user took the default away); for an optional field without a default it is the look
    the field had at first, "not set", and sends nothing however often options were toggled
    on and off: what is sent depends only on what the field shows (README "What a form sends").
    """

    single_control = False

    def __init__(self, spec: FieldSpec):
        super().__init__(spec)
        group, layout = _option_group(QVBoxLayout)
        self.boxes: list[QCheckBox] = []
        for option in spec.options:
            box = QCheckBox(escape_mnemonic(option.title))
            box.setProperty("optionValue", option.value)
            box.toggled.connect(self.changed)
            layout.addWidget(box)
            self.boxes.append(box)
        self.widget = group
        self.group = group
        self.focus_target = self.boxes[0]
        self.controls = list(self.boxes)
        #: Whether nothing checked is the answer ``[]`` (required, or a default was applied).
        self._none_is_answer = spec.required

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
        if not chosen and not self._none_is_answer:
            return None, None
        return chosen, None

    def reveal_now(self) -> bool:
        """A choice over ``maxItems`` shows its error at once: the user has just made it."""
        limit = self.spec.max_items
        return limit is not None and sum(b.isChecked() for b in self.boxes) > limit

    def set_value(self, value: Any) -> None:
        for box in self.boxes:
            box.blockSignals(True)
            box.setChecked(box.property("optionValue") in (value or []))
            box.blockSignals(False)
        self._none_is_answer = self.spec.required or value is not None
