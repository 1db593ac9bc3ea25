"""The dialog queue (issue 11 §1): at most MAX_SHOWN_DIALOGS on screen, the rest wait in order
without a window, listed in the tray menu, counted in the newest dialog; requests whose
requester is gone never get a window. Windows are counted by wrapping ``Presenter.build``."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel

from elicit_tray.request import Peer
from elicit_tray.ui.presenter import MAX_EXPIRED_ON_SCREEN, MAX_SHOWN_DIALOGS
from elicit_tray.ui.tray import Tray as TrayIcon
from tests import rpc
from tests.fakes import FakeChannel
from tests.ui.harness import Tray

CONFIRM = {"type": "object", "properties": {}}


def _plain(text: str) -> str:
    """``text`` without the bidi isolates around each run of server text (they show nothing)."""
    return text.translate({0x2066: None, 0x2068: None, 0x2069: None})


def ask(n: int) -> dict[str, Any]:
    return {
        "message": f"Question {n}?",
        "requestedSchema": CONFIRM,
        "_meta": {"elicit-tray/requester": {"serverName": f"s{n}"}},
    }


def counting(tray: Tray) -> list[str]:
    """The message of every dialog built from now on, in order."""
    built: list[str] = []
    build = tray.presenter.build

    def wrapped(request):
        built.append(request.message)
        return build(request)

    tray.presenter.build = wrapped  # type: ignore[method-assign]
    return built


def create(tray: Tray, channel: FakeChannel, n: int, request_id: Any = None) -> None:
    tray.send(channel, rpc.create(n if request_id is None else request_id, ask(n)))


def count_text(dialog) -> str | None:
    label = dialog.findChild(QLabel, "queue-count")
    return label.text() if label is not None and not label.isHidden() else None


def test_only_a_few_dialogs_are_shown_the_rest_wait_in_order_listed_in_the_tray_and_counted(aio):
    tray = Tray(aio)
    icon = TrayIcon(tray.presenter)
    built = counting(tray)
    channel = tray.connect()
    total = MAX_SHOWN_DIALOGS + 3
    for n in range(total):
        create(tray, channel, n)
    tray.settle()
    shown = [tray.dialog() for _ in range(MAX_SHOWN_DIALOGS)]
    tray.settle()
    assert built == [f"Question {n}?" for n in range(MAX_SHOWN_DIALOGS)]
    assert tray.shown.empty()
    assert [e.request.message for e in tray.presenter.waiting.values()] == [
        f"Question {n}?" for n in range(MAX_SHOWN_DIALOGS, total)
    ]
    # the newest shown dialog says how many wait; the others say nothing about it
    assert count_text(shown[-1]) == (
        "3 more requests are waiting. They open one by one as dialogs are "
        "answered, or choose one in the elicit-tray menu."
    )
    assert [count_text(d) for d in shown[:-1]] == [None] * (MAX_SHOWN_DIALOGS - 1)
    icon.rebuild()
    texts = [_plain(a.text()) for a in icon.menu.actions()]
    assert texts[: total + 1] == [f"{total} requests waiting"] + [
        f"“s{n}”: Question {n}?" for n in range(MAX_SHOWN_DIALOGS)
    ] + [f"“s{n}”: Question {n}? (not shown yet)" for n in range(MAX_SHOWN_DIALOGS, total)]
    assert icon.toolTip() == f"elicit-tray: {total} requests waiting"
    # an answer makes room: the oldest waiting one is shown, the count follows
    QTest.mouseClick(tray.arm(shown[0]).decline_button, Qt.MouseButton.LeftButton)
    assert tray.reply(channel) == {"jsonrpc": "2.0", "id": 0, "result": {"action": "decline"}}
    nxt = tray.dialog()
    assert nxt.request.message == f"Question {MAX_SHOWN_DIALOGS}?"
    assert count_text(nxt) == (
        "2 more requests are waiting. They open one by one as dialogs are answered, "
        "or choose one in the elicit-tray menu."
    )
    assert count_text(shown[-1]) is None
    # a waiting request cancelled by its requester is dropped without ever getting a window
    tray.send(channel, rpc.cancelled(MAX_SHOWN_DIALOGS + 1))
    tray.settle()
    assert count_text(nxt) == (
        "1 more request is waiting. It opens when a dialog is answered, or choose it in the elicit-tray menu."
    )
    # choosing the last waiting one in the tray menu shows it at once, over the limit
    icon.rebuild()
    last = next(
        a for a in icon.menu.actions() if _plain(a.text()) == f"“s{total - 1}”: Question {total - 1}? (not shown yet)"
    )
    last.trigger()
    chosen = tray.dialog()
    assert chosen.request.message == f"Question {total - 1}?" and len(tray.presenter.dialogs) == MAX_SHOWN_DIALOGS + 1
    assert tray.presenter.waiting == {} and count_text(chosen) is None
    assert built == [f"Question {n}?" for n in range(MAX_SHOWN_DIALOGS + 1)] + [f"Question {total - 1}?"]
    QTest.mouseClick(chosen.accept_button, Qt.MouseButton.LeftButton)
    assert tray.reply(channel) == {"jsonrpc": "2.0", "id": total - 1, "result": {"action": "accept", "content": {}}}
    tray.disconnect(channel)
    assert tray.presenter.dialogs == {} and tray.presenter.waiting == {}
    assert channel.sent == []
    assert len(built) == MAX_SHOWN_DIALOGS + 2  # the cancelled one never had a window


def test_requests_whose_requester_is_gone_get_no_window_and_ping_is_answered(aio):
    tray = Tray(aio)
    built = counting(tray)
    # the flood: connect, send 16, disconnect, 20 times; the requests are read after the peer closed
    for cycle in range(20):
        channel = FakeChannel(Peer(pid=7000 + cycle, uid=1000))
        tray.dispatcher.connection_made(channel)
        channel.gone = True
        tray.send(
            channel,
            b"".join(rpc.create_line(i, {"message": "flood", "requestedSchema": CONFIRM}) for i in range(16)),
        )
        tray.disconnect(channel)
        assert channel.sent == []
    # requests read while the peer was there, but it leaves before their turn
    channel = FakeChannel()
    tray.dispatcher.connection_made(channel)
    for n in range(MAX_SHOWN_DIALOGS + 4):
        create(tray, channel, n)
    first = [tray.run(tray.shown.get()) for _ in range(MAX_SHOWN_DIALOGS)]
    channel.gone = True
    QTest.mouseClick(tray.arm(first[0]).decline_button, Qt.MouseButton.LeftButton)
    tray.settle()
    assert len(tray.presenter.dialogs) == MAX_SHOWN_DIALOGS - 1  # the freed place stays empty
    assert tray.shown.empty()
    tray.disconnect(channel)
    assert all(d.expired for d in first[1:])
    assert built == [f"Question {n}?" for n in range(MAX_SHOWN_DIALOGS)]
    pinger = tray.connect()
    tray.send(pinger, rpc.request("p", "ping"))
    assert tray.reply(pinger) == {"jsonrpc": "2.0", "id": "p", "result": {}}
    assert tray.presenter.dialogs == {} and tray.presenter.waiting == {}


def test_expired_windows_on_screen_are_bounded_and_waiting_ones_expire_without_a_window(aio):
    tray = Tray(aio)
    built = counting(tray)
    expired = []
    for cycle in range(4):  # each requester waits until its dialogs are shown, then leaves
        channel = tray.connect(Peer(pid=8000 + cycle, uid=1000))
        for n in range(8):
            create(tray, channel, n)
        expired += [tray.run(tray.shown.get()) for _ in range(MAX_SHOWN_DIALOGS)]
        tray.disconnect(channel)
        assert channel.sent == []
    assert len(built) == 4 * MAX_SHOWN_DIALOGS  # the 3 waiting ones of each requester never got one
    on_screen = [d for d in expired if isValid(d) and d.isVisible()]
    assert len(on_screen) == MAX_EXPIRED_ON_SCREEN
    assert on_screen == expired[-MAX_EXPIRED_ON_SCREEN:] and all(d.expired for d in on_screen)


def test_dismiss_all_answers_cancel_for_waiting_requests_without_showing_them(aio):
    tray = Tray(aio)
    icon = TrayIcon(tray.presenter)
    built = counting(tray)
    channel = tray.connect()
    total = MAX_SHOWN_DIALOGS + 2
    for n in range(total):
        create(tray, channel, n)
    for _ in range(MAX_SHOWN_DIALOGS):
        tray.run(tray.shown.get())
    icon.rebuild()
    next(a for a in icon.menu.actions() if a.text().startswith("&Dismiss all")).trigger()
    replies = sorted((tray.reply(channel) for _ in range(total)), key=lambda m: m["id"])
    assert replies == [{"jsonrpc": "2.0", "id": n, "result": {"action": "cancel"}} for n in range(total)]
    tray.settle()
    assert len(built) == MAX_SHOWN_DIALOGS and tray.shown.empty()
    assert icon.toolTip() == "elicit-tray: no requests waiting"


def isValid(obj) -> bool:  # noqa: N802 - shiboken's name
    from shiboken6 import isValid as valid

    return valid(obj)


def test_the_waiting_note_gets_room_of_its_own_in_the_newest_dialog(aio):
    """Seven at once: the newest of the five on screen says two more wait, and it grew for the
    note instead of squeezing its header and field into it (a fresh-eyes test saw that)."""
    from PySide6.QtWidgets import QLabel

    tray = Tray(aio)
    channel = tray.connect()
    params = {
        "message": "How many?",
        "requestedSchema": {
            "type": "object",
            "properties": {"n": {"type": "integer", "title": "N", "minimum": 1, "maximum": 10}},
        },
    }
    for request_id in range(1, 8):
        tray.send(channel, {"jsonrpc": "2.0", "id": request_id, "method": "elicitation/create", "params": params})
    dialogs = [tray.run(tray.shown.get()) for _ in range(5)]
    newest = dialogs[-1]
    tray.arm(newest)
    note = newest.findChild(QLabel, "queue-count")
    assert note is not None and note.isVisible() and note.text().startswith("2 more requests are waiting.")
    note_top = note.mapTo(newest, note.rect().topLeft()).y()
    scroll_bottom = newest.scroll.mapTo(newest, newest.scroll.rect().bottomLeft()).y()
    assert scroll_bottom < note_top  # nothing of the form under the note
    assert newest.scroll.verticalScrollBar().maximum() == 0  # the form is not squeezed into scrolling
    assert newest.header_scroll.verticalScrollBar().maximum() == 0
    tray.disconnect(channel)


def test_the_room_for_the_waiting_note_goes_with_the_note(aio):
    """When the waiting requests have their windows, the note goes and so does the room it took
    (a fresh-eyes test saw a blank band where it had been)."""
    from PySide6.QtWidgets import QLabel

    from elicit_tray.ui.scripted import perform

    tray = Tray(aio)
    channel = tray.connect()
    params = {
        "message": "How many?",
        "requestedSchema": {"type": "object", "properties": {"n": {"type": "integer", "title": "N"}}},
    }
    for request_id in range(1, 7):
        tray.send(channel, {"jsonrpc": "2.0", "id": request_id, "method": "elicitation/create", "params": params})
    dialogs = [tray.run(tray.shown.get()) for _ in range(5)]
    newest = dialogs[-1]
    before = dialogs[0].height()  # a dialog like it, without the note
    note = newest.findChild(QLabel, "queue-count")
    assert note.isVisible() and newest.height() > before
    tray.arm(dialogs[0])
    perform(dialogs[0], [{"do": "escape"}])
    assert tray.reply(channel)["id"] == 1
    tray.run(tray.shown.get())  # the sixth gets its window: nothing waits any more
    assert note.isHidden()
    assert newest.height() == before
    tray.disconnect(channel)
