"""The Qt side: widget registry, dialogs, presenter, tray icon. Only this package builds widgets.

Importing it imports PySide6 and stops shiboken6 from reading the source of every module
imported after it (:func:`_skip_source_scan`); the app imports it before anything else Qt.
"""

from __future__ import annotations

from types import ModuleType

import PySide6.QtCore  # noqa: F401 - loads shiboken6 and its import hook first


def _uses_pyside(module: ModuleType) -> bool:
    """Whether ``module`` refers to PySide6 (a PySide6 module, class or function in its
    globals): the question shiboken6 asks of each imported module, answered without its source."""
    for value in list(vars(module).values()):
        name = value.__name__ if isinstance(value, ModuleType) else getattr(value, "__module__", None)
        if isinstance(name, str) and name.startswith("PySide6"):
            return True
    return False


def _skip_source_scan() -> None:
    """shiboken6 replaces ``__import__``; for each module imported after PySide6 it calls
    ``shibokensupport.feature._mod_uses_pyside``, which reads the module's whole source with
    ``inspect.getsource`` (to find the word "PySide6", for ``from __feature__ import ...``). That
    leaves every source file's lines in ``linecache`` for the life of the process: measured 4.5
    MiB of the Python heap at idle and 7.1 MiB after the first answers, about 7 MiB of RSS
    (``benchmarks/memory.py``). The app uses no ``__feature__``; the same answer comes
    from the module's globals. Where a PySide6 release has no such hook nothing changes."""
    try:
        from shibokensupport import feature  # type: ignore[import-not-found]
    except ImportError:
        return
    if callable(getattr(feature, "_mod_uses_pyside", None)):
        feature._mod_uses_pyside = _uses_pyside


_skip_source_scan()
