"""What a keyboard user meets, measured: the Tab stops a window should have, in reading order
from the widgets' positions on screen (``mapToGlobal``, scroll boxes unrolled), and the stops
real Tab / Shift+Tab presses reach.

The expected stops are found without asking the focus chain: every visible, enabled control
that takes the focus at all (by click or by Tab: a control that takes a click but no Tab is
the fault this catches), a box that scrolls text no control in it reaches, and of each group of
radio buttons its checked option (else its first) only: a radio group is one stop, entered there,
and the arrows move within it. Reading order: top to bottom by lines (widgets whose vertical
extents overlap share a line), then left to right (right to left in a right-to-left window).
"""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QRadioButton,
    QScrollArea,
    QTextEdit,
    QWidget,
)

#: What a user operates (labels, group boxes and plain containers are not stops).
CONTROLS = (QAbstractButton, QLineEdit, QComboBox, QAbstractSpinBox, QPlainTextEdit, QTextEdit, QAbstractItemView)


def on_screen(widget: QWidget) -> QRect:
    """``widget``'s rectangle in global (screen) coordinates, as if every scroll box of its
    window were unrolled: a box's scrolling is undone for what it holds, and what is below a
    box moves down by the part of the box's content that does not show."""
    rect = QRect(widget.mapToGlobal(widget.rect().topLeft()), widget.size())
    shift = 0
    for box in widget.window().findChildren(QScrollArea):
        content = box.widget()
        if content is None or not box.isVisible():
            continue
        if content.isAncestorOf(widget):
            shift += box.verticalScrollBar().value()
        elif box.mapToGlobal(box.rect().bottomLeft()).y() < rect.top():
            shift += max(0, content.height() - box.viewport().height())
    return rect.translated(0, shift)


def inside_control(widget: QWidget) -> bool:
    """A part of a compound control (a spin box's or combo box's line edit, a line edit's
    clear button, a scroll bar), not a control of its own."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, (QAbstractSpinBox, QComboBox, QLineEdit)):
            return True
        parent = parent.parentWidget()
    return False


def _is_stop(widget: QWidget, window: QWidget) -> bool:
    if not widget.isVisibleTo(window) or not widget.isEnabled() or widget.focusProxy() is not None:
        return False
    if isinstance(widget, CONTROLS):
        return widget.focusPolicy() != Qt.FocusPolicy.NoFocus and not inside_control(widget)
    if isinstance(widget, QScrollArea):
        # A box of text that overflows and holds no control: only the box itself scrolls it.
        content = widget.widget()
        holds_control = content is not None and any(
            isinstance(w, CONTROLS) and w.isVisibleTo(window) for w in content.findChildren(QWidget)
        )
        return widget.verticalScrollBar().maximum() > 0 and not holds_control
    return False


def reading_order(widgets: list[QWidget], right_to_left: bool = False) -> list[QWidget]:
    """``widgets`` sorted into lines (overlapping vertical extents on screen), top to bottom,
    each line left to right (``right_to_left``: right to left)."""
    lines: list[list[QWidget]] = []
    bottom = None
    for widget in sorted(widgets, key=lambda w: (on_screen(w).top(), on_screen(w).left())):
        rect = on_screen(widget)
        if bottom is not None and rect.top() < bottom and lines:
            lines[-1].append(widget)
            bottom = max(bottom, rect.bottom())
        else:
            lines.append([widget])
            bottom = rect.bottom()
    ordered = []
    for line in lines:
        ordered += sorted(line, key=lambda w: -on_screen(w).right() if right_to_left else on_screen(w).left())
    return ordered


def radio_groups(window: QWidget) -> list[list[QRadioButton]]:
    """The exclusive radio groups shown in ``window`` (by button group, else by parent), each in
    reading order."""
    groups: dict[int, list[QRadioButton]] = {}
    for button in window.findChildren(QRadioButton):
        if button.isVisibleTo(window):
            owner = button.group() or button.parentWidget()
            groups.setdefault(id(owner), []).append(button)
    return [reading_order(g, window.isRightToLeft()) for g in groups.values()]


def expected_stops(window: QWidget) -> list[QWidget]:
    """The Tab stops ``window`` should have, in reading order (see the module docstring)."""
    stops = [w for w in window.findChildren(QWidget) if _is_stop(w, window)]
    for group in radio_groups(window):
        entry = next((b for b in group if b.isChecked()), group[0])
        stops = [w for w in stops if w not in group or w is entry]
    return reading_order(stops, window.isRightToLeft())


def walk(start: QWidget, key: Qt.Key, limit: int = 200) -> list[QWidget]:
    """Press ``key`` (Tab or Backtab) with real key events from ``start`` (focused first) until
    the focus is back on ``start``; the widgets focused on the way, ``start`` first. Fails past
    ``limit`` presses or when a press leaves the window."""
    start.setFocus(Qt.FocusReason.TabFocusReason)
    assert QApplication.focusWidget() is start, f"{start!r} does not take the focus"
    seen = [start]
    for _ in range(limit):
        QTest.keyClick(QApplication.focusWidget(), key)
        now = QApplication.focusWidget()
        assert now is not None and now.window() is start.window(), f"the focus left the window after {seen[-1]!r}"
        if now is start:
            return seen
        seen.append(now)
    raise AssertionError(f"no way back to the start in {limit} presses: {describe(seen[:20])}")


def rotated(cycle: list[QWidget], start: QWidget) -> list[QWidget]:
    """``cycle`` rotated to begin at ``start`` (which must be in it)."""
    at = cycle.index(start)
    return cycle[at:] + cycle[:at]


def describe(widgets: list[QWidget]) -> list[str]:
    """Short names: the object name, else the accessible name, else the shown text."""
    out = []
    for w in widgets:
        text = w.text().replace("&", "") if isinstance(w, QAbstractButton) else ""
        out.append(w.objectName() or w.accessibleName() or text or type(w).__name__)
    return out


def check_cycle(window: QWidget, start: QWidget) -> list[str]:
    """Walk ``window`` with Tab and with Shift+Tab from ``start``; assert each walk is the
    reading-order cycle of :func:`expected_stops` (forwards, and backwards). Returns the names of
    the stops (forwards from ``start``)."""
    expected = expected_stops(window)
    assert start in expected, f"{describe([start])} is not a stop of {describe(expected)}"
    forwards = rotated(expected, start)
    tabbed = describe(walk(start, Qt.Key.Key_Tab))
    assert tabbed == describe(forwards), f"Tab reached {tabbed}, reading order is {describe(forwards)}"
    backwards = [start] + forwards[1:][::-1]
    back = describe(walk(start, Qt.Key.Key_Backtab))
    assert back == describe(backwards), f"Shift+Tab reached {back}, reading order back is {describe(backwards)}"
    return describe(forwards)
