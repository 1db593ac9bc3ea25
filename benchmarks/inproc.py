"""In-process timing of the tray app's own dialog code (no socket): parse the request, build
the ``FormDialog``, ``show()`` it, and wait for the dialog's first paint event.

The running tray app's own figures come from its ``ELICIT_TRAY_TRACE`` hook (see
``benchmarks/run.py``); this is the same work without the socket, the asyncio loop or the
presenter: the classes the presenter uses, with ``QEvent.Paint`` seen by an event filter on
the dialog, and a place to profile them. ``benchmarks/run.py`` runs it in a subprocess on the
same display.

Usage: ``inproc.py [--profile N]`` prints JSON; ``--profile N`` instead prints a pyinstrument
report of building and painting N-field forms (needs ``pip install pyinstrument``).
"""

from __future__ import annotations

import json
import statistics
import sys
import time

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication

from elicit_tray.elicitation import parse_elicit_params

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from forms import form_params  # noqa: E402

from elicit_tray.ui.arming import InputGate
from elicit_tray.ui.form_dialog import FormDialog

SIZES = {1: 20, 10: 20, 50: 10, 100: 10, 200: 8}  # fields -> warm iterations (after 2 warm-ups)
try:  # the tray app refuses forms with more properties than this
    from elicit_tray.limits import MAX_PROPERTIES

    SIZES = {n: c for n, c in SIZES.items() if n <= MAX_PROPERTIES}
except ImportError:
    pass


def params(n: int) -> dict:
    return form_params(n)


class FirstPaint(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.at: float | None = None

    def eventFilter(self, _obj: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Paint and self.at is None:
            self.at = time.perf_counter()
        return False


def one(app: QApplication, n: int) -> dict[str, float]:
    p = params(n)
    t0 = time.perf_counter()
    request = parse_elicit_params(p)
    t1 = time.perf_counter()
    with InputGate.paused():  # as the presenter builds it
        dialog = FormDialog(request, arm_delay_ms=0)
        dialog.prepare()
    t2 = time.perf_counter()
    spy = FirstPaint()
    dialog.installEventFilter(spy)
    dialog.show()
    t3 = time.perf_counter()
    deadline = t3 + 5.0
    while spy.at is None and time.perf_counter() < deadline:
        app.processEvents()
    t4 = spy.at or float("nan")
    app.processEvents()
    dialog.removeEventFilter(spy)
    dialog.hide()
    dialog.deleteLater()
    app.processEvents()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    ms = 1000.0
    return {
        "parse_ms": (t1 - t0) * ms,
        "build_ms": (t2 - t1) * ms,
        "show_ms": (t3 - t2) * ms,
        "to_first_paint_ms": (t4 - t3) * ms,
        "total_ms": (t4 - t0) * ms,
    }


def main() -> int:
    app = QApplication(sys.argv[:1])
    if len(sys.argv) > 2 and sys.argv[1] == "--profile":
        from pyinstrument import Profiler

        n = int(sys.argv[2])
        one(app, n)
        profiler = Profiler(interval=0.0005)
        profiler.start()
        for _ in range(5):
            one(app, n)
        profiler.stop()
        print(profiler.output_text(unicode=False, color=False, show_all=False))
        return 0
    out: dict[str, dict[str, float]] = {}
    deadline = time.monotonic() + 60
    for n, count in SIZES.items():
        for _ in range(2):
            one(app, n)
        runs = []
        for _ in range(count):
            if time.monotonic() > deadline:
                break
            runs.append(one(app, n))
        out[str(n)] = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
    QTimer.singleShot(0, app.quit)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
