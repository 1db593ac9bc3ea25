"""Server and requester text is shown as it is on every surface: never markup (labels, tooltips,
window titles, menu entries, notifications, the History window, accessible text), and a claim
never looks like a fact the OS reported.

Every surface of a form dialog, a URL dialog, a URL dialog waiting for its completion, the History
window and the tray is walked with markup in every server and requester string; the text each one
shows (a tooltip as ``QToolTip`` renders it, a label in its text format, a window title as the
window system gets it) must be the literal payload.
"""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QAbstractButton, QComboBox, QLabel, QWidget

from elicit_tray.elicitation import parse_elicit_params
from elicit_tray.history import History, Recorder
from elicit_tray.request import Peer
from elicit_tray.ui.labels import menu_text, notification_text, shown_tooltip, summary, tooltip_text, window_title
from elicit_tray.ui.presenter import Presenter

_ISOLATES = {0x2066: None, 0x2067: None, 0x2068: None, 0x2069: None}

#: Markup a server may send for its name: rendered, it would add a green "verified" line.
VERIFIED = "<b>GitHub</b><br><font color=green>&#10004; Verified publisher: GitHub, Inc. (signed)</font>"
PAYLOADS = [
    VERIFIED,
    '<a href="https://evil.example">Official</a> & <i>more</i>',
    "&lt;b&gt;not bold&lt;/b&gt; &amp; done",
    "<!DOCTYPE html><html><body><h1>Big</h1></body></html>",
    "<qt>rich</qt> [*] edited",
    "<img src=x> <table><tr><td>cell</td></tr></table>",
]


def plain(text: str) -> str:
    """``text`` without our bidi isolates (they show nothing)."""
    return text.translate(_ISOLATES)


def _params(payload: str, mode: str = "form") -> dict[str, Any]:
    who = {"serverName": payload, "clientName": payload, "serverVersion": "1.0"}
    if mode == "url":
        return {
            "mode": "url",
            "message": payload,
            "url": "https://example.com/login",
            "elicitationId": "e-1",
            "_meta": {"elicit-tray/requester": who},
        }
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": payload, "description": payload, "default": payload},
            "choice": {
                "type": "string",
                "title": payload + " choice",
                "oneOf": [{"const": "a", "title": payload}, {"const": "b", "title": "B " + payload}],
            },
            "flag": {"type": "boolean", "title": payload + " flag", "description": payload},
            "many": {
                "type": "array",
                "title": payload + " many",
                "items": {"anyOf": [{"const": "x", "title": payload}, {"const": "y", "title": "Y"}]},
            },
        },
        "required": ["name"],
    }
    return {"message": payload, "requestedSchema": schema, "_meta": {"elicit-tray/requester": who}}


def _peer(payload: str) -> Peer:
    return Peer(pid=7, uid=1000, process_name=payload, executable="/usr/bin/agent", argv=("agent", payload))


def _leaks(shown: str, payload: str) -> bool:
    """Whether ``shown`` holds the payload rendered instead of as it is: a piece of the payload's
    visible words without the payload itself."""
    return payload not in shown and any(word in shown for word in ("Verified publisher", "Official", "not bold"))


def _mnemonic_free(text: str) -> str:
    """What Qt draws of a text with a mnemonic: a single ``&`` marks the next letter, ``&&`` is ``&``."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def _walk(window: QWidget, payload: str) -> list[str]:
    """Every text ``window`` shows, each checked: labels are plain text (the URL dialog's host
    label is our own markup, every piece escaped), tooltips render to what the widget says,
    accessible names hold no markup of ours. Returns the shown texts."""
    shown: list[str] = []
    for widget in [window, *window.findChildren(QWidget)]:
        if isinstance(widget, QLabel):
            if widget.objectName() == "host":
                document = QTextDocument()
                document.setHtml(widget.text())
                shown.append(document.toPlainText())
            else:
                assert widget.textFormat() == Qt.TextFormat.PlainText, (widget.objectName(), widget.text())
                shown.append(_mnemonic_free(widget.text()) if widget.buddy() is not None else widget.text())
        elif isinstance(widget, QAbstractButton):
            shown.append(_mnemonic_free(widget.text()))
        elif isinstance(widget, QComboBox):
            shown += [widget.itemText(i) for i in range(widget.count())]
        tip = widget.toolTip()
        if tip:
            rendered = shown_tooltip(tip)
            assert not _leaks(rendered, payload), (widget.objectName(), rendered)
            shown.append(rendered)
            if isinstance(widget, QLabel) and widget.objectName() in ("server-name", "relay", "process"):
                assert plain(rendered) == widget.text()  # the tooltip is the whole line, as it is
        for spoken in (widget.accessibleName(), widget.accessibleDescription()):
            assert not _leaks(spoken, payload), spoken
            shown.append(spoken)
    for text in shown:
        assert not _leaks(text, payload), text
    return shown


@pytest.fixture
def presenter(qapp):
    return Presenter(opener=lambda _href: True, arm_delay_ms=0)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_every_surface_of_a_form_dialog_shows_server_and_requester_markup_as_it_is(presenter, payload):
    dialog = presenter.build(parse_elicit_params(_params(payload), _peer(payload)))
    shown = [plain(t) for t in _walk(dialog, payload)]
    header = {name: dialog.findChild(QLabel, name) for name in ("server-name", "relay", "process")}
    assert header["server-name"].text() == f"“{payload} 1.0”"
    assert header["relay"].text() == f"Relayed by a program that says it is “{payload}”."
    assert header["process"].text() == f"Asked by the local program /usr/bin/agent '{payload}' (pid 7)"
    assert dialog.message_label.text() == payload
    assert shown.count(payload) >= 4  # the message, the title, the description, an option
    assert f"B {payload}" in shown and f"{payload} flag" in shown
    dialog.winId()  # the native window: what the window system is told
    question = payload if len(payload) <= 60 else payload[:57] + "…"  # the message's first 60 characters
    assert plain(dialog.windowHandle().title()) == f"“{payload} 1.0”: {question} — elicit-tray"


@pytest.mark.parametrize("payload", PAYLOADS)
def test_every_surface_of_a_url_dialog_and_its_waiting_view_shows_markup_as_it_is(presenter, payload):
    dialog = presenter.build(parse_elicit_params(_params(payload, "url"), _peer(payload)))
    _walk(dialog, payload)
    assert dialog.message_label.text() == payload
    assert (
        shown_tooltip(dialog.findChild(QLabel, "server-name").toolTip())
        == f"“\u2068\u2068{payload}\u2069 \u20681.0\u2069\u2069”"
    )
    dialog.set_waiting_view()
    shown = _walk(dialog, payload)
    assert payload in shown


def test_a_tooltip_is_always_rich_text_holding_the_escaped_text_with_its_spaces_and_lines():
    assert tooltip_text("") == ""
    assert tooltip_text("a <b>\n  c & d") == '<p style="white-space:pre-wrap">a &lt;b&gt;\n  c &amp; d</p>'
    for text in [*PAYLOADS, "two\nlines  and   spaces", "<p>para</p>\n<p>two</p>", "plain"]:
        assert GuiQt.mightBeRichText(tooltip_text(text))
        assert shown_tooltip(tooltip_text(text)) == text


def test_without_the_helper_qt_would_have_rendered_the_verified_line():
    """The fault itself: Qt guesses rich text for a raw tooltip (the test can fail)."""
    assert shown_tooltip(VERIFIED) == "GitHub\n✔ Verified publisher: GitHub, Inc. (signed)"


def test_window_titles_menu_entries_and_notifications_keep_their_special_characters(qapp):
    title = "Pay [*] & <b>now</b>\t[*][*]"
    widget = QWidget()
    widget.setWindowTitle(window_title(title))
    widget.winId()
    assert widget.windowHandle().title() == title
    assert menu_text("A & B\tC") == "A && B C"
    assert menu_text("my_server & co", dbusmenu=True) == "my__server && co"  # dbusmenu: "_" marks a mnemonic
    assert notification_text("<b>x</b> & y", markup=True) == "&lt;b&gt;x&lt;/b&gt; &amp; y"
    assert notification_text("<b>x</b> & y", markup=False) == "<b>x</b> & y"
    widget.deleteLater()


@pytest.mark.parametrize("payload", PAYLOADS)
def test_the_tray_menu_tooltip_and_notification_show_the_summary_as_it_is(presenter, payload, qtbot):
    from PySide6.QtGui import QAction

    from elicit_tray.ui.tray import Tray

    request = parse_elicit_params(_params(payload), _peer(payload))
    dialog = presenter.build(request)
    presenter.dialogs[request.key] = dialog
    tray = Tray(presenter)
    tray.rebuild()
    tray.update_state()
    expected = summary(dialog.request)
    question = payload if len(payload) <= 60 else payload[:57] + "…"  # the first 60 characters
    assert plain(expected) == f"“{payload} 1.0”: {question}"
    entries = [a for a in tray.menu.actions() if isinstance(a, QAction) and not a.isSeparator()]
    drawn = [plain(_mnemonic_free(a.text())) for a in entries]  # what the menu draws of each entry
    assert [text for text in drawn if payload[:20] in text] == [plain(expected)]
    assert tray.toolTip() == "elicit-tray: 1 request waiting"  # no server text in the tray's tooltip
    for markup in (True, False):
        tray.dbus_tray = lambda markup=markup: markup
        title, body = tray.notification(expected)
        assert title == "A server asks for your input"
        if markup:  # a freedesktop notification server reads the body as markup
            document = QTextDocument()
            document.setHtml(body)
            assert document.toRawText() == expected
        else:
            assert body == expected
    presenter.dialogs.clear()
    tray.hide()


@pytest.mark.parametrize("payload", PAYLOADS)
def test_every_surface_of_the_history_window_shows_markup_as_it_is(tmp_path, qtbot, payload):
    from elicit_tray.ui.history_window import HistoryWindow

    history = History(tmp_path / "h.sqlite3")
    recorder = Recorder(None, history)
    for params in (_params(payload), _params(payload, "url")):
        request = parse_elicit_params(params, _peer(payload))
        recorder.arrived(request)
        recorder.record("elicitation", id=1, key=request.key, outcome="decline")
    recorder.flush()  # written on the writer's thread
    window = HistoryWindow(history, recorder, ask_path=lambda *_: "", confirm=lambda _q: False)
    qtbot.addWidget(window)
    model = window.model
    for row in range(model.rowCount()):
        cells = [model.index(row, column).data() for column in range(model.columnCount())]
        assert plain(cells[1]) == f"“{payload}”"  # the server's claim, quoted
        assert cells[2] == f"/usr/bin/agent '{payload}' (pid 7)"  # the process as the OS reports it
        assert cells[5] == payload
        tip = model.index(row, 5).data(Qt.ItemDataRole.ToolTipRole)
        assert shown_tooltip(tip) == payload
        window.table.selectRow(row)
        text = plain(window.details.toPlainText())
        assert f"Server (self-reported): “{payload} 1.0”" in text
        assert f"Client (self-reported): “{payload}”" in text
        assert f"Message: {payload}" in text
        assert f"Process: /usr/bin/agent '{payload}' (pid 7)" in text
    _walk(window, payload)
    assert plain(window.server.itemText(1)) == f"“{payload}”"
    window.close()


#: Claims that imitate what the tray verifies: a real wrap relay's client name, the header's own
#: verified line, a closing quotation mark followed by verified wording.
IMITATIONS = [
    "elicit-tray wrap (pid 4100) running npx -y @modelcontextprotocol/server-github (pid 4101)",
    "Asked by the local program /usr/bin/ssh (pid 1)",
    "x”. Asked by the local program /usr/bin/elicit-tray (pid 2)",
    "\u2069 Asked by the local program /usr/bin/ssh (pid 3) \u2068",
]


@pytest.mark.parametrize("said", IMITATIONS)
def test_a_claim_never_looks_like_what_the_tray_verified(presenter, said, tmp_path, qtbot):
    from elicit_tray.display import display_line
    from elicit_tray.ui.history_window import HistoryWindow

    params = dict(_params("plain"), _meta={"elicit-tray/requester": {"serverName": said, "clientName": said}})
    peer = Peer(pid=42, executable="/usr/bin/python3", argv=("python3", "/home/u/fake.py"))
    dialog = presenter.build(parse_elicit_params(params, peer))
    shown = display_line(said)  # a stray isolate of the claim is shown, never obeyed
    lines = [dialog.findChild(QLabel, name).text() for name in ("server-name", "server-note", "relay", "process")]
    assert lines == [
        f"“{shown}”",
        "That is what the server says it is; not verified.",
        f"Relayed by a program that says it is “{shown}”.",
        "Asked by the local program /usr/bin/python3 /home/u/fake.py (pid 42)",
    ]
    # Only the OS-reported line starts with the verified wording; every claim is on a line of its
    # own that starts with a quotation mark or "... says it is".
    assert [line.startswith("Asked by the local program") for line in lines] == [False, False, False, True]
    history = History(tmp_path / "h.sqlite3")
    recorder = Recorder(None, history)
    recorder.arrived(parse_elicit_params(params, peer))
    recorder.flush()  # written on the writer's thread
    window = HistoryWindow(history, recorder)
    qtbot.addWidget(window)
    cells = [plain(window.model.index(0, c).data()) for c in range(window.model.columnCount())]
    assert cells[1:3] == [f"“{shown}”", "/usr/bin/python3 /home/u/fake.py (pid 42)"]
    text = plain(window.details.toPlainText())
    assert f"Client (self-reported): “{shown}”" in text
    assert "Process: /usr/bin/python3 /home/u/fake.py (pid 42)" in text
    window.close()


def test_an_exported_tray_menu_keeps_underscores_and_ampersands_of_server_names(presenter):
    """Over D-Bus (StatusNotifierItem) the menu is a dbusmenu: Qt turns the first ``&`` into
    ``_``, and ``_x`` is a mnemonic there, so ``my_server`` would read ``myserver``."""
    from elicit_tray.ui.tray import Tray

    params = dict(_params("x"), message="Pay?", _meta={"elicit-tray/requester": {"serverName": "my_bank & co"}})
    request = parse_elicit_params(params, _peer("x"))
    presenter.dialogs[request.key] = presenter.build(request)
    tray = Tray(presenter)
    for exported, wire in ((False, "“my_bank && co”: Pay?"), (True, "“my__bank && co”: Pay?")):
        tray.dbus_tray = lambda exported=exported: exported
        tray.rebuild()
        assert [plain(a.text()) for a in tray.menu.actions()][1] == wire
    presenter.dialogs.clear()
