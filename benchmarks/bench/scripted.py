"""Scripted round trips offscreen: sequential and concurrent requests answered by the
scripted user, pings, and RSS through a soak with abandoned dialogs."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .common import form_params, left_s, log, pct, rss_kib, summary, tail
from .tray import Conn, Tray


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
