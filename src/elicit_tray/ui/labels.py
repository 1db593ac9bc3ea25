"""The labels every dialog uses: plain text only, wrapped or elided, framed warnings, and the
one-line summary of a request.

docs/design.md "UI rules": server text is always plain text (never rich text, never a link), long
text wraps and nothing is cut off, a warning never rests on colour alone. A value placed inside a
translated sentence is wrapped in Unicode isolates (:data:`FSI`/:data:`LRI` ... :data:`PDI`).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFont, QResizeEvent
from PySide6.QtWidgets import QFrame, QLabel, QSizePolicy, QWidget

from ..display import breakable
from ..request import ElicitationRequest
from .i18n import translate
from .style import warning_css

__all__ = [
    "FSI",
    "LRI",
    "PDI",
    "ElidedLabel",
    "WrappingLabel",
    "announce",
    "one_line",
    "plain_label",
    "summary",
    "warning_label",
]


class WrappingLabel(QLabel):
    """A plain-text, word-wrapped label whose long words wrap too (docs/design.md "UI rules": long
    text wraps, nothing is cut off).

    Qt breaks lines only between words; this label hands Qt
    :func:`~elicit_tray.display.breakable` text (zero-width spaces inside runs longer than
    :data:`~elicit_tray.display.LONG_RUN` characters), while :meth:`text` returns the text as
    set, for the program and its tests. Copying a selection keeps the zero-width spaces.
    """

    def __init__(self, text: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self._text = ""
        self._own_name = False  # the accessible name was set here (long words), not by the caller
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(True)
        self.setText(text)

    def setText(self, text: str) -> None:
        """Show ``text`` (with break opportunities in its long words); screen readers get
        ``text`` itself as the name, never the break characters."""
        self._text = text
        shown = breakable(text)
        super().setText(shown)
        if shown != text:
            self.setAccessibleName(
                text.replace("&&", "\0").replace("&", "").replace("\0", "&") if self.buddy() is not None else text
            )
            self._own_name = True
        elif self._own_name:
            self.setAccessibleName("")  # back to Qt's own: the text
            self._own_name = False

    def text(self) -> str:
        """The text as set, without the break opportunities."""
        return self._text

    def clear(self) -> None:
        self.setText("")


def plain_label(text: str, *, selectable: bool = True, bold: bool = False) -> QLabel:
    """A label that shows ``text`` as plain text (never rich text, never a link), wrapped, long
    words included (a :class:`WrappingLabel`: ``text()`` is ``text``)."""
    label = WrappingLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text)
    label.setWordWrap(True)
    label.setOpenExternalLinks(False)
    if selectable:
        label.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        label.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    if bold:
        font = QFont(label.font())
        font.setBold(True)
        label.setFont(font)
    return label


def announce(widget: QWidget, text: str) -> None:
    """Ask screen readers to speak ``text`` now (an accessibility announcement from ``widget``)."""
    from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent

    event = QAccessibleAnnouncementEvent(widget, text)
    event.setPoliteness(QAccessible.AnnouncementPoliteness.Assertive)
    QAccessible.updateAccessibility(event)


def warning_label(text: str) -> QLabel:
    """A framed warning: a sign and words, so the meaning never rests on colour alone."""
    label = plain_label("⚠ " + text)
    label.setObjectName("warning")
    label.setFrameShape(QFrame.Shape.StyledPanel)
    label.setStyleSheet(warning_css(label.palette()))
    label.setAccessibleDescription(translate("Dialog", "Warning"))
    return label


#: Unicode isolates around a value placed inside a translated sentence (UAX #9): first-strong,
#: left-to-right, and their end. Server and OS strings have their own bidi controls escaped
#: (display.py), so these are the only ones.
FSI, LRI, PDI = "\u2068", "\u2066", "\u2069"
_ISOLATES = {ord(FSI): None, ord(LRI): None, ord(PDI): None}


def one_line(text: str) -> str:
    """``text`` with every run of whitespace (no-break and other Unicode spaces, line breaks,
    tabs) collapsed to one space and stripped: what a one-line header or title shows."""
    return " ".join(text.split())


def summary(shown: ElicitationRequest, limit: int = 60) -> str:
    """One line for window titles, menus and notifications: who asks and the message's first
    line cut to ``limit`` characters, from a request already passed through
    :func:`~elicit_tray.display.for_display`."""
    who = one_line(shown.requester.label or shown.peer.label or translate("Presenter", "A local program"))
    what = next((one_line(line) for line in shown.message.splitlines() if line.strip()), "")
    if len(what) > limit:
        what = what[: limit - 3] + "…"
    return f"{who}: {what}" if what else who


class ElidedLabel(QLabel):
    """One line of text that never wraps and never asks for more width than it gets: what does
    not fit is elided (``mode``: where the ``…`` goes). ``text()``, the tooltip and the
    accessible name hold the whole line (whitespace runs collapsed by :func:`one_line`).
    ``keep``: a part of the line that stays whole as long as it fits; only what follows it is
    elided (e.g. an executable's path before its arguments)."""

    def __init__(self, text: str, mode: Qt.TextElideMode = Qt.TextElideMode.ElideRight, keep: str = ""):
        super().__init__()
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(False)
        self._full = one_line(text)
        self._mode = mode
        at = self._full.find(one_line(keep)) if keep.strip() else -1
        self._kept = self._full[: at + len(one_line(keep))] if at >= 0 else ""
        self._plain = self._full.translate(_ISOLATES)  # for programs and screen readers
        self.setToolTip(self._full)
        self.setAccessibleName(self._plain)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        super().setText(self._full)

    def text(self) -> str:
        """The whole line, as given, without the isolates (not the elided part shown)."""
        return self._plain

    def shown_text(self) -> str:
        """What is on screen now (with ``…`` where it was elided), without the isolates."""
        return super().text().translate(_ISOLATES)

    def _elide(self) -> None:
        metrics, width = self.fontMetrics(), max(0, self.contentsRect().width())
        rest_width = width - metrics.horizontalAdvance(self._kept + "…")
        if self._kept and rest_width > 0 and metrics.horizontalAdvance(self._full) > width:
            rest = self._full[len(self._kept) :]
            super().setText(
                self._kept + metrics.elidedText(rest, self._mode, width - metrics.horizontalAdvance(self._kept))
            )
        else:
            super().setText(metrics.elidedText(self._full, self._mode, width))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._elide()
