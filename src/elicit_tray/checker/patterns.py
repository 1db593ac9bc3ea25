"""The ``pattern-not-ecma`` warning: regex syntax of other dialects in a ``pattern``.

JSON Schema patterns are ECMA-262 regular expressions (JSON Schema 2020-12, ``pattern``);
authors often write another dialect: Pydantic's ``pattern=`` is checked by a Rust engine that
accepts Python's named groups, inline flags, other anchors and POSIX classes. Each row of
:data:`_FOREIGN` is one such syntax (a regex over the pattern's text) and its fix; a new one is
one more row, a ``(re.compile(...), "what it is: what to write")`` pair.
"""

from __future__ import annotations

import json
import re

from ..limits import MAX_PATTERN_CHARS
from ..schema.pattern import compile_problem
from .report import LintWarning

__all__ = ["pattern_warnings"]

#: Syntax other regex dialects have and ECMA-262 has not (or reads differently), with the fix.
_FOREIGN: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\(\?P[<=>]"), 'Python\'s named groups "(?P<name>...)": write "(?<name>...)"'),
    (re.compile(r"\\[AZz]"), 'the anchors "\\A", "\\Z", "\\z": write "^" and "$"'),
    (
        re.compile(r"\(\?[aiLmsux]*(?:-[imsx]+)?[:)]"),
        'inline flags such as "(?i)": ECMA-262 has none; spell out both cases ("[Aa]")',
    ),
    (re.compile(r"\(\?>|[*+?}]\+"), "atomic groups and possessive quantifiers"),
    (
        re.compile(r"\[:(?:alnum|alpha|ascii|blank|cntrl|digit|graph|lower|print|punct|space|upper|word|xdigit):\]"),
        'POSIX classes such as "[:alpha:]": write "[A-Za-z]"',
    ),
    (re.compile(r"\\[hHRKGQEX]"), 'escapes such as "\\h", "\\R", "\\K", "\\Q...\\E"'),
)


def pattern_warnings(path: str, pattern: str) -> list[LintWarning]:
    """The ``pattern-not-ecma`` warning for ``pattern`` (at JSON Pointer ``path``), or ``[]``
    when it is ECMA-262 as written (or over :data:`~elicit_tray.limits.MAX_PATTERN_CHARS`, a
    limit violation already)."""
    if len(pattern) > MAX_PATTERN_CHARS:
        return []  # a limit violation already
    plain = re.sub(r"\\\\", "", pattern)  # an escaped backslash starts nothing
    foreign = [fix for regex, fix in _FOREIGN if regex.search(plain)]
    problem = compile_problem(pattern)
    if not foreign and problem is None:
        return []
    if foreign:
        what = "uses syntax outside ECMA-262, the regex dialect of JSON Schema: " + "; ".join(foreign)
    else:
        what = f"is not an ECMA-262 regular expression (with the u flag): {problem}"
    outcome = (
        "the tray refuses the request"
        if problem is not None
        else "the tray accepts it but matches something other than intended"
    )
    return [
        LintWarning(
            "pattern-not-ecma",
            path,
            f"the pattern {json.dumps(pattern, ensure_ascii=False)} {what}; "
            f"{outcome}. Pydantic's pattern= is not checked against ECMA-262",
        )
    ]
