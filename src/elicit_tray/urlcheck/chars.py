"""Character screening of a URL (pure, no Qt): the characters refused anywhere in it, the
bidi controls among them, and :func:`visible_url`, which shows them escaped.

ICU (PyICU) supplies the Unicode data and is loaded on the first non-ASCII character.  The small
ICU set helpers :func:`frozen` and :func:`set_chars` are shared with :mod:`.idn`.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Protocol

from ..display import escape_char

__all__ = [
    "UnicodeSet",
    "forbidden_chars",
    "frozen",
    "is_bidi_control",
    "is_forbidden",
    "safe_repr",
    "set_chars",
    "visible_url",
]


class UnicodeSet(Protocol):
    """The part of PyICU's ``icu.UnicodeSet`` used here (PyICU has no type information)."""

    def freeze(self) -> object: ...
    def ranges(self) -> Iterable[tuple[str, str]]: ...
    def contains(self, text: str, /) -> bool: ...
    def containsAll(self, text: str, /) -> bool: ...
    def containsNone(self, text: str, /) -> bool: ...
    def containsSome(self, text: str, /) -> bool: ...


def frozen(icu_set: UnicodeSet) -> UnicodeSet:
    """Freeze an ``icu.UnicodeSet`` (faster lookups) and return it."""
    icu_set.freeze()  # PyICU's freeze() returns None, not the set
    return icu_set


def set_chars(icu_set: UnicodeSet) -> frozenset[str]:
    """Every character of an ``icu.UnicodeSet``."""
    return frozenset(chr(cp) for lo, hi in icu_set.ranges() for cp in range(ord(lo), ord(hi) + 1))


# Refused anywhere in the URL: General_Category Cc, Cf, Cs, Zs, Zl, Zp and
# Default_Ignorable_Code_Point (docs/url-safety.md, "Characters"), with ICU's current Unicode
# data.  Surrogates (Cs) are tested in Python: PyICU cannot hand a lone surrogate back as a str.
_FORBIDDEN_PATTERN = "[[:Cc:][:Cf:][:Zs:][:Zl:][:Zp:][:Default_Ignorable_Code_Point:]]"
_ASCII_FORBIDDEN = re.compile(r"[\x00-\x20\x7f]")


@lru_cache(maxsize=1)
def _char_classes() -> tuple[list[int], list[int], frozenset[str]]:
    """(range starts, range ends) of the forbidden set and the Bidi_Control characters."""
    import icu

    ranges = sorted((ord(lo), ord(hi)) for lo, hi in icu.UnicodeSet(_FORBIDDEN_PATTERN).ranges())
    bidi = set_chars(icu.UnicodeSet("[[:Bidi_Control:]]"))
    return [lo for lo, _ in ranges], [hi for _, hi in ranges], bidi


def is_forbidden(ch: str) -> bool:
    """Whether ``ch`` is refused anywhere in a URL (control, format, separator, surrogate or
    default-ignorable; see above).  Loads ICU for a non-ASCII character."""
    if ch.isascii():
        return ch <= " " or ch == "\x7f"
    cp = ord(ch)
    if 0xD800 <= cp <= 0xDFFF:
        return True
    starts, ends, _ = _char_classes()
    i = bisect.bisect_right(starts, cp) - 1
    return i >= 0 and cp <= ends[i]


def forbidden_chars(text: str) -> list[str]:
    """The characters of ``text`` that :func:`is_forbidden` refuses, in order."""
    if text.isascii():
        return _ASCII_FORBIDDEN.findall(text)
    return [c for c in text if is_forbidden(c)]


def is_bidi_control(ch: str) -> bool:
    """Whether ``ch`` is a Bidi_Control character (it can reverse the text shown)."""
    return not ch.isascii() and ch in _char_classes()[2]


def safe_repr(obj: object) -> str:
    """``repr(obj)``, or a placeholder naming its type when that ``repr`` raises."""
    try:
        return repr(obj)
    except Exception:  # a hostile __repr__ must not break the dialog
        return f"<unrepresentable {type(obj).__name__}>"


def visible_url(url: str) -> str:
    """Return ``url`` with control, invisible, whitespace and bidi-control characters escaped.

    Each such character (General_Category Cc, Cf, Cs, Zs, Zl, Zp or Default_Ignorable_Code_Point,
    per ICU) becomes ``\\uXXXX`` (4 lowercase hex digits) or, outside the BMP,
    ``\\UXXXXXXXX`` (:func:`elicit_tray.display.escape_char`); all other characters are
    unchanged.  Supports MCP 2025-11-25 client/elicitation "Safe URL Handling" (show the full URL
    before consent).  Non-``str`` input is shown as its ``repr``.  Never raises: should ICU be
    unavailable, every non-ASCII character is escaped.
    """
    if not isinstance(url, str):
        url = safe_repr(url)
    try:
        escape = {c for c in url if is_forbidden(c)}
    except Exception:  # ICU missing or broken: escape everything unusual
        escape = {c for c in url if not c.isascii() or c <= " " or c == "\x7f"}
    return "".join(escape_char(ch) if ch in escape else ch for ch in url)
