"""Which elicitation modes the wrap proxy owns, and the capability it declares for the host
(no I/O; ``docs/wrap-design.md`` §2.1, §2.7).

The proxy declares, on the host's behalf, only the modes it can answer itself through the tray
app: those the host lacks (policy ``complement``), both (``always``) or none (``off``).
"""

from __future__ import annotations

from typing import Any

from ..request import MODES

__all__ = [
    "CLIENT_CAPS_KEY",
    "FIRST_ELICITATION_VERSION",
    "POLICIES",
    "URL_VERSION",
    "declare",
    "owned_modes",
]

#: ``--policy`` values (§2.7).
POLICIES = ("complement", "always", "off")
#: 2026-07-28 request ``_meta`` key holding the client's capabilities.
CLIENT_CAPS_KEY = "io.modelcontextprotocol/clientCapabilities"
#: The first protocol version with elicitation (form only, spelled ``{}``); older ones get none.
FIRST_ELICITATION_VERSION = "2025-06-18"
#: The first protocol version with URL mode.
URL_VERSION = "2025-11-25"
_BOTH = frozenset(MODES)


def owned_modes(declared: Any, policy: str) -> frozenset[str] | None:
    """The elicitation modes the proxy answers given the host's declared ``elicitation``
    capability value ``declared`` (§2.1): absent (``None``) -> form and url; ``{}`` or
    ``{form}`` -> url; ``{url}`` -> form; both -> none. ``always`` owns both, ``off`` none.
    Returns None when ``declared`` is not an object (not understood: change nothing)."""
    if policy == "off":
        return frozenset()
    if declared is not None and not isinstance(declared, dict):
        return None
    if policy == "always":
        return _BOTH
    if declared is None:
        return _BOTH
    has_form = "form" in declared or not declared  # a bare {} means form only (2025-11-25)
    has_url = "url" in declared
    return frozenset(m for m, has in (("form", has_form), ("url", has_url)) if not has)


def declare(declared: dict[str, Any] | None, owned: frozenset[str], *, bare_form: bool = False) -> dict[str, Any]:
    """The new ``elicitation`` value: the host's, plus each owned mode as ``{}``. A bare ``{}``
    (form only) is spelled out as ``{"form": {}}`` first, so that adding ``url`` keeps form
    (§2.1). ``bare_form``: write form as a bare ``{}`` (2025-06-18 knows no modes)."""
    if bare_form:
        return dict(declared or {})
    new = dict(declared or {})
    if declared is not None and not declared:
        new["form"] = {}
    for mode in ("form", "url"):
        if mode in owned:
            new.setdefault(mode, {})
    return new
