"""The widget registry (elicit_tray.ui.registry): every row of its table builds, reads, writes,
validates and is driven by the scripted user, from the examples in the row itself, so a new
row is covered the moment it is added; a kind without a row is a named error.

As in magicgui ("this schema -> this widget class") and rjsf (one widget per kind/format).
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from elicit_tray.schema import FieldKind, parse_requested_schema
from elicit_tray.schema.formats import FORMATS, StringFormat
from elicit_tray.ui.registry import TABLE, Example, NoWidgetForKind, Row, WidgetRegistry, registry
from elicit_tray.ui.scripted import perform
from tests.ui.harness import Tray


def _params(example: Example) -> dict[str, Any]:
    return {
        "message": "m",
        "requestedSchema": {
            "type": "object",
            "properties": {"f": dict(example.schema)},
            "required": ["f"] if example.required else [],
        },
    }


def _steps(steps) -> list[dict[str, Any]]:
    return [{**step, "field": "f"} for step in steps]


@pytest.fixture
def utc(monkeypatch):
    """Local time is UTC (a date-time typed in local time then has the offset +00:00)."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize(
    ("row", "example"),
    [
        pytest.param(row, example, id=f"{getattr(row.key, 'value', row.key)}-{index}")
        for row in TABLE
        for index, example in enumerate(row.examples)
    ],
)
def test_every_row_builds_reads_writes_validates_and_is_driven(aio, utc, row: Row, example: Example):
    # builds: the example resolves to this row and gets its adapter
    (spec,) = parse_requested_schema(_params(example)["requestedSchema"]).fields
    assert registry.key(spec) == row.key and spec.kind in row.kinds
    adapter = registry.pick(spec)
    assert type(adapter) is row.adapter
    # writes and reads: what is set is what it holds
    adapter.set_value(example.value)
    assert adapter.value() == (example.value, None)
    # driven: the scripted user's steps on a new dialog give the value, sent as it is
    tray = Tray(aio)
    channel, dialog = tray.ask(_params(example), _steps(example.steps))
    assert dialog.rows["f"].current() == (example.value, None)
    perform(dialog, [{"do": "submit"}])
    assert tray.reply(channel)["result"] == {"action": "accept", "content": {"f": example.value}}
    # validates: the invalid steps leave an error in the row and nothing is sent
    if example.invalid is not None:
        channel, dialog = tray.ask(_params(example), _steps(example.invalid) + [{"do": "submit"}], request_id=2)
        tray.settle()
        assert set(dialog.errors()) == {"f"} and channel.sent == [] and dialog.outcome is None
        assert dialog.error_labels["field-f-error"].text() == "⚠ " + dialog.errors()["f"]
        tray.disconnect(channel)


def test_every_kind_of_the_model_has_a_row_and_every_row_an_example():
    kinds = {row.key for row in TABLE if isinstance(row.key, FieldKind)}
    assert kinds == set(FieldKind)
    assert [row.key for row in TABLE if not row.examples] == []


@pytest.mark.parametrize("fmt", [pytest.param(row, id=name) for name, row in FORMATS.items()])
def test_every_string_format_has_a_widget_and_an_example(fmt: StringFormat):
    """Each row of the format table (schema/formats.py) is built by a row of the registry, and
    that row shows it in an example (built and driven above)."""
    schema = {"type": "object", "properties": {"f": {"type": "string", "format": fmt.name}}}
    (spec,) = parse_requested_schema(schema).fields
    serving = registry.row(spec)  # NoWidgetForKind when no row serves the format's kind
    assert type(registry.pick(spec)) is serving.adapter
    shown = [row.key for row in TABLE for example in row.examples if example.schema.get("format") == fmt.name]
    assert serving.key in shown, f"add an Example with format {fmt.name!r} to the registry row {serving.key!r}"


def test_a_kind_without_a_row_is_a_named_error_and_the_override_is_undone():
    local = WidgetRegistry()
    (spec,) = parse_requested_schema({"type": "object", "properties": {"n": {"type": "number"}}}).fields
    with local.override(FieldKind.NUMBER, None):
        with pytest.raises(NoWidgetForKind) as caught:
            local.pick(spec)
        assert caught.value.spec is spec and "'number'" in str(caught.value)
    assert type(local.pick(spec)).__name__ == "NumberField"
    assert list(local.rows) == [row.key for row in TABLE]  # the order, which variants depend on, too


def test_an_override_swaps_one_rows_adapter_for_the_with_block():
    from elicit_tray.ui.widgets import TextField

    local = WidgetRegistry()
    (spec,) = parse_requested_schema({"type": "object", "properties": {"n": {"type": "integer"}}}).fields
    with local.override(FieldKind.INTEGER, TextField):
        assert type(local.pick(spec)) is TextField
    assert type(local.pick(spec)) is not TextField


def test_the_adapters_do_not_import_the_registry():
    """One direction only: the registry imports the adapters (widgets.py, datepicker.py), never
    the other way, so every importer gets the registry's own types from ui/registry.py."""
    import ast
    import inspect

    from elicit_tray.ui import datepicker, widgets

    for module in (widgets, datepicker):
        tree = ast.parse(inspect.getsource(module))
        imported = {
            name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)
            for name in [node.module or "", *(alias.name for alias in node.names)]
        }
        assert not {name for name in imported if name.endswith("registry")}, module.__name__
        assert not hasattr(module, "WidgetRegistry") and not hasattr(module, "__getattr__")
