"""UI test hygiene: no window outlives its test (a dialog left for interpreter shutdown can
crash Qt's teardown)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _close_windows(qapp):
    yield
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QApplication

    for widget in QApplication.topLevelWidgets():
        widget.close()
        widget.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.fixture
def system_palette(qapp, request):
    """The application palette ``request.param`` (a name of tests/ui/pixels.py's palettes), as a
    platform sets it, under the app's style as the tray installs it; the old palette back
    afterwards. Used with ``indirect=True`` by the contrast and focus-ring tests."""
    from PySide6.QtWidgets import QApplication

    from elicit_tray.ui.style import install_style
    from tests.ui.pixels import palette

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    old = app.palette()
    install_style()
    app.setPalette(palette(request.param))
    yield request.param
    app.setPalette(old)
