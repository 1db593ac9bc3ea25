"""The labels every dialog uses: plain text only, wrapped or elided, framed warnings, and the
one-line summary of a request; and the one way every other surface shows text as it is.

docs/design.md "UI rules": server text is always plain text (never rich text, never a link), long
text wraps and nothing is cut off, a warning never rests on colour alone. A value placed inside a
translated sentence is wrapped in Unicode isolates (:data:`FSI`/:data:`LRI` ... :data:`PDI`).

Qt renders a string as rich text wherever it "might be" rich text (``Qt::mightBeRichText``:
tooltips, message boxes, a label left in ``AutoText``), and other surfaces give some characters
a meaning of their own (``[*]`` in a window title, markup in a desktop notification's body).
Every text that may hold server or requester text goes through one function here for its
surface: :func:`plain_label` / :class:`WrappingLabel` / :class:`ElidedLabel` (labels, always
``Qt.PlainText``), :func:`set_tooltip` / :func:`tooltip_text` (tooltips, the History window's
tooltip role), :func:`window_title` (window titles), :func:`notification_text` (notification
bodies), :func:`plain_message_box` (message boxes). What a requester only *claims* (its server
name, its client name) is shown by :func:`claim`: between quotation marks, never like the facts
the operating system reports (docs/design.md "UI rules": who asks).
"""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFont, QResizeEvent, QTextDocument
from PySide6.QtWidgets import QFrame, QLabel, QMessageBox, QSizePolicy, QWidget

from ..display import breakable, isolate
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
    "claim",
    "menu_text",
    "notification_text",
    "one_line",
    "plain_label",
    "plain_message_box",
    "set_tooltip",
    "shown_tooltip",
    "summary",
    "tooltip_text",
    "warning_label",
    "window_title",
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

    def setBuddy(self, buddy: QWidget) -> None:  # noqa: N802 (Qt naming)
        """Bind the label to ``buddy``; a name set here loses its mnemonic ``&`` (screen readers
        read the title, never the marker)."""
        super().setBuddy(buddy)
        if self._own_name:
            self.setText(self._text)

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


def tooltip_text(text: str) -> str:
    """``text`` as a tooltip that Qt shows exactly as it is: always rich text (so Qt's "might be
    rich text" guess never decides), ``text`` HTML-escaped inside a paragraph that keeps its
    spaces and line breaks (``white-space: pre-wrap``). ``""`` stays ``""`` (no tooltip)."""
    if not text:
        return ""
    return '<p style="white-space:pre-wrap">' + html.escape(text, quote=False) + "</p>"


def set_tooltip(widget: QWidget, text: str) -> None:
    """Give ``widget`` the tooltip ``text``, shown as it is (:func:`tooltip_text`)."""
    widget.setToolTip(tooltip_text(text))


def shown_tooltip(tip: str) -> str:
    """The text Qt shows for the tooltip string ``tip`` (what ``QToolTip`` renders: rich text
    when ``Qt::mightBeRichText`` says so, else plain), line breaks as ``\\n``: what tests compare
    with what was meant to be shown."""
    from PySide6.QtGui import Qt as GuiQt  # Qt::mightBeRichText lives in QtGui

    document = QTextDocument()
    if GuiQt.mightBeRichText(tip):
        document.setHtml(tip)
    else:
        document.setPlainText(tip)
    return document.toRawText().replace("\u2028", "\n").replace("\u2029", "\n")


def window_title(text: str) -> str:
    """``text`` for ``setWindowTitle``, shown as it is: Qt takes ``[*]`` for the "modified"
    placeholder and drops it; doubled (``[*][*]``) it shows once."""
    return text.replace("[*]", "[*][*]")


def notification_text(text: str, *, markup: bool) -> str:
    """``text`` for a notification's body, shown as it is. ``markup``: the body goes to a
    freedesktop notification server (Qt's D-Bus tray), which reads it as markup: ``&``, ``<``,
    ``>`` are escaped. Otherwise (Qt's own balloon, Windows, macOS) it is shown as plain text."""
    return html.escape(text, quote=False) if markup else text


def menu_text(text: str, *, dbusmenu: bool = False) -> str:
    """``text`` for a menu entry (``QAction``), shown as it is: one line (a tab would start the
    shortcut column), and ``&`` doubled (it would mark a mnemonic). ``dbusmenu``: the menu is
    exported over D-Bus (Qt's D-Bus tray), where ``_`` marks the mnemonic: doubled too."""
    shown = one_line(text).replace("&", "&&")
    return shown.replace("_", "__") if dbusmenu else shown


def plain_message_box(
    parent: QWidget | None, icon: QMessageBox.Icon, title: str, text: str, buttons: QMessageBox.StandardButton
) -> QMessageBox:
    """A message box whose ``text`` is plain text (never rich text), title through
    :func:`window_title`; not shown yet (``exec()`` it)."""
    box = QMessageBox(icon, window_title(title), text, buttons, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    return box


def claim(text: str) -> str:
    """What a requester says of itself (a server name, a client name: never verified), as every
    surface shows it: between quotation marks (translated), as a bidi run of its own, so that it
    never reads like a fact the operating system reported. ``text`` has been through
    :mod:`elicit_tray.display` already; its own runs may be isolated already."""
    #: Quotation marks around a name a requester gave itself (the server's or client's name).
    return translate("Dialog", "“{claim}”").format(claim=isolate(text))


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
    :func:`~elicit_tray.display.for_display`. The server's name is a :func:`claim` (quoted);
    without one, the process as the OS reports it; each run of server text is isolated."""
    server = shown.requester.isolated_label
    if server:
        who = claim(one_line(server))
    else:
        who = one_line(shown.peer.isolated_label or translate("Presenter", "A local program"))
    what = next((one_line(line) for line in shown.message.splitlines() if line.strip()), "")
    if len(what) > limit:
        what = what[: limit - 3] + "…"
    return f"{who}: {isolate(what)}" if what else who


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
        set_tooltip(self, self._full)
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
