"""`scripts/setup.sh` waits for apt's locks instead of failing with apt's "Could not get lock"
(status 100) when another package manager runs. Its `apt_quietly` function runs here against a
stand-in `apt-get` that reports the lock as held for its first calls, exactly as apt 2.6 does."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

SETUP = Path(__file__).resolve().parents[2] / "scripts" / "setup.sh"

LOCK_MESSAGE = (
    "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (unattended-upgr)\n"
    "E: Unable to lock directory /var/lib/apt/lists/\n"
)


def _apt_quietly() -> str:
    """The `apt_quietly` function's source, cut out of setup.sh."""
    match = re.search(r"^apt_quietly\(\) \{\n.*?^\}\n", SETUP.read_text(encoding="utf-8"), re.M | re.S)
    assert match, "setup.sh has no apt_quietly function"
    return match.group(0)


def _run(
    tmp_path: Path, held_calls: int, wait_s: int, args: str = "update -qq", message: str = LOCK_MESSAGE
) -> subprocess.CompletedProcess[str]:
    """Run `apt_quietly ARGS` with a stand-in apt-get that fails with ``message`` (status 100)
    for its first ``held_calls`` calls, then succeeds; each call's argv goes to ``calls.log``."""
    fake = tmp_path / "bin" / "apt-get"
    fake.parent.mkdir()
    (tmp_path / "held").write_text(str(held_calls), encoding="utf-8")
    (tmp_path / "lock-message").write_text(message, encoding="utf-8")
    fake.write_text(
        "#!/usr/bin/env bash\n"
        f'echo "$*" >> {tmp_path}/calls.log\n'
        f"n=$(cat {tmp_path}/held)\n"
        f'if [ "$n" -gt 0 ]; then echo $((n - 1)) > {tmp_path}/held; cat {tmp_path}/lock-message >&2; exit 100; fi\n'
        "exit 0\n",
        encoding="utf-8",
    )
    fake.chmod(0o755)
    script = f"set -euo pipefail\n{_apt_quietly()}\napt_quietly {args}\n"
    return subprocess.run(
        ["bash", "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": f"{fake.parent}:/usr/bin:/bin", "APT_LOCK_WAIT_S": str(wait_s), "APT_LOCK_POLL_S": "0"},
    )


def test_a_held_lock_is_waited_for_and_said_once(tmp_path):
    done = _run(tmp_path, held_calls=3, wait_s=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "setup: another package manager holds apt's lock; waiting for it (up to 300 s)\n"
    assert done.stderr == ""
    calls = (tmp_path / "calls.log").read_text(encoding="utf-8").splitlines()
    assert calls == ["-o DPkg::Lock::Timeout=300 update -qq"] * 4


def test_a_lock_still_held_at_the_deadline_fails_with_apt_status_and_what_to_do(tmp_path):
    done = _run(tmp_path, held_calls=10**6, wait_s=0, args="install -y -qq xterm")
    assert done.returncode == 100
    assert done.stderr == (
        LOCK_MESSAGE
        + "setup: another package manager still holds apt's lock after 0 s; let it finish, then run this again\n"
    )


def test_another_apt_failure_is_shown_at_once_and_not_retried(tmp_path):
    missing = "E: Unable to locate package no-such-package\n"
    done = _run(tmp_path, held_calls=1, wait_s=300, args="install -y -qq no-such-package", message=missing)
    assert done.returncode == 100
    assert (done.stdout, done.stderr) == ("", missing)
    assert (tmp_path / "calls.log").read_text(encoding="utf-8").splitlines() == [
        "-o DPkg::Lock::Timeout=300 install -y -qq no-such-package"
    ]
