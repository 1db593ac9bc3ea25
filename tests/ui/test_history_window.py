"""The History window over a real history database: the table's exact cells, the filters,
the detail pane, export (JSON and CSV), Clear history, following new rows, keyboard order and
accessible names; the tray menu's "History…" and "Settings…"."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from elicit_tray.elicitation import parse_elicit_params
from elicit_tray.history import History, Privacy, Recorder
from elicit_tray.request import Accepted, Cancelled, Declined, Peer
from elicit_tray.ui.history_window import HistoryWindow

T0 = 1_790_000_000.0  # 2026-09-21T14:13:20Z

_DEPLOY = {
    "type": "object",
    "properties": {
        "environment": {
            "type": "string",
            "title": "Environment",
            "oneOf": [{"const": "stg", "title": "Staging"}, {"const": "prd", "title": "Production"}],
        },
        "notify": {"type": "boolean", "title": "Notify the team"},
    },
    "required": ["environment"],
}
_BOOK = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Traveller"},
        "seats": {"type": "integer", "title": "Seats"},
        "card_number": {"type": "string", "title": "Card number"},
    },
}
_DELETE = {"type": "object", "properties": {"confirm": {"type": "string", "title": "Type the project name"}}}
_FEEDBACK = {"type": "object", "properties": {"comment": {"type": "string", "title": "Comment"}}}


def _form(server: str, message: str, schema: dict[str, Any], title: str | None = None) -> dict[str, Any]:
    who: dict[str, Any] = {"serverName": server, "clientName": "agent-runner"}
    if title:
        who["serverTitle"] = title
    return {"message": message, "requestedSchema": schema, "_meta": {"elicit-tray/requester": who}}


def _url(server: str, message: str, url: str) -> dict[str, Any]:
    return {
        "mode": "url",
        "message": message,
        "url": url,
        "elicitationId": "e",
        "_meta": {"elicit-tray/requester": {"serverName": server, "clientName": "agent-runner"}},
    }


#: 20 mixed decisions: (params, outcome, seconds the user took).
DECISIONS: list[tuple[dict[str, Any], Any, float]] = [
    (
        _form("deployer", "Deploy web to which environment?", _DEPLOY, "Deployer"),
        Accepted({"environment": "stg", "notify": True}),
        4,
    ),
    (
        _form("deployer", "Deploy api to which environment?", _DEPLOY, "Deployer"),
        Accepted({"environment": "prd", "notify": False}),
        9,
    ),
    (
        _form("travel", "Confirm the booking for 2 people on 2026-10-02?", _BOOK),
        Accepted({"name": "Ada Lovelace", "seats": 2, "card_number": "4111 1111 1111 1111"}),
        21,
    ),
    (_form("projects", "Delete the project 'atlas'? Type its name to confirm.", _DELETE), Declined(), 3),
    (
        _url(
            "github", "Connect your GitHub account", "https://github.com/login/oauth/authorize?client_id=abc&state=xyz"
        ),
        Accepted(None),
        6,
    ),
    (_form("feedback", "How was the last answer?", _FEEDBACK), Cancelled("escape"), 2),
    (_form("deployer", "Roll back web to yesterday's release?", _DEPLOY, "Deployer"), Declined(), 5),
    (
        _url("payments", "Approve the payment of 12.50 EUR", "https://pay.example.com/approve/8f3a9c?amount=1250"),
        Declined(),
        11,
    ),
    (_form("travel", "Book a taxi to the airport, 06:30?", _BOOK), Cancelled("timeout"), 60),
    (_url("drive", "Open the shared folder", "https://xn--dive-9ra.example/folder/q3"), Cancelled("button"), 8),
    (_form("projects", "Archive the project 'borealis'?", _DELETE), Accepted({"confirm": "borealis"}), 7),
    (
        _form("feedback", 'Rate the summary, comma, "quotes" and all', _FEEDBACK),
        Accepted({"comment": 'Good, but "long"\nsecond line'}),
        14,
    ),
    (_form("deployer", "Deploy worker to which environment?", _DEPLOY, "Deployer"), Cancelled("tray"), 30),
    (_url("calendar", "Grant calendar access", "http://calendar.example.org/grant"), Accepted(None), 5),
    (_form("travel", "Change the seat to 14C?", _BOOK), Cancelled("close"), 4),
    (_form("projects", "Delete the branch 'old-ui'?", _DELETE), Accepted({"confirm": "old-ui"}), 3),
    (_url("github", "Re-authorise the GitHub app", "https://github.com/apps/mcp/installations/new"), Declined(), 2),
    (_form("deployer", "Deploy docs to which environment?", _DEPLOY, "Deployer"), Accepted({"environment": "prd"}), 6),
    (_form("feedback", "Anything else?", _FEEDBACK), Declined(), 1),
    (_form("travel", "Add travel insurance for 19 EUR?", _BOOK), None, 0),  # still waiting
]


class Clock:
    def __init__(self, start: float) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


def fill(history: History, decisions: list[tuple[dict[str, Any], Any, float]] = DECISIONS) -> Recorder:
    """Record ``decisions`` through a :class:`Recorder` one every 40 minutes from ``T0``, as
    the dispatcher would (arrival, shown, end), with free text kept (the window shows every kind
    of kept value); returns the recorder."""
    clock = Clock(T0)
    history.clock = clock
    recorder = Recorder(None, history, privacy=Privacy(text=True), clock=clock)
    peer = Peer(pid=31337, uid=1000, process_name="agent-runner", executable="/usr/bin/agent-runner")
    for number, (params, outcome, took) in enumerate(decisions):
        clock.now = T0 + number * 2400
        request = parse_elicit_params(params, peer)
        recorder.arrived(request)
        clock.now += 0.25
        recorder.shown(request.key)
        if outcome is None:
            continue
        clock.now += took
        kind = {Accepted: "accept", Declined: "decline"}.get(type(outcome)) or f"cancel-{outcome.how}"
        extra: dict[str, Any] = {}
        if isinstance(outcome, Accepted) and outcome.content is not None:
            extra = {"fields": sorted(outcome.content), "content": outcome.content}
        recorder.record("elicitation", id=number + 1, key=request.key, outcome=kind, **extra)
    assert recorder.flush(30)  # the writer thread has written every row
    return recorder


@pytest.fixture
def window(tmp_path, qtbot, monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    import time

    time.tzset()
    history = History(tmp_path / "h.sqlite3")
    recorder = fill(history)
    saved: dict[str, Any] = {"path": "", "confirm": True}
    win = HistoryWindow(history, recorder, ask_path=lambda *_: saved["path"], confirm=lambda _q: saved["confirm"])
    qtbot.addWidget(win)
    win.saved = saved  # type: ignore[attr-defined]
    win.show()
    yield win
    monkeypatch.delenv("TZ")
    time.tzset()


def plain(text: str) -> str:
    """``text`` without the bidi isolates around each run of server text (they show nothing)."""
    return text.translate({0x2066: None, 0x2068: None, 0x2069: None})


def cells(win: HistoryWindow) -> list[list[str]]:
    """The table's cells as shown (isolates dropped: :func:`plain`)."""
    model = win.model
    return [[plain(model.index(r, c).data()) for c in range(model.columnCount())] for r in range(model.rowCount())]


def test_the_table_lists_every_decision_newest_first_with_exact_cells(window):
    rows = cells(window)
    assert len(rows) == 20 and window.count.text() == "20 decisions"
    assert rows[:4] == [
        [
            "2026-09-22 02:53",
            "“travel”",
            "/usr/bin/agent-runner (pid 31337)",
            "form",
            "Waiting for an answer",
            "Add travel insurance for 19 EUR?",
        ],
        ["2026-09-22 02:13", "“feedback”", "/usr/bin/agent-runner (pid 31337)", "form", "Declined", "Anything else?"],
        [
            "2026-09-22 01:33",
            "“Deployer”",
            "/usr/bin/agent-runner (pid 31337)",
            "form",
            "Accepted",
            "Deploy docs to which environment?",
        ],
        [
            "2026-09-22 00:53",
            "“github”",
            "/usr/bin/agent-runner (pid 31337)",
            "URL",
            "Declined",
            "Re-authorise the GitHub app",
        ],
    ]
    assert rows[-1] == [
        "2026-09-21 14:13",
        "“Deployer”",
        "/usr/bin/agent-runner (pid 31337)",
        "form",
        "Accepted",
        "Deploy web to which environment?",
    ]


def test_the_detail_pane_shows_everything_kept_and_never_a_secret(window):
    row = next(i for i, r in enumerate(window.model.rows) if r["message"].startswith("Confirm the booking"))
    window.table.selectRow(row)
    assert plain(window.details.toPlainText()) == "\n".join(
        [
            "Outcome: Accepted (accept)",
            "Received: 2026-09-21 15:33:20",
            "Shown: 2026-09-21 15:33:20",
            "Answered: 2026-09-21 15:33:41",
            "Duration: 21.2 s",
            "Server (self-reported): “travel”",  # what the requester says: quoted
            "Client (self-reported): “agent-runner”",
            "Process: /usr/bin/agent-runner (pid 31337)",  # what the OS reported: not quoted
            "Process id: 31337",
            "Executable: /usr/bin/agent-runner",
            "User id: 1000",
            "Mode: form",
            "Message: Confirm the booking for 2 people on 2026-10-02?",
            "Field Traveller: Ada Lovelace",
            "Field Seats: 2",
            "Field Card number: (looks like a secret: never kept)",
        ]
    )
    url_row = next(i for i, r in enumerate(window.model.rows) if r["message"] == "Connect your GitHub account")
    window.table.selectRow(url_row)
    text = window.details.toPlainText()
    assert "Address: https://github.com/login/oauth/authorize\n" in text and "client_id" not in text
    assert "Address check: ok" in text


def test_filters_by_server_outcome_search_and_period(window):
    window.server.setCurrentIndex(window.server.findData("deployer"))
    assert [r[4] for r in cells(window)] == [
        "Accepted",
        "Cancelled (from the tray)",
        "Declined",
        "Accepted",
        "Accepted",
    ]
    window.outcome.setCurrentIndex(window.outcome.findData("accept"))
    assert [r[5] for r in cells(window)] == [
        "Deploy docs to which environment?",
        "Deploy api to which environment?",
        "Deploy web to which environment?",
    ]
    window.server.setCurrentIndex(0)
    window.outcome.setCurrentIndex(window.outcome.findData("cancel-"))
    assert [r[4] for r in cells(window)] == [
        "Cancelled (window closed)",
        "Cancelled (from the tray)",
        "Cancelled (button)",
        "Cancelled (timeout)",
        "Cancelled (Escape)",
    ]
    window.outcome.setCurrentIndex(0)
    QTest.keyClicks(window.search, "github")
    assert [r[5] for r in cells(window)] == ["Re-authorise the GitHub app", "Connect your GitHub account"]
    window.search.clear()
    QTest.keyClicks(window.search, "ada lovelace")  # a kept value is searchable
    assert [r[5] for r in cells(window)] == ["Confirm the booking for 2 people on 2026-10-02?"]
    window.search.clear()
    window.period.setCurrentIndex(window.period.findData(7))  # T0 is in 2026: nothing this week
    assert cells(window) == [] and window.count.text() == "0 decisions" and window.details.toPlainText() == ""


def test_export_writes_the_rows_shown_as_json_and_csv_with_a_comma_a_quote_and_a_newline(window, tmp_path):
    QTest.keyClicks(window.search, "Rate the summary")
    window.saved["path"] = str(tmp_path / "out.json")
    assert window.export("json") == tmp_path / "out.json"
    (item,) = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert (item["message"], item["fields"], item["outcome"]) == (
        'Rate the summary, comma, "quotes" and all',
        [{"name": "comment", "title": "Comment", "secret": False, "value": 'Good, but "long"\nsecond line'}],
        "accept",
    )
    assert oct((tmp_path / "out.json").stat().st_mode & 0o777) == "0o600"
    window.saved["path"] = str(tmp_path / "out.csv")
    window.export_csv_button.click()
    raw = (tmp_path / "out.csv").read_bytes().decode("utf-8")
    assert '"Rate the summary, comma, ""quotes"" and all"' in raw
    header, record = list(csv.reader(io.StringIO(raw, newline="")))
    got = dict(zip(header, record, strict=True))
    assert (got["message"], json.loads(got["fields"])[0]["value"], got["server"]) == (
        'Rate the summary, comma, "quotes" and all',
        'Good, but "long"\nsecond line',
        "feedback",
    )
    window.saved["path"] = ""
    assert window.export("csv") is None  # the user chose no file


def test_clear_history_asks_first_and_keeps_the_waiting_request(window):
    window.saved["confirm"] = False
    assert window.clear() == 0 and window.model.rowCount() == 20
    window.saved["confirm"] = True
    window.clear_button.click()
    assert [r[4] for r in cells(window)] == ["Waiting for an answer"]


def test_new_decisions_appear_while_the_window_is_open(window, qtbot):
    recorder = window.recorder
    request = parse_elicit_params(_form("late", "One more?", _FEEDBACK), Peer(pid=5))
    recorder.clock.now = T0 + 100_000
    recorder.arrived(request)  # written on the writer's thread, which tells the window
    qtbot.waitUntil(lambda: cells(window)[0][1] == "“late”", timeout=10_000)
    assert cells(window)[0][:2] == ["2026-09-22 18:00", "“late”"]
    assert cells(window)[0][4] == "Waiting for an answer"
    recorder.record("elicitation", id=99, key=request.key, outcome="cancel-escape")
    qtbot.waitUntil(lambda: cells(window)[0][4] == "Cancelled (Escape)", timeout=10_000)


def test_keyboard_order_mnemonics_and_accessible_names(window, qtbot):
    window.activateWindow()
    window.search.setFocus()
    order = [QApplication.focusWidget()]
    for _ in range(9):  # real Tab presses, as a keyboard user walks the window
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        order.append(QApplication.focusWidget())
    assert [w.accessibleName() or w.text().replace("&", "") for w in order] == [
        "Search",
        "Server",
        "Outcome",
        "Period",
        "Decisions",
        "Details",
        "Export JSON…",
        "Export CSV…",
        "Clear history…",
        "Close",
    ]
    for widget in order[:6]:
        assert widget.accessibleDescription()
    QTest.keyClick(window, Qt.Key.Key_T, Qt.KeyboardModifier.AltModifier)
    assert QApplication.focusWidget() is window.table
    QTest.keyClick(window.table, Qt.Key.Key_Down)
    assert window.current_row()["message"] == "Anything else?"
    assert window.details.toPlainText().startswith("Outcome: Declined (decline)")
    QTest.keyClick(window, Qt.Key.Key_Escape)
    assert not window.isVisible()


def test_an_off_history_says_so(qtbot):
    win = HistoryWindow(None)
    qtbot.addWidget(win)
    assert (win.model.rowCount(), win.count.text(), win.clear()) == (0, "The history is off (Settings…).", 0)


def test_the_tray_menu_opens_history_and_settings(tmp_path, qtbot):
    from elicit_tray.settings import Preferences
    from elicit_tray.ui.presenter import Presenter
    from elicit_tray.ui.tray import Tray

    history = History(tmp_path / "h.sqlite3")
    recorder = fill(history, DECISIONS[:3])
    tray = Tray(
        Presenter(arm_delay_ms=0), recorder=recorder, preferences=Preferences(None), socket_path="/run/x/socket"
    )
    tray.rebuild()
    texts = [a.text() for a in tray.menu.actions()]
    assert texts[-5:-2] == ["&Dismiss all (answer cancel)", "&History…", "Se&ttings…"] or texts[-4:-1] == [
        "&Dismiss all (answer cancel)",
        "&History…",
        "Se&ttings…",
    ]
    next(a for a in tray.menu.actions() if a.text() == "&History…").trigger()
    assert tray.history_window.isVisible() and tray.history_window.model.rowCount() == 3
    next(a for a in tray.menu.actions() if a.text() == "Se&ttings…").trigger()
    assert tray.settings_window.isVisible() and tray.settings_window.socket.text() == "/run/x/socket"


def test_the_window_shows_exactly_the_column_tables_cells_in_order_with_their_widths(window):
    from elicit_tray.history.columns import CELLS

    header = window.table.horizontalHeader()
    model = window.table.model()
    shown = [model.headerData(i, Qt.Orientation.Horizontal) for i in range(header.count())]
    assert shown == [cell.header for _column, cell in CELLS]
    assert shown == ["Received", "Server", "Process", "Mode", "Outcome", "Question"]
    for index, (_column, cell) in enumerate(CELLS[:-1]):
        assert cell.width is not None and header.sectionSize(index) == cell.width
    assert CELLS[-1][1].width is None and header.stretchLastSection()
    assert all(text for text in cells(window)[0]), "every cell of a full row says something"


def test_every_cell_and_line_format_has_its_formatter():
    from typing import get_args

    from elicit_tray.history.columns import CellFormat, LineFormat
    from elicit_tray.ui.history_rows import CELL_FORMATS, LINE_FORMATS

    assert set(CELL_FORMATS) == set(get_args(CellFormat))
    assert set(LINE_FORMATS) == set(get_args(LineFormat))


def test_the_detail_pane_has_one_line_per_line_of_the_column_table_in_order(qtbot):
    from elicit_tray.history.columns import COLUMNS, LINES
    from elicit_tray.ui.history_rows import details

    row: dict[str, Any] = {name: f"some {name}" for name in COLUMNS}
    row.update(
        received="2026-09-21T14:13:20.000Z",
        shown="2026-09-21T14:13:21.000Z",
        answered="2026-09-21T14:13:22.000Z",
        duration_ms=2000.0,
        pid=7,
        uid=1000,
        outcome="accept",
        url_reasons=["userinfo"],
        fields=[{"name": "a", "title": "A", "secret": False, "value": "v"}],
    )
    labels = [line.split(":")[0] for line in plain(details(row)).splitlines()]
    assert labels == [
        line.label.format(title="A", value="v").split(":")[0] if line.shows == "fields" else line.label
        for _column, line in LINES
    ]
