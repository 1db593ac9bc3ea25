"""`serve` says in one line that no display can be opened, before Qt's plugin would abort
(status 134 with advice about reinstalling): :func:`elicit_tray.session.display_problem`."""

from __future__ import annotations

import os

import pytest

from elicit_tray.session import display_problem, platform_in

NO_DISPLAY = (
    "no display to show dialogs on: DISPLAY and WAYLAND_DISPLAY are not set. Start elicit-tray from your "
    "desktop session (or set DISPLAY or WAYLAND_DISPLAY), or set QT_QPA_PLATFORM=offscreen to run without "
    "visible windows"
)


def _cannot(names: str) -> str:
    return (
        f"cannot open the display {names}: no display server answers there, or it does not let this user in. "
        "Start elicit-tray from your desktop session, or set QT_QPA_PLATFORM=offscreen to run without visible "
        "windows"
    )


class Opener:
    """A stand-in for a window system's connect call: which names open, and what was asked."""

    def __init__(self, opens: bool | None):
        self.opens = opens
        self.asked: list[str] = []

    def __call__(self, name: str) -> bool | None:
        self.asked.append(name)
        return self.opens


def _problem(environ: dict[str, str], x11: bool | None = True, wayland: bool | None = True):
    x, w = Opener(x11), Opener(wayland)
    return display_problem(environ, x11_opens=x, wayland_opens=w), x.asked, w.asked


@pytest.mark.parametrize(
    ("value", "platform"),
    [("", ""), ("offscreen", "offscreen"), ("xcb:dpi=96;offscreen", "xcb"), (" wayland ;xcb", "wayland")],
)
def test_the_platform_is_the_first_of_qt_qpa_platform_without_options(value, platform):
    assert platform_in({"QT_QPA_PLATFORM": value}) == platform


def test_no_display_at_all_is_said_with_what_to_do():
    assert _problem({}) == (NO_DISPLAY, [], [])


@pytest.mark.parametrize("platform", ["offscreen", "minimal", "vnc", "offscreen;xcb"])
def test_a_platform_without_a_display_server_needs_none(platform):
    assert _problem({"QT_QPA_PLATFORM": platform}, x11=False, wayland=False) == (None, [], [])


def test_an_x_display_that_opens_is_enough():
    assert _problem({"DISPLAY": ":3"}) == (None, [":3"], [])


def test_an_x_display_that_does_not_open_is_named():
    assert _problem({"DISPLAY": ":3"}, x11=False) == (_cannot("DISPLAY=:3"), [":3"], [])


def test_a_relative_wayland_display_is_opened_under_the_runtime_directory():
    environ = {"WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": "/run/user/1000/"}
    assert _problem(environ) == (None, [], ["/run/user/1000/wayland-1"])
    assert _problem({**environ, "DISPLAY": ":0"}, x11=False) == (None, [":0"], ["/run/user/1000/wayland-1"])


def test_either_display_may_fail_when_the_platform_is_left_to_qt_but_not_both():
    environ = {"DISPLAY": ":0", "WAYLAND_DISPLAY": "/tmp/w-0"}
    assert _problem(environ, x11=False, wayland=False)[0] == _cannot("DISPLAY=:0 or WAYLAND_DISPLAY=/tmp/w-0")


def test_a_chosen_window_system_is_the_only_one_tried():
    environ = {"DISPLAY": ":0", "WAYLAND_DISPLAY": "/tmp/w-0", "QT_QPA_PLATFORM": "wayland"}
    assert _problem(environ, x11=True, wayland=False) == (_cannot("WAYLAND_DISPLAY=/tmp/w-0"), [], ["/tmp/w-0"])
    assert _problem({"DISPLAY": ":0", "QT_QPA_PLATFORM": "wayland"})[0] == (
        NO_DISPLAY.replace("DISPLAY and WAYLAND_DISPLAY are", "WAYLAND_DISPLAY is")
    )
    assert _problem({"WAYLAND_DISPLAY": "/tmp/w-0", "QT_QPA_PLATFORM": "xcb"})[0] == (
        NO_DISPLAY.replace("DISPLAY and WAYLAND_DISPLAY are", "DISPLAY is")
    )


def test_a_missing_client_library_is_left_for_qt_to_explain():
    assert _problem({"DISPLAY": ":3"}, x11=None)[0] is None


def test_the_real_x_library_cannot_open_a_display_no_server_holds():
    free = next(n for n in range(4700, 4800) if not os.path.exists(f"/tmp/.X11-unix/X{n}"))
    assert display_problem({"DISPLAY": f":{free}"}) == _cannot(f"DISPLAY=:{free}")


def test_the_real_wayland_library_cannot_open_a_socket_that_is_not_there(tmp_path):
    environ = {"WAYLAND_DISPLAY": "wayland-x", "XDG_RUNTIME_DIR": str(tmp_path), "QT_QPA_PLATFORM": "wayland"}
    assert display_problem(environ) == _cannot("WAYLAND_DISPLAY=wayland-x")
