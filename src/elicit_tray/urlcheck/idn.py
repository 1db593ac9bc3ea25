"""Chromium's IDN display policy, ported onto ICU (pure, no Qt).

Ported label by label from ``components/url_formatter`` (``IDNToUnicodeWithAdjustmentsImpl``,
``IDNSpoofChecker`` and ``SkeletonGenerator``) onto ICU through PyICU: UTS 46 decoding, ICU's
spoof checker (UTS 39 "highly restrictive", Chromium's allowed identifier set), Chromium's extra
rules, and the confusable-skeleton match against the shipped top-domain lists
(:mod:`.data`).  ICU is loaded on first use (:func:`shared_policy`), so importing this module
stays cheap and an all-ASCII host never needs it.

Sources (chromium/chromium, BSD-3-Clause): components/url_formatter/url_formatter.cc
(IDNToUnicodeWithAdjustmentsImpl, IDNToUnicodeOneComponent), spoof_checks/idn_spoof_checker.cc
(commit 58a4b28c) and spoof_checks/skeleton_generator.cc (commit f24a8e13).
"""

from __future__ import annotations

import itertools
import sys
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .chars import UnicodeSet, frozen, set_chars
from .data import psl, skeleton_top_domains, whole_script_confusables

__all__ = ["IdnPolicy", "LABELS_TO_CHECK", "idn_labels", "shared_policy", "supplemental_hostnames"]

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
#: Labels of a host compared with the top domains (all of them have at most 4 labels).
LABELS_TO_CHECK = 4

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
_REMOVED_CHARS = (0x0338, 0x058A, 0x2010, 0x2019, 0x2027, 0x30A0, 0x02BB, 0x02BC, 0x02EC, 0x0138, 0x200C, 0x200D)
_REMOVED_CHARS_MACOS = (0x0620, 0x0F8C, 0x0F8D, 0x0F8E, 0x0F8F)  # render blank in macOS fonts
_REMOVED_BLOCKS = (
    (0x01CD, 0x01DC),  # Latin Extended-B: Pinyin
    (0x1C80, 0x1C8F),  # Cyrillic Extended-C
    (0x1E00, 0x1E9B),  # Latin Extended Additional
    (0x1F00, 0x1FFF),  # Greek Extended
    (0xA640, 0xA69F),  # Cyrillic Extended-B
    (0xA720, 0xA7FF),
)  # Latin Extended-D


@dataclass(frozen=True)
class _WholeScript:
    letters: UnicodeSet  # of the script
    lookalikes: frozenset[str]
    allowed_tlds: frozenset[str]


class IdnPolicy:
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
        self._non_ascii_latin = frozen(uset(r"[[:Latin:] - [a-zA-Z]]"))
        self._kana_exceptions = frozen(uset(r"[\u3078-\u307a\u30d8-\u30da\u30fb-\u30fe]"))
        self._combining_exceptions = frozen(uset(r"[\u0300-\u0339]"))
        self._digit_lookalikes = set_chars(uset(_DIGIT_LOOKALIKES))
        self._icelandic = frozenset("\u00fe\u00f0")
        self._dangerous = icu.RegexPattern.compile(_DANGEROUS_PATTERN)
        self._allowed_words, rows = whole_script_confusables()
        self._whole_script = [
            _WholeScript(frozen(uset(letters)), set_chars(uset(lookalikes)), tlds) for letters, lookalikes, tlds in rows
        ]

        forward = icu.UTransDirection.FORWARD
        self._drop_accents = icu.Transliterator.createFromRules("DropAcc", _DROP_ACCENTS, forward)
        self._extra_confusables = icu.Transliterator.createFromRules("ExtraConf", _EXTRA_CONFUSABLES, forward)
        self._lgc_n_ascii = frozen(uset(r"[[:Latin:][:Greek:][:Cyrillic:][0-9\u002e_\u002d][\u0300-\u0339]]"))
        self._multi_with_diacritics = frozenset(c for c in _MULTI_SKELETONS if self._remove_diacritics(c) != c)

        self._top: dict[str, set[str]] = {}
        for domain in top_domains:
            unicode_domain = self._domain_to_unicode(domain)
            if unicode_domain is None:
                continue
            for skeleton in self.skeletons(unicode_domain):
                self._top.setdefault(skeleton, set()).add(unicode_domain)

    def _allowed_set(self, checker: Any) -> UnicodeSet:  # checker: an icu.SpoofChecker
        icu = self._icu
        try:  # UTS 39 Identifier_Status=Allowed, i.e. ICU's recommended ∪ inclusion sets
            allowed = icu.UnicodeSet("[[:Identifier_Status=Allowed:]]")
        except icu.ICUError:
            allowed = icu.UnicodeSet()
            allowed.addAll(checker.getRecommendedUnicodeSet())
            allowed.addAll(checker.getInclusionUnicodeSet())
        removed = _REMOVED_CHARS + (_REMOVED_CHARS_MACOS if sys.platform == "darwin" else ())
        for cp in removed:
            allowed.remove(chr(cp))
        for lo, hi in _REMOVED_BLOCKS:
            allowed.remove(chr(lo), chr(hi))
        return frozen(allowed)

    def _domain_to_unicode(self, domain: str) -> str | None:
        labels = domain.rstrip(".").split(".")
        if domain.isascii() and psl().privatesuffix(domain) is None:
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
        if (
            level == self._single_script
            and self._kana_exceptions.containsNone(label)
            and self._combining_exceptions.containsNone(label)
        ):
            if label not in self._allowed_words and any(
                self._is_whole_script_confusable(ws, label)
                and not self._whole_script_allowed_for_tld(ws, tld, tld_unicode)
                for ws in self._whole_script
            ):
                return "idn_whole_script_confusable"
            return "idn_digit_lookalike" if self._is_digit_lookalike(label) else None
        if self._is_digit_lookalike(label):
            return "idn_digit_lookalike"
        if self._non_ascii_latin.containsSome(label) and not self._lgc_n_ascii.containsAll(label):
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
        letters = {c for c in label if ws.letters.contains(c)}
        return bool(letters) and letters <= ws.lookalikes

    @staticmethod
    def _whole_script_allowed_for_tld(ws: _WholeScript, tld: str, tld_unicode: str) -> bool:
        return bool(tld_unicode) and ws.letters.containsSome(tld_unicode) or tld in ws.allowed_tlds

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
        variants = supplemental_hostnames(no_diacritics)
        if not self._multi_with_diacritics.isdisjoint(hostname):
            variants |= supplemental_hostnames(hostname)
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
            labels = skeleton.split(".")[-LABELS_TO_CHECK:]
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


def supplemental_hostnames(hostname: str, limit: int = _MAX_SUPPLEMENTAL_HOSTNAMES) -> set[str]:
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


_POLICY: IdnPolicy | None = None
_POLICY_LOCK = threading.Lock()


def shared_policy() -> IdnPolicy:
    """The shared policy, built on first use (loads ICU and the top-domain skeletons)."""
    global _POLICY
    if _POLICY is None:
        with _POLICY_LOCK:
            if _POLICY is None:
                _POLICY = IdnPolicy(skeleton_top_domains())
    return _POLICY


def idn_labels(labels: list[str], reasons: list[str]) -> tuple[list[str], list[str]] | None:
    """Chromium's ``IDNToUnicodeWithAdjustmentsImpl`` on the ASCII labels of a host.

    Returns ``(decoded, shown)``: every label decoded, and the labels to display (a safe
    ``xn--`` label in Unicode, an unsafe one as is; all as is when the host is confusable with
    a top domain), adding the reasons for each label left in Punycode.  None when an ``xn--``
    label is not valid IDNA (refuse).  ICU is loaded only when a label starts with ``xn--``.
    """
    if not any(label.startswith("xn--") for label in labels):
        return labels, labels
    policy = shared_policy()
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
