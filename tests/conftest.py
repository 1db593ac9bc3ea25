"""Shared test set-up: offscreen Qt by default, the elicitation cases, an asyncio loop on Qt."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import hypothesis.internal.observability  # noqa: F401  (see below)
import pytest

# Imported now, not by hypothesis' plugin at the end of the run: on CPython 3.11 a RecursionError
# caught in a test (deeply nested JSON is one of our inputs) can leave the compiler's recursion
# counter off, and the late import's assertion rewriting then fails the whole run with
# "SystemError: AST constructor recursion depth mismatch" instead of printing the results.

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("ELICIT_TRAY_LOG", "off")  # tests never write the user's journal

REPO = Path(__file__).resolve().parents[1]


#: The project's own copy of the shared cases, so that a fresh clone passes on its own;
#: ``tests/test_cases_copy.py`` keeps it equal to ``../shared/cases`` when that folder exists.
OWN_CASES = REPO / "tests" / "cases"
#: The team's shared cases folder beside the checkout (absent in a lone clone).
SHARED_CASES = REPO.parent / "shared" / "cases"


def cases_dir() -> Path:
    """``$ELICIT_TRAY_CASES``, else the project's own copy ``tests/cases``."""
    env = os.environ.get("ELICIT_TRAY_CASES")
    return Path(env) if env else OWN_CASES


def load_cases(name: str) -> list[dict[str, Any]]:
    """The rows of ``tests/cases/<name>``; the suite fails loudly when they are missing."""
    path = cases_dir() / name
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: the cases live in tests/cases (or set ELICIT_TRAY_CASES)")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="session")
def _qt_asyncio_loop(qapp):
    """One asyncio event loop running on Qt's (qasync) for the whole session."""
    import asyncio

    import qasync

    loop = qasync.QEventLoop(qapp, already_running=False)
    yield loop
    loop.close()
    asyncio.set_event_loop(None)


@pytest.fixture
def aio(_qt_asyncio_loop):
    """The session's Qt asyncio loop, set as the current loop for this test: a test elsewhere
    that used ``asyncio.run`` has left no current loop (it sets None when it ends), and the
    dispatcher would then schedule its requests on none."""
    import asyncio

    asyncio.set_event_loop(_qt_asyncio_loop)
    return _qt_asyncio_loop
