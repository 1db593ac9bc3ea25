"""Field values: checking, text coercion, content building and final validation.

Pure Python (no Qt). The content policy of ``docs/design.md`` "Product policies": untouched optional
fields and emptied optional text are omitted (the UI passes ``None``); integer -> JSON integer;
number -> finite JSON number exactly as typed; boolean -> ``true``/``false``; date ->
``YYYY-MM-DD``; date-time -> RFC 3339 with seconds and offset; multi-select -> list of strings
in option order. Messages are user-facing sentences. What each string ``format`` accepts,
and the error it gives, is its row of :data:`~elicit_tray.schema.formats.FORMATS`.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Any

from ..translation_marks import QT_TRANSLATE_NOOP
from .formats import FORMATS, format_of, is_date, is_datetime, is_email
from .model import FieldKind, FieldSpec, FormSpec, Violation, unknown_kind
from .pattern import MATCH_TIMEOUT_S, Verdict
from .pattern import check as _pattern_check
from .secrets import looks_secret  # the secret warning's rule and its word lists

__all__ = [
    "check_value",
    "coerce_number",
    "build_content",
    "validate_content",
    "describe_constraints",
    "looks_secret",
    "format_number",
    "PATTERN_TIMEOUT_S",
    "PatternCheck",
    "Message",
    "Sentences",
    "QT_TRANSLATE_NOOP",
    "is_date",
    "is_datetime",
    "is_email",
]

#: Longest time (seconds) one ``pattern`` match may take before it is treated as a mismatch.
PATTERN_TIMEOUT_S = MATCH_TIMEOUT_S
#: ``(pattern, value) -> Verdict``, or ``None`` while the verdict is not known yet (:func:`check_value`).
PatternCheck = Callable[[str, str], str | None]

_NUMBER_RE = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_INT_RE = re.compile(r"[+-]?\d+")


class Message(str):
    """A user-facing English sentence that keeps its template and arguments, so the UI can show
    it in the user's language: ``message.translated(translate)``. Compares as the English text."""

    template: str
    args: dict[str, Any]

    def __new__(cls, template: str, **args: Any) -> Message:
        obj = super().__new__(cls, template.format(**args))
        obj.template, obj.args = template, args
        return obj

    def translated(self, translate: Callable[[str], str]) -> str:
        """The sentence with ``translate(template)`` (context "Validation") filled in."""
        return translate(self.template).format(**self.args)


class Sentences(str):
    """Several :class:`Message` joined by spaces; translatable part by part."""

    parts: tuple[Message, ...]

    def __new__(cls, parts: list[Message]) -> Sentences:
        obj = super().__new__(cls, " ".join(parts))
        obj.parts = tuple(parts)
        return obj

    def translated(self, translate: Callable[[str], str]) -> str:
        """Each part translated, joined by spaces."""
        return " ".join(p.translated(translate) for p in self.parts)


def format_number(value: int | float) -> str:
    """A bound as people read it: ``10``, ``0.5``, ``-180`` (no trailing ``.0``)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)


def coerce_number(spec: FieldSpec, text: str) -> tuple[int | float | None, str | None]:
    """Turn typed text into the JSON number for a NUMBER/INTEGER field, never rounding.

    Returns ``(value, None)``, or ``(None, message)`` when the text is not acceptable, or
    ``(None, None)`` for empty text. Integers typed for a number stay JSON integers (``5``);
    decimals become the float with the same shortest representation (``-74.01``).
    """
    text = text.strip()
    if not text:
        return None, None
    if not _NUMBER_RE.fullmatch(text):
        return None, (
            Message(QT_TRANSLATE_NOOP("Validation", "Enter a whole number."))
            if spec.kind is FieldKind.INTEGER
            else Message(QT_TRANSLATE_NOOP("Validation", "Enter a number, such as 3 or 2.5."))
        )
    if spec.kind is FieldKind.INTEGER:
        try:
            exact = Decimal(text)
        except InvalidOperation:  # pragma: no cover - the regex admits only valid literals
            return None, Message(QT_TRANSLATE_NOOP("Validation", "Enter a whole number."))
        if exact.adjusted() >= 400:  # int(Decimal("1e999999999")) would take minutes and GBs
            return None, Message(QT_TRANSLATE_NOOP("Validation", "Enter a number of a reasonable size."))
        if exact != exact.to_integral_value() or len(text) > 400:
            return None, Message(QT_TRANSLATE_NOOP("Validation", "Enter a whole number."))
        return int(exact), None
    if _INT_RE.fullmatch(text) and len(text) <= 400:
        return int(text), None
    value = float(text)
    if not math.isfinite(value) or (value == 0 and Decimal(text) != 0):  # overflow, or underflow to 0
        return None, Message(QT_TRANSLATE_NOOP("Validation", "Enter a number of a reasonable size."))
    return value, None


def check_value(spec: FieldSpec, value: Any, *, pattern_check: PatternCheck | None = None) -> str | None:
    """The first problem with ``value`` for ``spec``, as a sentence, or ``None`` if it is fine.

    ``value`` is in content form (``None`` for "not given"). Covers required, length,
    format (:data:`~elicit_tray.schema.formats.FORMATS`), pattern, numeric bounds, option
    membership and selection counts. Raises
    :class:`~elicit_tray.schema.model.UnknownFieldKind` for a kind it has no case for.

    ``pattern_check(pattern, value)`` gives the pattern's
    :class:`~elicit_tray.schema.pattern.Verdict` (default: the time-bounded check of
    :mod:`.pattern`, which waits for the worker); one that returns ``None`` (not known yet: the
    dialogs' typing path, which never waits) makes the problem "still being checked".
    """
    kind = spec.kind
    check: Callable[[FieldSpec, Any], str | None]
    match kind:
        case FieldKind.TEXT | FieldKind.DATE | FieldKind.DATETIME:
            check = (
                _check_text if pattern_check is None else functools.partial(_check_text, pattern_check=pattern_check)
            )
        case FieldKind.NUMBER | FieldKind.INTEGER:
            check = _check_number
        case FieldKind.BOOLEAN:
            check = _check_nothing  # a given true or false is always an answer
        case FieldKind.SINGLE_SELECT:
            check = _check_option
        case FieldKind.MULTI_SELECT:
            check = _check_selection
        case _:
            unknown_kind(kind)
    # "" is "not given" for typed text; for a select it is an answer when it is an option.
    empty = value is None or (value == "" and kind is not FieldKind.SINGLE_SELECT)
    if empty or (kind is FieldKind.MULTI_SELECT and value == [] and spec.effective_min_items):
        # minItems bounds an answer given: an optional multi-select not given has no count
        if kind is FieldKind.MULTI_SELECT and spec.effective_min_items and (value is not None or spec.required):
            return Message(QT_TRANSLATE_NOOP("Validation", "Choose at least {count}."), count=spec.effective_min_items)
        return Message(QT_TRANSLATE_NOOP("Validation", "This field is required.")) if spec.required else None
    return check(spec, value)


def _check_nothing(spec: FieldSpec, value: Any) -> str | None:
    return None


def _check_number(spec: FieldSpec, value: int | float) -> str | None:
    if spec.minimum is not None and value < spec.minimum:
        return Message(
            QT_TRANSLATE_NOOP("Validation", "The minimum is {minimum}."), minimum=format_number(spec.minimum)
        )
    if spec.maximum is not None and value > spec.maximum:
        return Message(
            QT_TRANSLATE_NOOP("Validation", "The maximum is {maximum}."), maximum=format_number(spec.maximum)
        )
    return None


def _check_option(spec: FieldSpec, value: str) -> str | None:
    if any(o.value == value for o in spec.options):
        return None
    return Message(QT_TRANSLATE_NOOP("Validation", "Choose one of the options."))


def _check_selection(spec: FieldSpec, value: list[str]) -> str | None:
    values = {o.value for o in spec.options}
    if any(v not in values for v in value):
        return Message(QT_TRANSLATE_NOOP("Validation", "Choose only from the options."))
    if len(set(value)) != len(value):  # a multi-select always has unique items (parse.py)
        return Message(QT_TRANSLATE_NOOP("Validation", "Choose each option only once."))
    if len(value) < spec.effective_min_items:
        return Message(QT_TRANSLATE_NOOP("Validation", "Choose at least {count}."), count=spec.effective_min_items)
    if spec.max_items is not None and len(value) > spec.max_items:
        return Message(QT_TRANSLATE_NOOP("Validation", "Choose at most {count}."), count=spec.max_items)
    return None


def _check_text(spec: FieldSpec, value: str, pattern_check: PatternCheck = _pattern_check) -> str | None:
    if spec.min_length is not None and len(value) < spec.min_length:
        return Message(QT_TRANSLATE_NOOP("Validation", "Enter at least {count} characters."), count=spec.min_length)
    if spec.max_length is not None and len(value) > spec.max_length:
        return Message(QT_TRANSLATE_NOOP("Validation", "Enter at most {count} characters."), count=spec.max_length)
    fmt = format_of(spec)
    if fmt is not None and not fmt.accepts(value):
        return Message(fmt.message(value))
    if spec.pattern is not None:
        verdict = pattern_check(spec.pattern, value)
        if verdict is None:
            return Message(
                QT_TRANSLATE_NOOP("Validation", "The value is still being checked against the expected pattern.")
            )
        if verdict == Verdict.TOO_SLOW:
            return Message(
                QT_TRANSLATE_NOOP("Validation", "The value could not be checked against the expected pattern in time.")
            )
        if verdict != Verdict.MATCH:
            return Message(QT_TRANSLATE_NOOP("Validation", "The value does not match the expected pattern."))
    return None


def _matches(pattern: str, value: str) -> bool:
    """JSON Schema ``pattern``: ECMA-262, unanchored, time-bounded (:mod:`.pattern`)."""
    return _pattern_check(pattern, value) == Verdict.MATCH


def build_content(spec: FormSpec, values: dict[str, Any]) -> dict[str, Any]:
    """The ``content`` of an ``accept``: present values in schema order, ``None`` omitted.

    ``values`` maps property names to content-form values (``None`` = not given).
    """
    return {f.name: values[f.name] for f in spec.fields if values.get(f.name) is not None}


def validate_content(spec: FormSpec, content: dict[str, Any]) -> list[Violation]:
    """Check ``content`` against the ``requestedSchema`` with ``jsonschema`` (Draft 2020-12).

    This is the last gate before an ``accept`` is sent (MCP "Clients SHOULD validate all
    responses against the provided schema"). Returns every violation; empty when valid.
    """
    problems = [
        Violation("/" + "/".join(str(p) for p in err.absolute_path), err.message)
        for err in _validator_class()(spec.schema, format_checker=_format_checker()).iter_errors(content)
    ]
    flagged = {v.path for v in problems}
    for field in spec.fields:  # what JSON Schema cannot say: our own policies
        path = "/" + field.name
        if path in flagged or any(p.startswith(path + "/") for p in flagged):
            continue  # already wrong (maybe of the wrong type, which check_value cannot take)
        message = check_value(field, content.get(field.name))
        if message:
            problems.append(Violation(path, message))
    return problems


_VALIDATOR: Any = None
_FORMATS: Any = None


def _format_checker() -> Any:
    """jsonschema's format checker with every ``format`` of
    :data:`~elicit_tray.schema.formats.FORMATS` checked by that row's validator, as
    :func:`check_value` checks it, so the last gate and the form agree on every value."""
    global _FORMATS
    if _FORMATS is None:
        from jsonschema import FormatChecker

        checker = FormatChecker()
        for name, row in FORMATS.items():
            checker.checks(name)(lambda v, _accepts=row.accepts: not isinstance(v, str) or _accepts(v))
        _FORMATS = checker
    return _FORMATS


def _validator_class() -> Any:
    """Draft 2020-12 with ``pattern`` matched by :func:`_matches` (time-limited), since
    jsonschema's own ``re.search`` can backtrack for hours on a hostile pattern."""
    global _VALIDATOR
    if _VALIDATOR is None:
        from jsonschema import Draft202012Validator, ValidationError, validators

        def pattern(validator: Any, patrn: str, instance: Any, schema: Any) -> Any:
            if validator.is_type(instance, "string") and not _matches(patrn, instance):
                yield ValidationError(f"{instance!r} does not match {patrn!r}")

        _VALIDATOR = validators.extend(Draft202012Validator, {"pattern": pattern})
    return _VALIDATOR


#: Numeric bounds in words, per kind: (both bounds, minimum only, maximum only, neither).
_RANGE_TEXT = {
    FieldKind.INTEGER: (
        QT_TRANSLATE_NOOP("Validation", "Whole number between {low} and {high}."),
        QT_TRANSLATE_NOOP("Validation", "Whole number of at least {low}."),
        QT_TRANSLATE_NOOP("Validation", "Whole number of at most {high}."),
        QT_TRANSLATE_NOOP("Validation", "Whole number."),
    ),
    FieldKind.NUMBER: (
        QT_TRANSLATE_NOOP("Validation", "Number between {low} and {high}."),
        QT_TRANSLATE_NOOP("Validation", "Number of at least {low}."),
        QT_TRANSLATE_NOOP("Validation", "Number of at most {high}."),
        QT_TRANSLATE_NOOP("Validation", "Number."),
    ),
}


def describe_constraints(spec: FieldSpec) -> str:
    """The constraints of a field in words, for its accessible description and hint text."""
    parts: list[Message] = []
    if spec.required:
        parts.append(Message(QT_TRANSLATE_NOOP("Validation", "Required.")))
    if spec.kind in _RANGE_TEXT:
        both, low_only, high_only, neither = _RANGE_TEXT[spec.kind]
        lo, hi = spec.minimum, spec.maximum
        low, high = (None if lo is None else format_number(lo)), (None if hi is None else format_number(hi))
        if lo is not None and hi is not None:
            parts.append(Message(both, low=low, high=high))
        elif lo is not None:
            parts.append(Message(low_only, low=low))
        elif hi is not None:
            parts.append(Message(high_only, high=high))
        else:
            parts.append(Message(neither))
    if spec.min_length is not None and spec.max_length is not None:
        parts.append(
            Message(
                QT_TRANSLATE_NOOP("Validation", "{low} to {high} characters."),
                low=spec.min_length,
                high=spec.max_length,
            )
        )
    elif spec.min_length:
        parts.append(Message(QT_TRANSLATE_NOOP("Validation", "At least {count} characters."), count=spec.min_length))
    elif spec.max_length is not None:
        parts.append(Message(QT_TRANSLATE_NOOP("Validation", "At most {count} characters."), count=spec.max_length))
    fmt = format_of(spec)
    if fmt is not None:
        parts.append(Message(fmt.described))
    if spec.kind is FieldKind.MULTI_SELECT:
        lo_i, hi_i = spec.effective_min_items, spec.max_items
        if lo_i and hi_i is not None:
            parts.append(
                Message(QT_TRANSLATE_NOOP("Validation", "Choose {low} to {high}."), low=lo_i, high=hi_i)
                if lo_i != hi_i
                else Message(QT_TRANSLATE_NOOP("Validation", "Choose {count}."), count=lo_i)
            )
        elif lo_i:
            parts.append(Message(QT_TRANSLATE_NOOP("Validation", "Choose at least {count}."), count=lo_i))
        elif hi_i is not None:
            parts.append(Message(QT_TRANSLATE_NOOP("Validation", "Choose at most {count}."), count=hi_i))
    if spec.default_ignored:
        parts.append(
            Message(
                QT_TRANSLATE_NOOP("Validation", "The server suggested a value that does not fit here; it was left out.")
            )
        )
    return Sentences(parts)
