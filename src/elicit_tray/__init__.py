"""elicit-tray: the user-facing half of MCP elicitation on a desktop.

A long-lived tray app owns all dialogs; local requesters (MCP clients, agent runners,
scripts) send it ``elicitation/create`` requests over a local socket (see ``DESIGN.md``
"IPC contract") and get back the user's ``ElicitResult``.

For server authors: ``elicit_tray.check(params) -> Report`` says what the tray would do with
an elicitation (:mod:`elicit_tray.check`; loaded on first use, no Qt).
"""

from __future__ import annotations

from typing import Any

#: The version, in one place: pyproject.toml reads it from here (``[tool.setuptools.dynamic]``).
#: A literal, so that starting the tray app does not load ``importlib.metadata`` (~3.5 MiB).
__version__ = "0.1.0"

__all__ = ["__version__", "check"]


def __getattr__(name: str) -> Any:
    """``check`` on first use (PEP 562), so that ``import elicit_tray`` stays light: the
    package :mod:`elicit_tray.check`, callable as :func:`elicit_tray.check.check`."""
    if name == "check":
        import importlib

        return importlib.import_module(".check", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
