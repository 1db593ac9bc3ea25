"""The reasons a URL is refused or warned about: one table, one row per reason.

Each row names the reason's stable id, its severity (``"refuse"``: never openable; ``"warn"``:
openable only after a prominent warning) and the one plain sentence a non-technical reader is
shown (marked for Qt's translation tools, context ``UrlReasons``).  The row order is the order in
which reasons are reported.  To add a reason, add its row here; :func:`verdict` and the dialog
take it from there.

This module must not import Qt.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from ..translation_marks import QT_TRANSLATE_NOOP

__all__ = [
    "LOOKS_LIKE",
    "REASONS",
    "REASON_TABLE",
    "Reason",
    "SEVERITY",
    "Severity",
    "Verdict",
    "describe",
    "in_report_order",
    "verdict",
]

# No "#:" comment comes before the table: lupdate would hand it to translators as the first
# sentence's comment.  Attributes are documented by the string after them instead.
Severity = Literal["refuse", "warn"]
"""How serious one reason is: ``"refuse"`` (never openable) or ``"warn"``."""
Verdict = Literal["ok", "warn", "refuse"]
"""The outcome of a URL's analysis: ``"ok"`` (no reason), else its most serious severity."""


@dataclass(frozen=True)
class Reason:
    """One row of :data:`REASON_TABLE`: a stable ``id``, its ``severity`` and its ``sentence``.

    ``names_site``: the reason comes with the well-known site imitated
    (``UrlAnalysis.imitated_domain``); :func:`describe` names it, in the sentence's ``{domain}``
    or, for a sentence without one, in :data:`LOOKS_LIKE` added after it.
    """

    id: str
    severity: Severity
    sentence: str
    names_site: bool = False


REFUSE: Severity = "refuse"
WARN: Severity = "warn"

REASON_TABLE: tuple[Reason, ...] = (
    Reason("unparseable", REFUSE, QT_TRANSLATE_NOOP("UrlReasons", "This is not a valid web address.")),
    Reason(
        "forbidden_character",
        REFUSE,
        QT_TRANSLATE_NOOP("UrlReasons", "The address contains hidden, invisible or space characters."),
    ),
    Reason(
        "bidi_control",
        REFUSE,
        QT_TRANSLATE_NOOP(
            "UrlReasons", "The address contains characters that reverse the direction of the text shown."
        ),
    ),
    Reason(
        "ambiguous_authority",
        REFUSE,
        QT_TRANSLATE_NOOP(
            "UrlReasons",
            "The address is written in a way that browsers and other programs could read as different websites.",
        ),
    ),
    Reason(
        "scheme_not_allowed",
        REFUSE,
        QT_TRANSLATE_NOOP("UrlReasons", "This is not a web page address (only http and https can be opened)."),
    ),
    # A host name no resolver and no Qt URL accepts (empty, over-long or non-LDH labels); it
    # shares the sentence of "unparseable", whose translation exists.
    Reason("invalid_host", REFUSE, QT_TRANSLATE_NOOP("UrlReasons", "This is not a valid web address.")),
    Reason(
        "invalid_idna", REFUSE, QT_TRANSLATE_NOOP("UrlReasons", "The address contains a malformed international name.")
    ),
    Reason("insecure_scheme", WARN, QT_TRANSLATE_NOOP("UrlReasons", "The connection to this site is not encrypted.")),
    Reason(
        "userinfo",
        WARN,
        QT_TRANSLATE_NOOP(
            "UrlReasons",
            "The address contains a user name before the real site name, which can make it look like a different site.",
        ),
    ),
    Reason(
        "ip_literal",
        WARN,
        QT_TRANSLATE_NOOP("UrlReasons", "The address is a numeric internet address rather than a site name."),
    ),
    Reason(
        "ip_noncanonical", WARN, QT_TRANSLATE_NOOP("UrlReasons", "The numeric address is written in an unusual form.")
    ),
    Reason(
        "local_target",
        WARN,
        QT_TRANSLATE_NOOP("UrlReasons", "The address points to this computer or to a private or local network."),
    ),
    Reason(
        "host_normalized",
        WARN,
        QT_TRANSLATE_NOOP(
            "UrlReasons",
            "The site name is written with unusual characters that the browser converts to a different spelling.",
        ),
    ),
    Reason("trailing_dot", WARN, QT_TRANSLATE_NOOP("UrlReasons", "The site name ends with an extra dot.")),
    Reason("host_too_long", WARN, QT_TRANSLATE_NOOP("UrlReasons", "The site name is unusually long.")),
    Reason(
        "subdomain_embeds_domain",
        WARN,
        QT_TRANSLATE_NOOP(
            "UrlReasons", "The address contains the name of a well-known site, but it leads to a different site."
        ),
        names_site=True,
    ),
    Reason(
        "target_embedding",
        WARN,
        QT_TRANSLATE_NOOP(
            "UrlReasons", "The address spells out {domain} with dots or dashes, but it leads to a different site."
        ),
        names_site=True,
    ),
    Reason(
        "brand_in_subdomain",
        WARN,
        QT_TRANSLATE_NOOP(
            "UrlReasons", "The name of {domain} is only part of this address: it leads to a different site."
        ),
        names_site=True,
    ),
    Reason(
        "brand_in_name",
        WARN,
        QT_TRANSLATE_NOOP(
            "UrlReasons", "The site name joins the name of {domain} with other words, but it is not that site."
        ),
        names_site=True,
    ),
    Reason(
        "idn_shown_as_punycode",
        WARN,
        QT_TRANSLATE_NOOP(
            "UrlReasons",
            "The site name uses international characters that could be mistaken for other letters, so it is shown in its coded form.",
        ),
    ),
    Reason(
        "idn_mixed_script",
        WARN,
        QT_TRANSLATE_NOOP("UrlReasons", "The address contains characters from several alphabets that look alike."),
    ),
    Reason(
        "idn_whole_script_confusable",
        WARN,
        QT_TRANSLATE_NOOP(
            "UrlReasons", "The site name is written in a foreign alphabet whose letters look like Latin letters."
        ),
    ),
    Reason(
        "idn_confusable_top_domain",
        WARN,
        QT_TRANSLATE_NOOP("UrlReasons", "The site name looks almost identical to a well-known site."),
    ),
    Reason(  # the same words as the IDN one: an ASCII host spelled like a well-known one
        "lookalike_top_domain",
        WARN,
        QT_TRANSLATE_NOOP("UrlReasons", "The site name looks almost identical to a well-known site."),
        names_site=True,
    ),
    Reason(
        "idn_disallowed_character",
        WARN,
        QT_TRANSLATE_NOOP(
            "UrlReasons", "The site name contains symbols or characters that are not allowed in trustworthy site names."
        ),
    ),
    Reason(
        "idn_digit_lookalike",
        WARN,
        QT_TRANSLATE_NOOP("UrlReasons", "The site name contains characters that look like digits."),
    ),
    Reason(
        "idn_dangerous_pattern",
        WARN,
        QT_TRANSLATE_NOOP(
            "UrlReasons", "The site name contains characters that look like punctuation such as slashes or dots."
        ),
    ),
)
"""Every reason: its stable id, its severity and its sentence, in the order reasons are reported."""

REASONS: dict[str, str] = {r.id: r.sentence for r in REASON_TABLE}
"""Stable reason id -> one plain sentence (untranslated) for a non-technical reader, in
report order."""
SEVERITY: dict[str, Severity] = {r.id: r.severity for r in REASON_TABLE}
"""Stable reason id -> its severity."""
_ORDER = {r.id: i for i, r in enumerate(REASON_TABLE)}
_ROWS = {r.id: r for r in REASON_TABLE}

LOOKS_LIKE = QT_TRANSLATE_NOOP("UrlReasons", "It looks like {domain}, but it is not that site.")
"""Added after the sentence of a ``names_site`` row without ``{domain}`` (untranslated)."""


def _same(text: str) -> str:
    return text


def describe(
    reason: str,
    imitated: str | None,
    translate: Callable[[str], str] = _same,
    isolate: Callable[[str], str] = _same,
) -> str:
    """The sentence a reader is shown for ``reason``, naming the well-known site ``imitated``
    (a domain such as ``"paypal.com"``, or None) when its row ``names_site``.

    ``translate`` maps an untranslated sentence to the reader's language (context
    ``UrlReasons``), ``isolate`` wraps the domain for display (the dialog isolates it as
    left-to-right text).  Without ``imitated`` a sentence with ``{domain}`` falls back to the
    ``subdomain_embeds_domain`` sentence, which names no site.  An id not in the table is
    returned as it is.  Never raises.
    """
    row = _ROWS.get(reason)
    if row is None:
        return reason
    if row.names_site and imitated:
        domain = isolate(imitated)
        if "{domain}" in row.sentence:
            return translate(row.sentence).replace("{domain}", domain)
        return translate(row.sentence) + " " + translate(LOOKS_LIKE).replace("{domain}", domain)
    if "{domain}" in row.sentence:
        return translate(_ROWS["subdomain_embeds_domain"].sentence)
    return translate(row.sentence)


def in_report_order(reasons: Iterable[str]) -> tuple[str, ...]:
    """The distinct ``reasons`` in table order; ``KeyError`` for an id not in the table."""
    return tuple(sorted(set(reasons), key=_ORDER.__getitem__))


def verdict(reasons: Iterable[str]) -> Verdict:
    """``"refuse"`` if any reason refuses, else ``"warn"`` if there is any, else ``"ok"``."""
    severities = {SEVERITY[r] for r in reasons}
    if REFUSE in severities:
        return "refuse"
    return "warn" if severities else "ok"
