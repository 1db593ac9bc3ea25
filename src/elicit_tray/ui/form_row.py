"""The form-row template (rjsf's row template): one field's label, control, invisible-character
notice, description and error, with deterministic ids.

As react-jsonschema-form does: deterministic ids per field, ``field-<name>`` for the
control and ``field-<name>-<part>`` for its parts (:func:`field_id`), used as ``objectName``
everywhere; the accessible description is description + notice + current error, never the
title. docs/design.md "UI rules" (every label bound to its control; errors inline, in words).

This module never knows a field's kind: the control comes from an adapter
(:class:`~elicit_tray.ui.widgets.FieldWidget`) picked by :mod:`~elicit_tray.ui.registry`.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QFocusEvent, QPalette
from PySide6.QtWidgets import QAbstractButton, QFormLayout, QLabel, QVBoxLayout, QWidget

from ..schema import FieldSpec, check_value, describe_constraints
from .a11y import describes
from .i18n import translated
from .labels import WrappingLabel, plain_label
from .typed_patterns import typed_patterns

if TYPE_CHECKING:
    from .widgets import FieldWidget

__all__ = ["ErrorLabels", "FieldPart", "FormRow", "field_id", "sentences", "spoken"]

#: The parts of a row that have an id of their own besides the control (``""``).
FieldPart = Literal["", "label", "description", "error", "invisible", "offset"]


def field_id(name: str, part: FieldPart = "") -> str:
    """The id (``objectName``) of field ``name``'s control (``part=""``): ``field-<name>``, or
    of one of its parts: ``field-<name>-label``, ``-description``, ``-error``, ``-invisible``
    (the invisible-character notice), ``-offset`` (a date-time's UTC offset)."""
    return f"field-{name}-{part}" if part else f"field-{name}"


def sentences(*parts: str | None) -> str:
    """Join pieces of text into one readable run: each non-empty piece ends with punctuation
    (server descriptions often lack a final full stop)."""
    out = []
    for part in filter(None, (p.strip() if p else p for p in parts)):
        out.append(part if part[-1] in ".!?:;…。！？" else part + ".")
    return " ".join(out)


def spoken(description: str, notice: str, error: str) -> str:
    """A field's accessible description: its description and constraints, the invisible-character
    notice (as shown: nothing is appended to the value it ends with), and its current error."""
    return " ".join(filter(None, (description, notice, sentences(error))))


class _PassFocus(QObject):
    """Makes ``adapter``'s group (``adapter.widget``) focusable by click and by its label's
    Alt+letter only (no Tab stop of its own), handing the focus at once to the control the
    field is entered at (``adapter.focus_target``: a radio group's checked option, else its
    first; a multi-select's first option)."""

    def __init__(self, adapter: FieldWidget):
        super().__init__(adapter.widget)
        self._adapter = weakref.ref(adapter)
        adapter.widget.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        adapter.widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt naming)
        adapter = self._adapter()
        if event.type() == QEvent.Type.FocusIn and adapter is not None and isinstance(event, QFocusEvent):
            adapter.focus_target.setFocus(event.reason())
        return False


class FormRow:
    """One field of a form, laid out in ``form`` (a ``QFormLayout``) by :meth:`add`.

    Attributes:
        adapter: the field's :class:`~elicit_tray.ui.widgets.FieldWidget`.
        label: the row label bound to the control (``None`` when the control labels itself).
        error: the inline error label (id ``field-<name>-error``), hidden while there is none;
            made the first time it is asked for (:attr:`error`): most fields never show an error,
            and a label per row was a tenth of a form's widgets (memory, README "Memory").
        hint: the shown description and constraints (``-description``), or ``None``.
        description: description and constraints (required included) as screen readers get it.
        spoken: the accessible description now (:func:`spoken`).
        revealed: whether errors show (after the field was left or a submit attempt).
    """

    def __init__(
        self,
        adapter: FieldWidget,
        label: QLabel | None,
        column: QVBoxLayout,
        description: str,
        hint: QLabel | None = None,
    ):
        self.adapter = adapter
        self.label = label
        self._column = column  # the control's column: the error label goes last in it
        self._error: QLabel | None = None
        self.hint = hint
        self.description = description
        self.spoken = description  # the accessible description now: description, notice, error
        self.notice_shown = bool(adapter.notice_text)
        self.revealed = False  # errors are shown after the field was left or a submit attempt

    @classmethod
    def add(cls, form: QFormLayout, adapter: FieldWidget, label_text: str, *, long_titles: bool) -> FormRow:
        """Lay out ``adapter``'s field as a new row of ``form``: the label (``label_text``, with
        its ``&`` mnemonic; ``*`` added for a required field) bound to the control, and under the
        control the notice and the description (the error label comes under them when first
        needed: :attr:`error`). ``long_titles``: every label
        sits above its field and wraps. Sets the ids, accessible names and descriptions."""
        spec = adapter.spec
        description = sentences(spec.description, translated(describe_constraints(spec)))
        cell = QWidget()
        column = QVBoxLayout(cell)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        column.addWidget(adapter.widget)
        described = adapter.controls[0] if adapter.single_control else adapter.widget
        if adapter.notice is not None:  # invisible characters in the value, named
            describes(adapter.notice, described)  # read with the field (its description), not apart
            adapter.notice.setObjectName(field_id(spec.name, "invisible"))
            adapter.notice.setForegroundRole(QPalette.ColorRole.PlaceholderText)
            column.addWidget(adapter.notice)
            adapter.notice.setVisible(bool(adapter.notice_text))
        shown_hint = sentences(spec.description, translated(describe_constraints(replace(spec, required=False))))
        hint: QLabel | None = None
        if shown_hint:
            hint = plain_label(shown_hint, selectable=False)  # cheaper layout; readers get the description
            describes(hint, described)
            hint.setObjectName(field_id(spec.name, "description"))
            hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)
            column.addWidget(hint)
        label: QLabel | None = None
        if adapter.labels_itself:  # a checkbox: its own text is the label, in the field column
            if long_titles:
                form.addRow(cell)
            else:
                form.addRow(QLabel(), cell)
        else:
            label = WrappingLabel(label_text + (" *" if spec.required else ""))  # long words wrap too
            label.setObjectName(field_id(spec.name, "label"))
            buddy = adapter.focus_target
            if isinstance(buddy, QAbstractButton):
                # Qt clicks a button buddy on the label's Alt+letter: reaching a multi-select
                # would toggle its first option. The group is the buddy and passes the focus on.
                # Not as its focus proxy: Qt gives a proxy the group's focus policy, and the
                # first option lost its Tab stop (Tab and Shift+Tab skipped it).
                _PassFocus(adapter)
                buddy = adapter.widget
            label.setBuddy(buddy)
            label.setWordWrap(long_titles)
            if long_titles:
                # The label above its field in the row's own column: QFormLayout's wrapped rows
                # under-count their height for a width, and a tall form's options got squashed.
                column.insertWidget(0, label)
                side = (
                    Qt.AlignmentFlag.AlignRight
                    if label.layoutDirection() == Qt.LayoutDirection.RightToLeft
                    else Qt.AlignmentFlag.AlignLeft
                )  # the form's leading edge, whatever the title's script
                label.setAlignment(side | Qt.AlignmentFlag.AlignAbsolute | Qt.AlignmentFlag.AlignTop)
                form.addRow(cell)
            else:  # Qt's size hint of a mnemonic label is a few pixels short
                label.setMinimumWidth(label.fontMetrics().horizontalAdvance(label.text() + "  "))
                form.addRow(label, cell)
        adapter.widget.setObjectName(field_id(spec.name))
        row = cls(adapter, label, column, description, hint)
        for named in adapter.controls if adapter.single_control else [adapter.widget]:
            named.setAccessibleName(spec.title)
        row.spoken = spoken(description, adapter.notice_text, "")
        for widget in row.described():
            widget.setAccessibleDescription(row.spoken)
        return row

    @property
    def spec(self) -> FieldSpec:
        """The field's :class:`~elicit_tray.schema.FieldSpec`."""
        return self.adapter.spec

    @property
    def error(self) -> QLabel:
        """The inline error label (id ``field-<name>-error``), under the control, its
        description and notice; hidden while there is no error. Made on first use."""
        if self._error is None:
            error = plain_label("")
            describes(error, self.described()[0])  # the error is part of the field's description
            error.setObjectName(self.error_id)
            error.hide()
            self._column.addWidget(error)
            self._error = error
        return self._error

    @property
    def has_error_label(self) -> bool:
        """Whether :attr:`error` has been made (asking for it makes it)."""
        return self._error is not None

    @property
    def error_text(self) -> str:
        """The error label's text, ``""`` while it has none (without making the label)."""
        return "" if self._error is None else self._error.text()

    @property
    def error_id(self) -> str:
        """``field-<name>-error``: the key of :attr:`error` in the dialog's ``error_labels``."""
        return field_id(self.spec.name, "error")

    def described(self) -> list[QWidget]:
        """The widgets whose accessible description carries the field's description and error:
        the controls, and the group around them for a multi-control field."""
        grouped = [] if self.adapter.single_control else [self.adapter.widget]
        return grouped + list(self.adapter.controls)

    def current(self) -> tuple[Any, str | None]:
        """``(value, problem)`` of the field now: the adapter's parse error, else the schema
        layer's :func:`~elicit_tray.schema.check_value` message, else ``None``. A ``pattern``
        verdict not known yet is not waited for (:mod:`~.typed_patterns`)."""
        value, parse_error = self.adapter.value()
        return value, parse_error or check_value(self.spec, value, pattern_check=typed_patterns().verdict)


class ErrorLabels(Mapping[str, QLabel]):
    """id (``field-<name>-error``) -> inline error label of each row of ``rows`` (property name
    -> row, filled as rows are added): every row's id is a key; looking a label up makes it
    (:attr:`FormRow.error`), :meth:`made` lists only those that exist."""

    def __init__(self, rows: dict[str, FormRow]):
        self._rows = rows

    def _row(self, key: str) -> FormRow | None:
        if not key.startswith("field-") or not key.endswith("-error"):
            return None
        row = self._rows.get(key[len("field-") : -len("-error")])
        return row if row is not None and row.error_id == key else None

    def __getitem__(self, key: str) -> QLabel:
        row = self._row(key)
        if row is None:
            raise KeyError(key)
        return row.error

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._row(key) is not None

    def __iter__(self) -> Iterator[str]:
        return (row.error_id for row in self._rows.values())

    def __len__(self) -> int:
        return len(self._rows)

    def made(self) -> list[QLabel]:
        """The error labels made so far (none is made by this)."""
        return [row.error for row in self._rows.values() if row.has_error_label]
