"""The tray app's shutdown also runs when a library ends the process behind Python's back.

Qt's xcb plugin calls C ``exit(1)`` when the X server goes away ("The X11 connection broke"), and
so does Xlib's default I/O error handler; Python's own shutdown (``finally`` blocks, ``atexit``)
then never runs, so the socket and its lock file would stay behind and the last decisions would
not reach the history. :func:`on_library_exit` registers a C ``atexit`` handler that runs the
app's shutdown and ends the process with status 0: losing the display is the end of the session
(a logout), not a failure for a service manager to restart.

The normal path ends with :func:`end_process` (``os._exit`` after flushing): C ``atexit``
handlers never run then, so the handler can never call into an interpreter that has already
been finalised.

Pure Python (``ctypes``), no Qt.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import sys
from collections.abc import Callable
from typing import NoReturn

__all__ = ["end_process", "on_library_exit"]

log = logging.getLogger(__name__)

#: ``void (*)(void *)``: a handler of glibc's ``__cxa_atexit`` (``atexit`` itself is not exported
#: by the shared C library: it is a static wrapper around ``__cxa_atexit``).
_HANDLER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
#: The registered handlers (ctypes callbacks must stay alive as long as C may call them).
_registered: list[object] = []


def on_library_exit(shutdown: Callable[[], None], status: int = 0) -> bool:
    """Run ``shutdown()`` when C ``exit()`` ends the process without Python's shutdown, then end
    with ``status``. Register it after the libraries that may call ``exit()`` have loaded (C runs
    ``atexit`` handlers in reverse order, so theirs are still intact when this one runs). An
    exception from ``shutdown`` is logged. Returns ``False`` when the C library offers no
    ``__cxa_atexit`` (glibc and musl do; nothing is registered then); never raises."""

    def handler(_arg: int | None) -> None:
        try:
            shutdown()
        except BaseException:  # the process ends either way: say why the shutdown was cut short
            log.exception("shutdown after the display went away failed")
        finally:
            _flush()
            os._exit(status)

    try:
        register = ctypes.CDLL(ctypes.util.find_library("c")).__cxa_atexit
    except (OSError, AttributeError, TypeError):
        return False
    callback = _HANDLER(handler)
    _registered.append(callback)
    register.argtypes = [_HANDLER, ctypes.c_void_p, ctypes.c_void_p]
    register.restype = ctypes.c_int
    return int(register(callback, None, None)) == 0


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass


def end_process(status: int) -> NoReturn:
    """End the process now with ``status`` after flushing stdout and stderr, skipping C
    ``atexit`` handlers (see the module docstring) and the interpreter's teardown, whose order of
    destroying Qt objects is not ours to choose."""
    _flush()
    logging.shutdown()
    os._exit(status)
