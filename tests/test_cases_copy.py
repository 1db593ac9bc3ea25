"""The project's copy of the elicitation cases (``tests/cases``) equals the team's shared
folder (``../shared/cases``) whenever that folder is beside the checkout; a lone clone skips."""

from __future__ import annotations

import pytest

from tests.conftest import OWN_CASES, SHARED_CASES


@pytest.mark.skipif(not SHARED_CASES.is_dir(), reason="no ../shared/cases beside this checkout")
def test_own_copy_of_the_cases_matches_the_shared_folder():
    shared = {p.name: p.read_bytes() for p in SHARED_CASES.iterdir() if p.is_file()}
    own = {p.name: p.read_bytes() for p in OWN_CASES.iterdir() if p.is_file()}
    stale = sorted(name for name in shared if own.get(name) != shared[name])
    assert not stale, f"tests/cases is out of date; run: cp ../shared/cases/* tests/cases/  ({stale})"
