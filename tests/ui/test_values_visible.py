"""What the user reads is the truth (issue 10 §3): invisible characters in values and defaults
are named under the field without changing the value sent back, and long unbroken words in
server text wrap inside the dialog instead of being cut off."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QRectF
from PySide6.QtGui import QAccessible, QGuiApplication, QInputMethodEvent, QTextLayout, QTextOption
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel

from elicit_tray.display import ZWSP
from elicit_tray.ui.widgets import WrappingLabel
from tests.ui.harness import Tray

NOTICE = "Invisible characters in this value: U+200F RIGHT-TO-LEFT MARK. It is exactly: \\u200f12 34 56"


def _form(properties: dict, required: list[str] | None = None, message: str = "Check the values") -> dict:
    return {
        "message": message,
        "requestedSchema": {"type": "object", "properties": properties, "required": required or []},
    }


def _type(widget, text: str) -> None:
    """Type ``text`` as an input method commits it (QTest types only ASCII keys)."""
    event = QInputMethodEvent()
    event.setCommitString(text)
    QCoreApplication.sendEvent(widget, event)


def _description(widget) -> str:
    return QAccessible.queryAccessibleInterface(widget).text(QAccessible.Text.Description)


def test_an_invisible_mark_in_a_default_is_named_and_the_untouched_default_goes_back_exactly(aio):
    tray = Tray(aio)
    params = _form({"code": {"type": "string", "title": "Code", "default": "\u200f12 34 56"}})
    channel, dialog = tray.ask(params, [])
    row = dialog.rows["code"]
    notice = dialog.findChild(QLabel, "field-code-invisible")
    assert notice.isVisible() and notice.text() == NOTICE
    assert _description(row.adapter.edit) == NOTICE
    assert row.adapter.edit.text() == "\u200f12 34 56"  # the editor holds the value itself
    dialog.attempt_submit()
    reply = tray.reply(channel)
    assert reply == {"jsonrpc": "2.0", "id": 1, "result": {"action": "accept", "content": {"code": "\u200f12 34 56"}}}
    assert reply["result"]["content"]["code"].encode() == b"\xe2\x80\x8f12 34 56"


def test_the_notice_follows_typing_and_pasting_and_goes_when_the_characters_go(aio):
    tray = Tray(aio)
    params = _form({"name": {"type": "string", "title": "Name", "description": "As on the card"}})
    channel, dialog = tray.ask(params, [])
    edit = dialog.rows["name"].adapter.edit
    notice = dialog.findChild(QLabel, "field-name-invisible")
    assert notice.isHidden() and notice.text() == ""
    assert _description(edit) == "As on the card."
    edit.setFocus()
    QTest.keyClicks(edit, "ab")
    _type(edit, "\u200b")
    QTest.keyClicks(edit, "c")
    expected = "Invisible characters in this value: U+200B ZERO WIDTH SPACE. It is exactly: ab\\u200bc"
    assert notice.isVisible() and notice.text() == expected
    assert _description(edit) == "As on the card. " + expected
    QGuiApplication.clipboard().setText("\u202e\u2066x\n")
    edit.paste()  # a newline is shown as a space in a line edit, and kept in the value
    expected = (
        "Invisible characters in this value: U+200B ZERO WIDTH SPACE, U+202E RIGHT-TO-LEFT OVERRIDE, "
        "U+2066 LEFT-TO-RIGHT ISOLATE, U+000A LINE FEED. It is exactly: ab\\u200bc\\u202e\\u2066x\\u000a"
    )
    assert notice.text() == expected and _description(edit) == "As on the card. " + expected
    edit.setText("abc")
    assert notice.isHidden() and notice.text() == ""
    assert _description(edit) == "As on the card."
    _type(edit, "\u200f")
    dialog.attempt_submit()
    assert tray.reply(channel)["result"] == {"action": "accept", "content": {"name": "abc\u200f"}}


def test_option_values_with_invisible_characters_are_shown_written_out_and_sent_back_exactly(aio):
    tray = Tray(aio)
    values = ["\u200f12", "12", "a\u2060b", "c", "d"]
    params = _form(
        {"short": {"type": "string", "enum": values[:2]}, "long": {"type": "string", "enum": values}},
        required=["short", "long"],
    )
    channel, dialog = tray.ask(
        params,
        [
            {"do": "pick", "field": "short", "option": "\\u200f12"},
            {"do": "pick", "field": "long", "option": "a\\u2060b"},
        ],
    )
    assert [b.text() for b in dialog.rows["short"].adapter.buttons] == ["\\u200f12", "12"]
    combo = dialog.rows["long"].adapter.combo
    assert [combo.itemText(i) for i in range(combo.count())] == ["\\u200f12", "12", "a\\u2060b", "c", "d"]
    dialog.attempt_submit()
    assert tray.reply(channel)["result"] == {"action": "accept", "content": {"short": "\u200f12", "long": "a\u2060b"}}


def _laid_out(label: QLabel) -> tuple[int, int, float, float]:
    """``(characters laid out, characters in the label, widest line, height)`` of the label's
    text as Qt draws it (``QLabel.text`` gives Qt's text: the break opportunities included),
    wrapped at the label's width."""
    text = QLabel.text(label)
    layout = QTextLayout(text, label.font())
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)
    layout.setTextOption(option)
    width = label.contentsRect().width()
    laid, widest, height = 0, 0.0, 0.0
    layout.beginLayout()
    while (line := layout.createLine()).isValid():
        line.setLineWidth(width)
        line.setPosition(QRectF(0, height, 0, 0).topLeft())
        laid += line.textLength()
        widest = max(widest, line.naturalTextWidth())
        height += line.height()
    layout.endLayout()
    return laid, len(text), widest, height


def test_long_unbroken_words_in_server_text_wrap_inside_the_dialog_and_nothing_is_cut(aio):
    tray = Tray(aio)
    word, title = "w" * 500, "T" * 300
    params = _form({"password": {"type": "string", "title": title, "description": "d" * 500}}, message="Please " + word)
    params["_meta"] = {"elicit-tray/requester": {"serverName": "s" * 400}}
    channel, dialog = tray.ask(params, [])
    warning = dialog.findChild(QLabel, "warning")
    assert warning.text() == (
        "⚠ This form seems to ask for a secret (" + title + "). MCP forbids servers to ask for "
        "passwords, tokens or keys in a form. Decline unless you are sure."
    )
    labels = {
        "warning": warning,
        "message": dialog.message_label,
        "description": dialog.findChild(QLabel, "field-password-description"),
        "title": dialog.rows["password"].label,
    }
    server = dialog.findChild(QLabel, "server-name")  # the identity header: one elided line instead
    assert server.text() == "“" + "s" * 400 + "”" and server.shown_text().endswith("…")
    assert server.fontMetrics().horizontalAdvance(server.shown_text()) <= server.contentsRect().width()
    for name, label in labels.items():
        assert isinstance(label, WrappingLabel), name
        assert ZWSP not in label.text() and ZWSP in QLabel.text(label), name  # breaks for display only
        laid, length, widest, height = _laid_out(label)
        assert laid == length, name  # every character is on a line
        assert widest <= label.contentsRect().width(), name  # and every line fits the label
        assert label.contentsRect().height() >= height, name  # every line is in view
        assert label.sizeHint().width() <= dialog.width() and label.width() <= dialog.width(), name
        right = label.mapTo(dialog, label.rect().topRight()).x()
        assert right <= dialog.width(), name
    # Without the break opportunities Qt would have had to cut: the test measures something.
    bare = QTextLayout(word, dialog.message_label.font())
    bare.beginLayout()
    line = bare.createLine()
    line.setLineWidth(dialog.message_label.width())
    bare.endLayout()
    assert line.naturalTextWidth() > dialog.width()
    dialog.decline_button.click()
    assert tray.reply(channel)["result"] == {"action": "decline"}
