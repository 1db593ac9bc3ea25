"""shiboken6 must not read (and keep) the source of every module imported after PySide6
(issue 11 §2: ~7 MiB of linecache in the tray app)."""

from __future__ import annotations

import importlib
import linecache
import sys
import types

import elicit_tray.ui as ui


def test_a_module_imported_after_pyside6_leaves_no_source_in_linecache(tmp_path, monkeypatch):
    source = tmp_path / "et_scan_probe_mod.py"
    source.write_text("from PySide6.QtCore import QObject\nVALUE = 1\n" + "# padding\n" * 200)
    monkeypatch.syspath_prepend(str(tmp_path))
    linecache.clearcache()
    try:
        module = __import__("et_scan_probe_mod")  # the import statement's path (importlib has no hook)
        assert module.VALUE == 1
        assert str(source) not in linecache.cache
    finally:
        sys.modules.pop("et_scan_probe_mod", None)


def test_the_hook_still_tells_modules_that_use_pyside6_from_others():
    from PySide6 import QtWidgets
    from PySide6.QtCore import QObject

    qt_class = types.ModuleType("uses_class")
    qt_class.QObject = QObject
    qt_module = types.ModuleType("uses_module")
    qt_module.QtWidgets = QtWidgets
    plain = types.ModuleType("plain")
    plain.json = importlib.import_module("json")
    plain.answer = 42
    assert [ui._uses_pyside(m) for m in (qt_class, qt_module, plain)] == [True, True, False]


def test_the_hook_in_place_is_ours():
    from shibokensupport import feature

    assert feature._mod_uses_pyside is ui._uses_pyside
