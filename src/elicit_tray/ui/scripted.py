"""A scripted user that operates the real dialog widgets with Qt key and mouse events.

Used by the tests and by the headless demo (``elicit-tray serve --scripted-user PLAN``).
Steps use the vocabulary of the elicitation cases in ``tests/cases`` (``do``): ``type``, ``clear``, ``pick``,
``toggle``, ``check``/``uncheck`` (``options``, ``only``), ``paste`` (``text``, ``repeat``:
through the clipboard and Ctrl+V), ``submit``, ``decline``, ``escape``, ``close``, ``open``;
in a URL flow's waiting window (:mod:`~.url_wait`): ``finished`` ("I have finished, check
again"), ``open-again``, ``cancel``.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPushButton, QWidget

from ..schema import pattern
from .base import ElicitationDialog
from .typed_patterns import typed_patterns
from .widgets import FieldWidget

__all__ = ["perform", "QTestHand", "ScriptPlan", "ScriptedUser", "TERMINAL_STEPS"]

log = logging.getLogger(__name__)

#: Steps that end a dialog (a screenshot is taken just before them).
TERMINAL_STEPS = frozenset({"submit", "decline", "escape", "close", "open", "finished", "cancel"})


def _adapter(dialog: ElicitationDialog, name: str) -> FieldWidget:
    rows = getattr(dialog, "rows", {})  # a URL dialog has no fields
    if name not in rows:
        raise KeyError(f"the dialog has no field {name!r}")
    adapter: FieldWidget = rows[name].adapter
    return adapter


def _press(widget: QWidget, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    QTest.keyClick(widget, key, modifier)


class QTestHand:
    """The scripted user's :class:`~elicit_tray.ui.widgets.Hand`: real key and mouse events
    through ``QTest``, the clipboard through ``QGuiApplication``."""

    def click(self, widget: QWidget) -> None:
        QTest.mouseClick(widget, Qt.MouseButton.LeftButton, pos=widget.rect().topLeft() + QPoint(8, 8))

    def press(
        self, widget: QWidget, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
    ) -> None:
        _press(widget, key, modifier)

    def type(self, widget: QWidget, text: str) -> None:
        QTest.keyClicks(widget, text)

    def paste(self, widget: QWidget, text: str) -> None:
        QGuiApplication.clipboard().setText(text)
        _press(widget, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)


_HAND = QTestHand()


def _field_step(dialog: ElicitationDialog, step: dict[str, Any]) -> None:
    """A step on one field: what is done is the adapter's (:class:`~.widgets.FieldWidget`)."""
    do, adapter = step["do"], _adapter(dialog, step["field"])
    if do == "type":
        adapter.type_text(_HAND, step["text"])
    elif do == "paste":  # the clipboard's text, whatever it holds (newlines too), with Ctrl+V
        adapter.paste(_HAND, step["text"] * int(step.get("repeat", 1)))
    elif do == "clear":
        adapter.clear(_HAND)
    elif do == "pick":
        adapter.pick(_HAND, step["option"])
    elif do == "toggle":
        adapter.toggle(_HAND)
    else:  # check, uncheck
        adapter.check(_HAND, set(step["options"]), do == "check", only=bool(step.get("only")))


#: Steps on one field (``field``), done by its adapter.
FIELD_STEPS = frozenset({"type", "paste", "clear", "pick", "toggle", "check", "uncheck"})


def perform(
    dialog: ElicitationDialog,
    steps: list[dict[str, Any]],
    before_final: Callable[[ElicitationDialog], Any] | None = None,
) -> None:
    """Run ``steps`` on ``dialog`` with real input events (synchronously).

    ``before_final(dialog)`` runs right before the first terminal step (screenshots).
    Raises ``KeyError``/``ValueError`` for a step that names no such field or option.
    """
    for step in steps:
        do = step["do"]
        if do in TERMINAL_STEPS and before_final is not None:
            before_final(dialog)
            before_final = None
        if do in FIELD_STEPS:
            _field_step(dialog, step)
        elif do == "submit":
            # A user waits while a field says its value is still being checked (Accept is
            # disabled then, and pressing Enter is refused): a worker's first start may take a
            # second, in a frozen bundle more.
            typed_patterns().settle(pattern.START_TIMEOUT_S)
            button = dialog.commit_button
            if button is not None and button.isEnabled():
                QTest.mouseClick(button, Qt.MouseButton.LeftButton)
            else:  # Accept is disabled: what a keyboard user does is press Enter
                focus = dialog.focusWidget()
                _press(focus if focus is not None and not focus.inherits("QPushButton") else dialog, Qt.Key.Key_Return)
        elif do == "decline":
            QTest.mouseClick(dialog.decline_button, Qt.MouseButton.LeftButton)
        elif do == "escape":
            _press(dialog, Qt.Key.Key_Escape)
        elif do == "close":
            dialog.close()
        elif do in ("open", "finished"):
            if dialog.commit_button is not None and dialog.commit_button.isEnabled():
                QTest.mouseClick(dialog.commit_button, Qt.MouseButton.LeftButton)
        elif do == "open-again":
            again = dialog.findChild(QPushButton, "open-again")
            if again is None:
                raise KeyError("the dialog has no Open again button")
            QTest.mouseClick(again, Qt.MouseButton.LeftButton)
        elif do == "cancel":
            QTest.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
        else:
            raise ValueError(f"unknown step {do!r}")


class ScriptPlan:
    """What the headless demo's scripted user does: the first entry whose ``match`` occurs in
    the request's message gives the ``steps``; the default is ``[{"do": "escape"}]``.

    File format (JSON): ``[{"match": "booking", "steps": [...]}, ...]``. Entries are used in
    order; a matched entry with ``"once": true`` is used only once.
    """

    def __init__(self, entries: list[dict[str, Any]]):
        self.entries = list(entries)

    @classmethod
    def load(cls, path: Path) -> ScriptPlan:
        """Read a plan file (UTF-8 JSON); raises ``OSError``/``ValueError``."""
        return cls(json.loads(Path(path).read_text(encoding="utf-8")))

    def steps_for(self, message: str) -> list[dict[str, Any]]:
        """The steps for a request with ``message``."""
        for entry in self.entries:
            if entry["match"] in message:
                if entry.get("once"):
                    self.entries.remove(entry)
                return list(entry["steps"])
        return [{"do": "escape"}]


class ScriptedUser:
    """The presenter's ``on_shown`` hook of the headless demo: goes to one dialog at a time, in
    the order they appeared (as a user would: a dialog arms only once the user went to it),
    performs the steps its :class:`ScriptPlan` gives for the message once it is armed, and saves
    a PNG of the dialog (``NN-mode-message.png`` in ``screenshot_dir``) just before the final
    step."""

    def __init__(self, plan: ScriptPlan, screenshot_dir: Path | None = None):
        self.plan = plan
        self.screenshot_dir = screenshot_dir
        self._shots = 0
        self._queue: list[ElicitationDialog] = []
        self._windows = 0  # windows seen so far (each numbered in its "scripted_window" property)

    def __call__(self, dialog: ElicitationDialog) -> None:
        self._say_window(dialog)
        self._queue.append(dialog)
        dialog.ended.connect(lambda: self._done(dialog))  # answered, or expired: on to the next
        dialog.destroyed.connect(lambda *_: self._done(dialog))
        if len(self._queue) == 1:
            self._go_to(dialog)

    def _say_window(self, dialog: ElicitationDialog) -> None:
        """One stderr line per window shown and gone (``[tray] window 3 shown: UrlDialog``,
        ``[tray] window 3 round: UrlWaitDialog``, ``[tray] window 3 gone``): what the tests
        of a process read as its windows list."""
        number = dialog.property("scripted_window")
        if number is None:
            self._windows += 1
            number = self._windows
            dialog.setProperty("scripted_window", number)
            print(f"[tray] window {number} shown: {type(dialog).__name__}", file=sys.stderr, flush=True)
            dialog.destroyed.connect(lambda *_: print(f"[tray] window {number} gone", file=sys.stderr, flush=True))
        else:
            print(f"[tray] window {number} round: {type(dialog).__name__}", file=sys.stderr, flush=True)

    def _go_to(self, dialog: ElicitationDialog) -> None:
        steps = self.plan.steps_for(dialog.request.message or "")
        started = False

        def go() -> None:
            nonlocal started
            if started:  # arms again after each return of the focus; act once
                return
            started = True
            try:
                perform(dialog, steps, before_final=self._shoot)
            except Exception:  # a broken plan must not take the app down
                log.exception("scripted user failed")

        def go_to_it() -> None:  # as a user who chose it in the tray menu: engaged when it is active
            dialog.arming.welcome()
            dialog.raise_()
            dialog.activateWindow()

        def lost(engaged: bool) -> None:
            # Another dialog took the focus before this one armed (a platform that activates
            # every new window, as offscreen does): the user goes back to the one at hand, but
            # only while it is the one at hand (an expired dialog pulling the focus back from
            # the next one would take turns with it for ever).
            if not engaged and not started and self._queue[:1] == [dialog]:
                QTimer.singleShot(0, dialog, go_to_it)

        dialog.armed.connect(go)
        dialog.arming.engagement_changed.connect(lost)
        go_to_it()
        if dialog.is_armed:
            go()

    def _done(self, dialog: ElicitationDialog) -> None:
        if dialog in self._queue:
            first = self._queue[0] is dialog
            self._queue.remove(dialog)
            if first and self._queue:
                self._go_to(self._queue[0])

    def _shoot(self, dialog: ElicitationDialog) -> None:
        if self.screenshot_dir is None:
            return
        from .presenter import save_screenshot

        self._shots += 1
        slug = "".join(c if c.isalnum() else "-" for c in (dialog.request.message or "")[:40]).strip("-").lower()
        path = save_screenshot(dialog, self.screenshot_dir, f"{self._shots:02d}-{dialog.request.mode}-{slug}")
        print(f"[tray] saved {path}", file=sys.stderr, flush=True)
