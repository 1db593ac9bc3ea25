"""The waiting dialog of a URL flow: the one window a flow shows after the user's consent.

docs/design.md "URL flows over several rounds": a server whose out-of-band step is not done yet
asks for the same URL again (2026-07-28: another ``input_required``; 2025-11-25: another
``elicitation/create`` with a new ``elicitationId``). The user consented once; each later
round of the same flow and URL comes to this one window instead of a new consent dialog, and
waits for the user: "I have finished, check again" answers ``accept`` (the requester retries),
Cancel answers ``cancel``; "Open again" opens the browser again and answers nothing. The
presenter's :class:`~elicit_tray.ui.flows.UrlFlows` drives it.

The API is small on purpose (another way in may reuse it):

- ``UrlWaitDialog(request, opener)``: the window for a consented URL request, not shown yet;
- :meth:`UrlWaitDialog.begin_round`: a round waits for the user; the next ``answered`` signal
  carries its outcome (``Accepted(None)`` or ``Cancelled``);
- :meth:`UrlWaitDialog.show_checking`: no round waits (the answer went back, or consent was
  just given): says so; Close only closes the window;
- :meth:`UrlWaitDialog.check_now`: a completion notice arrived: answers the waiting round
  ``accept`` as if the user had asked;
- :meth:`UrlWaitDialog.mark_confirmed`: the server confirmed the flow finished: says so, closes.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFont, QShowEvent
from PySide6.QtWidgets import QPushButton

from ..request import Accepted, Cancelled, Outcome, UrlRequest
from ..urlcheck import visible_url
from .base import ARM_DELAY_MS, ElicitationDialog, announce, plain_label
from .i18n import translate
from .url_dialog import BrowserOpener, ltr_isolated

__all__ = ["UrlWaitDialog", "CONFIRMED_CLOSE_MS"]

#: How long the "the server confirmed" line stays before the window closes (ms).
CONFIRMED_CLOSE_MS = 1500


class UrlWaitDialog(ElicitationDialog):
    """The one waiting window of a URL flow (module docstring).

    Attributes:
        rounds: how many rounds came to this window so far.
        pending: whether a round waits for the user now.
        opened: how many times "Open again" opened the browser.

    Object names: ``check-again`` (the commit button), ``open-again``, ``cancel``, ``close``.
    """

    def __init__(self, request: UrlRequest, opener: BrowserOpener, *, arm_delay_ms: int = ARM_DELAY_MS):
        super().__init__(request, arm_delay_ms=arm_delay_ms)
        self.request: UrlRequest = request
        self.opener = opener
        self.href = request.url_analysis.href
        self.rounds = 0
        self.pending = False
        self.opened = 0
        self.body.addWidget(plain_label(translate("UrlWaitDialog", "You agreed to open this address:")))
        address = plain_label(ltr_isolated(visible_url(request.url), whole=True))
        address.setObjectName("url")
        address.setFont(QFont("monospace"))
        self.body.addWidget(address)
        site = request.url_analysis.registrable_domain or request.url_analysis.display_host
        if site:
            owner = plain_label(
                translate("UrlDialog", "This address belongs to the site {site}.").format(site=ltr_isolated(site))
            )
            owner.setObjectName("registrable-domain")
            self.body.addWidget(owner)
        self.decline_button.hide()  # the user consented already: what is left is to go on or stop
        self.open_again_button = QPushButton(translate("UrlWaitDialog", "Open in browser &again"))
        self.open_again_button.setObjectName("open-again")
        self.open_again_button.setAutoDefault(False)
        self.open_again_button.setToolTip(translate("UrlWaitDialog", "Open the address once more; nothing is sent"))
        self.open_again_button.clicked.connect(self.open_again)
        self.buttons.insertWidget(self.buttons.indexOf(self.cancel_button), self.open_again_button)
        self.check_button = self.add_commit_button(
            translate("UrlWaitDialog", "I have &finished, check again"), "check-again"
        )
        self.check_button.setToolTip(translate("UrlWaitDialog", "Tell the server to check whether you have finished"))

    # -- the API ------------------------------------------------------------------------------
    def begin_round(self, request: UrlRequest) -> None:
        """Round ``request`` of the flow (the same URL) waits for the user: say that the server
        is not done yet; "check again" and Cancel answer it. Arming starts again, so that a
        click or key meant for the last round does not answer this one."""
        self.request = request
        self.message_label.setText(request.message or "")
        self.rounds += 1
        self.outcome = None
        self.pending = True
        self.close_button.hide()
        self.cancel_button.show()
        self.check_button.show()
        self.show_status(
            translate(
                "UrlWaitDialog",
                "The server says you have not finished yet. Finish in your browser, then choose "
                "“I have finished, check again”. Cancel stops.",
            )
        )
        announce(self, self.status_label.text())
        self.arming.restart()
        self.refresh()

    def show_checking(self) -> None:
        """No round waits: the answer went back (or consent was just given); the window stays
        while the requester may come back, and Close only closes it."""
        self.pending = False
        self.check_button.hide()
        self.cancel_button.hide()
        self.close_button.show()
        self.show_status(
            translate(
                "UrlWaitDialog",
                "Waiting for the server to tell whether you have finished. "
                "If it needs more, this window asks you again. You can close it at any time.",
            )
        )
        self.refresh()

    def check_now(self) -> None:
        """A completion notice arrived while a round waits: answer it ``accept`` (the retry)."""
        if self.pending:
            self._answer_check()

    def mark_confirmed(self) -> None:
        """The server confirmed that the flow finished: say so and close shortly after."""
        self.pending = False
        for button in (self.check_button, self.cancel_button, self.open_again_button):
            button.hide()
        self.close_button.show()
        self.show_status(
            translate("UrlDialog", "The server confirmed that you have finished. This window closes by itself.")
        )
        QTimer.singleShot(CONFIRMED_CLOSE_MS, self, self.close)

    # -- buttons ------------------------------------------------------------------------------
    def can_commit(self) -> bool:
        return self.pending

    def commit(self) -> None:
        """ "I have finished, check again": answer the waiting round ``accept``."""
        if self.is_armed and self.pending and self.outcome is None and not self.expired:
            self._answer_check()

    def _answer_check(self) -> None:
        self.finish(Accepted(None), close=False)
        self.show_checking()

    def open_again(self) -> None:
        """Open the consented address once more (only on the user's click, once armed)."""
        if not self.is_armed or self.href is None:
            return
        if self.opener(self.href):
            self.opened += 1
        else:
            self.show_status(
                translate(
                    "UrlDialog",
                    "The web browser could not be started. You can copy the address above, or decline or cancel.",
                )
            )

    def reject(self) -> None:
        """Escape: ``cancel`` while a round waits; otherwise just close."""
        if self.pending:
            self.finish(Cancelled("escape"))
        else:
            self.hide()
            self.deleteLater()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.cancel_button.setFocus(Qt.FocusReason.ActiveWindowFocusReason)

    def finish(self, outcome: Outcome, *, close: bool = True) -> None:
        """As :meth:`ElicitationDialog.finish`, for the round that waits; with no round waiting
        there is nothing to answer (the window's close button then only closes it)."""
        if not self.pending:
            return
        self.pending = False
        super().finish(outcome, close=close)
