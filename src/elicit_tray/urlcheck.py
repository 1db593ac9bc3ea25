"""Offline, lexical safety analysis of the URL in a URL-mode elicitation.

Implements the client side of MCP 2025-11-25, ``client/elicitation`` -> *Safe URL Handling*:
show the target host clearly (highlighting the registrable domain), warn on ambiguous or
suspicious URLs (e.g. Punycode), never pre-fetch anything (no DNS, no network: every check here
is purely lexical), and open only what the user consented to.  The policy follows
``/work/shared/notes/url-safety.md`` §8: parse once with the WHATWG parser (``ada_url``), decide
on that parse, display that parse, and hand the browser the serialized ASCII ``href``.

IDN labels are displayed following Chromium's IDN policy, ported label by label from
``components/url_formatter`` (``IDNToUnicodeWithAdjustmentsImpl``, ``IDNSpoofChecker`` and
``SkeletonGenerator``) onto ICU through PyICU: UTS 46 decoding, ICU's spoof checker (UTS 39
"highly restrictive", Chromium's allowed identifier set), Chromium's extra rules, and the
confusable-skeleton match against a shipped top-domain list.  ICU is loaded on first use, so
importing this module stays cheap and an all-ASCII URL never needs it.

This module must not import Qt.
"""

from __future__ import annotations

import bisect
import ipaddress
import itertools
import re
import sys
import threading
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import ada_url
from publicsuffixlist import PublicSuffixList

from .translation_marks import QT_TRANSLATE_NOOP

__all__ = ["REASONS", "UrlAnalysis", "analyze_url", "visible_url"]

#: Stable reason id -> one plain sentence for a non-technical reader.  Key order is the order
#: in which reasons are reported.
REASONS: dict[str, str] = {
    # refuse
    "unparseable": QT_TRANSLATE_NOOP("UrlReasons", "This is not a valid web address."),
    "forbidden_character": QT_TRANSLATE_NOOP("UrlReasons", "The address contains hidden, invisible or space characters."),
    "bidi_control": QT_TRANSLATE_NOOP("UrlReasons", "The address contains characters that reverse the direction of the text shown."),
    "ambiguous_authority": QT_TRANSLATE_NOOP(
        "UrlReasons", "The address is written in a way that browsers and other programs could read as different websites."),
    "scheme_not_allowed": QT_TRANSLATE_NOOP("UrlReasons", "This is not a web page address (only http and https can be opened)."),
    # A host name no resolver and no Qt URL accepts (empty, over-long or non-LDH labels); it
    # shares the sentence of "unparseable", whose translation exists.
    "invalid_host": QT_TRANSLATE_NOOP("UrlReasons", "This is not a valid web address."),
    "invalid_idna": QT_TRANSLATE_NOOP("UrlReasons", "The address contains a malformed international name."),
    # warn
    "insecure_scheme": QT_TRANSLATE_NOOP("UrlReasons", "The connection to this site is not encrypted."),
    "userinfo": QT_TRANSLATE_NOOP(
        "UrlReasons", "The address contains a user name before the real site name, which can make it look like a different site."),
    "ip_literal": QT_TRANSLATE_NOOP("UrlReasons", "The address is a numeric internet address rather than a site name."),
    "ip_noncanonical": QT_TRANSLATE_NOOP("UrlReasons", "The numeric address is written in an unusual form."),
    "local_target": QT_TRANSLATE_NOOP("UrlReasons", "The address points to this computer or to a private or local network."),
    "host_normalized": QT_TRANSLATE_NOOP(
        "UrlReasons", "The site name is written with unusual characters that the browser converts to a different spelling."),
    "trailing_dot": QT_TRANSLATE_NOOP("UrlReasons", "The site name ends with an extra dot."),
    "host_too_long": QT_TRANSLATE_NOOP("UrlReasons", "The site name is unusually long."),
    "subdomain_embeds_domain": QT_TRANSLATE_NOOP(
        "UrlReasons", "The address contains the name of a well-known site, but it leads to a different site."),
    "idn_shown_as_punycode": QT_TRANSLATE_NOOP(
        "UrlReasons", "The site name uses international characters that could be mistaken for other letters, so it is shown in its coded form."),
    "idn_mixed_script": QT_TRANSLATE_NOOP("UrlReasons", "The address contains characters from several alphabets that look alike."),
    "idn_whole_script_confusable": QT_TRANSLATE_NOOP(
        "UrlReasons", "The site name is written in a foreign alphabet whose letters look like Latin letters."),
    "idn_confusable_top_domain": QT_TRANSLATE_NOOP("UrlReasons", "The site name looks almost identical to a well-known site."),
    "idn_disallowed_character": QT_TRANSLATE_NOOP(
        "UrlReasons", "The site name contains symbols or characters that are not allowed in trustworthy site names."),
    "idn_digit_lookalike": QT_TRANSLATE_NOOP("UrlReasons", "The site name contains characters that look like digits."),
    "idn_dangerous_pattern": QT_TRANSLATE_NOOP(
        "UrlReasons", "The site name contains characters that look like punctuation such as slashes or dots."),
}
_ORDER = {k: i for i, k in enumerate(REASONS)}

_DATA = resources.files(__package__ or "elicit_tray").joinpath("resources", "data")


def _data_lines(name: str) -> list[str]:
    """Non-comment, non-blank lines of a file in ``resources/data`` (trailing space stripped)."""
    text = _DATA.joinpath(name).read_text(encoding="utf-8")
    return [ln.rstrip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]


def _load_domains(name: str) -> tuple[str, ...]:
    """Domains of a list file: one per line, lowercase, ``#`` starts a comment."""
    domains = (ln.split("#", 1)[0].strip().lower() for ln in _data_lines(name))
    return tuple(d for d in domains if d)


#: Brand list (ASCII/Punycode registrable domains) for ``subdomain_embeds_domain``; it also
#: takes part in the skeleton match, together with Chromium's top bucket.
_TOP_DOMAINS = frozenset(_load_domains("top_domains.txt"))
_TOP_DOMAIN_FILES = ("top_domains.txt", "chromium_top_domains.txt")


@lru_cache(maxsize=1)
def _psl() -> PublicSuffixList:
    return PublicSuffixList()


def _frozen(icu_set: object) -> object:
    icu_set.freeze()  # type: ignore[attr-defined]  # PyICU's freeze() returns None
    return icu_set


def _chars(icu_set: object) -> frozenset[str]:
    return frozenset(chr(cp) for lo, hi in icu_set.ranges()  # type: ignore[attr-defined]
                     for cp in range(ord(lo), ord(hi) + 1))


# --- character screening -------------------------------------------------------------------
# Refused anywhere in the URL: General_Category Cc, Cf, Cs, Zs, Zl, Zp and
# Default_Ignorable_Code_Point (notes §8 step 1), with ICU's current Unicode data.  Surrogates
# (Cs) are tested in Python: PyICU cannot hand a lone surrogate back as a str.
_FORBIDDEN_PATTERN = "[[:Cc:][:Cf:][:Zs:][:Zl:][:Zp:][:Default_Ignorable_Code_Point:]]"
_ASCII_FORBIDDEN = re.compile(r"[\x00-\x20\x7f]")


@lru_cache(maxsize=1)
def _char_classes() -> tuple[list[int], list[int], frozenset[str]]:
    """(range starts, range ends) of the forbidden set and the Bidi_Control characters."""
    import icu

    ranges = sorted((ord(lo), ord(hi)) for lo, hi in icu.UnicodeSet(_FORBIDDEN_PATTERN).ranges())
    bidi = _chars(icu.UnicodeSet("[[:Bidi_Control:]]"))
    return [lo for lo, _ in ranges], [hi for _, hi in ranges], bidi


def _is_forbidden(ch: str) -> bool:
    if ch.isascii():
        return ch <= " " or ch == "\x7f"
    cp = ord(ch)
    if 0xD800 <= cp <= 0xDFFF:
        return True
    starts, ends, _ = _char_classes()
    i = bisect.bisect_right(starts, cp) - 1
    return i >= 0 and cp <= ends[i]


def _forbidden_chars(text: str) -> list[str]:
    if text.isascii():
        return _ASCII_FORBIDDEN.findall(text)
    return [c for c in text if _is_forbidden(c)]


def _is_bidi_control(ch: str) -> bool:
    return not ch.isascii() and ch in _char_classes()[2]


# --- Chromium's IDN display policy, on ICU ---------------------------------------------------
# Sources (chromium/chromium, BSD-3-Clause): components/url_formatter/url_formatter.cc
# (IDNToUnicodeWithAdjustmentsImpl, IDNToUnicodeOneComponent), spoof_checks/idn_spoof_checker.cc
# (commit 58a4b28c) and spoof_checks/skeleton_generator.cc (commit f24a8e13).

#: Characters that are, or look like, digits (IDNSpoofChecker digit_lookalikes_).
_DIGIT_LOOKALIKES = "[θ२২੨੨૨೩೭շзҙӡउওਤ੩૩౩ဒვპੜკ੫丩ㄐճ৪੪୫૭୨౨]"

#: SkeletonGenerator extra_confusable_mapper_: look-alikes that UTS 39 does not map.
_EXTRA_CONFUSABLES = (
    "[æӕ] > ae; [ϼҏ] > p; [ħнћңҥӈӊԋԧԩ] > h;"
    "[ĸκкқҝҟҡӄԟ] > k; [ŋпԥกח] > n;"
    "[ŧтҭԏ七丅丆丁] > t; [ƅьҍвß] > b;  [ωшщพฟພຟ] > w;"
    "[мӎ] > m; [єҽҿၔ] > e; ґ > r; [ғӻ] > f;"
    "[ҫင] > c; [ұ丫] > y; [χҳӽӿ乂] > x;"
    "[ԃძ]  > d; [ԍဌ] > g; [ടรຣຮ] > s; ၂ > j;"
    "[०০੦૦ଠ୦೦စ] > o;"
    "[৭੧૧] > q;"
    "[บບ] > u;"
    "[θ] > 0;"
    "[२২੨੨૨೩೭շ] > 2;"
    "[зҙӡउওਤ੩૩౩ဒვპੜკ] > 3;"
    "[੫丩ㄐ] > 4;"
    "[ճ] > 6;"
    "[৪੪୫] > 8;"
    "[૭୨౨] > 9;"
    r"[—一―⸺⸻] > \-;"
)
#: SkeletonGenerator diacritic_remover_.
_DROP_ACCENTS = "::NFD; ::[:Nonspacing Mark:] Remove; ::NFC; ł > l; ø > o; đ > d;"
#: SkeletonGenerator character_map_: characters that look like several others.
_MULTI_SKELETONS = {"þ": ("b", "p"), "œ": ("ce", "oe"), "ł": ("l", "t")}
_MAX_HOSTNAME_FOR_SUPPLEMENTS = 32
_MAX_SUPPLEMENTAL_HOSTNAMES = 128
_MAX_CHARS_WITH_MULTIPLE_SKELETONS = 5
_LABELS_TO_CHECK = 4  # all top domains have at most 4 labels

#: IDNSpoofChecker dangerous_pattern (ICU regex), verbatim.
_DANGEROUS_PATTERN = (
    # Katakana no/so/zo/n and CJK slash look-alikes between non-Japanese scripts.
    r"[^\p{scx=kana}\p{scx=hira}\p{scx=hani}]"
    r"[\u30ce\u30f3\u30bd\u30be\u4e36\u4e40\u4e41\u4e3f]"
    r"[^\p{scx=kana}\p{scx=hira}\p{scx=hani}]|"
    # Katakana iteration marks not preceded by Katakana.
    r"[^\p{scx=kana}][\u30fd\u30fe]|^[\u30fd\u30fe]|"
    # Hiragana he/be/pe among Katakana, and the other way round.
    r"^[\p{scx=kana}]+[\u3078-\u307a][\p{scx=kana}]+$|"
    r"^[\p{scx=hira}]+[\u30d8-\u30da][\p{scx=hira}]+$|"
    # Katakana middle dot and prolonged sound mark out of context.
    r"[^\p{scx=kana}\p{scx=hira}]\u30fc|^\u30fc|"
    r"[a-z]\u30fb|\u30fb[a-z]|"
    # CJK ideographs/Bopomofo that look like Latin letters or punctuation next to non-CJK.
    r"[^\p{scx=kana}\p{scx=hira}\p{scx=hani}\p{scx=bopo}]"
    r"[\u4e00\u3127\u4e28\u4e5b\u4e03\u4e05\u5341\u3007\u3112"
    r"\u311a\u311f\u3128\u3129\u3108\u31ba\u31b3\u5dE5"
    r"\u31b2\u8ba0\u4e01]|"
    r"[\u4e00\u3127\u4e28\u4e5b\u4e03\u4e05\u5341\u3007\u3112"
    r"\u311a\u311f\u3128\u3129\u3108\u31ba\u31b3\u5de5"
    r"\u31b2\u8ba0\u4e01]"
    r"[^\p{scx=kana}\p{scx=hira}\p{scx=hani}\p{scx=bopo}]|"
    # Combining diacritics after a non-LGC character, after dotless i; Kana voicing marks.
    r"[^\p{scx=latn}\p{scx=grek}\p{scx=cyrl}][\u0300-\u0339]|"
    r"\u0131[\u0300-\u0339]|"
    r"\u3099|\u309A|"
    # Dot above after i, j or l.
    r"[ijl]\u0307"
)

# Removed from UTS 39 recommended + inclusion (IDNSpoofChecker::SetAllowedUnicodeSet).  ZWNJ
# and ZWJ are already restricted since Unicode 15 (ICU 72); Chromium removes them for older ICU.
_REMOVED_CHARS = (0x0338, 0x058A, 0x2010, 0x2019, 0x2027, 0x30A0, 0x02BB, 0x02BC, 0x02EC,
                  0x0138, 0x200C, 0x200D)
_REMOVED_CHARS_MACOS = (0x0620, 0x0F8C, 0x0F8D, 0x0F8E, 0x0F8F)  # render blank in macOS fonts
_REMOVED_BLOCKS = ((0x01CD, 0x01DC),  # Latin Extended-B: Pinyin
                   (0x1C80, 0x1C8F),  # Cyrillic Extended-C
                   (0x1E00, 0x1E9B),  # Latin Extended Additional
                   (0x1F00, 0x1FFF),  # Greek Extended
                   (0xA640, 0xA69F),  # Cyrillic Extended-B
                   (0xA720, 0xA7FF))  # Latin Extended-D


@dataclass(frozen=True)
class _WholeScript:
    letters: object  # icu.UnicodeSet of the script
    lookalikes: frozenset[str]
    allowed_tlds: frozenset[str]


class _IdnPolicy:
    """Chromium's ``IDNSpoofChecker`` + ``SkeletonGenerator`` on ICU (via PyICU).

    ``label_to_unicode`` is UTS 46 ToUnicode of one ``xn--`` label (None when ICU reports any
    error), ``label_problem`` is ``SafeToDisplayAsUnicode`` (a reason id, None when safe) and
    ``similar_top_domain`` is ``GetSimilarTopDomain`` against ``top_domains``.
    """

    def __init__(self, top_domains: Iterable[str]) -> None:
        import icu

        self._icu = icu
        self._uts46 = icu.IDNA(icu.IDNA.CHECK_BIDI | icu.IDNA.CHECK_NONTRANSITIONAL_TO_UNICODE)
        checker = icu.SpoofChecker()
        checker.setRestrictionLevel(icu.URestrictionLevel.HIGHLY_RESTRICTIVE)
        checker.setAllowedUnicodeSet(self._allowed_set(checker))  # also enables CHAR_LIMIT
        checker.setChecks(checker.getChecks() | icu.USpoofChecks.AUX_INFO)
        self._checker = checker
        self._all_checks = icu.USpoofChecks.ALL_CHECKS
        self._char_checks = icu.USpoofChecks.CHAR_LIMIT | icu.USpoofChecks.INVISIBLE
        self._level_mask = icu.URestrictionLevel.RESTRICTION_LEVEL_MASK
        self._ascii = icu.URestrictionLevel.ASCII
        self._single_script = icu.URestrictionLevel.SINGLE_SCRIPT_RESTRICTIVE

        uset = icu.UnicodeSet
        self._non_ascii_latin = _frozen(uset(r"[[:Latin:] - [a-zA-Z]]"))
        self._kana_exceptions = _frozen(uset(r"[\u3078-\u307a\u30d8-\u30da\u30fb-\u30fe]"))
        self._combining_exceptions = _frozen(uset(r"[\u0300-\u0339]"))
        self._digit_lookalikes = _chars(uset(_DIGIT_LOOKALIKES))
        self._icelandic = frozenset("\u00fe\u00f0")
        self._dangerous = icu.RegexPattern.compile(_DANGEROUS_PATTERN)
        self._whole_script: list[_WholeScript] = []
        self._allowed_words: frozenset[str] = frozenset()
        for line in _data_lines("whole_script_confusables.txt"):
            fields = line.split("\t")
            if fields[0] == "allowed-words":
                self._allowed_words = frozenset(fields[1].split())
                continue
            tlds = frozenset() if fields[2] == "-" else frozenset(fields[2].split())
            self._whole_script.append(_WholeScript(_frozen(uset(fields[0])),
                                                   _chars(uset(fields[1])), tlds))

        forward = icu.UTransDirection.FORWARD
        self._drop_accents = icu.Transliterator.createFromRules("DropAcc", _DROP_ACCENTS, forward)
        self._extra_confusables = icu.Transliterator.createFromRules(
            "ExtraConf", _EXTRA_CONFUSABLES, forward)
        self._lgc_n_ascii = _frozen(uset(
            r"[[:Latin:][:Greek:][:Cyrillic:][0-9\u002e_\u002d][\u0300-\u0339]]"))
        self._multi_with_diacritics = frozenset(
            c for c in _MULTI_SKELETONS if self._remove_diacritics(c) != c)

        self._top: dict[str, set[str]] = {}
        for domain in top_domains:
            unicode_domain = self._domain_to_unicode(domain)
            if unicode_domain is None:
                continue
            for skeleton in self.skeletons(unicode_domain):
                self._top.setdefault(skeleton, set()).add(unicode_domain)

    def _allowed_set(self, checker: object) -> object:
        icu = self._icu
        try:  # UTS 39 Identifier_Status=Allowed, i.e. ICU's recommended ∪ inclusion sets
            allowed = icu.UnicodeSet("[[:Identifier_Status=Allowed:]]")
        except icu.ICUError:
            allowed = icu.UnicodeSet()
            allowed.addAll(checker.getRecommendedUnicodeSet())  # type: ignore[attr-defined]
            allowed.addAll(checker.getInclusionUnicodeSet())  # type: ignore[attr-defined]
        removed = _REMOVED_CHARS + (_REMOVED_CHARS_MACOS if sys.platform == "darwin" else ())
        for cp in removed:
            allowed.remove(chr(cp))
        for lo, hi in _REMOVED_BLOCKS:
            allowed.remove(chr(lo), chr(hi))
        return _frozen(allowed)

    def _domain_to_unicode(self, domain: str) -> str | None:
        labels = domain.rstrip(".").split(".")
        if domain.isascii() and _psl().privatesuffix(domain) is None:
            return None  # a public suffix itself (com.se): Chromium skips these too
        out = []
        for label in labels:
            if label.startswith("xn--"):
                decoded = self.label_to_unicode(label)
                if decoded is None:
                    return None
                label = decoded
            out.append(label)
        return ".".join(out)

    # -- one label ----------------------------------------------------------------------------
    def label_to_unicode(self, label: str) -> str | None:
        """UTS 46 ToUnicode of an ``xn--`` label (Bidi rule checked); None on any ICU error."""
        info = self._icu.IDNAInfo()
        decoded = str(self._uts46.labelToUnicode(label, info))
        return None if info.errors() else decoded

    def label_problem(self, label: str, tld: str, tld_unicode: str) -> str | None:
        """``IDNSpoofChecker::SafeToDisplayAsUnicode``: a reason id, or None if safe.

        ``label`` is the decoded label, ``tld`` the ASCII top-level label and ``tld_unicode``
        its Unicode form.  Deviation characters (ß, ς) are allowed: Chromium's check for them
        is off under IDNA 2008 non-transitional processing; ZWJ/ZWNJ fail CHAR_LIMIT.
        """
        result = self._checker.check(label)
        if result & self._all_checks:
            if result & self._char_checks:
                return "idn_disallowed_character"
            return "idn_mixed_script"  # RESTRICTION_LEVEL or MIXED_NUMBERS
        if len(label) > 1 and tld not in ("is", "fo") and not self._icelandic.isdisjoint(label):
            return "idn_disallowed_character"
        if len(label) > 1 and tld != "az" and "\u0259" in label:
            return "idn_disallowed_character"
        if _has_unsafe_middle_dot(label, tld):
            return "idn_disallowed_character"
        level = result & self._level_mask
        if level == self._ascii:
            return None
        if (level == self._single_script and self._kana_exceptions.containsNone(label)
                and self._combining_exceptions.containsNone(label)):
            if label not in self._allowed_words and any(
                    self._is_whole_script_confusable(ws, label)
                    and not self._whole_script_allowed_for_tld(ws, tld, tld_unicode)
                    for ws in self._whole_script):
                return "idn_whole_script_confusable"
            return "idn_digit_lookalike" if self._is_digit_lookalike(label) else None
        if self._is_digit_lookalike(label):
            return "idn_digit_lookalike"
        if (self._non_ascii_latin.containsSome(label)
                and not self._lgc_n_ascii.containsAll(label)):
            return "idn_mixed_script"  # kNonAsciiLatinCharMixedWithNonLatin
        if self._dangerous.matcher(label).find():
            return "idn_dangerous_pattern"
        return None

    def _is_digit_lookalike(self, label: str) -> bool:
        lookalike = False
        for c in label:
            if "0" <= c <= "9":
                continue
            if c not in self._digit_lookalikes:
                return False
            lookalike = True
        return lookalike

    @staticmethod
    def _is_whole_script_confusable(ws: _WholeScript, label: str) -> bool:
        letters = {c for c in label if ws.letters.contains(c)}  # type: ignore[attr-defined]
        return bool(letters) and letters <= ws.lookalikes

    @staticmethod
    def _whole_script_allowed_for_tld(ws: _WholeScript, tld: str, tld_unicode: str) -> bool:
        return (bool(tld_unicode) and ws.letters.containsSome(tld_unicode)  # type: ignore
                or tld in ws.allowed_tlds)

    # -- skeletons (SkeletonGenerator) -------------------------------------------------------
    def _remove_diacritics(self, hostname: str) -> str:
        if hostname.endswith("."):
            hostname = hostname[:-1]
        if hostname.isascii() or not self._lgc_n_ascii.containsAll(hostname):
            return hostname  # ASCII has none; non-LGC marks are blocked earlier
        return str(self._drop_accents.transliterate(hostname))

    def skeletons(self, hostname: str) -> set[str]:
        """UTS 39 skeletons of ``hostname`` after Chromium's extra mappings (several for þ, œ,
        ł and ӏ).  Unlike Chromium, a hostname too long for supplemental variants still gets
        the skeleton of its diacritic-free form (Chromium computes none)."""
        no_diacritics = self._remove_diacritics(hostname)
        variants = _supplemental_hostnames(no_diacritics)
        if not self._multi_with_diacritics.isdisjoint(hostname):
            variants |= _supplemental_hostnames(hostname)
        if not variants:
            variants = {no_diacritics}
        skeletons = set()
        for variant in variants:
            if variant.endswith("."):
                variant = variant[:-1]
            if not variant.isascii():
                variant = str(self._extra_confusables.transliterate(variant))
            if "\u04cf" in variant:  # ӏ: UTS 39 maps it to i, Chromium also to l
                skeletons.add(str(self._checker.getSkeleton(0, variant.replace("\u04cf", "l"))))
            skeletons.add(str(self._checker.getSkeleton(0, variant)))
        return skeletons

    def similar_top_domain(self, hostname: str) -> str | None:
        """``GetSimilarTopDomain``: the top domain whose skeleton ``hostname`` shares (last 2-4
        labels), unless ``hostname`` is that domain or one of its subdomains."""
        for skeleton in sorted(self.skeletons(hostname)):
            labels = skeleton.split(".")[-_LABELS_TO_CHECK:]
            while len(labels) >= 2:
                domains = self._top.get(".".join(labels))
                if domains:
                    if any(hostname == d or hostname.endswith("." + d) for d in domains):
                        return None
                    return min(domains)
                labels = labels[1:]
        return None


def _has_unsafe_middle_dot(label: str, tld: str) -> bool:
    """Middle dot only in .cat and only between two l (ela geminada, RFC 5892 A.3)."""
    for i, c in enumerate(label):
        if c != "\u00b7":
            continue
        if tld != "cat" or i == 0 or i == len(label) - 1:
            return True
        if label[i - 1] != "l" or label[i + 1] != "l":
            return True
    return False


def _supplemental_hostnames(hostname: str,
                            limit: int = _MAX_SUPPLEMENTAL_HOSTNAMES) -> set[str]:
    """``GenerateSupplementalHostnames``: variants with each þ/œ/ł replaced by its look-alikes,
    in breadth-first order, at most ``limit``; none for long inputs or too many such
    characters."""
    utf16_length = len(hostname.encode("utf-16-le")) // 2
    if not hostname or limit <= 0 or utf16_length > _MAX_HOSTNAME_FOR_SUPPLEMENTS:
        return set()
    if sum(c in _MULTI_SKELETONS for c in hostname) > _MAX_CHARS_WITH_MULTIPLE_SKELETONS:
        return set()
    choices = [(c, *_MULTI_SKELETONS.get(c, ())) for c in hostname]
    out: set[str] = set()
    for combination in itertools.product(*choices):
        out.add("".join(combination))
        if len(out) == limit:
            break
    return out


_POLICY: _IdnPolicy | None = None
_POLICY_LOCK = threading.Lock()


def _policy() -> _IdnPolicy:
    """The shared policy, built on first use (loads ICU and the top-domain skeletons)."""
    global _POLICY
    if _POLICY is None:
        with _POLICY_LOCK:
            if _POLICY is None:
                _POLICY = _IdnPolicy(d for name in _TOP_DOMAIN_FILES
                                     for d in _load_domains(name))
    return _POLICY


# --- result --------------------------------------------------------------------------------
@dataclass(frozen=True)
class UrlAnalysis:
    """Outcome of :func:`analyze_url` (MCP 2025-11-25 client/elicitation, Safe URL Handling).

    ``verdict`` is ``"ok"`` (open after consent), ``"warn"`` (open only after a prominent
    warning) or ``"refuse"`` (never openable).  ``reasons`` are ids of :data:`REASONS` in a
    deterministic order.  ``href`` is what the browser is handed (see :func:`analyze_url`).  When refused, ``display_host``, ``registrable_domain``, ``href``,
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
    IDN labels (Chromium's IDN policy on ICU), and ``href`` is the ASCII serialization to hand
    to the system browser, written the way ``QUrl`` (StrictMode) parses and writes it back
    unchanged, so that the browser opens exactly that string (RFC 3986 characters only,
    escapes normalised per RFC 3986 6.2.2; a WHATWG parser reads it as the same URL).  A host
    Qt cannot carry (an empty label as in ``example.com..``, a label longer than 63
    characters, with a hyphen at either end or with characters other than letters, digits,
    ``-`` and ``_``) is refused as ``"invalid_host"``.  Purely lexical: no network or DNS
    access.
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
    bad = _forbidden_chars(url)
    if bad:
        bidi = ["bidi_control"] if any(_is_bidi_control(c) for c in bad) else []
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

    hosts: dict[str, str | None] = {"ascii_host": ascii_host}
    if is_ip:
        reasons.append("ip_literal")
        addr = ipaddress.ip_address(ascii_host.strip("[]"))
        # Only a direct or an IPv4-mapped loopback address stays on this computer; NAT64, 6to4
        # and IPv4-compatible forms go through a network (they are still local targets).
        mapped = addr.ipv4_mapped if addr.version == 6 else None
        loopback = addr.is_loopback or bool(mapped and mapped.is_loopback)
        if _is_local_ip(addr):
            reasons.append("local_target")
        if addr.version == 4 and raw_host.lower() != ascii_host:
            reasons.append("ip_noncanonical")
        hosts.update(display_host=ascii_host, unicode_host=ascii_host)
    else:
        loopback = _host_reasons(raw_host, ascii_host, reasons, hosts)
        if isinstance(loopback, str):
            return _result(url, [loopback], scheme)
    if scheme == "http" and not loopback:
        reasons.append("insecure_scheme")
    hosts["href"] = _qt_stable_href(href, addr if is_ip else None)
    return _result(url, reasons, scheme, **hosts)


#: IPv6 prefixes that carry an IPv4 address in their last 32 bits (RFC 6052 NAT64 well-known
#: prefix; RFC 4291 2.5.5.1 IPv4-compatible) - besides IPv4-mapped and 6to4, which
#: ``ipaddress`` decodes itself.
_NAT64_WKP = ipaddress.IPv6Network("64:ff9b::/96")
_IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")


def _embedded_ipv4(addr: ipaddress.IPv4Address | ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address stands for, if it embeds one; else None.

    IPv4-mapped ``::ffff:a.b.c.d`` (RFC 4291 2.5.5.2), NAT64 ``64:ff9b::a.b.c.d`` (RFC 6052
    2.1), 6to4 ``2002:AABB:CCDD::/48`` (RFC 3056 2) and IPv4-compatible ``::a.b.c.d``
    (RFC 4291 2.5.5.1; ``::`` and ``::1`` are not: they are IPv6's own unspecified and
    loopback addresses).  An IPv4 address gives None.  Never raises.
    """
    if addr.version != 6:
        return None
    if addr.ipv4_mapped is not None:
        return addr.ipv4_mapped
    if addr.sixtofour is not None:
        return addr.sixtofour
    if addr in _NAT64_WKP or (addr in _IPV4_COMPATIBLE and int(addr) > 1):
        return ipaddress.IPv4Address(int(addr) & 0xFFFF_FFFF)
    return None


def _is_local_ip(addr: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether an IP literal targets this computer or a private, link-local, reserved or
    multicast network (notes section 8 ``local_target``).  An IPv6 address that embeds an
    IPv4 address (:func:`_embedded_ipv4`) is judged by that IPv4 address alone."""
    judged = _embedded_ipv4(addr) or addr
    return (judged.is_private or judged.is_loopback or judged.is_link_local
            or judged.is_unspecified or judged.is_reserved or judged.is_multicast)


# --- the href handed to the browser ---------------------------------------------------------
# The system browser is reached through QUrl (presenter.system_browser), which parses the href
# again in StrictMode and serialises it (QUrl::FullyEncoded) before handing it on.  The href is
# therefore written the way Qt writes it, so that what is opened is exactly what was analysed
# and shown: RFC 3986 characters only (WHATWG leaves "{", "|", "^", "[", "`", a stray "%", and
# a second "#" raw in some components), percent-encoded unreserved characters decoded
# (RFC 3986 6.2.2.2) and hex digits in upper case (6.2.2.1), IPv6 written as qipaddress.cpp
# does.  All of these are equivalent forms for a WHATWG parser: it parses the result to the
# same URL, host included.
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_SUB_DELIMS = frozenset("!$&'()*+,;=")
_HEX = frozenset("0123456789abcdefABCDEF")
_RAW_ALLOWED = {
    "user": _UNRESERVED | _SUB_DELIMS,
    "password": _UNRESERVED | _SUB_DELIMS | {":"},
    "path": _UNRESERVED | _SUB_DELIMS | set(":@/"),
    "query": _UNRESERVED | _SUB_DELIMS | set(":@/?"),
    "fragment": _UNRESERVED | _SUB_DELIMS | set(":@/?"),
}


def _rfc3986_component(text: str, part: str) -> str:
    """``text`` (ASCII, as ada serialises it) with every character outside RFC 3986's set for
    ``part`` percent-encoded, stray ``%`` as ``%25``, escapes of unreserved characters decoded
    and the hex digits of the other escapes in upper case."""
    allowed = _RAW_ALLOWED[part]
    out = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "%" and i + 2 < len(text) and text[i + 1] in _HEX and text[i + 2] in _HEX:
            decoded = chr(int(text[i + 1:i + 3], 16))
            out.append(decoded if decoded in _UNRESERVED else "%" + text[i + 1:i + 3].upper())
            i += 3
            continue
        if ch in allowed:
            out.append(ch)
        else:
            out.extend(f"%{b:02X}" for b in ch.encode("utf-8"))
        i += 1
    return "".join(out)


def _qt_ipv6(addr: ipaddress.IPv6Address) -> str:
    """IPv6 text as Qt writes it (qipaddress.cpp ``toString``): RFC 5952 compression, except
    that ``::ffff:a.b.c.d`` and ``::a.b.c.d`` (unless a.b.c are all 0) end in dotted IPv4."""
    packed = addr.packed
    if packed[:10] == bytes(10) and (packed[10:12] == b"\xff\xff"
                                      or (packed[10:12] == b"\0\0" and packed[12:15] != bytes(3))):
        prefix = "::ffff:" if packed[10] else "::"
        return prefix + str(ipaddress.IPv4Address(packed[12:]))
    return addr.compressed


def _qt_stable_href(href: str, addr: ipaddress.IPv4Address | ipaddress.IPv6Address | None) -> str:
    """The ada ``href`` of an http(s) URL rewritten as QUrl (StrictMode) parses and writes it
    back unchanged (see the comment above), with ``addr`` the host when it is an IP literal."""
    scheme, rest = href.split("://", 1)
    slash = rest.find("/")  # ada always gives a special URL a path; "/", "?", "#" are escaped before it
    authority, tail = (rest, "") if slash < 0 else (rest[:slash], rest[slash:])
    userinfo, at, hostport = authority.rpartition("@")
    if at:
        user, colon, password = userinfo.partition(":")
        userinfo = _rfc3986_component(user, "user") + (
            ":" + _rfc3986_component(password, "password") if colon else "") + "@"
    if addr is not None and addr.version == 6:
        host_end = hostport.index("]") + 1
        hostport = "[" + _qt_ipv6(addr) + "]" + hostport[host_end:]
    tail, hash_sign, fragment = tail.partition("#")
    path, question, query = tail.partition("?")
    return "".join((scheme, "://", userinfo, hostport, _rfc3986_component(path, "path"),
                    question, _rfc3986_component(query, "query"),
                    hash_sign, _rfc3986_component(fragment, "fragment")))


def _idn_labels(labels: list[str], reasons: list[str]) -> tuple[list[str], list[str]] | None:
    """Chromium's ``IDNToUnicodeWithAdjustmentsImpl`` on the ASCII labels of a host.

    Returns ``(decoded, shown)``: every label decoded, and the labels to display (a safe
    ``xn--`` label in Unicode, an unsafe one as is; all as is when the host is confusable with
    a top domain), adding the reasons for each label left in Punycode.  None when an ``xn--``
    label is not valid IDNA (refuse).  ICU is loaded only when a label starts with ``xn--``.
    """
    if not any(label.startswith("xn--") for label in labels):
        return labels, labels
    policy = _policy()
    decoded: list[str] = []
    for label in labels:
        if label.startswith("xn--"):
            # Valid Punycode never ends with "-" and "xn--" alone encodes nothing.
            ulabel = None if label.endswith("-") else policy.label_to_unicode(label)
            if ulabel is None:
                return None
            decoded.append(ulabel)
        else:
            decoded.append(label)
    tld, tld_unicode = labels[-1], decoded[-1]
    shown = list(labels)
    for i, label in enumerate(labels):
        if label.startswith("xn--"):
            problem = policy.label_problem(decoded[i], tld, tld_unicode)
            if problem:
                reasons += ["idn_shown_as_punycode", problem]
            else:
                shown[i] = decoded[i]
    if policy.similar_top_domain(".".join(shown)) is not None:
        reasons += ["idn_shown_as_punycode", "idn_confusable_top_domain"]
        shown = list(labels)
    return decoded, shown


#: A host label QUrl accepts and DNS can carry (RFC 1123 2.1 letters, digits, hyphen, plus the
#: underscore that both allow): 1-63 characters, no hyphen at either end.  ada (WHATWG) also
#: accepts empty labels and characters such as "*", "~", "{" that Qt rejects.
_HOST_LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\Z")


def _host_reasons(raw_host: str, ascii_host: str, reasons: list[str],
                  hosts: dict[str, str | None]) -> bool | str:
    """Add domain-name reasons and display fields; return is-loopback, or the refuse reason
    (``"invalid_host"``, ``"invalid_idna"``)."""
    trailing = ascii_host.endswith(".")
    name = ascii_host[:-1] if trailing else ascii_host
    labels = name.split(".")
    if trailing:
        reasons.append("trailing_dot")
    if len(name) > 253:
        reasons.append("host_too_long")
    loopback = name == "localhost" or name.endswith(".localhost")
    local = loopback or "." not in name or name.endswith((".local", ".internal", ".home.arpa"))
    if local:
        reasons.append("local_target")

    idn = _idn_labels(labels, reasons)
    if idn is None:
        return "invalid_idna"
    if not all(_HOST_LABEL.match(label) for label in labels):
        return "invalid_host"  # an empty label ("a..com", "example.com.."), "a-", "a*b", 64+ chars
    decoded, shown = idn
    unicode_name = ".".join(decoded)
    raw_form = unicodedata.normalize("NFC", raw_host.lower()).rstrip(".")
    if raw_form not in (name, unicode_name):
        reasons.append("host_normalized")

    registrable = None
    if not local:
        suffix = _psl().privatesuffix(name)
        if suffix:
            registrable = ".".join(shown[-(suffix.count(".") + 1):])
        if _embeds_top_domain(labels, suffix):
            reasons.append("subdomain_embeds_domain")
    hosts.update(display_host=".".join(shown) + ("." if trailing else ""),
                 registrable_domain=registrable,
                 unicode_host=unicode_name + ("." if trailing else ""))
    return loopback


@lru_cache(maxsize=1)
def _icann_psl() -> PublicSuffixList:
    return PublicSuffixList(only_icann=True)


def _embeds_top_domain(labels: list[str], registrable: str | None) -> bool:
    """Whether a listed well-known domain appears in the host followed by more labels, outside
    of its owner's reach: a look-alike (``subdomain_embeds_domain``).

    ``labels`` are the ASCII labels of the host (no trailing dot), ``registrable`` its
    registrable domain (PSL, private section included) or None.  An occurrence of a listed
    domain ``D`` at labels ``[i, i + k)`` with labels after it is a look-alike when it starts
    left of the ICANN registrable domain: in the subdomain part (``google.com.evil.net``) or
    across the registrable-domain boundary (``google.com.click``, ``facebook.com.مصر``,
    ``google.com.de`` whose ``com.de`` is a privately run suffix).  Starting exactly at the
    ICANN registrable domain it is the brand under a country's suffix (``google.com.au``,
    ``amazon.co.uk``): not a look-alike.  ``D`` equal to the host's own registrable domain
    (``google.com.google.com``) is not one either.  Notes section 2.2 (target embedding).
    """
    icann = _icann_psl().privatesuffix(".".join(labels))
    icann_start = len(labels) - (icann.count(".") + 1) if icann else 0
    for i in range(icann_start):
        for k in range(2, _LABELS_TO_CHECK + 1):
            if i + k >= len(labels):
                break
            domain = ".".join(labels[i:i + k])
            if domain in _TOP_DOMAINS and domain != registrable:
                return True
    return False


def visible_url(url: str) -> str:
    """Return ``url`` with control, invisible, whitespace and bidi-control characters escaped.

    Each such character (General_Category Cc, Cf, Cs, Zs, Zl, Zp or Default_Ignorable_Code_Point,
    per ICU) becomes ``\\uXXXX`` (4 lowercase hex digits) or, outside the BMP,
    ``\\UXXXXXXXX``; all other characters are unchanged.  Supports MCP 2025-11-25
    client/elicitation "Safe URL Handling" (show the full URL before consent).  Non-``str``
    input is shown as its ``repr``.  Never raises: should ICU be unavailable, every non-ASCII
    character is escaped.
    """
    if not isinstance(url, str):
        url = _safe_repr(url)
    try:
        escape = {c for c in url if _is_forbidden(c)}
    except Exception:  # noqa: BLE001 - ICU missing or broken: escape everything unusual
        escape = {c for c in url if not c.isascii() or c <= " " or c == "\x7f"}
    out = []
    for ch in url:
        if ch in escape:
            cp = ord(ch)
            out.append(f"\\u{cp:04x}" if cp <= 0xFFFF else f"\\U{cp:08x}")
        else:
            out.append(ch)
    return "".join(out)
