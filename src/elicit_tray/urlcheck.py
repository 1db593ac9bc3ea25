"""Offline, lexical safety analysis of the URL in a URL-mode elicitation.

Implements the client side of MCP 2025-11-25, ``client/elicitation`` -> *Safe URL Handling*:
show the target host clearly (highlighting the registrable domain), warn on ambiguous or
suspicious URLs (e.g. Punycode), never pre-fetch anything (no DNS, no network: every check here
is purely lexical), and open only what the user consented to.  The policy follows
``/work/shared/notes/url-safety.md`` §8: parse once with the WHATWG parser (``ada_url``), decide
on that parse, display that parse, and hand the browser the serialized ASCII ``href``.

IDN labels are displayed following Chromium's IDN policy, approximated without ICU: UTS 39
"highly restrictive" script mixing via a code-point-range script table, a conservative allowed
character set, Chromium's whole-script-confusable and digit-look-alike lists, a few dangerous
patterns, and a diacritic-stripping skeleton compared with a shipped top-domain list.

This module must not import Qt.
"""

from __future__ import annotations

import bisect
import ipaddress
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import ada_url
import idna
from publicsuffixlist import PublicSuffixList

__all__ = ["REASONS", "UrlAnalysis", "analyze_url", "visible_url"]

#: Stable reason id -> one plain sentence for a non-technical reader.  Key order is the order
#: in which reasons are reported.
REASONS: dict[str, str] = {
    # refuse
    "unparseable": "This is not a valid web address.",
    "forbidden_character": "The address contains hidden, invisible or space characters.",
    "bidi_control": "The address contains characters that reverse the direction of the text shown.",
    "ambiguous_authority": "The address is written in a way that browsers and other programs "
    "could read as different websites.",
    "scheme_not_allowed": "This is not a web page address (only http and https can be opened).",
    "invalid_idna": "The address contains a malformed international name.",
    # warn
    "insecure_scheme": "The connection to this site is not encrypted.",
    "userinfo": "The address contains a user name before the real site name, which can make it "
    "look like a different site.",
    "ip_literal": "The address is a numeric internet address rather than a site name.",
    "ip_noncanonical": "The numeric address is written in an unusual form.",
    "local_target": "The address points to this computer or to a private or local network.",
    "host_normalized": "The site name is written with unusual characters that the browser "
    "converts to a different spelling.",
    "trailing_dot": "The site name ends with an extra dot.",
    "host_too_long": "The site name is unusually long.",
    "subdomain_embeds_domain": "The address contains the name of a well-known site, but it "
    "leads to a different site.",
    "idn_shown_as_punycode": "The site name uses international characters that could be "
    "mistaken for other letters, so it is shown in its coded form.",
    "idn_mixed_script": "The address contains characters from several alphabets that look alike.",
    "idn_whole_script_confusable": "The site name is written in a foreign alphabet whose "
    "letters look like Latin letters.",
    "idn_confusable_top_domain": "The site name looks almost identical to a well-known site.",
    "idn_disallowed_character": "The site name contains symbols or characters that are not "
    "allowed in trustworthy site names.",
    "idn_digit_lookalike": "The site name contains characters that look like digits.",
    "idn_dangerous_pattern": "The site name contains characters that look like punctuation "
    "such as slashes or dots.",
}
_ORDER = {k: i for i, k in enumerate(REASONS)}

# --- character classes ---------------------------------------------------------------------
_FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp", "Cs"})
# Default_Ignorable_Code_Point (DerivedCoreProperties.txt) beyond the categories above.
_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
_BIDI_CONTROLS = frozenset(
    chr(c) for c in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
)


def _is_forbidden(ch: str) -> bool:
    if unicodedata.category(ch) in _FORBIDDEN_CATEGORIES:
        return True
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in _DEFAULT_IGNORABLE)


# Script of a code point (main blocks of the UTS 39 "recommended" scripts only; anything else
# is None = not allowed in a displayed label).
_SCRIPT_TABLE = sorted([
    (0x2D, 0x2D, "Common"), (0x30, 0x39, "Common"), (0x61, 0x7A, "Latin"), (0xB7, 0xB7, "Common"),
    (0xDF, 0xFF, "Latin"), (0x100, 0x24F, "Latin"), (0x259, 0x259, "Latin"),
    (0x300, 0x339, "Inherited"), (0x342, 0x342, "Inherited"), (0x345, 0x345, "Inherited"),
    (0x370, 0x3FF, "Greek"), (0x400, 0x52F, "Cyrillic"), (0x531, 0x58F, "Armenian"),
    (0x591, 0x5FF, "Hebrew"), (0x600, 0x6FF, "Arabic"), (0x750, 0x77F, "Arabic"),
    (0x780, 0x7BF, "Thaana"), (0x8A0, 0x8FF, "Arabic"), (0x900, 0x97F, "Devanagari"),
    (0x980, 0x9FF, "Bengali"), (0xA00, 0xA7F, "Gurmukhi"), (0xA80, 0xAFF, "Gujarati"),
    (0xB00, 0xB7F, "Oriya"), (0xB80, 0xBFF, "Tamil"), (0xC00, 0xC7F, "Telugu"),
    (0xC80, 0xCFF, "Kannada"), (0xD00, 0xD7F, "Malayalam"), (0xD80, 0xDFF, "Sinhala"),
    (0xE00, 0xE7F, "Thai"), (0xE80, 0xEFF, "Lao"), (0xF00, 0xFFF, "Tibetan"),
    (0x1000, 0x109F, "Myanmar"), (0x10A0, 0x10FF, "Georgian"), (0x1100, 0x11FF, "Hangul"),
    (0x1200, 0x139F, "Ethiopic"), (0x1780, 0x17FF, "Khmer"), (0x1EA0, 0x1EFF, "Latin"),
    (0x2D80, 0x2DDF, "Ethiopic"), (0x3005, 0x3005, "Han"), (0x3007, 0x3007, "Han"),
    (0x3041, 0x3096, "Hiragana"), (0x3099, 0x309A, "Inherited"), (0x309D, 0x309F, "Hiragana"),
    (0x30A1, 0x30FA, "Katakana"), (0x30FC, 0x30FC, "Common"), (0x30FD, 0x30FF, "Katakana"),
    (0x3105, 0x312F, "Bopomofo"), (0x3131, 0x318E, "Hangul"), (0x31A0, 0x31BF, "Bopomofo"),
    (0x31F0, 0x31FF, "Katakana"), (0x3400, 0x4DBF, "Han"), (0x4E00, 0x9FFF, "Han"),
    (0xAC00, 0xD7A3, "Hangul"), (0x20000, 0x3134F, "Han"),
])
_SCRIPT_STARTS = [r[0] for r in _SCRIPT_TABLE]
_NEUTRAL = frozenset({"Common", "Inherited"})
_LGC = frozenset({"Latin", "Greek", "Cyrillic"}) | _NEUTRAL
# Chromium's removals from the UTS 39 allowed set (idn_spoof_checker.cc).
_REMOVED = frozenset(map(chr, (0x0338, 0x058A, 0x2010, 0x2019, 0x2027, 0x30A0, 0x02BB, 0x02BC,
                               0x02EC, 0x0138, *range(0x01CD, 0x01DD))))
_ALLOWED_CATEGORIES = frozenset({"Ll", "Lo", "Lm", "Mn", "Mc", "Nd"})
# UTS 39 "highly restrictive": one script, or Latin with one CJK logical script.
_CJK_COMBOS = (frozenset({"Latin", "Han", "Hiragana", "Katakana"}),
               frozenset({"Latin", "Han", "Bopomofo"}), frozenset({"Latin", "Han", "Hangul"}))
_CJK = frozenset({"Han", "Hiragana", "Katakana", "Bopomofo", "Hangul"})


def _script(ch: str) -> str | None:
    i = bisect.bisect_right(_SCRIPT_STARTS, ord(ch)) - 1
    if i >= 0 and ord(ch) <= _SCRIPT_TABLE[i][1]:
        return _SCRIPT_TABLE[i][2]
    return None


def _allowed(ch: str) -> bool:
    if ch in "-\u00b7" or "0" <= ch <= "9":
        return True
    return (_script(ch) is not None and ch not in _REMOVED
            and unicodedata.category(ch) in _ALLOWED_CATEGORIES
            and unicodedata.normalize("NFKC", ch) == ch)


# Chromium kWholeScriptConfusables: script -> (Latin look-alike letters, exempt TLDs).
_WHOLE_SCRIPT = {
    "Cyrillic": ("аысԁеԍһіюкјӏорԗԛѕԝхуъьҽпгѵѡ", {"bg", "by", "kz", "pyc", "ru", "su", "ua", "uz"}),
    "Greek": ("αικνρυωηοτ", {"gr"}),
    "Armenian": ("ագզէլհյոսւօՙ", {"am"}),
    "Georgian": ("იოყძხჽჿ", {"ge"}),
    "Hebrew": ("דוחיןסװײ׳ﬦ", {"il"}),
}
_WSC_EXCEPTIONS = frozenset("секс как коса курс парк такий укроп сахарок покраска".split())
_DIGIT_LOOKALIKES = frozenset("θ२২੨૨೩೭շзҙӡउওਤ੩૩౩ဒვპੜკ੫丩ㄐճ৪੪୫૭୨౨")
_SLASH_LIKE = frozenset("ノソゾン丶乀乁丿一ㄧ丨乛七丅十〇")
# Skeleton map (UTS 39 confusables subset + Chromium's extra map) towards ASCII Latin.
_CONFUSABLE = str.maketrans({
    **dict(zip("аеіјкорсухѕԁԍһӏԛԝьъпгѵѡҽнћшщзҙӡм", "aeijkopcyxsdghlqwbbnrvwehhww333m")),
    "ы": "bl", "ю": "io", **dict(zip("αικνρυωηοτχγ", "aikvpuwnotxy")),
    **dict(zip("ոսօհզցքւ", "nuohqgpl")), "ı": "i", "ɑ": "a", "ɡ": "g", "ĸ": "k", "œ": "oe",
    "æ": "ae", "ł": "l", "ø": "o", "đ": "d", "ħ": "h", "þ": "p", "0": "o", "1": "l",
})


def _skeleton(host: str) -> str:
    if all(c == "." or _script(c) in _LGC for c in host):
        host = "".join(c for c in unicodedata.normalize("NFD", host)
                       if unicodedata.category(c) != "Mn")
        host = unicodedata.normalize("NFC", host)
    return host.translate(_CONFUSABLE)


def _load_top_domains() -> frozenset[str]:
    path = resources.files(__package__ or "elicit_tray").joinpath(
        "resources", "data", "top_domains.txt")
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(d for d in (ln.split("#", 1)[0].strip().lower() for ln in lines) if d)


_TOP_DOMAINS = _load_top_domains()
_TOP_SKELETONS = {_skeleton(d): d for d in _TOP_DOMAINS}


@lru_cache(maxsize=1)
def _psl() -> PublicSuffixList:
    return PublicSuffixList()


# --- IDN labels ----------------------------------------------------------------------------
_INVALID_IDNA_CODES = frozenset({"invalid_alabel", "non_canonical_alabel", "invalid_ascii",
                                 "invalid_utf8", "not_nfc", "leading_combiner",
                                 "hyphen_start_end", "empty_label", "uts46_disallowed"})


def _decode_alabel(label: str) -> tuple[str | None, str | None]:
    """Return (U-label, problem) for an ``xn--`` label; problem is None, "invalid" or a reason."""
    body = label[4:]
    if not body or label.endswith("-"):
        return None, "invalid"
    try:
        ulabel = body.encode("ascii").decode("punycode")
    except (UnicodeError, ValueError, IndexError, OverflowError):
        return None, "invalid"
    if (not ulabel or ulabel.isascii() or "." in ulabel
            or "xn--" + ulabel.encode("punycode").decode("ascii") != label):
        return None, "invalid"
    try:
        if idna.uts46_remap(ulabel, std3_rules=False) != ulabel:
            return None, "invalid"
        idna.check_label(ulabel)
    except idna.IDNAError as exc:
        code = getattr(exc, "code", "")
        if code in _INVALID_IDNA_CODES or code.startswith("bidi_"):
            return None, "invalid"
        return ulabel, "idn_disallowed_character"
    return ulabel, None


def _label_problem(label: str, tld: str) -> str | None:
    """Chromium-style per-label display check (notes §2.1 steps 2-7) -> reason id or None."""
    if not all(_allowed(c) for c in label):
        return "idn_disallowed_character"
    scripts = {s for c in label if (s := _script(c)) not in _NEUTRAL}
    if len(scripts) > 1 and not any(scripts <= combo for combo in _CJK_COMBOS):
        return "idn_mixed_script"
    if len(scripts) > 1 and any(not c.isascii() and _script(c) == "Latin" for c in label):
        return "idn_mixed_script"
    zeros = {ord(c) - unicodedata.decimal(c) for c in label if unicodedata.category(c) == "Nd"}
    if len(zeros) > 1:
        return "idn_mixed_script"
    nfd = unicodedata.normalize("NFD", label)
    if any(a == b and unicodedata.category(a) == "Mn" for a, b in zip(nfd, nfd[1:])):
        return "idn_disallowed_character"
    if (("þ" in label or "ð" in label) and tld not in ("is", "fo")) or (
            "ə" in label and tld != "az"):
        return "idn_disallowed_character"
    if "·" in label and (tld != "cat" or re.search(r"(?<!l)·|·(?!l)", label)):
        return "idn_disallowed_character"
    if _dangerous(label):
        return "idn_dangerous_pattern"
    if any(c in _DIGIT_LOOKALIKES for c in label) and all(
            c in _DIGIT_LOOKALIKES or "0" <= c <= "9" for c in label):
        return "idn_digit_lookalike"
    if len(scripts) == 1 and label not in _WSC_EXCEPTIONS:
        (script,) = scripts
        entry = _WHOLE_SCRIPT.get(script)
        tld_scripts = {_script(c) for c in tld}
        if entry and tld not in entry[1] and script not in tld_scripts and all(
                c in entry[0] for c in label if _script(c) == script):
            return "idn_whole_script_confusable"
    return None


def _dangerous(label: str) -> bool:
    for i, c in enumerate(label):
        prev = label[i - 1] if i else ""
        nxt = label[i + 1] if i + 1 < len(label) else ""
        if c in _SLASH_LIKE and any(n and _script(n) not in _CJK for n in (prev, nxt)):
            return True
        if c in "ーヽヾ" and _script(prev or "a") not in ("Hiragana", "Katakana"):
            return True
        if c in "\u3099\u309a" or (c == "\u0307" and prev in ("i", "j", "l", "ı")):
            return True
        if "\u0300" <= c <= "\u0339" and prev and _script(prev) not in _LGC:
            return True
    return False


# --- result --------------------------------------------------------------------------------
@dataclass(frozen=True)
class UrlAnalysis:
    """Outcome of :func:`analyze_url` (MCP 2025-11-25 client/elicitation, Safe URL Handling).

    ``verdict`` is ``"ok"`` (open after consent), ``"warn"`` (open only after a prominent
    warning) or ``"refuse"`` (never openable).  ``reasons`` are ids of :data:`REASONS` in a
    deterministic order.  When refused, ``display_host``, ``registrable_domain``, ``href``,
    ``ascii_host`` and ``unicode_host`` are ``None``.  ``url`` is the input as received
    (non-``str`` input is kept as its ``repr``).  Nothing here raises.
    """

    url: str
    verdict: str
    reasons: tuple[str, ...]
    display_host: str | None
    registrable_domain: str | None
    href: str | None
    scheme: str | None
    ascii_host: str | None
    unicode_host: str | None

    def to_json(self) -> dict:
        """Return ``{"verdict", "reasons" (list), "display_host", "registrable_domain"}``."""
        return {"verdict": self.verdict, "reasons": list(self.reasons),
                "display_host": self.display_host, "registrable_domain": self.registrable_domain}

    def host_parts(self) -> tuple[str, str, str]:
        """Split ``display_host`` as ``(before, registrable_domain, after)`` for emphasis.

        ``("", display_host, "")`` without a registrable domain, ``("", "", "")`` without a
        host.  Concatenating the parts always gives ``display_host``.  Never raises.
        """
        host = self.display_host
        if not host:
            return ("", "", "")
        reg = self.registrable_domain
        trail = "." if host.endswith(".") else ""
        core = host[:-1] if trail else host
        if not reg or not (core == reg or core.endswith("." + reg)):
            return ("", host, "")
        return (core[: len(core) - len(reg)], reg, trail)

    @property
    def can_open(self) -> bool:
        """True unless the verdict is ``"refuse"`` (a warn verdict still needs a warning)."""
        return self.verdict != "refuse"


def _result(url: str, reasons: list[str], scheme: str | None, **hosts: str | None) -> UrlAnalysis:
    ordered = tuple(sorted(set(reasons), key=_ORDER.__getitem__))
    refused = any(_ORDER[r] <= _ORDER["invalid_idna"] for r in ordered)
    verdict = "refuse" if refused else ("warn" if ordered else "ok")
    if refused:
        hosts = {}
    return UrlAnalysis(url=url, verdict=verdict, reasons=ordered, scheme=scheme,
                       display_host=hosts.get("display_host"),
                       registrable_domain=hosts.get("registrable_domain"),
                       href=hosts.get("href"), ascii_host=hosts.get("ascii_host"),
                       unicode_host=hosts.get("unicode_host"))


_SCHEME_RE = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")


def _safe_repr(obj: object) -> str:
    try:
        return repr(obj)
    except Exception:  # noqa: BLE001 - a hostile __repr__ must not break the dialog
        return f"<unrepresentable {type(obj).__name__}>"


def analyze_url(url: object) -> UrlAnalysis:
    """Classify an elicitation URL and compute how its host must be shown and opened.

    Accepts any object; returns a :class:`UrlAnalysis` and never raises (non-``str`` input or
    any internal failure gives verdict ``"refuse"`` with reason ``"unparseable"``).  Implements
    the checks behind MCP 2025-11-25 client/elicitation "Safe URL Handling": the displayed host
    is the one the browser would open (WHATWG parse by ada), Punycode is shown for deceptive
    IDN labels, and ``href`` is the ASCII serialization to hand to the system browser.
    Purely lexical: no network or DNS access.
    """
    if not isinstance(url, str):
        return _result(_safe_repr(url), ["unparseable"], None)
    try:
        return _analyze(url)
    except Exception:  # noqa: BLE001 - analysis must never raise; fail closed
        return _result(url, ["unparseable"], None)


def _analyze(url: str) -> UrlAnalysis:
    m = _SCHEME_RE.match(url)
    scheme = m.group(1).lower() if m else None
    bad = [c for c in url if _is_forbidden(c)]
    if bad:
        bidi = ["bidi_control"] if any(c in _BIDI_CONTROLS for c in bad) else []
        return _result(url, ["forbidden_character", *bidi], scheme)
    if "\\" in url:
        return _result(url, ["ambiguous_authority"], scheme)
    if m is None:
        return _result(url, ["unparseable"], None)
    if scheme not in ("http", "https"):
        return _result(url, ["scheme_not_allowed"], scheme)
    rest = url[m.end():]
    if not rest.startswith("//") or rest.startswith("///"):
        return _result(url, ["ambiguous_authority"], scheme)
    if not ada_url.check_url(url):
        return _result(url, ["unparseable"], scheme)
    parsed = ada_url.parse_url(url, attributes=("href", "hostname", "host_type"))
    href, ascii_host = parsed["href"], parsed["hostname"]
    is_ip = parsed["host_type"] != ada_url.HostType.DEFAULT
    if not ascii_host:
        return _result(url, ["unparseable"], scheme)

    reasons: list[str] = []
    authority = re.split(r"[/?#]", rest[2:], maxsplit=1)[0]
    if "@" in authority:
        reasons.append("userinfo")
    raw_host = authority.rsplit("@", 1)[-1]
    if raw_host.startswith("["):
        raw_host = raw_host.split("]", 1)[0] + "]"
    elif ":" in raw_host:
        raw_host = raw_host.rsplit(":", 1)[0]
    if "%" in raw_host:
        reasons.append("host_normalized")

    hosts: dict[str, str | None] = {"href": href, "ascii_host": ascii_host}
    if is_ip:
        reasons.append("ip_literal")
        addr = ipaddress.ip_address(ascii_host.strip("[]"))
        mapped = getattr(addr, "ipv4_mapped", None)
        loopback = addr.is_loopback or bool(mapped and mapped.is_loopback)
        if any(a is not None and (a.is_private or a.is_loopback or a.is_link_local or
                                  a.is_unspecified or a.is_reserved or a.is_multicast)
               for a in (addr, mapped)):
            reasons.append("local_target")
        if addr.version == 4 and raw_host.lower() != ascii_host:
            reasons.append("ip_noncanonical")
        hosts.update(display_host=ascii_host, unicode_host=ascii_host)
    else:
        loopback = _host_reasons(raw_host, ascii_host, reasons, hosts)
        if loopback is None:
            return _result(url, ["invalid_idna"], scheme)
    if scheme == "http" and not loopback:
        reasons.append("insecure_scheme")
    return _result(url, reasons, scheme, **hosts)


def _host_reasons(raw_host: str, ascii_host: str, reasons: list[str],
                  hosts: dict[str, str | None]) -> bool | None:
    """Add domain-name reasons and display fields; return is-loopback, None = invalid IDNA."""
    trailing = ascii_host.endswith(".")
    name = ascii_host[:-1] if trailing else ascii_host
    labels = name.split(".")
    if trailing:
        reasons.append("trailing_dot")
    if len(name) > 253 or any(len(lb) > 63 for lb in labels):
        reasons.append("host_too_long")
    loopback = name == "localhost" or name.endswith(".localhost")
    local = loopback or "." not in name or name.endswith((".local", ".internal", ".home.arpa"))
    if local:
        reasons.append("local_target")

    decoded: list[str] = []
    problems: list[str | None] = []
    for label in labels:
        if label.startswith("xn--"):
            ulabel, problem = _decode_alabel(label)
            if problem == "invalid" or ulabel is None:
                return None
            decoded.append(ulabel)
            problems.append(problem)
        else:
            decoded.append(label)
            problems.append(None)
    unicode_name = ".".join(decoded)
    tld = decoded[-1]
    shown = list(labels)
    for i, label in enumerate(labels):
        if label.startswith("xn--"):
            problem = problems[i] or _label_problem(decoded[i], tld)
            if problem:
                reasons += ["idn_shown_as_punycode", problem]
            else:
                shown[i] = decoded[i]
    if shown != labels and not any(".".join(labels[-k:]) in _TOP_DOMAINS for k in (2, 3, 4)):
        for k in range(2, min(4, len(labels)) + 1):
            top = _TOP_SKELETONS.get(_skeleton(".".join(shown[-k:])))
            if top is not None and top != ".".join(labels[-k:]):
                reasons += ["idn_shown_as_punycode", "idn_confusable_top_domain"]
                shown = list(labels)
                break
    raw_form = unicodedata.normalize("NFC", raw_host.lower()).rstrip(".")
    if raw_form not in (name, unicode_name):
        reasons.append("host_normalized")

    registrable = None
    if not local:
        suffix = _psl().privatesuffix(name)
        if suffix:
            count = suffix.count(".") + 1
            registrable = ".".join(shown[-count:])
            sub = labels[:-count]
            windows = {".".join(sub[i:i + k]) for k in (2, 3) for i in range(len(sub) - k + 1)}
            if (windows & _TOP_DOMAINS) - {suffix}:
                reasons.append("subdomain_embeds_domain")
    hosts.update(display_host=".".join(shown) + ("." if trailing else ""),
                 registrable_domain=registrable,
                 unicode_host=unicode_name + ("." if trailing else ""))
    return loopback


def visible_url(url: str) -> str:
    """Return ``url`` with control, invisible, whitespace and bidi-control characters escaped.

    Each such character becomes ``\\uXXXX`` (4 lowercase hex digits) or, outside the BMP,
    ``\\UXXXXXXXX``; all other characters are unchanged.  Supports MCP 2025-11-25
    client/elicitation "Safe URL Handling" (show the full URL before consent).  Non-``str``
    input is shown as its ``repr``.  Never raises.
    """
    if not isinstance(url, str):
        url = _safe_repr(url)
    out = []
    for ch in url:
        if _is_forbidden(ch):
            cp = ord(ch)
            out.append(f"\\u{cp:04x}" if cp <= 0xFFFF else f"\\U{cp:08x}")
        else:
            out.append(ch)
    return "".join(out)
