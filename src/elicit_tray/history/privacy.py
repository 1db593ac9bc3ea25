"""What the decision history keeps of a request: the switches (:class:`Privacy`), the URL
(:func:`history_url`) and each form field's value (:func:`kept_fields`). ``docs/design.md`` "UI
rules": what a user needs to answer "what did I approve, for whom, when" and no secrets: no URL
user info or credential-like path segments, no free text unless the user turns it on.

URLs are read by the WHATWG URL parser (``ada_url``, as the consent dialog's analysis and the
browser read them), so user info is dropped in every spelling a browser accepts
(``https:user:pw@host``, ``https:\\\\user:pw@host``, tabs or newlines inside, ``%40`` in the name,
``HTTPS://``); the history keeps the scheme, host and port (the origin, the host in its ASCII
form), and the path with each random-looking segment written ``…`` (:func:`masked_path`).

Form fields: a choice the user made (yes/no, an option or options, a number, a date) is kept while
``Privacy.values`` is on; typed text only while ``Privacy.text`` is on (off by default); never
the value of a field that raised the secret warning (:func:`~elicit_tray.schema.secrets.looks_secret`).

Pure: no Qt.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote_to_bytes

import ada_url

from ..schema.model import FieldKind, FieldSpec, FormSpec, unknown_kind
from ..schema.secrets import looks_secret, secret_term, words

__all__ = [
    "DEFAULT_PRIVACY",
    "DEFAULT_RETENTION_DAYS",
    "MASK",
    "Privacy",
    "UNPARSEABLE",
    "history_url",
    "kept_fields",
    "kept_value",
    "masked_path",
    "random_looking",
]

#: Days a decision is kept unless the user sets another retention (0 keeps everything).
DEFAULT_RETENTION_DAYS = 90
#: What a masked path segment reads (never in a parser's serialisation, which writes %E2%80%A6).
MASK = "…"
#: The history's URL of a string the WHATWG parser rejects.
UNPARSEABLE = "<unparseable>"


@dataclass(frozen=True)
class Privacy:
    """What the history keeps.

    Attributes:
        enabled: write rows at all (off: nothing new is written; old rows stay until cleared).
        values: keep the choices made in forms: booleans, options, numbers, dates (never a
            secret-looking field's).
        text: keep text typed in forms too (never a secret-looking field's; a ``uri`` field's
            text as :func:`history_url` keeps a URL).
        query: keep a URL's query string and fragment.
        retention_days: rows older than this are deleted at start and daily (0: kept forever).
    """

    enabled: bool = True
    values: bool = True
    text: bool = False
    query: bool = False
    retention_days: int = DEFAULT_RETENTION_DAYS


#: The switches of a recorder that was given none (the settings' defaults).
DEFAULT_PRIVACY = Privacy()


def history_url(url: str, *, query: bool = False) -> str:
    """What the history keeps of ``url``, as the WHATWG parser reads it: the scheme, the host
    (ASCII) and a port other than the scheme's default, never user info, then
    :func:`masked_path` of the path, and ``?query#fragment`` only when ``query`` is true.
    A URL without an authority keeps its scheme and (masked) path: ``mailto:a@b.example``;
    a string the parser rejects reads :data:`UNPARSEABLE`.

    ``history_url("https:user:pw@bank.example/reset/8f3a9c1d2e/confirm?t=1")`` ->
    ``"https://bank.example/reset/…/confirm"``."""
    try:
        if not isinstance(url, str) or not ada_url.check_url(url):
            return UNPARSEABLE
        parts = ada_url.parse_url(url, attributes=("href", "protocol", "host", "pathname", "search", "hash"))
    except (ValueError, TypeError):
        return UNPARSEABLE
    protocol, path = parts["protocol"], masked_path(parts["pathname"])
    if parts["href"][len(protocol) :].startswith("//"):
        head = f"{protocol}//{parts['host']}"
    else:  # no authority: a path that starts with // would read as one (the parser writes /.//)
        head = protocol + ("/." if path.startswith("//") else "")
    return head + path + ((parts["search"] + parts["hash"]) if query else "")


#: Words of a path segment after which the next segment is a code unless it is a plain
#: lower-case word (``/verify/482913``, ``/tokens/42``; ``/reset/…/confirm``, ``/tokens/new``),
#: with every term of :func:`~elicit_tray.schema.secrets.secret_term`.
PATH_WORDS = frozenset(
    {
        "reset", "verify", "verification", "confirm", "confirmation", "activate", "activation",
        "magic", "invite", "invitation", "unlock", "recover", "recovery", "unsubscribe", "token",
        "key", "secret", "session", "otp", "share",
    }
)  # fmt: skip
_PLAIN = re.compile(r"[a-z]+(?:[-_][a-z]+)*")
#: The shapes of a readable word (``a`` a lower-case or uncased letter, ``A`` an upper-case one,
#: ``9`` a digit): letters with at most 3 digits after (``v2``, ``sha256``), 1-4 digits with 1-4
#: letters after (``2fa``, ``1080p``), a numeronym (``i18n``, ``k8s``), a number of at most 9 digits.
_WORD_SHAPES = (
    re.compile(r"[aA]+9{0,3}"),
    re.compile(r"9{1,4}[aA]{1,4}"),
    re.compile(r"[aA]9{1,2}[aA]"),
    re.compile(r"9{1,9}"),
)
#: Letters in one word at most (longer runs of letters are not words of any language in a URL).
_LONGEST_WORD = 32


def _readable(part: str) -> bool:
    """Whether ``part`` (letters and digits only) is a word or a short number (:func:`random_looking`)."""
    shape = "".join("9" if c.isdigit() else "A" if c.isupper() else "a" for c in part)
    if not any(p.fullmatch(shape) for p in _WORD_SHAPES):
        return False
    letters = shape.rstrip("9")
    if len(letters) > _LONGEST_WORD:
        return False
    runs = re.findall(r"a+|A+", letters)
    # camelCase and acronyms keep lower-case runs of 2+ letters; one single lower-case letter
    # after the first run is allowed (``McDonald``, ``PhD``), two (``AbCdEf``, ``dGhpcyBp``) are
    # the case mixing of random base64/base62 text.
    return sum(1 for run in runs[1:] if run == "a") < 2


def random_looking(segment: str) -> bool:
    """Whether a decoded path segment looks random (a token, an id, a hash) rather than words.

    The segment is split into parts at every character that is not a letter or a digit (``-``,
    ``_``, ``.``, ``~``, spaces...); it looks random when a part is not readable: digits among
    letters other than at the end of a word or a numeronym (``s3cret``, ``8f3a9c1d2e``,
    ``550e8400``, ``AKIAIOSFODNN7EXAMPLE``), a number of 10 digits or more, more than 32 letters,
    or mixed case with two or more lone lower-case letters (``AbCdEfGhIjKlMnOp``). A real token
    almost never passes: 20 random base62 characters hold no digit with probability 3%, and then
    still mix case. Kept: ``getting-started``, ``pulls``, ``123``, ``v2``, ``index.html``,
    ``2026-12-02``, ``XMLHttpRequest``, ``i18n``, ``Пароль``."""
    return not all(_readable(part) for part in re.findall(r"[^\W_]+", segment))


def _decoded(segment: str) -> str | None:
    try:
        return unquote_to_bytes(segment).decode("utf-8")
    except UnicodeDecodeError:
        return None


def _names_credential(text: str) -> bool:
    return any(w in PATH_WORDS or w.rstrip("s") in PATH_WORDS for w in words(text)) or (secret_term(text) is not None)


def masked_path(path: str) -> str:
    """``path`` (as the parser serialises it) with each segment that looks random
    (:func:`random_looking` of its percent-decoded text; a segment that does not decode as UTF-8
    too) written :data:`MASK`, and each segment after one that names a credential or a one-time
    link (:data:`PATH_WORDS`, ``password``...) masked unless it is a plain lower-case word.
    ``/magic-link/s3cret-TOKEN-123`` -> ``/magic-link/…``; ``/repos/owner/name/pulls/123`` as
    it is."""
    out: list[str] = []
    context = False
    for segment in path.split("/"):
        text = _decoded(segment)
        masked = bool(segment) and (text is None or random_looking(text) or (context and not _PLAIN.fullmatch(text)))
        out.append(MASK if masked else segment)
        context = text is not None and not masked and _names_credential(text)
    return "/".join(out)


def kept_value(spec: FieldSpec, value: Any, privacy: Privacy) -> tuple[bool, Any]:
    """``(True, what is kept)`` of the submitted ``value`` of ``spec``, or ``(False, None)``
    when nothing is: a secret-looking field never; a choice the user made (a yes/no, an option or
    options, a number, a date or date-time) with ``privacy.values``; typed text (``TEXT``) with
    ``privacy.text``, a ``uri`` field's as :func:`history_url` keeps a URL (``privacy.query``
    applies). Raises :class:`~elicit_tray.schema.model.UnknownFieldKind` for a kind it has no
    case for."""
    if looks_secret(spec):
        return False, None
    match spec.kind:
        case (
            FieldKind.BOOLEAN
            | FieldKind.SINGLE_SELECT
            | FieldKind.MULTI_SELECT
            | FieldKind.NUMBER
            | FieldKind.INTEGER
            | FieldKind.DATE
            | FieldKind.DATETIME
        ):
            return (True, value) if privacy.values else (False, None)
        case FieldKind.TEXT:
            if not privacy.text:
                return False, None
            if spec.format == "uri" and isinstance(value, str):
                return True, history_url(value, query=privacy.query)
            return True, value
        case _:
            unknown_kind(spec.kind)


def kept_fields(form: FormSpec, content: dict[str, Any] | None, privacy: Privacy) -> list[dict[str, Any]]:
    """The history's ``fields``: ``{"name", "title", "secret"}`` per field in form order, with
    ``"value"`` where :func:`kept_value` keeps one of ``content`` (the accepted values; ``None``
    before an answer)."""
    out = []
    for spec in form.fields:
        item: dict[str, Any] = {"name": spec.name, "title": spec.title, "secret": looks_secret(spec)}
        if content is not None and spec.name in content:
            keep, value = kept_value(spec, content[spec.name], privacy)
            if keep:
                item["value"] = value
        out.append(item)
    return out
