"""The form-mode dialog: one row per field, inline errors, Accept only when valid.

MCP 2025-11-25 "Form mode" (review and modify before sending; decline and cancel) and
docs/design.md "UI rules": first field focused, Tab order = schema order, Enter accepts a valid
form (otherwise reveals the errors and focuses the first invalid field), Escape cancels,
Alt+D declines; every control has an accessible name (its title) and description
(description + constraints + current error).
"""

from __future__ import annotations

import time
import weakref
from collections import deque
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer
from PySide6.QtWidgets import QFormLayout, QVBoxLayout, QWidget

from ..request import Accepted, FormRequest
from ..schema import FieldSpec, FormSpec, build_content, looks_secret, validate_content
from .a11y import describes
from .arming import ARM_DELAY_MS, InputGate
from .base import ElicitationDialog
from .form_row import ErrorLabels, FormRow, sentences, spoken
from .i18n import translate, translated
from .labels import announce, plain_label, warning_label
from .registry import WidgetRegistry, registry
from .sizing import FormLayout, box_content, laid_out
from .style import error_css
from .typed_patterns import typed_patterns
from .widgets import assign_mnemonics, mnemonic_letter

__all__ = ["FormDialog", "FIRST_ROWS", "LATER_ROWS", "SLICE_S"]

#: Titles longer than this (characters) put every label above its field.
LONG_TITLE = 28
#: Rows built before the dialog is first shown (a screenful of most forms; the next chunk comes
#: right after the first paint, so the first turn stays short).
FIRST_ROWS = 16
#: Most rows built per event-loop turn after that.
LATER_ROWS = 40
#: Longest time (seconds) spent building rows in one event-loop turn after the first paint.
SLICE_S = 0.008
#: The events Qt posts to the widgets of a new chunk of rows (polish, layout, repaint; never
#: input): delivered in the turn that built the chunk, while the input gate is paused, rather
#: than one by one through the gate on the next turn (they were four fifths of its calls).
_BUILD_EVENTS = (QEvent.Type.PolishRequest, QEvent.Type.LayoutRequest, QEvent.Type.UpdateLater)


class FormDialog(ElicitationDialog):
    """A native form built from a :class:`~elicit_tray.schema.FormSpec`.

    Emits ``answered`` with ``Accepted(content)``, ``Declined()`` or ``Cancelled(how)``.
    ``rows`` (property name -> row) is public for tests and the scripted user.
    """

    spec: FormSpec

    def __init__(
        self, request: FormRequest | None, *, widgets: WidgetRegistry = registry, arm_delay_ms: int = ARM_DELAY_MS
    ):
        """The dialog for ``request``; with ``None`` only its frame, kept hidden until
        :meth:`take` gives it its request (the presenter keeps one ready)."""
        super().__init__(None, arm_delay_ms=arm_delay_ms)
        self.widgets = widgets
        self.rows: dict[str, FormRow] = {}
        self.error_labels = ErrorLabels(self.rows)  # each made when its row first shows an error
        self._invalid: list[FormRow] = []
        self.accept_button = self.add_commit_button(translate("FormDialog", "&Accept"), "accept")
        if request is not None:
            self.take(request)

    def take(self, request: FormRequest) -> None:
        """Show ``request`` in this frame: who asks, the message and the form. Once only
        (a second request raises ``RuntimeError``): a frame serves one request in its life."""
        self._show_request(request)
        self.spec = request.form
        if any(f.pattern is not None for f in self.spec.fields):  # a typed value's check answered late
            typed_patterns().answered.connect(self._validate, Qt.ConnectionType.QueuedConnection)

        #: Property names of the fields the secret warning names (judged by name, title and kind).
        self.secret_fields = [f.name for f in self.spec.fields if looks_secret(f)]
        secrets = [self.spec.field(name).title for name in self.secret_fields]
        if secrets:
            self.body.addWidget(
                warning_label(
                    translate(
                        "FormDialog",
                        "This form seems to ask for a secret ({fields}). MCP forbids servers to ask for "
                        "passwords, tokens or keys in a form. Decline unless you are sure.",
                    ).format(fields=", ".join(secrets))
                )
            )

        if any(f.required for f in self.spec.fields):
            legend = plain_label(translate("FormDialog", "Fields marked * are required."), selectable=False)
            legend.setObjectName("required-legend")
            describes(legend, self)  # each required field's description says "Required."
            self.body.addWidget(legend)
        # The rows go into chunks, each its own QFormLayout stacked in ``form_box``: a chunk added
        # after the first paint is laid out on its own, not the whole form again (the cost of a
        # big form grows with its rows, not their square). Label columns are kept equal.
        form_box = QWidget()
        self._stack = QVBoxLayout(form_box)
        self._stack.setContentsMargins(0, 0, 0, 0)
        # Short titles: a label column, labels on one line. Any long title: every label above its
        # field, wrapped at the full width (a long title in a narrow column would be cut off).
        self._long_titles = any(len(f.title) > LONG_TITLE for f in self.spec.fields)
        self._anchors: list[QWidget] = []  # the first label of each chunk: it holds the column's width
        self._label_width = 0
        first = QWidget()
        form = self._chunk(first)
        self._stack.addWidget(first)
        spacing = form.verticalSpacing()
        self._stack.setSpacing(spacing if spacing >= 0 else 6)  # between chunks as between rows
        taken = "d" + "".join(
            mnemonic_letter(b.text())
            for b in (self.decline_button, self.cancel_button, self.close_button, self.accept_button)
        )
        mnemonics = assign_mnemonics([f.title for f in self.spec.fields], reserved=taken)
        # The rows a screen can show are built now; the rest right after the first paint, in
        # batches, long before Accept is armed (a 200-field form paints in half the time).
        self._later = deque(zip(self.spec.fields, mnemonics, strict=True))
        self._building = False
        # Accept arms only when every row exists; asked through a weak reference, so that the
        # arming (which the dialog holds) holds nothing of the dialog back.
        rows_built = weakref.WeakMethod(self._every_row_built)
        self.arming.ready = lambda: (check := rows_built()) is not None and check()
        self._build_rows(form, FIRST_ROWS)
        if not self.spec.fields:
            form_box.hide()
        self.body.addWidget(form_box)
        self._set_tab_order()
        self._validate()

    def _chunk(self, box: QWidget) -> QFormLayout:
        """A new chunk of rows: ``box`` with its form layout, stacked last in the form."""
        form = FormLayout(box)  # rows keep their height (Qt's own can squeeze them)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setRowWrapPolicy(
            QFormLayout.RowWrapPolicy.WrapAllRows if self._long_titles else QFormLayout.RowWrapPolicy.DontWrapRows
        )
        form.setLabelAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        form.setContentsMargins(0, 0, 0, 0)
        return form

    def _build_rows(self, form: QFormLayout, count: int, until: float | None = None) -> None:
        """Up to ``count`` more rows into ``form``, stopping at ``until`` (perf_counter s)."""
        built = 0
        while self._later and built < count and (until is None or time.perf_counter() < until):
            spec, label_text = self._later.popleft()
            self.rows[spec.name] = self._add_row(form, spec, self.widgets, label_text)
            built += 1
        if self._long_titles or form.rowCount() == 0:
            return
        # One label column width for all chunks: the widest label's, held by each chunk's first.
        labels = [w for r in range(form.rowCount()) if (w := _label_of(form, r)) is not None]
        if not labels:
            return
        if labels[0] not in self._anchors:
            self._anchors.append(labels[0])
        self._label_width = max(self._label_width, *(max(w.minimumWidth(), w.sizeHint().width()) for w in labels))
        for label in self._anchors:
            if label.minimumWidth() < self._label_width:
                label.setMinimumWidth(self._label_width)

    def _every_row_built(self) -> bool:
        return not self._later

    def _build_later(self) -> None:
        """One more batch of rows; when the last one is in: tab order, validation, arming."""
        if self.expired or self.outcome is not None:  # no longer waiting: nothing more to build
            self._later.clear()
            return
        with InputGate.paused():  # constructing and laying out widgets delivers no input
            box = QWidget()
            self._build_rows(self._chunk(box), LATER_ROWS, time.perf_counter() + SLICE_S)
            self._stack.addWidget(box)  # laid out on its own: the chunks above keep their geometry
            box.show()  # now, not on a later turn: once the last chunk is in, every row is on screen
            for kind in _BUILD_EVENTS:  # polished and laid out in this turn, not each event through the gate
                QCoreApplication.sendPostedEvents(None, kind)
        if self._later:
            QTimer.singleShot(0, self, self._build_later)
            return
        self._set_tab_order()
        self._validate()
        self.grow_to_content()
        self.arming.ready_changed()

    def _add_row(self, form: QFormLayout, spec: FieldSpec, widgets: WidgetRegistry, label_text: str) -> FormRow:
        adapter = widgets.pick(spec, label_text)
        adapter.setParent(self)
        row = FormRow.add(form, adapter, label_text, long_titles=self._long_titles)
        adapter.changed.connect(self._validate)
        return row

    def _set_tab_order(self) -> None:
        """Tab walks the fields in schema order, then the buttons (:meth:`tab_through`)."""
        self.tab_through([c for row in self.rows.values() for c in row.adapter.tab_chain()])

    # -- validation ---------------------------------------------------------------------------
    def _focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        """A field left with something wrong in it shows its error from now on (rjsf: validate
        on leaving a field first, then live)."""
        super()._focus_changed(old, new)
        for row in self.rows.values():
            if old is not None and old in row.adapter.controls:
                value, problem = row.current()
                if not row.revealed and problem is not None and value is not None:
                    row.revealed = True
                    self._validate()
                break

    def _validate(self, *, tell: bool = True) -> list[FormRow]:
        """Update every error label and the Accept button; return the invalid rows. An error that
        appears while the user fills the form (a field left invalid, a choice too many) is said
        to screen readers at once (``tell``; a failed submit says its own: :meth:`attempt_submit`)."""
        invalid = []
        grew = False
        appeared: list[str] = []
        for row in self.rows.values():
            _value, problem = row.current()
            if problem and not row.revealed and row.adapter.reveal_now():
                row.revealed = True
            if problem:
                invalid.append(row)
            shown = translated(problem) if (problem and row.revealed) else ""
            if shown and not row.error_text:
                appeared.append(translate("FormDialog", "{field}: {error}").format(field=row.spec.title, error=shown))
            if row.error_text != (("⚠ " + shown) if shown else ""):
                row.error.setText(("⚠ " + shown) if shown else "")  # made here the first time
                if shown and row.error.isHidden():
                    grew = True
                    row.error.setStyleSheet(error_css(self.palette()))  # styled when first shown
                row.error.setVisible(bool(shown))
            notice = row.adapter.notice_text
            if bool(notice) != row.notice_shown:
                row.notice_shown = bool(notice)
                grew = grew or bool(notice)
            said = spoken(row.description, notice, shown)
            if said != row.spoken:
                row.spoken = said
                for widget in row.described():
                    widget.setAccessibleDescription(said)
        self._invalid = invalid
        if tell and appeared and self.isVisible() and self.outcome is None and not self.expired:
            self.notice.say(" ".join(sentences(text) for text in appeared))
        self.refresh()
        if not any(row.error_text for row in invalid) and self.status_label.text() in self._correct_texts():
            self.hide_status()  # "Please correct…" goes once nothing is highlighted any more
        if grew:
            self.grow_to_content()
        return invalid

    def _reveal(self, row: FormRow) -> None:
        """Scroll ``row``'s field and its error into view (not the status line below the form)."""
        if self.outcome is None and not self.expired:
            laid_out(box_content(self.scroll)).activate()
            self.scroll.ensureWidgetVisible(row.error, 8, 8)
            self.scroll.ensureWidgetVisible(row.adapter.widget, 8, 8)

    @staticmethod
    def _correct_texts() -> tuple[str, str]:
        return (
            translate("FormDialog", "Please correct the highlighted field."),
            translate("FormDialog", "Please correct the highlighted fields."),
        )

    def can_commit(self) -> bool:
        return not self._invalid and not self._later

    def errors(self) -> dict[str, str]:
        """Property name -> visible error text (without the sign), for tests and screen readers."""
        return {name: row.error_text.removeprefix("⚠ ") for name, row in self.rows.items() if row.error_text}

    # -- submit -------------------------------------------------------------------------------
    def submit_by_keyboard(self) -> None:
        """Enter: accept a valid form; otherwise show every error and focus the first one."""
        self.attempt_submit()

    def attempt_submit(self) -> bool:
        """Validate everything; send ``accept`` if valid and armed. Returns whether it was sent."""
        if self.outcome is not None or self.expired:
            return False
        typed_patterns().settle()  # the values as typed, not "still being checked"
        for row in self.rows.values():
            row.revealed = True
        invalid = self._validate(tell=False)
        if invalid:
            first = invalid[0]
            status = self._correct_texts()[0 if len(invalid) == 1 else 1]
            self.show_status(status, reveal=False)
            first.adapter.focus_target.setFocus(Qt.FocusReason.OtherFocusReason)
            self._reveal(first)
            QTimer.singleShot(0, self, lambda: self._reveal(first))  # again once the new errors are laid out
            announce(first.adapter.focus_target, f"{status} {first.spec.title}: {translated(first.current()[1])}")
            return False
        if not self.is_armed:
            return False
        values = {name: row.current()[0] for name, row in self.rows.items()}
        content = build_content(self.spec, values)
        problems = validate_content(self.spec, content)
        if problems:  # a bug in our own checks: never send what the schema rejects
            self.show_status(
                translate("FormDialog", "This answer does not fit the request: {problems}").format(
                    problems="; ".join(p.message for p in problems)
                )
            )
            return False
        self.finish(Accepted(content))
        return True

    def commit(self) -> None:
        self.attempt_submit()

    def set_inputs_enabled(self, enabled: bool) -> None:
        for row in self.rows.values():
            row.adapter.set_enabled(enabled)

    def paintEvent(self, event: Any) -> None:
        super().paintEvent(event)
        if self._later and not self._building:  # first paint done: build the rest
            self._building = True
            QTimer.singleShot(0, self, self._build_later)

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self._set_tab_order()  # the fitted header/message boxes may have become focusable
        first = next(iter(self.rows.values()), None)
        (first.adapter.focus_target if first else self).setFocus(Qt.FocusReason.ActiveWindowFocusReason)

    def on_armed(self) -> None:
        if not self.rows:  # a plain confirmation: Accept is the field
            self.accept_button.setFocus(Qt.FocusReason.OtherFocusReason)


def _label_of(form: QFormLayout, row: int) -> QWidget | None:
    """The widget in the label column of ``form``'s ``row``, or ``None`` (a spanning row)."""
    item = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
    return item.widget() if item is not None else None
