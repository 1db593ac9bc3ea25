"""A URL dialog's waiting state ends only on the completion notice of the connection that made
it (issue 10 §2; DESIGN.md "IPC contract"): the real dispatcher, presenter and URL dialogs,
two requesters using the same ``elicitationId``, and a third connection that tries to close
theirs."""

from __future__ import annotations

from shiboken6 import isValid

from .harness import Tray

URL = {"mode": "url", "elicitationId": "e-1", "message": "Connect", "url": "https://auth.example.com/x"}


def _complete(tray: Tray, channel: object, eid: str) -> None:
    tray.send(
        channel,
        {
            "jsonrpc": "2.0",
            "method": "notifications/elicitation/complete",  # type: ignore[arg-type]
            "params": {"elicitationId": eid},
        },
    )
    tray.settle()


def test_each_requesters_notice_completes_only_its_own_dialog_and_a_stranger_completes_none(aio, qtbot):
    tray = Tray(aio)
    first, first_dialog = tray.ask(URL, [{"do": "open"}])
    assert tray.reply(first)["result"] == {"action": "accept"}
    second, second_dialog = tray.ask(URL, [{"do": "open"}])  # the same elicitationId, another connection
    assert tray.reply(second)["result"] == {"action": "accept"}
    assert first_dialog.waiting and second_dialog.waiting

    stranger = tray.connect()
    _complete(tray, stranger, "e-1")
    assert first_dialog.waiting and second_dialog.waiting  # another connection's notice is ignored

    _complete(tray, second, "e-1")
    assert second_dialog.waiting is False
    assert first_dialog.waiting is True  # untouched by the other requester's notice
    qtbot.waitUntil(lambda: not isValid(second_dialog), timeout=5000)
    assert isValid(first_dialog) and first_dialog.isVisible()

    _complete(tray, first, "e-1")
    assert first_dialog.waiting is False
    qtbot.waitUntil(lambda: not isValid(first_dialog), timeout=5000)
    assert (first.sent, second.sent, stranger.sent) == ([], [], [])
