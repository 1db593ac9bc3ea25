"""The focused control is visibly marked in every window of the app and every palette (WCAG 2.2
2.4.7 Focus Visible, with 1.4.11's 3:1 for the indicator): the ring's pixels, read from the
rendered window, differ by 3:1 from the same pixels with the control unfocused and stand 3:1
against the background beyond them; from the moment a window opens (the Settings window opened
on its first checkbox with no mark at all) and for every control Tab reaches (the read-only URL
box looked the same focused and unfocused)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication, QFocusFrame, QLineEdit, QPlainTextEdit, QWidget

from elicit_tray.ui.style import FOCUS_MARGIN, FocusRing, focus_color, install_style
from tests.ui.pixels import (
    PALETTE_NAMES,
    WINDOWS,
    backgrounds,
    edge_contrast,
    focusable,
    grab,
    open_window,
    rect_in,
    ring_failures,
)


def _opened(qtbot, kind: str) -> QWidget:
    window = open_window(kind)
    qtbot.waitUntil(
        lambda: QApplication.activeWindow() is window and QApplication.focusWidget() is not None, timeout=5000
    )
    QApplication.processEvents()
    return window


def _ring_check(window: QWidget, control: QWidget) -> list[str]:
    """The ring around the focused ``control``, against the same window with no focus."""
    QApplication.processEvents()
    rect = rect_in(window, control)
    around = rect.adjusted(-2 * FOCUS_MARGIN, -2 * FOCUS_MARGIN, 2 * FOCUS_MARGIN, 2 * FOCUS_MARGIN)
    around = around.intersected(window.rect())
    focused = grab(window, around)
    control.clearFocus()
    QApplication.processEvents()
    unfocused = grab(window, around)
    return ring_failures(focused, unfocused, rect.translated(-around.topLeft()), backgrounds(window.palette()))


@pytest.mark.parametrize("kind", WINDOWS)
@pytest.mark.parametrize("system_palette", PALETTE_NAMES, indirect=True)
def test_the_control_focused_when_a_window_opens_has_the_ring(qtbot, system_palette, kind):
    window = _opened(qtbot, kind)
    control = QApplication.focusWidget()
    assert control is not None and window.isAncestorOf(control)
    assert _ring_check(window, control) == []


@pytest.mark.parametrize("kind", WINDOWS)
@pytest.mark.parametrize("system_palette", PALETTE_NAMES, indirect=True)
def test_every_control_tab_reaches_has_the_ring_when_focused(qtbot, system_palette, kind):
    window = _opened(qtbot, kind)
    controls = focusable(window)
    assert len(controls) >= 2, controls
    failed = {}
    for control in controls:
        control.setFocus(Qt.FocusReason.TabFocusReason)
        qtbot.waitUntil(lambda control=control: QApplication.focusWidget() is control, timeout=5000)
        found = _ring_check(window, control)
        if found:
            failed[control.objectName() or type(control).__name__] = found
    assert failed == {}


def test_the_read_only_url_box_is_marked_when_focused(qtbot):
    install_style()
    window = _opened(qtbot, "url")
    box = window.findChild(QPlainTextEdit, "full-url")
    assert box is not None and box.isReadOnly() and box in focusable(window)
    box.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is box, timeout=5000)
    QApplication.processEvents()
    image = grab(window)
    rect = rect_in(window, box)
    ring = focus_color(window.palette())
    # the exact ring colour at the middle of each side, FOCUS_MARGIN px outside the box
    for point in (
        QPoint(rect.center().x(), rect.top() - FOCUS_MARGIN),
        QPoint(rect.center().x(), rect.bottom() + FOCUS_MARGIN),
        QPoint(rect.left() - FOCUS_MARGIN, rect.center().y()),
        QPoint(rect.right() + FOCUS_MARGIN, rect.center().y()),
    ):
        assert image.pixelColor(point).name() == ring.name(), point
    gap = QPoint(rect.center().x(), rect.top() - 1)  # between the ring and the box's own edge
    assert _ring_check(window, box) == []
    assert grab(window).pixelColor(gap) == image.pixelColor(gap)  # unfocused now: the same


def test_the_ring_follows_the_focus_and_leaves_with_it(qtbot):
    install_style()
    window = _opened(qtbot, "settings")
    first, second = focusable(window)[:2]
    first.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is first, timeout=5000)
    rings = [r for r in window.findChildren(QFocusFrame) if r.isVisible()]
    assert len(rings) == 1 and isinstance(rings[0], FocusRing) and rings[0].widget() is first
    second.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is second, timeout=5000)
    rings = [r for r in window.findChildren(QFocusFrame) if r.isVisible()]
    assert len(rings) == 1 and rings[0].widget() is second
    margin = QRect(rect_in(window, second)).adjusted(-FOCUS_MARGIN, -FOCUS_MARGIN, FOCUS_MARGIN, FOCUS_MARGIN)
    assert rect_in(window, rings[0]) == margin
    second.clearFocus()
    qtbot.waitUntil(lambda: not any(r.isVisible() for r in window.findChildren(QFocusFrame)), timeout=5000)


@pytest.mark.parametrize("system_palette", ["fusion-light", "theme-dark", "theme-high-contrast"], indirect=True)
def test_at_200_percent_the_ring_and_the_edges_scale_with_the_controls(qtbot, system_palette):
    window = _opened(qtbot, "form")
    first = QApplication.focusWidget()
    assert first is not None and first.objectName() == "field-name"

    def doubled(widget: QWidget) -> QRect:
        rect = rect_in(window, widget)
        return QRect(rect.x() * 2, rect.y() * 2, rect.width() * 2, rect.height() * 2)

    focused = grab(window, scale=2)
    first.clearFocus()
    QApplication.processEvents()
    unfocused = grab(window, scale=2)
    assert ring_failures(focused, unfocused, doubled(first), backgrounds(window.palette()), scale=2) == []
    weak = {}
    for field in [w for w in focusable(window) if w.objectName().startswith("field-") and isinstance(w, QLineEdit)]:
        ratio, read = edge_contrast(unfocused, doubled(field), scale=2)
        if ratio < 3.0:
            weak[field.objectName()] = (round(ratio, 2), read)
    assert weak == {}
