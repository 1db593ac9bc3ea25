"""What the host of a URL says about its target (pure, no Qt): IP literals (local or not, with
IPv4 embedded in IPv6), and for a domain name its reasons, its display form (through the
Chromium IDN policy of :mod:`.idn`) and its registrable domain.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata

from .data import TOP_DOMAINS, icann_psl, psl
from .embedding import brand_names, embedded_imitation, known_sites
from .idn import LABELS_TO_CHECK, idn_labels, shared_policy

__all__ = [
    "ascii_skeleton",
    "embedded_ipv4",
    "embeds_top_domain",
    "host_reasons",
    "imitated_by_spelling",
    "imitated_by_typo",
    "is_local_ip",
]

#: IPv6 prefixes that carry an IPv4 address in their last 32 bits (RFC 6052 NAT64 well-known
#: prefix; RFC 4291 2.5.5.1 IPv4-compatible) - besides IPv4-mapped and 6to4, which
#: ``ipaddress`` decodes itself.
_NAT64_WKP = ipaddress.IPv6Network("64:ff9b::/96")
_IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")


def embedded_ipv4(addr: ipaddress.IPv4Address | ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
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


def is_local_ip(addr: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether an IP literal targets this computer or a private, link-local, reserved or
    multicast network (``local_target`` in docs/url-safety.md).  An IPv6 address that embeds an
    IPv4 address (:func:`embedded_ipv4`) is judged by that IPv4 address alone."""
    judged = embedded_ipv4(addr) or addr
    return (
        judged.is_private
        or judged.is_loopback
        or judged.is_link_local
        or judged.is_unspecified
        or judged.is_reserved
        or judged.is_multicast
    )


#: A host label QUrl accepts and DNS can carry (RFC 1123 2.1 letters, digits, hyphen, plus the
#: underscore that both allow): 1-63 characters, no hyphen at either end.  ada (WHATWG) also
#: accepts empty labels and characters such as "*", "~", "{" that Qt rejects.
_HOST_LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\Z")


def host_reasons(raw_host: str, ascii_host: str, reasons: list[str], hosts: dict[str, str | None]) -> bool | str:
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

    idn = idn_labels(labels, reasons)
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
        suffix = psl().privatesuffix(name)
        if suffix:
            registrable = ".".join(shown[-(suffix.count(".") + 1) :])
        found = _imitation(labels, decoded, suffix)
        if found is not None:
            reasons.append(found[0])
            hosts["imitated_domain"] = found[1]
    hosts.update(
        display_host=".".join(shown) + ("." if trailing else ""),
        registrable_domain=registrable,
        unicode_host=unicode_name + ("." if trailing else ""),
    )
    return loopback


def _imitation(labels: list[str], decoded: list[str], registrable: str | None) -> tuple[str, str] | None:
    """``(reason id, imitated well-known domain)`` for a host that imitates one, else None:
    ``subdomain_embeds_domain``, ``lookalike_top_domain`` (its registrable domain spelled like
    or a typo of a listed one), then the embeddings of :func:`.embedding.embedded_imitation`.
    ``labels``: ASCII labels, ``decoded``: the same labels in Unicode, ``registrable``: the
    ASCII registrable domain (private section included) or None."""
    embedded = embeds_top_domain(labels, registrable)
    if embedded is not None:
        return "subdomain_embeds_domain", embedded
    if registrable and registrable.isascii():
        imitated = imitated_by_spelling(registrable) or imitated_by_typo(registrable)
        if imitated is not None:  # the site itself: goog1e.com, paypai.com, githuh.com
            return "lookalike_top_domain", imitated
    return embedded_imitation(_folded(labels, decoded), registrable, imitated_by_spelling)


def _folded(labels: list[str], decoded: list[str]) -> list[str]:
    """``labels`` with each internationalized label left of the public suffix replaced by its
    ASCII skeleton, if it has one (``xn--pypal-4ve`` for ``pаypal`` -> ``paypal``)."""
    suffix = icann_psl().publicsuffix(".".join(labels)) or ""
    inner = len(labels) - (suffix.count(".") + 1 if suffix else 0)
    folded = list(labels)
    for i in range(inner):
        if labels[i].startswith("xn--") and not decoded[i].isascii():
            skeletons = sorted(ascii_skeleton(s) for s in shared_policy().skeletons(decoded[i]) if s.isascii())
            named = [s for s in skeletons if any(word in brand_names() for word in s.split("-"))]
            if named or skeletons:  # аррӏе has the skeletons appie and apple: apple is a brand
                folded[i] = (named or skeletons)[0]
    return folded


#: UTS 39 confusables among the characters of an ASCII host name (confusables.txt: ``0`` -> O,
#: ``1`` -> l, ``rn`` -> m, ``vv`` -> w, ``cl`` -> d), applied to both sides before comparing.
_ASCII_CONFUSABLES = (("rn", "m"), ("vv", "w"), ("cl", "d"))
_ASCII_DIGITS = str.maketrans({"0": "o", "1": "l"})


def ascii_skeleton(domain: str) -> str:
    """The UTS 39 skeleton of an ASCII domain, restricted to what a host name can hold:
    ``goog1e.com`` and ``google.com`` share ``google.com``, ``rnicrosoft.com`` and
    ``microsoft.com`` share ``microsoft.com``."""
    skeleton = domain.lower().translate(_ASCII_DIGITS)
    for many, one in _ASCII_CONFUSABLES:
        skeleton = skeleton.replace(many, one)
    return skeleton


#: A well-known name shorter than this (``td``, ``amd``) is not imitated by a skeleton match:
#: short real names collide with it too easily (``tcl`` reads as ``td``, ``arnd`` as ``amd``).
_MIN_IMITATED_NAME = 5

_TOP_DOMAIN_SKELETONS: tuple[tuple[str, str], ...] | None = None


def _top_domain_skeletons() -> tuple[tuple[str, str], ...]:
    """(listed domain, its skeleton) for the listed domains whose names have at least
    :data:`_MIN_IMITATED_NAME` characters, sorted."""
    global _TOP_DOMAIN_SKELETONS
    if _TOP_DOMAIN_SKELETONS is None:
        _TOP_DOMAIN_SKELETONS = tuple(
            (d, ascii_skeleton(d)) for d in sorted(TOP_DOMAINS) if len(d.split(".", 1)[0]) >= _MIN_IMITATED_NAME
        )
    return _TOP_DOMAIN_SKELETONS


_TOP_SKELETONS: tuple[dict[str, str], dict[str, str], frozenset[str]] | None = None


def _top_skeletons() -> tuple[dict[str, str], dict[str, str], frozenset[str]]:
    """(skeleton of a listed domain -> that domain, skeleton of a listed name -> a listed
    domain with that name, ``.com`` first; all listed names), names of at least
    :data:`_MIN_IMITATED_NAME` characters only in the two maps."""
    global _TOP_SKELETONS
    if _TOP_SKELETONS is None:
        pairs = sorted(_top_domain_skeletons(), key=lambda pair: (not pair[0].endswith(".com"), pair[0]))
        by_skeleton: dict[str, str] = {}
        by_name: dict[str, str] = {}
        for domain, skeleton in pairs:
            by_skeleton.setdefault(skeleton, domain)
            by_name.setdefault(ascii_skeleton(domain.split(".", 1)[0]), domain)
        _TOP_SKELETONS = (by_skeleton, by_name, frozenset(d.split(".", 1)[0] for d in TOP_DOMAINS))
    return _TOP_SKELETONS


def imitated_by_spelling(domain: str) -> str | None:
    """The listed well-known domain the ASCII ``domain`` (not itself listed) is spelled like,
    or None: the same skeleton (``goog1e.com``, ``paypa1.co.uk`` for ``paypal.co.uk``), or a
    name with the skeleton of a listed name of at least :data:`_MIN_IMITATED_NAME` characters
    under any suffix (``rnicrosoft.co.uk``, ``app1e.de``)."""
    by_skeleton, by_name, names = _top_skeletons()
    if domain in TOP_DOMAINS:
        return None
    match = by_skeleton.get(ascii_skeleton(domain))
    if match is not None:
        return match
    name = domain.split(".", 1)[0]
    return None if name in names else by_name.get(ascii_skeleton(name))


#: Letters a reader takes for each other in a host name (beyond what :func:`ascii_skeleton`
#: folds): one replacing the other is a typo worth a warning, any other replacement is not.
_LOOK_ALIKE_LETTERS = frozenset({frozenset("il"), frozenset("gq"), frozenset("uv"), frozenset("ij")})


def _qwerty_neighbours() -> frozenset[frozenset[str]]:
    """Pairs of letters next to each other on a QWERTY keyboard, in a row or diagonally
    between rows (``q``-``w``, ``q``-``a``, ``w``-``a``, ``b``-``h``, ``n``-``m``)."""
    rows = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
    pairs = set()
    for r, row in enumerate(rows):
        for c, key in enumerate(row):
            if c + 1 < len(row):
                pairs.add(frozenset((key, row[c + 1])))
            if r + 1 < len(rows):  # the row below is shifted half a key right
                below = rows[r + 1]
                pairs.update(frozenset((key, below[j])) for j in (c - 1, c) if 0 <= j < len(below))
    return frozenset(pairs)


#: Keys a finger slips to: one replacing the other anywhere but the first letter is a typo
#: (``githuh``, ``paupal``, ``amazom``); the first letter makes another word (``hoogle``).
_KEYBOARD_NEIGHBOURS = _qwerty_neighbours()

#: Suffixes one slip away from ``com`` that typo-squatters register a well-known name under
#: (``paypal.cm``, ``amazon.om``, ``google.con``).
_COM_TYPOS = frozenset({"cm", "om", "con", "cmo", "ocm", "co.com"})

#: Real sites one typo-like edit from a listed one (they are not imitations).
_REAL_NEIGHBOURS = frozenset({"loews.com", "revolt.com"})


def _typo_of(name: str, top: str) -> bool:
    """Whether ``name`` is ``top`` (skeletons, or both as typed) with one slip a reader or a
    finger makes: a look-alike letter for another (``paypai``, ``lnstagram``), the key next to
    it on a QWERTY keyboard anywhere but the first letter (``githuh``, ``paupal``, ``amazom``),
    a letter doubled or a double undone (``gooogle``, ``twiter``), a letter or a hyphen missing
    or added inside the name (``yotube``, ``pay-pal``), two neighbours swapped (``amazno``).
    Any other letter replacing the first or the last, a different first key, or a letter added
    or left out at either end makes another word (``stripes``, ``forge``, ``hoogle``,
    ``window``), not a typo."""
    if name == top:
        return False
    if len(name) == len(top):
        diff = [i for i, (x, y) in enumerate(zip(name, top, strict=True)) if x != y]
        if len(diff) == 1:
            pair = frozenset((name[diff[0]], top[diff[0]]))
            return pair in _LOOK_ALIKE_LETTERS or (diff[0] > 0 and pair in _KEYBOARD_NEIGHBOURS)
        return (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and name[diff[0]] == top[diff[1]]
            and name[diff[1]] == top[diff[0]]
        )
    if abs(len(name) - len(top)) != 1:
        return False
    longer, shorter = (name, top) if len(name) > len(top) else (top, name)
    i = 0
    while i < len(shorter) and shorter[i] == longer[i]:
        i += 1
    if longer[:i] + longer[i + 1 :] != shorter:
        return False
    extra = longer[i]
    doubled = (i > 0 and longer[i - 1] == extra) or (i + 1 < len(longer) and longer[i + 1] == extra)
    inside = 0 < i < len(longer) - 1
    return doubled or inside


def imitated_by_typo(domain: str) -> str | None:
    """The listed well-known domain the ASCII registrable ``domain`` (not a listed or otherwise
    well-known site) is a typo of, or None: a listed domain whose name has at least
    :data:`_MIN_IMITATED_NAME` characters, with the same suffix and a name ``domain``'s is
    :func:`_typo_of` (skeletons compared, then the names as typed: ``paypai.com``,
    ``gooogle.com``, ``linkedln.com``, ``amazno.com``, ``pay-pal.com``, ``githuh.com``,
    ``ifloud.com``), or the listed name under a suffix one slip from ``com`` (``paypal.cm``). Modelled on Chromium's edit-distance lookalike check (docs/url-safety.md),
    narrowed to the slips a reader misses, since a consent dialog has no list of the ten
    thousand sites Chromium knows to be real."""
    if domain in TOP_DOMAINS or domain in _REAL_NEIGHBOURS or domain in known_sites():
        return None
    name, _, suffix = domain.partition(".")
    if len(name) < _MIN_IMITATED_NAME - 1:
        return None
    if suffix in _COM_TYPOS and f"{name}.com" in TOP_DOMAINS:
        return f"{name}.com"
    name_skeleton, suffix_skeleton = ascii_skeleton(name), ascii_skeleton(suffix)
    for top, top_skeleton in _top_domain_skeletons():
        top_name, _, top_suffix = top_skeleton.partition(".")
        if top_suffix == suffix_skeleton and _typo_of(name_skeleton, top_name):
            return top
        if top.endswith("." + suffix) and _typo_of(name, top.partition(".")[0]):
            return top  # as typed: the skeleton of icloud (idoud) hides the slip of ifloud
    return None


def embeds_top_domain(labels: list[str], registrable: str | None) -> str | None:
    """The listed well-known domain that appears in the host followed by more labels, outside
    of its owner's reach: a look-alike (``subdomain_embeds_domain``).

    ``labels`` are the ASCII labels of the host (no trailing dot), ``registrable`` its
    registrable domain (PSL, private section included) or None.  An occurrence of a listed
    domain ``D`` at labels ``[i, i + k)`` with labels after it is a look-alike when it starts
    left of the ICANN registrable domain: in the subdomain part (``google.com.evil.net``) or
    across the registrable-domain boundary (``google.com.click``, ``facebook.com.مصر``,
    ``google.com.de`` whose ``com.de`` is a privately run suffix).  Starting exactly at the
    ICANN registrable domain it is the brand under a country's suffix (``google.com.au``,
    ``amazon.co.uk``): not a look-alike.  ``D`` equal to the host's own registrable domain
    (``google.com.google.com``) is not one either.  A domain spelled with look-alike characters
    (``goog1e.com.evil.example``, ``rnicrosoft.com.evil.example``: :func:`ascii_skeleton`) counts
    as the domain it imitates.  None when there is no such occurrence.  docs/url-safety.md
    (``subdomain_embeds_domain``).
    """
    icann = icann_psl().privatesuffix(".".join(labels))
    icann_start = len(labels) - (icann.count(".") + 1) if icann else 0
    for i in range(icann_start):
        for k in range(2, LABELS_TO_CHECK + 1):
            if i + k >= len(labels):
                break
            domain = ".".join(labels[i : i + k])
            if domain == registrable:
                continue
            if domain in TOP_DOMAINS:
                return domain
            imitated = imitated_by_spelling(domain)
            if imitated is not None:
                return imitated
    return None
