"""The presenter: one dialog per request, the pending list, expiry and completion.

It is the :class:`~elicit_tray.ipc.protocol.Ui` of the dispatcher: ``await
presenter.ask(request)`` (a :data:`~elicit_tray.request.Handler`) shows the dialog and returns
the user's outcome, ``presenter.complete(key)`` ends a URL dialog's waiting; cancelling the
awaiting task (``notifications/cancelled``, disconnect) marks the dialog expired. An answer
resolves only its own request. Several dialogs may be open at once; each is its own window.

Queue (docs/design.md "UI rules": a few dialogs at most are on screen): at most
:data:`MAX_SHOWN_DIALOGS` dialogs are on screen at once. Further requests wait in the order
they came (FIFO) without a window (:attr:`Presenter.waiting`); the tray menu lists them
(choosing one shows it at once) and the newest dialog on screen says how many wait. When a
dialog on screen is answered or expires, the oldest waiting request whose requester is still
there gets its window; a waiting request that expires, or whose requester has left
(:data:`~elicit_tray.ipc.protocol.requester_present`), never gets one. At most
:data:`MAX_EXPIRED_ON_SCREEN` expired dialogs stay to say so; older ones close at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QPoint, QRect, QSocketNotifier, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QApplication, QLabel
from shiboken6 import isValid

from ..presence import requester_present
from ..request import Accepted, Cancelled, ElicitationRequest, Failed, Outcome, UrlRequest, for_display
from .arming import ENGAGE_KEY_TEXT, InputGate
from .base import ARM_DELAY_MS, ElicitationDialog, announce, plain_label, summary
from .focus import desktop
from .form_dialog import FormDialog
from .i18n import translate
from .registry import WidgetRegistry, registry
from .style import install_style, style_hints
from .trace import DialogTrace

if TYPE_CHECKING:
    from .flows import UrlFlows
    from .url_dialog import BrowserOpener, UrlDialog
    from .url_wait import UrlWaitDialog

__all__ = ["Presenter", "system_browser", "MAX_SHOWN_DIALOGS", "MAX_EXPIRED_ON_SCREEN"]

log = logging.getLogger(__name__)

#: Most dialogs waiting for an answer on screen at once; more requests wait without a window.
MAX_SHOWN_DIALOGS = 5
#: Most expired dialogs left on screen to say so (each closes by itself after
#: :data:`~.base.EXPIRED_CLOSE_MS`); one more closes the oldest at once.
MAX_EXPIRED_ON_SCREEN = MAX_SHOWN_DIALOGS


class _Pending:
    """One request of :meth:`Presenter.ask`: waiting for a window, then shown (``dialog``)."""

    __slots__ = ("request", "present", "future", "trace", "dialog", "_summary")

    def __init__(
        self,
        request: ElicitationRequest,
        present: Callable[[], bool],
        future: asyncio.Future[Outcome],
        trace: DialogTrace | None,
    ):
        self.request = request
        self.present = present
        self.future = future
        self.trace = trace
        self.dialog: ElicitationDialog | None = None
        self._summary: str | None = None

    def summary(self) -> str:
        if self._summary is None:
            self._summary = summary(for_display(self.request))
        return self._summary


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

        max_shown: :data:`MAX_SHOWN_DIALOGS`.

    Attributes:
        dialogs: request key -> its dialog on screen, oldest first.
        waiting: request key -> a request without a window yet, in the order they came.

    Signals:
        pending_changed(): the set of open requests changed (the tray menu listens).
        request_shown(str): a dialog appeared; the argument is a one-line summary.
    """

    pending_changed = Signal()
    request_shown = Signal(str)

    def __init__(
        self,
        *,
        opener: BrowserOpener = system_browser,
        arm_delay_ms: int = ARM_DELAY_MS,
        widgets: WidgetRegistry = registry,
        on_shown: Callable[[ElicitationDialog], Any] | None = None,
        timeout_s: int = 0,
        max_shown: int = MAX_SHOWN_DIALOGS,
    ):
        super().__init__()
        self.max_shown = max(1, max_shown)
        self.waiting: dict[str, _Pending] = {}
        #: Expired dialogs still saying so, oldest first; each leaves the list when it is
        #: destroyed (it closes by itself), so that it is freed then, not at the next expiry.
        self._expired: list[ElicitationDialog] = []
        self._promoting = False
        #: A coalesced :meth:`_refresh` is scheduled for the next event-loop turn.
        self._refresh_due = False
        self.timeout_s = timeout_s
        self.opener = opener
        self.arm_delay_ms = arm_delay_ms
        self.widgets = widgets
        self.on_shown = on_shown
        self.dialogs: dict[str, ElicitationDialog] = {}
        #: A form dialog's frame built ahead (:meth:`_make_spare`), or None.
        self._spare: FormDialog | None = None
        #: request key -> URL dialog waiting for its completion notice (the dispatcher maps
        #: (connection, elicitationId) to the key, so only the asking connection completes it)
        self._waiting_urls: dict[str, UrlDialog] = {}
        #: URL flows over several rounds (:mod:`~.flows`), made on the first flow request
        self._flows: UrlFlows | None = None
        self._follow_desktop()
        install_style()  # checkbox and radio outlines with 3:1 contrast in every palette
        self._hints = style_hints()  # palette changes reach the dialogs as events already
        self._hints[0].colorSchemeChanged.connect(self.restyle)
        self._hints[1].contrastPreferenceChanged.connect(self.restyle)

    def _follow_desktop(self) -> None:
        """On X11, read the desktop's window changes as they come (:mod:`~.focus`), knowing
        which windows are the app's own."""
        server = desktop(QGuiApplication.platformName())
        if server is None:
            return

        def ours(window: int) -> bool:
            return any(w.internalWinId() == window for w in QApplication.topLevelWidgets() if w.internalWinId())

        server.is_ours = ours
        self._desktop_notifier = QSocketNotifier(server.fd, QSocketNotifier.Type.Read, self)
        self._desktop_notifier.activated.connect(lambda *_: server.read_events())

    def restyle(self) -> None:
        """The colour scheme or contrast preference changed: recolour the open dialogs."""
        for dialog in list(self.dialogs.values()):
            dialog.apply_style()

    def build(self, request: ElicitationRequest) -> ElicitationDialog:
        """The dialog for ``request`` (not shown yet), showing its strings through
        :func:`~elicit_tray.display.for_display`."""
        request = for_display(request)
        with InputGate.paused():  # no input is delivered while widgets are constructed
            dialog: ElicitationDialog
            if isinstance(request, UrlRequest):
                from .url_dialog import UrlDialog  # with the URL analysis: loaded on the first URL request

                dialog = UrlDialog(request, self.opener, arm_delay_ms=self.arm_delay_ms)
            else:
                form = self._take_spare()
                if form is None:
                    form = FormDialog(request, widgets=self.widgets, arm_delay_ms=self.arm_delay_ms)
                else:
                    form.take(request)
                dialog = form
            dialog.prepare()
        return dialog

    def _take_spare(self) -> FormDialog | None:
        """The form frame kept ready (:meth:`_make_spare`), if it is still there and built
        with the presenter's present settings and language; it is no longer the spare from
        now on."""
        spare, self._spare = self._spare, None
        if spare is None or not isValid(spare):
            return None
        if spare.outdated or spare.widgets is not self.widgets or spare.arming.delay_ms != max(0, self.arm_delay_ms):
            spare.deleteLater()  # the settings or the language changed since it was built
            return None
        return spare

    def _make_spare(self) -> None:
        """Build the next form dialog's frame now, while nothing is on its way: the window,
        who-asks header box, message box, scroll box and buttons, everything that does not
        depend on a request (~2 ms of a 10-field form's ~8 ms build). It stays hidden and
        empty until :meth:`build` gives it a request, and serves that one request only: a
        frame is never shown before, nor used again after (:meth:`FormDialog.take
        <.form_dialog.FormDialog.take>` refuses a second request). Made after a dialog ended,
        so an idle app that never showed a dialog holds none."""
        if self._spare is not None and isValid(self._spare):
            return
        with InputGate.paused():  # constructing widgets, as in build()
            # No native window yet (no winId()): the platform reads WA_ShowWithoutActivating, set
            # per request by _show(), only when it creates the window.
            self._spare = FormDialog(None, widgets=self.widgets, arm_delay_ms=self.arm_delay_ms)

    async def ask(self, request: ElicitationRequest) -> Outcome:
        """Show the dialog for ``request`` (at once, or when its turn comes: module docstring)
        and wait for its single outcome.

        Returns ``Failed`` when no dialog can be shown (no screen). Raises
        ``asyncio.CancelledError`` when cancelled; a dialog on screen then shows that it expired,
        a waiting request just leaves the queue. An exception while building or showing the
        dialog is raised here (the dispatcher answers -32603).
        """
        if QGuiApplication.primaryScreen() is None:
            return Failed("no display is available to show the dialog")
        if isinstance(request, UrlRequest) and request.flow:
            flows = self.flows()
            if flows.is_round(request):  # consented already: the flow's waiting window, no consent
                self._refresh()  # the tray counts the round as pending
                try:
                    return await flows.round(request)
                finally:
                    self.dialogs.pop(request.key, None)
                    self._refresh()
            flows.moved_on(request)
        entry = _Pending(
            request, requester_present.get(), asyncio.get_running_loop().create_future(), DialogTrace.start(request)
        )
        self.waiting[request.key] = entry
        self._refresh()
        try:
            outcome = await entry.future
        except asyncio.CancelledError:
            if entry.dialog is not None:
                entry.dialog.mark_expired()
                self._linger(entry.dialog)
            raise
        finally:
            self.waiting.pop(request.key, None)
            if entry.dialog is not None and self.dialogs.get(request.key) is entry.dialog:
                del self.dialogs[request.key]
            self._refresh()
            if entry.trace is not None:
                entry.trace.finish()
        if isinstance(request, UrlRequest) and request.flow and isinstance(outcome, Accepted):
            self.flows().consented(request, waiting=request.elicitation_id is not None)
        elif isinstance(request, UrlRequest) and entry.dialog is not None:
            from .url_dialog import UrlDialog  # loaded by build() already

            dialog = entry.dialog
            if isinstance(dialog, UrlDialog) and dialog.waiting:  # accepted, with an elicitationId
                key = request.key
                self._waiting_urls[key] = dialog
                dialog.destroyed.connect(lambda *_: self._waiting_urls.pop(key, None))
        return outcome

    def flows(self) -> UrlFlows:
        """The URL flows over several rounds (:class:`~.flows.UrlFlows`), made when first needed."""
        if self._flows is None:
            from .flows import UrlFlows

            self._flows = UrlFlows(self._make_wait_dialog, self._show_wait_dialog)
        return self._flows

    def _make_wait_dialog(self, request: UrlRequest) -> UrlWaitDialog:
        from .url_wait import UrlWaitDialog

        with InputGate.paused():  # no input is delivered while widgets are constructed
            dialog = UrlWaitDialog(for_display(request), self.opener, arm_delay_ms=self.arm_delay_ms)
            dialog.prepare()
        return dialog

    def _show_wait_dialog(self, dialog: UrlWaitDialog) -> None:
        """Show a flow's window as any dialog is shown (never with the focus), or, already on
        screen, bring it to the user's attention for its new round."""
        if not dialog.isVisible():
            dialog.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating, True)
            others = [d for d in self.dialogs.values() if isValid(d) and d.isVisible()]
            dialog.show()
            if others:
                self._cascade(dialog, others)
        dialog.raise_()
        QApplication.alert(dialog)
        if dialog.pending:  # its round is listed, counted and chosen from the tray as any dialog
            self.dialogs[dialog.request.key] = dialog
            self.request_shown.emit(self.summary(dialog.request))
            if self.on_shown is not None:
                self.on_shown(dialog)

    def pending_count(self) -> int:
        """Requests waiting for an answer: on screen and waiting for a window."""
        return len(self.dialogs) + len(self.waiting)

    def waiting_summaries(self) -> list[tuple[str, str]]:
        """(request key, one-line summary) of each request waiting for a window, oldest first."""
        return [(key, entry.summary()) for key, entry in self.waiting.items()]

    def _refresh(self) -> None:
        """Show waiting requests while there is room, then tell the tray and the newest dialog:
        once, on the next event-loop turn, however many requests came or ended in this one (a
        burst of 50 cancels brings up the dialogs that are due once, not one per cancel)."""
        if self._refresh_due:
            return
        self._refresh_due = True
        try:
            asyncio.get_running_loop().call_soon(self._refresh_now)
        except RuntimeError:  # no asyncio loop runs (a plain Qt caller): the Qt loop's next turn
            QTimer.singleShot(0, self, self._refresh_now)

    def _refresh_now(self) -> None:
        """:meth:`_refresh`, done now."""
        self._refresh_due = False
        self._promote()
        self._update_count()
        self.pending_changed.emit()

    def _promote(self) -> None:
        """Give windows to the oldest waiting requests while fewer than :attr:`max_shown` are on
        screen; a request whose requester has left is taken out of the queue without one (the
        dispatcher expires it)."""
        if self._promoting:
            return
        self._promoting = True
        try:
            while self.waiting and len(self.dialogs) < self.max_shown:
                key = next(iter(self.waiting))
                entry = self.waiting.pop(key)
                if entry.future.done():
                    continue
                if not entry.present():
                    log.info("request %s: its requester left while it waited; no window", key)
                    continue
                self._show(entry)
        finally:
            self._promoting = False

    def _show(self, entry: _Pending) -> None:
        """Build and show the dialog of ``entry`` under the focus policy; a failure is raised
        from its :meth:`ask`."""
        request = entry.request
        trace = entry.trace
        future = entry.future
        try:
            dialog = self.build(request)
            entry.dialog = dialog
            if trace is not None:
                trace.mark("built")
                trace.watch_paint(dialog)

            def answered(outcome: Outcome) -> None:
                if not future.done():
                    future.set_result(outcome)
                if self.dialogs.get(request.key) is dialog:  # room for the next one, right after
                    del self.dialogs[request.key]
                    self._refresh()

            dialog.answered.connect(answered)
            # The next form's frame is built once this request ends, off the way of its window.
            dialog.ended.connect(lambda: QTimer.singleShot(0, self, self._make_spare))
            others = [d for d in self.dialogs.values() if isValid(d) and d.isVisible()]
            self.dialogs[request.key] = dialog
            # Never shown with the focus: the user goes to it by an act (docs/design.md "UI rules").
            # Where a compositor focuses every new window anyway, the dialog stays inert to keys
            # until the user engages with it (arming).
            dialog.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating, True)
            if QGuiApplication.platformName().startswith("wayland"):
                _float_on_tiling_compositors(dialog)
            dialog.show()
            if trace is not None:
                trace.mark("shown")
            if self.timeout_s > 0:
                dialog.start_timeout(self.timeout_s)
            if others:
                self._cascade(dialog, others)
            dialog.raise_()
            QApplication.alert(dialog)  # the window manager marks it (urgency hint)
            announce(
                dialog,
                translate(
                    "Presenter",
                    "{who} asks for your input. Go to the request's window (click it, switch to it, "
                    "or choose it in the elicit-tray menu), then press {key} to answer with the keyboard.",
                ).format(who=self.summary(dialog.request), key=ENGAGE_KEY_TEXT),
            )
            if self.pending_count() > 1:  # screen readers hear that there is a queue
                announce(
                    dialog, translate("Presenter", "{count} requests are waiting.").format(count=self.pending_count())
                )
            self.request_shown.emit(self.summary(dialog.request))
            if self.on_shown is not None:
                self.on_shown(dialog)
        except Exception as exc:  # no dialog: the request gets -32603, never an action
            log.exception("request %s: the dialog could not be shown", request.key)
            if entry.dialog is not None and self.dialogs.get(request.key) is entry.dialog:
                del self.dialogs[request.key]
            if not future.done():
                future.set_exception(exc)

    def _update_count(self) -> None:
        """The newest dialog on screen says how many requests wait for a window; the others
        say nothing about it."""
        shown = [d for d in self.dialogs.values() if isValid(d)]
        count = len(self.waiting)
        for dialog in shown:
            label = dialog.findChild(QLabel, "queue-count")
            if dialog is shown[-1] and count:
                appears = label is None or label.isHidden()
                if label is None:
                    label = plain_label("", selectable=False)
                    label.setObjectName("queue-count")
                    layout = dialog.window_layout
                    layout.insertWidget(layout.count() - 1, label)  # above the buttons
                text = (
                    translate(
                        "Presenter",
                        "1 more request is waiting. It opens when a dialog is answered, "
                        "or choose it in the elicit-tray menu.",
                    )
                    if count == 1
                    else translate(
                        "Presenter",
                        "{count} more requests are waiting. They open one by one as dialogs "
                        "are answered, or choose one in the elicit-tray menu.",
                    ).format(count=count)
                )
                if label.text() != text:
                    label.setText(text)
                label.show()
                if appears:  # room for the note: the dialog grows rather than squeezing its content
                    layout = dialog.window_layout
                    margins = layout.contentsMargins()
                    inner = dialog.width() - margins.left() - margins.right()
                    grown = label.heightForWidth(inner) + layout.spacing()
                    label.setProperty("grown_by", grown)
                    dialog.resize(dialog.width(), dialog.height() + grown)
            elif label is not None and not label.isHidden():
                label.hide()  # and the room it took goes too (no blank band where it was)
                grown = label.property("grown_by") or 0
                label.setProperty("grown_by", 0)
                height = max(dialog.minimumSizeHint().height(), dialog.height() - int(grown))
                dialog.resize(dialog.width(), height)

    def _linger(self, dialog: ElicitationDialog) -> None:
        """``dialog`` expired and says so for a while; over :data:`MAX_EXPIRED_ON_SCREEN` such
        dialogs, the oldest close now (closing an expired dialog sends nothing)."""
        self._expired = [d for d in self._expired if isValid(d) and d.isVisible()]
        self._expired.append(dialog)
        key = id(dialog)  # the slot holds no reference to the dialog
        dialog.destroyed.connect(lambda *_: self._forget_expired(key))
        while len(self._expired) > MAX_EXPIRED_ON_SCREEN:
            self._expired.pop(0).close()

    def _forget_expired(self, key: int) -> None:
        """The expired dialog whose ``id()`` is ``key`` was destroyed: it leaves the list."""
        self._expired = [d for d in self._expired if id(d) != key]

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
        """``notifications/elicitation/complete`` for the request ``key`` (a
        :attr:`~elicit_tray.request.RequestBase.key`): end that URL dialog's waiting
        state. The :class:`~elicit_tray.ipc.protocol.Dispatcher` (:meth:`Ui.complete
        <elicit_tray.ipc.protocol.Ui.complete>`) calls it only
        for a notice from the connection that made the request (docs/design.md "IPC contract").

        Unknown or repeated keys are ignored (MCP 2025-11-25: clients MUST ignore unknown ids).
        """
        if self._flows is not None and self._flows.complete(key):
            return
        dialog = self._waiting_urls.pop(key, None)
        if dialog is not None:
            dialog.mark_complete()

    def release(self, key: str) -> None:
        """The connection that made the accepted URL request ``key`` closed
        (:meth:`Ui.release <elicit_tray.ipc.protocol.Ui.release>`): its waiting window, or its
        flow's once no other round holds it, closes now (docs/design.md "URL flows over
        several rounds": nothing of a flow stays after its requester is gone)."""
        if self._flows is not None and self._flows.release(key):
            return
        dialog = self._waiting_urls.pop(key, None)
        if dialog is not None and isValid(dialog):
            dialog.hide()
            dialog.deleteLater()

    @staticmethod
    def summary(shown: ElicitationRequest) -> str:
        """One line for menus and notifications: who asks and what (:func:`~.base.summary`)."""
        return summary(shown)

    def dismiss_all(self) -> None:
        """Tray "dismiss all": every pending request answers ``cancel``, those still waiting
        for a window first (so that none is shown on the way)."""
        for entry in list(self.waiting.values()):
            if not entry.future.done():
                entry.future.set_result(Cancelled("tray"))
        for dialog in list(self.dialogs.values()):  # a flow's waiting round too
            dialog.finish(Cancelled("tray"))

    def focus(self, key: str) -> None:
        """The user chose the dialog of request ``key`` (tray menu, tray icon, notification):
        bring it to the front with the keyboard focus, engaged (an activation the user asked
        for: :meth:`.arming.Arming.welcome`); it arms :data:`~.arming.ARM_DELAY_MS` later. A
        request still waiting for a window gets it now, even over :attr:`max_shown` (the user
        asked for it)."""
        dialog = self.dialogs.get(key)
        entry = self.waiting.get(key) if dialog is None else None
        if entry is not None and not entry.future.done() and entry.present():
            del self.waiting[key]
            self._show(entry)
            self._update_count()
            self.pending_changed.emit()
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
        """Raise ``dialog`` and ask for the focus (granted as far as the platform allows), as the
        user asked: it is engaged when the focus arrives."""
        dialog.arming.welcome()
        dialog.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating, False)
        dialog.raise_()
        dialog.activateWindow()


def _float_on_tiling_compositors(dialog: ElicitationDialog) -> None:
    """A tiling Wayland compositor (sway) tiles every toplevel but one whose minimum and maximum
    sizes are equal, which it floats at that size: the dialog maps with a fixed size, and is
    resizable again once the compositor has placed it."""
    size = dialog.size()
    minimum, maximum = dialog.minimumSize(), dialog.maximumSize()
    dialog.setFixedSize(size)

    def resizable_again() -> None:
        if isValid(dialog):
            dialog.setMinimumSize(minimum)
            dialog.setMaximumSize(maximum)

    QTimer.singleShot(1000, dialog, resizable_again)


def save_screenshot(dialog: ElicitationDialog, folder: Path, name: str) -> Path:
    """Render ``dialog`` into ``folder/name.png`` (works offscreen); returns the path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    dialog.grab().save(str(path), "PNG")
    return path
