"""``elicit-tray serve`` in this process, with a memory probe for finding where memory goes.

    python benchmarks/memprobe.py OUT.jsonl -- --socket PATH serve [serve options]

Every SIGUSR1 appends one JSON line to ``OUT.jsonl``: RSS (KiB, ``/proc/self/status``), glibc
``mallinfo2`` (bytes: ``arena`` the main heap, ``uordblks`` in use, ``fordblks`` free in it,
``hblkhd`` mmapped blocks), RSS by mapping (KiB, ``/proc/self/smaps``), live Qt widgets and wrapped QObjects by class, Python objects by
type (after ``gc.collect()``), asyncio tasks and handles, and the traced Python heap (bytes) when
``PYTHONTRACEMALLOC`` is set. SIGUSR2 does the same, then runs the experiments that tell which
part is reclaimable: ``QPixmapCache.clear()``, then ``malloc_trim(0)``, with a reading after
each. With tracing on, the traced heap comes grouped by package, and
``ELICIT_MEMPROBE_LINES=/src/elicit_tray/`` adds the top source lines under that path.
``ELICIT_MEMPROBE_BLOCK=ssl,...`` makes those modules unimportable (an experiment: what
they cost). Lines carry a ``seq`` number so that a caller can wait for its own.

Not used by the app; a diagnostic for ``shared/notes/memory.md`` and ``benchmarks/memory.py``.
"""

from __future__ import annotations

import collections
import ctypes
import gc
import json
import os
import signal
import sys
import time
import tracemalloc
from typing import Any

_libc = ctypes.CDLL("libc.so.6")


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


_libc.mallinfo2.restype = _MallInfo2


def status_kib() -> dict[str, int]:
    """VmRSS, RssAnon, RssFile in KiB."""
    out = {}
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            key = line.split(":", 1)[0]
            if key in ("VmRSS", "RssAnon", "RssFile"):
                out[key] = int(line.split()[1])
    return out


def mallinfo() -> dict[str, int]:
    """glibc's main-arena figures in bytes."""
    m = _libc.mallinfo2()
    return {k: int(getattr(m, k)) for k in ("arena", "uordblks", "fordblks", "hblkhd", "keepcost")}


def smaps_kib() -> dict[str, int]:
    """RSS (KiB) by what is mapped (``/proc/self/smaps``): a file's base name (all its mappings
    together), ``[heap]``, ``[anon]`` for anonymous mappings, ``[stack]`` ..."""
    out: collections.Counter[str] = collections.Counter()
    name = "[anon]"
    with open("/proc/self/smaps", encoding="utf-8", errors="replace") as f:
        for line in f:
            first = line.split(None, 1)[0]
            if "-" in first and not first.endswith(":"):  # a mapping's header line
                fields = line.split(None, 5)
                name = fields[5].strip().rsplit("/", 1)[-1] if len(fields) > 5 else "[anon]"
            elif first == "Rss:":
                out[name] += int(line.split()[1])
    return dict(out)


def reading() -> dict[str, Any]:
    return {
        "t": time.monotonic(),
        **status_kib(),
        "mallinfo": mallinfo(),
        "traced_bytes": tracemalloc.get_traced_memory()[0] if tracemalloc.is_tracing() else None,
    }


_baseline_types: collections.Counter[str] | None = None
_baseline_modules: set[str] | None = None
_seq = 0


def snapshot(experiments: bool) -> dict[str, Any]:
    global _baseline_types, _baseline_modules, _seq
    import shiboken6
    from PySide6.QtGui import QPixmapCache
    from PySide6.QtWidgets import QApplication

    _seq += 1
    gc.collect()
    out: dict[str, Any] = {"seq": _seq, **reading(), "smaps": smaps_kib()}
    widgets = QApplication.allWidgets()
    out["widgets"] = len(widgets)
    out["top_level"] = collections.Counter(
        type(w).__name__ for w in QApplication.topLevelWidgets() if w.isVisible()
    ).most_common(8)
    del widgets
    try:
        wrappers = shiboken6.Shiboken.getAllValidWrappers()
        out["wrappers"] = len(wrappers)
        out["wrappers_by_type"] = collections.Counter(type(w).__name__ for w in wrappers).most_common(12)
        del wrappers
    except AttributeError:
        pass
    types = collections.Counter(type(o).__qualname__ for o in gc.get_objects())
    out["py_objects"] = sum(types.values())
    if _baseline_types is None:
        _baseline_types = types
    grown = types - _baseline_types
    out["py_types_grown"] = grown.most_common(12)
    if _baseline_modules is None:
        _baseline_modules = set(sys.modules)
    out["modules"] = len(sys.modules)
    out["modules_new"] = sorted({m.split(".")[0] for m in set(sys.modules) - _baseline_modules})
    try:
        import asyncio

        loop = asyncio.get_event_loop()
        out["asyncio_tasks"] = len(asyncio.all_tasks(loop))
    except Exception:  # noqa: BLE001
        pass
    out["pixmap_cache_limit_kib"] = QPixmapCache.cacheLimit()
    if tracemalloc.is_tracing():
        traced = tracemalloc.take_snapshot()  # one snapshot for both readings (it is slow)
        out["traced_by_package"] = traced_by_package(traced)
        if os.environ.get("ELICIT_MEMPROBE_LINES"):
            prefix = os.environ["ELICIT_MEMPROBE_LINES"]
            out["traced_lines"] = [
                (f"{s.traceback[0].filename.rsplit('/', 2)[-1]}:{s.traceback[0].lineno}", s.size, s.count)
                for s in traced.statistics("lineno")
                if prefix in s.traceback[0].filename
            ][:15]
    if experiments:
        QPixmapCache.clear()
        out["after_pixmap_cache_clear"] = reading()
        _libc.malloc_trim(0)
        out["after_malloc_trim"] = reading()
    return out


def traced_by_package(snapshot: tracemalloc.Snapshot, top: int = 25) -> list[tuple[str, int]]:
    """The traced Python heap (bytes) by where it was allocated: the top-level package of the
    allocating file (``elicit_tray.ui``, ``jsonschema``, ``<stdlib>.asyncio``, ...)."""
    sizes: collections.Counter[str] = collections.Counter()
    for stat in snapshot.statistics("filename"):
        path = stat.traceback[0].filename
        parts = path.split("/site-packages/", 1) if "/site-packages/" in path else None
        if parts:
            name = "/".join(parts[1].split("/")[:1])
        elif "/src/elicit_tray/" in path:
            name = "elicit_tray." + path.split("/src/elicit_tray/", 1)[1].split("/")[0]
        elif "/lib/python3" in path:
            rest = path.split("/lib/python3", 1)[1].split("/", 1)[-1]
            name = "<stdlib>." + rest.split("/")[0]
        else:
            name = path
        sizes[name.removesuffix(".py")] += stat.size
    return sizes.most_common(top)


def main() -> int:
    out_path = sys.argv[1]
    argv = sys.argv[3:] if sys.argv[2:3] == ["--"] else sys.argv[2:]

    def handler(signum: int, _frame: object) -> None:
        try:
            data = snapshot(signum == signal.SIGUSR2)
        except Exception as exc:  # noqa: BLE001 - a probe must not stop the app
            data = {"seq": _seq, "error": repr(exc)}
        with open(out_path, "a", encoding="utf-8") as f:
            f.write(json.dumps(data) + "\n")

    for name in filter(None, os.environ.get("ELICIT_MEMPROBE_BLOCK", "").split(",")):
        sys.modules[name] = None  # an experiment: what the app costs without this module
    signal.signal(signal.SIGUSR1, handler)
    signal.signal(signal.SIGUSR2, handler)
    from elicit_tray.cli import main as cli_main

    print(f"memprobe pid {os.getpid()}", file=sys.stderr, flush=True)
    return cli_main(argv)


if __name__ == "__main__":
    sys.exit(main())
