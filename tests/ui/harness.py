"""In-process harness: the real dispatcher, presenter and dialogs, over a fake connection.

A request goes in as the exact bytes a requester writes; what comes back is the exact JSON
the tray app writes. Dialogs are operated by the scripted user with real key/mouse events.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from elicit_tray.ipc.protocol import Dispatcher
from elicit_tray.request import Peer
from elicit_tray.ui.base import ElicitationDialog
from elicit_tray.ui.presenter import Presenter
from elicit_tray.ui.scripted import perform
from tests.fakes import FakeChannel

TIMEOUT_S = 10


class Browser:
    """A stand-in for the system browser: records what Open asked it to open."""

    def __init__(self, works: bool = True):
        self.opened: list[str] = []
        self.works = works

    def __call__(self, href: str) -> bool:
        self.opened.append(href)
        return self.works


class Tray:
    """The real dispatcher + presenter with ``arm_delay_ms`` (0 unless a test needs arming)."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        *,
        arm_delay_ms: int = 0,
        browser: Browser | None = None,
        timeout_s: int = 0,
    ):
        self.loop = loop
        self.browser = browser or Browser()
        self.shown: asyncio.Queue[ElicitationDialog] = asyncio.Queue()
        self.presenter = Presenter(
            opener=self.browser, arm_delay_ms=arm_delay_ms, on_shown=self.shown.put_nowait, timeout_s=timeout_s
        )
        self.dispatcher = Dispatcher(self.presenter, "test")

    def connect(self, peer: Peer | None = None) -> FakeChannel:
        channel = FakeChannel(peer)
        self.dispatcher.connection_made(channel)
        return channel

    def send(self, channel: FakeChannel, message: dict[str, Any] | bytes) -> None:
        data = message if isinstance(message, bytes) else json.dumps(message).encode() + b"\n"
        self.dispatcher.data_received(channel, data)

    def disconnect(self, channel: FakeChannel) -> None:
        """The requester goes away; let the expiry run to its end."""
        self.dispatcher.connection_lost(channel)
        self.settle()

    def run(self, awaitable: Any) -> Any:
        return self.loop.run_until_complete(asyncio.wait_for(awaitable, TIMEOUT_S))

    def dialog(self) -> ElicitationDialog:
        """The next dialog shown, once the user has gone to it (activated) and it is armed."""
        dialog = self.run(self.shown.get())
        return self.arm(dialog)

    def arm(self, dialog: ElicitationDialog) -> ElicitationDialog:
        """The user goes to ``dialog`` by an act (as from the tray menu: engaged when active)
        and it is armed."""
        dialog.arming.welcome()
        if not dialog.isActiveWindow():
            dialog.activateWindow()
        if not dialog.is_armed:
            armed = self.loop.create_future()
            dialog.armed.connect(lambda: armed.done() or armed.set_result(True))
            self.run(armed)
        return dialog

    def reply(self, channel: FakeChannel) -> dict[str, Any]:
        return self.run(channel.next_message())

    def settle(self) -> None:
        """Let every queued event and callback run (a zero-length turn of both loops)."""
        self.run(asyncio.sleep(0))
        self.run(asyncio.sleep(0))

    def ask(
        self,
        params: dict[str, Any],
        steps: list[dict[str, Any]],
        request_id: int = 1,
    ) -> tuple[FakeChannel, ElicitationDialog]:
        """Send ``elicitation/create``, wait for the dialog, perform ``steps`` on it."""
        channel = self.connect()
        self.send(channel, {"jsonrpc": "2.0", "id": request_id, "method": "elicitation/create", "params": params})
        dialog = self.dialog()
        perform(dialog, steps)
        return channel, dialog


def shown_texts(dialog: ElicitationDialog) -> str:
    """Every text the dialog displays (labels, buttons, the URL box), joined by newlines."""
    from PySide6.QtWidgets import QAbstractButton, QLabel, QPlainTextEdit

    texts = [w.text() for w in dialog.findChildren(QLabel) if w.isVisible()]
    texts += [w.text() for w in dialog.findChildren(QAbstractButton) if w.isVisible()]
    texts += [w.toPlainText() for w in dialog.findChildren(QPlainTextEdit) if w.isVisible()]
    return "\n".join(texts)
