"""Whether there is a display to show dialogs on, decided before Qt loads.

Qt's window-system plugins abort the process when they cannot connect (SIGABRT, exit status 134,
with advice about ``libxcb-cursor0`` and reinstalling, even when the only thing missing is a
display). ``serve`` asks :func:`display_problem` first and, when it names a problem, says it in
one line and exits with its own status instead (README "Exit status").

Pure Python, no Qt: the display is opened with the window system's own client library
(``XOpenDisplay`` of libX11, ``wl_display_connect`` of libwayland-client, through ``ctypes``),
which checks exactly what Qt's plugin will need: the server answers and lets this user in.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Callable, Mapping

__all__ = ["display_problem", "platform_in", "WINDOW_SYSTEMS"]

#: ``QT_QPA_PLATFORM`` values that need a display server; any other (``offscreen``, ``minimal``,
#: ``vnc``, ``eglfs``...) is the user's explicit choice and needs none.
WINDOW_SYSTEMS = frozenset({"xcb", "wayland", "wayland-egl"})


def platform_in(environ: Mapping[str, str]) -> str:
    """The first platform of ``QT_QPA_PLATFORM`` without its options (``"xcb:foo=1;offscreen"``
    -> ``"xcb"``), or ``""`` when it is unset or empty (Qt then picks the window system)."""
    first = environ.get("QT_QPA_PLATFORM", "").split(";")[0]
    return first.split(":")[0].strip()


def _opens(library: str, connect: str, disconnect: str, name: str | None) -> bool | None:
    """Whether ``connect(name)`` of the C ``library`` gives a connection (closed again at once);
    ``None`` when the library cannot be loaded."""
    found = ctypes.util.find_library(library)
    if found is None:
        return None
    try:
        lib = ctypes.CDLL(found)
    except OSError:
        return None
    open_, close = getattr(lib, connect), getattr(lib, disconnect)
    open_.restype = ctypes.c_void_p
    open_.argtypes = [ctypes.c_char_p]
    close.argtypes = [ctypes.c_void_p]
    handle = open_(name.encode() if name is not None else None)
    if not handle:
        return False
    close(ctypes.c_void_p(handle))
    return True


def _x11_opens(display: str) -> bool | None:
    return _opens("X11", "XOpenDisplay", "XCloseDisplay", display)


def _wayland_opens(display: str) -> bool | None:
    return _opens("wayland-client", "wl_display_connect", "wl_display_disconnect", display)


def display_problem(
    environ: Mapping[str, str],
    *,
    x11_opens: Callable[[str], bool | None] = _x11_opens,
    wayland_opens: Callable[[str], bool | None] = _wayland_opens,
) -> str | None:
    """What stops the tray app from showing dialogs in ``environ`` (an ``os.environ``-like
    mapping), as one sentence with what to do, or ``None`` when a display can be opened or the
    user chose a platform without one (``QT_QPA_PLATFORM=offscreen``).

    ``x11_opens(DISPLAY)`` / ``wayland_opens(path)`` say whether that display opens (``None``:
    the client library is missing, which Qt's own message then explains); ``path`` is
    ``WAYLAND_DISPLAY`` made absolute under ``XDG_RUNTIME_DIR`` (a relative one without a
    runtime directory counts as unset). With ``QT_QPA_PLATFORM`` unset, either display will do.
    Never raises.
    """
    platform = platform_in(environ)
    if platform and platform not in WINDOW_SYSTEMS:
        return None
    x11 = environ.get("DISPLAY", "")
    wayland = environ.get("WAYLAND_DISPLAY", "")
    if wayland and not wayland.startswith("/"):  # relative to the runtime directory, as libwayland reads it
        runtime = environ.get("XDG_RUNTIME_DIR", "")
        wayland = f"{runtime.rstrip('/')}/{wayland}" if runtime.startswith("/") else ""
    wants = {"xcb": ("X11",), "": ("X11", "Wayland")}.get(platform, ("Wayland",))
    named = {"X11": x11, "Wayland": wayland}
    if not any(named[kind] for kind in wants):
        unset = " and ".join({"X11": "DISPLAY", "Wayland": "WAYLAND_DISPLAY"}[kind] for kind in wants)
        verb = "is" if len(wants) == 1 else "are"
        return (
            f"no display to show dialogs on: {unset} {verb} not set. Start elicit-tray from your desktop "
            "session (or set DISPLAY or WAYLAND_DISPLAY), or set QT_QPA_PLATFORM=offscreen to run "
            "without visible windows"
        )
    failed = []
    for kind in wants:
        if not named[kind]:
            continue
        opens = (x11_opens if kind == "X11" else wayland_opens)(named[kind])
        if opens is None or opens:
            return None
        variable = "DISPLAY" if kind == "X11" else "WAYLAND_DISPLAY"
        failed.append(f"{variable}={environ[variable]}")
    return (
        f"cannot open the display {' or '.join(failed)}: no display server answers there, or it does not "
        "let this user in. Start elicit-tray from your desktop session, or set QT_QPA_PLATFORM=offscreen "
        "to run without visible windows"
    )
