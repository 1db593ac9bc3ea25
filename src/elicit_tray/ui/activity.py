"""Is the user typing? Decides whether a new dialog may take the keyboard focus.

DESIGN.md "UI rules": a dialog takes the focus only when the user is not typing, neither in
another elicit-tray dialog nor anywhere on the desktop; otherwise it appears without activation
and waits to be chosen. What counts as "typing": a key press in one of our dialogs within
:data:`QUIET_MS`, or, on X11, any keyboard or pointer input to the X server within
:data:`QUIET_MS` (the MIT-SCREEN-SAVER extension's idle time, which the server keeps for every
client; XTEST input counts as well). On X11 without that extension (``libXss.so.1`` missing)
the answer is "typing", so a dialog never steals the focus blindly. On Wayland the compositor
decides (xdg-activation), so the request is made; on other platforms only our own key presses
count.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import time

__all__ = ["QUIET_MS", "desktop_idle_ms", "keys_held", "user_is_typing"]

log = logging.getLogger(__name__)

#: How long after the last key press (ms) a new dialog still does not take the focus.
QUIET_MS = 1000


class _XScreenSaverInfo(ctypes.Structure):
    _fields_ = [
        ("window", ctypes.c_ulong),
        ("state", ctypes.c_int),
        ("kind", ctypes.c_int),
        ("til_or_since", ctypes.c_ulong),
        ("idle", ctypes.c_ulong),
        ("event_mask", ctypes.c_ulong),
    ]


class _XServer:
    """A connection of our own to the X server ($DISPLAY): input idle time (XScreenSaverQueryInfo)
    and the keys held down now (XQueryKeymap)."""

    def __init__(self) -> None:
        x11 = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
        xss = ctypes.CDLL(ctypes.util.find_library("Xss") or "libXss.so.1")
        x11.XOpenDisplay.restype = ctypes.c_void_p
        x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x11.XDefaultRootWindow.restype = ctypes.c_ulong
        x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        xss.XScreenSaverQueryExtension.argtypes = [
            ctypes.c_void_p,
            ctypes.POINTER(ctypes.c_int),
            ctypes.POINTER(ctypes.c_int),
        ]
        xss.XScreenSaverAllocInfo.restype = ctypes.POINTER(_XScreenSaverInfo)
        xss.XScreenSaverQueryInfo.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(_XScreenSaverInfo)]
        self._display = x11.XOpenDisplay(None)
        if not self._display:
            raise OSError("cannot open the X display")
        event_base, error_base = ctypes.c_int(), ctypes.c_int()
        if not xss.XScreenSaverQueryExtension(self._display, ctypes.byref(event_base), ctypes.byref(error_base)):
            raise OSError("the X server has no MIT-SCREEN-SAVER extension")
        self._root = x11.XDefaultRootWindow(self._display)
        self._info = xss.XScreenSaverAllocInfo()
        self._xss = xss
        x11.XQueryKeymap.argtypes = [ctypes.c_void_p, ctypes.c_char * 32]
        self._x11 = x11

    def idle_ms(self) -> int | None:
        if not self._xss.XScreenSaverQueryInfo(self._display, self._root, self._info):
            return None
        return int(self._info.contents.idle)

    def keys_down(self) -> set[int]:
        """X key codes held down now (XQueryKeymap: one bit per key code)."""
        bits = (ctypes.c_char * 32)()
        self._x11.XQueryKeymap(self._display, bits)
        return {byte * 8 + bit for byte, value in enumerate(bits.raw) for bit in range(8) if value >> bit & 1}


_x_server_conn: _XServer | None = None
_x_server_failed = False


def _x_server(platform: str) -> _XServer | None:
    """Our own connection to the X server, opened on first use; ``None`` off X11 or when it
    cannot be opened (logged once)."""
    global _x_server_conn, _x_server_failed
    if platform != "xcb" or _x_server_failed:
        return None
    if _x_server_conn is None:
        try:
            _x_server_conn = _XServer()
        except OSError as exc:
            _x_server_failed = True
            log.warning(
                "cannot read the desktop's input idle time (%s): new dialogs will not take the focus by themselves", exc
            )
            return None
    return _x_server_conn


def desktop_idle_ms(platform: str) -> int | None:
    """Milliseconds since the last keyboard or pointer input anywhere on the desktop, where the
    platform tells (``platform`` is Qt's platform name; only ``"xcb"`` does); ``None`` elsewhere
    or when the X server cannot be asked. Raises nothing."""
    server = _x_server(platform)
    return None if server is None else server.idle_ms()


def keys_held(platform: str) -> set[int]:
    """The keys held down right now, as the native scan codes Qt reports in its key events (X
    key codes on ``"xcb"``); empty where the platform does not tell. A key held while a dialog
    gets the focus sends it repeats that Qt cannot tell from new presses: arming drops them
    (:mod:`~elicit_tray.ui.arming`). Raises nothing."""
    server = _x_server(platform)
    return set() if server is None else server.keys_down()


def user_is_typing(platform: str, last_key_press: float, now: float | None = None) -> bool:
    """Whether a new dialog must not take the focus now.

    Args:
        platform: Qt's platform name (``QGuiApplication.platformName()``).
        last_key_press: ``time.monotonic()`` of the last key press in one of our dialogs.
        now: ``time.monotonic()`` now (for tests).
    """
    now = time.monotonic() if now is None else now
    if (now - last_key_press) * 1000 < QUIET_MS:
        return True
    if platform == "xcb":
        idle = desktop_idle_ms(platform)
        return idle is None or idle < QUIET_MS
    return False
