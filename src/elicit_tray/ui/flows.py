"""URL flows over several rounds: one flow for the user (docs/design.md "URL flows over
several rounds").

A requester marks the rounds of one flow with the same ``_meta["elicit-tray/flow"]``
(:attr:`~elicit_tray.request.UrlRequest.flow`). A flow, here, is that string together with the
URL: consent is asked once per (flow, URL). :class:`UrlFlows` keeps what the presenter needs:

- which (flow, URL) the user consented to (at most :data:`MAX_FLOWS`, the oldest forgotten);
- the flow's one window, a :class:`~.url_wait.UrlWaitDialog`, and the round waiting in it;
- the *holders*: accepted rounds whose requester connection is still open
  (:meth:`~elicit_tray.ipc.protocol.Ui.release` says when one closes). The window stays while a
  holder or a waiting round is there, and goes when the last one goes: nothing of a flow stays
  on screen after its requester is gone.

A completion notice for any round of a flow answers the waiting round ``accept`` (the requester
retries), or, with no round waiting, closes the window as confirmed and ends the flow.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from shiboken6 import isValid

from ..request import Accepted, Cancelled, Outcome, UrlRequest, for_display
from .url_wait import UrlWaitDialog

__all__ = ["UrlFlows", "MAX_FLOWS"]

log = logging.getLogger(__name__)

#: Most (flow, URL) consents remembered; the oldest without a window is forgotten first.
MAX_FLOWS = 256


class _Flow:
    """One (flow, URL): its window, the round waiting in it, its holders, its request keys."""

    __slots__ = ("flow", "url", "dialog", "round", "holders")

    def __init__(self, flow: str, url: str):
        self.flow, self.url = flow, url
        self.dialog: UrlWaitDialog | None = None
        self.round: asyncio.Future[Outcome] | None = None
        self.holders: set[str] = set()


class UrlFlows:
    """The URL flows of one presenter (module docstring).

    Args:
        make: builds the (not yet shown) window for a consented request.
        show: shows a new window (the presenter's focus policy), or brings it to the user's
            attention for a new round; called with each round's window.
    """

    def __init__(self, make: Callable[[UrlRequest], UrlWaitDialog], show: Callable[[UrlWaitDialog], None]):
        self._make, self._show = make, show
        self._flows: dict[tuple[str, str], _Flow] = {}
        self._by_key: dict[str, _Flow] = {}

    def is_round(self, request: UrlRequest) -> bool:
        """Whether ``request`` is a later round of a flow the user consented to (its URL),
        with no other round of it waiting: it then goes to :meth:`round`, not to a consent
        dialog."""
        flow = self._flows.get((request.flow or "", request.url)) if request.flow else None
        return flow is not None and flow.round is None

    def moved_on(self, request: UrlRequest) -> None:
        """``request`` (a flow's round for a URL not consented yet) gets a consent dialog:
        the windows of that flow's other URLs with no round waiting close (the server moved on)."""
        for flow in list(self._flows.values()):
            if flow.flow == request.flow and flow.url != request.url and flow.round is None:
                self._close(flow)

    def consented(self, request: UrlRequest, *, waiting: bool) -> None:
        """The user consented to ``request`` (a flow's round, Open pressed; its answer is
        ``accept``): remember it; the request holds the flow. With ``waiting`` (a completion
        notice will come: it has an ``elicitationId``) the window shows now, saying so."""
        assert request.flow is not None
        key = (request.flow, request.url)
        flow = self._flows.pop(key, None) or _Flow(request.flow, request.url)
        self._flows[key] = flow  # the newest last
        self._hold(flow, request.key)
        self._forget_oldest()
        if waiting and flow.dialog is None:
            dialog = self._window(flow, request)
            dialog.show_checking()
            self._show(dialog)

    async def round(self, request: UrlRequest) -> Outcome:
        """A later round of a consented flow (:meth:`is_round`): it waits in the flow's window
        for "check again" (``Accepted(None)``), a completion notice (the same) or Cancel
        (``Cancelled``). Cancelling the awaiting task (the requester withdrew it or left)
        closes the window."""
        flow = self._flows[(request.flow or "", request.url)]
        future: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        flow.round = future
        self._by_key[request.key] = flow
        dialog = flow.dialog if flow.dialog is not None and isValid(flow.dialog) else self._window(flow, request)
        dialog.begin_round(for_display(request))  # the server's text shown as every dialog shows it
        self._show(dialog)
        try:
            outcome = await future
        except asyncio.CancelledError:
            flow.round = None
            self._by_key.pop(request.key, None)
            self._close(flow)
            raise
        flow.round = None
        if isinstance(outcome, Accepted):
            self._hold(flow, request.key)
        else:  # the user stopped the flow: a later request for it asks for consent again
            self._by_key.pop(request.key, None)
            self._end(flow)
        return outcome

    def complete(self, key: str) -> bool:
        """The completion notice of accepted round ``key`` arrived (from its own connection).
        Returns whether ``key`` is a flow's."""
        flow = self._by_key.pop(key, None)
        if flow is None:
            return False
        flow.holders.discard(key)
        if flow.round is not None and flow.dialog is not None:
            flow.dialog.check_now()  # the waiting round answers accept: the requester retries
        else:
            if flow.dialog is not None and isValid(flow.dialog):
                flow.dialog.mark_confirmed()
            flow.dialog = None
            self._end(flow)
        return True

    def release(self, key: str) -> bool:
        """The connection of accepted round ``key`` closed. Returns whether ``key`` is a
        flow's."""
        flow = self._by_key.pop(key, None)
        if flow is None:
            return False
        flow.holders.discard(key)
        if not flow.holders and flow.round is None:
            self._close(flow)
        return True

    # -- inside -------------------------------------------------------------------------------
    def _hold(self, flow: _Flow, key: str) -> None:
        flow.holders.add(key)
        self._by_key[key] = flow

    def _window(self, flow: _Flow, request: UrlRequest) -> UrlWaitDialog:
        dialog = self._make(request)
        flow.dialog = dialog

        def answered(outcome: Outcome) -> None:
            if flow.round is not None and not flow.round.done():
                flow.round.set_result(outcome)

        def gone(*_: object) -> None:
            if flow.dialog is dialog:
                flow.dialog = None
            if flow.round is not None and not flow.round.done():  # pragma: no cover - closed unanswered
                flow.round.set_result(Cancelled("close"))

        dialog.answered.connect(answered)
        dialog.destroyed.connect(gone)
        return dialog

    def _close(self, flow: _Flow) -> None:
        """Close the flow's window now (what it said is moot); the consent stays remembered."""
        dialog, flow.dialog = flow.dialog, None
        if dialog is not None and isValid(dialog):
            dialog.hide()
            dialog.deleteLater()

    def _end(self, flow: _Flow) -> None:
        """The flow is over (cancelled, or confirmed finished): close its window unless it
        says "confirmed", and forget its consent and keys."""
        if flow.dialog is not None:
            self._close(flow)
        self._flows.pop((flow.flow, flow.url), None)
        for key in [k for k, f in self._by_key.items() if f is flow]:
            del self._by_key[key]

    def _forget_oldest(self) -> None:
        while len(self._flows) > MAX_FLOWS:
            victim = next((f for f in self._flows.values() if f.dialog is None and f.round is None), None)
            if victim is None:
                return
            self._end(victim)
