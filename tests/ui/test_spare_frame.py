"""The form frame the presenter builds ahead (``Presenter._make_spare``, ``FormDialog.take``):
the next form request gets it, and it shows exactly that request: no content, arming, focus or
text of the request before it, and it never serves a second request."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QLocale, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel, QLineEdit

from elicit_tray.elicitation import parse_elicit_params
from elicit_tray.request import Cancelled
from elicit_tray.ui.form_dialog import FormDialog
from elicit_tray.ui.i18n import install_translations
from tests import rpc
from tests.ui.harness import Tray, shown_texts

FIRST = {
    "message": "First request: the launch plan?",
    "requestedSchema": {
        "type": "object",
        "properties": {
            "plan": {"type": "string", "title": "Plan"},
            "note": {"type": "string", "title": "Note", "default": "default-of-the-first"},
            "extra": {"type": "boolean", "title": "Extra", "default": True},
        },
        "required": ["plan"],
    },
    "_meta": {"elicit-tray/requester": {"serverName": "first-server"}},
}
SECOND = {
    "message": "Second request: your name?",
    "requestedSchema": {"type": "object", "properties": {"name": {"type": "string", "title": "Name"}}},
    "_meta": {"elicit-tray/requester": {"serverName": "second-server"}},
}
ARM_MS = 300


def _answer_first(tray: Tray) -> None:
    channel, _dialog = tray.ask(
        FIRST, [{"do": "type", "field": "plan", "text": "typed-in-the-first"}, {"do": "submit"}]
    )
    assert tray.reply(channel)["result"] == {
        "action": "accept",
        "content": {"plan": "typed-in-the-first", "note": "default-of-the-first", "extra": True},
    }
    for _ in range(3):  # the frame is built on a zero timer once the request ended
        tray.settle()


def test_the_next_form_gets_the_frame_built_ahead_and_nothing_of_the_request_before(aio):
    tray = Tray(aio, arm_delay_ms=ARM_MS)
    _answer_first(tray)
    spare = tray.presenter._spare
    assert spare is not None and spare.isHidden() and not spare.rows
    channel = tray.connect()
    tray.send(channel, rpc.create(2, SECOND))
    dialog = tray.run(tray.shown.get())
    assert dialog is spare and tray.presenter._spare is None  # used once: no longer the spare
    # Exactly the second request on screen: its server, message, title and field, nothing else.
    texts = shown_texts(dialog)
    assert "second-server" in texts and "Second request: your name?" in texts
    assert "first-server" not in texts and "launch plan" not in texts and "default-of-the-first" not in texts
    assert "second-server" in dialog.windowTitle() and "first-server" not in dialog.windowTitle()
    assert list(dialog.rows) == ["name"] and set(dialog.error_labels) == {"field-name-error"}
    assert dialog.findChild(QLabel, "field-plan-label") is None and dialog.errors() == {}
    assert [edit.text() for edit in dialog.findChildren(QLineEdit)] == [""]  # nothing typed or given before
    assert dialog.outcome is None and not dialog.expired and dialog.countdown is None
    # Not armed: it arms only its own delay after it became active, with the first field focused.
    dialog.activateWindow()
    tray.settle()
    field = dialog.rows["name"].adapter.focus_target
    assert not dialog.is_armed and field.hasFocus()
    QTest.keyClicks(field, "early")
    QTest.keyClick(field, Qt.Key.Key_Return)
    tray.settle()
    assert field.text() == "" and channel.sent == []
    tray.arm(dialog)
    QTest.keyClicks(field, "Ada")
    QTest.keyClick(field, Qt.Key.Key_Return)
    assert tray.reply(channel) == {
        "jsonrpc": "2.0",
        "id": 2,
        "result": {"action": "accept", "content": {"name": "Ada"}},
    }


def test_a_frame_built_with_other_settings_is_not_used(aio):
    tray = Tray(aio)
    _answer_first(tray)
    spare = tray.presenter._spare
    assert spare is not None
    tray.presenter.arm_delay_ms = 500  # changed since the frame was built
    channel = tray.connect()
    tray.send(channel, rpc.create(2, SECOND))
    dialog = tray.run(tray.shown.get())
    assert dialog is not spare and dialog.arming.delay_ms == 500


def test_a_frame_serves_one_request_answers_nothing_before_it_and_is_never_shown_empty(qapp):
    frame = FormDialog(None, arm_delay_ms=0)
    answered: list[object] = []
    frame.answered.connect(answered.append)
    frame.reject()
    frame.finish(Cancelled("tray"))
    assert answered == [] and frame.outcome is None
    with pytest.raises(RuntimeError):
        frame.prepare()  # what the presenter and the first show do
    frame.take(parse_elicit_params(SECOND))
    with pytest.raises(RuntimeError):
        frame.take(parse_elicit_params(FIRST))
    assert list(frame.rows) == ["name"] and frame.message_label.text() == "Second request: your name?"


def test_a_form_from_the_frame_still_appears_without_the_focus(aio):
    """The frame has no native window until it is shown: Qt hands WA_ShowWithoutActivating to
    the platform only when it creates the window, and a window created ahead took the focus
    from someone typing."""
    tray = Tray(aio)
    _answer_first(tray)
    spare = tray.presenter._spare
    assert spare is not None and spare.windowHandle() is None
    channel = tray.connect()
    tray.send(channel, rpc.create(2, SECOND))
    dialog = tray.run(tray.shown.get())
    assert dialog is spare and not dialog.arming.engaged
    assert dialog.windowHandle().property("_q_showWithoutActivating") is True


def test_a_frame_built_before_the_language_changed_is_not_used(aio):
    """Its buttons, tooltips and Alt+D shortcut were translated when it was built."""
    tray = Tray(aio)
    _answer_first(tray)
    spare = tray.presenter._spare
    assert spare is not None
    try:
        install_translations(QLocale("de_DE"))
        tray.settle()  # the language change reaches every window
        channel = tray.connect()
        tray.send(channel, rpc.create(2, SECOND))
        dialog = tray.run(tray.shown.get())
        assert dialog is not spare and dialog.decline_button.text() == "&Ablehnen"
    finally:
        install_translations(QLocale("en_US"))
