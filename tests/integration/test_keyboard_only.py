"""Every case of ``shared/cases/forms.jsonl``, answered with real key events only (xdotool on
Xvfb, the tray app on the xcb platform), gets the same JSON as the mouse-driven tests.

Keys a keyboard user would press: Alt+<mnemonic> to reach a field (its label shows the
underlined letter), typing, arrows in a radio group, Home/Down in a combo box, Tab inside a
multi-select group, Space to toggle, Ctrl+V to paste what the X clipboard holds (put there by
``xclip``, as another application would), Enter to submit, Alt+D to decline, Escape to cancel.
The ``close`` step (the window's close button) is a pointer action and is left out here. A case's
``env`` (e.g. ``TZ``) is the tray app's environment.
"""

from __future__ import annotations

import contextlib
import json
import select
import shutil
import socket
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

from elicit_tray.schema import FieldKind, parse_requested_schema
from elicit_tray.ui.registry import WidgetRegistry
from elicit_tray.ui.widgets import assign_mnemonics
from tests import rpc
from tests.conftest import load_cases
from tests.integration.xwindows import Windows, needs_x, xcb_tray

pytestmark = needs_x

#: The English buttons' mnemonics (Decline, Close, Accept) are not given to fields.
BUTTON_LETTERS = "dca"


def _interactions():
    for case in load_cases("forms.jsonl"):
        for index, interaction in enumerate(case["interactions"]):
            expect = interaction["expect"]
            if "error" in expect or any(s["do"] == "close" for s in interaction["steps"]):
                continue
            yield pytest.param(case, interaction, id=f"{case['id']}-{index}")


class KeyboardUser:
    """Turns case steps into the keys a keyboard user presses in the dialog for ``params``."""

    def __init__(self, params: dict[str, Any]):
        self.spec = parse_requested_schema(params["requestedSchema"])
        titles = [f.title for f in self.spec.fields]
        self.mnemonic: dict[str, str | None] = {}
        for field, text in zip(self.spec.fields, assign_mnemonics(titles, reserved=BUTTON_LETTERS), strict=True):
            at = text.replace("&&", "").find("&")
            self.mnemonic[field.name] = text.replace("&&", "")[at + 1].lower() if at >= 0 else None
        self.radio = {f.name: WidgetRegistry().key(f) == "radio" for f in self.spec.fields}
        self.checked = {
            f.name: (list(f.default) if isinstance(f.default, list) else f.default) for f in self.spec.fields
        }

    def tab_stops(self, name: str) -> int:
        """How many Tab presses cross field ``name``."""
        field = self.spec.field(name)
        if field.kind is FieldKind.MULTI_SELECT:
            return len(field.options)
        if field.kind in (FieldKind.DATE, FieldKind.DATETIME) and not field.required:
            return 2  # the picker and its Clear button
        return 1

    def reach(self, name: str) -> list[str]:
        """Keys that focus field ``name``: Alt+its letter, or Tab on from an earlier field's."""
        names = [f.name for f in self.spec.fields]
        index = names.index(name)
        for earlier in range(index, -1, -1):
            letter = self.mnemonic[names[earlier]]
            if letter:
                tabs = sum(self.tab_stops(n) for n in names[earlier:index])
                return ["key", f"alt+{letter}", *(["Tab"] * tabs)]
        raise AssertionError(f"{name} cannot be reached from any field with a mnemonic")

    def keys(self, step: dict[str, Any]) -> list[list[str]]:
        """xdotool invocations (``key ...`` or ``type ...`` argument lists) for one step."""
        do = step["do"]
        if do == "submit":
            return [["key", "Return"]]
        if do == "decline":
            return [["key", "alt+d"]]
        if do == "escape":
            return [["key", "Escape"]]
        name = step["field"]
        field = self.spec.field(name)
        reach = self.reach(name)
        if do == "type":
            return [reach, ["type", "--delay", "20", "--", step["text"]]]
        if do == "clear":
            return [reach, ["key", "ctrl+a", "BackSpace"]]
        if do == "toggle":
            return [reach, ["key", "space"]]
        if do == "paste":  # the clipboard holds the text (see Clipboard)
            return [reach, ["key", "ctrl+v"]]
        values = [o.value for o in field.options]
        if do == "pick":
            target = values[[o.title for o in field.options].index(step["option"])]
            if self.radio[name]:
                current = values.index(self.checked[name]) if self.checked[name] in values else None
                self.checked[name] = target
                if current is None:  # nothing checked: arrows move the focus, Space checks
                    return [reach, ["key", *(["Down"] * values.index(target)), "space"]]
                delta = values.index(target) - current
                return [reach, ["key", *(["Down"] * delta if delta > 0 else ["Up"] * -delta)]] if delta else [reach]
            index = values.index(target) + (0 if field.required else 1)  # optional combos start with "Not set"
            return [reach, ["key", "Home", *(["Down"] * index)]]
        if do in ("check", "uncheck"):
            assert field.kind is FieldKind.MULTI_SELECT
            wanted = set(step["options"])
            chosen = set(self.checked[name] or [])
            presses: list[str] = []
            for position, option in enumerate(field.options):
                if option.title in wanted:
                    on = do == "check"
                elif do == "check" and step.get("only"):
                    on = False
                else:
                    on = option.value in chosen
                if on != (option.value in chosen):
                    presses += ["space"]
                    (chosen.add if on else chosen.discard)(option.value)
                if position < len(field.options) - 1:
                    presses += ["Tab"]
            self.checked[name] = [o.value for o in field.options if o.value in chosen]
            return [reach, ["key", *presses]]
        raise ValueError(do)


class Clipboard:
    """The X clipboard, owned by an ``xclip`` this test starts and stops (by its pid)."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None

    def hold(self, text: str) -> None:
        """Own the CLIPBOARD selection with ``text`` (UTF-8); returns once xclip owns it (it
        says so on stderr with -verbose, after XSetSelectionOwner)."""
        self.release()
        assert shutil.which("xclip"), "xclip is missing: run ./scripts/setup.sh"
        self.proc = subprocess.Popen(
            ["xclip", "-verbose", "-selection", "clipboard", "-i"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(text.encode())
        self.proc.stdin.close()
        for line in self.proc.stdout:
            if line.startswith(b"Waiting for selection requests"):
                return
        raise AssertionError("xclip did not take the clipboard")

    def release(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=30)
            assert self.proc.stdout is not None
            self.proc.stdout.close()
            self.proc = None


@pytest.fixture(scope="module")
def trays() -> Iterator[Any]:
    """``trays(env)``: a tray app with the case's environment, one per distinct ``env``."""
    started: dict[tuple[tuple[str, str], ...], Any] = {}
    with contextlib.ExitStack() as stack:

        def get(env: dict[str, str]) -> Any:
            key = tuple(sorted(env.items()))
            if key not in started:
                started[key] = stack.enter_context(xcb_tray(LANGUAGE="en", LC_ALL="C.UTF-8", **env))
            return started[key]

        yield get


@pytest.fixture
def clipboard() -> Iterator[Clipboard]:
    board = Clipboard()
    yield board
    board.release()


windows = Windows()


@pytest.mark.parametrize(("case", "interaction"), list(_interactions()))
def test_a_keyboard_alone_gets_the_same_json_as_the_mouse(trays, clipboard, case, interaction):
    user = KeyboardUser(case["params"])
    tray = trays(case.get("env", {}))
    with socket.socket(socket.AF_UNIX) as conn:
        conn.settimeout(30)
        conn.connect(str(tray))
        conn.sendall(rpc.create_line(1, case["params"]))
        windows.engage_new()
        for step in interaction["steps"]:
            if step["do"] == "paste":
                clipboard.hold(step["text"] * int(step.get("repeat", 1)))
            for command in user.keys(step):
                subprocess.run(["xdotool", *command], check=True, timeout=30)
        expect = interaction["expect"]
        if "result" in expect:
            reply = json.loads(conn.makefile(encoding="utf-8").readline())
            assert reply == {"jsonrpc": "2.0", "id": 1, "result": expect["result"]}
        else:  # blocked: nothing has come back; Escape then answers cancel, and only that
            assert select.select([conn], [], [], 0.5)[0] == []
            subprocess.run(["xdotool", "key", "Escape"], check=True, timeout=30)
            reply = json.loads(conn.makefile(encoding="utf-8").readline())
            assert reply == {"jsonrpc": "2.0", "id": 1, "result": {"action": "cancel"}}
