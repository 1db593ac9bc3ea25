"""Issue 11 §1: the biggest legal form builds in work proportional to its size, counted in
widgets and rows per event-loop turn (not timed): 256 multi-selects x 200 options (51,200
checkboxes) stalled the app 8.2 s; the options of a form are now limited in total
(``MAX_FORM_OPTIONS``), so a legal form holds at most that many option widgets."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QCheckBox, QRadioButton, QWidget

from elicit_tray.elicitation import ParamsError, parse_elicit_params
from elicit_tray.limits import MAX_FORM_OPTIONS, MAX_PROPERTIES
from elicit_tray.ui.form_dialog import FIRST_ROWS, LATER_ROWS, FormDialog
from tests.ui.harness import Tray

#: Widgets per field besides its options (row cell, layout holder, label, hint, error, group ...).
PER_FIELD = 5
#: Widgets of the dialog itself (header, message, buttons, scroll areas ...).
CHROME = 48


def _params(per_field: list[int]) -> dict[str, Any]:
    props = {
        f"f{i}": {"type": "array", "title": f"Field {i}", "items": {"enum": [f"o{j}" for j in range(n)]}}
        for i, n in enumerate(per_field)
    }
    return {"message": "Pick", "requestedSchema": {"type": "object", "properties": props}}


def _build_all(dialog: FormDialog) -> list[int]:
    """Build the rows the way the dialog does after its first paint; the rows built per turn."""
    batches = [len(dialog.rows)]
    while dialog._later:
        before = len(dialog.rows)
        dialog._build_later()
        batches.append(len(dialog.rows) - before)
    return batches


@pytest.mark.parametrize(
    "per_field",
    [
        [2] * MAX_PROPERTIES,  # the most fields, with the most options they may share
        [200, 200, 112],  # the longest lists
    ],
    ids=["256-fields-x-2", "3-fields-x-200"],
)
def test_the_biggest_legal_forms_build_a_bounded_number_of_widgets(qapp, per_field):
    assert sum(per_field) == MAX_FORM_OPTIONS
    dialog = FormDialog(parse_elicit_params(_params(per_field)), arm_delay_ms=0)
    try:
        batches = _build_all(dialog)
        assert batches[0] == min(FIRST_ROWS, len(per_field))
        assert all(0 < batch <= LATER_ROWS for batch in batches[1:])
        assert len(dialog.rows) == len(per_field)
        options = dialog.findChildren(QCheckBox) + dialog.findChildren(QRadioButton)
        assert len(options) == MAX_FORM_OPTIONS
        widgets = len(dialog.findChildren(QWidget))
        assert widgets <= CHROME + PER_FIELD * len(per_field) + MAX_FORM_OPTIONS, widgets
    finally:
        dialog.close()
        dialog.deleteLater()


def test_the_form_that_stalled_the_app_is_refused_before_anything_is_built():
    with pytest.raises(ParamsError) as caught:
        parse_elicit_params(_params([200] * MAX_PROPERTIES))
    assert [v.to_json() for v in caught.value.violations] == [
        {"path": "/requestedSchema/properties", "message": "more than 512 options in the form (51200)"}
    ]


# -- the biggest forms of mixed kinds: built in time slices, answered exactly -----------------
def _mixed(n: int) -> dict[str, Any]:
    """``n`` fields rotating over the common kinds, each with a default (benchmarks/forms.py)."""
    kinds: list[dict[str, Any]] = [
        {"type": "string", "description": "What to call it"},
        {"type": "integer", "minimum": 0, "maximum": 1000},
        {"type": "boolean"},
        {"type": "string", "enum": ["small", "medium", "large"]},
        {"type": "string", "format": "email"},
    ]
    defaults = [
        lambda k: f"item {k}",
        lambda k: k,
        lambda k: k % 2 == 0,
        lambda k: "large",
        lambda k: f"u{k}@example.com",
    ]
    props = {f"f{k}": kinds[k % 5] | {"title": f"Field {k}", "default": defaults[k % 5](k)} for k in range(n)}
    return {"message": f"{n} fields", "requestedSchema": {"type": "object", "properties": props}}


def _all_built(tray: Tray, dialog: FormDialog) -> None:
    for _ in range(2000):  # bounded: one chunk of rows per event-loop turn
        if not dialog._later:
            return
        tray.settle()
    raise AssertionError("the rows were never all built")


@pytest.mark.parametrize("n", [200, MAX_PROPERTIES])
def test_a_big_mixed_form_builds_every_row_in_chunks_and_accepts_every_default(aio, n):
    tray = Tray(aio)
    channel = tray.connect()
    params = _mixed(n)
    tray.send(channel, {"jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": params})
    dialog = tray.run(tray.shown.get())
    assert isinstance(dialog, FormDialog)
    assert len(dialog.rows) >= FIRST_ROWS  # the first screenful came before the first paint
    _all_built(tray, dialog)
    tray.arm(dialog)
    assert list(dialog.rows) == [f"f{k}" for k in range(n)]  # schema order
    # every row in one label column: the fields of all chunks start at the same x
    xs = {row.adapter.widget.mapTo(dialog, row.adapter.widget.rect().topLeft()).x() for row in dialog.rows.values()}
    assert len(xs) == 1, xs
    assert dialog.attempt_submit()
    expected = {name: prop["default"] for name, prop in params["requestedSchema"]["properties"].items()}
    assert tray.reply(channel) == {"jsonrpc": "2.0", "id": 1, "result": {"action": "accept", "content": expected}}


def test_a_ping_is_answered_while_a_form_of_256_slow_patterns_is_prepared(aio):
    """The tray answers another connection between the turns that build a big form of slow
    patterns: the pong comes while rows are still being built (ordering, not milliseconds)."""
    props = {
        f"f{i}": {"type": "string", "title": f"Code {i}", "pattern": f"(x+x+)+y|q{i}", "default": "x" * 800}
        for i in range(MAX_PROPERTIES)
    }
    params = {"message": "Slow", "requestedSchema": {"type": "object", "properties": props}}
    tray = Tray(aio)
    asking, watching = tray.connect(), tray.connect()
    tray.send(asking, {"jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": params})
    dialog = tray.run(tray.shown.get())
    rows_at_pong: list[int] = []
    watching_send = watching.send
    watching.send = lambda data: (rows_at_pong.append(len(dialog.rows)), watching_send(data))[1]  # type: ignore[method-assign]
    tray.loop.call_soon(tray.send, watching, {"jsonrpc": "2.0", "id": "p", "method": "ping"})
    assert tray.reply(watching) == {"jsonrpc": "2.0", "id": "p", "result": {}}
    assert rows_at_pong and rows_at_pong[0] < MAX_PROPERTIES  # answered before the form was complete
    _all_built(tray, dialog)
    tray.arm(dialog)
    # no default could be checked in time: none is filled in, and an empty answer is valid
    assert all(row.current()[0] is None for row in dialog.rows.values())
    assert dialog.attempt_submit()
    assert tray.reply(asking) == {"jsonrpc": "2.0", "id": 1, "result": {"action": "accept", "content": {}}}


def test_later_rows_are_built_and_laid_out_with_the_gate_paused_and_it_refuses_keys_after(aio, monkeypatch):
    """The input gate (ui/arming.py) is a Python filter of every event of the app: the ~26,000
    events of building and laying out a 200-field form's later rows went through it one by one.
    Each chunk is now built, polished and laid out in its own turn with the gate paused: the gate
    sees none of that work, and is back right after, so the form, not armed yet, takes no key."""
    from PySide6.QtWidgets import QApplication

    from elicit_tray.ui.arming import InputGate

    seen: list[str] = []

    class CountingGate(InputGate):
        def eventFilter(self, watched: Any, event: Any) -> bool:  # noqa: N802 (Qt naming)
            seen.append(event.type().name)
            return super().eventFilter(watched, event)

    app, before = QApplication.instance(), InputGate._installed
    if before is not None:
        app.removeEventFilter(before)
    gate = CountingGate()
    app.installEventFilter(gate)
    monkeypatch.setattr(InputGate, "_installed", gate)
    try:
        _build_with_the_gate_counted(aio, seen)
    finally:
        app.removeEventFilter(gate)
        if before is not None:
            app.installEventFilter(before)


def _build_with_the_gate_counted(aio: Any, seen: list[str]) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    tray = Tray(aio, arm_delay_ms=60_000)
    channel = tray.connect()
    tray.send(channel, {"jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": _mixed(200)})
    dialog = tray.run(tray.shown.get())
    assert isinstance(dialog, FormDialog)
    dialog._building = True  # the rows are built here, not on the dialog's own timer
    seen.clear()
    batches = _build_all(dialog)
    assert len(dialog.rows) == 200 and len(batches) > 2
    assert seen == []  # before: 26,000 events for these 184 rows
    field = dialog.rows["f0"].adapter.focus_target
    QTest.keyClicks(field, "typed")
    QTest.keyClick(dialog, Qt.Key.Key_Escape)
    tray.settle()
    assert "KeyPress" in seen  # the gate is installed again, and refused them
    assert field.text() == "item 0" and channel.sent == [] and dialog.outcome is None
    dialog.close()
