"""The ``url-verdict`` warning: what the consent dialog does with a URL-mode request's URL.

The verdict and reasons are the tray's own (:func:`elicit_tray.urlcheck.analyze_url`, loaded on
the first URL checked); see docs/url-safety.md for why each reason exists. Pure Python.
"""

from __future__ import annotations

from typing import Any

from ..request import ElicitationRequest, UrlRequest
from .report import LintWarning

__all__ = ["url_warnings"]


def url_warnings(params: dict[str, Any], request: ElicitationRequest | None) -> list[LintWarning]:
    """``[url-verdict]`` when the tray would warn about or refuse to open ``params["url"]``,
    else ``[]``; ``request`` is what the tray built (its analysis is reused)."""
    url = params.get("url")
    if not isinstance(url, str) or not url:
        return []
    if isinstance(request, UrlRequest):
        analysis = request.url_analysis
    else:
        from ..urlcheck import analyze_url

        analysis = analyze_url(url)
    if analysis.verdict == "ok":
        return []
    from ..urlcheck import REASONS

    why = "; ".join(f"{r} ({REASONS.get(r, '').rstrip('.')})" for r in analysis.reasons)
    effect = (
        "the dialog shows a prominent warning before Open"
        if analysis.verdict == "warn"
        else "Open is disabled: the user can only decline or cancel"
    )
    return [LintWarning("url-verdict", "/url", f'verdict "{analysis.verdict}": {effect}. Reasons: {why}')]
