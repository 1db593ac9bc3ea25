"""A URL flow over several rounds is one flow for the user (docs/design.md "URL flows over
several rounds"): the real dispatcher, presenter and dialogs over fake connections, each round
on a connection of its own as the requesters make them, the rounds marked with the same
``_meta["elicit-tray/flow"]``. Both eras: without ``elicitationId`` (2026-07-28) and with a new
one each round (2025-11-25)."""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtWidgets import QApplication
from shiboken6 import isValid

from elicit_tray.ui.base import ElicitationDialog
from elicit_tray.ui.scripted import perform
from elicit_tray.ui.url_dialog import UrlDialog
from elicit_tray.ui.url_wait import UrlWaitDialog

from .harness import Tray

URL = "https://auth.example.com/link?step=1"
OTHER = "https://auth.example.com/link?step=2"
ACCEPT = {"action": "accept"}
NOT_DONE = (
    "The server says you have not finished yet. Finish in your browser, then choose "
    "“I have finished, check again”. Cancel stops."
)


def url_round(url: str = URL, *, flow: str | None = "flow-1", eid: str | None = None) -> dict[str, Any]:
    params: dict[str, Any] = {"mode": "url", "message": "Link your account.", "url": url}
    if eid is not None:
        params["elicitationId"] = eid
    if flow is not None:
        params["_meta"] = {"elicit-tray/flow": flow}
    return params


def windows() -> list[ElicitationDialog]:
    """The dialogs on screen now."""
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, ElicitationDialog) and w.isVisible()]


def ask(tray: Tray, params: dict[str, Any], request_id: int = 1) -> Any:
    channel = tray.connect()
    tray.send(channel, {"jsonrpc": "2.0", "id": request_id, "method": "elicitation/create", "params": params})
    return channel


def complete(tray: Tray, channel: Any, eid: str) -> None:
    tray.send(
        channel, {"jsonrpc": "2.0", "method": "notifications/elicitation/complete", "params": {"elicitationId": eid}}
    )
    tray.settle()


def test_rounds_of_one_flow_ask_consent_once_and_wait_in_one_window_for_the_user(aio, qtbot):
    tray = Tray(aio)
    first = ask(tray, url_round())
    consent = tray.dialog()
    assert isinstance(consent, UrlDialog)
    perform(consent, [{"do": "open"}])
    assert tray.reply(first) == {"jsonrpc": "2.0", "id": 1, "result": ACCEPT}
    tray.settle()
    assert windows() == []  # 2026: no elicitationId, nothing to wait for until the server asks again

    held = [first]
    waiting = None
    for round_number in (2, 3, 4):
        channel = ask(tray, url_round(), request_id=round_number)
        dialog = tray.dialog()
        assert isinstance(dialog, UrlWaitDialog)
        assert waiting is None or dialog is waiting  # one window for every round
        waiting = dialog
        assert windows() == [dialog]
        assert dialog.status_label.text() == NOT_DONE
        assert dialog.findChild(type(dialog.check_button), "check-again").text() == "I have &finished, check again"
        tray.settle()
        assert channel.sent == []  # no retry until the user asks for it
        assert (tray.presenter.pending_count(), list(tray.presenter.dialogs.values())) == (1, [dialog])  # tray menu
        perform(dialog, [{"do": "finished"}])
        assert tray.reply(channel) == {"jsonrpc": "2.0", "id": round_number, "result": ACCEPT}
        tray.disconnect(held.pop())  # the requester lets the earlier round's connection go
        held.append(channel)
        assert windows() == [dialog]  # the answered round holds the window until the next one
        assert (tray.presenter.pending_count(), tray.presenter.dialogs) == (0, {})
    assert tray.browser.opened == [URL]  # the browser opened once, on the consent
    assert waiting is not None and waiting.rounds == 3

    tray.disconnect(held.pop())  # the requester is gone: nothing of the flow stays
    assert windows() == []
    qtbot.waitUntil(lambda: not isValid(waiting), timeout=5000)


def test_open_again_opens_only_when_asked_and_a_new_url_asks_for_consent_again(aio, qtbot):
    tray = Tray(aio)
    first = ask(tray, url_round())
    perform(tray.dialog(), [{"do": "open"}])
    assert tray.reply(first)["result"] == ACCEPT
    second = ask(tray, url_round(), request_id=2)
    waiting = tray.dialog()
    assert isinstance(waiting, UrlWaitDialog) and tray.browser.opened == [URL]
    perform(waiting, [{"do": "open-again"}])
    assert (tray.browser.opened, second.sent, waiting.pending) == ([URL, URL], [], True)
    perform(waiting, [{"do": "finished"}])
    assert tray.reply(second)["result"] == ACCEPT

    third = ask(tray, url_round(OTHER), request_id=3)  # the server moved on to another address
    consent = tray.dialog()
    assert isinstance(consent, UrlDialog) and consent.request.url == OTHER
    assert windows() == [consent]  # the old address's window went
    perform(consent, [{"do": "open"}])
    assert tray.reply(third)["result"] == ACCEPT
    assert tray.browser.opened == [URL, URL, OTHER]
    for channel in (first, second, third):
        tray.disconnect(channel)
    assert windows() == []


def test_cancel_in_the_waiting_window_ends_the_flow_and_the_next_request_asks_for_consent(aio, qtbot):
    tray = Tray(aio)
    first = ask(tray, url_round())
    perform(tray.dialog(), [{"do": "open"}])
    assert tray.reply(first)["result"] == ACCEPT
    second = ask(tray, url_round(), request_id=2)
    perform(tray.dialog(), [{"do": "cancel"}])
    assert tray.reply(second) == {"jsonrpc": "2.0", "id": 2, "result": {"action": "cancel"}}
    tray.settle()
    assert windows() == []
    third = ask(tray, url_round(), request_id=3)
    assert isinstance(tray.dialog(), UrlDialog)  # consent again
    tray.disconnect(third)
    tray.disconnect(first)
    tray.disconnect(second)


def test_2025_rounds_wait_in_one_window_and_a_completion_notice_sends_the_retry(aio, qtbot):
    tray = Tray(aio)
    first = ask(tray, url_round(eid="e-1"))
    perform(tray.dialog(), [{"do": "open"}])
    assert tray.reply(first)["result"] == ACCEPT
    tray.settle()
    [waiting] = windows()  # the flow's window waits for the server's notice
    assert isinstance(waiting, UrlWaitDialog) and not waiting.pending

    second = ask(tray, url_round(eid="e-2"), request_id=2)
    assert tray.dialog() is waiting and waiting.pending
    tray.settle()
    assert second.sent == []
    complete(tray, first, "e-1")  # the server says the step is done: the retry goes out
    assert tray.reply(second) == {"jsonrpc": "2.0", "id": 2, "result": ACCEPT}
    assert windows() == [waiting]
    complete(tray, second, "e-2")  # the last round confirmed: the window says so and closes
    assert waiting.status_label.text() == "The server confirmed that you have finished. This window closes by itself."
    qtbot.waitUntil(lambda: not isValid(waiting), timeout=5000)
    assert (tray.browser.opened, windows()) == ([URL], [])


def test_requester_gone_while_a_round_waits_leaves_no_window(aio, qtbot):
    tray = Tray(aio)
    first = ask(tray, url_round(eid="e-1"))
    perform(tray.dialog(), [{"do": "open"}])
    assert tray.reply(first)["result"] == ACCEPT
    second = ask(tray, url_round(eid="e-2"), request_id=2)
    waiting = tray.dialog()
    tray.disconnect(second)
    tray.disconnect(first)
    assert windows() == []
    qtbot.waitUntil(lambda: not isValid(waiting), timeout=5000)
    assert (first.sent, second.sent) == ([], [])


def test_a_waiting_window_without_flow_closes_when_its_requester_goes(aio, qtbot):
    """An old requester (no flow): its accepted 2025 URL dialog waits for the notice, but no
    longer than its connection lives."""
    tray = Tray(aio)
    first = ask(tray, url_round(flow=None, eid="e-1"))
    dialog = tray.dialog()
    perform(dialog, [{"do": "open"}])
    assert tray.reply(first)["result"] == ACCEPT
    tray.settle()
    assert windows() == [dialog] and dialog.waiting
    tray.disconnect(first)
    assert windows() == []


def test_each_round_arms_again_so_an_act_for_one_round_cannot_answer_the_next(aio, qtbot):
    tray = Tray(aio, arm_delay_ms=400)
    first = ask(tray, url_round())
    perform(tray.dialog(), [{"do": "open"}])
    assert tray.reply(first)["result"] == ACCEPT
    second = ask(tray, url_round(), request_id=2)
    waiting = tray.dialog()
    perform(waiting, [{"do": "finished"}])
    assert tray.reply(second)["result"] == ACCEPT
    third = ask(tray, url_round(), request_id=3)

    async def round_begins() -> None:
        while not waiting.pending:
            await asyncio.sleep(0.02)  # bounded poll (tray.run's timeout) until round 3 reached the window

    tray.run(round_begins())
    assert (waiting.is_armed, waiting.check_button.isEnabled()) == (False, False)
    waiting.check_button.click()  # a second click of the same act, before the new round armed
    tray.settle()
    assert third.sent == []
    tray.arm(waiting)
    perform(waiting, [{"do": "finished"}])
    assert tray.reply(third)["result"] == ACCEPT
    for channel in (first, second, third):
        tray.disconnect(channel)
    assert windows() == []
