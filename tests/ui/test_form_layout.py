"""Form layout faults seen on real desktops (issue 12 §2): what the user must see stays in view
and rows never overlap after errors come and go."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QCheckBox, QLabel

from tests.ui.harness import Tray


def _form(properties: dict, required: list[str]) -> dict:
    return {"message": "Fill in", "requestedSchema": {"type": "object", "properties": properties, "required": required}}


def _in_viewport(dialog, widget) -> bool:
    viewport = dialog.scroll.viewport()
    top_left = widget.mapTo(viewport, widget.rect().topLeft())
    return viewport.rect().contains(QRect(top_left, widget.size()))


def _tall(required_at: int, count: int = 60) -> dict:
    properties = {f"f{n:02d}": {"type": "string", "title": f"Field {n}"} for n in range(count)}
    return _form(properties, [f"f{required_at:02d}"])


@pytest.mark.parametrize("required_at", [3, 30, 59])
def test_enter_on_an_invalid_tall_form_shows_the_first_invalid_field_and_its_error(aio, required_at):
    tray = Tray(aio)
    channel, dialog = tray.ask(_tall(required_at), [])
    assert dialog.scroll.verticalScrollBar().maximum() > 0  # taller than the window: it scrolls
    QTest.keyClick(dialog.focusWidget(), Qt.Key.Key_Return)
    tray.settle()
    row = dialog.rows[f"f{required_at:02d}"]
    assert dialog.errors() == {f"f{required_at:02d}": "This field is required."}
    assert row.adapter.focus_target.hasFocus()
    assert _in_viewport(dialog, row.adapter.focus_target) and _in_viewport(dialog, row.error)
    assert channel.sent == []
    tray.disconnect(channel)


def test_please_correct_goes_away_once_the_field_is_fixed(aio):
    tray = Tray(aio)
    channel, dialog = tray.ask(_form({"name": {"type": "string", "title": "Name"}}, ["name"]), [])
    field = dialog.rows["name"].adapter.focus_target
    QTest.keyClick(field, Qt.Key.Key_Return)
    tray.settle()
    assert dialog.status_label.isVisible() and dialog.status_label.text() == "Please correct the highlighted field."
    QTest.keyClicks(field, "A")
    tray.settle()
    assert not dialog.status_label.isVisible() and dialog.errors() == {}
    tray.disconnect(channel)


def test_multi_select_rows_never_overlap_after_an_error_elsewhere_comes_and_goes(aio):
    tray = Tray(aio)
    params = _form(
        {
            "name": {"type": "string", "title": "Name"},
            "colors": {
                "type": "array",
                "title": "Colors",
                "items": {"type": "string", "enum": ["Red", "Green", "Blue", "Cyan"]},
            },
            "note": {"type": "string", "title": "Note", "description": "x " * 80},
        },
        ["name"],
    )
    channel, dialog = tray.ask(params, [])
    field = dialog.rows["name"].adapter.focus_target
    QTest.keyClick(field, Qt.Key.Key_Return)  # the name's error appears...
    tray.settle()
    QTest.keyClicks(field, "a")  # ...and goes
    tray.settle()
    boxes = [b for b in dialog.rows["colors"].adapter.widget.findChildren(QCheckBox)]
    assert [b.text() for b in boxes] == ["Red", "Green", "Blue", "Cyan"]
    for box in boxes:
        assert box.height() >= box.sizeHint().height(), box.text()
    tops = [b.mapTo(dialog, b.rect().topLeft()).y() for b in boxes]
    bottoms = [b.mapTo(dialog, b.rect().bottomLeft()).y() for b in boxes]
    assert all(bottoms[i] < tops[i + 1] for i in range(len(boxes) - 1)), (tops, bottoms)
    tray.disconnect(channel)


@pytest.mark.parametrize(
    "field",
    [
        {
            "type": "array",
            "title": "Instruments",
            "items": {"type": "string", "enum": ["Guitar", "Piano"]},
            "default": ["Guitar"],
        },
        {"type": "string", "title": "Instruments", "enum": ["Guitar", "Piano"], "default": "Piano"},
        {"type": "boolean", "title": "Instruments"},
    ],
    ids=["multi-select", "radio", "optional-boolean"],
)
def test_reaching_a_choice_with_its_alt_letter_focuses_it_and_changes_nothing(aio, qtbot, field):
    tray = Tray(aio)
    params = _form({"note": {"type": "string", "title": "Note"}, "instruments": field}, [])
    channel, dialog = tray.ask(params, [])
    label = dialog.findChild(QLabel, "field-instruments-label")
    if label is None:
        pytest.skip("this kind labels itself")
    letter = label.text()[label.text().index("&") + 1]
    QTest.keyClick(dialog, letter.lower(), Qt.KeyboardModifier.AltModifier)
    # A mnemonic that clicks a button holds it down for its animated click (100 ms) and toggles
    # it on release: once no button is down, any toggle has happened.
    qtbot.waitUntil(lambda: not any(b.isDown() for b in dialog.findChildren(QAbstractButton)), timeout=2000)
    target = dialog.rows["instruments"].adapter.focus_target
    assert target.hasFocus()
    QTest.keyClick(target, Qt.Key.Key_Return)
    result = tray.reply(channel)["result"]
    expected = {key: value for key, value in {"instruments": field.get("default")}.items() if value is not None}
    assert result == {"action": "accept", "content": expected}
