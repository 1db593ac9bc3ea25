#!/usr/bin/env bash
# Set up, then run the demo: the bundled MCP server's elicitations answered through the tray
# app, in both protocol versions. Headless (offscreen, scripted user, PNGs) when there is no
# display or with --headless. Extra arguments go to `elicit-tray demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
exec .venv/bin/elicit-tray demo "$@"
