"""``elicit-tray wrap -- <server command...>``: a stdio proxy that answers a server's
elicitations through the tray app, for MCP hosts that cannot (``docs/wrap-design.md``).

- :mod:`.core`: the sans-IO core (bytes in -> bytes out + actions); no I/O, no asyncio. Its
  parts: :mod:`.capability` (owned modes, the declared capability), :mod:`.lines` (raw JSON
  lines read and edited without loss), :mod:`.actions` (what the shell is told to do).
  :mod:`.rawjson` reads a line in place, decoding only the members a rule names.
- :mod:`.shell`: the anyio shell that owns the child's pipes and talks to the tray app; its
  parts: :mod:`.pipes` (lines split and written without copies), :mod:`.procs` (the server's
  process tree: subreaper, signals, reaping).
"""

from .core import (
    POLICIES,
    UNREACHABLE_MESSAGE,
    AskTray,
    CancelTray,
    CompleteTray,
    Identity,
    ReleaseTray,
    ToHost,
    ToServer,
    TrayAnswer,
    WrapCore,
)

__all__ = [
    "AskTray",
    "CancelTray",
    "CompleteTray",
    "ReleaseTray",
    "Identity",
    "ToHost",
    "ToServer",
    "TrayAnswer",
    "WrapCore",
    "POLICIES",
    "UNREACHABLE_MESSAGE",
]
