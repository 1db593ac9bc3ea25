"""Shared test set-up: offscreen Qt by default, the shared cases, an asyncio loop on Qt."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("ELICIT_TRAY_LOG", "off")  # tests never write the user's journal

REPO = Path(__file__).resolve().parents[1]


def cases_dir() -> Path:
    """``$ELICIT_TRAY_CASES``, else ``../shared/cases`` beside the checkout."""
    env = os.environ.get("ELICIT_TRAY_CASES")
    return Path(env) if env else REPO.parent / "shared" / "cases"


def load_cases(name: str) -> list[dict[str, Any]]:
    """The rows of ``shared/cases/<name>``; the suite fails loudly when they are missing."""
    path = cases_dir() / name
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: set ELICIT_TRAY_CASES to the shared cases folder")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="session")
def aio(qapp):
    """One asyncio event loop running on Qt's (qasync) for the session, set as the current loop."""
    import asyncio

    import qasync

    loop = qasync.QEventLoop(qapp, already_running=False)
    asyncio.set_event_loop(loop)
    yield loop
    loop.close()
    asyncio.set_event_loop(None)
