#!/usr/bin/env bash
# Set up, then run the whole test suite: offscreen tests, and the real-window tests under
# Xvfb (started here when there is no display). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
if [ -z "${DISPLAY:-}" ] && command -v xvfb-run >/dev/null 2>&1; then
  exec xvfb-run -a -s "-screen 0 1280x1024x24" .venv/bin/python -m pytest "$@"
fi
exec .venv/bin/python -m pytest "$@"
