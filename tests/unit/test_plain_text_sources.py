"""No surface of the UI code bypasses the one way of showing text as it is (ui/labels.py): a scan
of the source (AST) for the Qt calls that would interpret markup or special characters.

- ``setToolTip(x)``: ``x`` is ``tooltip_text(...)`` or built only of string constants and
  ``translate(...)`` calls (the app's own words); ``set_tooltip`` is the helper itself.
- ``setWindowTitle(x)``: ``x`` is ``window_title(...)`` or one ``translate(...)`` of constants.
- ``showMessage(title, body, ...)``: ``body`` comes from ``self.notification(...)`` in the same
  function (which escapes it for the notification path in use).
- ``QMessageBox.warning/question/...`` (which guess rich text): never; ``plain_message_box``.
- ``QLabel(x)`` (``Qt.AutoText``): ``x`` empty or the app's own words; ``setTextFormat`` other
  than ``PlainText`` only in the URL dialog's host label (its own markup, every piece escaped).
- ``QToolTip.showText``, ``setWhatsThis``, ``setStatusTip``: never.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

UI = Path(__file__).resolve().parents[2] / "src" / "elicit_tray" / "ui"
MODULES = sorted(UI.glob("*.py"))
#: (module, the argument's source) of setToolTip calls whose text is the app's own, by name.
OWN_WORDS = {("settings_window.py", "why")}
#: Functions that return the app's own translated words (no server text).
OWN_FUNCTIONS = {"translate", "_waiting"}
_STATIC_BOXES = {"warning", "question", "information", "critical", "about"}


def _own_words(node: ast.AST) -> bool:
    """Whether ``node`` is made only of string constants and ``translate(...)`` calls of them."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in OWN_FUNCTIONS:
        return all(isinstance(a, ast.Constant) or _attr_of_row(a) or isinstance(a, ast.Name) for a in node.args)
    if isinstance(node, ast.BinOp):
        return _own_words(node.left) and _own_words(node.right)
    if isinstance(node, ast.IfExp):
        return _own_words(node.body) and _own_words(node.orelse)
    return False


def _attr_of_row(node: ast.AST) -> bool:
    """``row.label``-style arguments of translate: a table row's English source text."""
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)


def _called(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name


def _functions(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    """Each node -> the function it is in."""
    owner: dict[ast.AST, ast.AST] = {}
    for function in ast.walk(tree):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(function):
                owner[node] = function
    return owner


def _bypasses(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    owner = _functions(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        where = f"{path.name}:{node.lineno}"
        method = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        first = node.args[0] if node.args else None
        if method == "setToolTip" and first is not None:
            in_helper = getattr(owner.get(node), "name", "") == "set_tooltip"
            if not (in_helper or _called(first, "tooltip_text") or _own_words(first)):
                if (path.name, ast.unparse(first)) not in OWN_WORDS:
                    found.append(f"{where} setToolTip({ast.unparse(first)})")
        elif method == "setWindowTitle" and first is not None:
            if not (_called(first, "window_title") or _own_words(first)):
                found.append(f"{where} setWindowTitle({ast.unparse(first)})")
        elif method == "showMessage":
            body = node.args[1] if len(node.args) > 1 else None
            function = owner.get(node)
            made = any(
                isinstance(a, ast.Assign)
                and isinstance(a.value, ast.Call)
                and isinstance(a.value.func, ast.Attribute)
                and a.value.func.attr == "notification"
                and isinstance(body, ast.Name)
                and body.id in {n.id for t in a.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
                for a in (ast.walk(function) if function is not None else ())
            )
            if not made:
                found.append(f"{where} showMessage without self.notification(...)")
        elif isinstance(func, ast.Attribute) and method in _STATIC_BOXES:
            if isinstance(func.value, ast.Name) and func.value.id == "QMessageBox":
                found.append(f"{where} QMessageBox.{method} guesses rich text")
        elif method == "QLabel" and first is not None and not _own_words(first):
            found.append(f"{where} QLabel({ast.unparse(first)}) is AutoText")
        elif method == "setTextFormat" and first is not None and not ast.unparse(first).endswith("PlainText"):
            if not (path.name == "url_dialog.py" and getattr(owner.get(node), "name", "") == "__init__"):
                found.append(f"{where} setTextFormat({ast.unparse(first)})")
        elif method in ("setWhatsThis", "setStatusTip") or (
            method == "showText" and isinstance(func, ast.Attribute) and ast.unparse(func.value) == "QToolTip"
        ):
            found.append(f"{where} {method}")
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_ui_module_shows_text_past_the_plain_text_helpers(path):
    assert _bypasses(path) == []


def test_the_scan_finds_each_kind_of_bypass(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "def f(w, server, body):\n"
        "    w.setToolTip(server)\n"
        "    w.setWindowTitle(server)\n"
        "    w.setWindowTitle(translate('D', '{s}').format(s=server))\n"
        "    tray.showMessage('t', body)\n"
        "    QMessageBox.warning(w, 't', server)\n"
        "    QLabel(server)\n"
        "    w.setTextFormat(Qt.TextFormat.RichText)\n"
        "    QToolTip.showText(p, server)\n"
        "    w.setToolTip(tooltip_text(server))\n"
        "    w.setWindowTitle(window_title(server))\n"
        "    w.setToolTip(translate('D', 'ours'))\n"
    )
    assert [line.split(" ", 1)[1].split("(")[0] for line in _bypasses(bad)] == [
        "setToolTip",
        "setWindowTitle",
        "setWindowTitle",
        "showMessage without self.notification",
        "QMessageBox.warning guesses rich text",
        "QLabel",
        "setTextFormat",
        "showText",
    ]
