"""Every control one clicks is at least 24 by 24 logical pixels in every window of the app (WCAG
2.2 2.5.8 Target Size (Minimum)): checkboxes, radio buttons and buttons were 19-22 px tall, and
stacked options 19 px apart, so a 24 px circle on one touched the next."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QAbstractButton, QAbstractSpinBox, QApplication, QComboBox, QLineEdit, QWidget

from elicit_tray.ui.style import MIN_TARGET_PX, install_style
from tests.ui.pixels import WINDOWS, open_window

TARGETS = (QAbstractButton, QLineEdit, QComboBox, QAbstractSpinBox)


def _part_of_another_control(widget: QWidget, window: QWidget) -> bool:
    """A spin box's or drop-down's own line edit or arrow: the control around it is the target."""
    parent = widget.parentWidget()
    while parent is not None and parent is not window:
        if isinstance(parent, (QAbstractSpinBox, QComboBox)):
            return True
        parent = parent.parentWidget()
    return False


def targets(window: QWidget) -> list[QWidget]:
    """The visible controls of ``window`` one clicks, each once."""
    found: list[QWidget] = []
    for kind in TARGETS:
        for widget in window.findChildren(kind):
            if widget.isVisible() and widget not in found and not _part_of_another_control(widget, window):
                found.append(widget)
    return found


@pytest.mark.parametrize("kind", WINDOWS)
def test_every_control_one_clicks_is_at_least_24_px_each_way(qtbot, qapp, kind):
    install_style()
    window = open_window(kind)
    try:
        qtbot.waitUntil(window.isVisible, timeout=5000)
        QApplication.processEvents()
        controls = targets(window)
        assert controls, kind
        small = {
            f"{type(w).__name__} {getattr(w, 'text', lambda: '')()!r}": (w.width(), w.height())
            for w in controls
            if w.width() < MIN_TARGET_PX or w.height() < MIN_TARGET_PX
        }
        assert small == {}
    finally:
        window.close()
