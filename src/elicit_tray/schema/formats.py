"""String ``format`` values: the one table of what each accepted ``format`` means.

Pure Python (no Qt). Each :class:`StringFormat` row of :data:`FORMATS` says, for one value of
``StringSchema.format`` (MCP 2025-11-25), which :class:`~elicit_tray.schema.FieldKind` a
field of that format is, how a value is checked (the form and the final ``jsonschema`` gate use
the same validator), the error shown for a value it rejects, the words that describe it, and
what the text entry shows (placeholder, on-screen keyboard). Everything else is derived:

- :data:`STRING_FORMATS` (what :func:`~elicit_tray.schema.parse_requested_schema` accepts,
  and the list in its "unsupported format" violation), and the kind a field gets;
- :func:`~elicit_tray.schema.check_value` and
  :func:`~elicit_tray.schema.describe_constraints` (through :func:`format_of`);
- the ``jsonschema`` format checker of :func:`~elicit_tray.schema.validate_content`;
- the placeholder and input-method hints of the UI's text field (``ui/widgets.py``).

Adding a format is one validator plus one row. For example, JSON Schema's ``hostname``::

    def is_hostname(value: str) -> bool:
        return _is_domain(value, idn=False)

    # in FORMATS:
    StringFormat(
        "hostname",
        FieldKind.TEXT,
        is_hostname,
        _says(QT_TRANSLATE_NOOP("Validation", "Enter a host name, such as example.com.")),
        QT_TRANSLATE_NOOP("Validation", "A host name."),
        placeholder="example.com",
        keyboard=Keyboard.URL,
        good="mail.example.com",
        bad="exa mple",
    ),

``tests/unit/test_formats.py`` then checks that the validator accepts ``good`` and rejects
``bad`` with the row's message, that the parser accepts the format and gives the row's kind;
``tests/ui/test_registry.py`` fails until the widget registry (``ui/registry.py``) has an
``Example`` with ``"format": "hostname"``. A format of a new :class:`FieldKind` also needs a
case in :func:`~elicit_tray.schema.check_value` (mypy and a test fail without one) and a
row in the widget registry.

Messages are English templates marked with ``QT_TRANSLATE_NOOP`` (context ``Validation``),
wrapped in a translatable :class:`~elicit_tray.schema.values.Message` by the caller.
"""

from __future__ import annotations

import enum
import ipaddress
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..translation_marks import QT_TRANSLATE_NOOP
from .model import FieldKind, FieldSpec

__all__ = [
    "FORMATS",
    "STRING_FORMATS",
    "Keyboard",
    "StringFormat",
    "format_of",
    "is_date",
    "is_datetime",
    "is_email",
    "is_idn_email",
    "is_uri",
]


class Keyboard(enum.Enum):
    """Which on-screen keyboard a text entry asks for (the UI maps it to an input-method hint)."""

    TEXT = "text"
    EMAIL = "email"
    URL = "url"


@dataclass(frozen=True)
class StringFormat:
    """One accepted ``format`` of a string property.

    Attributes:
        name: the ``format`` value in the schema (``"email"``).
        kind: the :class:`FieldKind` of a field with this format: ``TEXT`` (the field keeps
            ``format=name``), or a kind of its own (``DATE``: the field's ``format`` is
            ``None``, the kind says it; at most one row per such kind).
        accepts: the validator: whether a (non-empty) string is a value of this format.
        message: the error for a value ``accepts`` rejects: ``message(value)`` -> template.
        described: the format in words, in a field's constraints (``"An email address."``).
        placeholder: shown in an empty text entry of this format, or ``None``.
        keyboard: the on-screen keyboard of the text entry.
        good / bad: a value ``accepts`` takes and one it rejects (documentation and tests).
    """

    name: str
    kind: FieldKind
    accepts: Callable[[str], bool]
    message: Callable[[str], str]
    described: str
    placeholder: str | None
    keyboard: Keyboard
    good: str
    bad: str


# -- validators ------------------------------------------------------------------------------
_DATE_RE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
#: RFC 3339 ``date-time`` (section 5.6; "T" and "Z" in either case, as its note allows).
_DATETIME_RE = re.compile(
    r"([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?"
    r"(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))"
)
#: RFC 5321 section 4.1.2 ``Mailbox`` pieces (JSON Schema ``email``); ``idn-email`` (RFC 6531)
#: adds any non-ASCII character to ``atext`` and ``qtext``.
_ATEXT = r"A-Za-z0-9!#$%&'*+\-/=?^_`{|}~"
_DOT_STRING = re.compile(rf"[{_ATEXT}]+(?:\.[{_ATEXT}]+)*")
_IDN_DOT_STRING = re.compile(rf"[{_ATEXT}\u0080-\U0010ffff]+(?:\.[{_ATEXT}\u0080-\U0010ffff]+)*")
_QUOTED = re.compile(r'"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"')
_IDN_QUOTED = re.compile(r'"(?:[\x20\x21\x23-\x5b\x5d-\x7e\u0080-\U0010ffff]|\\[\x20-\x7e\u0080-\U0010ffff])*"')
_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")


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


def is_idn_email(value: str) -> bool:
    """:func:`is_email` with ``idn``: JSON Schema ``idn-email`` (RFC 6531)."""
    return is_email(value, idn=True)


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


def is_uri(value: str) -> bool:
    """Whether ``value`` is an RFC 3986 ``URI`` (JSON Schema ``uri``): a scheme, then the rest."""
    from rfc3986_validator import validate_rfc3986

    return bool(validate_rfc3986(value, rule="URI"))


# -- messages ---------------------------------------------------------------------------------
def _says(template: str) -> Callable[[str], str]:
    """A :attr:`StringFormat.message` that is the same sentence for every rejected value."""
    return lambda _value: template


def _email_message(value: str) -> str:
    if "@" not in value:
        return QT_TRANSLATE_NOOP("Validation", "Enter an email address, such as name@example.com.")
    return QT_TRANSLATE_NOOP("Validation", "This email address is not in a valid format.")


_EMAIL_WORDS = QT_TRANSLATE_NOOP("Validation", "An email address.")

#: The table: one row per accepted ``format`` (a flat table).
FORMATS: Mapping[str, StringFormat] = {
    row.name: row
    for row in (
        StringFormat(
            "email",
            FieldKind.TEXT,
            is_email,
            _email_message,
            _EMAIL_WORDS,
            placeholder="name@example.com",
            keyboard=Keyboard.EMAIL,
            good="ada@example.com",
            bad="ada@@example.com",
        ),
        StringFormat(
            "idn-email",
            FieldKind.TEXT,
            is_idn_email,
            _email_message,
            _EMAIL_WORDS,
            placeholder="name@example.com",
            keyboard=Keyboard.EMAIL,
            good="jürgen@bücher.example",
            bad="jürgen@bü cher.example",
        ),
        StringFormat(
            "uri",
            FieldKind.TEXT,
            is_uri,
            _says(
                QT_TRANSLATE_NOOP("Validation", "Enter a full address with its scheme, such as https://example.com/.")
            ),
            QT_TRANSLATE_NOOP("Validation", "A web address."),
            placeholder="https://",
            keyboard=Keyboard.URL,
            good="https://example.com/path?q=1",
            bad="example.com/path",
        ),
        StringFormat(
            "date",
            FieldKind.DATE,
            is_date,
            _says(QT_TRANSLATE_NOOP("Validation", "Enter a date as YYYY-MM-DD.")),
            QT_TRANSLATE_NOOP("Validation", "A date."),
            placeholder=None,
            keyboard=Keyboard.TEXT,
            good="2024-02-29",
            bad="2026-02-29",
        ),
        StringFormat(
            "date-time",
            FieldKind.DATETIME,
            is_datetime,
            _says(
                QT_TRANSLATE_NOOP(
                    "Validation", "Enter a date and time with an offset, such as 2026-05-01T09:30:00+02:00."
                )
            ),
            QT_TRANSLATE_NOOP("Validation", "A date and time."),
            placeholder=None,
            keyboard=Keyboard.TEXT,
            good="2026-05-01T09:30:00+02:00",
            bad="2026-05-01T25:99:00+02:00",
        ),
    )
}

#: The ``format`` values a string property may have.
STRING_FORMATS: frozenset[str] = frozenset(FORMATS)

#: The row of each kind that is a format's own (``DATE`` -> ``date``); a field of such a kind
#: has ``format`` ``None``.
_BY_KIND: Mapping[FieldKind, StringFormat] = {
    row.kind: row for row in FORMATS.values() if row.kind is not FieldKind.TEXT
}


def format_of(spec: FieldSpec) -> StringFormat | None:
    """The :data:`FORMATS` row of a field (by ``spec.format``, else by its kind), or ``None``
    for a field without a format. Raises ``KeyError`` for a ``format`` with no row."""
    if spec.format is not None:
        return FORMATS[spec.format]
    return _BY_KIND.get(spec.kind)
