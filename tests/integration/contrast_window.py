"""A form dialog of the tray, on the real X server, driven over stdin for
tests/integration/test_contrast_x11.py (run with ``python -m``; the platform and its theme come
from the environment, as for the app).

It prints one JSON line when the dialog is mapped: its X window id, the palette the platform
gave (window, base, button, alternate base, as ``#rrggbb``), the focus ring's colours, and the
rectangle of each field and
label in the window (x, y, width, height, logical pixels). Then it answers one JSON line per
command line (the focused control's object name, or null, and the ring's colours now, for
the active and the inactive window):
``state``, ``focus NAME``,
``blur`` (no control focused) and ``quit``.
"""

from __future__ import annotations

import json
import sys

from PySide6.QtCore import QPoint, QSocketNotifier, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QLabel, QPushButton, QWidget

from elicit_tray.elicitation import parse_elicit_params
from elicit_tray.request import Peer
from elicit_tray.ui.presenter import Presenter
from elicit_tray.ui.style import focus_color

PARAMS = {
    "message": "Deploy the release?",
    "_meta": {"elicit-tray/requester": {"serverName": "deployer"}},
    "requestedSchema": {
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": "Name", "description": "Your full name"},
            "mail": {"type": "string", "format": "email", "title": "Mail"},
            "count": {"type": "integer", "title": "Count", "minimum": 1, "maximum": 9},
        },
        "required": ["name"],
    },
}


def _rect(window: QWidget, widget: QWidget) -> list[int]:
    top_left = widget.mapTo(window, QPoint(0, 0))
    return [top_left.x(), top_left.y(), widget.width(), widget.height()]


def rings(palette: QPalette) -> list[str]:
    """The ring's colour in the active and the inactive colour group (GTK's differ)."""
    found = []
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        view = QPalette(palette)
        view.setCurrentColorGroup(group)
        found.append(focus_color(view).name())
    return found


def main() -> None:
    """Show the dialog and serve the commands until ``quit`` or the end of stdin."""
    app = QApplication(sys.argv[:1])
    presenter = Presenter(opener=lambda _href: True, arm_delay_ms=0)  # installs the app's style, as the tray
    dialog = presenter.build(parse_elicit_params(PARAMS, Peer(pid=4242, process_name="agent-runner")))
    dialog.finish = lambda *_a, **_k: None  # type: ignore[method-assign]  # answers nothing
    dialog.show()
    app.processEvents()
    palette = dialog.palette()
    roles = {"window": QPalette.ColorRole.Window, "base": QPalette.ColorRole.Base}
    roles |= {"button": QPalette.ColorRole.Button, "alternate": QPalette.ColorRole.AlternateBase}
    controls = {
        w.objectName(): _rect(dialog, w)
        for w in dialog.findChildren(QWidget)
        if w.isVisible() and (isinstance(w, QPushButton) or w.objectName().startswith("field-"))
    }
    labels = {w.text(): _rect(dialog, w) for w in dialog.findChildren(QLabel) if w.isVisible() and w.text()}
    opened = {
        "window": int(dialog.winId()),
        "palette": {name: palette.color(role).name() for name, role in roles.items()},
        "ring": rings(palette),
        "controls": controls,
        "labels": labels,
    }
    print(json.dumps(opened), flush=True)

    def command() -> None:
        line = sys.stdin.readline()
        words = line.split()
        if not words or words[0] == "quit":
            app.quit()
            return
        if words[0] == "focus":
            target = dialog.findChild(QWidget, words[1])
            assert target is not None, words
            target.setFocus(Qt.FocusReason.TabFocusReason)
        elif words[0] == "blur" and QApplication.focusWidget() is not None:
            QApplication.focusWidget().clearFocus()
        app.processEvents()
        focused = QApplication.focusWidget()
        answer = {
            "focus": focused.objectName() if focused is not None else None,
            "ring": rings(dialog.palette()),
        }
        print(json.dumps(answer), flush=True)

    notifier = QSocketNotifier(sys.stdin.fileno(), QSocketNotifier.Type.Read)
    notifier.activated.connect(command)
    app.exec()


if __name__ == "__main__":
    main()
