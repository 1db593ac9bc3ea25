"""Colours that follow the system palette, colour scheme and contrast preference.

Meaning never rests on colour alone (errors and warnings also carry a sign and words); the
colours only reinforce it, and keep a WCAG AA contrast (>= 4.5:1) against the window in light,
dark and high-contrast palettes.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessibilityHints, QColor, QGuiApplication, QPalette, QStyleHints

__all__ = ["is_dark", "high_contrast", "style_hints", "error_color", "warning_color", "contrast_ratio", "error_css", "warning_css"]

_LIGHT_ERROR, _DARK_ERROR = QColor("#b3261e"), QColor("#ffb4ab")
_LIGHT_WARNING, _DARK_WARNING = QColor("#8a4500"), QColor("#ffb86b")


def is_dark(palette: QPalette) -> bool:
    """Whether the window background is dark."""
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def style_hints() -> tuple[QStyleHints, QAccessibilityHints]:
    """The application's style and accessibility hints (kept referenced together: a temporary
    ``styleHints()`` wrapper lets PySide delete the accessibility hints under us)."""
    app = QGuiApplication.instance()
    if app is None:
        raise RuntimeError("no QGuiApplication")
    hints = app.styleHints()
    return hints, hints.accessibility()


def high_contrast() -> bool:
    """Whether the user asked the system for more contrast (Qt's contrast preference)."""
    if QGuiApplication.instance() is None:
        return False
    _hints, accessibility = style_hints()
    return accessibility.contrastPreference() == Qt.ContrastPreference.HighContrast


def _luminance(color: QColor) -> float:
    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(color.redF()) + 0.7152 * channel(color.greenF()) + 0.0722 * channel(color.blueF())


def contrast_ratio(a: QColor, b: QColor) -> float:
    """WCAG 2 contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _pick(palette: QPalette, light: QColor, dark: QColor) -> QColor:
    text = palette.color(QPalette.ColorRole.WindowText)
    if high_contrast():
        return text
    color = dark if is_dark(palette) else light
    window = palette.color(QPalette.ColorRole.Window)
    return color if contrast_ratio(color, window) >= 4.5 else text  # an unusual palette: plain text colour


def error_color(palette: QPalette) -> QColor:
    """The colour of inline error text."""
    return _pick(palette, _LIGHT_ERROR, _DARK_ERROR)


def warning_color(palette: QPalette) -> QColor:
    """The colour of a warning's frame."""
    return _pick(palette, _LIGHT_WARNING, _DARK_WARNING)


def error_css(palette: QPalette) -> str:
    """Style sheet of an inline error label."""
    return f"color: {error_color(palette).name()}; font-weight: bold;"


def warning_css(palette: QPalette) -> str:
    """Style sheet of a warning label (``objectName`` "warning")."""
    width = 3 if high_contrast() else 2
    return (f"QLabel#warning {{ background: palette(alternate-base); color: palette(window-text);"
            f" border: {width}px solid {warning_color(palette).name()}; border-radius: 4px; padding: 6px; }}")
