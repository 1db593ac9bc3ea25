"""Colours that follow the system palette, colour scheme and contrast preference.

Meaning never rests on colour alone (errors and warnings also carry a sign and words); the
colours only reinforce it, and keep a WCAG AA contrast (>= 4.5:1) against the window in light,
dark and high-contrast palettes.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QAccessibilityHints, QColor, QGuiApplication, QIcon, QPainter, QPalette, QPen, QStyleHints
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleOption, QWidget

__all__ = [
    "is_dark",
    "high_contrast",
    "style_hints",
    "error_color",
    "warning_color",
    "contrast_ratio",
    "error_css",
    "warning_css",
    "control_outline",
    "OutlinedIndicators",
    "install_style",
]

_LIGHT_ERROR, _DARK_ERROR = QColor("#b3261e"), QColor("#ffb4ab")
_LIGHT_WARNING, _DARK_WARNING = QColor("#8a4500"), QColor("#ffb86b")


def is_dark(palette: QPalette) -> bool:
    """Whether the window background is dark."""
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


#: The running application and its hints' wrappers, kept for as long as it runs (see style_hints).
_kept_hints: list[tuple[QGuiApplication, QStyleHints, QAccessibilityHints]] = []


def style_hints() -> tuple[QStyleHints, QAccessibilityHints]:
    """The application's style and accessibility hints. Raises ``RuntimeError`` without a
    QGuiApplication.

    The same two wrappers every time, held here for as long as the application lives: when the
    last reference to a wrapper of the accessibility hints went (a presenter's, collected),
    PySide deleted the C++ object under it, and the next caller crashed (a segmentation fault in
    ``hints.accessibility()``, seen in tests/ui after a dozen presenters)."""
    app = QGuiApplication.instance()
    if not isinstance(app, QGuiApplication):
        raise RuntimeError("no QGuiApplication")
    if not _kept_hints or _kept_hints[0][0] is not app:
        hints = app.styleHints()
        _kept_hints[:] = [(app, hints, hints.accessibility())]
    _app, hints, accessibility = _kept_hints[0]
    return hints, accessibility


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
    return (
        f"QLabel#warning {{ background: palette(alternate-base); color: palette(window-text);"
        f" border: {width}px solid {warning_color(palette).name()}; border-radius: 4px; padding: 6px; }}"
    )


#: WCAG 2.2 (1.4.11 Non-text Contrast): a control's boundary against what is next to it.
CONTROL_CONTRAST = 3.0
#: What the outline colour aims at: a margin over 3:1 for the antialiased edge of a round radio.
_OUTLINE_TARGET = 3.6


def control_outline(palette: QPalette) -> QColor:
    """The outline of an unchecked checkbox or radio button: the style's own (the window colour
    darkened, as Fusion draws it) where that has 3:1 (with a margin) against both the window and
    the field background, else blended towards the text colour until it has (a dark GTK theme gave
    #232323 on #353535, 1.3:1). Raises nothing."""
    window, base = palette.color(QPalette.ColorRole.Window), palette.color(QPalette.ColorRole.Base)
    text = palette.color(QPalette.ColorRole.WindowText)
    outline = window.darker(140)
    for step in range(11):
        t = step / 10
        color = QColor.fromRgbF(
            outline.redF() * (1 - t) + text.redF() * t,
            outline.greenF() * (1 - t) + text.greenF() * t,
            outline.blueF() * (1 - t) + text.blueF() * t,
        )
        if min(contrast_ratio(color, window), contrast_ratio(color, base)) >= _OUTLINE_TARGET:
            return color
    return text


class OutlinedIndicators(QProxyStyle):
    """The platform's style, with checkbox and radio indicators outlined in
    :func:`control_outline` so that they keep 3:1 contrast in every palette."""

    _OUTLINED = (QStyle.PrimitiveElement.PE_IndicatorCheckBox, QStyle.PrimitiveElement.PE_IndicatorRadioButton)

    def __init__(self, base: str | QStyle | None = None):
        """``base``: the style to draw over, or the name of one (a ``QStyleFactory`` key)."""
        super().__init__(base)
        #: (direction, text colour) -> the one clear-button icon handed to every line edit
        self._clear_icons: dict[tuple[bool, int], QIcon] = {}

    def standardIcon(
        self,
        standard_icon: QStyle.StandardPixmap,
        option: QStyleOption | None = None,
        widget: QWidget | None = None,
    ) -> QIcon:
        """The line edits' clear button gets one shared icon (per direction and text colour):
        the base style makes a new ``QIcon`` per call, and the first paint of each stores its
        pixmap in the global ``QPixmapCache`` under that icon's own key, which no later widget
        hits, so every painted clear button left ~3 KiB there until the 10 MiB limit
        (benchmarks/memory.py: the live heap 11 -> 20 MiB over 2,000 requests)."""
        if standard_icon != QStyle.StandardPixmap.SP_LineEditClearButton:
            return super().standardIcon(standard_icon, option, widget)
        if option is not None:
            rtl, text = (
                option.direction == Qt.LayoutDirection.RightToLeft,
                option.palette.color(QPalette.ColorRole.Text),
            )
        elif widget is not None:
            rtl, text = widget.isRightToLeft(), widget.palette().color(QPalette.ColorRole.Text)
        else:
            rtl, text = QGuiApplication.isRightToLeft(), QGuiApplication.palette().color(QPalette.ColorRole.Text)
        key = (rtl, text.rgba())
        icon = self._clear_icons.get(key)
        if icon is None:
            icon = self._clear_icons[key] = super().standardIcon(standard_icon, option, widget)
        return icon

    def drawPrimitive(
        self,
        element: QStyle.PrimitiveElement,
        option: QStyleOption,
        painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        super().drawPrimitive(element, option, painter, widget)
        if element not in self._OUTLINED:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        rect = QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5)
        if element == QStyle.PrimitiveElement.PE_IndicatorRadioButton:
            # A curve is antialiased: 1.5 px keeps at least one whole pixel in the outline colour.
            painter.setPen(QPen(control_outline(option.palette), 1.5))
            painter.drawEllipse(rect.adjusted(0.25, 0.25, -0.25, -0.25))
        else:
            painter.setPen(QPen(control_outline(option.palette), 1.0))
            painter.drawRoundedRect(rect, 1.0, 1.0)
        painter.restore()


def install_style() -> None:
    """Put :class:`OutlinedIndicators` over the application's style (once)."""
    app = QApplication.instance()
    if isinstance(app, QApplication) and not isinstance(app.style(), OutlinedIndicators):
        app.setStyle(OutlinedIndicators(app.style().name()))
