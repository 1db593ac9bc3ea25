"""Dialog behaviour beyond the shared cases: arming, expiry, one answer per request, plain
text, who asks, keyboard, accessibility, URL consent and completion, the tray menu."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFrame, QLabel
from shiboken6 import isValid

from elicit_tray.ui.tray import Tray as TrayIcon
from tests import rpc
from tests.ui.harness import Browser, Tray, shown_texts

CONFIRM = {"message": "Proceed?", "requestedSchema": {"type": "object", "properties": {}}}
COPIES = {
    "message": "How many?",
    "requestedSchema": {
        "type": "object",
        "properties": {
            "copies": {
                "type": "integer",
                "title": "Copies",
                "description": "Printed pages",
                "minimum": 1,
                "maximum": 10,
            },
            "note": {"type": "string", "title": "Note"},
        },
        "required": ["copies"],
    },
}
URL = {"mode": "url", "elicitationId": "e-1", "message": "Connect", "url": "https://auth.example.com/x"}


def _plain(text: str) -> str:
    """``text`` without the bidi isolates around each run of server text (they show nothing)."""
    return text.translate({0x2066: None, 0x2068: None, 0x2069: None})


def _create(tray, channel, params, request_id=1):
    tray.send(channel, rpc.create(request_id, params))


def test_accept_stays_disabled_until_the_dialog_is_armed(aio, qtbot):
    tray = Tray(aio, arm_delay_ms=300)
    channel = tray.connect()
    _create(tray, channel, CONFIRM)
    dialog = tray.run(tray.shown.get())
    assert not dialog.is_armed
    assert not dialog.accept_button.isEnabled()
    QTest.keyClick(dialog, Qt.Key.Key_Return)  # a keystroke meant for another window
    tray.settle()
    assert channel.sent == [] and dialog.outcome is None
    with qtbot.waitSignal(dialog.armed, timeout=5000):
        tray.presenter.focus(dialog.request.key)  # the user goes to it from the tray menu
    assert dialog.accept_button.isEnabled()
    QTest.keyClick(dialog, Qt.Key.Key_Return)
    assert tray.reply(channel) == {"jsonrpc": "2.0", "id": 1, "result": {"action": "accept", "content": {}}}


def test_a_cancelled_request_expires_its_dialog_and_nothing_is_sent(aio):
    tray = Tray(aio)
    channel = tray.connect()
    _create(tray, channel, COPIES)
    dialog = tray.dialog()
    tray.send(channel, {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}})
    tray.settle()
    assert dialog.expired
    assert "no longer waiting" in shown_texts(dialog)
    assert not dialog.accept_button.isVisible() and not dialog.decline_button.isVisible()
    assert dialog.close_button.isVisible()
    dialog.close()
    tray.send(channel, {"jsonrpc": "2.0", "id": 2, "method": "ping"})
    assert tray.reply(channel) == {"jsonrpc": "2.0", "id": 2, "result": {}}
    assert channel.sent == []


def test_a_requester_that_disconnects_expires_all_its_dialogs(aio):
    tray = Tray(aio)
    channel = tray.connect()
    _create(tray, channel, COPIES, 1)
    _create(tray, channel, CONFIRM, 2)
    first, second = tray.dialog(), tray.dialog()
    tray.disconnect(channel)
    assert first.expired and second.expired
    assert channel.sent == []
    assert tray.presenter.dialogs == {}


def test_each_answer_resolves_only_its_own_request(aio):
    tray = Tray(aio)
    a, b = tray.connect(), tray.connect()
    _create(tray, a, CONFIRM, 1)
    _create(tray, b, CONFIRM, 1)
    dialog_a, dialog_b = tray.dialog(), tray.dialog()
    QTest.mouseClick(dialog_b.decline_button, Qt.MouseButton.LeftButton)
    assert tray.reply(b) == {"jsonrpc": "2.0", "id": 1, "result": {"action": "decline"}}
    assert a.sent == [] and dialog_a.outcome is None
    tray.arm(dialog_a)  # the user goes back to the first dialog
    QTest.mouseClick(dialog_a.accept_button, Qt.MouseButton.LeftButton)
    assert tray.reply(a) == {"jsonrpc": "2.0", "id": 1, "result": {"action": "accept", "content": {}}}


def test_a_second_action_after_the_answer_sends_nothing_more(aio):
    tray = Tray(aio)
    channel, _dialog = tray.ask(CONFIRM, [{"do": "submit"}, {"do": "escape"}, {"do": "decline"}, {"do": "close"}])
    assert tray.reply(channel)["result"] == {"action": "accept", "content": {}}
    tray.settle()
    assert channel.sent == []


def test_server_text_is_shown_as_plain_text_never_as_a_link(aio):
    tray = Tray(aio)
    params = {
        "message": "<b>Click</b> <a href='https://evil.example'>here</a>",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "x": {
                    "type": "string",
                    "title": "<i>Name</i> & co",
                    "description": "<a href='https://evil.example'>link</a>",
                }
            },
        },
    }
    channel, dialog = tray.ask(params, [])
    assert dialog.message_label.textFormat() == Qt.TextFormat.PlainText
    assert dialog.message_label.text() == params["message"]
    labels = [w for w in dialog.findChildren(QLabel) if w.isVisible() and w.text()]
    rich = [w.objectName() for w in labels if w.textFormat() != Qt.TextFormat.PlainText]
    assert rich == []
    assert all(not w.openExternalLinks() for w in labels)
    assert dialog.rows["x"].label.text() == "<&i>Name</i> && co"  # server & escaped; our mnemonic on "i"
    tray.disconnect(channel)


def test_the_dialog_says_who_asks_and_marks_the_name_as_self_reported(aio):
    tray = Tray(aio)
    params = dict(
        CONFIRM,
        _meta={
            "elicit-tray/requester": {
                "serverName": "files",
                "serverTitle": "File Server",
                "serverVersion": "2.0",
                "clientName": "runner",
            }
        },
    )
    channel, dialog = tray.ask(params, [])
    text = shown_texts(dialog)
    assert "“File Server (files) 2.0”" in text  # a claim: quoted
    assert "That is what the server says it is; not verified." in text
    assert "Relayed by a program that says it is “runner”." in text
    assert "test-requester (pid 4242)" in text
    assert _plain(dialog.windowTitle()) == ("“File Server (files) 2.0”: Proceed? — elicit-tray")
    tray.disconnect(channel)


def test_enter_on_an_invalid_form_shows_errors_and_focuses_the_first_invalid_field(aio, qtbot):
    tray = Tray(aio)
    channel, dialog = tray.ask(COPIES, [])
    dialog.activateWindow()
    dialog.rows["note"].adapter.focus_target.setFocus()
    QTest.keyClick(dialog.rows["note"].adapter.focus_target, Qt.Key.Key_Return)
    tray.settle()
    assert channel.sent == []
    assert dialog.errors() == {"copies": "This field is required."}
    copies = dialog.rows["copies"].adapter.focus_target
    qtbot.waitUntil(copies.hasFocus, timeout=2000)
    assert "This field is required." in copies.accessibleDescription()
    QTest.keyClicks(copies, "4")
    QTest.keyClick(copies, Qt.Key.Key_Return)
    assert tray.reply(channel)["result"] == {"action": "accept", "content": {"copies": 4}}


def test_alt_d_declines(aio, qtbot):
    tray = Tray(aio)
    channel, dialog = tray.ask(COPIES, [])
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)
    QTest.keyClick(dialog, Qt.Key.Key_D, Qt.KeyboardModifier.AltModifier)
    assert tray.reply(channel)["result"] == {"action": "decline"}


def test_tab_walks_the_fields_in_schema_order_then_the_buttons(aio):
    tray = Tray(aio)
    channel, dialog = tray.ask(COPIES, [])
    first = dialog.rows["copies"].adapter.focus_target
    chain = [first]
    while len(chain) < 5:
        chain.append(chain[-1].nextInFocusChain())
        while not (chain[-1].focusPolicy() & Qt.FocusPolicy.TabFocus) or not chain[-1].isVisible():
            chain[-1] = chain[-1].nextInFocusChain()
    assert [w.objectName() for w in chain] == ["field-copies", "field-note", "decline", "cancel", "accept"]
    tray.disconnect(channel)


def test_every_control_has_an_accessible_name_and_a_description_with_its_constraints(aio):
    tray = Tray(aio)
    channel, dialog = tray.ask(COPIES, [])
    copies = dialog.rows["copies"].adapter.focus_target
    iface = QAccessible.queryAccessibleInterface(copies)
    assert iface.text(QAccessible.Text.Name) == "Copies"
    assert iface.text(QAccessible.Text.Description) == "Printed pages. Required. Whole number between 1 and 10."
    note = QAccessible.queryAccessibleInterface(dialog.rows["note"].adapter.focus_target)
    assert note.text(QAccessible.Text.Name) == "Note"
    tray.disconnect(channel)


def test_a_field_that_looks_like_a_secret_gets_a_warning(aio):
    tray = Tray(aio)
    params = {
        "message": "Log in",
        "requestedSchema": {"type": "object", "properties": {"apiKey": {"type": "string", "title": "API key"}}},
    }
    channel, dialog = tray.ask(params, [])
    assert "MCP forbids servers to ask for passwords, tokens or keys in a form" in shown_texts(dialog)
    tray.disconnect(channel)


def test_url_open_waits_for_the_completion_notice_then_closes(aio, qtbot):
    tray = Tray(aio)
    channel, dialog = tray.ask(URL, [{"do": "open"}])
    assert tray.reply(channel)["result"] == {"action": "accept"}
    assert tray.browser.opened == ["https://auth.example.com/x"]
    assert dialog.waiting and "Waiting for the server" in shown_texts(dialog)
    tray.send(
        channel,
        {"jsonrpc": "2.0", "method": "notifications/elicitation/complete", "params": {"elicitationId": "unknown"}},
    )
    tray.settle()
    assert dialog.waiting  # unknown ids are ignored
    tray.send(
        channel, {"jsonrpc": "2.0", "method": "notifications/elicitation/complete", "params": {"elicitationId": "e-1"}}
    )
    tray.settle()
    assert not dialog.waiting and "confirmed that you have finished" in shown_texts(dialog)
    qtbot.waitUntil(lambda: not isValid(dialog), timeout=5000)
    assert channel.sent == []


def test_url_mode_without_elicitation_id_closes_right_after_open(aio):
    tray = Tray(aio)
    params = {k: v for k, v in URL.items() if k != "elicitationId"}
    channel, dialog = tray.ask(params, [{"do": "open"}])
    assert tray.reply(channel)["result"] == {"action": "accept"}
    tray.settle()
    assert not isValid(dialog) or not dialog.isVisible()


def test_a_browser_that_fails_to_start_keeps_the_dialog_open_and_sends_nothing(aio):
    tray = Tray(aio, browser=Browser(works=False))
    channel, dialog = tray.ask(URL, [{"do": "open"}])
    tray.settle()
    assert channel.sent == [] and dialog.outcome is None
    assert "could not be started" in shown_texts(dialog)
    QTest.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    assert tray.reply(channel)["result"] == {"action": "cancel"}


def test_http_to_loopback_opens_with_a_warning(aio):
    tray = Tray(aio)
    params = dict(URL, url="http://localhost:8765/callback")
    channel, dialog = tray.ask(params, [])
    assert dialog.warnings and dialog.open_button.isEnabled()
    assert "⚠" in shown_texts(dialog)
    tray.disconnect(channel)


@pytest.mark.parametrize(
    "url, imitated",
    [("https://paypai.com/signin", "paypal.com"), ("https://rnicrosoft.co.uk/", "microsoft.com")],
)
def test_a_look_alike_site_is_named_with_the_well_known_site_it_imitates(aio, url, imitated):
    from elicit_tray.ui.url_dialog import ltr_isolated

    tray = Tray(aio)
    channel, dialog = tray.ask(dict(URL, url=url), [])
    assert dialog.warnings == [
        "The site name looks almost identical to a well-known site. "
        f"It looks like {ltr_isolated(imitated)}, but it is not that site."
    ]
    assert f"It looks like {ltr_isolated(imitated)}, but it is not that site." in shown_texts(dialog)
    tray.disconnect(channel)


def test_the_url_dialog_focuses_the_button_that_commits_nothing(aio, qtbot):
    tray = Tray(aio)
    channel, dialog = tray.ask(URL, [])
    dialog.activateWindow()
    qtbot.waitUntil(dialog.cancel_button.hasFocus, timeout=2000)
    tray.disconnect(channel)


def test_the_tray_menu_lists_pending_requests_and_dismiss_all_answers_cancel(aio):
    tray = Tray(aio)
    icon = TrayIcon(tray.presenter)
    channel = tray.connect()
    params = dict(CONFIRM, _meta={"elicit-tray/requester": {"serverName": "files"}})
    _create(tray, channel, params)
    tray.dialog()
    icon.rebuild()
    texts = [_plain(a.text()) for a in icon.menu.actions()]
    assert texts[:2] == ["1 request waiting", "“files”: Proceed?"]
    assert icon.toolTip() == "elicit-tray: 1 request waiting"
    dismiss = next(a for a in icon.menu.actions() if a.text().startswith("&Dismiss all"))
    dismiss.trigger()
    assert tray.reply(channel)["result"] == {"action": "cancel"}
    assert icon.toolTip() == "elicit-tray: no requests waiting"


def test_an_optional_date_starts_empty_and_a_key_starts_it_at_today(aio):
    import datetime

    tray = Tray(aio)
    params = {
        "message": "When?",
        "requestedSchema": {
            "type": "object",
            "properties": {"day": {"type": "string", "format": "date", "title": "Day"}},
        },
    }
    channel, dialog = tray.ask(params, [])
    adapter = dialog.rows["day"].adapter
    assert adapter.value() == (None, None)
    QTest.keyClick(adapter.edit, Qt.Key.Key_Up)  # steps one unit up from today, not from the sentinel
    value = adapter.value()[0]
    assert abs(datetime.date.fromisoformat(value) - datetime.date.today()).days <= 366
    QTest.mouseClick(adapter.clear_button, Qt.MouseButton.LeftButton)
    assert adapter.value() == (None, None)
    QTest.mouseClick(dialog.accept_button, Qt.MouseButton.LeftButton)
    assert tray.reply(channel)["result"] == {"action": "accept", "content": {}}


def test_a_date_time_goes_back_as_rfc3339_with_seconds_and_offset(aio):
    import re

    tray = Tray(aio)
    params = {
        "message": "When?",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "at": {"type": "string", "format": "date-time", "title": "At", "default": "2026-05-01T09:30:00+00:00"}
            },
        },
    }
    channel, dialog = tray.ask(params, [{"do": "submit"}])
    value = tray.reply(channel)["result"]["content"]["at"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d", value)
    import datetime

    assert datetime.datetime.fromisoformat(value) == datetime.datetime(2026, 5, 1, 9, 30, tzinfo=datetime.UTC)


def test_tray_quit_calls_the_orderly_shutdown_and_answers_no_dialog_by_itself(aio):
    tray = Tray(aio)
    calls = []
    icon = TrayIcon(tray.presenter, on_quit=lambda: calls.append("quit"))
    channel = tray.connect()
    _create(tray, channel, CONFIRM)
    tray.dialog()
    icon.rebuild()
    next(a for a in icon.menu.actions() if a.text() == "&Quit elicit-tray").trigger()
    tray.settle()
    assert calls == ["quit"]
    assert channel.sent == []
    tray.disconnect(channel)


def test_every_label_gets_its_own_mnemonic_that_focuses_its_field(aio, qtbot):
    from elicit_tray.ui.widgets import assign_mnemonics

    assert assign_mnemonics(["Name", "Nickname", "R&D budget", "Accept terms", "…"], reserved="adc") == [
        "&Name",
        "N&ickname",
        "&R&&D budget",
        "Acc&ept terms",
        "…",
    ]
    tray = Tray(aio)
    channel, dialog = tray.ask(COPIES, [])
    assert dialog.rows["copies"].label.text() == "C&opies *"
    assert dialog.rows["note"].label.text() == "&Note"
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)
    QTest.keyClick(dialog, Qt.Key.Key_N, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(dialog.rows["note"].adapter.focus_target.hasFocus, timeout=2000)
    tray.disconnect(channel)


def test_a_field_left_with_a_wrong_value_shows_its_error_but_an_empty_one_does_not(aio, qtbot):
    tray = Tray(aio)
    params = {
        "message": "Contact",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "title": "Name"},
                "mail": {"type": "string", "format": "email", "title": "Mail"},
                "city": {"type": "string", "title": "City"},
            },
            "required": ["name"],
        },
    }
    channel, dialog = tray.ask(params, [])
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)
    name, mail = dialog.rows["name"].adapter.focus_target, dialog.rows["mail"].adapter.focus_target
    name.setFocus()
    qtbot.waitUntil(name.hasFocus, timeout=2000)
    QTest.keyClick(name, Qt.Key.Key_Tab)  # leaving the empty required field: no error yet
    qtbot.waitUntil(mail.hasFocus, timeout=2000)
    QTest.keyClicks(mail, "not-an-email")
    assert dialog.errors() == {}  # no error while typing
    QTest.keyClick(mail, Qt.Key.Key_Tab)
    qtbot.waitUntil(lambda: dialog.errors() != {}, timeout=2000)
    assert dialog.errors() == {"mail": "Enter an email address, such as name@example.com."}
    tray.disconnect(channel)


def test_an_expired_dialog_closes_by_itself_and_sends_nothing(aio, qtbot, monkeypatch):
    from elicit_tray.ui import base

    monkeypatch.setattr(base, "EXPIRED_CLOSE_MS", 50)
    tray = Tray(aio)
    channel = tray.connect()
    _create(tray, channel, CONFIRM)
    dialog = tray.dialog()
    tray.disconnect(channel)
    assert dialog.expired and "closes by itself" in shown_texts(dialog)
    qtbot.waitUntil(lambda: not isValid(dialog) or not dialog.isVisible(), timeout=5000)
    assert channel.sent == []


def test_server_strings_cannot_forge_the_identity_or_reverse_text(aio):
    tray = Tray(aio)
    params = {
        "message": "Open invoice \u202egnp.exe",
        "_meta": {
            "elicit-tray/requester": {
                "serverName": "\u202emoc.elgoog\u202c",
                "serverVersion": "1.0\nVerified by elicit-tray",
            }
        },
        "requestedSchema": {
            "type": "object",
            "properties": {
                "x": {"type": "string", "title": "Name\u202e", "description": "two\nlines"},
                "blank": {"type": "string", "title": "   "},
            },
        },
    }
    channel, dialog = tray.ask(params, [])
    text = shown_texts(dialog)
    assert "\\u202emoc.elgoog\\u202c 1.0\\u000aVerified by elicit-tray" in text
    assert "Open invoice \\u202egnp.exe" in text
    assert "\u202e" not in text and "\u202e" not in dialog.windowTitle()
    assert "two\nlines." in text  # descriptions keep their lines
    assert dialog.rows["blank"].label.text().replace("&", "") == "blank"  # a blank title shows the name
    tray.disconnect(channel)


def test_a_look_alike_url_also_shows_the_exact_address_the_browser_opens(aio):
    tray = Tray(aio)
    params = dict(URL, url="https://accounts@раypal.com/login")
    channel, dialog = tray.ask(params, [])
    text = shown_texts(dialog)
    assert "https://accounts@раypal.com/login" in text  # as received
    assert "The browser will open exactly this address:\nhttps://accounts@xn--ypal-43d9g.com/login" in text
    tray.disconnect(channel)


def test_tab_leaves_a_date_picker_for_the_next_field_and_typing_writes_the_date(aio, qtbot):
    tray = Tray(aio)
    params = {
        "message": "When?",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "day": {"type": "string", "format": "date", "title": "Day"},
                "note": {"type": "string", "title": "Note"},
            },
            "required": ["day"],
        },
    }
    channel, dialog = tray.ask(params, [])
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)
    day = dialog.rows["day"].adapter.edit
    day.setFocus()
    qtbot.waitUntil(day.hasFocus, timeout=2000)
    QTest.keyClicks(day, "2027-03-04")
    assert dialog.rows["day"].adapter.value() == ("2027-03-04", None)
    QTest.keyClick(day, Qt.Key.Key_Tab)
    qtbot.waitUntil(dialog.rows["note"].adapter.focus_target.hasFocus, timeout=2000)
    QTest.keyClick(dialog.rows["note"].adapter.focus_target, Qt.Key.Key_Return)
    assert tray.reply(channel)["result"] == {"action": "accept", "content": {"day": "2027-03-04"}}


def test_typing_a_date_and_time_as_people_write_it_gives_exactly_that_time(aio, qtbot):
    import datetime

    tray = Tray(aio)
    params = {
        "message": "When?",
        "requestedSchema": {
            "type": "object",
            "properties": {"at": {"type": "string", "format": "date-time", "title": "At"}},
            "required": ["at"],
        },
    }
    channel, dialog = tray.ask(params, [])
    at = dialog.rows["at"].adapter.edit
    at.setFocus()
    QTest.keyClicks(at, "2027-03-04 09:30:15")
    QTest.keyClick(at, Qt.Key.Key_Return)
    sent = tray.reply(channel)["result"]["content"]["at"]
    assert datetime.datetime.fromisoformat(sent).replace(tzinfo=None) == datetime.datetime(2027, 3, 4, 9, 30, 15)


def test_concurrent_dialogs_are_cascaded_not_stacked_exactly(aio):
    tray = Tray(aio)
    channel = tray.connect()
    _create(tray, channel, CONFIRM, 1)
    _create(tray, channel, CONFIRM, 2)
    first, second = tray.dialog(), tray.dialog()
    assert second.pos() != first.pos()
    tray.disconnect(channel)


def test_a_dialog_that_regains_focus_is_armed_again_before_accept_works(aio, qtbot):
    tray = Tray(aio, arm_delay_ms=200)
    channel = tray.connect()
    _create(tray, channel, CONFIRM, 1)
    first = tray.dialog()
    first.activateWindow()
    qtbot.waitUntil(first.isActiveWindow, timeout=2000)
    assert first.accept_button.isEnabled()
    _create(tray, channel, CONFIRM, 2)
    second = tray.dialog()
    second.activateWindow()
    qtbot.waitUntil(lambda: not first.isActiveWindow(), timeout=2000)
    first.activateWindow()  # back without an act (a window manager's choice): inert
    qtbot.waitUntil(first.isActiveWindow, timeout=2000)
    assert not first.accept_button.isEnabled() and not first.arming.engaged
    tray.presenter.focus(first.request.key)  # the user comes back, perhaps still typing for the other window
    assert not first.accept_button.isEnabled()
    with qtbot.waitSignal(first.armed, timeout=5000):
        pass
    assert first.accept_button.isEnabled()
    tray.disconnect(channel)


def test_a_user_set_timeout_counts_down_visibly_and_answers_cancel(aio):
    tray = Tray(aio, timeout_s=1)
    channel, dialog = tray.ask(COPIES, [])
    assert "Cancels by itself in 0:01" in shown_texts(dialog)
    assert tray.reply(channel) == {"jsonrpc": "2.0", "id": 1, "result": {"action": "cancel"}}
    assert dialog.outcome.how == "timeout"


def test_the_timeout_stops_at_the_first_keystroke(aio):
    tray = Tray(aio, timeout_s=30)
    channel, dialog = tray.ask(COPIES, [{"do": "type", "field": "copies", "text": "3"}])
    assert not dialog.countdown.is_running
    assert "Timer stopped" in shown_texts(dialog)
    QTest.keyClick(dialog.rows["copies"].adapter.focus_target, Qt.Key.Key_Return)
    assert tray.reply(channel)["result"] == {"action": "accept", "content": {"copies": 3}}


def test_the_timing_trace_records_build_show_paint_and_answer_when_asked_for(aio, tmp_path, monkeypatch):
    import json

    trace = tmp_path / "trace.jsonl"
    monkeypatch.setenv("ELICIT_TRAY_TRACE", str(trace))
    tray = Tray(aio)
    channel, dialog = tray.ask(COPIES, [{"do": "type", "field": "copies", "text": "2"}, {"do": "submit"}])
    assert tray.reply(channel)["result"] == {"action": "accept", "content": {"copies": 2}}
    tray.settle()
    (line,) = [json.loads(x) for x in trace.read_text(encoding="utf-8").splitlines()]
    assert set(line) == {
        "key",
        "mode",
        "fields",
        "start_ns",
        "built_ms",
        "shown_ms",
        "painted_ms",
        "answered_ms",
        "gc_ms",
    }
    assert (line["mode"], line["fields"]) == ("form", 2)
    assert 0 <= line["gc_ms"] <= line["painted_ms"]
    assert 0 <= line["built_ms"] <= line["shown_ms"] <= line["answered_ms"]
    assert line["built_ms"] <= line["painted_ms"] <= line["answered_ms"]


def test_the_timing_trace_is_never_written_through_a_symbolic_link(aio, tmp_path, monkeypatch):
    target = tmp_path / "bashrc"
    target.write_text("echo hi\n")
    trace = tmp_path / "trace.jsonl"
    trace.symlink_to(target)
    monkeypatch.setenv("ELICIT_TRAY_TRACE", str(trace))
    tray = Tray(aio)
    channel, _dialog = tray.ask(COPIES, [{"do": "type", "field": "copies", "text": "2"}, {"do": "submit"}])
    assert tray.reply(channel)["result"] == {"action": "accept", "content": {"copies": 2}}
    tray.settle()
    assert target.read_text() == "echo hi\n"


def test_a_long_form_paints_its_first_rows_first_and_arms_only_when_every_row_is_built(aio):
    from elicit_tray.elicitation import parse_elicit_params
    from elicit_tray.ui.form_dialog import FIRST_ROWS

    fields = {f"f{i:03d}": {"type": "integer", "title": f"Field {i}", "default": i} for i in range(120)}
    params = {"message": "Many", "requestedSchema": {"type": "object", "properties": fields}}
    tray = Tray(aio)
    dialog = tray.presenter.build(parse_elicit_params(params))
    assert len(dialog.rows) == FIRST_ROWS and not dialog.accept_button.isEnabled()
    dialog.close()
    channel, dialog = tray.ask(params, [{"do": "submit"}])
    assert len(dialog.rows) == 120
    assert tray.reply(channel)["result"] == {"action": "accept", "content": {f"f{i:03d}": i for i in range(120)}}


def test_a_time_typed_with_shift_for_the_colons_is_kept_exactly(aio):
    import datetime

    tray = Tray(aio)
    params = {
        "message": "When?",
        "requestedSchema": {
            "type": "object",
            "properties": {"at": {"type": "string", "format": "date-time", "title": "At"}},
            "required": ["at"],
        },
    }
    channel, dialog = tray.ask(params, [])
    at = dialog.rows["at"].adapter.edit
    at.setFocus()
    for ch in "2027-03-04 09:30:15":
        if ch == ":":  # a real keyboard: Shift goes down first, as its own key press
            QTest.keyPress(at, Qt.Key.Key_Shift)
            QTest.keyClick(at, Qt.Key.Key_Colon, Qt.KeyboardModifier.ShiftModifier)
            QTest.keyRelease(at, Qt.Key.Key_Shift)
        else:
            QTest.keyClicks(at, ch)
    QTest.keyClick(at, Qt.Key.Key_Return)
    sent = tray.reply(channel)["result"]["content"]["at"]
    assert datetime.datetime.fromisoformat(sent).replace(tzinfo=None) == datetime.datetime(2027, 3, 4, 9, 30, 15)


def test_an_optional_dates_clear_button_comes_right_after_it_in_the_tab_order(aio):
    tray = Tray(aio)
    params = {
        "message": "When?",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "day": {"type": "string", "format": "date", "title": "Day"},
                "note": {"type": "string", "title": "Note"},
            },
        },
    }
    channel, dialog = tray.ask(params, [])
    day = dialog.rows["day"].adapter
    assert _next_tab_stop(day.edit) is day.clear_button
    assert _next_tab_stop(day.clear_button) is dialog.rows["note"].adapter.focus_target
    tray.disconnect(channel)


def _next_tab_stop(widget):
    nxt = widget.nextInFocusChain()
    while (
        not (nxt.focusPolicy() & Qt.FocusPolicy.TabFocus) or not nxt.isVisible() or nxt.objectName().startswith("qt_")
    ):  # a picker's own inner line edit is not a stop
        nxt = nxt.nextInFocusChain()
    return nxt


def test_a_long_form_that_expires_while_building_stops_building_with_every_field_disabled(aio):
    from elicit_tray.elicitation import parse_elicit_params
    from elicit_tray.ui.form_dialog import FIRST_ROWS

    fields = {f"f{i:03d}": {"type": "string", "title": f"Field {i}"} for i in range(150)}
    tray = Tray(aio)
    dialog = tray.presenter.build(
        parse_elicit_params({"message": "Many", "requestedSchema": {"type": "object", "properties": fields}})
    )
    dialog.mark_expired()  # the requester went away before the first paint
    dialog.show()
    tray.settle()
    assert len(dialog.rows) == FIRST_ROWS
    assert all(not row.adapter.widget.isEnabled() for row in dialog.rows.values())
    dialog.close()


def test_the_identity_header_is_one_elided_line_per_item_that_server_text_cannot_extend(aio):
    tray = Tray(aio)
    forged = "files" + "\u00a0" * 110 + "✔ Verified by elicit-tray"
    params = dict(
        CONFIRM,
        message="Asked by the local program /usr/bin/gnome-keyring-daemon (pid 1)",
        _meta={"elicit-tray/requester": {"serverName": forged, "clientName": "runner \u2003\u00a0 two"}},
    )
    channel, dialog = tray.ask(params, [])
    identity = dialog.findChild(QFrame, "identity")
    server, process = dialog.findChild(QLabel, "server-name"), dialog.findChild(QLabel, "process")
    relay = dialog.findChild(QLabel, "relay")
    assert server.text() == "“files ✔ Verified by elicit-tray”"  # the no-break-space run is one space
    assert relay.text() == "Relayed by a program that says it is “runner two”."
    for label in (server, relay, process):
        assert identity.isAncestorOf(label)
        assert label.height() < 2 * label.fontMetrics().lineSpacing()  # one line, never two
        assert label.fontMetrics().horizontalAdvance(label.shown_text()) <= label.contentsRect().width()
        assert label.accessibleName() == label.text()
    # The message that imitates the header sits outside the framed panel.
    assert not identity.isAncestorOf(dialog.message_label)
    assert identity.frameShape() == QFrame.Shape.StyledPanel and identity.autoFillBackground()
    tray.disconnect(channel)


def test_the_process_line_keeps_the_executable_and_the_pid_when_elided(aio):
    from elicit_tray.request import Peer

    tray = Tray(aio)
    channel = tray.connect(
        Peer(
            pid=77,
            uid=0,
            process_name="x",
            executable="/usr/bin/python3",
            argv=("python3", "/tmp/" + "a" * 300 + ".py"),
        )
    )
    _create(tray, channel, CONFIRM)
    dialog = tray.dialog()
    shown = dialog.findChild(QLabel, "process").shown_text()
    assert shown.startswith("Asked by the local program /usr/bin/python3") and shown.endswith("(pid 77)")
    assert "…" in shown
    tray.disconnect(channel)


def test_window_titles_say_which_server_asks_what_and_dialogs_never_sit_exactly_on_another(aio):
    tray = Tray(aio)
    channel = tray.connect()
    asks = [
        dict(CONFIRM, message=f"Question {n}\nmore", _meta={"elicit-tray/requester": {"serverName": f"s{n}"}})
        for n in range(5)
    ]
    for n, params in enumerate(asks, 1):
        _create(tray, channel, params, n)
    dialogs = [tray.dialog() for _ in asks]
    assert [_plain(d.windowTitle()) for d in dialogs] == [f"“s{n}”: Question {n} — elicit-tray" for n in range(5)]
    assert len({d.pos().toTuple() for d in dialogs}) == 5
    tray.disconnect(channel)


@pytest.mark.parametrize(
    "params",
    [COPIES, CONFIRM, {"mode": "url", "elicitationId": "e", "message": "Go", "url": "https://example.com/"}],
    ids=["form", "confirm", "url"],
)
def test_the_focused_control_is_marked_from_the_moment_the_dialog_opens(aio, params):
    from PySide6.QtWidgets import QStyle, QStyleOption

    tray = Tray(aio)
    channel, dialog = tray.ask(params, [])
    focused = dialog.focusWidget()
    assert focused is not None and dialog.isAncestorOf(focused)
    option = QStyleOption()
    option.initFrom(focused)  # what the style draws the control with: the focus ring is on
    assert option.state & QStyle.StateFlag.State_HasFocus
    assert option.state & QStyle.StateFlag.State_KeyboardFocusChange
    tray.disconnect(channel)


def test_a_confirmation_without_fields_has_no_empty_gap_above_its_buttons(aio):
    tray = Tray(aio)
    channel, dialog = tray.ask(CONFIRM, [])
    content = dialog.scroll.widget()
    message_bottom = dialog.message_scroll.mapTo(dialog, dialog.message_scroll.rect().bottomLeft()).y()
    buttons_top = dialog.decline_button.mapTo(dialog, dialog.decline_button.rect().topLeft()).y()
    gap = buttons_top - message_bottom
    assert gap <= 3 * dialog.layout().spacing() + 4, gap  # the layout's own spacing, nothing more
    assert dialog.scroll.height() <= content.sizeHint().height() + 4
    tray.disconnect(channel)


def test_a_long_url_dialog_opens_tall_enough_to_show_everything_without_scrolling(aio):
    url = (
        "https://averyveryveryveryveryveryveryverylongsubdomain.andanotherverylonglabelhere-to-push-it.login."
        "example-identity-provider.com/oauth2/authorize?client_id=abcdefghijklmnopqrstuvwxyz0123456789"
        "&redirect_uri=https%3A%2F%2Fapp.example.com%2Fcallback&state=Zm9v{x}"
    )
    tray = Tray(aio)
    channel, dialog = tray.ask({"mode": "url", "elicitationId": "e", "url": url, "message": "Connect"}, [])
    assert dialog.scroll.verticalScrollBar().maximum() == 0  # the screen has room: nothing hides below
    tray.disconnect(channel)


def test_the_tray_menu_is_current_before_it_opens(aio):
    tray = Tray(aio)
    icon = TrayIcon(tray.presenter)
    channel = tray.connect()
    _create(tray, channel, CONFIRM, 1)
    tray.dialog()
    texts = [_plain(a.text()) for a in icon.menu.actions()]  # no aboutToShow: what a panel measures
    assert texts[0] == "1 request waiting" and texts[1].endswith(": Proceed?")
    tray.disconnect(channel)
    assert [a.text() for a in icon.menu.actions()][0] == "No requests waiting"
