"""``elicit-tray history`` on the command line: a bad outcome is a usage error, and a reader
that stops early (``| head``) gets no traceback."""

from __future__ import annotations

import os
import subprocess
import sys

from elicit_tray.history import History


def _env(tmp_path):
    return dict(os.environ, ELICIT_TRAY_HISTORY=str(tmp_path / "history.sqlite3"), HOME=str(tmp_path))


def test_an_unknown_outcome_is_a_usage_error(tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "elicit_tray", "history", "--outcome", "bogus"],
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert "argument --outcome: invalid choice: 'bogus'" in run.stderr


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path):
    History(tmp_path / "history.sqlite3").close()  # an empty history still prints nothing wrong
    head = subprocess.Popen(
        [sys.executable, "-m", "elicit_tray", "history", "--json"],
        env=_env(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert head.stdout is not None and head.stderr is not None
    head.stdout.close()  # the reader went away before anything was read
    err = head.stderr.read().decode()
    head.stderr.close()
    assert head.wait(timeout=60) == 0, err
    assert "Traceback" not in err
