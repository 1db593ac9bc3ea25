"""A marker for translatable text in the pure-Python modules (no Qt import).

``QT_TRANSLATE_NOOP("Context", "text")`` returns ``text`` unchanged; Qt's ``lupdate`` extracts
the pair into ``resources/i18n/*.ts``, and the UI shows it translated with
``QCoreApplication.translate("Context", text)``.
"""

__all__ = ["QT_TRANSLATE_NOOP"]


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # Qt's name: the one lupdate extracts
    """Mark ``text`` for Qt's translation tools (context ``context``); returns it unchanged."""
    return text
