"""Accepted URL elicitations waiting for their completion notice, each on the connection that
made it, and the connections that hold a URL flow's window between its rounds (no Qt):
:class:`Completions`."""

from __future__ import annotations

import asyncio
import logging

from ..ipc import jsonrpc as rpc

__all__ = ["COMPLETION_HOLD_S", "FLOW_LINGER_S", "Completions"]

#: How long an accepted URL elicitation's connection waits for its completion notice (seconds).
COMPLETION_HOLD_S = 1800.0
#: How long the connection of an accepted round of a URL flow without an ``elicitationId``
#: stays open for the flow's next round (seconds): the flow's window stays that long at most
#: once the flow has ended (docs/design.md "URL flows over several rounds").
FLOW_LINGER_S = 5.0
log = logging.getLogger(__name__)


class _Held:
    def __init__(self, writer: asyncio.StreamWriter, eid: str | None, flow: str | None, owner: str | None):
        self.writer, self.eid, self.flow, self.owner = writer, eid, flow, owner
        self.watcher: asyncio.Task[None] | None = None


class Completions:
    """Accepted URL elicitations waiting for ``notifications/elicitation/complete`` (MCP
    2025-11-25), each holding open the connection that made it: the tray app takes the notice
    only from that connection (docs/design.md "IPC contract"), so that no other process can end a
    dialog's waiting.

    Give the same instance to :func:`elicit_tray.client.elicitation_callback` and
    :func:`elicit_tray.client.completion_forwarder`
    (both default to one shared per process). Two MCP sessions in one process whose servers
    might use the same ``elicitationId`` should each get their own instance; in a shared one,
    a notice goes to the oldest waiting connection with that id.

    Args:
        hold_s: how long a connection waits for its notice before it is closed (seconds); it is
            also closed when the tray app closes it.
    """

    def __init__(self, hold_s: float = COMPLETION_HOLD_S, linger_s: float = FLOW_LINGER_S):
        self.hold_s = hold_s
        self.linger_s = linger_s
        self._held: dict[str, list[_Held]] = {}
        self._flows: dict[str, list[_Held]] = {}
        self._owners: dict[str, list[_Held]] = {}

    def waiting(self) -> list[str]:
        """The ``elicitationId`` of every held connection, oldest first per id."""
        return [eid for eid, held in self._held.items() for _ in held]

    def flows(self) -> list[str]:
        """The flow of every connection held for a URL flow, oldest first per flow."""
        return [flow for flow, held in self._flows.items() for _ in held]

    def hold(
        self,
        elicitation_id: str | None,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        flow: str | None = None,
        owner: str | None = None,
    ) -> None:
        """Keep ``writer`` open for the notice of ``elicitation_id`` (for at most
        :attr:`hold_s`) and, with ``flow`` (``_meta["elicit-tray/flow"]``), for that flow's next
        round (:meth:`next_round`; without an ``elicitationId`` for at most :attr:`linger_s`):
        while it is open the tray keeps the flow's window. ``owner`` names what the round
        belongs to (wrap: the host request), for :meth:`release_owner`."""
        entry = _Held(writer, elicitation_id, flow, owner)
        limit = self.hold_s if elicitation_id is not None else self.linger_s

        async def watch() -> None:
            try:
                await asyncio.wait_for(self._drain(reader), limit)
            except asyncio.CancelledError:
                return  # complete() or next_round() took the connection
            except (TimeoutError, OSError):
                pass
            self._forget(entry)
            writer.close()

        entry.watcher = asyncio.ensure_future(watch())
        if elicitation_id is not None:
            self._held.setdefault(elicitation_id, []).append(entry)
        if flow is not None:
            self._flows.setdefault(flow, []).append(entry)
        if owner is not None:
            self._owners.setdefault(owner, []).append(entry)

    def next_round(self, flow: str) -> None:
        """A later round of ``flow`` was answered: the connections of its earlier rounds close
        (a completion notice for one of them is moot now; nothing is sent)."""
        for entry in list(self._flows.get(flow, [])):
            self._forget(entry)
            if entry.watcher is not None:
                entry.watcher.cancel()
            entry.writer.close()

    @staticmethod
    async def _drain(reader: asyncio.StreamReader) -> None:
        while await reader.read(65536):
            pass

    def _forget(self, entry: _Held) -> None:
        for table, name in ((self._held, entry.eid), (self._flows, entry.flow), (self._owners, entry.owner)):
            held = table.get(name, []) if name is not None else []
            if entry in held:
                held.remove(entry)
            if name is not None and not held:
                table.pop(name, None)

    def release(self, elicitation_id: str) -> bool:
        """Close the oldest connection waiting for ``elicitation_id`` without sending anything
        (the requester gave up waiting: the flow it belonged to ended). Returns False when no
        connection waits for that id. Raises nothing."""
        held = self._held.get(elicitation_id)
        if not held:
            return False
        entry = held[0]
        self._forget(entry)
        if entry.watcher is not None:
            entry.watcher.cancel()
        entry.writer.close()
        return True

    def release_owner(self, owner: str) -> int:
        """Close, without sending anything, every connection held for ``owner`` (what the rounds
        belonged to ended: the tray closes the flow's window at once instead of after
        :attr:`linger_s`). Returns how many were closed. Raises nothing."""
        held = list(self._owners.get(owner, []))
        for entry in held:
            self._forget(entry)
            if entry.watcher is not None:
                entry.watcher.cancel()
            entry.writer.close()
        return len(held)

    async def complete(self, elicitation_id: str) -> bool:
        """Send ``notifications/elicitation/complete`` on the connection that made
        ``elicitation_id`` (the oldest one waiting), then close it.

        Returns False when no connection waits for that id (unknown, already completed, timed
        out or closed by the tray app): nothing is sent then. Raises nothing (a write error is
        logged).
        """
        held = self._held.get(elicitation_id)
        if not held:
            return False
        entry = held[0]
        self._forget(entry)
        if entry.watcher is not None:
            entry.watcher.cancel()
        try:
            entry.writer.write(
                rpc.encode(rpc.notification("notifications/elicitation/complete", {"elicitationId": elicitation_id}))
            )
            await entry.writer.drain()
        except OSError as exc:
            log.warning("the completion of elicitation %r could not be sent: %s", elicitation_id, exc)
            return False
        finally:
            entry.writer.close()
        return True
