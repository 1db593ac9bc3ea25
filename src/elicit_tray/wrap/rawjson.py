"""A JSON object line read in place, without decoding it (``docs/wrap-design.md`` §2.6
"Performance"; no I/O).

:class:`RawObject` finds the members of the object on a line as byte spans and decodes only
the members asked for, so the proxy can decide about a line that passed its byte pre-filter
(``"result"``, ``"elicitation/create"``, …) without building Python objects for the rest of it
(a 30 MB line of ten million ``{}`` would take some 800 MB as objects). Values are skipped with
regular expressions on the bytes (strings, and containers nested up to :data:`FLAT_DEPTH` deep,
in one match each), so skipping costs no memory and little time.

The scan checks the structure it walks (quotes, brackets, colons, commas; no duplicate key in
an object it lists) but not the text of the values it skips: a line the proxy *changes* is
parsed in full (:func:`~elicit_tray.wrap.lines.parse_object`), which checks everything.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["RawObject", "skip_value", "FLAT_DEPTH", "SMALL_VALUE_BYTES", "UNREADABLE", "Line"]

#: A line as the shell reads it: a slice of a chunk, or the ``bytearray`` it grew in.
Line = bytes | bytearray


class _Unreadable:
    """The type of :data:`UNREADABLE`."""

    def __repr__(self) -> str:
        return "UNREADABLE"


#: What :meth:`RawObject.get` returns for a member too long to decode, or not decodable: equal
#: to nothing but itself, and not a dict, a str or a number.
UNREADABLE: Any = _Unreadable()

#: Containers nested this deep or less are skipped in one regular-expression match.
FLAT_DEPTH = 3
#: Longest raw member text :meth:`RawObject.get` decodes (ids, methods, modes, codes).
SMALL_VALUE_BYTES = 64 * 1024


def _patterns(possessive: bool) -> tuple[re.Pattern[bytes], re.Pattern[bytes], re.Pattern[bytes]]:
    """The string, flat-container and flat-run patterns. ``possessive``: with possessive
    quantifiers (no backtracking at all); else the same languages without them, each written so
    that only one alternative can start at a byte and a flat run is always taken whole (a
    lookahead refuses to split it), so a failed match still backtracks in linear time."""
    plus = b"+" if possessive else b""
    string = rb'"[^"\\]*' + plus + rb'(?:\\.[^"\\]*' + plus + rb")*" + plus + rb'"'
    flat = rb'[^"\[\]{}]++' if possessive else rb'[^"\[\]{}]+(?![^"\[\]{}])'

    def nested(depth: int) -> bytes:
        """An atom: a string, flat bytes, or a container up to ``depth`` deep."""
        atom = string + b"|" + flat
        for _ in range(depth):
            atom = atom + rb"|\{(?:" + atom + rb")*" + plus + rb"\}|\[(?:" + atom + rb")*" + plus + rb"\]"
        return atom

    inner = nested(FLAT_DEPTH - 1)
    container = rb"\{(?:" + inner + rb")*" + plus + rb"\}|\[(?:" + inner + rb")*" + plus + rb"\]"
    run = rb"(?:" + nested(FLAT_DEPTH) + rb")*" + plus
    return re.compile(string, re.S), re.compile(container, re.S), re.compile(run, re.S)


#: A value that CPython 3.11 before 3.11.5 (Debian 12's 3.11.2) skips wrongly with possessive
#: quantifiers (it stops 3 bytes early, inside the value): checked once at import.
_PROBE = (
    b'{"k":{"method":"e","params":{"message":"P","mode":"form","requestedSchema":{"properties":'
    b'{"confirm":{"type":"boolean"}},"required":["confirm"],"type":"object"}}}}'
)
_WS = re.compile(rb"[ \t\n\r]*")
_SCALAR = re.compile(rb"-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null")
_STRING, _CONTAINER, _RUN = _patterns(possessive=True)
_CLOSER = {ord("{"): ord("}"), ord("["): ord("]")}


def _ws(buf: Line, i: int) -> int:
    match = _WS.match(buf, i)
    return match.end() if match is not None else i


def skip_value(buf: Line, i: int) -> int:
    """The index just after the JSON value that starts at ``buf[i]``.

    Raises:
        ValueError: no well-formed value starts there (as far as the scan checks).
    """
    if i >= len(buf):
        raise ValueError("end of line")
    first = buf[i]
    if first == 0x22:
        match = _STRING.match(buf, i)
    elif first in _CLOSER:
        match = _CONTAINER.match(buf, i)
        if match is None:
            return _skip_deep(buf, i)
    else:
        match = _SCALAR.match(buf, i)
    if match is None:
        raise ValueError(f"no JSON value at {i}")
    return match.end()


def _skip_deep(buf: Line, i: int) -> int:
    """:func:`skip_value` of a container nested deeper than :data:`FLAT_DEPTH`: bracket by
    bracket, the flat parts between brackets in one match each."""
    expected = [_CLOSER[buf[i]]]
    pos = i + 1
    while True:
        match = _RUN.match(buf, pos)
        pos = match.end() if match is not None else pos
        if pos >= len(buf):
            raise ValueError("unterminated container")
        char = buf[pos]
        if char in _CLOSER:
            expected.append(_CLOSER[char])
        elif not expected or char != expected.pop():
            raise ValueError(f"unexpected byte at {pos}")
        elif not expected:
            return pos + 1
        pos += 1


def _engine_skips_right() -> bool:
    """Whether :func:`skip_value` skips :data:`_PROBE` whole with the patterns in use."""
    try:
        return skip_value(_PROBE, 0) == len(_PROBE)
    except ValueError:
        return False


if not _engine_skips_right():  # a broken engine: the portable patterns
    _STRING, _CONTAINER, _RUN = _patterns(possessive=False)


def _members(buf: Line, start: int) -> tuple[dict[str, tuple[int, int]], int] | None:
    """``(spans, end)``: the raw value span ``(begin, end)`` of each member of the object at
    ``buf[start]``, and the index after its ``}``; None when it is not an object, or one with
    a duplicate key."""
    try:
        idx = _ws(buf, start)
        if buf[idx] != 0x7B:
            return None
        idx = _ws(buf, idx + 1)
        spans: dict[str, tuple[int, int]] = {}
        if buf[idx] == 0x7D:
            return spans, idx + 1
        count = 0
        while True:
            if buf[idx] != 0x22:
                return None
            key_end = skip_value(buf, idx)
            key = json.loads(buf[idx:key_end])
            idx = _ws(buf, key_end)
            if buf[idx] != 0x3A:
                return None
            begin = _ws(buf, idx + 1)
            end = skip_value(buf, begin)
            spans[key] = (begin, end)
            count += 1
            if len(spans) != count:
                return None
            idx = _ws(buf, end)
            if buf[idx] == 0x7D:
                return spans, idx + 1
            if buf[idx] != 0x2C:
                return None
            idx = _ws(buf, idx + 1)
    except (ValueError, IndexError, RecursionError):
        return None


class RawObject:
    """The JSON object on ``line`` (bytes), read in place: members are found by path (keys
    from the top down) and decoded only when asked for.

    Use :meth:`of`; ``RawObject(line, spans)`` is for it alone.
    """

    def __init__(self, line: Line, spans: dict[str, tuple[int, int]]):
        self.line = line
        self._objects: dict[tuple[str, ...], dict[str, tuple[int, int]] | None] = {(): spans}

    @classmethod
    def of(cls, line: Line) -> RawObject | None:
        """The object on ``line`` (whitespace and a terminator around it allowed), or None:
        not an object (a batch, a scalar, not JSON), a duplicate top-level key, or more after it."""
        found = _members(line, 0)
        if found is None or _ws(line, found[1]) != len(line):
            return None
        return cls(line, found[0])

    def _spans(self, path: tuple[str, ...]) -> dict[str, tuple[int, int]] | None:
        if path not in self._objects:
            parent = self._spans(path[:-1])
            span = parent.get(path[-1]) if parent is not None else None
            found = _members(self.line, span[0]) if span is not None else None
            self._objects[path] = found[0] if found is not None else None
        return self._objects[path]

    def span(self, *path: str) -> tuple[int, int] | None:
        """``(begin, end)`` of the raw value at ``path``, or None (absent, or a parent is not an object)."""
        spans = self._spans(path[:-1])
        return spans.get(path[-1]) if spans is not None else None

    def has(self, *path: str) -> bool:
        """Whether the member at ``path`` exists."""
        return self.span(*path) is not None

    def is_object(self, *path: str) -> bool:
        """Whether the value at ``path`` is an object (without a duplicate key)."""
        return self.span(*path) is not None and self._spans(path) is not None

    def text(self, *path: str) -> str | None:
        """The raw JSON text of the value at ``path``, exactly as on the line, or None."""
        span = self.span(*path)
        return None if span is None else self.line[span[0] : span[1]].decode("utf-8", "surrogatepass")

    def keys(self, *path: str) -> list[str]:
        """The keys of the object at ``path``, in line order (``[]`` if it is not an object)."""
        return list(self._spans(path) or ())

    def get(self, *path: str, default: Any = None, limit: int | None = SMALL_VALUE_BYTES) -> Any:
        """The decoded value at ``path``: ``default`` when absent (or a parent is not an
        object); :data:`UNREADABLE` when it is not valid JSON or longer than ``limit`` bytes of
        raw text (``None``: no limit, for a member the proxy acts on, never the rest of a line)."""
        span = self.span(*path)
        if span is None:
            return default
        if limit is not None and span[1] - span[0] > limit:
            return UNREADABLE
        try:
            return json.loads(self.line[span[0] : span[1]])
        except (ValueError, RecursionError):
            return UNREADABLE
