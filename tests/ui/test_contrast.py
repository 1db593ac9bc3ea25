"""WCAG 2.2 contrast measured on the rendered pixels of every window of the app, in system
palettes (set on the application as a platform does, tests/ui/pixels.py) and the ``--theme``
ones: control boundaries 3:1 (1.4.11), text and placeholders 4.5:1 (1.4.3), placeholders
apart from typed text; and the checkbox/radio outline, computed from the palette (a dark GTK
theme drew #232323 on #353535, 1.3:1)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QCheckBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QStyle,
    QStyleOptionButton,
    QWidget,
)

from elicit_tray.ui.contrast import reach
from elicit_tray.ui.style import (
    CONTROL_CONTRAST,
    TEXT_CONTRAST,
    OutlinedIndicators,
    contrast_ratio,
    control_outline,
    focus_color,
    install_style,
    readable_palette,
)
from tests.ui.pixels import (
    PALETTE_NAMES,
    WINDOWS,
    commonest,
    edge_contrast,
    focusable,
    grab,
    open_window,
    palette,
    rect_in,
    strongest,
    text_contrast,
)

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


def shown(qtbot, kind: str) -> QWidget:
    """``kind`` of tests/ui/pixels.py, open, active, with no control focused (no ring)."""
    window = open_window(kind)
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5000)
    focused = QApplication.focusWidget()
    if focused is not None:
        focused.clearFocus()
    QApplication.processEvents()
    return window


_EDGED = (QLineEdit, QAbstractSpinBox, QComboBox, QPlainTextEdit, QPushButton, QAbstractItemView)


@pytest.mark.parametrize("kind", WINDOWS)
@pytest.mark.parametrize("system_palette", PALETTE_NAMES, indirect=True)
def test_every_field_and_button_edge_has_three_to_one_on_the_pixels(qtbot, system_palette, kind):
    window = shown(qtbot, kind)
    image = grab(window)
    weak = []
    for control in focusable(window):
        if isinstance(control, _EDGED):
            inside = isinstance(control, (QLineEdit, QAbstractSpinBox, QPlainTextEdit))
            ratio, read = edge_contrast(image, rect_in(window, control), inside=inside)
            if ratio < CONTROL_CONTRAST:
                weak.append((control.objectName() or type(control).__name__, round(ratio, 2), read))
    assert weak == []


def _text_rects(window: QWidget) -> list[tuple[str, QRect]]:
    """(name, rectangle) of every visible, enabled piece of text: labels (their part in view),
    button and option labels, the text or placeholder inside fields and drop-downs."""
    found = []
    for widget in window.findChildren(QWidget):
        if not widget.isVisible() or not widget.isEnabled() or not window.isAncestorOf(widget):
            continue
        name = widget.objectName() or type(widget).__name__
        seen = widget.visibleRegion().boundingRect()
        if seen.isEmpty():
            continue
        rect = QRect(widget.mapTo(window, seen.topLeft()), seen.size())
        if isinstance(widget, QLabel) and widget.text().strip() and widget.pixmap().isNull():
            found.append((f"label {name}", rect))
        elif isinstance(widget, (QCheckBox, QRadioButton)) and widget.text():
            found.append((f"option {name}", rect.adjusted(22, 0, 0, 0)))  # right of the indicator
        elif isinstance(widget, QAbstractButton) and widget.text():
            found.append((f"button {name}", rect.adjusted(4, 4, -4, -4)))
        elif isinstance(widget, QLineEdit) and (widget.text() or widget.placeholderText()):
            if not isinstance(widget.parentWidget(), (QAbstractSpinBox, QComboBox)):
                found.append((f"field {name}", rect.adjusted(3, 3, -3, -3)))
        elif isinstance(widget, (QAbstractSpinBox, QComboBox)):
            found.append((f"field {name}", rect.adjusted(3, 3, -22, -3)))  # left of the arrows
    return found


@pytest.mark.parametrize("kind", WINDOWS)
@pytest.mark.parametrize("system_palette", PALETTE_NAMES, indirect=True)
def test_every_text_and_placeholder_has_four_and_a_half_to_one_on_the_pixels(qtbot, system_palette, kind):
    window = shown(qtbot, kind)
    image = grab(window)
    texts = _text_rects(window)
    assert len(texts) >= 3, texts
    weak = []
    for name, rect in texts:
        ratio, ink, background = text_contrast(image, rect)
        if ratio < TEXT_CONTRAST:
            weak.append((name, round(ratio, 2), ink, background))
    assert weak == []


@pytest.mark.parametrize("system_palette", PALETTE_NAMES, indirect=True)
def test_a_placeholder_never_looks_like_typed_text(qtbot, system_palette):
    window = shown(qtbot, "form")
    name, mail = window.findChild(QLineEdit, "field-name"), window.findChild(QLineEdit, "field-mail")
    assert name is not None and mail is not None and mail.placeholderText() == "name@example.com"
    name.setText("name@example.com")
    QApplication.processEvents()
    image = grab(window)
    inks = []
    for field in (name, mail):
        inner = rect_in(window, field).adjusted(3, 3, -3, -3)
        inks.append(strongest(image, inner, commonest(image, inner)))
    typed, placeholder = inks
    assert contrast_ratio(placeholder, commonest(image, rect_in(window, mail).adjusted(3, 3, -3, -3))) >= TEXT_CONTRAST
    assert contrast_ratio(typed, placeholder) >= 1.5, (typed.name(), placeholder.name())


def test_the_solver_moves_a_colour_only_as_far_as_the_ratio_needs():
    grey, black, white, window = QColor("#ababab"), QColor("#000000"), QColor("#ffffff"), QColor("#efefef")
    # Fusion's light field border, 2.0:1 on white: towards black until 3.6:1 against both
    assert reach(grey, black, [white, window], 3.6).name() == "#7b7b7b"
    assert reach(QColor("#7b7b7b"), black, [white, window], 3.6).name() == "#7b7b7b"  # already there
    # unreachable (5:1 against both black and white): the best worst case on the way
    best = reach(QColor("#808080"), None, [black, white], 5.0)
    assert round(min(contrast_ratio(best, black), contrast_ratio(best, white)), 2) == 4.54
    with pytest.raises(ValueError):
        reach(grey, black, [], 3.0)


@pytest.mark.parametrize(
    ("name", "outline", "ring", "placeholder", "highlight", "button_text"),
    [
        ("fusion-light", "#7b7b7b", "#2978aa", "#6a6a6a", "#2978aa", "#000000"),
        ("theme-dark", "#86888a", "#4488b3", "#9aa0a6", "#2978aa", "#e8eaed"),
        ("theme-high-contrast", "#686868", "#ffff00", "#797979", "#ffff00", "#ffff00"),
        ("gtk-adwaita-dark", "#8b8b8b", "#5a86bb", "#9d9d9d", "#15539e", "#ffffff"),
        # no readable placeholder fainter than Darcula's text on its window: one brighter
        ("darcula", "#aeaeae", "#98a6bf", "#eff2f4", "#2f65ca", "#ffffff"),
    ],
)
def test_the_solved_colours_of_each_palette(qapp, name, outline, ring, placeholder, highlight, button_text):
    install_style()
    given = palette(name)
    fixed = readable_palette(given) or given
    got = (
        control_outline(fixed).name(),
        focus_color(fixed).name(),
        fixed.color(QPalette.ColorRole.PlaceholderText).name(),
        fixed.color(QPalette.ColorRole.Highlight).name(),
        fixed.color(QPalette.ColorRole.ButtonText).name(),
    )
    assert got == (outline, ring, placeholder, highlight, button_text)
    assert readable_palette(fixed) is None  # solved once, nothing more to change


def test_with_the_systems_high_contrast_preference_edges_take_the_text_colour(qapp, monkeypatch):
    import elicit_tray.ui.style as style

    given = palette("theme-high-contrast")
    assert control_outline(given).name() == "#686868"
    monkeypatch.setattr(style, "high_contrast", lambda: True)
    assert control_outline(given).name() == "#ffffff"
