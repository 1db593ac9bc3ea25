"""The app's own chrome is translatable and translated; the system locale is followed; a
right-to-left locale mirrors the layout. Server text is shown as sent."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel

from elicit_tray.ui.i18n import available_languages, install_translations
from elicit_tray.ui.labels import shown_tooltip
from tests.ui.harness import Tray, shown_texts

REPO = Path(__file__).resolve().parents[2]
CATALOGUES = sorted((REPO / "resources" / "i18n").glob("elicit_tray_*.ts"))


def _sources() -> list[str]:
    """The translation sources, as ``scripts/i18n.sh`` lists them (one list: a file added there
    is checked here)."""
    script = (REPO / "scripts" / "i18n.sh").read_text(encoding="utf-8")
    listed = re.search(r"^SOURCES=\((.*)\)$", script, re.M)
    assert listed, "scripts/i18n.sh has no SOURCES=(...) line"
    return sorted(str(path) for pattern in listed.group(1).split() for path in REPO.glob(pattern))


SOURCES = _sources()
FORM = {
    "message": "Wie viele? <b>",
    "requestedSchema": {
        "type": "object",
        "properties": {"copies": {"type": "integer", "title": "Copies", "minimum": 1, "maximum": 10}},
        "required": ["copies"],
    },
}


def _messages(path: Path) -> dict[tuple[str, str], ET.Element]:
    root = ET.parse(path).getroot()
    return {
        (c.findtext("name"), m.findtext("source")): m.find("translation")
        for c in root.iter("context")
        for m in c.iter("message")
    }


@pytest.fixture
def locale():
    yield install_translations
    install_translations(QLocale("en_US"))


@pytest.mark.parametrize("ts", CATALOGUES, ids=[p.stem for p in CATALOGUES])
def test_every_string_of_the_chrome_is_in_each_catalogue_and_translated(tmp_path, ts):
    fresh = tmp_path / "fresh.ts"
    tool = Path(sys.executable).parent / "pyside6-lupdate"  # installed with PySide6, beside python
    subprocess.run(
        [str(tool), "-silent", "-locations", "none", *SOURCES, "-ts", str(fresh)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    extracted = set(_messages(fresh))
    shipped = _messages(ts)
    assert extracted - set(shipped) == set(), "run scripts/i18n.sh update and translate the new strings"
    unfinished = [key for key, t in shipped.items() if t.get("type") == "unfinished" or not t.text]
    assert unfinished == []
    placeholders = [
        key for key, t in shipped.items() if set(re.findall(r"\{\w+\}", key[1])) != set(re.findall(r"\{\w+\}", t.text))
    ]
    assert placeholders == []  # every {name} of the source, and no other, in the translation


def test_the_compiled_catalogue_ships_in_the_package():
    assert available_languages() == ["ar", "de"]


def test_a_german_system_gets_german_chrome_and_server_text_as_sent(aio, locale):
    assert locale(QLocale("de_DE")) == "de"
    tray = Tray(aio)
    channel, dialog = tray.ask(FORM, [{"do": "submit"}])
    texts = shown_texts(dialog)
    assert "&Ablehnen" in texts and "&Bestätigen" in texts and "Abbrechen" in texts
    assert "Ganze Zahl zwischen 1 und 10." in texts
    assert dialog.errors() == {"copies": "Dieses Feld ist ein Pflichtfeld."}
    assert dialog.message_label.text() == "Wie viele? <b>"
    assert dialog.rows["copies"].label.text() == "&Copies *"  # server text; the mnemonic avoids the buttons
    QTest.keyClick(dialog, Qt.Key.Key_D, Qt.KeyboardModifier.AltModifier)  # Alt+D declines in German too
    assert tray.reply(channel)["result"] == {"action": "decline"}


def test_an_arabic_system_gets_arabic_chrome_in_a_mirrored_layout_and_server_text_as_sent(aio, locale):
    assert locale(QLocale("ar_EG")) == "ar"
    assert QApplication.layoutDirection() == Qt.LayoutDirection.RightToLeft
    tray = Tray(aio)
    channel, dialog = tray.ask(FORM, [{"do": "submit"}])
    assert dialog.isRightToLeft()
    assert dialog.decline_button.mapTo(dialog, dialog.decline_button.rect().topLeft()).x() > dialog.width() // 2
    texts = shown_texts(dialog)
    assert "&رفض" in texts and "&قبول" in texts and "إلغاء" in texts
    assert "عدد صحيح بين 1 و10." in texts
    assert dialog.errors() == {"copies": "هذا الحقل مطلوب."}
    assert dialog.message_label.text() == "Wie viele? <b>"
    process = dialog.findChild(QLabel, "process")  # the program's path is isolated left to right
    shown = shown_tooltip(process.toolTip())  # the tooltip as Qt renders it: the whole line, as it is
    assert shown == "طلبه البرنامج المحلي \u2066" + dialog.request.peer.isolated_label + "\u2069"
    QTest.keyClick(dialog, Qt.Key.Key_D, Qt.KeyboardModifier.AltModifier)  # Alt+D declines in Arabic too
    assert tray.reply(channel)["result"] == {"action": "decline"}


def test_a_right_to_left_locale_without_a_catalogue_still_mirrors_the_layout(aio, locale):
    assert locale(QLocale("he_IL")) is None  # no Hebrew catalogue: English text, mirrored layout
    assert QApplication.layoutDirection() == Qt.LayoutDirection.RightToLeft
    tray = Tray(aio)
    channel, dialog = tray.ask(FORM, [])
    assert dialog.isRightToLeft()
    tray.disconnect(channel)


def test_the_reasons_of_the_url_analysis_are_shown_in_german(aio, locale):
    locale(QLocale("de_DE"))
    tray = Tray(aio)
    params = {"mode": "url", "elicitationId": "e", "message": "Login", "url": "http://example.com/"}
    channel, dialog = tray.ask(params, [])
    assert "• Die Verbindung zu dieser Website ist nicht verschlüsselt." in shown_texts(dialog)
    tray.disconnect(channel)
