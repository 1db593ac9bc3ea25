#!/usr/bin/env bash
# Validate the Linux desktop files: packaging/linux/ as shipped, and what `elicit-tray
# install-desktop` writes into a temporary home (absolute Exec/ExecStart).
# - desktop-file-validate (desktop-file-utils): required
# - appstreamcli validate --no-net (appstream): when installed
# - systemd-analyze verify --user (systemd): when it can start a user manager here
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -m 700 "$scratch/runtime"
export HOME="$scratch/home" XDG_DATA_HOME="$scratch/data" XDG_CONFIG_HOME="$scratch/config" \
  XDG_RUNTIME_DIR="$scratch/runtime"
.venv/bin/elicit-tray install-desktop --autostart >/dev/null

command -v desktop-file-validate >/dev/null || { echo "validate: desktop-file-validate is missing" >&2; exit 1; }
for f in packaging/linux/elicit-tray.desktop packaging/linux/elicit-tray-autostart.desktop \
         "$XDG_DATA_HOME/applications/elicit-tray.desktop" "$XDG_CONFIG_HOME/autostart/elicit-tray-autostart.desktop"; do
  desktop-file-validate "$f"
done
echo "validate: desktop-file-validate ok (4 files)"

if command -v appstreamcli >/dev/null; then
  appstreamcli validate --no-net --pedantic packaging/linux/io.github.elicit_tray.metainfo.xml
  appstreamcli validate --no-net --pedantic "$XDG_DATA_HOME/metainfo/io.github.elicit_tray.metainfo.xml"
else
  echo "validate: appstreamcli not installed; metainfo not validated"
fi

if command -v systemd-analyze >/dev/null; then
  units=("$XDG_CONFIG_HOME/systemd/user/elicit-tray.socket" "$XDG_CONFIG_HOME/systemd/user/elicit-tray.service")
  if out=$(systemd-analyze verify --user "${units[@]}" 2>&1); then
    [ -z "$out" ] || { echo "$out" >&2; exit 1; }
    echo "validate: systemd-analyze verify --user ok (installed units; packaging/linux differs only in ExecStart)"
  elif grep -q "Failed to initialize manager\|Failed to lookup RuntimeDirectory" <<<"$out"; then
    echo "validate: systemd-analyze cannot run a user manager here; units not verified: $out"
  else
    echo "$out" >&2; exit 1
  fi
else
  echo "validate: systemd-analyze not installed; units not verified"
fi
