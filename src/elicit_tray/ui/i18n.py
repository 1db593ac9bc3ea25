"""Translations of the app's own chrome (Qt's translation system) and the layout direction.

Sources: ``resources/i18n/elicit_tray_<lang>.ts`` (``scripts/i18n.sh`` extracts and compiles);
catalogues: ``elicit_tray/resources/i18n/elicit_tray_<lang>.qm`` inside the package, found
through ``importlib.resources``. Server text is never translated: it is shown as sent.
"""

from __future__ import annotations

import logging
from importlib import resources
from typing import Any

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, Qt, QTranslator

__all__ = ["translate", "translated", "install_translations", "available_languages"]

log = logging.getLogger(__name__)
_installed: list[QTranslator] = []


def translate(context: str, text: str) -> str:
    """``text`` in the user's language (Qt context ``context``); English when untranslated.

    Named like ``QCoreApplication.translate`` so that ``pyside6-lupdate`` extracts the calls.
    """
    return QCoreApplication.translate(context, text)


def translated(message: Any) -> str:
    """A schema :class:`~elicit_tray.schema.values.Message`/``Sentences`` in the user's language
    (context "Validation"); any other string as it is."""
    if hasattr(message, "translated"):
        return message.translated(lambda template: translate("Validation", template))
    return str(message)


def available_languages() -> list[str]:
    """Language codes with a shipped catalogue, e.g. ``["de"]``."""
    folder = resources.files("elicit_tray") / "resources" / "i18n"
    return sorted(p.name[len("elicit_tray_") : -3] for p in folder.iterdir() if p.name.endswith(".qm"))


def install_translations(locale: QLocale | None = None) -> str | None:
    """Install the catalogue for ``locale`` (default: the system locale) and Qt's own, and set
    the application's layout direction from the locale (right-to-left for Arabic, Hebrew...).

    Returns the language code installed, or ``None`` when the app stays in English. Replaces
    catalogues installed by an earlier call. Raises nothing: a missing catalogue means English.
    """
    app = QCoreApplication.instance()
    if app is None:
        raise RuntimeError("install_translations needs a Q(Gui)Application")
    locale = locale or QLocale.system()
    for old in _installed:
        app.removeTranslator(old)
    _installed.clear()
    if hasattr(app, "setLayoutDirection"):
        rtl = locale.textDirection() == Qt.LayoutDirection.RightToLeft
        app.setLayoutDirection(Qt.LayoutDirection.RightToLeft if rtl else Qt.LayoutDirection.LeftToRight)
    chosen = None
    ours = QTranslator(app)
    with resources.as_file(resources.files("elicit_tray") / "resources" / "i18n") as folder:
        if ours.load(locale, "elicit_tray", "_", str(folder), ".qm"):
            app.installTranslator(ours)
            _installed.append(ours)
            chosen = (ours.language() or locale.name()).split("_")[0]
    qt_own = QTranslator(app)
    if qt_own.load(locale, "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt_own)
        _installed.append(qt_own)
    log.info("language: %s (locale %s)", chosen or "en", locale.name())
    return chosen
