"""The running :class:`QApplication`, typed as one.

``QApplication.instance()`` is typed ``QCoreApplication | None``; the widgets need the
``QApplication`` that the app (or the test harness) creates before any window.
"""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

__all__ = ["application"]


def application() -> QApplication:
    """The running ``QApplication``; ``RuntimeError`` when none runs (a programming error)."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        raise RuntimeError("no QApplication is running")
    return app
