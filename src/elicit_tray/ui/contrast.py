"""WCAG 2 contrast of colours, and a solver that finds the colour meeting a ratio.

The app's own colours (field and button edges, the focus ring, placeholder and help text) are
derived from whatever palette the system or ``--theme`` gives: each starts from the palette's
own colour for that use and is moved, in sRGB, towards a colour that contrasts more until it has
the ratio against every colour it is drawn next to. So a palette never seen in a test still gets
the ratio (WCAG 2.2: 1.4.3 text 4.5:1, 1.4.11 boundaries and focus indicators 3:1).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from PySide6.QtGui import QColor

__all__ = ["TEXT_CONTRAST", "CONTROL_CONTRAST", "luminance", "contrast_ratio", "blend", "reach"]

#: WCAG 2.2 1.4.3 (Contrast, Minimum): text against its background.
TEXT_CONTRAST = 4.5
#: WCAG 2.2 1.4.11 (Non-text Contrast): a control's boundary, or a focus indicator, against what
#: is next to it.
CONTROL_CONTRAST = 3.0

_STEPS = 64


def luminance(color: QColor) -> float:
    """WCAG 2 relative luminance of ``color`` (0 black to 1 white; alpha ignored)."""

    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(color.redF()) + 0.7152 * channel(color.greenF()) + 0.0722 * channel(color.blueF())


def contrast_ratio(a: QColor, b: QColor) -> float:
    """WCAG 2 contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def blend(a: QColor, b: QColor, t: float) -> QColor:
    """The colour ``t`` of the way from ``a`` to ``b`` (0: ``a``, 1: ``b``), opaque, rounded to
    8-bit channels as it will be drawn."""
    return QColor(
        round(a.red() + (b.red() - a.red()) * t),
        round(a.green() + (b.green() - a.green()) * t),
        round(a.blue() + (b.blue() - a.blue()) * t),
    )


def _worst(color: QColor, against: list[QColor]) -> float:
    return min(contrast_ratio(color, other) for other in against)


def reach(start: QColor, toward: QColor | None, against: Iterable[QColor], target: float) -> QColor:
    """The colour nearest ``start`` on the way to ``toward`` that has ``target`` contrast (or more)
    against every colour of ``against``: ``start`` itself when it has.

    ``toward`` None (or a ``toward`` that never gets there): black and white are tried as well,
    first the one with more contrast against ``against``. When no colour on either way reaches
    ``target`` (against colours that span the whole range), the one with the best worst-case
    ratio is returned. Alpha is ignored. Raises ``ValueError`` when ``against`` is empty.

    Answers are remembered (a style asks for the same few on every paint of every control)."""
    backgrounds = tuple(QColor(c).rgb() for c in against)
    if not backgrounds:
        raise ValueError("reach() needs a colour to contrast against")
    return QColor(_reach(start.rgb(), None if toward is None else toward.rgb(), backgrounds, target))


@lru_cache(maxsize=512)
def _reach(start_rgb: int, toward_rgb: int | None, against_rgb: tuple[int, ...], target: float) -> int:
    """:func:`reach` on ``QColor.rgb()`` values; returns one."""
    backgrounds = [QColor(rgb) for rgb in against_rgb]
    start = QColor(start_rgb)
    if _worst(start, backgrounds) >= target:
        return start.rgb()
    extremes = sorted((QColor("#000000"), QColor("#ffffff")), key=lambda end: -_worst(end, backgrounds))
    ends = ([QColor(toward_rgb)] if toward_rgb is not None else []) + extremes
    best, best_ratio = start, _worst(start, backgrounds)
    for end in ends:
        for step in range(1, _STEPS + 1):
            color = blend(start, end, step / _STEPS)
            ratio = _worst(color, backgrounds)
            if ratio >= target:
                return color.rgb()
            if ratio > best_ratio:
                best, best_ratio = color, ratio
    return best.rgb()
