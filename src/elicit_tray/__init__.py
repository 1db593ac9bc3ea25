"""elicit-tray: the user-facing half of MCP elicitation on a desktop.

A long-lived tray app owns all dialogs; local requesters (MCP clients, agent runners,
scripts) send it ``elicitation/create`` requests over a local socket (see ``docs/design.md``
"IPC contract") and get back the user's ``ElicitResult``.

For server authors: ``elicit_tray.check(params) -> Report`` says what the tray would do with
an elicitation (:mod:`elicit_tray.checker`; loaded on first use, no Qt).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Mapping

    from .checker import Report

#: The version, in one place: pyproject.toml reads it from here (``[tool.setuptools.dynamic]``).
#: A literal, so that starting the tray app does not load ``importlib.metadata`` (~3.5 MiB).
__version__ = "0.1.0"

__all__ = ["__version__", "check"]


def check(params: Mapping[str, Any] | str | bytes, *, schema: bool = False) -> Report:
    """What the tray would do with ``elicitation/create`` ``params``: a
    :class:`~elicit_tray.checker.Report` (errors the tray would answer, warnings for the author).

    :func:`elicit_tray.checker.check` documents the arguments and errors; the checker is
    imported on the first call, so that ``import elicit_tray`` stays light. Loads no Qt module.
    """
    from .checker import check as run

    return run(params, schema=schema)
