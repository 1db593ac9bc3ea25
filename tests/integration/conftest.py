"""Shared fixtures of the integration tests: short scratch folders for Unix sockets."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from .tray_process import short_tmpdir


def _scratch() -> Iterator[Path]:
    path = short_tmpdir()
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def scratch() -> Iterator[Path]:
    """A fresh folder (mode 0700, short enough for AF_UNIX paths) for one test, removed after."""
    yield from _scratch()


@pytest.fixture(scope="module")
def module_scratch() -> Iterator[Path]:
    """Like ``scratch``, shared by the tests of one module."""
    yield from _scratch()
