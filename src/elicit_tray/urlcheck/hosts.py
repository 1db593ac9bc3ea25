"""What the host of a URL says about its target (pure, no Qt): IP literals (local or not, with
IPv4 embedded in IPv6), and for a domain name its reasons, its display form (through the
Chromium IDN policy of :mod:`.idn`) and its registrable domain.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata

from .data import TOP_DOMAINS, icann_psl, psl
from .idn import LABELS_TO_CHECK, idn_labels

__all__ = ["ascii_skeleton", "embedded_ipv4", "embeds_top_domain", "host_reasons", "imitates_top_domain", "is_local_ip"]

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
    multicast network (notes section 8 ``local_target``).  An IPv6 address that embeds an
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
        if embeds_top_domain(labels, suffix):
            reasons.append("subdomain_embeds_domain")
        elif suffix and suffix.isascii() and (imitates_top_domain(suffix) or resembles_top_domain(suffix)):
            reasons.append("lookalike_top_domain")  # the site itself: goog1e.com, paypai.com
    hosts.update(
        display_host=".".join(shown) + ("." if trailing else ""),
        registrable_domain=registrable,
        unicode_host=unicode_name + ("." if trailing else ""),
    )
    return loopback


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


_TOP_SKELETONS: tuple[frozenset[str], frozenset[str], frozenset[str]] | None = None


def _top_skeletons() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(skeletons of the listed domains, skeletons of their names, their names), names of at
    least :data:`_MIN_IMITATED_NAME` characters only."""
    global _TOP_SKELETONS
    if _TOP_SKELETONS is None:
        pairs = _top_domain_skeletons()
        _TOP_SKELETONS = (
            frozenset(skeleton for _, skeleton in pairs),
            frozenset(ascii_skeleton(d.split(".", 1)[0]) for d, _ in pairs),
            frozenset(d.split(".", 1)[0] for d in TOP_DOMAINS),
        )
    return _TOP_SKELETONS


def imitates_top_domain(domain: str) -> bool:
    """Whether the ASCII ``domain`` is not a listed well-known domain but is spelled like one
    whose name has at least :data:`_MIN_IMITATED_NAME` characters: the same skeleton
    (``goog1e.com``, ``paypa1.co.uk`` for ``paypal.co.uk``), or a name with the skeleton of a
    well-known name under any suffix (``rnicrosoft.co.uk``, ``app1e.de``)."""
    domains, name_skeletons, names = _top_skeletons()
    if domain in TOP_DOMAINS:
        return False
    if ascii_skeleton(domain) in domains:
        return True
    name = domain.split(".", 1)[0]
    return name not in names and ascii_skeleton(name) in name_skeletons


def _one_edit_apart(a: str, b: str) -> bool:
    """Whether ``b`` is ``a`` with one character inserted, deleted or replaced (Levenshtein
    distance exactly 1, in one linear pass)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        return a[i + 1 :] == b[i + 1 :]
    return a[i:] == b[i + 1 :]


def _one_swap_apart(a: str, b: str) -> bool:
    """Whether ``b`` is ``a`` with two neighbouring characters swapped (``gogole``)."""
    if len(a) != len(b) or a == b:
        return False
    diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]


def _likely_other_word(domain: str, top: str) -> bool:
    """The one-edit matches that are usually another name, not a typo of ``top`` (the false
    positives Chromium's lookalike check leaves out, ``IsLikelyEditDistanceFalsePositive``):
    the same name under another suffix (``google.com.tw``), names that differ only in trailing
    digits (``site45``/``site35``), a difference in the first character only (``hank``/``tank``,
    ``oodle``/``poodle``), or an inserted hyphen."""
    name, top_name = domain.split(".", 1)[0], top.split(".", 1)[0]
    if name == top_name or name.rstrip("0123456789") == top_name.rstrip("0123456789"):
        return True
    if domain[1:] == top[1:] or domain == top[1:] or domain[1:] == top:
        return True
    if len(domain) != len(top):
        longer, shorter = (domain, top) if len(domain) > len(top) else (top, domain)
        i = 0
        while i < len(shorter) and shorter[i] == longer[i]:
            i += 1
        return longer[i] == "-"
    return False


def resembles_top_domain(domain: str) -> bool:
    """Whether the ASCII registrable ``domain`` (not a listed well-known domain) is a typo of
    one: spelled, as a :func:`ascii_skeleton`, one character inserted, left out or replaced, or
    two neighbouring characters swapped, from a listed domain whose name has at least
    :data:`_MIN_IMITATED_NAME` characters, its own name too (``paypai.com``, ``gooogle.com``,
    ``linkedln.com``, ``mlcrosoft.com``, ``amazno.com``). The matches
    :func:`_likely_other_word` describes are not typos. Chromium's edit-distance lookalike
    heuristic against its top domains, notes section 2.2."""
    if domain in TOP_DOMAINS or len(domain.split(".", 1)[0]) < _MIN_IMITATED_NAME:
        return False
    skeleton = ascii_skeleton(domain)
    for top, top_skeleton in _top_domain_skeletons():
        if (_one_edit_apart(skeleton, top_skeleton) or _one_swap_apart(skeleton, top_skeleton)) and not (
            _likely_other_word(domain, top)
        ):
            return True
    return False


def embeds_top_domain(labels: list[str], registrable: str | None) -> bool:
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
    (``google.com.google.com``) is not one either.  A domain spelled with look-alike characters
    (``goog1e.com.evil.example``, ``rnicrosoft.com.evil.example``: :func:`ascii_skeleton`) counts
    as the domain it imitates.  Notes section 2.2 (target embedding).
    """
    icann = icann_psl().privatesuffix(".".join(labels))
    icann_start = len(labels) - (icann.count(".") + 1) if icann else 0
    for i in range(icann_start):
        for k in range(2, LABELS_TO_CHECK + 1):
            if i + k >= len(labels):
                break
            domain = ".".join(labels[i : i + k])
            if domain != registrable and (domain in TOP_DOMAINS or imitates_top_domain(domain)):
                return True
    return False
