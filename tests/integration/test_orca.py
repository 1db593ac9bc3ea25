"""What a screen reader says, heard through Orca (Debian's Orca 43, speech off, its debug log
read as what it would say: tests/integration/orca.py) from the real tray app on an Xvfb of its
own under openbox: opening a form, an error the moment it is made, a failed Accept, expiry (in
the active window and in one the user left), the URL warning, and the countdown's warnings.
Each utterance is compared whole."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests import rpc
from tests.integration.orca import OrcaDesktop, orca_desktop
from tests.integration.xwindows import stop_processes

FORM = {
    "message": "Book the trip?",
    "_meta": {"elicit-tray/requester": {"serverName": "travel"}},
    "requestedSchema": {
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": "Traveller", "description": "As in the passport", "minLength": 2},
            "email": {"type": "string", "format": "email", "title": "Email"},
            "extras": {
                "type": "array",
                "title": "Extras",
                "maxItems": 2,
                "items": {"type": "string", "enum": ["Bag", "Seat", "Lounge", "Meal"]},
            },
        },
        "required": ["name"],
    },
}
#: Orca reads the window first: its title, then every label in it that no control claims.
TITLE = "“\u2068\u2068travel\u2069\u2069”: \u2068Book the trip?\u2069 — elicit-tray dialog"
#: The tray app's executable as the OS reports it (the dialog's description names it).
PROGRAM = os.path.realpath(sys.executable)
GONE = (
    "This request is no longer waiting: the program that asked has cancelled it or gone away. "
    "Nothing was sent. This window closes by itself."
)


@pytest.fixture(scope="module")
def desk() -> Iterator[OrcaDesktop]:
    with orca_desktop() as desktop:
        yield desktop


def _ask(desk: OrcaDesktop, params: dict) -> tuple[socket.socket, str]:
    """Send ``params`` as an elicitation; the connection and the dialog's window."""
    conn = socket.socket(socket.AF_UNIX)
    conn.settimeout(40)
    conn.connect(str(desk.sock))
    conn.sendall(rpc.create_line(1, params))
    return conn, desk.new_window()


def _go_to(desk: OrcaDesktop, window: str) -> None:
    """Go to the form's window and wait until Orca has read its first field."""
    since = desk.orca.mark()
    desk.go_to(window)
    desk.orca.wait_for("Traveller * text.", since)


def _end(desk: OrcaDesktop, conn: socket.socket) -> None:
    """The requester goes away from the dialog the user is in; wait until Orca has read its
    expiry, so that nothing of this test is heard in the next one."""
    since = desk.orca.mark()
    conn.close()
    desk.orca.wait_for(GONE, since)


def _answer(conn: socket.socket) -> dict:
    data = b""
    while not data.endswith(b"\n"):
        chunk = conn.recv(65536)
        assert chunk, "the tray app closed the connection without an answer"
        data += chunk
    return json.loads(data)["result"]


def test_opening_a_form_reads_who_asks_then_the_first_field_with_its_description(desk):
    conn, window = _ask(desk, FORM)
    try:
        since = desk.orca.mark()
        desk.go_to(window)
        said = desk.orca.wait_for("Traveller * text.", since)
        first = said.index("Traveller * text.")
        assert said[first + 1] == "As in the passport. Required. At least 2 characters."
        assert said[first - 1] == f"“travel” asks through the local program {PROGRAM}: Book the trip?"
        assert re.fullmatch(
            re.escape(TITLE + " That is what the server says it is; not verified. Asked by the local program ")
            + r".* \(pid \d+\)",
            said[first - 2],
        )
    finally:
        _end(desk, conn)


def test_an_error_is_spoken_when_the_user_makes_it_leaving_a_field_or_choosing_one_too_many(desk):
    conn, window = _ask(desk, FORM)
    try:
        _go_to(desk, window)
        desk.xdotool("key", "ctrl+shift+Return")  # engage
        since = desk.orca.mark()
        desk.xdotool("type", "x")
        desk.xdotool("key", "Tab")
        said = desk.orca.wait_for("notification Traveller: Enter at least 2 characters.", since)
        desk.orca.wait_for("Email text.", since)  # where the focus went, before or after the error
        since = desk.orca.mark()
        desk.xdotool("type", "a@")
        desk.xdotool("key", "Tab")
        desk.orca.wait_for("notification Email: This email address is not in a valid format.", since)
        for key in ("space", "Tab", "space", "Tab"):
            desk.xdotool("key", key)
        since = desk.orca.mark()
        desk.xdotool("key", "space")  # a third choice of at most 2
        said = desk.orca.wait_for("notification Extras: Choose at most 2.", since)
        assert said.count("notification Extras: Choose at most 2.") == 1
    finally:
        _end(desk, conn)


def test_a_failed_accept_moves_to_the_first_invalid_field_and_reads_its_error(desk):
    conn, window = _ask(desk, FORM)
    try:
        _go_to(desk, window)
        since = desk.orca.mark()
        desk.xdotool("key", "ctrl+shift+Return", "Tab")  # engage, leave the (empty) field
        desk.orca.wait_for("Email text.", since)
        since = desk.orca.mark()
        desk.xdotool("key", "Return")
        said = desk.orca.wait_for("As in the passport. Required. At least 2 characters. This field is required.", since)
        assert said[said.index("As in the passport. Required. At least 2 characters. This field is required.") - 1] == (
            "Traveller * text."
        )
        assert not [s for s in said if s.startswith("notification")]  # the focus says it; nothing twice
    finally:
        _end(desk, conn)


def test_expiry_is_read_with_the_close_button_that_takes_the_focus(desk):
    conn, window = _ask(desk, FORM)
    _go_to(desk, window)
    since = desk.orca.mark()
    conn.close()  # the requester goes away
    said = desk.orca.wait_for(GONE, since)
    assert said[said.index(GONE) - 1] == "Close push button."


def test_expiry_of_a_dialog_the_user_is_not_in_is_spoken_too(desk):
    terminal = subprocess.Popen(["xterm", "-title", "user-terminal"], env=desk.env)
    try:
        found = desk.xdotool("search", "--sync", "--onlyvisible", "--name", "user-terminal").split()
        desk.xdotool("windowactivate", "--sync", found[0])  # the user types in a terminal
        conn, _window = _ask(desk, FORM)  # it appears without the focus; the user stays there
        since = desk.orca.mark()
        conn.close()
        said = desk.orca.wait_for("notification " + GONE, since)
        assert "Close push button." not in said and GONE not in said
    finally:
        stop_processes(terminal)


def test_the_url_warning_is_read_in_full_before_the_focused_cancel_button(desk):
    params = {
        "mode": "url",
        "elicitationId": "e1",
        "message": "Sign in to continue.",
        "url": "https://xn--80ak6aa92e.com/login",
        "_meta": {"elicit-tray/requester": {"serverName": "auth"}},
    }
    conn, window = _ask(desk, params)
    try:
        since = desk.orca.mark()
        desk.go_to(window)
        said = desk.orca.wait_for("Cancel push button.", since)
        assert said[said.index("Cancel push button.") + 1] == "Dismiss without answering (Esc)"
        cancel = said.index("Cancel push button.")
        assert said[cancel - 1] == f"“auth” asks through the local program {PROGRAM}: Sign in to continue."
        assert said[cancel - 2].endswith(
            " The server asks you to open this address in your web browser: Website xn--80ak6aa92e.com, which "
            "belongs to xn--80ak6aa92e.com This address belongs to the site xn--80ak6aa92e.com. The name contains "
            "international characters. Decoded (Unicode) it reads “аррӏе.com”; its coded form (Punycode) is "
            "xn--80ak6aa92e.com. ⚠ Be careful before opening this address.\n"
            "• The site name uses international characters that could be mistaken for other letters, so it is "
            "shown in its coded form.\n"
            "• The site name is written in a foreign alphabet whose letters look like Latin letters."
        )
    finally:
        _end(desk, conn)


def test_the_countdown_warns_at_20_and_5_seconds_left_then_cancels():
    with orca_desktop("--timeout", "22") as desk:
        conn, window = _ask(desk, FORM)
        try:
            since = desk.orca.mark()
            desk.go_to(window)  # no key: a key would stop the countdown
            said = desk.orca.wait_for("Traveller * text.", since)
            opened = said.index("Traveller * text.")
            assert re.search(r"\(pid \d+\) Cancels by itself in 0:[0-2]\d\.\Z", said[opened - 2])
            warn = (
                "notification This request is cancelled in {} seconds. Press any key in this window to stop the timer."
            )
            desk.orca.wait_for(warn.format(20), since, timeout_s=15)
            said = desk.orca.wait_for(warn.format(5), since, timeout_s=30)
            assert [s for s in said if s.startswith("notification")] == [warn.format(20), warn.format(5)]
            assert _answer(conn) == {"action": "cancel"}
        finally:
            conn.close()
