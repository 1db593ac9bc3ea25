"""The presenter: one dialog per request, the pending list, expiry and completion.

It is the :data:`~elicit_tray.ipc.protocol.Handler` of the dispatcher: ``await
presenter.ask(request)`` shows the dialog and returns the user's outcome; cancelling the
awaiting task (``notifications/cancelled``, disconnect) marks the dialog expired. An answer
resolves only its own request. Several dialogs may be open at once; each is its own window.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QObject, QPoint, QRect, Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QApplication

from ..elicitation import Cancelled, ElicitationRequest, Failed, Outcome
from .activity import user_is_typing
from .arming import InputGate
from .base import ARM_DELAY_MS, ElicitationDialog, announce, summary
from ..display import for_display
from .form_dialog import FormDialog
from .i18n import translate
from .trace import DialogTrace
from .style import install_style, style_hints
from .widgets import WidgetRegistry, registry

if TYPE_CHECKING:
    from .url_dialog import BrowserOpener, UrlDialog

__all__ = ["Presenter", "system_browser"]

log = logging.getLogger(__name__)


def system_browser(href: str) -> bool:
    """Open ``href`` in the user's default browser (``QDesktopServices.openUrl``).

    ``href`` is :attr:`~elicit_tray.urlcheck.UrlAnalysis.href`, the address the dialog showed.
    It is opened only if ``QUrl`` (StrictMode) accepts it and writes it back unchanged
    (``QUrl.FullyEncoded``), so that the browser never gets an address other than the one the
    user consented to (MCP 2025-11-25 client/elicitation, Safe URL Handling).  Returns whether
    the system accepted it; False (and nothing is opened) when Qt would reject or rewrite it.
    """
    url = QUrl(href, QUrl.ParsingMode.StrictMode)
    if not url.isValid() or url.toString(QUrl.ComponentFormattingOption.FullyEncoded) != href:
        log.warning("not opening %r: Qt would not open it unchanged (%s)", href, url.errorString() or "rewritten")
        return False
    return QDesktopServices.openUrl(url)


class Presenter(QObject):
    """Shows dialogs for requests and tracks them.

    Args:
        opener: how Open reaches the browser (default :func:`system_browser`).
        arm_delay_ms: see :data:`~elicit_tray.ui.base.ARM_DELAY_MS`.
        on_shown: called with each dialog right after it is shown (the scripted user hooks in here).
        timeout_s: a user-set timeout in seconds after which an untouched dialog answers
            ``cancel`` (0: none, the default).

    Signals:
        pending_changed(): the set of open requests changed (the tray menu listens).
        request_shown(str): a dialog appeared; the argument is a one-line summary.
    """

    pending_changed = Signal()
    request_shown = Signal(str)

    def __init__(self, *, opener: BrowserOpener = system_browser, arm_delay_ms: int = ARM_DELAY_MS,
                 widgets: WidgetRegistry = registry,
                 on_shown: Callable[[ElicitationDialog], Any] | None = None, timeout_s: int = 0):
        super().__init__()
        self.timeout_s = timeout_s
        self.opener = opener
        self.arm_delay_ms = arm_delay_ms
        self.widgets = widgets
        self.on_shown = on_shown
        self.dialogs: dict[str, ElicitationDialog] = {}
        #: request key -> URL dialog waiting for its completion notice (the dispatcher maps
        #: (connection, elicitationId) to the key, so only the asking connection completes it)
        self._waiting_urls: dict[str, UrlDialog] = {}
        install_style()  # checkbox and radio outlines with 3:1 contrast in every palette
        self._hints = style_hints()  # palette changes reach the dialogs as events already
        self._hints[0].colorSchemeChanged.connect(self.restyle)
        self._hints[1].contrastPreferenceChanged.connect(self.restyle)

    def restyle(self) -> None:
        """The colour scheme or contrast preference changed: recolour the open dialogs."""
        for dialog in list(self.dialogs.values()):
            dialog.apply_style()

    def build(self, request: ElicitationRequest) -> ElicitationDialog:
        """The dialog for ``request`` (not shown yet), showing its strings through
        :func:`~elicit_tray.display.for_display`."""
        request = for_display(request)
        if request.mode == "url":
            from .url_dialog import UrlDialog  # with the URL analysis: loaded on the first URL request

            return UrlDialog(request, self.opener, arm_delay_ms=self.arm_delay_ms)
        return FormDialog(request, widgets=self.widgets, arm_delay_ms=self.arm_delay_ms)

    async def ask(self, request: ElicitationRequest) -> Outcome:
        """Show the dialog for ``request`` and wait for its single outcome.

        Returns ``Failed`` when no dialog can be shown (no screen). Raises
        ``asyncio.CancelledError`` when cancelled; the dialog then shows that it expired.
        """
        if QGuiApplication.primaryScreen() is None:
            return Failed("no display is available to show the dialog")
        trace = DialogTrace.start(request)
        dialog = self.build(request)
        if trace is not None:
            trace.mark("built")
            trace.watch_paint(dialog)
        future: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()

        def answered(outcome: Outcome) -> None:
            if not future.done():
                future.set_result(outcome)

        dialog.answered.connect(answered)
        others = [d for d in self.dialogs.values() if d.isVisible()]
        self.dialogs[request.key] = dialog
        self.pending_changed.emit()
        # The user is typing (here or in another window): the dialog must not take the keys.
        dialog.waits_to_be_chosen = user_is_typing(QGuiApplication.platformName(), InputGate.last_key_press)
        dialog.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating, dialog.waits_to_be_chosen)
        dialog.show()
        if trace is not None:
            trace.mark("shown")
        if self.timeout_s > 0:
            dialog.start_timeout(self.timeout_s)
        if others:
            self._cascade(dialog, others)
        if dialog.waits_to_be_chosen:
            dialog.raise_()
            QApplication.alert(dialog)  # the window manager marks it (urgency hint)
            announce(dialog, translate("Presenter", "{who} asks for your input. The request waits until you go to it: "
                                       "click it, switch to it (Alt+Tab), or choose it in the elicit-tray menu.").format(
                who=self.summary(dialog.request)))
        else:
            self._bring_forward(dialog)
        if len(self.dialogs) > 1:  # screen readers hear that there is a queue
            announce(dialog, translate("Presenter", "{count} requests are waiting.").format(count=len(self.dialogs)))
        self.request_shown.emit(self.summary(dialog.request))
        if self.on_shown is not None:
            self.on_shown(dialog)
        try:
            outcome = await future
        except asyncio.CancelledError:
            dialog.mark_expired()
            raise
        finally:
            self.dialogs.pop(request.key, None)
            self.pending_changed.emit()
            if trace is not None:
                trace.finish()
        if request.mode == "url" and getattr(dialog, "waiting", False) and request.elicitation_id:
            key = request.key
            self._waiting_urls[key] = dialog  # type: ignore[assignment]
            dialog.destroyed.connect(lambda *_: self._waiting_urls.pop(key, None))
        return outcome

    @staticmethod
    def _cascade(dialog: ElicitationDialog, others: list[ElicitationDialog]) -> None:
        """Place a new dialog so that its top-left corner is on no other open dialog's: each
        step of 32 px down and right from the newest one (wrapping to the screen's corner), so
        that concurrent requests never hide each other exactly."""
        step = QPoint(32, 32)
        taken = {d.pos().toTuple() for d in others}
        area = dialog.screen().availableGeometry() if dialog.screen() else None
        target = others[-1].pos()
        for _ in range(len(taken) + 1):
            target = target + step
            if area is not None and not area.contains(QRect(target, dialog.size())):
                target = area.topLeft() + step
            if target.toTuple() not in taken:
                break
        dialog.move(target)

    def complete(self, key: str) -> None:
        """``notifications/elicitation/complete`` for the request ``key`` (an
        :attr:`~elicit_tray.elicitation.ElicitationRequest.key`): end that URL dialog's waiting
        state. The :class:`~elicit_tray.ipc.protocol.Dispatcher` (``on_complete``) calls it only
        for a notice from the connection that made the request (DESIGN.md "IPC contract").

        Unknown or repeated keys are ignored (MCP 2025-11-25: clients MUST ignore unknown ids).
        """
        dialog = self._waiting_urls.pop(key, None)
        if dialog is not None:
            dialog.mark_complete()

    @staticmethod
    def summary(shown: ElicitationRequest) -> str:
        """One line for menus and notifications: who asks and what (:func:`~.base.summary`)."""
        return summary(shown)

    def dismiss_all(self) -> None:
        """Tray "dismiss all": every open dialog answers ``cancel``."""
        for dialog in list(self.dialogs.values()):
            dialog.finish(Cancelled("tray"))

    def focus(self, key: str) -> None:
        """The user chose the dialog of request ``key`` (tray menu): bring it to the front with
        the keyboard focus; it arms :data:`~.arming.ARM_DELAY_MS` later."""
        dialog = self.dialogs.get(key)
        if dialog is not None:
            dialog.show()
            self._bring_forward(dialog)

    def focus_oldest(self) -> None:
        """The user asked for the waiting dialogs (tray icon click): raise them all, the oldest
        on top with the keyboard focus."""
        for dialog in reversed(list(self.dialogs.values())):
            dialog.show()
            dialog.raise_()
        oldest = next(iter(self.dialogs), None)
        if oldest is not None:
            self.focus(oldest)

    @staticmethod
    def _bring_forward(dialog: ElicitationDialog) -> None:
        """Raise ``dialog`` and ask for the focus (granted as far as the platform allows)."""
        dialog.waits_to_be_chosen = False
        dialog.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating, False)
        dialog.raise_()
        dialog.activateWindow()


def save_screenshot(dialog: ElicitationDialog, folder: Path, name: str) -> Path:
    """Render ``dialog`` into ``folder/name.png`` (works offscreen); returns the path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    dialog.grab().save(str(path), "PNG")
    return path
