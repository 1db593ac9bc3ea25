"""What :func:`elicit_tray.check` returns: the :class:`Report`, its :class:`LintWarning` items
and the warning ids (:data:`WARNING_IDS`), and :class:`InputError` for input that is not
something to check. Pure Python, no Qt (rendering imports it only when called).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..request import ElicitationRequest

__all__ = ["WARNING_IDS", "InputError", "LintWarning", "Report"]

#: Every warning id, with what it means. Ids are stable: tests and CI scripts may match them.
WARNING_IDS: dict[str, str] = {
    "legacy-enum-names": 'the legacy "enumNames" labels are used (MCP 2025-06-18); prefer titled "oneOf"',
    "enum-names-length": '"enumNames" is not as long as "enum": it is ignored and the raw values are shown',
    "oneof-without-type": 'a titled "oneOf" without "type": "string" is read as a single-select',
    "items-oneof": 'a multi-select\'s "items.oneOf" is read as "items.anyOf"',
    "local-ref": 'a local "$ref" into "$defs" is followed; the MCP schema subset has no "$ref"',
    "default-ignored": "a default that does not satisfy its own field is ignored (never shown)",
    "secret-field": "a field seems to ask for a secret, which MCP forbids in form mode; the dialog warns the user",
    "pattern-not-ecma": 'a "pattern" uses syntax outside ECMA-262 (JSON Schema\'s regex dialect)',
    "url-verdict": "the URL is shown with a warning, or cannot be opened at all",
    "nullable-anyof": 'a property is "anyOf" with a "null" branch (an Optional field): the tray refuses it',
}


class InputError(ValueError):
    """The input is not something to check (not JSON, not an object): a usage error, exit 2."""


@dataclass(frozen=True)
class LintWarning:
    """One warning: ``id`` (a key of :data:`WARNING_IDS`), ``path`` (JSON Pointer into the
    params) and ``message`` (what the tray does, and how to fix it)."""

    id: str
    path: str
    message: str

    def to_json(self) -> dict[str, str]:
        """``{"id", "path", "message"}``."""
        return {"id": self.id, "path": self.path, "message": self.message}


@dataclass(frozen=True)
class Report:
    """The result of :func:`check`.

    Attributes:
        params: the params checked (``None`` when the text could not even be framed).
        error: the JSON-RPC error object the tray would answer (``{code, message, data?}``:
            -32602 with ``data.violations``; for text input also -32700/-32600 from the framing),
            or ``None`` when it would show a dialog.
        errors: ``error["data"]["violations"]``; for a framing error one ``{"path": "",
            "message"}``; empty when accepted.
        warnings: sorted by path, then id.
        request: the parsed request the dialog is built from (``None`` when refused).
    """

    params: dict[str, Any] | None
    error: dict[str, Any] | None
    errors: tuple[dict[str, str], ...] = ()
    warnings: tuple[LintWarning, ...] = ()
    request: ElicitationRequest | None = field(default=None, repr=False, compare=False)

    @property
    def accepted(self) -> bool:
        """Whether the tray would show a dialog (no JSON-RPC error)."""
        return self.error is None

    def exit_code(self, strict: bool = False) -> int:
        """0 accepted, 1 refused (or, with ``strict``, accepted with warnings)."""
        return 1 if not self.accepted or (strict and self.warnings) else 0

    def to_json(self) -> dict[str, Any]:
        """``{"errors": [{path, message}], "warnings": [{id, path, message}]}`` (``--json``)."""
        return {"errors": [dict(e) for e in self.errors], "warnings": [w.to_json() for w in self.warnings]}

    def render_png(self, out: str | Path, **options: Any) -> Path:
        """Render the dialog the tray would show to the PNG ``out`` (imports Qt); see
        :func:`elicit_tray.checker.render.render_png` for ``options``.

        Raises:
            ValueError: the tray refuses the request (there is no dialog to render).
        """
        from .render import render_png  # imports PySide6

        if self.params is None or not self.accepted:
            raise ValueError("the tray refuses this request: there is no dialog to render")
        return render_png(self.params, out, **options)
