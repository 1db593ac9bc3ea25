"""The X server side: windows mapped and first painted, read straight from the X server
(MapNotify and Damage events, ``python-xlib``)."""

from __future__ import annotations

import select
import time
from typing import Any


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
