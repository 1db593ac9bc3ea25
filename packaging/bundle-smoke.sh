#!/usr/bin/env bash
# Build the frozen one-folder bundle (packaging/pyinstaller/elicit-tray.spec) and check that it
# works on its own: --version, then `serve` offscreen on a temporary socket with a scripted user,
# answering `ping`, one form and one URL request. About 30 s on 2 CPUs (mostly the build).
#   packaging/bundle-smoke.sh            build into build/bundle/, then check
#   packaging/bundle-smoke.sh --no-build check an existing build/bundle/elicit-tray/
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=build/bundle
BIN="$OUT/elicit-tray/elicit-tray"

if [ "${1:-}" != "--no-build" ]; then
  ./scripts/setup.sh
  .venv/bin/python -m pip install -q --disable-pip-version-check "pyinstaller>=6.10"
  start=$(date +%s)
  .venv/bin/pyinstaller --noconfirm --log-level WARN --workpath build/pyinstaller --distpath "$OUT" \
    packaging/pyinstaller/elicit-tray.spec
  echo "bundle-smoke: built $BIN in $(( $(date +%s) - start )) s ($(du -sh "$OUT/elicit-tray" | cut -f1))"
fi

expected=$(.venv/bin/python -c 'import elicit_tray; print(elicit_tray.__version__)')
got=$("$BIN" --version)
[ "$got" = "elicit-tray $expected" ] || { echo "bundle-smoke: --version says '$got', the package says $expected" >&2; exit 1; }

scratch=$(mktemp -d /tmp/et-bundle-XXXXXX)
tray_pid=""
cleanup() {
  if [ -n "$tray_pid" ] && kill -0 "$tray_pid" 2>/dev/null; then kill "$tray_pid"; wait "$tray_pid" || true; fi
  rm -rf "$scratch"
}
trap cleanup EXIT
cat >"$scratch/plan.json" <<'JSON'
[{"match": "form-please", "steps": [{"do": "type", "field": "name", "text": "Ada"}, {"do": "submit"}]},
 {"match": "url-please", "steps": [{"do": "open"}]}]
JSON
QT_QPA_PLATFORM=offscreen ELICIT_TRAY_LOG=off "$BIN" --socket "$scratch/run/socket" serve \
  --scripted-user "$scratch/plan.json" --no-browser 2>"$scratch/stderr.txt" &
tray_pid=$!

# The requester: stdlib only, so that nothing but the bundle answers.
SOCK="$scratch/run/socket" .venv/bin/python - <<'PY'
import json, os, socket, time

path = os.environ["SOCK"]
deadline = time.monotonic() + 30
while True:
    try:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(path)
        break
    except OSError:
        sock.close()
        if time.monotonic() > deadline:
            raise SystemExit("bundle-smoke: the bundle did not listen within 30 s")
        time.sleep(0.1)
sock.settimeout(30)
reader = sock.makefile("rb")

def call(request_id, method, params=None):
    message = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    sock.sendall(json.dumps(message).encode() + b"\n")
    return json.loads(reader.readline())

checks = [
    (call(1, "ping"), {"jsonrpc": "2.0", "id": 1, "result": {}}),
    (call(2, "elicitation/create", {"message": "form-please: who are you?", "requestedSchema": {
        "type": "object", "properties": {"name": {"type": "string", "title": "Name", "pattern": "^[A-Z][a-z]+$"},
                                          "copies": {"type": "integer", "default": 2}}, "required": ["name"]}}),
     {"jsonrpc": "2.0", "id": 2, "result": {"action": "accept", "content": {"name": "Ada", "copies": 2}}}),
    (call(3, "elicitation/create", {"mode": "url", "message": "url-please: connect your account",
                                    "url": "https://example.com/connect?state=1", "elicitationId": "e-1"}),
     {"jsonrpc": "2.0", "id": 3, "result": {"action": "accept"}}),
]
for got, want in checks:
    if got != want:
        raise SystemExit(f"bundle-smoke: got {got}, expected {want}")
info = call(4, "elicit-tray/info")["result"]
print(f"bundle-smoke: ping, form and URL answered by the bundle (version {info['version']}, pid {info['pid']})")
PY
grep -q "the browser would open: https://example.com/connect?state=1" "$scratch/stderr.txt" || {
  echo "bundle-smoke: the URL was not handed to the (headless) browser:" >&2; cat "$scratch/stderr.txt" >&2; exit 1; }
kill "$tray_pid"
wait "$tray_pid" || { echo "bundle-smoke: the bundle did not exit cleanly:" >&2; cat "$scratch/stderr.txt" >&2; exit 1; }
tray_pid=""
echo "bundle-smoke: ok"
