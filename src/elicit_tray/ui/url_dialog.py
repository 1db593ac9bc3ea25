"""The URL-mode consent dialog.

MCP 2025-11-25 "Safe URL Handling": show the full URL before consent, highlight the domain,
warn on Punycode and other suspicious URLs, never pre-fetch, open only after explicit
consent, in the system browser. ``accept`` means consent only (no content). What is shown
and opened comes from :func:`elicit_tray.urlcheck.analyze_url`, the only place that decides.
"""

from __future__ import annotations

import html
import logging
import re
import unicodedata
from collections.abc import Callable

from PySide6.QtCore import QMimeData, QSize, Qt, QTimer
from PySide6.QtGui import QFont, QFontMetricsF, QResizeEvent, QShowEvent, QTextDocument, QTextOption
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QWidget

from ..request import Accepted, UrlRequest
from ..urlcheck import UrlAnalysis, visible_url
from ..urlcheck.reasons import describe
from .base import ARM_DELAY_MS, ElicitationDialog, plain_label, warning_label
from .i18n import translate

__all__ = ["UrlDialog", "BrowserOpener", "ltr_isolated"]

log = logging.getLogger(__name__)

#: Opens an ASCII href in the system browser; returns whether the system accepted it.
BrowserOpener = Callable[[str], bool]


#: Explicit bidi isolates (UAX #9): LEFT-TO-RIGHT ISOLATE and POP DIRECTIONAL ISOLATE.
LRI, PDI = "\u2066", "\u2069"
#: Characters that separate the parts of a URL (labels, path segments, query fields).
_URL_SEPARATORS = re.compile(r"([/?#\[\]@:.&=;,]+)")
_RTL_CLASSES = frozenset(("R", "AL", "AN"))


def _has_rtl(text: str) -> bool:
    """Whether ``text`` has a character the bidi algorithm would move (R, AL or AN class)."""
    return not text.isascii() and any(unicodedata.bidirectional(c) in _RTL_CLASSES for c in text)


def ltr_isolated(text: str, *, whole: bool = False) -> str:
    """``text`` (a URL, host or part of one) made to display in its own left-to-right order.

    Every part between URL separators (``/ ? # [ ] @ : . & = ; ,``) that holds a right-to-left
    or Arabic-number character (bidi class R, AL, AN) is wrapped in LRI ... PDI (U+2066,
    U+2069), so that it is laid out on its own (an Arabic label still reads right to left
    inside) and the parts stay in logical order: ``https://facebook.com.مصر/٠/123`` is not
    shown as ``https://facebook.com.٠/123/مصر``.  With ``whole`` (or when anything was
    wrapped) the result as a whole is wrapped too, so that it stays left to right inside a
    right-to-left sentence.  Text without such characters and without ``whole`` is returned
    unchanged.  The added characters are never part of what is copied (see ``_UrlBox``).
    Unicode Bidirectional Algorithm (UAX #9) 2.4 (isolates); Chromium URL display guidelines.
    """
    if not _has_rtl(text):
        return LRI + text + PDI if whole and text else text
    parts = _URL_SEPARATORS.split(text)
    return LRI + "".join(LRI + part + PDI if _has_rtl(part) else part for part in parts) + PDI


def _without_isolates(text: str) -> str:
    return text.replace(LRI, "").replace(PDI, "")


class _UrlBox(QPlainTextEdit):
    """Read-only, wrapped, always left-to-right box for a full URL (object name ``full-url``).

    The text is :func:`ltr_isolated`; copying and dragging give it back without the isolates
    (``visible_url`` has already escaped any bidi control the URL itself contained, so every
    U+2066/U+2069 in the box is ours)."""

    def __init__(self, text: str):
        super().__init__()
        self.setReadOnly(True)
        self.setLayoutDirection(Qt.LayoutDirection.LeftToRight)
        option = QTextOption(self.document().defaultTextOption())
        option.setTextDirection(Qt.LayoutDirection.LeftToRight)
        option.setWrapMode(QTextOption.WrapMode.WrapAnywhere)
        option.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignAbsolute)
        self.document().setDefaultTextOption(option)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAnywhere)
        self.setPlainText(ltr_isolated(text))

    def createMimeDataFromSelection(self) -> QMimeData:
        data = QMimeData()
        data.setText(_without_isolates(self.textCursor().selectedText()))
        return data


class _HostLabel(QLabel):
    """``Website: <host>`` with the registrable domain in bold and underlined, always in view.

    The host is elided from the left (its start gives way first: ``…ount-check.example.com``),
    so a long subdomain never pushes the registrable domain out of the label; a registrable
    domain wider than the label is broken across lines rather than cut.  The text is
    recomputed for the label's width whenever it changes; the label never asks for more width
    than a few characters (Chromium URL display guidelines: elide from the front, keep the
    registrable domain visible)."""

    #: Pixels kept free at the end of a line for rounding between metrics and the rich-text layout.
    SLACK = 4

    def __init__(self, caption: str, before: str, domain: str, after: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("host")
        self.setTextFormat(Qt.TextFormat.RichText)  # our own markup; every piece escaped
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setWordWrap(True)
        font = QFont(self.font())
        font.setPointSizeF(font.pointSizeF() * 1.2)
        self.setFont(font)
        self._caption, self._before, self._domain, self._after = caption, before, domain, after
        self._isolate = _has_rtl(before + domain + after)
        self.lines: list[tuple[str, str, str]] = []  # what is shown: (before, domain, after) per line
        self._show_for(10_000)

    # -- what is shown for a width ------------------------------------------------------------
    def _fonts(self) -> tuple[QFontMetricsF, QFontMetricsF]:
        bold = QFont(self.font())
        bold.setBold(True)
        return QFontMetricsF(self.font()), QFontMetricsF(bold)

    def layout_for(self, width: float) -> tuple[bool, list[tuple[str, str, str]]]:
        """``(caption_on_own_line, lines)`` for a text width: each line is ``(before, domain,
        after)`` pieces of the host, in order, each line fitting ``width``."""
        plain, bold = self._fonts()
        avail = max(1.0, width - self.SLACK)
        before, domain, after = self._before, self._domain, self._after
        tail = bold.horizontalAdvance(domain) + plain.horizontalAdvance(after)
        host = plain.horizontalAdvance(before) + tail
        if plain.horizontalAdvance(self._caption + " ") + host <= avail:
            return False, [(before, domain, after)]
        if host <= avail:
            return True, [(before, domain, after)]
        ellipsis = "\u2026"
        if before and tail + plain.horizontalAdvance(ellipsis) <= avail:
            return True, [(plain.elidedText(before, Qt.TextElideMode.ElideLeft, avail - tail), domain, after)]
        # The registrable domain alone is too wide: break it (and what follows) anywhere.
        lines: list[tuple[str, str, str]] = []
        current = [ellipsis if before else "", "", ""]
        used = plain.horizontalAdvance(current[0])
        for index, text in ((1, domain), (2, after)):
            metrics = bold if index == 1 else plain
            for ch in text:
                advance = metrics.horizontalAdvance(ch)
                if used + advance > avail and any(current):
                    lines.append((current[0], current[1], current[2]))
                    current, used = ["", "", ""], 0.0
                current[index] += ch
                used += advance
        lines.append((current[0], current[1], current[2]))
        return True, lines

    def markup_for(self, width: float) -> str:
        """The rich text shown at a text width (see :meth:`layout_for`)."""
        own_line, lines = self.layout_for(width)
        rendered = []
        for before, domain, after in lines:
            piece = (
                html.escape(before) + (f"<b><u>{html.escape(domain)}</u></b>" if domain else "") + html.escape(after)
            )
            rendered.append(piece)
        host = "<br>".join(rendered)
        if self._isolate or self.isRightToLeft():
            host = LRI + host + PDI
        return html.escape(self._caption) + ("<br>" if own_line else " ") + host

    # -- geometry -----------------------------------------------------------------------------
    def _inset(self) -> int:
        margins = self.contentsMargins()
        return margins.left() + margins.right() + 2 * self.margin()

    def _text_height(self, width: int) -> int:
        document = QTextDocument()
        document.setDefaultFont(self.font())
        document.setDocumentMargin(0)
        document.setHtml(self.markup_for(width))
        document.setTextWidth(width)
        return int(document.size().height() + 0.999)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        margins = self.contentsMargins()
        return self._text_height(max(1, width - self._inset())) + margins.top() + margins.bottom() + 2 * self.margin()

    def minimumSizeHint(self) -> QSize:
        plain = QFontMetricsF(self.font())
        width = int(plain.horizontalAdvance("\u2026" + "m" * 6)) + self._inset()
        return QSize(width, self.heightForWidth(width))

    def sizeHint(self) -> QSize:
        hint = self.minimumSizeHint()
        return QSize(hint.width(), self.heightForWidth(hint.width()))

    def _show_for(self, width: float) -> None:
        self.lines = self.layout_for(width)[1]
        markup = self.markup_for(width)
        if markup != self.text():
            self.setText(markup)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._show_for(self.contentsRect().width())


def _describe_reason(reason: str, analysis: UrlAnalysis) -> str:
    """The plain-words sentence of a reason id, in the user's language (context "UrlReasons");
    a look-alike also names the well-known site it imitates (:func:`.urlcheck.reasons.describe`)."""
    return describe(reason, analysis.imitated_domain, lambda text: translate("UrlReasons", text), isolate=ltr_isolated)


class UrlDialog(ElicitationDialog):
    """Shows the URL, its host with the registrable domain emphasised, and the warnings.

    Open (disabled for a refused URL) calls ``opener(href)`` and answers ``accept``; then,
    when the request has an ``elicitationId``, the dialog waits for
    ``notifications/elicitation/complete`` (:meth:`mark_complete`), unless it is a round of a
    flow (:attr:`~elicit_tray.request.UrlRequest.flow`), whose waiting is the flow's window
    (:mod:`~.url_wait`). Decline -> ``decline``;
    Escape, Cancel or the window's close button -> ``cancel``.
    """

    def __init__(self, request: UrlRequest, opener: BrowserOpener, *, arm_delay_ms: int = ARM_DELAY_MS):
        super().__init__(request, arm_delay_ms=arm_delay_ms)
        self.request: UrlRequest = request
        self.opener = opener
        self.analysis = analysis = request.url_analysis
        self.browser_opened = False
        self.waiting = False

        self.body.addWidget(
            plain_label(translate("UrlDialog", "The server asks you to open this address in your web browser:"))
        )
        url_box = _UrlBox(visible_url(request.url))
        url_box.setObjectName("full-url")
        url_box.setTabChangesFocus(True)
        url_box.setAccessibleName(translate("UrlDialog", "Full address"))
        url_box.setFont(QFont("monospace"))
        metrics = url_box.fontMetrics()
        url_box.setFixedHeight(metrics.lineSpacing() * min(6, 2 + len(request.url) // 60) + 12)
        self.url_box = url_box
        self.body.addWidget(url_box)
        if analysis.href and analysis.href != request.url:  # e.g. a look-alike Unicode host
            opens = plain_label(
                translate("UrlDialog", "The browser will open exactly this address:") + "\n" + analysis.href
            )
            opens.setObjectName("opens")
            opens.setFont(QFont("monospace"))
            self.body.addWidget(opens)

        before, domain, after = analysis.host_parts()
        self.host_label = _HostLabel(translate("UrlDialog", "Website:"), before, domain, after)
        if analysis.display_host:
            site = analysis.registrable_domain or analysis.display_host
            self.host_label.setAccessibleName(
                translate("UrlDialog", "Website {host}, which belongs to {site}").format(
                    host=analysis.display_host, site=site
                )
            )
            self.body.addWidget(self.host_label)
            if analysis.registrable_domain:
                owner = plain_label(
                    translate("UrlDialog", "This address belongs to the site {site}.").format(
                        site=ltr_isolated(analysis.registrable_domain)
                    )
                )
                owner.setObjectName("registrable-domain")
                self.body.addWidget(owner)
            if analysis.unicode_host and analysis.ascii_host and analysis.unicode_host != analysis.ascii_host:
                forms = plain_label(
                    translate(
                        "UrlDialog",
                        "The name contains international characters. Decoded (Unicode) "
                        "it reads “{unicode}”; its coded form (Punycode) is {punycode}.",
                    ).format(unicode=ltr_isolated(analysis.unicode_host), punycode=analysis.ascii_host)
                )
                forms.setObjectName("host-forms")
                self.body.addWidget(forms)

        self.warnings: list[str] = [_describe_reason(r, analysis) for r in analysis.reasons]
        if analysis.verdict == "refuse":
            if analysis.scheme and analysis.scheme not in ("http", "https"):
                head = translate("UrlDialog", "This address cannot be opened (its scheme is “{scheme}:”).").format(
                    scheme=analysis.scheme
                )
            else:
                head = translate("UrlDialog", "This address cannot be opened.")
            self.body.addWidget(warning_label(head + " " + " ".join(self.warnings)))
        elif self.warnings:
            self.body.addWidget(
                warning_label(
                    translate("UrlDialog", "Be careful before opening this address.")
                    + "\n"
                    + "\n".join("• " + w for w in self.warnings)
                )
            )
        self.open_button = self.add_commit_button(translate("UrlDialog", "&Open in browser"), "open")
        self.open_button.setToolTip(
            translate("UrlDialog", "Open the address in your web browser; the server is told you agreed")
        )
        self.cancel_button.setDefault(False)
        self.tab_through([url_box])  # the buttons were made before the body: reading order instead

    def can_commit(self) -> bool:
        return self.analysis.can_open and not self.browser_opened

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.tab_through([self.url_box])  # the fitted header/message boxes may have become focusable
        self.cancel_button.setFocus(Qt.FocusReason.ActiveWindowFocusReason)  # the button that commits nothing

    def commit(self) -> None:
        """Open: ask the system browser to open the parsed href, then answer ``accept``."""
        if not (self.is_armed and self.can_commit()) or self.outcome is not None or self.expired:
            return
        href = self.analysis.href
        assert href is not None
        if not self.opener(href):
            self.show_status(
                translate(
                    "UrlDialog",
                    "The web browser could not be started. You can copy the address above, or decline or cancel.",
                )
            )
            return
        self.browser_opened = True
        if self.request.elicitation_id and not self.request.flow:  # a flow's own window waits instead
            self.finish(Accepted(None), close=False)
            self.waiting = True
            self.set_waiting_view()
        else:
            self.finish(Accepted(None))

    def set_waiting_view(self) -> None:
        """After consent: wait for the server's completion notice; the user may close."""
        for button in (self.decline_button, self.cancel_button, self.open_button):
            button.hide()
        self.show_status(
            translate(
                "UrlDialog",
                "Opened in your browser. Waiting for the server to confirm that you have "
                "finished… You can close this window at any time.",
            )
        )
        self.close_button.show()
        self.close_button.setFocus()

    def mark_complete(self) -> None:
        """``notifications/elicitation/complete`` arrived: say so and close shortly after."""
        if not self.waiting:
            return
        self.waiting = False
        self.show_status(
            translate("UrlDialog", "The server confirmed that you have finished. This window closes by itself.")
        )
        QTimer.singleShot(1500, self, self.close)
