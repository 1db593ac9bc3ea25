"""Render the History window (20 mixed decisions) and the Settings window to
docs/screenshots/history.png and settings.png (offscreen), for the README and for review.

Usage: QT_QPA_PLATFORM=offscreen python scripts/history_screenshots.py [OUT_DIR]
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["TZ"] = "UTC"
time.tzset()
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtWidgets import QApplication  # noqa: E402

from elicit_tray.history import History  # noqa: E402
from elicit_tray.settings import Preferences, Settings  # noqa: E402
from elicit_tray.ui.history_window import HistoryWindow  # noqa: E402
from elicit_tray.ui.settings_window import SettingsWindow  # noqa: E402
from tests.ui.test_history_window import fill  # noqa: E402


class _Store:
    """A settings store holding the defaults, so that the picture does not depend on this machine."""

    def __init__(self) -> None:
        self.values: dict[str, object] = {}

    def value(self, key: str) -> object:
        return self.values.get(key)

    def setValue(self, key: str, value: object) -> None:  # noqa: N802 - QSettings' name
        self.values[key] = value

    def sync(self) -> None:
        pass


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(["elicit-tray"])
    with tempfile.TemporaryDirectory() as tmp:
        history = History(Path(tmp) / "h.sqlite3")
        recorder = fill(history)
        window = HistoryWindow(history, recorder, ask_path=lambda *_: "", confirm=lambda _q: False)
        window.resize(1100, 700)
        window.show()
        row = next(i for i, r in enumerate(window.model.rows) if r["message"].startswith("Confirm the booking"))
        window.table.selectRow(row)
        app.processEvents()
        window.grab().save(str(out / "history.png"))
        window.close()
        history.close()
    prefs = Preferences(_Store(), {"timeout_s": None})
    assert prefs.current == Settings()
    settings = SettingsWindow(prefs, "/run/user/1000/elicit-tray/socket", autostart=(lambda: True, lambda _on: None))
    settings.show()
    app.processEvents()
    settings.grab().save(str(out / "settings.png"))
    print(f"wrote {out / 'history.png'} and {out / 'settings.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
