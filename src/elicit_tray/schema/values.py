"""Field values: checking, text coercion, content building and final validation.

Pure Python (no Qt). The content policy of DESIGN.md "Product policies": untouched optional
fields and emptied optional text are omitted (the UI passes ``None``); integer -> JSON integer;
number -> finite JSON number exactly as typed; boolean -> ``true``/``false``; date ->
``YYYY-MM-DD``; date-time -> RFC 3339 with seconds and offset; multi-select -> list of strings
in option order. Messages are user-facing sentences.
"""

from __future__ import annotations

import ipaddress
import math
import re
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Any

from ..translation_marks import QT_TRANSLATE_NOOP
from .model import FieldKind, FieldSpec, FormSpec, Violation
from .pattern import MATCH_TIMEOUT_S, Verdict
from .pattern import check as _pattern_check

__all__ = [
    "check_value",
    "coerce_number",
    "build_content",
    "validate_content",
    "describe_constraints",
    "looks_secret",
    "format_number",
    "PATTERN_TIMEOUT_S",
    "Message",
    "Sentences",
    "QT_TRANSLATE_NOOP",
    "is_date",
    "is_datetime",
    "is_email",
]

#: Longest time (seconds) one ``pattern`` match may take before it is treated as a mismatch.
PATTERN_TIMEOUT_S = MATCH_TIMEOUT_S

_NUMBER_RE = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_INT_RE = re.compile(r"[+-]?\d+")
_DATE_RE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
#: RFC 3339 ``date-time`` (section 5.6; "T" and "Z" in either case, as its note allows).
_DATETIME_RE = re.compile(
    r"([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?"
    r"(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))"
)
#: Matched against words (camelCase and snake_case split, lower case), so "footprint" is not "otp".
#: RFC 5321 section 4.1.2 ``Mailbox`` pieces (JSON Schema ``email``); ``idn-email`` (RFC 6531)
#: adds any non-ASCII character to ``atext`` and ``qtext``.
_ATEXT = r"A-Za-z0-9!#$%&'*+\-/=?^_`{|}~"
_DOT_STRING = re.compile(rf"[{_ATEXT}]+(?:\.[{_ATEXT}]+)*")
_IDN_DOT_STRING = re.compile(rf"[{_ATEXT}\u0080-\U0010ffff]+(?:\.[{_ATEXT}\u0080-\U0010ffff]+)*")
_QUOTED = re.compile(r'"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"')
_IDN_QUOTED = re.compile(r'"(?:[\x20\x21\x23-\x5b\x5d-\x7e\u0080-\U0010ffff]|\\[\x20-\x7e\u0080-\U0010ffff])*"')
_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
_SECRET_RE = re.compile(
    r"\b(pass(word|phrase|wd|code)s?|secrets?|tokens?|api ?keys?|private keys?|credit cards?|card numbers?"
    r"|cvv|cvc|pin|ssn|otp|2fa|mfa)\b"
)


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


def check_value(spec: FieldSpec, value: Any) -> str | None:
    """The first problem with ``value`` for ``spec``, as a sentence, or ``None`` if it is fine.

    ``value`` is in content form (``None`` for "not given"). Covers required, length,
    format, pattern, numeric bounds, option membership and selection counts.
    """
    kind = spec.kind
    # "" is "not given" for typed text; for a select it is an answer when it is an option.
    empty = value is None or (value == "" and kind is not FieldKind.SINGLE_SELECT)
    if empty or (kind is FieldKind.MULTI_SELECT and value == [] and spec.effective_min_items):
        if kind is FieldKind.MULTI_SELECT and spec.effective_min_items:
            return Message(QT_TRANSLATE_NOOP("Validation", "Choose at least {count}."), count=spec.effective_min_items)
        return Message(QT_TRANSLATE_NOOP("Validation", "This field is required.")) if spec.required else None
    if kind in (FieldKind.TEXT, FieldKind.DATE, FieldKind.DATETIME):
        return _check_text(spec, value)
    if kind in (FieldKind.NUMBER, FieldKind.INTEGER):
        if spec.minimum is not None and value < spec.minimum:
            return Message(
                QT_TRANSLATE_NOOP("Validation", "The minimum is {minimum}."), minimum=format_number(spec.minimum)
            )
        if spec.maximum is not None and value > spec.maximum:
            return Message(
                QT_TRANSLATE_NOOP("Validation", "The maximum is {maximum}."), maximum=format_number(spec.maximum)
            )
        return None
    if kind is FieldKind.SINGLE_SELECT:
        return (
            None
            if any(o.value == value for o in spec.options)
            else Message(QT_TRANSLATE_NOOP("Validation", "Choose one of the options."))
        )
    if kind is FieldKind.MULTI_SELECT:
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


def _check_text(spec: FieldSpec, value: str) -> str | None:
    if spec.min_length is not None and len(value) < spec.min_length:
        return Message(QT_TRANSLATE_NOOP("Validation", "Enter at least {count} characters."), count=spec.min_length)
    if spec.max_length is not None and len(value) > spec.max_length:
        return Message(QT_TRANSLATE_NOOP("Validation", "Enter at most {count} characters."), count=spec.max_length)
    if spec.kind is FieldKind.DATE and not is_date(value):
        return Message(QT_TRANSLATE_NOOP("Validation", "Enter a date as YYYY-MM-DD."))
    if spec.kind is FieldKind.DATETIME and not is_datetime(value):
        return Message(
            QT_TRANSLATE_NOOP("Validation", "Enter a date and time with an offset, such as 2026-05-01T09:30:00+02:00.")
        )
    if spec.format in ("email", "idn-email") and not is_email(value, idn=spec.format == "idn-email"):
        if "@" not in value:
            return Message(QT_TRANSLATE_NOOP("Validation", "Enter an email address, such as name@example.com."))
        return Message(QT_TRANSLATE_NOOP("Validation", "This email address is not in a valid format."))
    if spec.format == "uri" and not _is_uri(value):
        return Message(
            QT_TRANSLATE_NOOP("Validation", "Enter a full address with its scheme, such as https://example.com/.")
        )
    if spec.pattern is not None:
        verdict = _pattern_check(spec.pattern, value)
        if verdict == Verdict.TOO_SLOW:
            return Message(
                QT_TRANSLATE_NOOP("Validation", "The value could not be checked against the expected pattern in time.")
            )
        if verdict != Verdict.MATCH:
            return Message(QT_TRANSLATE_NOOP("Validation", "The value does not match the expected pattern."))
    return None


def is_date(value: str) -> bool:
    """Whether ``value`` is an RFC 3339 ``full-date`` (JSON Schema ``date``): ``YYYY-MM-DD``,
    years 0000-9999 of the proleptic Gregorian calendar, a real day of that month."""
    found = _DATE_RE.fullmatch(value)
    if not found:
        return False
    year, month, day = (int(g) for g in found.groups())
    if not 1 <= month <= 12:
        return False
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return 1 <= day <= (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month - 1]


def is_datetime(value: str) -> bool:
    """Whether ``value`` is an RFC 3339 ``date-time`` (section 5.6, JSON Schema ``date-time``):
    ``T``/``Z`` in either case, any fraction of a second, offset ``Z`` or ``±hh:mm``, and a
    leap second ``:60`` only at 23:59 UTC (section 5.7)."""
    found = _DATETIME_RE.fullmatch(value)
    if not found:
        return False
    date, hour, minute, second, _fraction, sign, off_h, off_m = found.groups()
    h, m, sec = int(hour), int(minute), int(second)
    if not is_date(date) or h > 23 or m > 59 or sec > 60:
        return False
    if sign is not None and (int(off_h) > 23 or int(off_m) > 59):
        return False
    if sec == 60:  # the UTC time of a leap second is 23:59:60
        shift = 0 if sign is None else (1 if sign == "-" else -1) * (int(off_h) * 60 + int(off_m))
        return (h * 60 + m + shift) % 1440 == 23 * 60 + 59
    return True


def is_email(value: str, idn: bool = False) -> bool:
    """Whether ``value`` is an RFC 5321 ``Mailbox`` (JSON Schema ``email``), or with ``idn``
    an RFC 6531 one (``idn-email``: UTF-8 in the local part, U-labels in the domain).

    Local part: a dot-string or a quoted string, at most 64 octets. Domain: host names of any
    suffix (special-use ones like ``corp.local`` included; nothing is looked up), at most 255
    octets, or an address literal ``[192.0.2.1]`` / ``[IPv6:2001:db8::1]``. At most 254 octets.
    """
    if "@" not in value or len(value.encode("utf-8", "surrogatepass")) > 254:
        return False
    local, domain = value.rsplit("@", 1)
    dot_string, quoted = (_IDN_DOT_STRING, _IDN_QUOTED) if idn else (_DOT_STRING, _QUOTED)
    if not (dot_string.fullmatch(local) or quoted.fullmatch(local)) or len(local.encode("utf-8", "surrogatepass")) > 64:
        return False
    if domain.startswith("[") and domain.endswith("]"):
        literal = domain[1:-1]
        try:
            if literal[:5].lower() == "ipv6:":
                ipaddress.IPv6Address(literal[5:])
            else:
                ipaddress.IPv4Address(literal)
        except ValueError:
            return False
        return True
    return _is_domain(domain, idn)


def _is_domain(domain: str, idn: bool) -> bool:
    if not domain or len(domain) > 255:
        return False
    for label in domain.split("."):
        if not label.isascii():
            if not idn:
                return False
            import idna

            try:
                label = idna.encode(label).decode("ascii")
            except (idna.IDNAError, UnicodeError, ValueError):
                return False
        if not _LABEL.fullmatch(label):
            return False
    return True


def _is_uri(value: str) -> bool:
    from rfc3986_validator import validate_rfc3986

    return bool(validate_rfc3986(value, rule="URI"))


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
    """jsonschema's format checker with ``date``, ``date-time``, ``email`` and ``idn-email`` as
    :func:`check_value` reads them (RFC 3339 in full, RFC 5321/6531), so the last gate and the
    form agree on every value."""
    global _FORMATS
    if _FORMATS is None:
        from jsonschema import FormatChecker

        checker = FormatChecker()
        for name, test in (
            ("date", is_date),
            ("date-time", is_datetime),
            ("email", is_email),
            ("idn-email", lambda v: is_email(v, idn=True)),
        ):
            checker.checks(name)(lambda v, _t=test: not isinstance(v, str) or _t(v))
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
    if spec.format in ("email", "idn-email"):
        parts.append(Message(QT_TRANSLATE_NOOP("Validation", "An email address.")))
    elif spec.format == "uri":
        parts.append(Message(QT_TRANSLATE_NOOP("Validation", "A web address.")))
    elif spec.kind is FieldKind.DATE:
        parts.append(Message(QT_TRANSLATE_NOOP("Validation", "A date.")))
    elif spec.kind is FieldKind.DATETIME:
        parts.append(Message(QT_TRANSLATE_NOOP("Validation", "A date and time.")))
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


def looks_secret(spec: FieldSpec) -> bool:
    """Whether a field seems to ask for a secret (password, token, API key, card number).

    MCP 2025-11-25 "Form mode": servers MUST NOT request sensitive information through form
    mode; the dialog warns when this heuristic matches. Judged by what the field asks for: its
    name and title, for a field that takes text or a number (DESIGN.md "UI rules"); never by
    words in its description ("do not give us your pin" asks for no pin), nor for a choice,
    a date or a yes/no.
    """
    if spec.kind not in (FieldKind.TEXT, FieldKind.NUMBER, FieldKind.INTEGER):
        return False
    text = " ".join(filter(None, (spec.name, spec.title)))
    text = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text)  # apiKey -> api Key
    text = re.sub(r"[\W_]+", " ", text).lower()  # user_pin -> user pin
    return bool(_SECRET_RE.search(text))
