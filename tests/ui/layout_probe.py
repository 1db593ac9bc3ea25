"""Build every dialog kind offscreen in one display variant and print, as JSON, the widgets
that are clipped (smaller than they need) or overlap a sibling. Run in a fresh process:
QT_SCALE_FACTOR and the font must be set before the QApplication exists.

Usage: python -m tests.ui.layout_probe VARIANT [PNG_DIR]
VARIANT: normal | scale2 | dark | high-contrast | rtl
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
VARIANT = sys.argv[1] if len(sys.argv) > 1 else "normal"
if VARIANT == "scale2":
    os.environ["QT_SCALE_FACTOR"] = "2"

from PySide6.QtCore import QLocale, QRect  # noqa: E402
from PySide6.QtGui import QColor, QPalette  # noqa: E402
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QWidget  # noqa: E402

from elicit_tray.elicitation import parse_elicit_params  # noqa: E402
from elicit_tray.request import Peer  # noqa: E402
from elicit_tray.ui.i18n import install_translations  # noqa: E402
from elicit_tray.ui.presenter import Presenter, save_screenshot  # noqa: E402

LONG = (
    "Bitte bestätigen Sie die Bereitstellung — подтвердите развертывание — 配置を確認してください — "
    "يرجى تأكيد النشر — " * 3
).strip()
REQUESTER = {
    "serverName": "a-server-with-a-rather-long-name-that-keeps-going",
    "serverTitle": "Überlanger Servertitel mit vielen Wörtern und noch mehr Wörtern",
}
DIALOGS = {
    "form": {
        "message": LONG,
        "requestedSchema": {
            "type": "object",
            "properties": {
                "environment": {
                    "type": "string",
                    "title": "Umgebung für die Bereitstellung der Anwendung",
                    "oneOf": [
                        {"const": "stg", "title": "Staging (Testumgebung mit einem sehr langen Namen)"},
                        {"const": "prd", "title": "Produktion"},
                    ],
                    "default": "stg",
                },
                "notify": {
                    "type": "boolean",
                    "title": "通知 — notify the on-call channel and everybody else",
                    "default": True,
                },
                "window": {"type": "string", "format": "date-time", "title": "Deploy at"},
                "day": {"type": "string", "format": "date", "title": "يوم"},
                "replicas": {
                    "type": "integer",
                    "title": "Replicas",
                    "minimum": 1,
                    "maximum": 10,
                    "description": "Anzahl der Instanzen, die gleichzeitig laufen sollen",
                },
                "extras": {
                    "type": "array",
                    "title": "Extras",
                    "maxItems": 2,
                    "items": {"type": "string", "enum": ["Gepäck", "Sitzplatz", "Lounge-Zugang für zwei Personen"]},
                },
                "meal": {"type": "string", "title": "Meal", "enum": ["none", "veg", "fish", "meat", "kids"]},
                "contact": {"type": "string", "format": "email", "title": "Kontakt-E-Mail-Adresse"},
            },
            "required": ["environment", "replicas"],
        },
    },
    "url-warn": {
        "mode": "url",
        "elicitationId": "e1",
        "message": LONG,
        "url": "https://xn--80ak6aa92e.com/login?next=" + "a" * 200,
    },
    "url-refuse": {"mode": "url", "elicitationId": "e2", "message": "Click", "url": "javascript:alert(1)"},
    "form-titles": {
        "message": "Titles",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "t0": {"type": "string", "title": "Text 0"},
                "v": {"type": "string", "title": "Value"},
                "ar": {"type": "string", "title": "الاسم الكامل للمستخدم", "description": "وصف \u202eabc"},
                "he": {"type": "boolean", "title": "אני מסכים לתנאים"},
                "zh": {"type": "string", "title": "确认部署到生产环境吗", "enum": ["a", "b"]},
                "f": {"type": "string", "title": "File \u202egpj.exe"},
            },
            "required": ["v", "ar"],
        },
    },
    "form-short-titles": {
        "message": "Short",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "t0": {"type": "string", "title": "Text 0"},
                "v": {"type": "string", "title": "Value"},
                "k": {"type": "boolean", "title": "Keep"},
            },
            "required": ["v"],
        },
    },
    "form-small": {
        "message": "Copies?",
        "requestedSchema": {
            "type": "object",
            "properties": {"copies": {"type": "integer", "title": "Copies"}},
            "required": ["copies"],
        },
    },
    "form-huge-message": {
        "message": "Lorem ipsum dolor sit amet. " * 350,
        "requestedSchema": {
            "type": "object",
            "properties": {"ok": {"type": "boolean", "title": "OK", "default": True}},
        },
    },
    "url-waiting": {
        "mode": "url",
        "elicitationId": "e3",
        "message": "Authorize access to your calendar.",
        "url": "https://auth.example.com/connect?flow=3f1c2a9e",
    },
    "url-expired": {
        "mode": "url",
        "elicitationId": "e4",
        "message": "Authorize access to your calendar.",
        "url": "https://auth.example.com/connect?flow=3f1c2a9e",
    },
}


def _palette(variant: str) -> QPalette | None:
    if variant == "dark":
        pal = QPalette()
        for role, color in (
            (QPalette.ColorRole.Window, "#202124"),
            (QPalette.ColorRole.WindowText, "#e8eaed"),
            (QPalette.ColorRole.Base, "#17181a"),
            (QPalette.ColorRole.AlternateBase, "#2a2b2e"),
            (QPalette.ColorRole.Text, "#e8eaed"),
            (QPalette.ColorRole.Button, "#303134"),
            (QPalette.ColorRole.ButtonText, "#e8eaed"),
            (QPalette.ColorRole.PlaceholderText, "#9aa0a6"),
        ):
            pal.setColor(role, QColor(color))
        return pal
    if variant == "high-contrast":
        pal = QPalette()
        for role, color in (
            (QPalette.ColorRole.Window, "#000000"),
            (QPalette.ColorRole.WindowText, "#ffffff"),
            (QPalette.ColorRole.Base, "#000000"),
            (QPalette.ColorRole.AlternateBase, "#000000"),
            (QPalette.ColorRole.Text, "#ffffff"),
            (QPalette.ColorRole.Button, "#000000"),
            (QPalette.ColorRole.ButtonText, "#ffff00"),
            (QPalette.ColorRole.PlaceholderText, "#ffffff"),
            (QPalette.ColorRole.Highlight, "#ffff00"),
            (QPalette.ColorRole.HighlightedText, "#000000"),
        ):
            pal.setColor(role, QColor(color))
        return pal
    return None


def problems(dialog: QWidget) -> list[str]:
    """Visible labels and buttons smaller than their text needs, or overlapping a sibling."""
    found = []
    widgets = [w for w in dialog.findChildren(QWidget) if isinstance(w, (QLabel, QAbstractButton)) and w.isVisible()]
    for w in widgets:
        name = w.objectName() or w.__class__.__name__ + ":" + (w.text()[:30] if hasattr(w, "text") else "")
        if isinstance(w, QLabel) and w.wordWrap():
            if w.height() < w.heightForWidth(w.width()):
                found.append(f"clipped height: {name} ({w.height()} < {w.heightForWidth(w.width())})")
        else:
            hint = w.minimumSizeHint()
            if w.width() < hint.width() or w.height() < hint.height():
                found.append(f"clipped: {name} ({w.width()}x{w.height()} < {hint.width()}x{hint.height()})")
    boxes = []
    for w in widgets:  # what is on screen: clipped by the scroll area's viewport
        seen = w.visibleRegion().boundingRect()
        if not seen.isEmpty():
            boxes.append((w, QRect(w.mapTo(dialog, seen.topLeft()), seen.size())))
    for i, (a, ra) in enumerate(boxes):
        for b, rb in boxes[i + 1 :]:
            if a.isAncestorOf(b) or b.isAncestorOf(a):
                continue
            if ra.intersects(rb) and ra.intersected(rb).width() > 1 and ra.intersected(rb).height() > 1:
                found.append(
                    f"overlap: {a.objectName() or a.__class__.__name__} / {b.objectName() or b.__class__.__name__}"
                )
    return found


def main() -> None:
    app = QApplication([])
    if VARIANT in ("scale2",):
        font = app.font()
        font.setPointSizeF(font.pointSizeF() * 1.5)  # a large system font on top of the 200% scale
        app.setFont(font)
    palette = _palette(VARIANT)
    if palette is not None:
        app.setPalette(palette)
    install_translations(QLocale("ar_EG") if VARIANT == "rtl" else QLocale("en_US"))
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else None
    presenter = Presenter(opener=lambda href: True, arm_delay_ms=0)
    report = {}
    for name, params in DIALOGS.items():
        params = dict(params, _meta={"elicit-tray/requester": REQUESTER})
        dialog = presenter.build(parse_elicit_params(params, Peer(pid=4242, process_name="agent-runner")))
        dialog.show()
        app.processEvents()
        if name.startswith("form"):
            dialog.attempt_submit()  # show the errors too
        elif name == "url-waiting":
            dialog.browser_opened = dialog.waiting = True
            dialog.set_waiting_view()
        elif name == "url-expired":
            dialog.mark_expired()
        app.processEvents()
        buttons = [b for b in dialog.findChildren(QAbstractButton) if b.isVisible() and b.parent() is dialog]
        off_screen = [b.text() for b in buttons if not b.visibleRegion().boundingRect().size() == b.size()]
        room = dialog.height() < int(dialog.screen().availableGeometry().height() * 0.9)
        for label in dialog.findChildren(QLabel):  # with room to grow, news must be in view
            news = label.objectName() == "status" or label in dialog.error_labels.values()  # found by id
            if room and news and label.isVisible() and label.visibleRegion().boundingRect().size() != label.size():
                off_screen.append(label.objectName() + " (scrolled out of view)")
        report[name] = {
            "problems": problems(dialog) + [f"button not fully visible: {t}" for t in off_screen],
            "rtl": dialog.isRightToLeft(),
            "size": [dialog.width(), dialog.height()],
        }
        if out is not None:
            save_screenshot(dialog, out, f"{name}-{VARIANT}")
        dialog.hide()
        dialog.deleteLater()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
