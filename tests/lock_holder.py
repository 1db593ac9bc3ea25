"""Another process of the user holding the history database's lock: a real second process
(``python -c`` with the standard ``sqlite3`` module, as the ``sqlite3`` shell would), started by
:class:`LockHolder` and told when to let go.

Modes:

- ``write``: ``BEGIN EXCLUSIVE`` (in WAL mode the write lock: every other connection can still
  read, none can write);
- ``all``: ``PRAGMA locking_mode = EXCLUSIVE`` then ``BEGIN EXCLUSIVE`` and a write (the whole
  file: no other connection can read either).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

_SCRIPT = r"""
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
if sys.argv[2] == "all":
    db.execute("PRAGMA locking_mode = EXCLUSIVE")
db.execute("BEGIN EXCLUSIVE")
if sys.argv[2] == "all":
    db.execute("CREATE TABLE IF NOT EXISTS holder (x)")
print("locked", flush=True)
sys.stdin.readline()
db.execute("ROLLBACK")
db.close()
print("released", flush=True)
"""


class LockHolder:
    """A process holding the lock of the database at ``path`` (``mode``: module docstring) from
    construction until :meth:`release` (or the end of a ``with`` block)."""

    def __init__(self, path: Path, mode: str = "write") -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", _SCRIPT, str(path), mode],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None and self.process.stdout.readline() == "locked\n"

    @property
    def holding(self) -> bool:
        """Still running, so still holding the lock."""
        return self.process.poll() is None

    def release(self) -> None:
        """Let go of the lock and wait for the process to end."""
        if not self.holding:
            return
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write("\n")
        self.process.stdin.flush()
        assert self.process.stdout.readline() == "released\n"
        self.process.wait(timeout=30)
        self.process.stdin.close()
        self.process.stdout.close()

    def __enter__(self) -> LockHolder:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.release()
