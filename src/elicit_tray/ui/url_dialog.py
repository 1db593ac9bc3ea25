"""The URL-mode consent dialog.

MCP 2025-11-25 "Safe URL Handling": show the full URL before consent, highlight the domain,
warn on Punycode and other suspicious URLs, never pre-fetch, open only after explicit
consent, in the system browser. ``accept`` means consent only (no content). What is shown
and opened comes from :func:`elicit_tray.urlcheck.analyze_url`, the only place that decides.
"""

from __future__ import annotations

import html
import logging
from typing import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFont, QTextOption
from PySide6.QtWidgets import QLabel, QPlainTextEdit

from ..elicitation import Accepted, ElicitationRequest
from ..urlcheck import REASONS, visible_url
from .base import ARM_DELAY_MS, ElicitationDialog, plain_label, warning_label
from .i18n import translate

__all__ = ["UrlDialog", "BrowserOpener"]

log = logging.getLogger(__name__)

#: Opens an ASCII href in the system browser; returns whether the system accepted it.
BrowserOpener = Callable[[str], bool]


def _describe_reason(reason: str) -> str:
    """The plain-words sentence of a reason id, in the user's language (context "UrlReasons")."""
    return translate("UrlReasons", REASONS[reason]) if reason in REASONS else reason


class UrlDialog(ElicitationDialog):
    """Shows the URL, its host with the registrable domain emphasised, and the warnings.

    Open (disabled for a refused URL) calls ``opener(href)`` and answers ``accept``; then,
    when the request has an ``elicitationId``, the dialog waits for
    ``notifications/elicitation/complete`` (:meth:`mark_complete`). Decline -> ``decline``;
    Escape, Cancel or the window's close button -> ``cancel``.
    """

    def __init__(self, request: ElicitationRequest, opener: BrowserOpener, *, arm_delay_ms: int = ARM_DELAY_MS):
        super().__init__(request, arm_delay_ms=arm_delay_ms)
        assert request.url is not None and request.url_analysis is not None
        self.opener = opener
        self.analysis = analysis = request.url_analysis
        self.browser_opened = False
        self.waiting = False

        self.body.addWidget(plain_label(translate("UrlDialog", "The server asks you to open this address in your web browser:")))
        url_box = QPlainTextEdit()
        url_box.setObjectName("full-url")
        url_box.setReadOnly(True)
        url_box.setPlainText(visible_url(request.url))
        url_box.setWordWrapMode(QTextOption.WrapMode.WrapAnywhere)
        url_box.setTabChangesFocus(True)
        url_box.setAccessibleName(translate("UrlDialog", "Full address"))
        url_box.setFont(QFont("monospace"))
        metrics = url_box.fontMetrics()
        url_box.setFixedHeight(metrics.lineSpacing() * min(6, 2 + len(request.url) // 60) + 12)
        self.url_box = url_box
        self.body.addWidget(url_box)
        if analysis.href and analysis.href != request.url:  # e.g. a look-alike Unicode host
            opens = plain_label(translate("UrlDialog", "The browser will open exactly this address:") + "\n"
                                + analysis.href)
            opens.setObjectName("opens")
            opens.setFont(QFont("monospace"))
            self.body.addWidget(opens)

        self.host_label = QLabel()
        self.host_label.setObjectName("host")
        self.host_label.setTextFormat(Qt.TextFormat.RichText)  # our own markup; every piece escaped
        self.host_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.host_label.setWordWrap(True)
        before, domain, after = analysis.host_parts()
        if analysis.display_host:
            host_markup = (f"{html.escape(before)}<b><u>{html.escape(domain)}</u></b>{html.escape(after)}")
            self.host_label.setText('<span style="font-size: large;">' + html.escape(translate("UrlDialog", "Website:"))
                                    + f" {host_markup}</span>")
            site = analysis.registrable_domain or analysis.display_host
            self.host_label.setAccessibleName(translate("UrlDialog", "Website {host}, which belongs to {site}").format(
                host=analysis.display_host, site=site))
            self.body.addWidget(self.host_label)
            if analysis.registrable_domain:
                owner = plain_label(translate("UrlDialog", "This address belongs to the site {site}.").format(
                    site=analysis.registrable_domain))
                owner.setObjectName("registrable-domain")
                self.body.addWidget(owner)
            if analysis.unicode_host and analysis.ascii_host and analysis.unicode_host != analysis.ascii_host:
                forms = plain_label(translate("UrlDialog", "The name contains international characters. Decoded (Unicode) "
                                       "it reads “{unicode}”; its coded form (Punycode) is {punycode}.").format(
                    unicode=analysis.unicode_host, punycode=analysis.ascii_host))
                forms.setObjectName("host-forms")
                self.body.addWidget(forms)

        self.warnings: list[str] = [_describe_reason(r) for r in analysis.reasons]
        if analysis.verdict == "refuse":
            if analysis.scheme and analysis.scheme not in ("http", "https"):
                head = translate("UrlDialog", "This address cannot be opened (its scheme is “{scheme}:”).").format(
                    scheme=analysis.scheme)
            else:
                head = translate("UrlDialog", "This address cannot be opened.")
            self.body.addWidget(warning_label(head + " " + " ".join(self.warnings)))
        elif self.warnings:
            self.body.addWidget(warning_label(translate("UrlDialog", "Be careful before opening this address.") + "\n"
                                              + "\n".join("• " + w for w in self.warnings)))
        self.open_button = self.add_commit_button(translate("UrlDialog", "&Open in browser"), "open")
        self.open_button.setToolTip(translate("UrlDialog", "Open the address in your web browser; the server is told you agreed"))
        self.cancel_button.setDefault(False)

    def can_commit(self) -> bool:
        return self.analysis.can_open and not self.browser_opened

    def showEvent(self, event: object) -> None:  # noqa: N802
        super().showEvent(event)  # type: ignore[arg-type]
        self.cancel_button.setFocus(Qt.FocusReason.ActiveWindowFocusReason)  # the button that commits nothing

    def commit(self) -> None:
        """Open: ask the system browser to open the parsed href, then answer ``accept``."""
        if not (self.is_armed and self.can_commit()) or self.outcome is not None or self.expired:
            return
        href = self.analysis.href
        assert href is not None
        if not self.opener(href):
            self.show_status(translate("UrlDialog", "The web browser could not be started. You can copy the address "
                                "above, or decline or cancel."))
            return
        self.browser_opened = True
        if self.request.elicitation_id:
            self.finish(Accepted(None), close=False)
            self.waiting = True
            self.set_waiting_view()
        else:
            self.finish(Accepted(None))

    def set_waiting_view(self) -> None:
        """After consent: wait for the server's completion notice; the user may close."""
        for button in (self.decline_button, self.cancel_button, self.open_button):
            button.hide()
        self.show_status(translate("UrlDialog", "Opened in your browser. Waiting for the server to confirm that you have "
                            "finished… You can close this window at any time."))
        self.close_button.show()
        self.close_button.setFocus()

    def mark_complete(self) -> None:
        """``notifications/elicitation/complete`` arrived: say so and close shortly after."""
        if not self.waiting:
            return
        self.waiting = False
        self.show_status(translate("UrlDialog", "The server confirmed that you have finished. This window closes by itself."))
        QTimer.singleShot(1500, self, self.close)
