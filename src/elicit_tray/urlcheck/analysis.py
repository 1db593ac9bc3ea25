"""URL -> verdict, reasons, display host, registrable domain and href (pure, no Qt).

:func:`analyze_url` parses once with the WHATWG parser (``ada_url``), decides on that parse
(reasons from :mod:`.chars`, :mod:`.hosts` and :mod:`.idn`; their severities and sentences from
:mod:`.reasons`), and returns the display form and the href (:mod:`.href`) of that same parse.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from typing import Any

import ada_url

from .chars import forbidden_chars, is_bidi_control, safe_repr
from .hosts import host_reasons, is_local_ip
from .href import qt_stable_href
from .reasons import Verdict, in_report_order, verdict

__all__ = ["UrlAnalysis", "analyze_url"]


@dataclass(frozen=True)
class UrlAnalysis:
    """Outcome of :func:`analyze_url` (MCP 2025-11-25 client/elicitation, Safe URL Handling).

    ``verdict`` is ``"ok"`` (open after consent), ``"warn"`` (open only after a prominent
    warning) or ``"refuse"`` (never openable), the most serious severity of its reasons
    (:mod:`.reasons`).  ``reasons`` are ids of :data:`~.reasons.REASONS` in a deterministic order
    (the table's).  ``href`` is what the browser is handed (see :func:`analyze_url`).  When
    refused, ``display_host``, ``registrable_domain``, ``href``, ``ascii_host`` and
    ``unicode_host`` are ``None``.  ``url`` is the input as received
    (non-``str`` input is kept as its ``repr``).  Nothing here raises.
    """

    url: str
    verdict: Verdict
    reasons: tuple[str, ...]
    display_host: str | None
    registrable_domain: str | None
    href: str | None
    scheme: str | None
    ascii_host: str | None
    unicode_host: str | None
    #: With a reason whose row ``names_site`` (``lookalike_top_domain``, the embeddings): the
    #: well-known domain imitated (``paypal.com`` for ``paypai.com`` or
    #: ``paypal.com-secure.net``), else None. Not part of :meth:`to_json`.
    imitated_domain: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Return ``{"verdict", "reasons" (list), "display_host", "registrable_domain"}``."""
        return {
            "verdict": self.verdict,
            "reasons": list(self.reasons),
            "display_host": self.display_host,
            "registrable_domain": self.registrable_domain,
        }

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
    """The analysis of ``url`` with ``reasons``; the host fields are dropped when it is refused."""
    ordered = in_report_order(reasons)
    outcome = verdict(ordered)
    if outcome == "refuse":
        hosts = {}
    return UrlAnalysis(
        url=url,
        verdict=outcome,
        reasons=ordered,
        scheme=scheme,
        display_host=hosts.get("display_host"),
        registrable_domain=hosts.get("registrable_domain"),
        href=hosts.get("href"),
        ascii_host=hosts.get("ascii_host"),
        unicode_host=hosts.get("unicode_host"),
        imitated_domain=hosts.get("imitated_domain"),
    )


_SCHEME_RE = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")


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
        return _result(safe_repr(url), ["unparseable"], None)
    try:
        return _analyze(url)
    except Exception:  # analysis must never raise; fail closed
        return _result(url, ["unparseable"], None)


def _analyze(url: str) -> UrlAnalysis:
    m = _SCHEME_RE.match(url)
    scheme = m.group(1).lower() if m else None
    bad = forbidden_chars(url)
    if bad:
        bidi = ["bidi_control"] if any(is_bidi_control(c) for c in bad) else []
        return _result(url, ["forbidden_character", *bidi], scheme)
    if "\\" in url:
        return _result(url, ["ambiguous_authority"], scheme)
    if m is None:
        return _result(url, ["unparseable"], None)
    if scheme not in ("http", "https"):
        return _result(url, ["scheme_not_allowed"], scheme)
    rest = url[m.end() :]
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
        if is_local_ip(addr):
            reasons.append("local_target")
        if addr.version == 4 and raw_host.lower() != ascii_host:
            reasons.append("ip_noncanonical")
        hosts.update(display_host=ascii_host, unicode_host=ascii_host)
    else:
        found = host_reasons(raw_host, ascii_host, reasons, hosts)
        if isinstance(found, str):
            return _result(url, [found], scheme)
        loopback = found
    if scheme == "http" and not loopback:
        reasons.append("insecure_scheme")
    hosts["href"] = qt_stable_href(href, addr if is_ip else None)
    return _result(url, reasons, scheme, **hosts)
