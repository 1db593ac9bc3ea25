"""What the tray would do with an elicitation, for MCP server authors: the checker behind
``elicit_tray.check(params) -> Report`` and ``elicit-tray check``.

:func:`check` reads the params of an ``elicitation/create`` (MCP 2025-11-25
``ElicitRequestParams``; under 2026-07-28 one entry of ``inputRequests``) exactly as the tray app
does, without a display, a socket or a tray app, and says:

- ``errors``: exactly the ``data.violations`` (``[{path, message}]``, JSON Pointers into the
  params) of the -32602 the tray would answer; they come from
  :func:`elicit_tray.ipc.protocol.vet_create`, the function the dispatcher answers with, so the
  two cannot drift. Empty when the tray would show a dialog.
- ``warnings``: what the tray accepts but a server author should know, each with a stable
  ``id`` (:data:`WARNING_IDS`), a ``path`` and a sentence saying what happens and how to fix it.

The rooms of the package (only ``render`` imports Qt, and only when called)::

    __init__  check(): vet as the dispatcher does, then collect the warnings
      |-- report    Report, LintWarning, WARNING_IDS, InputError
      |-- framing   read_input, read_params: bounded input, read with the tray's own decoder
      |-- fields    the warnings about a form's fields (one rule per warning id)
      |     '-- patterns  pattern-not-ecma: other regex dialects in a "pattern"
      |-- url       url-verdict: the consent dialog's verdict on the URL
      |-- render    Report.render_png / --png: the tray's own dialog, offscreen (PySide6)
      |-- command   the ``elicit-tray check`` subcommand
      '-- demo      the demo server's own elicitations as params, for CI

``elicit_tray.check`` is a plain function of the top-level package that calls :func:`check`
(this package is named differently so that importing it never replaces that function).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from ..ipc.protocol import vet_create
from ..limits import limit_violations
from ..request import ElicitationRequest, Peer
from .fields import form_warnings
from .framing import SCHEMA_MESSAGE, read_params, read_value
from .report import WARNING_IDS, InputError, LintWarning, Report
from .url import url_warnings

__all__ = ["check", "Report", "LintWarning", "WARNING_IDS", "SCHEMA_MESSAGE", "InputError", "read_params"]


def check(params: Mapping[str, Any] | str | bytes, *, schema: bool = False) -> Report:
    """What the tray would answer to ``elicitation/create`` with ``params``, and why.

    Args:
        params: the params as a ``dict`` (e.g. what an MCP SDK sends: checked as the line the
            requester side would write for it, :func:`read_value`), or their JSON text (read
            with the tray's own decoder: :func:`read_params`).
        schema: ``params`` is a bare ``requestedSchema`` (checked under :data:`SCHEMA_MESSAGE`).

    Returns:
        A :class:`Report`; ``report.accepted`` says whether a dialog would be shown,
        ``report.errors`` are the tray's -32602 violations, ``report.warnings`` the rest.

    Raises:
        InputError: text that is one JSON value but not an object (usage error). What the
            tray's framing refuses (too long, too deep, ``NaN``, a duplicate key...) is no
            error: the report says so (``params`` is ``None``, ``error`` the tray's
            -32700/-32600).
        TypeError: ``params`` is neither a mapping nor text, or holds a value JSON cannot carry.

    Spec: MCP 2025-11-25 "Elicitation" (form and URL mode, requested schema); README "IPC
    contract" for the -32602 answer and the limits. Loads no Qt module.
    """
    if isinstance(params, (str, bytes, bytearray)):
        read, framing = read_params(params, schema=schema)
    elif isinstance(params, Mapping):
        read, framing = read_value(params, schema=schema)
    else:
        raise TypeError(f"check() takes the params as a dict or JSON text, not {type(params).__name__}")
    if read is None:
        assert framing is not None
        return Report(None, framing, ({"path": "", "message": framing["message"]},))
    return _check(read)


class _Quiet(logging.Filter):
    """Drops the parser's "ignoring ..." log lines while checking: the report says it."""

    def filter(self, record: logging.LogRecord) -> bool:
        return False


def _check(params: dict[str, Any]) -> Report:
    parse_log, quiet = logging.getLogger("elicit_tray.schema.parse"), _Quiet()
    parse_log.addFilter(quiet)
    try:
        return _checked(params)
    finally:
        parse_log.removeFilter(quiet)


def _checked(params: dict[str, Any]) -> Report:
    request, error = vet_create(params, Peer())
    errors = tuple(error["data"]["violations"]) if error is not None else ()
    warnings = [] if limit_violations(params) else _warnings(params, request)
    warnings.sort(key=lambda w: (w.path, w.id))
    return Report(params, error, errors, tuple(warnings), request)


def _warnings(params: dict[str, Any], request: ElicitationRequest | None) -> list[LintWarning]:
    if params.get("mode", "form") == "url":
        return url_warnings(params, request)
    return form_warnings(params, request)
