#!/usr/bin/env bash
# One command for the benchmarks: set up .venv with scripts/setup.sh, which also installs the
# helpers compared against (zenity, yad: EXTRA_DEB_PACKAGES) next to Xvfb and xdotool when root
# on Debian/Ubuntu, add python-xlib to .venv, then run benchmarks/run.py under a fresh Xvfb.
# Prints a table; writes benchmarks/results.json. Extra arguments go to run.py (e.g. --quick).
# Without zenity or yad their rows are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

EXTRA_DEB_PACKAGES="zenity yad" ./scripts/setup.sh
.venv/bin/python -m pip install -q --disable-pip-version-check -r benchmarks/requirements.txt

if ! command -v xvfb-run >/dev/null 2>&1; then
  echo "benchmarks: xvfb-run is required (apt-get install xvfb xauth)" >&2
  exit 2
fi
exec timeout 290 xvfb-run -a -s "-screen 0 1920x1080x24 -nolisten tcp" .venv/bin/python benchmarks/run.py "$@"
