"""Colours that follow the system palette, colour scheme and contrast preference, and the style
that draws control edges and the focus ring in colours solved for contrast.

Meaning never rests on colour alone (errors and warnings also carry a sign and words). Every
colour the app adds is derived from the palette in use (the system's, or ``--theme``'s) with the
solver of :mod:`.contrast`, so it has WCAG 2.2 AA contrast in any palette: text 4.5:1 (1.4.3),
control boundaries and the focus indicator 3:1 (1.4.11, 2.4.7). docs/design.md "Contrast and
focus" says which colour is measured against which.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, QRectF, QSize, Qt
from PySide6.QtGui import (
    QAccessibilityHints,
    QColor,
    QGuiApplication,
    QIcon,
    QImage,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QRegion,
    QStyleHints,
)
from PySide6.QtWidgets import (
    QApplication,
    QFocusFrame,
    QProxyStyle,
    QStyle,
    QStyleHintReturn,
    QStyleOption,
    QStyleOptionButton,
    QStyleOptionComplex,
    QWidget,
)
from shiboken6 import isValid as shiboken_valid

from .contrast import CONTROL_CONTRAST, TEXT_CONTRAST, blend, contrast_ratio, reach

__all__ = [
    "is_dark",
    "high_contrast",
    "style_hints",
    "error_color",
    "warning_color",
    "contrast_ratio",
    "error_css",
    "warning_css",
    "CONTROL_CONTRAST",
    "TEXT_CONTRAST",
    "FOCUS_MARGIN",
    "FOCUS_WIDTH",
    "control_outline",
    "focus_color",
    "placeholder_color",
    "readable_palette",
    "keep_palette_readable",
    "OutlinedIndicators",
    "FocusRing",
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


_Role = QPalette.ColorRole
#: What the edge colour aims at: a margin over 3:1 for the antialiased edge of a round radio.
_OUTLINE_TARGET = 3.6
#: What the focus ring aims at: a margin over 3:1 (the ring is square, never antialiased).
_FOCUS_TARGET = 3.3
#: What placeholder, help and selected text aims at: a margin over 4.5:1.
_TEXT_TARGET = 4.7
#: A placeholder at least this far from the typed text's colour, so it never reads as a value.
_DISTINCT = 1.8
#: The focus ring: this many logical pixels wide, drawn this far outside the focused control
#: (the ring, then one pixel of the background between it and the control's own edge).
FOCUS_WIDTH, FOCUS_MARGIN = 2, 3


def _colors(palette: QPalette, *roles: QPalette.ColorRole) -> list[QColor]:
    return [palette.color(role) for role in roles]


#: (what, the palette's ``cacheKey()``, high contrast) -> the solved colour: the style asks for
#: an edge colour on every paint of every control, and a palette's key changes with its colours.
_solved: dict[tuple[str, int, bool], QColor] = {}


def _remember(key: tuple[str, int, bool], color: QColor) -> None:
    if len(_solved) >= 256:
        _solved.clear()
    _solved[key] = color


def control_outline(palette: QPalette) -> QColor:
    """The edge of a text field, spin box, drop-down, button or checkbox/radio indicator: the
    style's own (the window colour darkened, as Fusion draws it), moved towards the text colour
    until it has 3:1 (with a margin) against the window, the field and the button background
    (a dark GTK theme gave #232323 on #353535, 1.3:1; a high-contrast one #000 on #000). With
    the system's high-contrast preference: the text colour. Raises nothing."""
    key = ("outline", palette.cacheKey(), high_contrast())
    found = _solved.get(key)
    if found is None:
        text = palette.color(_Role.WindowText)
        if key[2]:
            found = text
        else:
            against = _colors(palette, _Role.Window, _Role.Base, _Role.Button)
            found = reach(palette.color(_Role.Window).darker(140), text, against, _OUTLINE_TARGET)
        _remember(key, found)
    return QColor(found)


def focus_color(palette: QPalette) -> QColor:
    """The focus ring's colour: the palette's highlight, moved towards the text colour until it
    has 3:1 (with a margin) against every background a control sits on or has (window, field,
    button, alternate base), so that the ring's pixels differ by 3:1 from the same pixels
    unfocused (the ring is drawn on the background). Raises nothing."""
    key = ("focus", palette.cacheKey(), False)
    found = _solved.get(key)
    if found is None:
        against = _colors(palette, _Role.Window, _Role.Base, _Role.Button, _Role.AlternateBase)
        found = reach(palette.color(_Role.Highlight), palette.color(_Role.WindowText), against, _FOCUS_TARGET)
        _remember(key, found)
    return QColor(found)


def _worst(color: QColor, against: list[QColor]) -> float:
    return min(contrast_ratio(color, other) for other in against)


def _opaque(color: QColor, over: QColor) -> QColor:
    """``color`` as drawn over ``over`` (its alpha applied)."""
    return blend(over, QColor(color.red(), color.green(), color.blue()), color.alphaF())


def placeholder_color(palette: QPalette) -> QColor | None:
    """A placeholder and help-text colour for ``palette``, or None when its own will do.

    Its own does when it has 4.5:1 (with a margin) against the field and the window (help text
    is on the window) and is visibly apart from the typed text's colour (a high-contrast palette
    gave both white: the placeholder read as a value). Otherwise: the faintest blend from the
    field colour towards the text colour that has the ratio; when that is still as strong as the
    text (the window leaves no room for a fainter readable colour), one further from the field
    than the text. Raises nothing."""
    base, text = palette.color(_Role.Base), palette.color(_Role.Text)
    against = _colors(palette, _Role.Base, _Role.Window)
    own = _opaque(palette.color(_Role.PlaceholderText), base)
    if _worst(own, against) >= _TEXT_TARGET and contrast_ratio(own, text) >= _DISTINCT:
        return None
    faint = reach(blend(base, text, 0.3), text, against, _TEXT_TARGET)
    if contrast_ratio(faint, text) >= _DISTINCT:
        return faint
    stronger = reach(text, None, [text, *against], _DISTINCT)
    return (
        stronger if _worst(stronger, against) >= _TEXT_TARGET and contrast_ratio(stronger, text) >= _DISTINCT else faint
    )


def _button_fills(palette: QPalette) -> list[QColor]:
    """The colours the application's style fills a push button with under ``palette`` (plain,
    focused default and hovered): drawn into an image and read down its middle (Fusion lightens a dark button colour by up to
    a sixth and draws a gradient: Darcula's #4c5052 came out #686c6e)."""
    app = QApplication.instance()
    fills = [palette.color(_Role.Button)]
    if not isinstance(app, QApplication):
        return fills
    plain = QStyle.StateFlag.State_Enabled | QStyle.StateFlag.State_Raised
    for state, features in (
        (plain, QStyleOptionButton.ButtonFeature.None_),
        (plain | QStyle.StateFlag.State_HasFocus, QStyleOptionButton.ButtonFeature.DefaultButton),
        (plain | QStyle.StateFlag.State_MouseOver, QStyleOptionButton.ButtonFeature.None_),
    ):
        image = QImage(48, 28, QImage.Format.Format_RGB32)
        image.fill(palette.color(_Role.Window))
        option = QStyleOptionButton()
        option.rect, option.palette, option.state, option.features = QRect(0, 0, 48, 28), palette, state, features
        painter = QPainter(image)
        app.style().drawPrimitive(QStyle.PrimitiveElement.PE_PanelButtonCommand, option, painter, None)
        painter.end()
        fills += [QColor(image.pixel(24, y)) for y in range(5, 23)]
    return list({c.rgb(): c for c in fills}.values())


def _text_fixes(palette: QPalette) -> list[tuple[QPalette.ColorRole, QColor]]:
    """The text roles of ``palette`` that lack 4.5:1 against what they are drawn on (window
    text on the window, field text on the field, button text on the drawn button), each with
    the nearest colour that has it."""
    fixes = []
    for role, against in (
        (_Role.WindowText, [palette.color(_Role.Window)]),
        (_Role.Text, [palette.color(_Role.Base)]),
        (_Role.ButtonText, _button_fills(palette)),
    ):
        own = palette.color(role)
        if _worst(own, against) < _TEXT_TARGET:
            better = reach(own, None, against, _TEXT_TARGET)
            if better.rgb() != own.rgb():  # none has it (white on a light hovered button): as it is
                fixes.append((role, better))
    return fixes


def _selection_color(palette: QPalette) -> QColor | None:
    """A selection background with 4.5:1 against the selected text, or None when the palette's
    has it (Fusion's light #308cc6 under white text: 3.6:1)."""
    highlight, text = palette.color(_Role.Highlight), palette.color(_Role.HighlightedText)
    if contrast_ratio(highlight, text) >= _TEXT_TARGET:
        return None
    return reach(highlight, None, [text], _TEXT_TARGET)


def readable_palette(palette: QPalette) -> QPalette | None:
    """``palette`` with each text colour that lacks 4.5:1 against its background replaced by the
    nearest that has it (window, field and button text; placeholder and help text, see
    :func:`placeholder_color`; the selection background under selected text), in the active
    and inactive groups; None when nothing needs replacing. Other roles are left as they are
    (still following the system)."""
    fixed, changed = QPalette(palette), False
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        view = QPalette(palette)
        view.setCurrentColorGroup(group)
        for role, color in _text_fixes(view):
            view.setColor(group, role, color)
            fixed.setColor(group, role, color)
            changed = True
        for role, maybe in (
            (_Role.PlaceholderText, placeholder_color(view)),
            (_Role.Highlight, _selection_color(view)),
        ):
            if maybe is not None and maybe.rgba() != view.color(group, role).rgba():
                fixed.setColor(group, role, maybe)
                changed = True
    return fixed if changed else None


class _PaletteKeeper(QObject):
    """Keeps the application palette readable (:func:`readable_palette`) whenever it changes:
    the system's theme, a ``--theme`` or a test sets one. Told by ``paletteChanged`` where Qt
    still has it (an application-wide event filter would see every event of every widget, a
    Python call each: 1.6 ms per repaint of a form); else by that filter."""

    def __init__(self, app: QApplication):
        super().__init__(app)
        if hasattr(app, "paletteChanged"):
            app.paletteChanged.connect(self._changed)
        else:  # a Qt without the deprecated signal
            app.installEventFilter(self)

    def _changed(self, _palette: QPalette) -> None:
        keep_palette_readable()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Re-check on every application palette change; never consumes the event."""
        if event.type() == QEvent.Type.ApplicationPaletteChange and watched is QApplication.instance():
            keep_palette_readable()
        return False


def keep_palette_readable() -> None:
    """Give the application a :func:`readable_palette` if its own lacks contrast (once per
    change: the fixed palette needs nothing more, so the change it sends stops there)."""
    app = QApplication.instance()
    if isinstance(app, QApplication):
        fixed = readable_palette(app.palette())
        if fixed is not None:
            app.setPalette(fixed)


def _edge(painter: QPainter, rect: QRect, color: QColor) -> None:
    """A square edge one logical pixel wide in ``color`` on the outermost pixels of ``rect``."""
    if rect.width() < 2 or rect.height() < 2:
        return
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    pen = QPen(color, 1.0)
    pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
    painter.setPen(pen)
    painter.drawRect(QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5))
    painter.restore()


#: Primitives whose boundary is drawn again in :func:`control_outline` (line edits, framed
#: views such as the URL box and the history table, push and tool buttons).
_EDGED = (
    QStyle.PrimitiveElement.PE_FrameLineEdit,
    QStyle.PrimitiveElement.PE_Frame,
    QStyle.PrimitiveElement.PE_PanelButtonCommand,
)
_EDGED_COMPLEX = (QStyle.ComplexControl.CC_SpinBox, QStyle.ComplexControl.CC_ComboBox)
#: WCAG 2.2 2.5.8 Target Size (Minimum): every control one clicks is at least this tall and wide,
#: in device-independent pixels (Qt's logical pixels, which scale as CSS pixels do).
MIN_TARGET_PX = 24
_TARGETS = frozenset(
    {
        QStyle.ContentsType.CT_CheckBox,
        QStyle.ContentsType.CT_RadioButton,
        QStyle.ContentsType.CT_PushButton,
        QStyle.ContentsType.CT_ToolButton,
        QStyle.ContentsType.CT_LineEdit,
        QStyle.ContentsType.CT_ComboBox,
        QStyle.ContentsType.CT_SpinBox,
    }
)


class OutlinedIndicators(QProxyStyle):
    """The platform's style, with the boundary of every text field, spin box, drop-down, framed
    view, button and checkbox/radio indicator drawn again in :func:`control_outline`, so that it
    has 3:1 contrast in every palette."""

    _OUTLINED = (QStyle.PrimitiveElement.PE_IndicatorCheckBox, QStyle.PrimitiveElement.PE_IndicatorRadioButton)

    def __init__(self, base: str | QStyle | None = None):
        """``base``: the style to draw over, or the name of one (a ``QStyleFactory`` key)."""
        super().__init__(base)
        #: (direction, text colour) -> the one clear-button icon handed to every line edit
        self._clear_icons: dict[tuple[bool, int], QIcon] = {}

    def sizeFromContents(
        self, kind: QStyle.ContentsType, option: QStyleOption | None, size: QSize, widget: QWidget | None = None
    ) -> QSize:
        """The base's size, at least :data:`MIN_TARGET_PX` each way for the controls one clicks
        (checkboxes, radio buttons, buttons, text fields, drop-downs, spin boxes)."""
        result = super().sizeFromContents(kind, option, size, widget)  # type: ignore[arg-type]  # Qt takes null for both
        if kind in _TARGETS:
            result = result.expandedTo(QSize(MIN_TARGET_PX, MIN_TARGET_PX))
        return result

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
        """The base's drawing, then the edge in :func:`control_outline` on top."""
        super().drawPrimitive(element, option, painter, widget)
        if element in _EDGED:
            if element != QStyle.PrimitiveElement.PE_Frame or getattr(option, "lineWidth", 1) > 0:
                _edge(painter, option.rect, control_outline(option.palette))
            return
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

    def drawComplexControl(
        self,
        control: QStyle.ComplexControl,
        option: QStyleOptionComplex,
        painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        """The base's drawing; a framed spin box, date field or drop-down gets its edge in
        :func:`control_outline` on top."""
        super().drawComplexControl(control, option, painter, widget)
        if control in _EDGED_COMPLEX and getattr(option, "frame", True):
            _edge(painter, option.rect, control_outline(option.palette))


class _RingStyle(QProxyStyle):
    """The focus ring's own style (Fusion underneath): its margin is :data:`FOCUS_MARGIN`, and
    it sits above the control's parents, in the window or the scroll area's viewport, so a
    container's edge does not clip it. The ring's alone: overriding these in the application's
    style would put a Python call in each of the thousands of metric look-ups per paint."""

    def pixelMetric(
        self, metric: QStyle.PixelMetric, option: QStyleOption | None = None, widget: QWidget | None = None
    ) -> int:
        """The margin is :data:`FOCUS_MARGIN`; the rest: the base's."""
        if metric in (QStyle.PixelMetric.PM_FocusFrameHMargin, QStyle.PixelMetric.PM_FocusFrameVMargin):
            return FOCUS_MARGIN
        return super().pixelMetric(metric, option, widget)

    def styleHint(
        self,
        hint: QStyle.StyleHint,
        option: QStyleOption | None = None,
        widget: QWidget | None = None,
        return_data: QStyleHintReturn | None = None,
    ) -> int:
        """Above the control's parents; the rest: the base's."""
        if hint == QStyle.StyleHint.SH_FocusFrame_AboveWidget:
            return 1
        return super().styleHint(hint, option, widget, return_data)


class FocusRing(QFocusFrame):
    """A ring :data:`FOCUS_WIDTH` wide in :func:`focus_color` around the focused control,
    :data:`FOCUS_MARGIN` outside its edge: on the background, so its pixels differ by 3:1 from
    the same pixels unfocused, whatever the control draws itself. A ``QFocusFrame`` (Qt keeps it
    on the control as it moves, resizes or scrolls, and out of the accessibility tree); only the
    frame's margin is part of it (the style's mask), so it never covers the control."""

    def paintEvent(self, event: QPaintEvent) -> None:
        """Fill the outer :data:`FOCUS_WIDTH` px of the frame in the focus colour; the pixels
        between the ring and the control are left as they are (the frame's mask, the style's,
        is the whole margin)."""
        outer = self.rect()
        ring = QRegion(outer).subtracted(QRegion(outer.adjusted(FOCUS_WIDTH, FOCUS_WIDTH, -FOCUS_WIDTH, -FOCUS_WIDTH)))
        painter = QPainter(self)
        painter.setClipRegion(ring)
        painter.fillRect(outer, focus_color(self.palette()))
        painter.end()


class _FocusFollower(QObject):
    """Puts the :class:`FocusRing` on whichever control has the keyboard focus (every window of
    the app: dialogs, settings, history, message boxes), whatever moved it there; Qt's own
    styles mark a control only after a Tab, and Fusion's mark has 1.3-3:1 contrast."""

    def __init__(self, app: QApplication):
        super().__init__(app)
        self._ring: FocusRing | None = None
        self._style = _RingStyle("fusion")
        app.focusChanged.connect(self._moved)

    def _moved(self, _old: QWidget | None, new: QWidget | None) -> None:
        ring = self._ring if self._ring is not None and shiboken_valid(self._ring) else None
        if new is None or new.isWindow() or new.parentWidget() is None:
            if ring is not None:
                ring.setWidget(None)  # type: ignore[arg-type]  # Qt takes nullptr: follow nothing
            return
        if ring is None:
            ring = self._ring = FocusRing()  # parented by setWidget: goes with the window it is in
            ring.setStyle(self._style)
        ring.setWidget(new)


def install_style() -> None:
    """Put :class:`OutlinedIndicators` over the application's style, keep its palette readable
    (:func:`readable_palette`) and put the :class:`FocusRing` on the focused control (once)."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    if not isinstance(app.style(), OutlinedIndicators):
        app.setStyle(OutlinedIndicators(app.style().name()))
    if app.findChild(_PaletteKeeper) is None:
        _PaletteKeeper(app)
        _FocusFollower(app)
    keep_palette_readable()
