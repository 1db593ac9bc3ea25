"""The tray with its real dialogs while another process (:class:`tests.lock_holder.LockHolder`)
holds the history database's lock: requests and pings are answered while the lock is held and
the decision is in the history once it lets go; the History window says the database is locked
and shows the rows when it can read them again."""

from __future__ import annotations

from typing import Any

from elicit_tray.history import History, Recorder
from elicit_tray.ipc.protocol import Dispatcher
from elicit_tray.ui.history_window import HistoryWindow, locked_message
from tests import rpc
from tests.lock_holder import LockHolder
from tests.ui.harness import Tray

PARAMS = {
    "message": "Deploy web?",
    "requestedSchema": {
        "type": "object",
        "properties": {"env": {"type": "string", "title": "Environment", "enum": ["stg", "prd"], "default": "prd"}},
    },
    "_meta": {"elicit-tray/requester": {"serverName": "deployer"}},
}


def recorded_tray(aio: Any, recorder: Recorder) -> Tray:
    """The harness's tray wired to ``recorder`` as the app wires it (app.py)."""
    tray = Tray(aio)
    tray.presenter.on_shown = recorder.on_shown(tray.presenter.on_shown)
    tray.dispatcher = Dispatcher(recorder.watch(tray.presenter), "test", journal=recorder)  # type: ignore[arg-type]
    return tray


def test_the_tray_answers_requests_and_pings_while_the_lock_is_held_and_records_the_decision_after(
    aio, qtbot, tmp_path
):
    history = History(tmp_path / "h.sqlite3")
    recorder = Recorder(None, history)
    tray = recorded_tray(aio, recorder)
    holder = LockHolder(tmp_path / "h.sqlite3")
    channel, _dialog = tray.ask(PARAMS, [{"do": "submit"}])
    assert tray.reply(channel) == rpc.result(1, {"action": "accept", "content": {"env": "prd"}})
    pinger = tray.connect()
    tray.send(pinger, rpc.ping_line(2))
    assert tray.reply(pinger) == rpc.pong(2)
    assert holder.holding  # both answers came while the other process holds the lock
    assert history.rows() == []  # readable under the write lock: nothing written yet
    holder.release()
    assert recorder.flush(30)
    (got,) = history.rows()
    assert (got["outcome"], got["server"], got["message"], got["fields"], got["request_id"]) == (
        "accept",
        "deployer",
        "Deploy web?",
        [{"name": "env", "title": "Environment", "secret": False, "value": "prd"}],
        1,
    )
    assert got["shown"] is not None and got["answered"] is not None
    recorder.close()


def test_the_history_window_says_the_database_is_locked_and_reads_it_again_when_it_can(qtbot, tmp_path):
    path = tmp_path / "h.sqlite3"
    first = History(path)
    for number in range(3):
        first.insert(received=1_790_000_000.0 + number, outcome="accept", server="s", message=f"m{number}")
    first.close()
    holder = LockHolder(path, "all")  # the whole file: not even a read
    history = History(path)
    window = HistoryWindow(history, confirm=lambda _question: True)
    qtbot.addWidget(window)
    window.show()
    assert (window.count.text(), window.model.rowCount()) == (locked_message(), 0)
    assert locked_message() == "The history is locked by another program; it is read again in a moment."
    holder.release()
    qtbot.waitUntil(lambda: window.model.rowCount() == 3, timeout=10_000)  # the window's retry read it
    assert window.count.text() == "3 decisions"

    with LockHolder(path):  # the write lock: reading works, Clear history cannot delete
        assert window.clear() == 0
        assert (window.count.text(), window.model.rowCount()) == (locked_message(), 3)
    assert window.clear() == 3 and window.count.text() == "0 decisions"
    history.close()
