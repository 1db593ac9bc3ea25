"""Offline, lexical safety analysis of the URL in a URL-mode elicitation.

Implements the client side of MCP 2025-11-25, ``client/elicitation`` -> *Safe URL Handling*:
show the target host clearly (highlighting the registrable domain), warn on ambiguous or
suspicious URLs (e.g. Punycode), never pre-fetch anything (no DNS, no network: every check here
is purely lexical), and open only what the user consented to.  The policy, and why each reason
exists, is in ``docs/url-safety.md``: parse once with the WHATWG parser (``ada_url``), decide on
that parse, display that parse, and hand the browser the serialized ASCII ``href``.

The rooms of the package (no module here imports Qt)::

    analysis   analyze_url, UrlAnalysis: the one place that decides
      |-- reasons  REASON_TABLE: each reason's id, severity (refuse/warn) and sentence
      |-- chars    characters refused anywhere in a URL; visible_url
      |-- hosts    IP literals, domain-name reasons, registrable domain, typos
      |     |-- embedding  a well-known site's name written into another host
      |     '-- idn    Chromium's IDN display policy on ICU (loaded on first use)
      |-- href     the href written the way QUrl writes it back
      '-- data     every resources/data file and the public suffix list, loaded here only

A new reason is one row of :data:`~.reasons.REASON_TABLE` plus the check that reports it.
"""

from __future__ import annotations

from .analysis import UrlAnalysis, analyze_url
from .chars import visible_url
from .reasons import REASON_TABLE, REASONS, Reason, Severity, Verdict

__all__ = ["REASONS", "REASON_TABLE", "Reason", "Severity", "UrlAnalysis", "Verdict", "analyze_url", "visible_url"]
