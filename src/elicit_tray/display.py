"""Server text as the dialogs show it (pure Python, no Qt).

docs/design.md "UI rules": server text is plain text, shown as sent, never markup or a link. One
more rule keeps it honest: characters that can make text *look* different from what it is are
made visible as ``\\uXXXX`` instead of acting. These are the bidirectional embedding, override
and isolate controls (``\\u202e`` can show ``gnp.exe`` as ``exe.png``), the bidi marks LRM, RLM
and ALM (``"Pay to account \\u200f12 34 56"`` reads ``56 34 12``), the deprecated format controls
U+206A..U+206F, the C0/C1 control characters, and, in one-line text such as a server name, line
and paragraph breaks and invisible format characters (a name must not forge a second line such
as "Verified by elicit-tray"). Where server text meets other text on a line (a name in a
sentence, a title before a message), each run of it is isolated (:func:`isolate`).

Values are never changed (what goes back in ``content`` is what the user saw edited), but the
dialog says when one holds such characters (:func:`invisible_chars`, :func:`describe_char`).
Long words are given break opportunities for display only (:func:`breakable`), so that a label
that wraps at spaces never cuts a 300-character word.

A leaf: this module imports nothing of elicit_tray, so every layer may use it. Making a whole
request honest for its dialog is :func:`elicit_tray.request.for_display`, beside the types it
copies.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "display_text",
    "display_line",
    "isolate",
    "FSI",
    "PDI",
    "invisible_chars",
    "describe_char",
    "breakable",
    "escape_char",
    "LONG_RUN",
    "BREAK_EVERY",
    "ZWSP",
]

_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Invisible characters that change how the text around them is ordered or drawn: the bidi marks
# (LRM, RLM, ALM: ``"Pay to \u200f12 34 56"`` reads ``56 34 12``) and the deprecated format
# controls U+206A..U+206F (symmetric swapping, Arabic form shaping, national digit shapes).
_BIDI_MARKS = frozenset("\u200e\u200f\u061c\u206a\u206b\u206c\u206d\u206e\u206f")
#: FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE (UAX #9 2.4): :func:`isolate` puts each run
#: of server text between them. Server text has its own isolates escaped, so these are ours.
FSI, PDI = "\u2068", "\u2069"
_JOINERS = frozenset("\u200c\u200d")  # needed by Persian, Indic scripts and emoji sequences
# Letters that draw nothing (Hangul fillers, default-ignorable): a blank-looking name or value.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")
_CONTROL_NAMES = {"\t": "CHARACTER TABULATION", "\n": "LINE FEED", "\r": "CARRIAGE RETURN"}
#: The break opportunity :func:`breakable` inserts: ZERO WIDTH SPACE.
ZWSP = "\u200b"
#: Runs of more than this many characters without a space get break opportunities.
LONG_RUN = 20
#: In such a run, a break opportunity at least every this many characters.
BREAK_EVERY = 10
_ESCAPE = re.compile(r"\\(?:u[0-9a-f]{4}|U[0-9a-f]{8}|x[0-9a-f]{2})")
_SPACE = re.compile(r"\s+")


def escape_char(ch: str) -> str:
    """The one-character ``ch`` as the escape every shown or logged text uses for it:
    ``\\u`` and 4 lowercase hex digits (``"\\u202e"``), or ``\\U`` and 8 outside the BMP
    (``"\\U0001f600"``). Also used by the log (:func:`~elicit_tray.logs.escape_controls`).
    Raises ``TypeError`` unless ``ch`` is one character."""
    cp = ord(ch)
    return f"\\u{cp:04x}" if cp <= 0xFFFF else f"\\U{cp:08x}"


def _reorders(ch: str) -> bool:
    return ch in _BIDI_CONTROLS or ch in _BIDI_MARKS or (unicodedata.category(ch) == "Cc" and ch not in "\n\t")


def display_text(text: str) -> str:
    """Multi-line server text (message, description): newlines and tabs kept; bidi controls,
    bidi marks (LRM, RLM, ALM), the deprecated format controls U+206A..U+206F and other control
    characters shown as ``\\uXXXX``. Raises nothing for any ``str``."""
    return "".join(escape_char(c) if _reorders(c) else c for c in text)


def isolate(text: str) -> str:
    """``text`` (server or OS text already through :func:`display_text` or :func:`display_line`)
    as a run of its own for the bidi algorithm: each line between :data:`FSI` and :data:`PDI`,
    so that it takes its direction from its own first strong letter and neither moves the text
    placed around it (a ``:``, ``*``, a pid, another name) nor is moved by it (UAX #9 2.4).
    ``""`` stays ``""``; line breaks are kept. Raises nothing for any ``str``."""
    if not text:
        return text
    return "\n".join(FSI + line + PDI if line else line for line in text.split("\n"))


def _hidden(ch: str) -> bool:
    category = unicodedata.category(ch)
    return (
        ch in _BIDI_CONTROLS
        or category in ("Cc", "Zl", "Zp")
        or (category == "Cf" and ch not in _JOINERS)
        or ch in _BLANK_LETTERS
    )


def display_line(text: str) -> str:
    """One-line server text (server name, version, title, option, a value shown in a notice):
    like :func:`display_text`, and line breaks, tabs, invisible format characters (other than
    the joiners ZWJ/ZWNJ) and blank Hangul filler letters are shown as ``\\uXXXX`` too, so the
    text stays one honest line. Raises nothing for any ``str``."""
    return "".join(escape_char(ch) if _hidden(ch) else ch for ch in text)


def invisible_chars(text: str) -> list[str]:
    """The characters of ``text`` that do not show as themselves in a one-line editor or label
    (exactly those :func:`display_line` escapes: bidi controls, zero-width and other format
    characters, control characters, line breaks, Hangul fillers), each once, in order of first
    appearance; ``[]`` for honest text. Why it matters: ``"\\u200f12 34 56"`` (a RIGHT-TO-LEFT
    MARK first) reads ``56 34 12``."""
    seen: dict[str, None] = {}
    for ch in text:
        if ch not in seen and _hidden(ch):
            seen[ch] = None
    return list(seen)


def describe_char(ch: str) -> str:
    """``"U+200F RIGHT-TO-LEFT MARK"``: the code point and its Unicode name (control characters
    without a name get a common one, or none: ``"U+0007"``)."""
    name = unicodedata.name(ch, "") or _CONTROL_NAMES.get(ch, "")
    return f"U+{ord(ch):04X} {name}".rstrip()


def _may_break_before(text: str, i: int) -> bool:
    """Whether a break between ``text[i-1]`` and ``text[i]`` keeps every character whole: not
    before a combining mark, joiner, variation selector, emoji modifier or Hangul vowel/final
    jamo; not after a joiner or a mnemonic ``&``; not inside a regional-indicator pair."""
    before, ch = text[i - 1], text[i]
    if before in _JOINERS or before == "&" or ch in _JOINERS:
        return False
    if unicodedata.category(ch).startswith("M") or "\U0001f3fb" <= ch <= "\U0001f3ff":
        return False
    if "\u1160" <= ch <= "\u11ff" or "\ud7b0" <= ch <= "\ud7ff":
        return False
    return not ("\U0001f1e6" <= before <= "\U0001f1ff" and "\U0001f1e6" <= ch <= "\U0001f1ff")


def breakable(text: str) -> str:
    """``text`` with a ZERO WIDTH SPACE (:data:`ZWSP`) about every :data:`BREAK_EVERY`
    characters inside each run of more than :data:`LONG_RUN` characters without a space, so
    that word wrapping (which breaks only between words) can break a 300-character word too.

    For display only (docs/design.md "UI rules": "Long text wraps ...; nothing is cut off"): values
    never pass through here. Never splits a ``\\uXXXX`` escape from :func:`display_line`, a
    combining sequence, an emoji sequence or a mnemonic ``&x``. Returns ``text`` itself when no
    run is that long; raises nothing for any ``str``.
    """
    if len(text) <= LONG_RUN:
        return text
    out: list[str] = []
    position = 0
    for space in [*_SPACE.finditer(text), None]:
        end = space.start() if space is not None else len(text)
        word = text[position:end]
        if len(word) > LONG_RUN:
            inside = {i for m in _ESCAPE.finditer(word) for i in range(m.start() + 1, m.end())}
            last = 0
            for i, ch in enumerate(word):
                if ch == ZWSP:
                    last = i + 1
                elif i - last >= BREAK_EVERY and i not in inside and _may_break_before(word, i):
                    out.append(ZWSP)
                    last = i
                out.append(ch)
        else:
            out.append(word)
        if space is not None:
            out.append(space.group())
            position = space.end()
    return "".join(out)
