"""The one fake requester connection of the in-process tests.

:class:`FakeChannel` is what the dispatcher sees as a connection (``peer``, ``send``,
``close``, optional ``peer_gone``): it checks that every write is exactly one line, records
the decoded messages in :attr:`FakeChannel.sent`, and lets async tests wait for the next one.
Tests over a real socket use :class:`tests.integration.tray_process.Conn` instead.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from elicit_tray.request import Peer

#: The requester a fake connection speaks for unless a test names another.
DEFAULT_PEER = Peer(pid=4242, uid=1000, process_name="test-requester")


class FakeChannel:
    """A requester connection that records every line the tray app sends.

    - ``peer``: who the dispatcher thinks is on the other end (:data:`DEFAULT_PEER`).
    - ``closable=False``: the test expects the dispatcher never to close it (``close`` fails).
    - ``gone``: what the socket's poll would say (``peer_gone``); set it to play a requester
      that has already left.
    """

    def __init__(self, peer: Peer | None = None, *, closable: bool = True):
        self.peer = peer or DEFAULT_PEER
        self.sent: list[dict[str, Any]] = []
        self.closed = False
        self.gone = False
        self._closable = closable
        self._arrived: asyncio.Event | None = None

    def send(self, data: bytes) -> None:
        assert data.endswith(b"\n") and data.count(b"\n") == 1, data
        self.sent.append(json.loads(data))
        if self._arrived is not None:
            self._arrived.set()

    def close(self) -> None:
        if not self._closable:
            raise AssertionError("never closed here")
        self.closed = True

    def peer_gone(self) -> bool:
        return self.gone

    async def next_message(self) -> dict[str, Any]:
        """The oldest message not yet taken, waiting for one if none came yet."""
        if self._arrived is None:
            self._arrived = asyncio.Event()
        while not self.sent:
            self._arrived.clear()
            await self._arrived.wait()
        return self.sent.pop(0)
