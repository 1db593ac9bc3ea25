"""The parsed form model: what a ``requestedSchema`` means, named after the schema vocabulary.

Pure Python (no Qt). Built by :func:`elicit_tray.schema.parse.parse_requested_schema`;
read by the UI's widget registry and by :mod:`elicit_tray.schema.values`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Never, NoReturn

__all__ = [
    "FieldKind",
    "Option",
    "FieldSpec",
    "FormSpec",
    "Violation",
    "SchemaError",
    "UnknownFieldKind",
    "unknown_kind",
]


class FieldKind(enum.Enum):
    """The kind of one form field; the widget registry is keyed by it.

    MCP 2025-11-25 ``PrimitiveSchemaDefinition``: StringSchema (``TEXT``, ``DATE``,
    ``DATETIME`` by ``format``: :data:`~elicit_tray.schema.formats.FORMATS`), NumberSchema (``NUMBER``, ``INTEGER``), BooleanSchema,
    the single-select enum schemas (``SINGLE_SELECT``) and multi-select (``MULTI_SELECT``).
    """

    TEXT = "text"
    DATE = "date"
    DATETIME = "date-time"
    NUMBER = "number"
    INTEGER = "integer"
    BOOLEAN = "boolean"
    SINGLE_SELECT = "single-select"
    MULTI_SELECT = "multi-select"


class UnknownFieldKind(TypeError):
    """A field of a :class:`FieldKind` that a ``match`` over kinds has no case for (a kind
    added to the model without, e.g., its value check): a programming error, never "valid".

    Attributes:
        kind: the kind (or the value in its place) that had no case.
    """

    def __init__(self, kind: object):
        super().__init__(f"no case for field kind {kind!r}")
        self.kind = kind


def unknown_kind(kind: Never) -> NoReturn:
    """The last case of an exhaustive ``match`` over :class:`FieldKind`: mypy reports a
    missing case (``kind`` is then not ``Never``); at run time raises :class:`UnknownFieldKind`."""
    raise UnknownFieldKind(kind)


@dataclass(frozen=True)
class Option:
    """One choice of a select: ``value`` goes back in ``content``, ``title`` is shown."""

    value: str
    title: str


@dataclass(frozen=True)
class FieldSpec:
    """One property of the ``requestedSchema``, validated and normalised.

    Attributes:
        name: the property name (the key in ``content``).
        kind: see :class:`FieldKind`.
        title: the shown label: the schema ``title``, else the property name.
        description: the schema ``description`` or ``None``.
        required: listed in the schema's ``required``.
        format: for a ``TEXT`` field, the name of its row of
            :data:`~elicit_tray.schema.formats.FORMATS` (``"email"``, ``"uri"``...), else
            ``None`` (a ``DATE``/``DATETIME`` field's kind says its format).
        min_length / max_length: string length bounds in characters (code points).
        pattern: a regular expression (older revisions only), searched unanchored.
        minimum / maximum: inclusive numeric bounds (``int`` or ``float``).
        options: the choices of a select, in schema order.
        min_items / max_items: selection count bounds of a multi-select.
        default: the validated default in content form (``None`` when absent or ignored).
        default_ignored: the schema gave a default that does not satisfy its own field; it is
            left out (never shown) and the field's description says so.
    """

    name: str
    kind: FieldKind
    title: str
    description: str | None = None
    required: bool = False
    format: str | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    minimum: int | float | None = None
    maximum: int | float | None = None
    options: tuple[Option, ...] = ()
    min_items: int | None = None
    max_items: int | None = None
    default: Any = None
    default_ignored: bool = False

    @property
    def effective_min_items(self) -> int:
        """``minItems``, or 1 for a required multi-select without one (``docs/design.md``
        "Product policies")."""
        if self.min_items is not None:
            return self.min_items
        return 1 if self.required else 0


@dataclass(frozen=True)
class FormSpec:
    """A whole form: its fields in schema order and the source schema.

    ``schema`` is the ``requestedSchema`` as received (a ``dict``); it is what content is
    finally validated against with ``jsonschema`` before anything is sent.
    """

    fields: tuple[FieldSpec, ...]
    schema: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)

    def field(self, name: str) -> FieldSpec:
        """The field called ``name``; ``KeyError`` if there is none."""
        for spec in self.fields:
            if spec.name == name:
                return spec
        raise KeyError(name)


@dataclass(frozen=True)
class Violation:
    """One reason a request is outside what we render: a JSON Pointer and a sentence.

    Wire form (``data.violations`` of a -32602 error): ``{"path": ..., "message": ...}``.
    """

    path: str
    message: str

    def to_json(self) -> dict[str, str]:
        """The wire form ``{"path", "message"}``."""
        return {"path": self.path, "message": self.message}


class SchemaError(ValueError):
    """A ``requestedSchema`` outside the accepted subset; carries every violation.

    Mapped to JSON-RPC -32602 with ``data.violations`` by the IPC layer.
    """

    def __init__(self, violations: list[Violation]):
        self.violations = list(violations)
        summary = "; ".join(f"{v.path or '/'}: {v.message}" for v in self.violations[:5])
        super().__init__(f"requestedSchema is outside the supported subset: {summary}")
