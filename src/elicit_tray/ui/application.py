"""The running :class:`QApplication`, typed as one.

``QApplication.instance()`` is typed ``QCoreApplication | None``; the widgets need the
``QApplication`` that the app (or the test harness) creates before any window.
"""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication

__all__ = ["application", "parent_as"]

_Parent = TypeVar("_Parent", bound=QObject)


def application() -> QApplication:
    """The running ``QApplication``; ``RuntimeError`` when none runs (a programming error)."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        raise RuntimeError("no QApplication is running")
    return app


def parent_as(child: QObject, kind: type[_Parent]) -> _Parent:
    """``child``'s Qt parent, typed as ``kind``. A helper that a dialog or widget holds reaches
    its owner this way, never through a Python attribute: an attribute back to the owner is a
    reference cycle, and the owner's Python side then waits for the garbage collector instead
    of going when the owner does (README "Memory"). ``RuntimeError`` when the parent is gone or is
    not a ``kind``."""
    parent = child.parent()
    if not isinstance(parent, kind):
        raise RuntimeError(f"the {kind.__name__} that owns this {type(child).__name__} is gone")
    return parent
