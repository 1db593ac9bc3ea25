"""Show forms on a small screen and print, as JSON, every control that is smaller than its
natural size or overlaps another control, after each step a user takes (open, a failed Accept
that shows every error, more errors while filling). Run in a fresh process: the screen and the
scale factor must be set before the QApplication exists (tests/ui/test_room.py sets them).

Usage: python -m tests.ui.room_probe [PNG_DIR]
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import (  # noqa: E402
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QGroupBox,
    QLineEdit,
    QWidget,
)

from elicit_tray.elicitation import parse_elicit_params  # noqa: E402
from elicit_tray.request import Peer  # noqa: E402
from elicit_tray.ui.presenter import Presenter, save_screenshot  # noqa: E402
from tests.ui.tab_order import inside_control, on_screen  # noqa: E402

WEEK = {"type": "string", "enum": ["Mon", "Tue", "Wed", "Thu"]}
DESCRIBED = "A description long enough to wrap onto a second line at the width of this dialog, as servers write them."
#: Radio groups and four-option multi-selects among fields whose descriptions wrap.
GROUPS = {
    "name": {"type": "string", "title": "Name", "description": "Your full name as it appears on the card"},
    "email": {"type": "string", "format": "email", "title": "Email"},
    "day": {"type": "string", "format": "date", "title": "Day"},
    "amount": {"type": "number", "title": "Amount", "minimum": 0},
    "agree": {"type": "boolean", "title": "Agree"},
    "size": {"type": "string", "title": "Size", "enum": ["S", "M", "L", "XL"], "description": DESCRIBED},
    "days": {"type": "array", "title": "Days", "items": WEEK, "minItems": 2},
    "more": {"type": "array", "title": "More days", "items": WEEK, "description": DESCRIBED},
}
FORMS = {
    "groups": (GROUPS, ["size", "days", "name"]),
    "groups-long-titles": (
        {k: dict(v, title=v["title"] + " for the request, as a long title says it") for k, v in GROUPS.items()},
        ["size", "days", "name"],
    ),
    "groups-after-many": (
        {**{f"x{i}": {"type": "string", "title": f"Extra {i}"} for i in range(20)}, **GROUPS},
        ["size"],
    ),
}
#: What a control needs at least (labels and plain containers are checked by test_layout.py).
CONTROLS = (QAbstractButton, QLineEdit, QComboBox, QAbstractSpinBox, QGroupBox)


def _settle(app: QApplication, seconds: float = 0.3) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:  # every posted layout request and deferred row runs
        app.processEvents()


def problems(window: QWidget) -> list[str]:
    """Controls shorter or narrower than their minimum size hint, and pairs that overlap
    (positions with the scroll boxes unrolled, so a scrolled-away control counts too)."""
    found = []
    controls = [
        w
        for w in window.findChildren(QWidget)
        if isinstance(w, CONTROLS) and w.isVisibleTo(window) and not inside_control(w)
    ]
    for w in controls:
        hint = w.minimumSizeHint()
        if w.height() < hint.height() or w.width() < hint.width():
            found.append(f"squeezed: {_name(w)} {w.width()}x{w.height()} < {hint.width()}x{hint.height()}")
    rects = [(w, on_screen(w)) for w in controls]
    for i, (a, ra) in enumerate(rects):
        for b, rb in rects[i + 1 :]:
            if a.isAncestorOf(b) or b.isAncestorOf(a):
                continue
            overlap = ra.intersected(rb)
            if overlap.width() > 0 and overlap.height() > 0:
                found.append(f"overlap: {_name(a)} / {_name(b)} ({overlap.height()} px)")
    return found


def _name(widget: QWidget) -> str:
    text = widget.text() if isinstance(widget, QAbstractButton) else ""
    return widget.objectName() or widget.accessibleName() or text or type(widget).__name__


def main() -> None:
    app = QApplication([])
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else None
    presenter = Presenter(opener=lambda href: True, arm_delay_ms=0)
    report: dict[str, dict[str, list[str]]] = {}
    for name, (properties, required) in FORMS.items():
        params = {
            "message": "Fill in",
            "requestedSchema": {"type": "object", "properties": properties, "required": required},
        }
        dialog = presenter.build(parse_elicit_params(params, Peer(pid=4242, process_name="agent-runner")))
        dialog.show()
        deadline = time.monotonic() + 30
        while dialog._later and time.monotonic() < deadline:  # bounded poll: every row is built
            app.processEvents()
        _settle(app)
        steps = {"open": problems(dialog)}
        dialog.attempt_submit()  # every error shows
        _settle(app)
        steps["errors"] = problems(dialog)
        amount = dialog.rows["amount"]
        amount.adapter.edit.setText("-1")  # one more error while filling
        amount.revealed = True
        dialog.rows["name"].adapter.edit.setText("Ada")  # and one goes
        dialog._validate()
        _settle(app)
        steps["filling"] = problems(dialog)
        report[name] = steps
        if out is not None:
            save_screenshot(dialog, out, name)
        dialog.hide()
        dialog.deleteLater()
    screen = app.primaryScreen()
    print(json.dumps({"screen": [screen.size().width(), screen.size().height()], "forms": report}))


if __name__ == "__main__":
    main()
