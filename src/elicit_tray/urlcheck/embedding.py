"""A well-known site's name written into the host of another site (pure, no Qt): Chromium's
"target embedding" (``paypal.com-secure.net``, ``www-paypal-com.evil.net``) and a brand's name
as a label or a ``-`` word of a host it does not own (``login.paypal.evil.net``,
``paypal-secure.com``).  docs/url-safety.md, "Warned".

The host is cut into words at every ``.`` and ``-`` (its public suffix left out, as Chromium's
``SearchForEmbeddings`` does); a run of words that reads as a listed well-known domain, or a
word that is a listed brand's name, is the imitation.  The host's own site is never an
imitation of itself: when its registrable domain (the public suffix list's private section
included) is a known site (:func:`known_sites`), nothing here warns (``gist.github.com``,
``apple.stackexchange.com``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from .data import TOP_DOMAINS, icann_psl, skeleton_top_domains

__all__ = ["brand_names", "embedded_imitation", "known_sites"]

#: A listed name that is also an everyday word (``office.example.com``, ``mail.yahoo.co.uk``,
#: ``outlook.example.com``): as a word of a host it names no imitation, not even with a sign-in
#: word.  Written as a full domain (``outlook.com-login.net``, ``live-com.evil.net``) it still
#: does.
EVERYDAY_WORDS = frozenset(
    """
    live office chrome windows force slack zoom notion canva asana target discover chase visa wise
    kraken line signal threads medium weather indeed orange spectrum monday stripe oracle meta
    discord telegram messenger vanguard fidelity brave opera archive blogger booking battle proton
    workday fastly audible twitch outlook azure intel claude miro uber lowes android docker python
    blockchain perplexity typeform calendly mail service europa fandom
    """.split()
)

#: Software and services that organisations run or mirror under their own domain: no
#: imitation as a bare label (``gitlab.gnome.org``, ``mozilla.mirror.example.org``), one with a
#: sign-in word (``login.github.evil.net``, ``github-login.info``).
SELF_HOSTED = frozenset(
    """
    github gitlab bitbucket wordpress minecraft pypi npmjs sharepoint okta zendesk docusign skype
    vmware mozilla openstreetmap
    """.split()
)

#: Words of a host that ask for a sign-in, a payment or a recovery: with a brand's name they
#: make a look-alike (Chromium's combosquatting keywords, narrowed to these).
SIGN_IN_WORDS = frozenset(
    """
    login logon signin sign secure security verify verification validate account accounts update
    billing recovery recover unlock confirm password wallet support helpdesk auth webscr customer
    alert restore suspended locked refund invoice payment id
    """.split()
)

#: Real sites whose registrable domain carries a listed brand's name with another word, run by
#: that brand (none of them is on the shipped lists).
REAL_BRAND_SITES = frozenset(
    """
    paypal-community.com paypal-prepaid.com amazon-adsystem.com google-analytics.com
    googletagmanager.com youtube-nocookie.com microsoft-edge.com apple-cloudkit.com
    """.split()
)

#: A listed name shorter than this (``me``, ``hp``, ``ea``) is no brand's name as a word.
MIN_BRAND_NAME = 4


@lru_cache(maxsize=1)
def known_sites() -> frozenset[str]:
    """Registrable domains of real, widely visited sites (the brand list, Chromium's top bucket
    and :data:`REAL_BRAND_SITES`): a host on one of them imitates nothing here."""
    return frozenset(skeleton_top_domains()) | REAL_BRAND_SITES


@lru_cache(maxsize=1)
def brand_names() -> dict[str, str]:
    """Name (first label) of a listed well-known domain of at least :data:`MIN_BRAND_NAME`
    characters -> that domain (``.com`` first, else the first in sorted order):
    ``{"paypal": "paypal.com", "github": "github.com", ...}``."""
    names: dict[str, str] = {}
    for domain in sorted(TOP_DOMAINS, key=lambda d: (not d.endswith(".com"), d)):
        name = domain.split(".", 1)[0]
        if len(name) >= MIN_BRAND_NAME and name.isascii():
            names.setdefault(name, domain)
    return names


def _registered(candidate: str) -> bool:
    """Whether ``candidate`` is exactly one label under a real ICANN public suffix
    (``paypal.com``, ``bbc.co.uk``, ``paypal.support``; not ``paypal.evil``)."""
    return icann_psl().privatesuffix(candidate, accept_unknown=False) == candidate


#: Suffixes a well-known domain is written into one word with (``paypalcom``, ``githubcom``).
_JOINED_SUFFIXES = ("com", "net", "org")


def _embedded_domain(inner: str, spelled: Callable[[str], str | None]) -> str | None:
    """The listed domain the words of ``inner`` (the host without its public suffix, cut at
    ``.`` and ``-``; Chromium's sweep: every start, 2 to 4 words) read as: a listed domain (one
    whose name has one or two letters only when written with dots: ``x.com-login.net``, not
    the game ``x-com``), one spelled like a listed one (``spelled(domain)``), a distinctive
    brand's name followed by a dot and a country's suffix (``paypal.de-login.net``; with a
    hyphen it is a word: ``google-is-down``, ``apple-tv-guide``), or a listed domain written as
    one word (``paypalcom.evil.net``)."""
    names = brand_names()
    parts = re.split(r"([.-])", inner)
    words, seps = parts[::2], parts[1::2]
    for start in range(len(words)):
        for end in range(min(start + 4, len(words)), start + 1, -1):  # longest first: google.co.uk
            candidate = ".".join(words[start:end])
            if not _registered(candidate):
                continue
            name, dotted = words[start], all(sep == "." for sep in seps[start : end - 1])
            if candidate in TOP_DOMAINS and (dotted or len(name) > 2):  # x.com-login, not x-com
                return candidate
            imitated = spelled(candidate)
            if imitated is not None:
                return imitated
            country = dotted and len(words[end - 1]) == 2
            if country and name in names and name not in EVERYDAY_WORDS and name not in SELF_HOSTED:
                return names[name]
    for word in words:
        for suffix in _JOINED_SUFFIXES:
            domain = f"{word[: -len(suffix)]}.{suffix}"
            if word.endswith(suffix) and len(word) > len(suffix) + 3 and domain in TOP_DOMAINS:
                return domain
    return None


def _brand_word(words: list[str], signed: bool, *, whole: bool) -> str | None:
    """The listed domain whose brand name is one of ``words``: any brand not an everyday word
    when ``signed`` (a sign-in word is in the host), else only a distinctive brand that is a
    whole label (``whole``)."""
    names = brand_names()
    for word in words:
        domain = names.get(word)
        if domain is None or word in EVERYDAY_WORDS:
            continue
        if signed or (whole and word not in SELF_HOSTED):
            return domain
    return None


def _joined_brand(name: str) -> str | None:
    """The listed domain whose distinctive brand name ``name`` joins with a sign-in word,
    without a hyphen (``paypallogin``, ``securepaypal``)."""
    for brand, domain in brand_names().items():
        if len(brand) < 5 or brand in EVERYDAY_WORDS or brand in SELF_HOSTED or brand == name:
            continue
        if name.startswith(brand) and name[len(brand) :] in SIGN_IN_WORDS:
            return domain
        if name.endswith(brand) and name[: -len(brand)] in SIGN_IN_WORDS:
            return domain
    return None


def embedded_imitation(
    labels: list[str], registrable: str | None, spelled: Callable[[str], str | None]
) -> tuple[str, str] | None:
    """``(reason id, imitated domain)`` for a host that writes a well-known site's name into
    another site's host, else None.

    ``labels``: the host's labels (no trailing dot), ASCII ones as they are and each
    internationalized one replaced by its ASCII skeleton when it has one (``pаypal`` with a
    Cyrillic ``а`` -> ``paypal``); ``registrable``: the host's ASCII registrable domain (public
    suffix list, private section included), or None.  ``spelled``: ``str -> str | None``, the
    listed domain a domain is spelled like.

    - ``target_embedding``: words (split at ``.`` and ``-``) read as a listed domain
      (``paypal.com-secure.net``, ``paypal-com.evil.net``, ``www-paypal-com.evil.net``,
      ``accounts.google.com-signin.net``, ``bbc-co-uk.evil.net``), spelled like one
      (``paypa1-com.evil.net``), a distinctive brand's name with a dot and a country's suffix
      (``paypal.de-login.net``) or a listed domain as one word (``paypalcom.evil.net``).
    - ``brand_in_subdomain``: a distinctive brand's name (not in :data:`EVERYDAY_WORDS` or
      :data:`SELF_HOSTED`) as a label left of the registrable domain
      (``login.paypal.evil.net``, ``paypal.evil.net``), or a brand's name not in
      :data:`EVERYDAY_WORDS` as a word there with a sign-in word in the host
      (``login.github.evil.net``, ``paypal-login.evil.net``).
    - ``brand_in_name``: a brand's name with a sign-in word in the registrable domain's own
      name (``paypal-secure.com``, ``secure-paypal.com``, ``paypallogin.com``).
    """
    if registrable is None or registrable in known_sites():
        return None
    own = registrable.count(".") + 1
    host = ".".join(labels)
    suffix = icann_psl().publicsuffix(host) or ""
    inner = host[: -len(suffix) - 1] if suffix and host.endswith("." + suffix) else host
    words = inner.replace("-", ".").split(".")
    embedded = _embedded_domain(inner, spelled)
    if embedded is not None:
        return "target_embedding", embedded
    signed = any(word in SIGN_IN_WORDS for word in words)
    for label in labels[: len(labels) - own]:
        domain = _brand_word(label.split("-"), signed, whole="-" not in label)
        if domain is not None:
            return "brand_in_subdomain", domain
    name = labels[len(labels) - own] if len(labels) >= own else ""
    name_words = name.split("-")
    if len(name_words) > 1 and signed:
        domain = _brand_word(name_words, True, whole=False)
        if domain is not None:
            return "brand_in_name", domain
    domain = _joined_brand(name)
    return None if domain is None else ("brand_in_name", domain)
