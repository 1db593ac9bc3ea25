"""The dispatcher's load policies (no I/O, no asyncio, no Qt): how much one requester, and all
of them together, may ask of the tray at once (README "IPC contract", limits table).

:class:`LoadPolicy` holds the limits and the counts they are checked against; the
:class:`~elicit_tray.ipc.protocol.Dispatcher` asks it and does what it says (answers, closes,
journals). Each connection's share is a :class:`ConnectionLoad`.

- **Refusing an ``elicitation/create``** (:data:`CREATE_LIMITS`, checked in table order, the
  first row that is over answers): at most :data:`MAX_PENDING_PER_CONNECTION` dialogs pending
  per connection, :data:`MAX_PENDING_PER_PEER` per requester process over all its connections
  (its fair share: half of the total, so that one process never locks the others out),
  :data:`MAX_PENDING_TOTAL` over all connections, and an *abandoning* requester
  process (its connections closed with :data:`MAX_ABANDONED_PER_PEER` requests still pending,
  or requests were read after it left, within :data:`ABANDON_WINDOW_S` seconds) is refused
  until fewer than that many of its abandoned requests lie within the window. Requests it
  withdrew with ``notifications/cancelled`` do not count. The refusal is -32000
  (:data:`~elicit_tray.ipc.jsonrpc.SERVER_BUSY`) with ``data: {"limit", "scope"}``
  (:class:`Busy`).
- **Idle connections** (:meth:`LoadPolicy.idle`): nothing pending, no accepted URL elicitation
  waiting for its completion notice, and no complete message for :data:`IDLE_CLOSE_S` seconds.
- **Unfinished input** (:meth:`LoadPolicy.largest`): the unfinished lines of all connections
  together hold at most :data:`MAX_UNFINISHED_BYTES_TOTAL` bytes; over it, the connection with
  the largest unfinished line (of equal ones, the one that sent last) is dropped.

Adding a refusal of ``elicitation/create`` is one row of :data:`CREATE_LIMITS` (its
``data.scope``, message, limit and the test saying when it is over) plus its row in the README
limits table, e.g. the fair share of one process (:data:`MAX_PENDING_PER_PEER`, counted in
``Demand.on_peer``)::

    CreateLimit(
        scope="process",
        message=BUSY_MESSAGE + " ({limit} from this process)",
        limit=lambda policy: policy.max_pending_per_peer,
        over=lambda policy, demand: demand.on_peer >= policy.max_pending_per_peer,
    )

``tests/unit/test_dispatch_load.py`` then fails until the README names the row's scope and
limit and a test drives the dispatcher over it.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = [
    "ABANDONING_MESSAGE",
    "ABANDON_WINDOW_S",
    "BUSY_MESSAGE",
    "CREATE_LIMITS",
    "IDLE_CLOSE_S",
    "MAX_ABANDONED_PER_PEER",
    "MAX_PENDING_PER_CONNECTION",
    "MAX_PENDING_PER_PEER",
    "MAX_PENDING_TOTAL",
    "MAX_UNFINISHED_BYTES_TOTAL",
    "Busy",
    "ConnectionLoad",
    "CreateLimit",
    "Demand",
    "LoadPolicy",
]

#: Most ``elicitation/create`` requests waiting for an answer on one connection.
MAX_PENDING_PER_CONNECTION = 16
#: Most ``elicitation/create`` requests waiting for an answer over all connections.
MAX_PENDING_TOTAL = 64
#: Most ``elicitation/create`` requests of one requester process (one peer uid and pid) waiting
#: for an answer over all its connections: its fair share of :data:`MAX_PENDING_TOTAL`. Half of
#: it, so that one process (4 connections of 16 each would be the whole total) always leaves
#: the other half to everyone else, while an agent runner with several connections still has
#: two full connections' worth, far more dialogs than a person answers at once.
MAX_PENDING_PER_PEER = MAX_PENDING_TOTAL // 2
#: The message of the -32000 error for a request over a pending limit.
BUSY_MESSAGE = "Server busy: too many pending requests"
#: Requests of one requester process left pending by a closed connection, within
#: :data:`ABANDON_WINDOW_S`, after which its new ``elicitation/create`` requests get -32000.
MAX_ABANDONED_PER_PEER = 32
#: The window (seconds) over which abandoned requests are counted.
ABANDON_WINDOW_S = 60.0
#: The message of the -32000 error for a request of an abandoning requester.
ABANDONING_MESSAGE = "Server busy: too many abandoned requests"
#: A connection with nothing pending that sent no complete message for this long (seconds) is
#: closed by the endpoint (:meth:`~elicit_tray.ipc.protocol.Dispatcher.idle_channels`).
IDLE_CLOSE_S = 60.0
#: Most bytes of unfinished lines (read, no newline yet) held over all connections together.
MAX_UNFINISHED_BYTES_TOTAL = 16 * 1024 * 1024

T = TypeVar("T")


@dataclass(frozen=True)
class Busy:
    """An ``elicitation/create`` refused under load: the -32000 error's ``message``, and its
    ``data`` (:attr:`data`: ``{"limit": int, "scope": str}``)."""

    message: str
    limit: int
    scope: str

    @property
    def data(self) -> dict[str, Any]:
        """The error's ``data`` member, ``{"limit", "scope"}``."""
        return {"limit": self.limit, "scope": self.scope}


@dataclass(frozen=True)
class Demand:
    """What one more ``elicitation/create`` would add to: the requests pending on its
    connection (``on_connection``), in total (``total``) and on all connections of its
    requester process (``on_peer``: those whose :attr:`ConnectionLoad.peer_key` is ``peer``;
    for a ``("connection", n)`` key the connection's own), and who sent it (``peer``)."""

    on_connection: int
    total: int
    peer: Hashable
    on_peer: int = 0


@dataclass(frozen=True)
class CreateLimit:
    """One row of :data:`CREATE_LIMITS`.

    - ``scope``: the error's ``data.scope`` (and the journal's ``scope``); unique per row.
    - ``message``: the -32000 message, a template of ``{limit}`` and ``{window}`` (the
      abandoning window in seconds; format it with ``:g``).
    - ``limit``: the number in ``data.limit``, read from the policy.
    - ``over``: whether a :class:`Demand` is over this limit.
    """

    scope: str
    message: str
    limit: Callable[[LoadPolicy], int]
    over: Callable[[LoadPolicy, Demand], bool]


class ConnectionLoad:
    """One connection's share of the load.

    Attributes:
        peer_key: who it belongs to for the per-requester limits: ``("process", uid, pid)``,
            or ``("connection", n)`` (unique to it) where the OS does not tell the pid.
        unfinished: bytes of its unfinished line, as last counted (:meth:`LoadPolicy.held`).
        fed: order of its last :meth:`LoadPolicy.fed` (ties of the unfinished-input limit).
        active: when its last complete message arrived or one of its requests ended (clock
            seconds).
        evicted: closed by the unfinished-input limit: its pending requests are not abandoned.
    """

    __slots__ = ("peer_key", "unfinished", "fed", "active", "evicted")

    def __init__(self, peer_key: Hashable, now: float) -> None:
        self.peer_key = peer_key
        self.unfinished = 0
        self.fed = 0
        self.active = now
        self.evicted = False


class LoadPolicy:
    """The limits of :data:`CREATE_LIMITS`, abandoning, idle time and unfinished input, and the
    counts they are checked against (module docstring). Numbers are counts of requests, bytes,
    and seconds of ``clock`` (monotonic; tests pass a fake one)."""

    def __init__(
        self,
        *,
        max_pending_per_connection: int = MAX_PENDING_PER_CONNECTION,
        max_pending_total: int = MAX_PENDING_TOTAL,
        max_pending_per_peer: int | None = None,
        max_abandoned_per_peer: int = MAX_ABANDONED_PER_PEER,
        abandon_window_s: float = ABANDON_WINDOW_S,
        max_unfinished_bytes: int = MAX_UNFINISHED_BYTES_TOTAL,
        clock: Callable[[], float] = time.monotonic,
        limits: tuple[CreateLimit, ...] | None = None,
    ):
        self.max_pending_per_connection = max_pending_per_connection
        self.max_pending_total = max_pending_total
        #: one process's share (``None`` given: half of ``max_pending_total``, at least 1)
        self.max_pending_per_peer = (
            max(1, max_pending_total // 2) if max_pending_per_peer is None else max_pending_per_peer
        )
        self.max_abandoned_per_peer = max_abandoned_per_peer
        self.abandon_window_s = abandon_window_s
        self.max_unfinished_bytes = max_unfinished_bytes
        self.clock = clock
        #: the refusal rows checked by :meth:`refusal` (default :data:`CREATE_LIMITS`)
        self.limits = CREATE_LIMITS if limits is None else limits
        #: peer key -> when its last (at most max_abandoned_per_peer) abandoned requests were abandoned
        self._abandoned: dict[Hashable, deque[float]] = {}
        self.unfinished_total = 0
        self._feeds = 0

    # -- refusing elicitation/create ----------------------------------------------------------
    def refusal(self, demand: Demand) -> Busy | None:
        """The first row of :attr:`limits` that ``demand`` is over, as the answer to give; None
        when the request may go on."""
        for row in self.limits:
            if row.over(self, demand):
                limit = row.limit(self)
                return Busy(row.message.format(limit=limit, window=self.abandon_window_s), limit, row.scope)
        return None

    def abandon(self, key: Hashable, count: int) -> None:
        """Record ``count`` requests of requester ``key`` abandoned now; forget stale records."""
        now = self.clock()
        for other in [k for k, q in self._abandoned.items() if now - q[-1] >= self.abandon_window_s]:
            del self._abandoned[other]
        times = self._abandoned.setdefault(key, deque(maxlen=max(1, self.max_abandoned_per_peer)))
        times.extend([now] * min(count, times.maxlen or count))

    def abandoning(self, key: Hashable) -> bool:
        """Whether requester ``key`` (a :attr:`ConnectionLoad.peer_key`) left at least
        ``max_abandoned_per_peer`` requests pending by closing within the last
        ``abandon_window_s`` seconds."""
        times = self._abandoned.get(key)
        return (
            times is not None
            and len(times) >= self.max_abandoned_per_peer
            and self.clock() - times[0] < self.abandon_window_s
        )

    # -- idle connections ---------------------------------------------------------------------
    def idle(self, load: ConnectionLoad, idle_s: float) -> bool:
        """Whether a connection with nothing pending has been idle for ``idle_s`` seconds."""
        return self.clock() - load.active >= idle_s

    def touch(self, load: ConnectionLoad) -> None:
        """A complete message arrived on the connection, or one of its requests ended."""
        load.active = self.clock()

    # -- unfinished input ---------------------------------------------------------------------
    def fed(self, load: ConnectionLoad) -> None:
        """Bytes arrived on the connection (its place in the order of feeds)."""
        self._feeds += 1
        load.fed = self._feeds

    def held(self, load: ConnectionLoad, unfinished: int) -> None:
        """The connection's unfinished line now holds ``unfinished`` bytes (0 once it closed)."""
        self.unfinished_total += unfinished - load.unfinished
        load.unfinished = unfinished

    def over_unfinished(self) -> bool:
        """Whether the unfinished lines of all connections hold more than ``max_unfinished_bytes``."""
        return self.unfinished_total > self.max_unfinished_bytes

    def largest(self, connections: Iterable[T], load_of: Callable[[T], ConnectionLoad]) -> T | None:
        """Of ``connections``, the one to drop over the unfinished-input limit: the largest
        unfinished line, of equal ones the one fed last; None when none holds a byte."""
        victim = max(connections, key=lambda c: (load_of(c).unfinished, load_of(c).fed), default=None)
        return None if victim is None or load_of(victim).unfinished == 0 else victim


#: The refusals of an ``elicitation/create`` under load, checked in this order (module
#: docstring: "Adding a refusal").
CREATE_LIMITS: tuple[CreateLimit, ...] = (
    CreateLimit(
        scope="connection",
        message=BUSY_MESSAGE + " ({limit} on this connection)",
        limit=lambda policy: policy.max_pending_per_connection,
        over=lambda policy, demand: demand.on_connection >= policy.max_pending_per_connection,
    ),
    CreateLimit(
        scope="process",
        message=BUSY_MESSAGE + " ({limit} from this process)",
        limit=lambda policy: policy.max_pending_per_peer,
        over=lambda policy, demand: demand.on_peer >= policy.max_pending_per_peer,
    ),
    CreateLimit(
        scope="total",
        message=BUSY_MESSAGE + " ({limit} in total)",
        limit=lambda policy: policy.max_pending_total,
        over=lambda policy, demand: demand.total >= policy.max_pending_total,
    ),
    CreateLimit(
        scope="abandoning",
        message=ABANDONING_MESSAGE + " ({limit} in {window:g} s from this process)",
        limit=lambda policy: policy.max_abandoned_per_peer,
        over=lambda policy, demand: policy.abandoning(demand.peer),
    ),
)
