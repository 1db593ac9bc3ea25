"""elicit-tray benchmarks: latency, round trips, memory, cold start, flood, and zenity/yad side
by side, in one run. Prints a table and writes the same figures to ``benchmarks/results.json``.

Run it with ``./benchmarks/run.sh`` (sets up, installs zenity/yad/Xvfb when root, and runs
``benchmarks/run.py`` under ``xvfb-run -a``). It needs an X display (for the window-mapped
figures) and ``python-xlib`` (MapNotify and Damage events are read straight from the X server).

Every loop is bounded in count and in time; all traffic goes over Unix sockets in a private
temporary directory. Nothing here is a pass/fail test: figures are printed next to the targets
of ``shared/DESIGN.md`` "Targets".

One module per measured thing, each a ``bench_*`` function returning a JSON-able dict:

- :mod:`.latency`: request -> window mapped / painted (xcb, warm), 1 to 200 dialogs at once
- :mod:`.scripted`: scripted round trips offscreen, pings, RSS through a soak
- :mod:`.flood`: malformed lines at a rate while a dialog is open: the UI thread's stall
- :mod:`.startup`: cold start to "listening", the import profile
- :mod:`.memory`: a bare QApplication's RSS, the floor for the tray app's
- :mod:`.zenity`: zenity, yad and a bare PySide6 helper, launch -> mapped
- :mod:`.inproc`: the in-process build/paint breakdown (``benchmarks/inproc.py``)

and what they share: :mod:`.common` (time budget, log, statistics, RSS), :mod:`.tray` (the app
under test and a client), :mod:`.xwatch` (the X server's events), :mod:`.report` (machine,
rows, table), :mod:`.main` (the run in order). The helper scripts the benchmarks start in their
own processes (``bare_qt.py``, ``inproc.py``, ``forms.py``) and the separate ``memory.py``,
``memprobe.py`` and ``wrap_bench.py`` stay in ``benchmarks/``.
"""
