"""elicit-tray: the user-facing half of MCP elicitation on a desktop.

A long-lived tray app owns all dialogs; local requesters (MCP clients, agent runners,
scripts) send it ``elicitation/create`` requests over a local socket (see ``DESIGN.md``
"IPC contract") and get back the user's ``ElicitResult``.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("elicit-tray")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0+source"

__all__ = ["__version__"]
