"""elicit-tray: the user-facing half of MCP elicitation on a desktop.

A long-lived tray app owns all dialogs; local requesters (MCP clients, agent runners,
scripts) send it ``elicitation/create`` requests over a local socket (see ``DESIGN.md``
"IPC contract") and get back the user's ``ElicitResult``.
"""

#: The version, in one place: pyproject.toml reads it from here (``[tool.setuptools.dynamic]``).
#: A literal, so that starting the tray app does not load ``importlib.metadata`` (~3.5 MiB).
__version__ = "0.1.0"

__all__ = ["__version__"]
