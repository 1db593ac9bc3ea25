"""Whether a request's requester is still there (no Qt, no I/O).

The transport (:class:`~elicit_tray.ipc.protocol.Dispatcher`) sets :data:`requester_present`
inside each request's :data:`~elicit_tray.request.Handler` call; the UI
(:class:`~elicit_tray.ui.presenter.Presenter`) reads it before it builds a dialog that had to
wait for its turn. Both import it from here, so the dialogs never reach into the transport.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable

__all__ = ["requester_present"]

#: Inside the :data:`~elicit_tray.request.Handler` call of a request: a function telling
#: whether its requester is still there (its connection open and not shut down by the peer).
#: The default (outside a dispatcher) says yes.
requester_present: contextvars.ContextVar[Callable[[], bool]] = contextvars.ContextVar(
    "requester_present", default=lambda: True
)
