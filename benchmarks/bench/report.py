"""The report: the machine, the table rows next to their targets, and the table itself."""

from __future__ import annotations

import os
import platform
import subprocess
from pathlib import Path
from typing import Any

from .common import ROOT


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
