"""Field kind -> widget adapter: the one place to add a widget kind.

As in magicgui and rjsf: a registry object with a literal data table (:data:`TABLE`) and one
:meth:`WidgetRegistry.pick` whose precedence is in its docstring, plus a context manager
(:meth:`WidgetRegistry.override`) that swaps an entry for a test. A field whose kind has no
row raises :class:`NoWidgetForKind`. The adapters live in :mod:`~elicit_tray.ui.widgets`;
the form row around them (:mod:`~elicit_tray.ui.form_row`) and the scripted user
(:mod:`~elicit_tray.ui.scripted`) never look at the kind.

Adding a widget kind is one adapter class plus one row. For example, a colour picker for
``{"type": "string", "format": "color"}`` text fields::

    # widgets.py: the adapter (value/set_value; type_text, pick, toggle... where the default
    # of FieldWidget does not fit what a user does with it)
    class ColorField(TextField):
        ...

    # registry.py, in TABLE, before the TEXT row (variants are tried in table order):
    Row("color", ColorField, (FieldKind.TEXT,), when=lambda spec: spec.format == "color",
        examples=(Example({"type": "string", "format": "color"}, "#ff0000",
                          steps=({"do": "type", "text": "#ff0000"},), invalid=None),)),

``tests/ui/test_registry.py::test_every_row_builds_reads_writes_validates_and_is_driven``
then builds every example of the new row: it must resolve to the row, read back what it
writes, show an error for its ``invalid`` steps and give ``value`` after the scripted user's
``steps``. ``test_every_kind_of_the_model_has_a_row`` fails for a
:class:`~elicit_tray.schema.FieldKind` that has no row, and
``test_every_string_format_has_a_widget_and_an_example`` for a row of the string format table
(:data:`~elicit_tray.schema.formats.FORMATS`) that no example here shows.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..schema import FieldKind, FieldSpec
from .datepicker import DateField, DateTimeField, picker_shows
from .widgets import (
    BooleanField,
    ComboSelect,
    FieldWidget,
    MultiSelect,
    NumberField,
    RadioSelect,
    TextField,
    TriStateBoolean,
)

__all__ = [
    "RADIO_MAX_OPTIONS",
    "TABLE",
    "Example",
    "Factory",
    "NoWidgetForKind",
    "Row",
    "Variant",
    "WidgetKey",
    "WidgetRegistry",
    "registry",
]

#: A required single-select with at most this many options is a radio group, else a combo box.
RADIO_MAX_OPTIONS = 4

#: The name of a row that serves some fields of a kind in another way than the kind's own row.
Variant = Literal["radio", "tristate", "date-as-text"]
#: A row's key: the :class:`~elicit_tray.schema.FieldKind` it serves, or a :data:`Variant`.
WidgetKey = FieldKind | Variant
#: Builds the adapter of one field (an adapter class is one).
Factory = Callable[[FieldSpec], FieldWidget]
#: A scripted-user step (the vocabulary of :func:`~elicit_tray.ui.scripted.perform`).
Step = Mapping[str, Any]


class NoWidgetForKind(LookupError):
    """No row of the registry serves ``spec.kind`` (a kind of the model without a widget).

    Attributes:
        spec: the :class:`~elicit_tray.schema.FieldSpec` that could not be built.
    """

    def __init__(self, spec: FieldSpec):
        super().__init__(f"no widget for field {spec.name!r} of kind {spec.kind.value!r}")
        self.spec = spec


@dataclass(frozen=True)
class Example:
    """One field a row builds: the row's documentation, and what
    ``tests/ui/test_registry.py`` builds and drives for it.

    Attributes:
        schema: a ``requestedSchema`` property that resolves to the row (listed in ``required``
            when ``required``).
        value: a value in content form the adapter holds (``set_value`` then ``value``), and
            the one the scripted user's ``steps`` enter.
        steps: scripted-user steps without ``"field"`` (it is added) that, on a new dialog,
            make the field hold ``value``.
        invalid: steps after which Accept shows the field's error and sends nothing; ``None``
            when the field cannot hold an invalid value.
        required: whether the property is required.
    """

    schema: Mapping[str, Any]
    value: Any
    steps: tuple[Step, ...]
    invalid: tuple[Step, ...] | None
    required: bool = False


@dataclass(frozen=True)
class Row:
    """One entry of the table: fields of a kind in ``kinds`` for which ``when`` holds (every
    such field when ``when`` is ``None``: the kind's own row) get ``adapter``."""

    key: WidgetKey
    adapter: Factory
    kinds: tuple[FieldKind, ...]
    when: Callable[[FieldSpec], bool] | None = None
    examples: tuple[Example, ...] = ()


def _short_required_select(spec: FieldSpec) -> bool:
    return spec.required and len(spec.options) <= RADIO_MAX_OPTIONS


def _optional_boolean_without_default(spec: FieldSpec) -> bool:
    return not spec.required and spec.default is None


def _default_no_picker_shows(spec: FieldSpec) -> bool:
    return not picker_shows(spec)


_COLOURS = {"type": "string", "enum": ["red", "green", "blue"]}
_FIVE = {"type": "string", "oneOf": [{"const": c, "title": c.title()} for c in ("a", "b", "c", "d", "e")]}

#: The literal table, variants first (tried in this order), then one row per kind.
TABLE: tuple[Row, ...] = (
    Row(
        "radio",
        RadioSelect,
        (FieldKind.SINGLE_SELECT,),
        when=_short_required_select,
        examples=(Example(_COLOURS, "green", ({"do": "pick", "option": "green"},), invalid=(), required=True),),
    ),
    Row(
        "tristate",
        TriStateBoolean,
        (FieldKind.BOOLEAN,),
        when=_optional_boolean_without_default,
        examples=(Example({"type": "boolean"}, False, ({"do": "toggle"}, {"do": "toggle"}), invalid=None),),
    ),
    # A default no picker can show exactly (a leap second, 0100-01-01) is kept as typed text.
    Row(
        "date-as-text",
        TextField,
        (FieldKind.DATE, FieldKind.DATETIME),
        when=_default_no_picker_shows,
        examples=(
            Example(
                {"type": "string", "format": "date", "default": "0100-01-01"},
                "0099-12-31",
                ({"do": "clear"}, {"do": "type", "text": "0099-12-31"}),
                invalid=({"do": "clear"}, {"do": "type", "text": "2027-13-45"}),
            ),
            Example(
                {"type": "string", "format": "date-time", "default": "1990-12-31T23:59:60Z"},
                "2026-01-01T00:00:00.250+01:00",
                ({"do": "clear"}, {"do": "type", "text": "2026-01-01T00:00:00.250+01:00"}),
                invalid=({"do": "clear"}, {"do": "type", "text": "yesterday"}),
            ),
        ),
    ),
    Row(
        FieldKind.TEXT,
        TextField,
        (FieldKind.TEXT,),
        examples=(
            Example(
                {"type": "string", "minLength": 2},
                "Ada",
                ({"do": "type", "text": "Ada"},),
                invalid=({"do": "type", "text": "A"},),
            ),
            Example(
                {"type": "string", "format": "email"},
                "ada@example.com",
                ({"do": "type", "text": "ada@example.com"},),
                invalid=({"do": "type", "text": "ada"},),
            ),
            Example(
                {"type": "string", "format": "idn-email"},
                "jürgen@bücher.example",
                ({"do": "paste", "text": "jürgen@bücher.example"},),
                invalid=({"do": "type", "text": "ada@"},),
            ),
            Example(
                {"type": "string", "format": "uri"},
                "https://example.com/",
                ({"do": "paste", "text": "https://example.com/"},),
                invalid=({"do": "type", "text": "example"},),
            ),
        ),
    ),
    Row(
        FieldKind.NUMBER,
        NumberField,
        (FieldKind.NUMBER,),
        examples=(
            Example(
                {"type": "number", "maximum": 10},
                2.5,
                ({"do": "type", "text": "2.5"},),
                invalid=({"do": "type", "text": "11"},),
            ),
        ),
    ),
    Row(
        FieldKind.INTEGER,
        NumberField,
        (FieldKind.INTEGER,),
        examples=(
            Example({"type": "integer"}, 3, ({"do": "type", "text": "3"},), invalid=({"do": "type", "text": "3.5"},)),
        ),
    ),
    Row(
        FieldKind.BOOLEAN,
        BooleanField,
        (FieldKind.BOOLEAN,),
        examples=(Example({"type": "boolean"}, True, ({"do": "toggle"},), invalid=None, required=True),),
    ),
    Row(
        FieldKind.DATE,
        DateField,
        (FieldKind.DATE,),
        examples=(
            Example(
                {"type": "string", "format": "date"},
                "2027-03-04",
                ({"do": "type", "text": "2027-03-04"},),
                invalid=(),
                required=True,
            ),
        ),
    ),
    # Typed in local time; the value is for TZ=UTC (the registry test runs so).
    Row(
        FieldKind.DATETIME,
        DateTimeField,
        (FieldKind.DATETIME,),
        examples=(
            Example(
                {"type": "string", "format": "date-time"},
                "2027-03-04T05:06:07+00:00",
                ({"do": "type", "text": "2027-03-04 05:06:07"},),
                invalid=(),
                required=True,
            ),
        ),
    ),
    Row(
        FieldKind.SINGLE_SELECT,
        ComboSelect,
        (FieldKind.SINGLE_SELECT,),
        examples=(
            Example(_FIVE, "d", ({"do": "pick", "option": "D"},), invalid=(), required=True),
            Example(_COLOURS, "blue", ({"do": "pick", "option": "blue"},), invalid=None),
        ),
    ),
    Row(
        FieldKind.MULTI_SELECT,
        MultiSelect,
        (FieldKind.MULTI_SELECT,),
        examples=(
            Example(
                {"type": "array", "minItems": 1, "items": _COLOURS},
                ["red", "blue"],
                ({"do": "check", "options": ["blue", "red"]},),
                invalid=(),
                required=True,
            ),
            Example(
                {"type": "array", "items": _COLOURS},
                ["green"],
                ({"do": "check", "options": ["green"]},),
                invalid=None,
            ),
        ),
    ),
)


class WidgetRegistry:
    """Maps a :class:`~elicit_tray.schema.FieldSpec` to its widget adapter through ``rows``
    (a copy of ``table``, :data:`TABLE` by default, keyed by :attr:`Row.key`)."""

    def __init__(self, table: tuple[Row, ...] = TABLE) -> None:
        self.rows: dict[WidgetKey, Row] = {row.key: row for row in table}

    def row(self, spec: FieldSpec) -> Row:
        """The row that serves ``spec``, in this precedence:

        1. the first variant row (``when`` set), in table order, that serves ``spec.kind`` and
           whose ``when(spec)`` holds: ``"radio"`` (a required single-select with at most
           :data:`RADIO_MAX_OPTIONS` options), ``"tristate"`` (an optional boolean without a
           default), ``"date-as-text"`` (a date or date-time default no picker shows exactly);
        2. the row keyed by ``spec.kind``.

        Raises :class:`NoWidgetForKind` when neither exists.
        """
        for row in self.rows.values():
            if row.when is not None and spec.kind in row.kinds and row.when(spec):
                return row
        keyed = self.rows.get(spec.kind)
        if keyed is None:
            raise NoWidgetForKind(spec)
        return keyed

    def key(self, spec: FieldSpec) -> WidgetKey:
        """The key of the row that serves ``spec`` (:meth:`row`); raises :class:`NoWidgetForKind`."""
        return self.row(spec).key

    def pick(self, spec: FieldSpec, label_text: str | None = None) -> FieldWidget:
        """Build the adapter of the row that serves ``spec`` (precedence: :meth:`row`) and apply
        ``spec.default``. ``label_text`` (with its ``&`` mnemonic) is the text of a control that
        labels itself (checkbox). Raises :class:`NoWidgetForKind`."""
        adapter = self.row(spec).adapter(spec)
        if label_text is not None and adapter.labels_itself:
            adapter.set_label(label_text)
        if spec.default is not None:
            adapter.set_value(spec.default)
        return adapter

    @contextlib.contextmanager
    def override(self, key: WidgetKey, factory: Factory | None) -> Iterator[None]:
        """Within the ``with`` block, fields of row ``key`` get ``factory``; ``None`` takes the
        row out (its fields then raise :class:`NoWidgetForKind` or fall to their kind's row).
        Raises ``KeyError`` for a key with no row."""
        saved = dict(self.rows)  # the order too: variants are tried in it
        if factory is None:
            del self.rows[key]
        else:
            self.rows[key] = dataclasses.replace(self.rows[key], adapter=factory)
        try:
            yield
        finally:
            self.rows = saved

    @property
    def table(self) -> dict[WidgetKey, Factory]:
        """Key -> factory, in precedence order (a read-only view for tests)."""
        return {key: row.adapter for key, row in self.rows.items()}


#: The application's registry.
registry = WidgetRegistry()
