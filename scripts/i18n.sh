#!/usr/bin/env bash
# Translations: extract the app's strings into resources/i18n/*.ts (Qt Linguist sources) and
# compile them into the package (src/elicit_tray/resources/i18n/*.qm).
#   scripts/i18n.sh update    re-extract (keeps existing translations)
#   scripts/i18n.sh release   compile the .qm catalogues (default)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
SOURCES=(src/elicit_tray/ui/*.py src/elicit_tray/settings.py src/elicit_tray/history/columns.py src/elicit_tray/schema/values.py src/elicit_tray/schema/formats.py src/elicit_tray/urlcheck/reasons.py)
case "${1:-release}" in
  update)
    for ts in resources/i18n/elicit_tray_*.ts; do
      "$BIN/pyside6-lupdate" -no-obsolete -locations none "${SOURCES[@]}" -ts "$ts"
    done ;;
  release)
    for ts in resources/i18n/elicit_tray_*.ts; do
      name=$(basename "$ts" .ts)
      "$BIN/pyside6-lrelease" -silent "$ts" -qm "src/elicit_tray/resources/i18n/$name.qm"
    done ;;
  *) echo "usage: $0 [update|release]" >&2; exit 2 ;;
esac
