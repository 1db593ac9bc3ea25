"""Invisible bidi marks in server text never reorder what the user reads: each is shown as
``\\uXXXX`` where it stands, in the message, titles, option titles, the server name, the client
name, the process's arguments and the URL, and each run of server text is isolated."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QAbstractButton, QComboBox, QLabel, QPlainTextEdit

from elicit_tray.elicitation import parse_elicit_params
from elicit_tray.request import Peer
from elicit_tray.ui.labels import summary
from elicit_tray.ui.presenter import Presenter

#: (mark, as it is shown)
MARKS = [
    ("\u200f", "\\u200f"),  # RIGHT-TO-LEFT MARK
    ("\u200e", "\\u200e"),  # LEFT-TO-RIGHT MARK
    ("\u061c", "\\u061c"),  # ARABIC LETTER MARK
    ("\u202b", "\\u202b"),  # RIGHT-TO-LEFT EMBEDDING
    ("\u202a", "\\u202a"),  # LEFT-TO-RIGHT EMBEDDING
    ("\u202c", "\\u202c"),  # POP DIRECTIONAL FORMATTING
    ("\u202e", "\\u202e"),  # RIGHT-TO-LEFT OVERRIDE
    ("\u202d", "\\u202d"),  # LEFT-TO-RIGHT OVERRIDE
    ("\u2067", "\\u2067"),  # RIGHT-TO-LEFT ISOLATE
    ("\u2066", "\\u2066"),  # LEFT-TO-RIGHT ISOLATE
    ("\u2068", "\\u2068"),  # FIRST STRONG ISOLATE
    ("\u2069", "\\u2069"),  # POP DIRECTIONAL ISOLATE
    ("\u206e", "\\u206e"),  # NATIONAL DIGIT SHAPES
]
_ISOLATES = {0x2066: None, 0x2068: None, 0x2069: None}


def _plain(text: str) -> str:
    return text.translate(_ISOLATES)


def _params(text: str, mode: str = "form") -> dict[str, Any]:
    who = {"serverName": text, "clientName": text}
    if mode == "url":
        url = "https://example.com/pay/" + text.replace(" ", "")
        return {"mode": "url", "message": text, "url": url, "_meta": {"elicit-tray/requester": who}}
    schema = {
        "type": "object",
        "properties": {
            "account": {
                "type": "string",
                "title": text,
                "oneOf": [{"const": "a", "title": text}, {"const": "b", "title": "other"}],
            },
            "confirm": {"type": "boolean", "title": "ok " + text},
        },
    }
    return {"message": "Pay to account " + text, "requestedSchema": schema, "_meta": {"elicit-tray/requester": who}}


@pytest.fixture
def presenter(qapp):
    return Presenter(opener=lambda _href: True, arm_delay_ms=0)


@pytest.mark.parametrize(("mark", "shown"), MARKS)
def test_a_mark_in_every_server_string_of_a_form_is_shown_where_it_stands(presenter, mark, shown):
    text = f"{mark}12 34 56"
    peer = Peer(pid=5, executable="/usr/bin/agent", argv=("agent", text))
    dialog = presenter.build(parse_elicit_params(_params(text), peer))
    visible = f"{shown}12 34 56"
    assert dialog.message_label.text() == f"Pay to account {visible}"
    assert dialog.findChild(QLabel, "server-name").text() == f"“{visible}”"
    assert dialog.findChild(QLabel, "relay").text() == f"Relayed by a program that says it is “{visible}”."
    assert (
        dialog.findChild(QLabel, "process").text() == f"Asked by the local program /usr/bin/agent '{visible}' (pid 5)"
    )
    label = dialog.findChild(QLabel, "field-account-label")
    assert label is not None and label.text().replace("&", "") == visible
    options = [c.itemText(i) for c in dialog.findChildren(QComboBox) for i in range(c.count())]
    options += [b.text().replace("&", "") for b in dialog.findChildren(QAbstractButton)]
    assert visible in options
    assert f"ok {visible}" in [w.text().replace("&", "") for w in dialog.findChildren(QLabel)]
    assert _plain(summary(dialog.request)) == f"“{visible}”: Pay to account {visible}"
    for label in dialog.findChildren(QLabel):  # no server mark acts anywhere
        assert mark not in label.text() or mark in "\u2066\u2068\u2069"


@pytest.mark.parametrize(("mark", "shown"), MARKS)
def test_a_mark_in_a_url_request_is_shown_in_the_message_the_name_and_the_address(presenter, mark, shown):
    text = f"{mark}12 34 56"
    dialog = presenter.build(parse_elicit_params(_params(text, "url"), Peer(pid=5)))
    visible = f"{shown}12 34 56"
    assert dialog.message_label.text() == visible
    assert dialog.findChild(QLabel, "server-name").text() == f"“{visible}”"
    box = dialog.findChild(QPlainTextEdit, "full-url").toPlainText()
    assert _plain(box) == f"https://example.com/pay/{shown}123456"


def test_each_run_of_server_text_is_isolated_where_it_meets_other_text(presenter):
    """An Arabic server name before a message of digits: neither pulls the other's run."""
    params = {
        "message": "12 34 56",
        "requestedSchema": {"type": "object", "properties": {}},
        "_meta": {"elicit-tray/requester": {"serverName": "بنك", "serverTitle": "بنك الخليج", "serverVersion": "2"}},
    }
    dialog = presenter.build(parse_elicit_params(params, Peer(pid=5)))
    assert (
        summary(dialog.request)
        == "“\u2068\u2068بنك الخليج\u2069 (\u2068بنك\u2069) \u20682\u2069\u2069”: \u206812 34 56\u2069"
    )
    assert dialog.windowTitle() == summary(dialog.request) + " — elicit-tray"
