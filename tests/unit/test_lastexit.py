"""A library's C ``exit()`` (Qt's xcb plugin when the X server goes away) still runs the app's
shutdown and ends with status 0; the normal end skips that handler (:mod:`elicit_tray.lastexit`)."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def _run(body: str, tmp_path) -> subprocess.CompletedProcess[str]:
    script = textwrap.dedent(
        f"""
        import ctypes, ctypes.util, sys
        from pathlib import Path
        from elicit_tray.lastexit import end_process, on_library_exit
        marks = Path({str(tmp_path / "marks")!r})
        def shutdown():
            marks.write_text(marks.read_text() + "shutdown;" if marks.exists() else "shutdown;")
        """
    )
    return subprocess.run(
        [sys.executable, "-c", script + textwrap.dedent(body)], capture_output=True, text=True, timeout=60
    )


def test_a_library_calling_c_exit_runs_the_shutdown_and_ends_with_status_0(tmp_path):
    done = _run(
        """
        assert on_library_exit(shutdown)
        print("before", flush=True)
        ctypes.CDLL(ctypes.util.find_library("c")).exit(1)  # as Qt's xcb plugin does
        """,
        tmp_path,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "before\n", "")
    assert (tmp_path / "marks").read_text() == "shutdown;"


def test_a_failing_shutdown_is_logged_and_the_process_still_ends(tmp_path):
    done = _run(
        """
        import logging
        logging.basicConfig(format="%(message)s")
        def broken():
            raise RuntimeError("history gone")
        on_library_exit(broken, status=0)
        ctypes.CDLL(ctypes.util.find_library("c")).exit(1)
        """,
        tmp_path,
    )
    assert done.returncode == 0
    assert done.stderr.startswith("shutdown after the display went away failed\nTraceback")
    assert done.stderr.rstrip().endswith("RuntimeError: history gone")


def test_the_normal_end_keeps_its_status_and_skips_the_handler(tmp_path):
    done = _run(
        """
        on_library_exit(shutdown)
        print("unflushed", end="")
        end_process(3)
        """,
        tmp_path,
    )
    assert (done.returncode, done.stdout) == (3, "unflushed")
    assert not (tmp_path / "marks").exists()
