"""Accepted URL elicitations waiting for their completion notice, each on the connection that
made it (no Qt): :class:`Completions`."""

from __future__ import annotations

import asyncio
import logging

from ..ipc import jsonrpc as rpc

__all__ = ["COMPLETION_HOLD_S", "Completions"]

#: How long an accepted URL elicitation's connection waits for its completion notice (seconds).
COMPLETION_HOLD_S = 1800.0
log = logging.getLogger(__name__)


class _Held:
    def __init__(self, writer: asyncio.StreamWriter, watcher: asyncio.Task[None]):
        self.writer, self.watcher = writer, watcher


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

    def __init__(self, hold_s: float = COMPLETION_HOLD_S):
        self.hold_s = hold_s
        self._held: dict[str, list[_Held]] = {}

    def waiting(self) -> list[str]:
        """The ``elicitationId`` of every held connection, oldest first per id."""
        return [eid for eid, held in self._held.items() for _ in held]

    def hold(self, elicitation_id: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Keep ``writer`` open for the notice of ``elicitation_id`` (for at most :attr:`hold_s`)."""
        entry: _Held | None = None

        async def watch() -> None:
            try:
                await asyncio.wait_for(self._drain(reader), self.hold_s)
            except asyncio.CancelledError:
                return  # complete() took the connection
            except (TimeoutError, OSError):
                pass
            self._forget(elicitation_id, entry)
            writer.close()

        entry = _Held(writer, asyncio.ensure_future(watch()))
        self._held.setdefault(elicitation_id, []).append(entry)

    @staticmethod
    async def _drain(reader: asyncio.StreamReader) -> None:
        while await reader.read(65536):
            pass

    def _forget(self, elicitation_id: str, entry: _Held | None) -> None:
        held = self._held.get(elicitation_id, [])
        if entry in held:
            held.remove(entry)
        if not held:
            self._held.pop(elicitation_id, None)

    def release(self, elicitation_id: str) -> bool:
        """Close the oldest connection waiting for ``elicitation_id`` without sending anything
        (the requester gave up waiting: the flow it belonged to ended). Returns False when no
        connection waits for that id. Raises nothing."""
        held = self._held.get(elicitation_id)
        if not held:
            return False
        entry = held[0]
        self._forget(elicitation_id, entry)
        entry.watcher.cancel()
        entry.writer.close()
        return True

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
        self._forget(elicitation_id, entry)
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
