"""The requirements manifest (docs/requirements.md) names, for each MUST/SHOULD that applies,
tests that exist."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\| (?P<id>[A-Z][A-Z0-9.]*) \| (?P<text>[^|]+) \| [^|]+ \| (?P<tests>[^|]*) \|$")


def _rows() -> list[re.Match[str]]:
    lines = (REPO / "docs" / "requirements.md").read_text(encoding="utf-8").splitlines()
    return [m for m in map(ROW.match, lines) if m]


def test_the_manifest_lists_the_requirements():
    ids = {m["id"] for m in _rows()}
    assert {"C4", "C5", "F2", "F5", "U1", "U2", "R1", "R3", "R4", "R7", "E2"} <= ids


def test_every_requirement_names_tests_that_exist():
    missing = []
    for row in _rows():
        refs = [r.strip() for r in row["tests"].split(",") if r.strip()]
        if not refs:
            missing.append(f"{row['id']}: no test")
        for ref in refs:
            path, _, name = ref.partition("::")
            source = REPO / path
            if not source.exists() or not re.search(
                rf"^(async )?def {re.escape(name)}\(", source.read_text(encoding="utf-8"), re.M
            ):
                missing.append(f"{row['id']}: {ref}")
    assert missing == []
