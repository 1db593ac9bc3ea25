"""The reference app of the memory target: a bare QApplication that shows one 10-field
QFormLayout dialog, then prints its RSS as JSON and exits.

Run by ``benchmarks/run.py`` on the same Qt platform as the tray app it is compared with
(``QT_QPA_PLATFORM=offscreen`` or xcb under Xvfb). Nothing of elicit-tray is imported.
"""

from __future__ import annotations

import json
import sys
import time

T0 = time.monotonic()

from PySide6.QtCore import QTimer  # noqa: E402
from PySide6.QtWidgets import (  # noqa: E402
    QApplication,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
)


def rss_kib() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main() -> int:
    hold_ms = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    app = QApplication(sys.argv[:1])
    dialog = QDialog()
    dialog.setWindowTitle("bare Qt: 10 fields")
    outer = QVBoxLayout(dialog)
    outer.addWidget(QLabel("A bare Qt dialog with ten fields"))
    form = QFormLayout()
    for i in range(10):
        form.addRow(QLabel(f"Field {i}"), QLineEdit(f"value {i}"))
    outer.addLayout(form)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    outer.addWidget(buttons)
    dialog.show()
    shown_at = time.monotonic()

    def report() -> None:
        print(json.dumps({"rss_kib": rss_kib(), "start_to_shown_ms": (shown_at - T0) * 1000}), flush=True)
        app.quit()

    QTimer.singleShot(hold_ms, report)  # let it map, paint and settle first
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
