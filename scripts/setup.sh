#!/usr/bin/env bash
# Set up elicit-tray in ./.venv: system libraries Qt needs (installed when root on
# Debian/Ubuntu, otherwise the exact command is printed), then the package with its test
# dependencies. Safe to run again: it only does what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3}"
# Shared libraries PySide6 wheels load (offscreen and xcb), a font; libXss, which tells the app
# whether input came after a window change (X input idle time: a focus the window manager chose
# is handed back); Xvfb, xdotool, a window manager (openbox), an
# "other application" (xterm), xprop and the AT-SPI accessibility bus (with its Python client)
# for the real-window and screen-reader tests; strace
# for the no-network test; the desktop-file and AppStream validators for the packaging tests;
# GTK 3 (Qt's gtk3 platform theme reads its dark and high-contrast palettes) and xwd (x11-apps:
# the X server's pixels of a window) for the contrast tests on real windows;
# Orca, the screen reader the real-window tests listen to (speech off, its debug log read as
# what it would say: tests/integration/orca.py).
DEB_PACKAGES=(libegl1 libgl1 libglib2.0-0 libfontconfig1 libdbus-1-3 libxkbcommon0 libxkbcommon-x11-0
  libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-shape0 libxcb-render-util0 libxcb-image0
  libxcb-randr0 libxcb-xinerama0 libxcb-xkb1 libx11-xcb1 fonts-dejavu-core xvfb xauth xdotool
  dbus at-spi2-core python3-pyatspi strace desktop-file-utils appstream libxss1 openbox xfwm4 xterm x11-utils x11-apps libgtk-3-0 xclip trayer socat
  sway foot wtype grim wayland-utils libwayland-client0 libwayland-cursor0 libwayland-egl1 mako-notifier libnotify-bin orca)
# Callers may add packages of their own, space-separated (benchmarks/run.sh: EXTRA_DEB_PACKAGES="zenity yad").
read -r -a extra_packages <<<"${EXTRA_DEB_PACKAGES:-}"
DEB_PACKAGES+=("${extra_packages[@]}")
# npm installs the pinned npm packages below (the Node they run on comes from npm too). Debian's
# npm only when there is none: a Node from elsewhere (NodeSource) brings its own and conflicts.
command -v npm >/dev/null 2>&1 || DEB_PACKAGES+=(npm)

# Another package manager (unattended-upgrades, a software centre, a second setup) may hold apt's
# locks: wait for them up to APT_LOCK_WAIT_S seconds (default 300), saying so, instead of failing
# with apt's "Could not get lock" (status 100). `DPkg::Lock::Timeout` makes apt itself wait for the
# dpkg lock; `apt-get update` (apt 2.6) does not wait for the package-lists lock, so it is retried.
apt_quietly() {
  local deadline=$((SECONDS + ${APT_LOCK_WAIT_S:-300})) said="" out rc
  while :; do
    rc=0
    out="$(apt-get -o DPkg::Lock::Timeout="${APT_LOCK_WAIT_S:-300}" "$@" 2>&1)" || rc=$?
    if ((rc == 0)); then return 0; fi
    if ! grep -qE "Could not get lock|Unable to (lock|acquire)" <<<"$out" || ((SECONDS >= deadline)); then
      printf '%s\n' "$out" >&2
      if grep -qE "Could not get lock|Unable to (lock|acquire)" <<<"$out"; then
        echo "setup: another package manager still holds apt's lock after ${APT_LOCK_WAIT_S:-300} s; let it finish, then run this again" >&2
      fi
      return "$rc"
    fi
    if [ -z "$said" ]; then
      echo "setup: another package manager holds apt's lock; waiting for it (up to ${APT_LOCK_WAIT_S:-300} s)"
      said=1
    fi
    sleep "${APT_LOCK_POLL_S:-2}"
  done
}

if command -v dpkg-query >/dev/null 2>&1; then
  missing=()
  for pkg in "${DEB_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  if ((${#missing[@]})); then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      echo "setup: installing system packages: ${missing[*]}"
      export DEBIAN_FRONTEND=noninteractive
      apt_quietly update -qq
      apt_quietly install -y -qq --no-install-recommends "${missing[@]}"
    else
      echo "setup: these system packages are missing; install them with:"
      echo "  sudo apt-get install -y ${missing[*]}"
    fi
  fi
fi

if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip >/dev/null
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[test]"

# The Wayland real-window tests (tests/integration/sway.py) run sway, the tray app and its
# requesters as an unprivileged user, who cannot reach an interpreter under a 0700 home: they use
# .venv-wayland, on the system Python, when this runs as root with sway installed.
if [ "$(id -u)" = 0 ] && command -v sway >/dev/null 2>&1 && [ -x /usr/bin/python3 ]; then
  if [ ! -x .venv-wayland/bin/python ]; then
    /usr/bin/python3 -m venv .venv-wayland
  fi
  .venv-wayland/bin/python -m pip install -q --disable-pip-version-check -e .
fi

# Software nobody here wrote, for tests/integration/test_conformance.py, test_wrap_e2e_ts.py and
# test_ts_agent_runner.py: the MCP conformance suite (0.1.16 and 0.2.0-alpha.12), the TypeScript
# SDK v2 and a Node 22 binary (the conformance suite needs it) in tests/node, and the README's
# TypeScript recipe (examples/ts-agent-runner, @modelcontextprotocol/client), each pinned in its
# package-lock.json and installed from the npm registry with `npm ci`. After `npm ci` a copy of
# the lock is kept as node_modules/.installed-lock.json; while the two are equal nothing is done
# (a second run takes no time). Without npm the tests that need these packages fail and say so.
for node_dir in tests/node examples/ts-agent-runner; do
  if cmp -s "$node_dir/package-lock.json" "$node_dir/node_modules/.installed-lock.json" 2>/dev/null; then
    continue
  fi
  if ! command -v npm >/dev/null 2>&1; then
    echo "setup: npm is missing; $node_dir is not installed (the conformance and TypeScript tests need it)"
    continue
  fi
  echo "setup: installing the pinned npm packages into $node_dir/node_modules"
  (cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error && cp package-lock.json node_modules/.installed-lock.json)
done
