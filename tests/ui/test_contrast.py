"""Controls keep WCAG 2.2 non-text contrast (3:1) in light, dark and high-contrast palettes: the
outline of an unchecked checkbox or radio button, computed from the palette and measured on the
rendered pixels (issue 12 §2: a dark GTK theme drew #232323 on #353535, 1.3:1)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QCheckBox, QRadioButton, QStyle, QStyleOptionButton

from elicit_tray.ui.style import CONTROL_CONTRAST, OutlinedIndicators, contrast_ratio, control_outline

PALETTES = {
    "light": {"Window": "#efefef", "WindowText": "#000000", "Base": "#ffffff", "Button": "#efefef"},
    "dark-gtk": {"Window": "#353535", "WindowText": "#eeeeec", "Base": "#2d2d2d", "Button": "#353535"},
    "dark": {"Window": "#202124", "WindowText": "#e8eaed", "Base": "#17181a", "Button": "#303134"},
    "high-contrast": {"Window": "#000000", "WindowText": "#ffffff", "Base": "#000000", "Button": "#000000"},
    "high-contrast-light": {"Window": "#ffffff", "WindowText": "#000000", "Base": "#ffffff", "Button": "#ffffff"},
}


def _palette(colors: dict[str, str]) -> QPalette:
    palette = QPalette()
    for role, color in colors.items():
        palette.setColor(getattr(QPalette.ColorRole, role), QColor(color))
    palette.setColor(QPalette.ColorRole.Text, QColor(colors["WindowText"]))
    palette.setColor(QPalette.ColorRole.ButtonText, QColor(colors["WindowText"]))
    return palette


@pytest.mark.parametrize("name", PALETTES)
def test_the_outline_colour_has_three_to_one_against_the_window_and_the_field(qapp, name):
    palette = _palette(PALETTES[name])
    outline = control_outline(palette)
    assert contrast_ratio(outline, palette.color(QPalette.ColorRole.Window)) >= CONTROL_CONTRAST
    assert contrast_ratio(outline, palette.color(QPalette.ColorRole.Base)) >= CONTROL_CONTRAST


@pytest.mark.parametrize("name", PALETTES)
@pytest.mark.parametrize("kind", [QCheckBox, QRadioButton])
def test_the_drawn_indicator_outline_has_three_to_one_against_the_window(qapp, name, kind):
    palette = _palette(PALETTES[name])
    style = OutlinedIndicators("fusion")
    control = kind("Option")
    control.setStyle(style)
    control.setPalette(palette)
    control.resize(control.sizeHint())
    image = control.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    option = QStyleOptionButton()
    option.initFrom(control)
    element = QStyle.SubElement.SE_CheckBoxIndicator if kind is QCheckBox else QStyle.SubElement.SE_RadioButtonIndicator
    box = style.subElementRect(element, option, control)
    window = palette.color(QPalette.ColorRole.Window)
    y = box.center().y()
    row = [QColor(image.pixel(x, y)) for x in range(box.left(), box.center().x())]  # from the left edge inwards
    best = max(contrast_ratio(c, window) for c in row)
    assert best >= CONTROL_CONTRAST, (name, [c.name() for c in row])
