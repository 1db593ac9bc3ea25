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
