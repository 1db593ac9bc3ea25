"""The wrapped server's process tree (``docs/wrap-design.md`` §2.6 "Ending").

On Linux ``wrap`` makes itself a child subreaper (``prctl(PR_SET_CHILD_SUBREAPER)``), so every
process the server leaves behind (``sleep 1000 &``, ``setsid sleep 1000 &``, a double-forked
daemon) is re-parented to ``wrap`` instead of init, and stays findable as one of its
descendants in ``/proc``. :class:`Tree` lists, signals and reaps those descendants.

Elsewhere (no ``prctl``, no ``/proc``) every function here is a no-op: only the server's
process group is signalled (by the shell), and what left that group may outlive ``wrap``.
"""

from __future__ import annotations

import ctypes
import os
import sys

__all__ = ["PR_SET_CHILD_SUBREAPER", "become_subreaper", "Tree"]

#: ``prctl`` option (``<linux/prctl.h>``): orphaned descendants are re-parented to the caller.
PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> bool:
    """Make this process a child subreaper (Linux). Returns whether it is one now."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _table() -> dict[int, tuple[int, bytes]]:
    """Every process in ``/proc``: ``pid -> (ppid, state letter)``; empty without ``/proc``."""
    table: dict[int, tuple[int, bytes]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return table
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            table[int(name)] = (int(fields[1]), fields[0])
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
    return table


class Tree:
    """The descendants of process ``root`` (default: this process), minus ``skip`` (the
    server's own pid, which asyncio's child watcher reaps: never ``waitpid`` it here).

    Only meaningful in a process whose every child is the server's (``elicit-tray wrap`` as a
    command); :func:`~elicit_tray.wrap.shell.run_wrap` uses it only when told so.
    """

    def __init__(self, skip: int, root: int | None = None):
        self.root = os.getpid() if root is None else root
        self.skip = skip

    def _descendants(self) -> dict[int, tuple[int, bytes]]:
        table = _table()
        children: dict[int, list[int]] = {}
        for pid, (ppid, _state) in table.items():
            children.setdefault(ppid, []).append(pid)
        found: dict[int, tuple[int, bytes]] = {}
        stack = [self.root]
        while stack:
            for child in children.get(stack.pop(), ()):
                if child not in found:
                    found[child] = table[child]
                    stack.append(child)
        return found

    def living(self) -> list[int]:
        """Pids of the descendants that still run (not zombies), ``skip`` excluded; our own
        zombie children are reaped on the way (``waitpid(pid, WNOHANG)``, one pid at a time)."""
        alive = []
        for pid, (ppid, state) in self._descendants().items():
            if pid == self.skip:
                continue
            if state == b"Z":
                if ppid == self.root:
                    _reap(pid)
                continue
            alive.append(pid)
        return alive

    def signal(self, sig: int) -> None:
        """Send ``sig`` to every living descendant but ``skip`` (the shell signals the
        server's group while the server runs; once reaped, its pid may be another's)."""
        for pid in self.living():
            try:
                os.kill(pid, sig)
            except (ProcessLookupError, PermissionError):
                pass


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass
