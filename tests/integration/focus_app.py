"""A form dialog on a real X display that reports where the keyboard focus goes, for
``test_keyboard_x11.py``: the dialog is the app's own (the presenter builds it); the keys come
from the X server (xdotool). Run with ``DISPLAY`` and ``QT_QPA_PLATFORM=xcb``.

Usage: python -m tests.integration.focus_app PARAMS_JSON

stdout, one JSON object a line: ``{"ready": window id, "stops": [names in reading order],
"focus_now": name}`` once the dialog is shown with every row built, then ``{"focus": name}`` at each focus change,
and the answers to the commands read from stdin, one a line: ``shot PATH`` (the root window
grabbed from the X server into PATH) -> ``{"shot": PATH, "options": [[name, x, y, w, h], ...]}``
(each option fully in view, on the screen), ``problems`` -> ``{"problems": [...]}``
(tests/ui/room_probe.py), ``quit``.
"""

from __future__ import annotations

import json
import sys
import time

from PySide6.QtCore import QSocketNotifier
from PySide6.QtWidgets import QApplication, QCheckBox, QRadioButton, QWidget

from elicit_tray.elicitation import parse_elicit_params
from elicit_tray.request import Peer
from elicit_tray.ui.presenter import Presenter
from tests.ui.room_probe import problems
from tests.ui.tab_order import describe, expected_stops


def _say(message: dict) -> None:
    print(json.dumps(message), flush=True)


def main() -> None:
    app = QApplication([])
    presenter = Presenter(opener=lambda href: True, arm_delay_ms=0)
    dialog = presenter.build(parse_elicit_params(json.loads(sys.argv[1]), Peer(pid=4242, process_name="agent")))
    app.focusChanged.connect(lambda _old, new: new is not None and _say({"focus": describe([new])[0]}))
    dialog.show()
    deadline = time.monotonic() + 30
    while (dialog._later or not dialog.isVisible()) and time.monotonic() < deadline:  # bounded poll
        app.processEvents()
    app.processEvents()
    focused = dialog.focusWidget()  # the window may not be active yet
    _say(
        {
            "ready": int(dialog.winId()),
            "stops": describe(expected_stops(dialog)),
            "focus_now": describe([focused])[0] if focused is not None else "",
        }
    )

    def command() -> None:
        line = sys.stdin.readline().strip()
        if line.startswith("shot "):
            path = line.split(" ", 1)[1]
            app.primaryScreen().grabWindow(0).save(path, "PNG")
            options: list[list] = []
            for box in dialog.findChildren(QWidget):
                if isinstance(box, (QCheckBox, QRadioButton)) and box.isVisible():
                    seen = box.visibleRegion().boundingRect()
                    if seen.size() == box.size():
                        top_left = box.mapToGlobal(box.rect().topLeft())
                        ratio = box.devicePixelRatio()
                        options.append(
                            [
                                describe([box])[0],
                                *(round(v * ratio) for v in (top_left.x(), top_left.y(), box.width(), box.height())),
                            ]
                        )
            _say({"shot": path, "options": options})
        elif line == "problems":
            _say({"problems": problems(dialog)})
        else:
            app.quit()

    notifier = QSocketNotifier(sys.stdin.fileno(), QSocketNotifier.Type.Read)
    notifier.activated.connect(command)
    app.exec()


if __name__ == "__main__":
    main()
