"""How big a dialog is: a comfortable reading width, the height its content needs at that
width up to most of the screen, scroll boxes that take the rest, and growth when content grows.

docs/design.md "UI rules" (nothing is cut off; the identity stays in view on top and the buttons at
the bottom; everything between scrolls). :class:`Sizing` is the dialog's collaborator: it holds
the parts it measures and never imports the dialog.
"""

from __future__ import annotations

import weakref

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QBoxLayout, QFormLayout, QFrame, QLayout, QScrollArea, QStyle, QWidget

__all__ = ["PREFERRED_WIDTH", "FormLayout", "Sizing", "box_content", "capped_box", "content_height", "laid_out"]

#: Width of a dialog in pixels before the user resizes it (text wraps within it).
PREFERRED_WIDTH = 540
#: Most of the screen's available height a dialog takes by itself (beyond it the content scrolls).
SCREEN_SHARE = 0.9


def capped_box(content: QWidget, name: str) -> QScrollArea:
    """A frameless, vertical-only scroll box around ``content`` (object name ``name``); not a
    Tab stop (:meth:`Sizing.fit_box` makes a capped one focusable when its content overflows)."""
    box = QScrollArea()
    box.setObjectName(name)
    box.setWidget(content)
    box.setWidgetResizable(True)
    box.setFrameShape(QFrame.Shape.NoFrame)
    box.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    box.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    return box


def box_content(box: QScrollArea) -> QWidget:
    """The widget ``box`` scrolls (a box from :func:`capped_box` always holds one)."""
    content = box.widget()
    if content is None:
        raise ValueError(f"the scroll box {box.objectName()!r} holds no widget")
    return content


def laid_out(widget: QWidget) -> QLayout:
    """The layout of ``widget`` (a dialog or a scrolled content, which always have one)."""
    layout = widget.layout()
    if layout is None:
        raise ValueError(f"{widget.objectName() or type(widget).__name__} has no layout")
    return layout


def content_height(content: QWidget, width: int) -> int:
    """The height ``content`` needs at ``width`` px (wrapped text included), at least its
    minimum size hint's height."""
    layout = content.layout()
    needed = (
        layout.heightForWidth(width)
        if layout is not None and layout.hasHeightForWidth()
        else content.heightForWidth(width)
    )
    return max(needed, content.minimumSizeHint().height())


class FormLayout(QFormLayout):
    """A ``QFormLayout`` whose rows always get at least the height they need at the width
    they get (wrapped labels: height for width), so no control is squeezed below its size.

    Qt keeps one table of row heights from its height-for-width measurements, and measuring
    at the layout's size-hint width (every size-hint query does) refills that table while Qt
    still notes it as holding the rows for the last other width measured. Laid out at that other
    width next, the layout used heights meant for the narrower one: a row that had grown (an
    error under a radio group) was squeezed and its options overlapped, while a row whose
    description wraps more at the narrower width got room it did not need. This follows Qt's
    bookkeeping (the same rules, on the calls Qt makes through these methods) and, when the table
    holds another width than the one laid out, measures a third width and then its own first.
    """

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._noted = -1  # the width Qt notes as measured (-1: none)
        self._hint_noted = False  # whether Qt notes the size hint's width as measured
        self._table = -1  # the width whose rows the table holds now (-1: none)

    def _measured(self, width: int) -> None:
        """Qt's rule: a width it notes as measured is taken from the notes, any other is measured,
        filling the table; the size hint's width gets a note of its own."""
        if width == self._noted:
            return
        hint = self.sizeHint().width()
        if width == hint and self._hint_noted:
            return
        self._table = width
        if width == hint:
            self._hint_noted = True
        else:
            self._noted = width

    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt naming)
        if self.hasHeightForWidth():
            self._measured(width)
        return super().heightForWidth(width)

    def invalidate(self) -> None:
        self._noted, self._hint_noted, self._table = -1, False, -1
        super().invalidate()

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 (Qt naming)
        width = rect.width()
        if self.hasHeightForWidth():
            self._measured(width)  # what Qt does first when it lays out
            if self._table != width:  # the notes say measured, the table holds another width
                hint = self.sizeHint().width()
                self.heightForWidth(next(w for w in (width + 1, width + 2) if w != hint))
                self.heightForWidth(width)
        super().setGeometry(rect)


class Sizing:
    """Sizes ``window`` (a dialog whose top-level layout holds, top to bottom, ``header``, the
    scrolled ``scroll`` box and the ``buttons`` row; ``message`` is a capped box inside
    ``scroll``).

    :meth:`fit` runs once before the first show, :meth:`grow` whenever content grew.
    """

    def __init__(
        self, window: QWidget, *, header: QScrollArea, message: QScrollArea, scroll: QScrollArea, buttons: QBoxLayout
    ):
        self._window = weakref.ref(window)  # the dialog holds its Sizing: no cycle back to it
        self.header = header
        self.message = message
        self.scroll = scroll
        self.buttons = buttons

    @property
    def window(self) -> QWidget:
        """The dialog sized (raises ``RuntimeError`` once it is gone)."""
        window = self._window()
        if window is None:
            raise RuntimeError("the dialog this Sizing sized is gone")
        return window

    def _screen_height(self) -> int | None:
        screen = self.window.screen()
        return screen.availableGeometry().height() if screen else None

    def needed_height(self, width: int) -> int:
        """The window height that shows all content at ``width``, capped at :data:`SCREEN_SHARE` of the screen."""
        layout = laid_out(self.window)
        margins = layout.contentsMargins()
        # Measured as if the scroll bar were there: text measured at the full width would wrap
        # into more lines once a scroll bar takes its share, which then is needed after all.
        scroll_bar = self.window.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        needed = content_height(box_content(self.scroll), width - margins.left() - margins.right() - scroll_bar)
        # Its fixed height (set by fit_box), not height(): that follows only when the layout runs.
        header = (self.header.minimumHeight() or self.header.height()) + layout.spacing()
        buttons = self.buttons.sizeHint().height() + layout.spacing()
        height = header + needed + buttons + margins.top() + margins.bottom() + 2
        screen = self._screen_height()
        return height if screen is None else min(height, int(screen * SCREEN_SHARE))

    def fit_box(self, box: QScrollArea, inner: int, share: float) -> None:
        """Give ``box`` the height its content needs at width ``inner``, up to ``share`` of the
        screen; beyond that it scrolls, and takes keyboard focus so that it can be scrolled."""
        screen = self._screen_height()
        cap = 10_000 if screen is None else max(60, int(screen * share))
        needed = content_height(box_content(box), inner)
        box.setFixedHeight(min(needed, cap) + 2)
        if needed > cap:
            box.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def fit(self) -> None:
        """A comfortable reading width, and the height the content needs at that width, up to
        most of the screen (beyond that the content scrolls; the buttons stay in view); then
        centred on the screen, so that no part starts below its edge."""
        window = self.window
        screen = window.screen().availableGeometry() if window.screen() else None
        width = PREFERRED_WIDTH if screen is None else min(PREFERRED_WIDTH, screen.width())
        margins = laid_out(window).contentsMargins()
        inner = width - margins.left() - margins.right()
        self.fit_box(self.header, inner, 0.2)
        self.fit_box(self.message, inner, 0.33)
        # A scroll area asks for ~70 px however little it holds: a short confirmation would get
        # an empty gap above its buttons. Never more than its content, never under 80 px else.
        # Content at least 80 px high whatever the width (its minimum size, which the layout keeps
        # cached) needs no measuring here: only needed_height() below measures it, once.
        content = box_content(self.scroll)
        floor = content.minimumSizeHint().height()
        self.scroll.setMinimumHeight(80 if floor >= 80 else min(80, content_height(content, inner)))
        height = self.needed_height(width)
        # An explicit minimum height: otherwise Qt makes the minimum the height the wrapped
        # content needs at the *minimum* width, and the window stays taller than it needs.
        window.setMinimumHeight(min(height, 160))
        window.resize(width, height)
        if screen is not None:
            window.move(screen.x() + (screen.width() - width) // 2, screen.y() + (screen.height() - height) // 2)

    def grow(self) -> None:
        """Content grew (an error, a status line): grow the window so it shows, never shrink;
        the buttons stay on screen. Nothing happens while the window is hidden."""
        window = self.window
        screen_height = self._screen_height()
        if screen_height is not None and window.height() >= int(screen_height * SCREEN_SHARE):
            return  # as tall as a window gets (needed_height's cap): nothing to measure
        if window.isVisible():
            laid_out(box_content(self.scroll)).activate()
            needed = self.needed_height(window.width())
            if needed > window.height():
                window.resize(window.width(), needed)
                screen = window.screen().availableGeometry() if window.screen() else None
                if screen is not None and window.y() + needed > screen.bottom():  # keep the buttons on screen
                    window.move(window.x(), max(screen.y(), screen.bottom() - needed))
