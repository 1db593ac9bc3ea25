"""Where the keyboard focus goes on the desktop, and giving it back to where the user was.

docs/design.md "UI rules" (only a deliberate act answers). Focus never engages a dialog
(:mod:`~elicit_tray.ui.arming`); this module keeps keys flowing to the window the user is
typing into where the platform allows it:

- **X11** (``xcb``): a connection of our own to the X server follows ``_NET_ACTIVE_WINDOW``
  (EWMH) on the root window, so the app knows the last windows the user was in that are not
  its own, and the top-level windows that map and unmap (``SubstructureNotify``; menus, tooltips
  and a window switcher's popup are override-redirect and do not count). A dialog that gets the
  focus without the user's act (the window manager's fallback when a window over it closed, or
  a focus-on-map policy), and a dialog that closes while it has the focus, hand the focus back to
  the user's last window first (``XSetInputFocus``, then a ``_NET_ACTIVE_WINDOW`` request with
  source indication 2 so that the window manager agrees), so the user's next keys reach it
  instead of the next waiting dialog.
- **Wayland**: a client can neither see other windows nor give the focus away; a compositor
  that focuses every new window (sway) keeps doing so, and the dialog refuses the keys
  (:mod:`~elicit_tray.ui.arming`).

It also tells which keys are held down now (``XQueryKeymap``), for arming.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import time
from collections.abc import Callable

__all__ = ["FALLBACK_MS", "XDesktop", "desktop", "keys_held"]

log = logging.getLogger(__name__)

#: A focus that reaches a dialog within this time (ms) after a top-level window mapped or
#: unmapped, with no keyboard or pointer input since, follows that change (the window
#: manager's choice), not an act of the user.
FALLBACK_MS = 300

# X protocol constants (X11/X.h).
_PROPERTY_CHANGE_MASK = 1 << 22
_SUBSTRUCTURE_NOTIFY_MASK = 1 << 19
_DESTROY_NOTIFY, _UNMAP_NOTIFY, _MAP_NOTIFY, _PROPERTY_NOTIFY, _CLIENT_MESSAGE = 17, 18, 19, 28, 33
_IS_VIEWABLE = 2
_REVERT_TO_PARENT = 2
_XA_WINDOW = 33
_MRU = 8  # how many of the user's last windows are remembered


class _XEvent(ctypes.Union):
    """XEvent (192 bytes on LP64); only the fields read here, at their LP64 offsets."""

    _fields_ = [("type", ctypes.c_int), ("longs", ctypes.c_ulong * 24)]


class _XClientMessage(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_int),
        ("serial", ctypes.c_ulong),
        ("send_event", ctypes.c_int),
        ("display", ctypes.c_void_p),
        ("window", ctypes.c_ulong),
        ("message_type", ctypes.c_ulong),
        ("format", ctypes.c_int),
        ("data", ctypes.c_long * 5),
    ]


class _XScreenSaverInfo(ctypes.Structure):
    _fields_ = [
        ("window", ctypes.c_ulong),
        ("state", ctypes.c_int),
        ("kind", ctypes.c_int),
        ("til_or_since", ctypes.c_ulong),
        ("idle", ctypes.c_ulong),
        ("event_mask", ctypes.c_ulong),
    ]


class _XWindowAttributes(ctypes.Structure):
    _fields_ = [
        ("x", ctypes.c_int),
        ("y", ctypes.c_int),
        ("width", ctypes.c_int),
        ("height", ctypes.c_int),
        ("border_width", ctypes.c_int),
        ("depth", ctypes.c_int),
        ("visual", ctypes.c_void_p),
        ("root", ctypes.c_ulong),
        ("class_", ctypes.c_int),
        ("bit_gravity", ctypes.c_int),
        ("win_gravity", ctypes.c_int),
        ("backing_store", ctypes.c_int),
        ("backing_planes", ctypes.c_ulong),
        ("backing_pixel", ctypes.c_ulong),
        ("save_under", ctypes.c_int),
        ("colormap", ctypes.c_ulong),
        ("map_installed", ctypes.c_int),
        ("map_state", ctypes.c_int),
        ("all_event_masks", ctypes.c_long),
        ("your_event_mask", ctypes.c_long),
        ("do_not_propagate_mask", ctypes.c_long),
        ("override_redirect", ctypes.c_int),
        ("screen", ctypes.c_void_p),
    ]


class XDesktop:
    """Our own connection to the X server ($DISPLAY): the user's last windows, top-level window
    changes, the keys held down, and handing the focus back.

    Raises ``OSError`` when libX11 or the display cannot be opened. Events are read by
    :meth:`read_events` (the app calls it when :attr:`fd` is readable, and before deciding
    anything). Times are ``time.monotonic()`` seconds.
    """

    def __init__(self) -> None:
        x11 = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
        x11.XOpenDisplay.restype = ctypes.c_void_p
        x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x11.XDefaultRootWindow.restype = ctypes.c_ulong
        x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        x11.XInternAtom.restype = ctypes.c_ulong
        x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        x11.XSelectInput.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_long]
        x11.XConnectionNumber.argtypes = [ctypes.c_void_p]
        x11.XPending.argtypes = [ctypes.c_void_p]
        x11.XNextEvent.argtypes = [ctypes.c_void_p, ctypes.POINTER(_XEvent)]
        x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
        x11.XFlush.argtypes = [ctypes.c_void_p]
        x11.XQueryKeymap.argtypes = [ctypes.c_void_p, ctypes.c_char * 32]
        x11.XGetWindowProperty.argtypes = [
            ctypes.c_void_p,
            ctypes.c_ulong,
            ctypes.c_ulong,
            ctypes.c_long,
            ctypes.c_long,
            ctypes.c_int,
            ctypes.c_ulong,
            ctypes.POINTER(ctypes.c_ulong),
            ctypes.POINTER(ctypes.c_int),
            ctypes.POINTER(ctypes.c_ulong),
            ctypes.POINTER(ctypes.c_ulong),
            ctypes.POINTER(ctypes.c_void_p),
        ]
        x11.XFree.argtypes = [ctypes.c_void_p]
        x11.XGetWindowAttributes.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(_XWindowAttributes)]
        x11.XSetInputFocus.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_ulong]
        x11.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
        x11.XSetErrorHandler.restype = ctypes.c_void_p
        self._display = x11.XOpenDisplay(None)
        if not self._display:
            raise OSError("cannot open the X display")
        # A window that vanished between two requests must not end the process (Xlib's default
        # error handler exits): errors are ignored; every answer read here is checked.
        self._on_error = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(lambda _d, _e: 0)
        x11.XSetErrorHandler(self._on_error)
        self._x11 = x11
        self._root = x11.XDefaultRootWindow(self._display)
        self._active_atom = x11.XInternAtom(self._display, b"_NET_ACTIVE_WINDOW", 0)
        x11.XSelectInput(self._display, self._root, _PROPERTY_CHANGE_MASK | _SUBSTRUCTURE_NOTIFY_MASK)
        self.fd: int = x11.XConnectionNumber(self._display)
        #: Which windows are the app's own (their ids, as Qt's ``winId()``); set by the app.
        self.is_ours: Callable[[int], bool] = lambda _window: False
        #: The user's last active windows that are not the app's own, most recent first.
        self.recent: list[int] = []
        #: ``time.monotonic()`` of the last map or unmap of a (non-override-redirect) top level.
        self.last_change = float("-inf")
        self._override_redirect: set[int] = set()
        self._note_active(self.active_window())
        self._idle = _IdleTime(self._display, self._root)
        x11.XFlush(self._display)

    # -- reading ------------------------------------------------------------------------------
    def read_events(self, sync: bool = False) -> None:
        """Read every event that has arrived (``sync``: after a round trip, so that every event
        the server generated before now is among them)."""
        if sync:
            self._x11.XSync(self._display, 0)
        event = _XEvent()
        while self._x11.XPending(self._display):
            self._x11.XNextEvent(self._display, ctypes.byref(event))
            kind, longs = event.type, event.longs
            # LP64 offsets (longs[i] is at 8 * i): XMapEvent window 40, override_redirect 48;
            # XUnmapEvent and XDestroyWindowEvent window 40; XPropertyEvent window 32, atom 40.
            if kind == _MAP_NOTIFY:
                window, override = longs[5], longs[6] & 0xFFFFFFFF
                if override:
                    self._override_redirect.add(window)
                else:
                    self.last_change = time.monotonic()
            elif kind in (_UNMAP_NOTIFY, _DESTROY_NOTIFY):
                window = longs[5]
                if window in self._override_redirect:
                    if kind == _DESTROY_NOTIFY:
                        self._override_redirect.discard(window)
                else:
                    self.last_change = time.monotonic()
            elif kind == _PROPERTY_NOTIFY and longs[4] == self._root and longs[5] == self._active_atom:
                self._note_active(self.active_window())

    def active_window(self) -> int:
        """``_NET_ACTIVE_WINDOW`` of the root window (0 when unset or no window manager)."""
        kind, fmt = ctypes.c_ulong(), ctypes.c_int()
        count, after, data = ctypes.c_ulong(), ctypes.c_ulong(), ctypes.c_void_p()
        status = self._x11.XGetWindowProperty(
            self._display,
            self._root,
            self._active_atom,
            0,
            1,
            0,
            _XA_WINDOW,
            ctypes.byref(kind),
            ctypes.byref(fmt),
            ctypes.byref(count),
            ctypes.byref(after),
            ctypes.byref(data),
        )
        if status != 0 or not data.value:
            return 0
        try:
            return int(ctypes.cast(data, ctypes.POINTER(ctypes.c_ulong))[0]) if count.value else 0
        finally:
            self._x11.XFree(data)

    def _note_active(self, window: int) -> None:
        if window and not self.is_ours(window):
            self.recent = [window] + [w for w in self.recent if w != window][: _MRU - 1]

    def _viewable(self, window: int) -> bool:
        attributes = _XWindowAttributes()
        if not self._x11.XGetWindowAttributes(self._display, window, ctypes.byref(attributes)):
            return False
        return attributes.map_state == _IS_VIEWABLE

    def keys_down(self) -> set[int]:
        """X key codes held down now (XQueryKeymap: one bit per key code)."""
        bits = (ctypes.c_char * 32)()
        self._x11.XQueryKeymap(self._display, bits)
        return {byte * 8 + bit for byte, value in enumerate(bits.raw) for bit in range(8) if value >> bit & 1}

    # -- deciding and acting ------------------------------------------------------------------
    def follows_window_change(self) -> bool:
        """Whether a focus arriving now follows a top-level window's map or unmap within
        :data:`FALLBACK_MS` with no keyboard or pointer input since (the window manager's own
        choice, not the user's act: the window switcher or a click is input). Without the
        X server's idle time (MIT-SCREEN-SAVER), the time alone decides."""
        self.read_events(sync=True)
        since_ms = (time.monotonic() - self.last_change) * 1000
        if since_ms >= FALLBACK_MS:
            return False
        idle_ms = self._idle.ms()
        # The change is read a little after it happened, so since_ms is if anything too small:
        # input just before the change (the Enter that closed a window) never counts as after.
        return idle_ms is None or idle_ms >= since_ms

    def give_focus_back(self) -> bool:
        """Give the keyboard focus to the user's last window that is not the app's own and is
        still on screen; returns whether there was one."""
        self.read_events(sync=True)
        target = next((w for w in self.recent if not self.is_ours(w) and self._viewable(w)), 0)
        if not target:
            return False
        self._x11.XSetInputFocus(self._display, target, _REVERT_TO_PARENT, 0)
        message = _XClientMessage(
            type=_CLIENT_MESSAGE, send_event=1, window=target, message_type=self._active_atom, format=32
        )
        message.data[0] = 2  # source indication: a pager (EWMH), i.e. on the user's behalf
        self._x11.XSendEvent(self._display, self._root, 0, _SUBSTRUCTURE_NOTIFY_MASK | (1 << 20), ctypes.byref(message))
        self._x11.XFlush(self._display)
        log.info("keyboard focus handed back to window 0x%x", target)
        return True


class _IdleTime:
    """Milliseconds since the last keyboard or pointer input anywhere on the desktop
    (XScreenSaverQueryInfo: the X server keeps it for every client; XTEST input counts too)."""

    def __init__(self, display: int, root: int):
        self._display, self._root = display, root
        self._info: ctypes._Pointer[_XScreenSaverInfo] | None = None
        try:
            xss = ctypes.CDLL(ctypes.util.find_library("Xss") or "libXss.so.1")
        except OSError as exc:
            log.info("no X idle time (%s): a focus right after a window change is always handed back", exc)
            return
        xss.XScreenSaverQueryExtension.argtypes = [
            ctypes.c_void_p,
            ctypes.POINTER(ctypes.c_int),
            ctypes.POINTER(ctypes.c_int),
        ]
        xss.XScreenSaverAllocInfo.restype = ctypes.POINTER(_XScreenSaverInfo)
        xss.XScreenSaverQueryInfo.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(_XScreenSaverInfo)]
        event_base, error_base = ctypes.c_int(), ctypes.c_int()
        if xss.XScreenSaverQueryExtension(display, ctypes.byref(event_base), ctypes.byref(error_base)):
            self._xss = xss
            self._info = xss.XScreenSaverAllocInfo()

    def ms(self) -> int | None:
        """The idle time, or ``None`` when the server cannot tell."""
        if self._info is None or not self._xss.XScreenSaverQueryInfo(self._display, self._root, self._info):
            return None
        return int(self._info.contents.idle)


_desktop: XDesktop | None = None
_desktop_failed = False


def desktop(platform: str) -> XDesktop | None:
    """The app's :class:`XDesktop`, opened on first use; ``None`` off X11 (``platform`` is Qt's
    platform name; only ``"xcb"``) or when it cannot be opened (logged once). Raises nothing."""
    global _desktop, _desktop_failed
    if platform != "xcb" or _desktop_failed:
        return None
    if _desktop is None:
        try:
            _desktop = XDesktop()
        except OSError as exc:
            _desktop_failed = True
            log.warning("cannot follow the X desktop's focus (%s): the focus is not handed back", exc)
            return None
    return _desktop


def keys_held(platform: str) -> set[int]:
    """The keys held down right now, as the native scan codes Qt reports in its key events (X
    key codes on ``"xcb"``); empty where the platform does not tell. A key held while a dialog
    gets the focus sends it repeats that Qt cannot tell from new presses: arming drops them
    (:mod:`~elicit_tray.ui.arming`). Raises nothing."""
    server = desktop(platform)
    return set() if server is None else server.keys_down()
