"""elicit-tray benchmarks: latency, round trips, memory, cold start, flood, and zenity/yad side
by side, in one run. Prints a table and writes the same figures to ``benchmarks/results.json``.

Run it with ``./benchmarks/run.sh`` (sets up, installs zenity/yad/Xvfb when root, and runs this
under ``xvfb-run -a``). It needs an X display (for the window-mapped figures) and
``python-xlib`` (MapNotify and Damage events are read straight from the X server).

Every loop is bounded in count and in time; all traffic goes over Unix sockets in a private
temporary directory. Nothing here is a pass/fail test: figures are printed next to the targets
of ``shared/DESIGN.md`` "Targets".
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import select
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from forms import form_params  # noqa: E402

PY = sys.executable
try:  # the tray app refuses forms with more properties than this (None: no limit)
    from elicit_tray.elicitation import MAX_PROPERTIES
except ImportError:
    MAX_PROPERTIES = None
ENV_TRACE = "ELICIT_TRAY_TRACE"  # the app appends one timing line per dialog to this file
RUN_BUDGET_S = 270.0  # the whole run stays under 5 minutes
STARTED = time.monotonic()


def left_s() -> float:
    return RUN_BUDGET_S - (time.monotonic() - STARTED)


def log(msg: str) -> None:
    print(f"[bench {time.monotonic() - STARTED:6.1f}s] {msg}", file=sys.stderr, flush=True)


# -- statistics -------------------------------------------------------------------------------
def pct(values: list[float], p: float) -> float | None:
    """Nearest-rank percentile (p in 0..100); None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(-(-p * len(ordered) // 100))))
    return ordered[rank - 1]


def summary(values: list[float]) -> dict[str, Any]:
    return {
        "n": len(values),
        "p50": pct(values, 50),
        "p95": pct(values, 95),
        "p99": pct(values, 99),
        "max": max(values) if values else None,
        "min": min(values) if values else None,
    }


def rss_kib(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


# -- the tray app and a line-based client ------------------------------------------------------
class Tray:
    """``elicit-tray serve`` on a private socket; stopped with SIGTERM."""

    def __init__(
        self,
        workdir: Path,
        name: str,
        *,
        platform_name: str | None = None,
        plan: list[dict[str, Any]] | None = None,
        arm_delay_ms: int = 0,
        trace: bool = False,
    ):
        self.dir = workdir / name
        self.dir.mkdir(mode=0o700)
        self.socket = self.dir / "sock" / "socket"
        self.env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.env.pop("ELICIT_TRAY_SOCKET", None)
        self.env.pop(ENV_TRACE, None)
        #: with ``trace``: the app's own timing line per dialog (``ELICIT_TRAY_TRACE``), else None
        self.trace_path: Path | None = None
        if trace:
            self.trace_path = self.dir / "trace.jsonl"
            self.env[ENV_TRACE] = str(self.trace_path)
        if platform_name:
            self.env["QT_QPA_PLATFORM"] = platform_name
        self.argv = [
            PY,
            "-m",
            "elicit_tray",
            "--socket",
            str(self.socket),
            "serve",
            "--arm-delay-ms",
            str(arm_delay_ms),
        ]
        if plan is not None:
            plan_path = self.dir / "plan.json"
            plan_path.write_text(json.dumps(plan), encoding="utf-8")
            self.argv += ["--scripted-user", str(plan_path)]
        self.proc: subprocess.Popen[bytes] | None = None
        self.stderr_path = self.dir / "stderr.log"

    def start(self, timeout_s: float = 15.0) -> float:
        """Start and wait until the socket accepts a connection; returns seconds taken."""
        stderr = open(self.stderr_path, "ab")
        t0 = time.monotonic()
        self.proc = subprocess.Popen(self.argv, env=self.env, stdin=subprocess.DEVNULL, stdout=stderr, stderr=stderr)
        stderr.close()
        while time.monotonic() - t0 < timeout_s:
            if self.proc.poll() is not None:
                raise RuntimeError(f"tray exited with {self.proc.returncode}: {self.stderr_path.read_text()[-2000:]}")
            if self.socket.exists():
                with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
                    try:
                        probe.connect(str(self.socket))
                        return time.monotonic() - t0
                    except OSError:
                        pass
            time.sleep(0.002)
        raise RuntimeError("tray did not listen in time")

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)


class TraceReader:
    """Reads the lines the tray app appends to its ``ELICIT_TRAY_TRACE`` file, as they come.

    Each line is written when the dialog's request ends (before its response is sent), so after
    reading a response the line is normally there already; :meth:`next_line` waits a little.
    """

    def __init__(self, path: Path | None):
        self.path = path
        self.offset = path.stat().st_size if path is not None and path.exists() else 0
        self.partial = b""

    def new_lines(self) -> list[dict[str, Any]]:
        if self.path is None or not self.path.exists():
            return []
        with open(self.path, "rb") as f:
            f.seek(self.offset)
            data = f.read()
        self.offset += len(data)
        data = self.partial + data
        *complete, self.partial = data.split(b"\n")
        out = []
        for raw in complete:
            try:
                out.append(json.loads(raw))
            except ValueError:
                log(f"unreadable trace line: {raw[:200]!r}")
        return out

    def next_line(self, timeout_s: float = 1.0) -> dict[str, Any] | None:
        """The next dialog's line (the last one if several came), waiting up to ``timeout_s``."""
        deadline = time.monotonic() + timeout_s
        while True:
            lines = self.new_lines()
            if lines:
                return lines[-1]
            if self.path is None or time.monotonic() >= deadline:
                return None
            time.sleep(0.002)


class Conn:
    """A blocking newline-delimited JSON-RPC connection."""

    def __init__(self, path: Path, timeout_s: float = 10.0):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout_s)
        self.sock.connect(str(path))
        self.buf = b""
        self.next_id = 1

    def send_raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def request_bytes(self, method: str, params: dict[str, Any] | None = None) -> tuple[int, bytes]:
        rid = self.next_id
        self.next_id += 1
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        return rid, json.dumps(msg, separators=(",", ":")).encode() + b"\n"

    def readline(self) -> bytes:
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("tray closed the connection")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def call(self, method: str, params: dict[str, Any] | None = None) -> tuple[dict[str, Any], float]:
        """One request; returns (response, round trip in ms)."""
        _rid, data = self.request_bytes(method, params)
        t0 = time.perf_counter()
        self.sock.sendall(data)
        line = self.readline()
        return json.loads(line), (time.perf_counter() - t0) * 1000

    def close(self) -> None:
        self.sock.close()


# -- the X server side -------------------------------------------------------------------------
class XWatch:
    """Top-level windows of the X server: CreateNotify/MapNotify on the root window, and XDamage
    on every new top-level window (its first DamageNotify after mapping = the first paint
    reaching the server)."""

    def __init__(self) -> None:
        from Xlib import XK, X, display
        from Xlib.ext import damage, xtest

        self.X, self.damage, self.xtest = X, damage, xtest
        self.d = display.Display()
        self.x_errors = 0

        def on_error(*_args: Any) -> None:  # e.g. a window destroyed before we looked at it
            self.x_errors += 1

        self.d.set_error_handler(on_error)
        self.has_damage = self.d.has_extension("DAMAGE")
        if self.has_damage:
            self.d.damage_query_version()
            self.damage_event = self.d.extension_event.DamageNotify
        self.root = self.d.screen().root
        self.root.change_attributes(event_mask=X.SubstructureNotifyMask)
        self.escape = self.d.keysym_to_keycode(XK.string_to_keysym("Escape"))
        self.d.sync()
        self.damages: list[Any] = []

    def drain(self) -> None:
        self.d.sync()
        while self.d.pending_events():
            self.d.next_event()
        self.damages.clear()  # the server frees a damage object with its window

    def wait_window(self, t0: float, timeout_s: float, want_paint: bool = True) -> dict[str, Any]:
        """Wait for the first new non-override-redirect top-level window to map (and paint).

        Returns ms since ``t0`` (a ``time.perf_counter()``) for ``created`` (of the window that
        mapped), ``mapped`` and ``painted`` (None where not seen), and ``window``. Every new
        InputOutput top-level window gets a Damage object when it is created, before it can map.
        """
        X = self.X
        out: dict[str, Any] = {"created": None, "mapped": None, "painted": None, "window": None}
        created: dict[int, float] = {}
        deadline = t0 + timeout_s
        fd = self.d.fileno()
        track_paint = want_paint and self.has_damage
        while time.perf_counter() < deadline:
            if out["mapped"] is not None and (out["painted"] is not None or not track_paint):
                break
            if not self.d.pending_events():
                select.select([fd], [], [], max(0.0, min(0.2, deadline - time.perf_counter())))
            while self.d.pending_events():
                ev = self.d.next_event()
                now = (time.perf_counter() - t0) * 1000
                if ev.type == X.CreateNotify and not ev.override:
                    created[ev.window.id] = now
                    if track_paint:
                        try:
                            attrs = ev.window.get_attributes()
                            if attrs.win_class == X.InputOutput:
                                self.damages.append(ev.window.damage_create(self.damage.DamageReportNonEmpty))
                                self.d.flush()
                        except Exception:  # noqa: BLE001 - the window may be gone already
                            pass
                elif ev.type == X.MapNotify and not ev.override and out["mapped"] is None:
                    out["window"], out["mapped"] = ev.window, now
                    out["created"] = created.get(ev.window.id)
                elif (
                    track_paint
                    and ev.type == self.damage_event
                    and out["window"] is not None
                    and ev.drawable.id == out["window"].id
                    and out["painted"] is None
                ):
                    out["painted"] = now
        return out

    def press_escape(self, window: Any) -> None:
        X = self.X
        window.set_input_focus(X.RevertToParent, X.CurrentTime)
        self.xtest.fake_input(self.d, X.KeyPress, self.escape)
        self.xtest.fake_input(self.d, X.KeyRelease, self.escape)
        self.d.flush()

    def wait_gone(self, window: Any, timeout_s: float) -> bool:
        X = self.X
        deadline = time.perf_counter() + timeout_s
        while time.perf_counter() < deadline:
            if not self.d.pending_events():
                select.select([self.d.fileno()], [], [], 0.1)
            while self.d.pending_events():
                ev = self.d.next_event()
                if ev.type in (X.UnmapNotify, X.DestroyNotify) and ev.window.id == window.id:
                    return True
        return False


# -- benchmarks --------------------------------------------------------------------------------
def bench_dialog_latency(tray: Tray, xw: XWatch, series: dict[int, int]) -> dict[str, Any]:
    """Request written to the socket -> window mapped / first paint, per form size (warm).

    Outside: the X server's MapNotify and first XDamage event. Inside, when the tray app runs
    with ``ELICIT_TRAY_TRACE``: its own line per dialog (``start_ns`` is CLOCK_MONOTONIC, as is
    ``time.monotonic_ns()`` here), turned into request written -> presenter start (IPC and
    parsing), -> built, -> shown, -> first paint event, and the outside figure minus the inside
    one for the same request (how far apart the two measurements are).
    """
    conn = Conn(tray.socket)
    tracer = TraceReader(tray.trace_path)
    out: dict[str, Any] = {}
    for n, count in series.items():
        if MAX_PROPERTIES is not None and n > MAX_PROPERTIES:
            rtts, codes = [], set()
            for _ in range(count):
                response, ms = conn.call("elicitation/create", form_params(n))
                rtts.append(ms)
                codes.add(response.get("error", {}).get("code"))
            out[str(n)] = {
                "refused": True,
                "limit": MAX_PROPERTIES,
                "error_codes": sorted(c for c in codes if c),
                "round_trip_ms": summary(rtts),
            }
            log(f"{n:>3} fields: refused by the tray (more than {MAX_PROPERTIES} properties), codes {codes}")
            continue
        maps: list[float] = []
        paints: list[float] = []
        app: dict[str, list[float]] = {
            "start": [],
            "built": [],
            "shown": [],
            "painted": [],
            "paint_outside_minus_inside": [],
            "mapped_minus_shown": [],
        }
        missing_trace = 0
        failures = 0
        for i in range(count + 3):  # 3 warm-ups
            if left_s() < 150:
                log(f"time budget: stopping the {n}-field series early")
                break
            xw.drain()
            tracer.new_lines()  # skip anything left from an earlier request
            _rid, data = conn.request_bytes("elicitation/create", form_params(n))
            t0 = time.perf_counter()
            written_ns = time.monotonic_ns()
            conn.send_raw(data)
            seen = xw.wait_window(t0, 5.0)
            if seen["window"] is None or seen["mapped"] is None:
                failures += 1
                log(f"{n} fields: no window seen ({seen})")
                continue
            xw.press_escape(seen["window"])
            try:
                response = json.loads(conn.readline())
            except (ConnectionError, OSError) as exc:
                out["crash"] = {
                    "fields": n,
                    "iteration": i,
                    "error": repr(exc),
                    "returncode": tray.proc and tray.proc.poll(),
                    "stderr_tail": tail(tray.stderr_path),
                }
                log(f"the tray app stopped answering during the {n}-field series: {exc!r}")
                break
            if response.get("result", {}).get("action") != "cancel":
                failures += 1
                log(f"unexpected answer to Escape: {response}")
            line = tracer.next_line() if tray.trace_path is not None else None
            xw.wait_gone(seen["window"], 2.0)
            if i >= 3:
                maps.append(seen["mapped"])
                if seen["painted"] is not None:
                    paints.append(seen["painted"])
                if line is not None and line.get("fields") == n and line.get("start_ns", 0) >= written_ns:
                    start = (line["start_ns"] - written_ns) / 1e6
                    app["start"].append(start)
                    for mark in ("built", "shown", "painted"):
                        if line.get(f"{mark}_ms") is not None:
                            app[mark].append(start + line[f"{mark}_ms"])
                    if line.get("painted_ms") is not None and seen["painted"] is not None:
                        app["paint_outside_minus_inside"].append(seen["painted"] - (start + line["painted_ms"]))
                    if line.get("shown_ms") is not None:
                        app["mapped_minus_shown"].append(seen["mapped"] - (start + line["shown_ms"]))
                elif tray.trace_path is not None:
                    missing_trace += 1
            time.sleep(0.03)  # let deleteLater and the server settle
        out[str(n)] = {"mapped_ms": summary(maps), "painted_ms": summary(paints), "failures": failures}
        if tray.trace_path is not None:
            out[str(n)]["app_trace"] = {
                f"to_{k}_ms" if k in ("start", "built", "shown", "painted") else f"{k}_ms": summary(v)
                for k, v in app.items()
            }
            out[str(n)]["app_trace"]["missing_lines"] = missing_trace
        if "crash" in out:
            break
        inside = f", in the app {pct(app['painted'], 50):.1f} ms" if app["painted"] else ""
        log(
            f"{n:>3} fields: mapped p50 {pct(maps, 50):.1f} ms, painted p50 {pct(paints, 50) or float('nan'):.1f} ms"
            + inside
        )
    conn.close()
    return out


def bench_helpers(xw: XWatch, runs: int) -> dict[str, Any]:
    """zenity --forms / yad --form with 10 fields, and a bare PySide6 helper: launch -> mapped."""
    helpers: dict[str, list[str]] = {
        "zenity": ["zenity", "--forms", "--title=bench", "--text=Benchmark form with 10 fields"]
        + [f"--add-entry=Field {k}" for k in range(10)],
        "yad": ["yad", "--form", "--title=bench", "--text=Benchmark form with 10 fields"]
        + [f"--field=Field {k}" for k in range(10)],
        "bare PySide6 helper": [PY, str(HERE / "bare_qt.py"), "5000"],
    }
    out: dict[str, Any] = {}
    for name, argv in helpers.items():
        if shutil.which(argv[0]) is None:
            out[name] = {"missing": True}
            log(f"{name} is not installed; skipped")
            continue
        maps: list[float] = []
        paints: list[float] = []
        for _ in range(runs):
            if left_s() < 60:
                break
            xw.drain()
            t0 = time.perf_counter()
            proc = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            seen = xw.wait_window(t0, 10.0)
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
            if seen["mapped"] is not None:
                maps.append(seen["mapped"])
            if seen["painted"] is not None:
                paints.append(seen["painted"])
            time.sleep(0.05)
        out[name] = {
            "mapped_ms": summary(maps),
            "painted_ms": summary(paints),
            "first_run_mapped_ms": maps[0] if maps else None,
        }
        log(f"{name}: launch -> mapped p50 {pct(maps, 50) or float('nan'):.1f} ms (runs {len(maps)})")
    return out


def bench_cold_start(workdir: Path, runs: int) -> dict[str, Any]:
    """Process start -> socket accepting connections (xcb under Xvfb, no request)."""
    times = []
    for i in range(runs):
        if left_s() < 120:
            break
        tray = Tray(workdir, f"cold-{i}")
        try:
            times.append(tray.start() * 1000)
        finally:
            tray.stop()
    log(f"cold start p50 {pct(times, 50):.0f} ms")
    importtime = import_profile()
    return {
        "listening_ms": summary(times),
        "median_ms": statistics.median(times) if times else None,
        "runs_ms": times,
        "slowest_imports_ms": importtime,
    }


def import_profile() -> list[tuple[str, float]]:
    """The largest cumulative imports of the tray app's start-up path (``-X importtime``)."""
    code = (
        "import sys, elicit_tray.cli, elicit_tray.app; "
        "import qasync, PySide6.QtWidgets, elicit_tray.ipc.protocol, elicit_tray.ipc.server, elicit_tray.ui.presenter, "
        "elicit_tray.ui.tray"
    )
    done = subprocess.run([PY, "-X", "importtime", "-c", code], capture_output=True, text=True, timeout=60)
    rows = []
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            name = parts[2].rstrip()
            depth = (len(name) - len(name.lstrip())) // 2
            if depth <= 1:
                rows.append((name.strip(), int(parts[1]) / 1000))
    rows.sort(key=lambda r: -r[1])
    return rows[:10]


def bench_bare_rss(platform_name: str | None, runs: int = 3) -> dict[str, Any]:
    env = dict(os.environ)
    if platform_name:
        env["QT_QPA_PLATFORM"] = platform_name
    values = []
    for _ in range(runs):
        done = subprocess.run(
            [PY, str(HERE / "bare_qt.py"), "500"], env=env, capture_output=True, text=True, timeout=30
        )
        for line in done.stdout.splitlines():
            if line.startswith("{"):
                values.append(json.loads(line)["rss_kib"])
    return {"rss_kib": statistics.median(values) if values else None, "runs_kib": values}


def tail(path: Path, n: int = 1500) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")[-n:]
    except OSError:
        return ""


def bench_scripted(
    workdir: Path,
    sequential: int,
    concurrent: int,
    per_requester: int,
    pings: int,
    soak: int = 1000,
    abandoned: int = 300,
) -> dict[str, Any]:
    """Scripted user (offscreen, arm delay 0): socket round trip with an Accept; ``concurrent``
    requesters; ping; RSS idle, after that warm-up, and after ``soak`` more requests of which
    ``abandoned`` are abandoned (the dialog shown, its requester gone), read once the expired
    dialogs have closed.

    A tray process that dies is recorded (after how many answered requests, its stderr) and
    restarted, and the interrupted phase runs once more on the new process."""
    plan = [{"match": "", "steps": [{"do": "submit"}]}]
    out: dict[str, Any] = {"crashes": []}
    state: dict[str, Any] = {"tray": None, "answered": 0, "generation": 0}

    def start() -> Tray:
        state["generation"] += 1
        tray = Tray(workdir, f"scripted-{state['generation']}", platform_name="offscreen", plan=plan)
        tray.start()
        state["tray"], state["answered"] = tray, 0
        return tray

    def crashed(phase: str) -> bool:
        tray: Tray = state["tray"]
        try:  # a dying process may still be writing its core dump / traceback
            if tray.proc is not None:
                tray.proc.wait(3)
        except subprocess.TimeoutExpired:
            return False
        if tray.proc is None:
            return False
        crash = {
            "phase": phase,
            "answered_before": state["answered"],
            "returncode": tray.proc.returncode,
            "stderr_tail": tail(tray.stderr_path),
        }
        out["crashes"].append(crash)
        log(
            f"the tray app DIED during {phase} after {state['answered']} answered requests "
            f"(exit {tray.proc.returncode}); restarting it"
        )
        start()
        return True

    def call(conn: Conn, method: str, params: dict[str, Any] | None = None) -> float:
        response, ms = conn.call(method, params)
        if method == "elicitation/create":
            if response.get("result", {}).get("action") != "accept":
                raise RuntimeError(f"unexpected answer {response}")
            state["answered"] += 1
        return ms

    def phase(name: str, body: Callable[[], Any]) -> Any:
        for attempt in range(2):
            try:
                return body()
            except (ConnectionError, OSError, RuntimeError) as exc:
                if not crashed(name):
                    raise
                if attempt == 1:
                    log(f"{name}: the tray died again ({exc!r}); giving up on this figure")
                    return None
        return None

    start()
    time.sleep(1.0)
    out["rss_idle_kib"] = rss_kib(state["tray"].pid)
    params = form_params(1, "Proceed?")
    params10 = form_params(10, "Proceed with ten?")

    def one() -> list[float]:
        conn = Conn(state["tray"].socket)
        try:
            return [
                ms
                for i, ms in enumerate(call(conn, "elicitation/create", params) for _ in range(sequential + 10))
                if i >= 10
            ]
        finally:
            conn.close()

    rtts = phase("one requester, 1 field", one) or []
    out["one_requester_ms"] = summary(rtts)
    if rtts:
        log(f"scripted, one requester: p50 {pct(rtts, 50):.2f} ms, p99 {pct(rtts, 99):.2f} ms")

    def ten() -> list[float]:
        conn = Conn(state["tray"].socket)
        try:
            return [call(conn, "elicitation/create", params10) for _ in range(50)]
        finally:
            conn.close()

    out["one_requester_10_fields_ms"] = summary(phase("one requester, 10 fields", ten) or [])

    def many() -> dict[str, Any]:
        results: list[list[float]] = [[] for _ in range(concurrent)]
        errors: list[str] = []
        barrier = threading.Barrier(concurrent)
        socket_path = state["tray"].socket
        warm = Conn(socket_path)  # a restarted process pays its first-dialog costs here, unmeasured
        for _ in range(3):
            call(warm, "elicitation/create", params)
        warm.close()

        def requester(k: int) -> None:
            try:
                c = Conn(socket_path)
                barrier.wait(10)
                for _ in range(per_requester):
                    results[k].append(call(c, "elicitation/create", params))
                c.close()
            except Exception as exc:  # noqa: BLE001
                errors.append(repr(exc))

        t0 = time.perf_counter()
        threads = [threading.Thread(target=requester, args=(k,), daemon=True) for k in range(concurrent)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        wall = time.perf_counter() - t0
        if errors:
            raise ConnectionError(f"{len(errors)} requesters failed: {errors[0]}")
        flat = [ms for r in results for ms in r]
        return {
            "requesters": concurrent,
            **summary(flat),
            "errors": len(errors),
            "throughput_per_s": len(flat) / wall if wall else None,
        }

    out["concurrent"] = phase(f"{concurrent} concurrent requesters", many) or {"requesters": concurrent, "n": 0}
    if out["concurrent"].get("n"):
        c = out["concurrent"]
        log(
            f"scripted, {concurrent} concurrent: p50 {c['p50']:.2f} ms, p99 {c['p99']:.2f} ms, "
            f"{c['throughput_per_s']:.0f} answers/s"
        )

    def ping() -> list[float]:
        conn = Conn(state["tray"].socket)
        try:
            return [call(conn, "ping") for _ in range(pings)]
        finally:
            conn.close()

    ping_rtts = phase("ping", ping) or []
    out["ping_ms"] = summary(ping_rtts)
    log(f"ping: p50 {pct(ping_rtts, 50):.3f} ms, p99 {pct(ping_rtts, 99):.3f} ms")

    samples: list[tuple[int, int | None]] = []
    abandon_params = form_params(1, "Abandoned")
    abandoned_count = {"n": 0}

    def abandon() -> None:
        """A request from a process of its own (the app throttles a process that keeps
        abandoning), whose requester leaves once it is dispatched (its ping answered)."""
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                c = Conn(state["tray"].socket)
                c.send_raw(c.request_bytes("elicitation/create", abandon_params)[1])
                c.call("ping")
                c.close()
                code = 0
            finally:
                os._exit(code)
        os.waitpid(pid, 0)
        abandoned_count["n"] += 1

    out["rss_post_warm_up_kib"] = rss_kib(state["tray"].pid)  # after the phases above (the warm-up)
    goal = state["answered"] + soak - abandoned

    def soak_run() -> int:  # ``soak`` requests, ``abandoned`` of them abandoned, spread evenly
        conn = Conn(state["tray"].socket)
        try:
            k = 0
            while state["answered"] < goal and left_s() > 45:
                k += 1
                if abandoned and abandoned_count["n"] < abandoned and k % max(1, soak // abandoned) == 0:
                    abandon()
                    continue
                call(conn, "elicitation/create", params)
                if state["answered"] % 100 == 0:
                    samples.append((state["generation"], state["answered"], rss_kib(state["tray"].pid)))
            return state["answered"]
        finally:
            conn.close()

    phase(f"soak: {soak} requests, {abandoned} abandoned", soak_run)
    out["rss_right_after_kib"] = rss_kib(state["tray"].pid)
    # Expired dialogs say so for 10 s, then the app trims its heap 1 s after the last window.
    time.sleep(12.0)
    out["abandoned"] = abandoned_count["n"]
    out["rss_samples_kib"] = samples
    out["soak_target"] = soak
    if state["answered"] >= goal:
        out["answered"], out["rss_after_kib"] = state["answered"], rss_kib(state["tray"].pid)
    elif samples:  # the soak never completed: the furthest any process got
        _gen, out["answered"], out["rss_after_kib"] = max(samples, key=lambda g: g[1])
    else:
        out["answered"], out["rss_after_kib"] = state["answered"], rss_kib(state["tray"].pid)
    log(
        f"tray RSS offscreen: idle {out['rss_idle_kib']} KiB, after {out['answered']} requests "
        f"{out['rss_after_kib']} KiB; crashes: {len(out['crashes'])}"
    )
    state["tray"].stop()
    return out


MALFORMED: list[Callable[[int], bytes]] = [
    lambda i: b"this is not json\n",  # -32700, id null
    lambda i: b'{"jsonrpc":"2.0","id":%d,"method":"ping"\n' % i,  # -32700 (truncated)
    lambda i: b"[1,2,3]\n",  # -32600
    lambda i: b'{"jsonrpc":"1.0","id":%d,"method":"ping"}\n' % i,  # -32600
    lambda i: b'\xff\xfe{"id":%d}\n' % i,  # -32700 (invalid UTF-8)
    lambda i: (
        b'{"jsonrpc":"2.0","id":%d,"method":"elicitation/create","params":{"message":"x",'
        b'"requestedSchema":{"type":"object","properties":{"a":{"type":"object"}}}}}\n' % i
    ),  # -32602
    lambda i: b'{"jsonrpc":"2.0","id":%d,"method":"no/such/method"}\n' % i,  # -32601
]


def bench_flood(tray: Tray, xw: XWatch, rate: int, seconds: float) -> dict[str, Any]:
    """``rate`` malformed lines/s for ``seconds`` while a 10-field dialog is open; a ping every
    5 ms on another connection measures how long the UI thread (which runs the event loop)
    is blocked: the proxy for the worst frame time."""
    holder = Conn(tray.socket)
    xw.drain()
    _rid, data = holder.request_bytes("elicitation/create", form_params(10))
    t0 = time.perf_counter()
    holder.send_raw(data)
    seen = xw.wait_window(t0, 5.0)
    if seen["window"] is None:
        return {"error": "the dialog did not appear"}

    pinger = Conn(tray.socket)
    idle_pings = [pinger.call("ping")[1] for _ in range(200)]
    flood = Conn(tray.socket)
    received = {"n": 0, "in_window": 0, "codes": {}}
    stop_reading = threading.Event()
    flood_end = [float("inf")]

    def reader() -> None:
        flood.sock.settimeout(0.2)
        while not stop_reading.is_set():
            try:
                line = flood.readline()
            except TimeoutError:
                continue
            except (ConnectionError, OSError):
                return
            received["n"] += 1
            if time.perf_counter() <= flood_end[0]:
                received["in_window"] += 1
            try:
                code = json.loads(line)["error"]["code"]
            except Exception:  # noqa: BLE001
                code = "?"
            received["codes"][code] = received["codes"].get(code, 0) + 1

    ping_rtts: list[float] = []
    ping_stop = threading.Event()

    def ping_loop() -> None:
        while not ping_stop.is_set():
            ping_rtts.append(pinger.call("ping")[1])
            time.sleep(0.005)

    reader_thread = threading.Thread(target=reader, daemon=True)
    ping_thread = threading.Thread(target=ping_loop, daemon=True)
    reader_thread.start()
    ping_thread.start()
    tick_s = 0.01
    per_tick = max(1, int(rate * tick_s))
    total = int(rate * seconds)
    sent = 0
    start = time.perf_counter()
    while sent < total and time.perf_counter() - start < seconds + 2:
        target = start + (sent // per_tick) * tick_s
        delay = target - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        batch = b"".join(MALFORMED[(sent + k) % len(MALFORMED)](sent + k + 1) for k in range(per_tick))
        flood.send_raw(batch)
        sent += per_tick
    flood_end[0] = time.perf_counter()
    sent_for_s = flood_end[0] - start
    deadline = time.perf_counter() + 3.0
    while received["n"] < sent and time.perf_counter() < deadline:
        time.sleep(0.01)
    ping_stop.set()
    ping_thread.join(5)
    stop_reading.set()
    reader_thread.join(5)

    # the dialog still works: Escape answers cancel
    xw.press_escape(seen["window"])
    holder.sock.settimeout(5)
    after = json.loads(holder.readline())
    for c in (holder, pinger, flood):
        c.close()
    xw.wait_gone(seen["window"], 2.0)
    result = {
        "rate_sent_per_s": sent / sent_for_s if sent_for_s else None,
        "sent": sent,
        "seconds": sent_for_s,
        "responses": received["n"],
        "responses_per_s": received["in_window"] / sent_for_s if sent_for_s else None,
        "error_codes": {str(k): v for k, v in sorted(received["codes"].items(), key=lambda kv: str(kv[0]))},
        "ping_idle_ms": summary(idle_pings),
        "ping_during_flood_ms": summary(ping_rtts),
        "dialog_answer_after_flood": after.get("result"),
    }
    log(
        f"flood: sent {sent} in {sent_for_s:.2f}s, {received['n']} responses "
        f"({result['responses_per_s']:.0f}/s); ping max {max(ping_rtts):.1f} ms during flood"
    )
    return result


def bench_inproc() -> dict[str, Any]:
    done = subprocess.run([PY, str(HERE / "inproc.py")], capture_output=True, text=True, timeout=90)
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            return json.loads(line)
    return {"error": done.stderr[-1000:]}


# -- report ------------------------------------------------------------------------------------
def machine() -> dict[str, Any]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem_kib = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem_kib = int(line.split()[1])
    except OSError:
        pass
    try:
        from PySide6 import __version__ as pyside
    except Exception:  # noqa: BLE001
        pyside = None
    try:
        import elicit_tray

        source = str(Path(elicit_tray.__file__).resolve().parent)
    except ImportError:
        source = None
    try:
        commit = (
            subprocess.run(
                ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=10
            ).stdout.strip()
            or None
        )
        dirty = bool(
            subprocess.run(
                ["git", "-C", str(ROOT), "status", "--porcelain", "--", "src"],
                capture_output=True,
                text=True,
                timeout=10,
            ).stdout.strip()
        )
    except (OSError, subprocess.SubprocessError):
        commit, dirty = None, None
    return {
        "elicit_tray_source": source,
        "git_head": commit,
        "src_modified_in_work_tree": dirty,
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "ram_gib": round(mem_kib / 1024 / 1024, 1) if mem_kib else None,
        "kernel": platform.release(),
        "python": platform.python_version(),
        "pyside6": pyside,
        "display": "Xvfb (" + os.environ.get("DISPLAY", "?") + "), no window manager",
    }


def fmt(v: float | None, unit: str = "ms", digits: int = 1) -> str:
    return "n/a" if v is None else f"{v:.{digits}f} {unit}".strip()


def verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else ("met" if ok else "MISSED")


def build_rows(r: dict[str, Any]) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []

    def add(what: str, measured: str, target: str = "", reference: str = "", ok: bool | None = None) -> None:
        rows.append(
            {
                "what": what,
                "measured": measured,
                "target": target,
                "reference": reference,
                "verdict": (verdict(ok) if ok is not None else "n/a") if target else "",
            }
        )

    lat = r.get("dialog_latency", {})
    inproc = r.get("inproc", {})
    for n in ("1", "10", "50", "100", "200"):
        if n not in lat:
            continue
        if lat[n].get("refused"):
            rt = lat[n]["round_trip_ms"]
            add(
                f"request -> answer, {n} fields",
                f"refused with {lat[n]['error_codes']} in {fmt(rt['p50'], 'ms', 2)} (p50)",
                "<= 60 ms (built and painted)" if n == "200" else "",
                f"the tray app accepts at most {lat[n]['limit']} properties (MAX_PROPERTIES); see the 100-field row",
                None,
            )
            continue
        m, p = lat[n]["mapped_ms"], lat[n]["painted_ms"]
        target, ok = "", None
        if n == "10":
            target, ok = "p50 <= 16 ms (painted)", p["p50"] is not None and p["p50"] <= 16
        if n == "200" or (n == "100" and lat.get("200", {}).get("refused")):
            target, ok = (
                "<= 60 ms (built and painted, p50; set for 200 fields)",
                p["p50"] is not None and p["p50"] <= 60,
            )
        ref = ""
        if n in inproc and "total_ms" in inproc[n]:
            i = inproc[n]
            ref = (
                f"in-process p50: build {i['build_ms']:.1f} + show {i['show_ms']:.1f} "
                f"+ to 1st paint {i['to_first_paint_ms']:.1f} ms"
            )
        add(
            f"request -> window mapped, {n} field(s) (p50 / p95 / max)",
            f"{fmt(m['p50'])} / {fmt(m['p95'])} / {fmt(m['max'])}",
        )
        add(
            f"request -> first paint (XDamage), {n} field(s) (p50 / p95 / max)",
            f"{fmt(p['p50'])} / {fmt(p['p95'])} / {fmt(p['max'])}",
            target,
            ref,
            ok,
        )
        tr = lat[n].get("app_trace")
        if tr and tr["to_painted_ms"]["n"]:
            marks = [tr[f"to_{k}_ms"] for k in ("start", "built", "shown", "painted")]

            def nums(stat: str, marks: list = marks) -> str:
                return " / ".join("n/a" if m[stat] is None else f"{m[stat]:.1f}" for m in marks)

            d = tr["paint_outside_minus_inside_ms"]
            gap = (
                (
                    f"XDamage minus the app's paint, same request: p50 {d['p50']:+.1f} ms "
                    f"(min {d['min']:+.1f}, max {d['max']:+.1f}; n={d['n']})"
                )
                if d["n"]
                else ""
            )
            if tr.get("missing_lines"):
                gap += f"; {tr['missing_lines']} request(s) without a trace line"
            add(
                f"  in the app (ELICIT_TRAY_TRACE), {n} field(s): request -> presenter start / built / "
                "shown / first paint event (p50; p95)",
                f"{nums('p50')} ms; p95 {nums('p95')} ms",
                "",
                gap,
            )
    sc = r.get("scripted", {})
    if sc:
        one, many = sc["one_requester_ms"], sc["concurrent"]
        add(
            "round trip, scripted Accept, 1-field form, 1 requester (p50 / p99)",
            f"{fmt(one['p50'], 'ms', 2)} / {fmt(one['p99'], 'ms', 2)}",
            "p50 <= 1 ms, p99 <= 5 ms",
            "",
            one["p50"] <= 1 and one["p99"] <= 5,
        )
        ten = sc["one_requester_10_fields_ms"]
        add(
            "round trip, scripted Accept, 10-field form, 1 requester (p50 / p99)",
            f"{fmt(ten['p50'], 'ms', 2)} / {fmt(ten['p99'], 'ms', 2)}",
        )
        add(
            f"round trip, scripted Accept, {many['requesters']} concurrent requesters (p50 / p99)",
            f"{fmt(many['p50'], 'ms', 2)} / {fmt(many['p99'], 'ms', 2)} ({many['throughput_per_s']:.0f} answers/s)",
            "p50 <= 1 ms, p99 <= 5 ms",
            "",
            many["p50"] <= 1 and many["p99"] <= 5,
        )
        ping = sc["ping_ms"]
        add("ping round trip (p50 / p99)", f"{fmt(ping['p50'], 'ms', 3)} / {fmt(ping['p99'], 'ms', 3)}")
    mem = r.get("memory", {})
    if mem:
        bx, bo = mem.get("bare_xcb_kib"), mem.get("bare_offscreen_kib")
        add(
            "bare QApplication, one 10-field dialog shown: RSS (xcb / offscreen)",
            f"{fmt(bx and bx / 1024, 'MiB')} / {fmt(bo and bo / 1024, 'MiB')}",
            "",
            "~54 MB (DESIGN.md)",
        )
        ti, ta = mem.get("tray_xcb_idle_kib"), mem.get("tray_xcb_after_kib")
        if ti and bx:
            add(
                "tray app RSS, xcb: idle / after the dialog series",
                f"{fmt(ti / 1024, 'MiB')} ({ti / bx:.2f}x) / {fmt(ta / 1024, 'MiB')} ({ta / bx:.2f}x)",
                "<= 1.35 x bare",
                f"after {mem.get('tray_xcb_requests')} real dialogs",
                ta / bx <= 1.35,
            )
        si, sa = mem.get("tray_offscreen_idle_kib"), mem.get("tray_offscreen_after_kib")
        sw = mem.get("tray_offscreen_post_warm_up_kib")
        if si and bo and sa:
            n_ok = mem.get("tray_offscreen_requests")
            ab = mem.get("tray_offscreen_abandoned") or 0
            add(
                f"tray app RSS, offscreen: idle / after {n_ok + ab} requests ({ab} abandoned)",
                f"{fmt(si / 1024, 'MiB')} ({si / bo:.2f}x) / {fmt(sa / 1024, 'MiB')} ({sa / bo:.2f}x)",
                "<= 1.35 x bare",
                "one process, scripted Accept; read once expired dialogs closed",
                si / bo <= 1.35 and sa / bo <= 1.35,
            )
            if sw:
                ra = mem.get("tray_offscreen_right_after_kib")
                add(
                    "  flat: RSS after the warm-up -> after the 1,000 requests (300 abandoned)",
                    f"{fmt(sw / 1024, 'MiB')} -> {fmt(sa / 1024, 'MiB')} ({(sa - sw) / 1024:+.1f} MiB)",
                    "within 10 MiB",
                    f"right after the last request: {fmt(ra and ra / 1024, 'MiB')} (expired dialogs still on screen)",
                    sa - sw <= 10 * 1024,
                )
    if sc:
        crashes = sc.get("crashes", [])
        first = ""
        if crashes:
            lines = [ln for ln in crashes[0]["stderr_tail"].splitlines() if ln.startswith("Fatal") or "Error" in ln]
            first = lines[0][:90] if lines else f"exit {crashes[0]['returncode']}"
        add(
            "tray app crashes during the scripted run",
            "none"
            if not crashes
            else f"{len(crashes)}: after "
            + ", ".join(str(c["answered_before"]) for c in crashes)
            + " answered requests",
            "none",
            first,
            not crashes,
        )
    cs = r.get("cold_start", {})
    if cs.get("median_ms") is not None:
        add(
            "cold start: process start -> socket listening (median)",
            fmt(cs["median_ms"], "ms", 0),
            "<= 0.5 s",
            f"{len(cs['runs_ms'])} runs, min {min(cs['runs_ms']):.0f} / max {max(cs['runs_ms']):.0f} ms",
            cs["median_ms"] <= 500,
        )
    fl = r.get("flood", {})
    if "responses_per_s" in fl:
        worst = fl["ping_during_flood_ms"]["max"]
        add(
            f"flood {fl['rate_sent_per_s']:.0f} malformed lines/s for {fl['seconds']:.1f} s, a dialog open: "
            "responses/s (all answered?)",
            f"{fl['responses_per_s']:.0f}/s ({fl['responses']}/{fl['sent']})",
            "answered",
            "",
            fl["responses"] >= fl["sent"],
        )
        add(
            "  worst UI stall during the flood (proxy: max ping round trip; p99)",
            f"{fmt(worst)} (p99 {fmt(fl['ping_during_flood_ms']['p99'])})",
            "< 50 ms",
            f"idle ping p50 {fmt(fl['ping_idle_ms']['p50'], 'ms', 2)}",
            worst is not None and worst < 50,
        )
    hp = r.get("helpers", {})
    ours = lat.get("10", {}).get("mapped_ms", {}).get("p50")
    for name, h in hp.items():
        if h.get("missing"):
            add(f"{name}: launch -> window mapped, 10 fields", "not installed")
            continue
        m = h["mapped_ms"]
        ratio = f"{m['p50'] / ours:.1f}x elicit-tray's request -> mapped" if ours and m["p50"] else ""
        if name == "zenity" and ours and m["p50"]:
            add(
                "request -> window mapped, 10 fields: zenity's p50 / elicit-tray's p50 (same run)",
                f"{m['p50'] / ours:.1f}x",
                ">= 10x",
                "DESIGN.md Targets",
                m["p50"] / ours >= 10,
            )
        add(
            f"{name}: launch -> window mapped, 10 fields (p50; min-max)",
            f"{fmt(m['p50'])} ({fmt(m['min'], '', 0)}-{fmt(m['max'], 'ms', 0)})",
            "",
            ratio + ("; reference 130-200 ms" if name != "bare PySide6 helper" else ""),
        )
    return rows


def print_table(rows: list[dict[str, str]]) -> str:
    head = ["what", "measured", "target", "verdict", "reference"]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(" --- " for _ in head) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(row[h].replace("|", "/") for h in head) + " |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer iterations (a smoke run)")
    parser.add_argument("--out", type=Path, default=HERE / "results.json")
    args = parser.parse_args()
    if not os.environ.get("DISPLAY"):
        print("benchmarks/run.py needs an X display: run ./benchmarks/run.sh (it uses xvfb-run)", file=sys.stderr)
        return 2
    q = args.quick
    series = {1: 10, 10: 10, 50: 5, 100: 5, 200: 5} if q else {1: 40, 10: 40, 50: 20, 100: 15, 200: 15}
    results: dict[str, Any] = {"machine": machine(), "started": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    workdir = Path(tempfile.mkdtemp(prefix="elicit-bench-"))
    os.chmod(workdir, 0o700)
    xw = XWatch()
    if not xw.has_damage:
        log("the X server has no DAMAGE extension: first-paint figures are not available")
    try:
        log("cold start")
        results["cold_start"] = bench_cold_start(workdir, 3 if q else 5)
        log("bare QApplication RSS (xcb, offscreen)")
        bare_xcb = bench_bare_rss(None)
        bare_off = bench_bare_rss("offscreen")
        tray = Tray(workdir, "xcb", trace=True)
        tray.start()
        try:
            time.sleep(1.0)
            idle = rss_kib(tray.pid)
            log("request -> window mapped / painted (xcb under Xvfb, warm)")
            results["dialog_latency"] = bench_dialog_latency(tray, xw, series)
            if tray.proc is not None and tray.proc.poll() is not None:
                log("the xcb tray app died; restarting it for the flood")
                tray.start()
            log("flood")
            results["flood"] = bench_flood(tray, xw, rate=1000, seconds=1.0 if q else 3.0)
            time.sleep(0.5)
            after = rss_kib(tray.pid)
            xcb_requests = (
                sum(v["mapped_ms"]["n"] + 3 for v in results["dialog_latency"].values() if "mapped_ms" in v) + 1
            )
        finally:
            tray.stop()
        log("scripted round trips (offscreen)")
        results["scripted"] = bench_scripted(
            workdir,
            sequential=100 if q else 400,
            concurrent=20,
            per_requester=10 if q else 30,
            pings=200 if q else 1000,
        )
        results["memory"] = {
            "bare_xcb_kib": bare_xcb["rss_kib"],
            "bare_offscreen_kib": bare_off["rss_kib"],
            "bare_runs": {"xcb": bare_xcb["runs_kib"], "offscreen": bare_off["runs_kib"]},
            "tray_xcb_idle_kib": idle,
            "tray_xcb_after_kib": after,
            "tray_xcb_requests": xcb_requests,
            "tray_offscreen_idle_kib": results["scripted"]["rss_idle_kib"],
            "tray_offscreen_after_kib": results["scripted"]["rss_after_kib"],
            "tray_offscreen_requests": results["scripted"]["answered"],
            "tray_offscreen_post_warm_up_kib": results["scripted"].get("rss_post_warm_up_kib"),
            "tray_offscreen_right_after_kib": results["scripted"].get("rss_right_after_kib"),
            "tray_offscreen_abandoned": results["scripted"].get("abandoned"),
        }
        log("helpers side by side: zenity, yad, bare PySide6")
        results["helpers"] = bench_helpers(xw, 3 if q else 7)
        log("in-process build/paint breakdown")
        results["inproc"] = bench_inproc()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    results["elapsed_s"] = round(time.monotonic() - STARTED, 1)
    rows = build_rows(results)
    results["table"] = rows
    args.out.write_text(json.dumps(results, indent=2, default=str) + "\n", encoding="utf-8")
    m = results["machine"]
    print(
        f"\nelicit-tray benchmarks — {m['nproc']} CPUs ({m['cpu']}), {m['ram_gib']} GiB RAM, "
        f"Python {m['python']}, PySide6 {m['pyside6']}, {m['display']}; {results['elapsed_s']} s\n"
    )
    print(print_table(rows))
    print(f"\n(JSON: {args.out})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
