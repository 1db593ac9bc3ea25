"""Property: whatever a user does to a field short of an explicit set (keys, clicks on its
controls and their Clear buttons, the wheel, focus in and out, drop-down lists and calendars
opened and dismissed, a paste of nothing), Accept sends the field only when it SHOWS a value,
and then exactly the value shown, in the schema's form (README "What a form sends"); with a
server default that is shown as it came, exactly the default. On the way, the wheel over a
field without the focus never changes it, and Escape in a popup puts back the look the field
had when the popup opened.

The fields are derived from the registry's table (ui/registry.py ``TABLE``): every example of
every row, as an optional field without a default, with a default and, for required examples,
required; so a row added with an example is covered at once, and a field kind whose look this
test cannot read fails loudly (:func:`_shown`). Hypothesis draws the action sequences,
derandomized (the same examples on every run) and few per field, offscreen.
"""

from __future__ import annotations

import json
import re
import time
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QGuiApplication, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDateTimeEdit,
    QLabel,
    QLineEdit,
    QRadioButton,
    QWidget,
)

from elicit_tray.schema import FieldKind, FieldSpec, parse_requested_schema
from elicit_tray.ui.i18n import translate
from elicit_tray.ui.registry import TABLE, registry
from elicit_tray.ui.scripted import perform
from tests.ui.harness import Tray


def _variants() -> dict[str, tuple[dict[str, Any], bool]]:
    """id -> (property schema, required): each registry example bare (optional, no default),
    with a default (its own, else its value) and, when the example is required, required."""
    out: dict[str, tuple[dict[str, Any], bool]] = {}
    seen: set[str] = set()
    for row in TABLE:
        key = getattr(row.key, "value", row.key)
        for index, example in enumerate(row.examples):
            bare = {k: v for k, v in example.schema.items() if k != "default"}
            default = example.schema.get("default", example.value)
            candidates = [("optional", bare, False), ("default", {**bare, "default": default}, example.required)]
            if example.required:
                candidates.append(("required", bare, True))
            for how, schema, required in candidates:
                fingerprint = json.dumps([schema, required], sort_keys=True)
                if fingerprint not in seen:
                    seen.add(fingerprint)
                    out[f"{key}-{index}-{how}"] = (schema, required)
    return out


VARIANTS = _variants()


def _params(schema: dict[str, Any], required: bool) -> dict[str, Any]:
    return {
        "message": "m",
        "requestedSchema": {
            "type": "object",
            "properties": {"f": {**schema, "title": "F"}, "note": {"type": "string", "title": "Note"}},
            "required": ["f"] if required else [],
        },
    }


def _spec(schema: dict[str, Any], required: bool) -> FieldSpec:
    return parse_requested_schema(_params(schema, required)["requestedSchema"]).fields[0]


def test_every_row_of_the_registry_is_reached_by_a_variant():
    """A row that no variant resolves to would escape the property: give it an example."""
    reached = {registry.key(_spec(schema, required)) for schema, required in VARIANTS.values()}
    assert reached == {row.key for row in TABLE}


# -- the vocabulary: no action is an explicit "set" (no pick, no check, no typed value) --------
NO = Qt.KeyboardModifier.NoModifier
KEYS: dict[str, tuple[Qt.Key, Qt.KeyboardModifier]] = {
    "Tab": (Qt.Key.Key_Tab, NO),
    "Shift+Tab": (Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier),
    "Up": (Qt.Key.Key_Up, NO),
    "Down": (Qt.Key.Key_Down, NO),
    "PageUp": (Qt.Key.Key_PageUp, NO),
    "PageDown": (Qt.Key.Key_PageDown, NO),
    "Escape": (Qt.Key.Key_Escape, NO),  # only inside a popup: elsewhere it cancels the dialog
    "F4": (Qt.Key.Key_F4, NO),
    "Alt+Down": (Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier),
    "Space": (Qt.Key.Key_Space, NO),
    "Delete": (Qt.Key.Key_Delete, NO),
    "Backspace": (Qt.Key.Key_Backspace, NO),
    "Home": (Qt.Key.Key_Home, NO),
    "End": (Qt.Key.Key_End, NO),
    "Ctrl+A": (Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier),
}
CHARS = "0123456789-.aenrxy"

ACTIONS = st.one_of(
    st.tuples(st.just("key"), st.sampled_from(sorted(KEYS))),
    st.tuples(st.just("char"), st.sampled_from(CHARS)),
    st.tuples(st.just("click"), st.integers(0, 3), st.sampled_from(["start", "end"])),
    st.tuples(st.just("wheel"), st.integers(0, 3), st.sampled_from([1, -1])),
    st.tuples(st.just("focus"), st.sampled_from(["in", "out"])),
    st.tuples(st.just("paste-nothing")),
)


def _inside(adapter, widget: QWidget | None) -> bool:
    return widget is not None and (widget is adapter.widget or adapter.widget.isAncestorOf(widget))


def _key_target(adapter) -> QWidget | None:
    """Where a key goes: an open popup (``None``: QTest then picks the popup's focused widget in
    C++, with no Python wrapper that a deleted dialog's widget at the same address could
    leave stale), else the field's focused control (the field takes the focus first when it
    has left it: every key is aimed at this field)."""
    if QApplication.activePopupWidget() is not None:
        return None
    focus = QApplication.focusWidget()
    if not _inside(adapter, focus):
        adapter.focus_target.setFocus(Qt.FocusReason.TabFocusReason)
        focus = QApplication.focusWidget()
    return focus if _inside(adapter, focus) else adapter.focus_target


def _wheel(widget: QWidget, steps: int) -> None:
    at = QPointF(widget.rect().center())
    event = QWheelEvent(
        at,
        QPointF(widget.mapToGlobal(at)),
        QPoint(),
        QPoint(0, 120 * steps),
        Qt.MouseButton.NoButton,
        NO,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(widget, event)


def _act(tray: Tray, dialog, spec: FieldSpec, action: tuple[Any, ...], opened_with: list[Any]) -> None:
    """Do ``action``; on the way, two rules of the look: the wheel over a control without the
    focus changes nothing (it scrolls the form), and a popup closed by Escape leaves the value
    the look had when it opened (``opened_with`` holds it while a popup is open; "" and "Not
    set" are the same "not set")."""
    adapter = dialog.rows["f"].adapter
    popup_before = QApplication.activePopupWidget() is not None
    look_before = _shown(adapter)
    _do(tray, dialog, adapter, action)
    popup_after = QApplication.activePopupWidget() is not None
    if not popup_before and popup_after:
        opened_with[:] = [_expected(spec, look_before)]
    elif popup_before and not popup_after and action == ("key", "Escape") and opened_with[0] is not INCOMPLETE:
        assert _expected(spec, _shown(adapter)) == opened_with[0], "Escape in the popup changed the field"


def _do(tray: Tray, dialog, adapter, action: tuple[Any, ...]) -> None:
    if QApplication.activePopupWidget() is None and not (dialog.isActiveWindow() and dialog.is_armed):
        tray.arm(dialog)  # back in the dialog after a popup (offscreen, the popup took the window)
    kind = action[0]
    targets = adapter.tab_chain()
    if kind == "key":
        key, modifier = KEYS[action[1]]
        if action[1] == "Escape" and QApplication.activePopupWidget() is None:
            return
        QTest.keyClick(_key_target(adapter), key, modifier)
    elif kind == "char":
        QTest.keyClicks(_key_target(adapter), action[1])
    elif kind == "paste-nothing":
        QGuiApplication.clipboard().setText("")
        QTest.keyClick(_key_target(adapter), Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    elif kind == "click":  # near the start, or the end (a line edit's clear button, a calendar arrow)
        widget = targets[action[1] % len(targets)]
        x = 6 if action[2] == "start" else max(widget.width() - 6, 0)
        QTest.mouseClick(widget, Qt.MouseButton.LeftButton, pos=QPoint(x, widget.height() // 2))
    elif kind == "wheel":
        popup = QApplication.activePopupWidget()
        widget = popup if popup is not None else targets[action[1] % len(targets)]
        passing = popup is None and not widget.hasFocus()
        before = _shown(adapter)
        _wheel(widget, action[2])
        tray.settle()
        assert not passing or _shown(adapter) == before, "a wheel over a field without the focus changed it"
    elif action[1] == "in":
        adapter.focus_target.setFocus(Qt.FocusReason.MouseFocusReason)
    else:
        dialog.rows["note"].adapter.focus_target.setFocus(Qt.FocusReason.MouseFocusReason)
    tray.settle()


# -- what the field shows, and the content that look stands for -------------------------------
NOT_SET = object()
#: A picker's text that is neither "not set" nor a whole date (a year being typed): never sent.
INCOMPLETE = object()


def _title(text: str) -> str:
    """A button's text without its ``&`` mnemonic."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def _shown(adapter) -> tuple[Any, ...]:
    """The field's look, read from its Qt controls (not from the adapter's value)."""
    first = adapter.controls[0]
    if isinstance(first, QDateTimeEdit):
        beside = adapter.widget.findChildren(QLabel, options=Qt.FindChildOption.FindDirectChildrenOnly)
        offsets = [label.text() for label in beside if not label.isHidden()]  # not the calendar's
        return ("picker", first.text(), offsets[0] if offsets else "")
    if isinstance(first, QLineEdit):
        return ("text", first.text())
    if isinstance(first, QComboBox):
        return ("choice", first.currentText() if first.currentIndex() >= 0 else None)
    if isinstance(first, QRadioButton):
        checked = [_title(b.text()) for b in adapter.controls if b.isChecked()]
        return ("choice", checked[0] if checked else None)
    if isinstance(first, QCheckBox):
        return ("checks", tuple(_title(b.text()) for b in adapter.controls if b.isChecked()))
    raise AssertionError(f"no reader for a {type(first).__name__}: teach _shown and _expected its look")


def _expected(spec: FieldSpec, shown: tuple[Any, ...]) -> Any:
    """The content value the look stands for (:data:`NOT_SET`: left out); numbers as
    ``("number", text)``."""
    look, kind = shown[0], spec.kind
    if look == "text":
        text = shown[1]
        if kind in (FieldKind.NUMBER, FieldKind.INTEGER):
            return ("number", text.strip()) if text.strip() else NOT_SET
        return text if text else NOT_SET
    if look == "picker":
        text, offset = shown[1], shown[2]
        if text in ("", translate("Widgets", "Not set")):
            return NOT_SET
        if not re.fullmatch(r"\d{4}-\d\d-\d\d( \d\d:\d\d:\d\d)?", text):
            return INCOMPLETE
        if kind is FieldKind.DATE:
            return text
        return text.replace(" ", "T") + (offset.removeprefix("UTC") or "+00:00")  # local time is UTC here
    if look == "choice":
        title = shown[1]
        if kind is FieldKind.BOOLEAN:
            return {translate("Widgets", "Yes"): True, translate("Widgets", "No"): False}.get(title, NOT_SET)
        return next((o.value for o in spec.options if o.title == title), NOT_SET)
    titles = shown[1]
    empty_is_answer = spec.required or spec.default is not None
    if kind is FieldKind.BOOLEAN:
        return True if titles else (False if empty_is_answer else NOT_SET)
    values = [o.value for o in spec.options if o.title in titles]
    return values if values or empty_is_answer else NOT_SET


def _assert_sent_as_shown(spec: FieldSpec, content: dict[str, Any], expected: Any) -> None:
    assert expected is not INCOMPLETE, f"a date half typed was sent: {content.get('f')!r}"
    if expected is NOT_SET:
        assert "f" not in content, f"the field shows no value, yet {content['f']!r} was sent"
        return
    assert "f" in content, f"the field shows {expected!r}, yet nothing was sent"
    if isinstance(expected, tuple):  # a number: as typed (an integer literal stays one)
        text = expected[1]
        sent = json.dumps(content["f"])
        assert Decimal(sent) == Decimal(text), (sent, text)
        if re.fullmatch(r"[+-]?\d+", text):
            assert isinstance(content["f"], int), (sent, text)
        return
    assert json.dumps(content["f"]) == json.dumps(expected)


@pytest.fixture
def utc(monkeypatch):
    """Local time is UTC (a date-time shown in local time then has the offset +00:00)."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def _close_all(tray: Tray, channel) -> None:
    from PySide6.QtCore import QCoreApplication, QEvent

    popup = QApplication.activePopupWidget()
    while popup is not None:
        popup.close()
        popup = QApplication.activePopupWidget()
    tray.disconnect(channel)
    for widget in QApplication.topLevelWidgets():
        widget.close()
        widget.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(actions=st.lists(ACTIONS, max_size=10))
def test_what_is_sent_is_what_the_field_shows(aio, utc, variant, actions):
    schema, required = VARIANTS[variant]
    spec = _spec(schema, required)
    tray = Tray(aio)
    channel, dialog = tray.ask(_params(schema, required), [])
    adapter = dialog.rows["f"].adapter
    first_look = _shown(adapter)
    try:
        opened_with: list[Any] = []
        for action in actions:
            _act(tray, dialog, spec, action, opened_with)
        popup = QApplication.activePopupWidget()
        if popup is not None:  # a click elsewhere closes it: on the way to Accept
            popup.close()
            tray.settle()
        tray.arm(dialog)
        # Accept is clicked, or (disabled) Enter pressed in the form: never on Decline, where a
        # Shift+Tab from the first field may have left the focus
        dialog.rows["note"].adapter.focus_target.setFocus(Qt.FocusReason.MouseFocusReason)
        perform(dialog, [{"do": "submit"}])
        look = _shown(adapter)  # what the user saw as Accept took it (the press moved the focus)
        tray.settle()
        if dialog.outcome is None:  # refused: an error is shown, nothing sent
            assert channel.sent == [] and "f" in dialog.errors(), (look, dialog.errors())
            assert required or _expected(spec, look) is not NOT_SET, f"{look}: 'not set' refused"
            return
        content = tray.reply(channel)["result"]["content"]
        if spec.default is not None and look == first_look:  # the default stands as shown
            assert json.dumps(content.get("f")) == json.dumps(spec.default), (look, content)
        else:
            _assert_sent_as_shown(spec, content, _expected(spec, look))
    finally:
        _close_all(tray, channel)
