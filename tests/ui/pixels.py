"""Contrast read from rendered pixels (``QWidget.grab()`` offscreen, or an X screenshot): the
palettes the contrast tests run in, the windows they open, and the measures they take.

Every measure is on an image of the whole window and a control's rectangle in it (logical
pixels = image pixels: the tests run at scale 1):

- :func:`edge_contrast`: a control's boundary against the background outside it and its own
  fill inside (WCAG 1.4.11), on its top and left edges;
- :func:`text_contrast`: the text's strongest pixel against the commonest pixel of its rectangle
  (the background; WCAG 1.4.3);
- :func:`ring_failures`: the focus ring, as the pixels around a control that change when it
  gets the focus, each against the same pixel unfocused and against the background beyond
  it (WCAG 2.4.7, 1.4.11).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QStyleFactory, QWidget

from elicit_tray.checker.render import _PALETTES
from elicit_tray.ui.style import FOCUS_MARGIN, FOCUS_WIDTH, contrast_ratio

_GTK_ROLES = ("Window", "WindowText", "Base", "AlternateBase", "Text", "Button", "ButtonText")
_GTK_ROLES += ("PlaceholderText", "Highlight", "HighlightedText")


def _gtk(*colors: str) -> dict[str, str]:
    return dict(zip(_GTK_ROLES, colors, strict=True))


#: System palettes as a platform hands them to the application (the GTK ones are what Qt's gtk3
#: platform theme read from GTK 3.24's built-in themes, GTK_THEME=...), the app's own
#: ``--theme`` palettes, and ones no test was written against (a made-up high-contrast white and
#: JetBrains' Darcula), for the solver.
SYSTEM_PALETTES: dict[str, dict[str, str]] = {
    "gtk-adwaita": _gtk(
        "#faf9f8", "#000000", "#faf9f8", "#eae9e8", "#000000", "#faf9f8", "#000000", "#646464", "#3584e4", "#ffffff"
    ),
    "gtk-adwaita-dark": _gtk(
        "#323232", "#ffffff", "#323232", "#2f2f2f", "#ffffff", "#323232", "#ffffff", "#9b9b9b", "#15539e", "#ffffff"
    ),
    "gtk-high-contrast": _gtk(
        "#fefefd", "#000000", "#fefefd", "#ededec", "#000000", "#fefefd", "#000000", "#646464", "#1b6acb", "#ffffff"
    ),
    "gtk-high-contrast-inverse": _gtk(
        "#2f2f2f", "#ffffff", "#2f2f2f", "#2c2c2c", "#ffffff", "#2f2f2f", "#ffffff", "#9b9b9b", "#0f3b71", "#ffffff"
    ),
    "high-contrast-white": _gtk(
        "#ffffff", "#000000", "#ffffff", "#ffffff", "#000000", "#ffffff", "#000000", "#000000", "#000080", "#ffffff"
    ),
    "darcula": _gtk(
        "#3c3f41", "#bbbbbb", "#2b2b2b", "#313335", "#a9b7c6", "#4c5052", "#bbbbbb", "#5a5d5f", "#2f65ca", "#ffffff"
    ),
}
PALETTE_NAMES = ["fusion-light", *SYSTEM_PALETTES, "theme-dark", "theme-high-contrast"]


def palette(name: str) -> QPalette:
    """The palette ``name`` of :data:`PALETTE_NAMES` ("fusion-light": Fusion's own, what the app
    gets from a system without a platform theme; "theme-*": ``--theme``)."""
    if name == "fusion-light":
        style = QStyleFactory.create("Fusion")
        assert style is not None
        return style.standardPalette()
    roles = dict(_PALETTES[name.removeprefix("theme-")]) if name.startswith("theme-") else SYSTEM_PALETTES[name]
    result = QPalette()
    for role, color in roles.items():
        result.setColor(getattr(QPalette.ColorRole, role), QColor(color))
    return result


def grab(window: QWidget, rect: QRect | None = None, *, scale: int = 1) -> QImage:
    """The window as drawn (only ``rect`` of it, when given: the image's origin is then
    ``rect``'s top left), in 32-bit RGB; with ``scale`` 2 as on a 200% display (``rect``
    ignored; image pixels = logical pixels x 2)."""
    if scale != 1:
        from PySide6.QtGui import QPixmap

        pixmap = QPixmap(window.size() * scale)
        pixmap.setDevicePixelRatio(scale)
        window.render(pixmap)
        return pixmap.toImage().convertToFormat(QImage.Format.Format_RGB32)
    shot = window.grab() if rect is None else window.grab(rect)
    return shot.toImage().convertToFormat(QImage.Format.Format_RGB32)


def rect_in(window: QWidget, widget: QWidget) -> QRect:
    """``widget``'s rectangle in ``window``'s coordinates."""
    return QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())


def pixel(image: QImage, x: int, y: int) -> QColor:
    """The pixel at (x, y)."""
    return QColor(image.pixel(x, y))


def commonest(image: QImage, rect: QRect) -> QColor:
    """The colour most pixels of ``rect`` have (a text's background)."""
    rect = rect.intersected(image.rect())
    counts = Counter(
        image.pixel(x, y) for x in range(rect.left(), rect.right() + 1) for y in range(rect.top(), rect.bottom() + 1)
    )
    return QColor(counts.most_common(1)[0][0])


def strongest(image: QImage, rect: QRect, against: QColor) -> QColor:
    """The pixel of ``rect`` with the most contrast against ``against`` (a text's ink)."""
    rect = rect.intersected(image.rect())
    seen = {
        image.pixel(x, y) for x in range(rect.left(), rect.right() + 1) for y in range(rect.top(), rect.bottom() + 1)
    }
    return max((QColor(p) for p in seen), key=lambda c: contrast_ratio(c, against))


def text_contrast(image: QImage, rect: QRect) -> tuple[float, str, str]:
    """(ratio, ink, background) of the text in ``rect``."""
    background = commonest(image, rect)
    ink = strongest(image, rect, background)
    return contrast_ratio(ink, background), ink.name(), background.name()


def edge_contrast(image: QImage, rect: QRect, *, inside: bool = True, scale: int = 1) -> tuple[float, list[str]]:
    """The weaker of a control's top and left edges: on each, the edge pixel (the outer two
    rows) with the most contrast against the pixel 2 px outside, and that edge pixel's contrast
    against the background outside and, on the left with ``inside``, against the control's own
    fill 3 px inside (a field's; a button's fill is the style's gradient, and its edge only has
    to set it apart from the window); returns the
    smallest of those and the colours read (outside, edge, inside per side)."""
    probes = [  # (outside, edge pixels, inside) as points
        (QPoint(rect.left() + rect.width() * 3 // 4 - 8 * scale, rect.top() - 2 * scale), "top"),
        (QPoint(rect.left() - 2 * scale, rect.top() + rect.height() // 2), "left"),
    ]
    worst, read = 99.0, []
    for outside, side in probes:
        step = QPoint(0, 1) if side == "top" else QPoint(1, 0)
        out = pixel(image, outside.x(), outside.y())
        edge_points = [outside + step * k for k in range(2 * scale, 4 * scale)]
        within = outside + step * 5 * scale
        edge = max((pixel(image, p.x(), p.y()) for p in edge_points), key=lambda c: contrast_ratio(c, out))
        fill = pixel(image, within.x(), within.y())
        worst = min(worst, contrast_ratio(edge, out))
        if inside and side == "left":  # the top may be a table's header, a fill of its own
            worst = min(worst, contrast_ratio(edge, fill))
        read.append(f"{side}: {out.name()} | {edge.name()} | {fill.name()}")
    return worst, read


def ring_band(rect: QRect, scale: int = 1) -> Iterator[QPoint]:
    """The pixels the focus ring covers around a control at ``rect``: the
    :data:`FOCUS_WIDTH` rows :data:`FOCUS_MARGIN` px outside its edge (times ``scale``)."""
    margin, width = FOCUS_MARGIN * scale, FOCUS_WIDTH * scale
    outer = rect.adjusted(-margin, -margin, margin, margin)
    inner = outer.adjusted(width, width, -width, -width)
    for y in range(outer.top(), outer.bottom() + 1):
        for x in range(outer.left(), outer.right() + 1):
            if not inner.contains(x, y):
                yield QPoint(x, y)


def ring_failures(
    focused: QImage, unfocused: QImage, rect: QRect, backgrounds: list[QColor], *, scale: int = 1
) -> list[str]:
    """What is wrong with the focus ring around ``rect`` (one line each, at most 5; empty when
    the ring holds). The ring holds when every pixel of :func:`ring_band` has one colour in the
    ``focused`` image (nothing covers it, it is solid), that colour differs by 3:1 from each
    of those pixels in ``unfocused`` that shows a background (one of ``backgrounds``: the
    palette's window, field, button and alternate base; not another control's edge or a
    splitter's grip), and it has 3:1 against the unfocused background just beyond the ring."""
    failures = []
    band = [p for p in ring_band(rect, scale) if focused.rect().contains(p)]
    if len(band) < sum(1 for _ in ring_band(rect, scale)):
        failures.append("part of the ring is outside the window")
    kinds = {bg.rgb() for bg in backgrounds}
    colors = Counter(focused.pixel(p.x(), p.y()) for p in band)
    ring = QColor(colors.most_common(1)[0][0])
    for point in band:
        now, before = pixel(focused, point.x(), point.y()), pixel(unfocused, point.x(), point.y())
        if now.rgb() != ring.rgb():
            failures.append(f"{point.x()},{point.y()}: {now.name()} in a {ring.name()} ring")
        elif before.rgb() in kinds and contrast_ratio(now, before) < 3.0:
            failures.append(f"{point.x()},{point.y()}: {before.name()} -> {now.name()}")
    beyond_margin = FOCUS_MARGIN * scale + 1
    outer = rect.adjusted(-beyond_margin, -beyond_margin, beyond_margin, beyond_margin)
    for point in (QPoint(outer.center().x(), outer.top()), QPoint(outer.left(), outer.center().y())):
        beyond = pixel(unfocused, point.x(), point.y())
        if contrast_ratio(ring, beyond) < 3.0:
            failures.append(f"beyond {point.x()},{point.y()}: {ring.name()} on {beyond.name()}")
    return failures[:5]


def backgrounds(palette: QPalette) -> list[QColor]:
    """The palette's background colours (window, field, button, alternate base)."""
    roles = (QPalette.ColorRole.Window, QPalette.ColorRole.Base, QPalette.ColorRole.Button)
    return [palette.color(role) for role in (*roles, QPalette.ColorRole.AlternateBase)]


FORM = {
    "message": "Deploy the release?",
    "_meta": {"elicit-tray/requester": {"serverName": "deployer"}},
    "requestedSchema": {
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": "Name", "description": "Your full name"},
            "mail": {"type": "string", "format": "email", "title": "Mail"},
            "count": {"type": "integer", "title": "Count", "minimum": 1, "maximum": 9},
            "ok": {"type": "boolean", "title": "Agree"},
            "env": {"type": "string", "title": "Env", "enum": ["a", "b"]},
            "day": {"type": "string", "format": "date", "title": "Day"},
            "tier": {
                "type": "string",
                "title": "Tier",
                "oneOf": [{"const": "x", "title": "X"}, {"const": "y", "title": "Y"}],
            },
            "days": {"type": "array", "title": "Days", "items": {"type": "string", "enum": ["Mon", "Tue"]}},
        },
        "required": ["name"],
    },
}
URL = {
    "mode": "url",
    "elicitationId": "e1",
    "message": "Sign in to continue.",
    "url": "https://xn--80ak6aa92e.com/login?next=abc",
    "_meta": {"elicit-tray/requester": {"serverName": "deployer"}},
}
WINDOWS = ["form", "form-errors", "url", "url-waiting", "settings", "history", "message-box"]


def open_window(kind: str) -> QWidget:
    """A window of the app, shown: a form dialog with a field of every kind (after a failed
    Accept with ``form-errors``), the URL dialog (warning; ``url-waiting``: its waiting view),
    Settings, History (off) and a message box. The caller closes it."""
    from PySide6.QtWidgets import QMessageBox

    from elicit_tray.elicitation import parse_elicit_params
    from elicit_tray.request import Peer
    from elicit_tray.settings import Preferences
    from elicit_tray.ui.history_window import HistoryWindow
    from elicit_tray.ui.labels import plain_message_box
    from elicit_tray.ui.presenter import Presenter
    from elicit_tray.ui.settings_window import SettingsWindow

    window: QWidget
    if kind.startswith(("form", "url")):
        presenter = Presenter(opener=lambda _href: True, arm_delay_ms=0)
        params = FORM if kind.startswith("form") else URL
        dialog = presenter.build(parse_elicit_params(params, Peer(pid=4242, process_name="agent-runner")))
        dialog.finish = lambda *_a, **_k: None  # type: ignore[method-assign]  # stays open, answers nothing
        window = dialog
    elif kind == "settings":
        window = SettingsWindow(
            Preferences(None), "/run/user/1000/elicit-tray/socket", autostart=(lambda: True, lambda _on: None)
        )
    elif kind == "history":
        window = HistoryWindow(None)
    else:
        buttons = QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No
        window = plain_message_box(None, QMessageBox.Icon.Question, "elicit-tray", "Clear the history?", buttons)
    window.show()
    window.activateWindow()
    if kind == "form-errors":
        window.attempt_submit()  # type: ignore[attr-defined]
    elif kind == "url-waiting":
        window.browser_opened = window.waiting = True  # type: ignore[attr-defined]
        window.set_waiting_view()  # type: ignore[attr-defined]
    return window


def focusable(window: QWidget) -> list[QWidget]:
    """The controls Tab reaches in ``window`` (visible and enabled), in the focus chain's order."""
    from PySide6.QtCore import Qt

    found, widget = [], window.nextInFocusChain()
    while widget is not window and widget not in found:
        if (
            widget.isVisible()
            and widget.isEnabled()
            and widget.focusPolicy() & Qt.FocusPolicy.TabFocus
            and widget.focusProxy() is None
            and window.isAncestorOf(widget)
        ):
            found.append(widget)
        widget = widget.nextInFocusChain()
    return found
