"""No value reaches a log unless ``--log-values``, and no text forges a log line (issue 11 §3).

With ``-v`` stderr showed ``Accepted(content={'phrase': …})``, URL user info and path tokens;
a newline in a cancel reason or a process name started a line of its own. The stderr log
goes through :class:`elicit_tray.logs.LogFormatter` (installed by ``configure_logging``), and the
journal enforces the same policy whatever its callers pass.
"""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import elicit_tray
from elicit_tray.logs import VALUE_ARGUMENTS, Journal, configure_logging, escape_controls, redact_url
from elicit_tray.request import Accepted, Cancelled

SECRET_URL = "https://alice:hunter2@accounts.example.com:8443/reset/8f3a9c2e71/confirm?token=s3cr3t#frag"
SHOWN_URL = "https://accounts.example.com:8443/reset/…/confirm?…#…"
STAMP = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} "


@pytest.fixture
def stderr() -> Iterator[io.StringIO]:
    """The root logger writing to a buffer as ``elicit-tray -v`` (no --log-values) sets it up."""
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    buffer = io.StringIO()
    configure_logging(verbose=True, log_values=False, stream=buffer)
    try:
        yield buffer
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in saved[0]:
            root.addHandler(handler)
        root.setLevel(saved[1])


def only_line(buffer: io.StringIO) -> str:
    text = buffer.getvalue()
    assert text.count("\n") == 1 and text.endswith("\n"), text
    return text[:-1]


def message_of(line: str, name: str, level: str = "INFO") -> str:
    match = re.fullmatch(STAMP + re.escape(f"{name} {level} ") + "(.*)", line)
    assert match, line
    return match.group(1)


# -- values -----------------------------------------------------------------------------------------


def test_an_accepted_outcome_shows_its_field_names_not_its_values(stderr: io.StringIO) -> None:
    logging.getLogger("elicit_tray.ui.base").info(
        "dialog %s answered: %r", "r7", Accepted({"phrase": "open sesame", "pin": 4711})
    )
    assert message_of(only_line(stderr), "elicit_tray.ui.base") == (
        "dialog r7 answered: Accepted(content=<2 field(s): phrase, pin>)"
    )


def test_other_outcomes_are_shown_as_they_are(stderr: io.StringIO) -> None:
    logging.getLogger("elicit_tray.ipc.protocol").info("request %s (%r) -> %r", "r8", 3, Cancelled("escape"))
    assert message_of(only_line(stderr), "elicit_tray.ipc.protocol") == "request r8 (3) -> Cancelled(how='escape')"


def test_a_url_in_a_message_loses_its_user_info_query_fragment_and_path_tokens(stderr: io.StringIO) -> None:
    logging.getLogger("elicit_tray.ui.presenter").warning(
        "not opening %r: Qt would not open it unchanged (%s)", SECRET_URL, "rewritten"
    )
    assert message_of(only_line(stderr), "elicit_tray.ui.presenter", "WARNING") == (
        f"not opening '{SHOWN_URL}': Qt would not open it unchanged (rewritten)"
    )


def test_a_schema_default_is_not_shown(stderr: io.StringIO) -> None:
    logging.getLogger("elicit_tray.schema.parse").warning(
        "ignoring the default of %s: %r (%s)", "/requestedSchema/properties/pin", "0000-secret", "too long"
    )
    assert message_of(only_line(stderr), "elicit_tray.schema.parse", "WARNING") == (
        "ignoring the default of /requestedSchema/properties/pin: <value> (too long)"
    )


def test_every_value_argument_template_still_exists_at_its_call_site() -> None:
    root = Path(elicit_tray.__file__).parent
    for (logger, template), positions in VALUE_ARGUMENTS.items():
        module = root.joinpath(*logger.split(".")[1:]).with_suffix(".py")
        assert json.dumps(template) in module.read_text(encoding="utf-8"), (logger, template)
        assert max(positions) < template.count("%")


def test_with_log_values_the_values_and_the_full_url_are_shown() -> None:
    buffer = io.StringIO()
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    configure_logging(verbose=True, log_values=True, stream=buffer)
    try:
        logging.getLogger("elicit_tray.ui.base").info("dialog %s answered: %r", "r7", Accepted({"phrase": "sesame"}))
        logging.getLogger("elicit_tray.ui.presenter").warning("not opening %r", SECRET_URL)
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in saved[0]:
            root.addHandler(handler)
        root.setLevel(saved[1])
    first, second = buffer.getvalue().splitlines()
    assert message_of(first, "elicit_tray.ui.base") == "dialog r7 answered: Accepted(content={'phrase': 'sesame'})"
    assert message_of(second, "elicit_tray.ui.presenter", "WARNING") == f"not opening {SECRET_URL!r}"


def test_without_verbose_only_warnings_are_written() -> None:
    buffer = io.StringIO()
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    configure_logging(verbose=False, stream=buffer)
    try:
        logging.getLogger("elicit_tray.x").info("hidden")
        logging.getLogger("elicit_tray.x").warning("shown")
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in saved[0]:
            root.addHandler(handler)
        root.setLevel(saved[1])
    assert [message_of(x, "elicit_tray.x", "WARNING") for x in buffer.getvalue().splitlines()] == ["shown"]


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://example.com/invite/AbCdEf0123456789xyz", "https://example.com/invite/…"),
        ("https://example.com/u/12345/profile", "https://example.com/u/…/profile"),
        ("https://example.com/a%2Fb/c", "https://example.com/…/c"),
        ("https://example.com/" + "a" * 33, "https://example.com/…"),
        ("https://example.com/login/", "https://example.com/login/"),
        ("https://user@example.com/", "https://example.com/"),
        (SECRET_URL, SHOWN_URL),
        (SHOWN_URL, SHOWN_URL),  # idempotent: the journal redacts what a caller already redacted
        ("no scheme at all", "<unparseable>"),
    ],
)
def test_redact_url_keeps_only_plain_word_path_segments(url: str, shown: str) -> None:
    assert redact_url(url) == shown


# -- forged lines -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("char", "escaped"),
    [
        ("\n", "\\n"),
        ("\r", "\\r"),
        ("\t", "\\t"),
        ("\x00", "\\x00"),
        ("\x1b", "\\x1b"),
        ("\x7f", "\\x7f"),
        ("\x85", "\\x85"),
        ("\x9b", "\\x9b"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
        ("\u202e", "\\u202e"),
        ("\u2066", "\\u2066"),
        ("\u200f", "\\u200f"),
        ("\u061c", "\\u061c"),
        ("\ud800", "\\ud800"),
    ],
)
def test_a_control_character_in_a_cancel_reason_cannot_forge_a_line(
    stderr: io.StringIO, char: str, escaped: str
) -> None:
    forged = "2026-01-01 00:00:00,000 elicit_tray.app WARNING all good"
    logging.getLogger("elicit_tray.ipc.protocol").info(
        "request %r cancelled by the requester: %s", 8, f"bye{char}{forged}"
    )
    assert message_of(only_line(stderr), "elicit_tray.ipc.protocol") == (
        f"request 8 cancelled by the requester: bye{escaped}{forged}"
    )


def test_a_process_name_with_a_newline_stays_on_its_line(stderr: io.StringIO) -> None:
    logging.getLogger("elicit_tray.ipc.server").warning(
        "refusing a connection from %s: %d connections are open", "evil\nx (pid 5)", 256
    )
    assert message_of(only_line(stderr), "elicit_tray.ipc.server", "WARNING") == (
        "refusing a connection from evil\\nx (pid 5): 256 connections are open"
    )


def test_a_traceback_follows_on_marked_lines_and_its_message_is_escaped_and_redacted(stderr: io.StringIO) -> None:
    try:
        raise ValueError(f"bad\n2026-01-01 00:00:00,000 forged ERROR {SECRET_URL}")
    except ValueError:
        logging.getLogger("elicit_tray.ipc.protocol").exception("request %s failed", "r9")
    first, *rest = stderr.getvalue().rstrip("\n").split("\n")
    assert message_of(first, "elicit_tray.ipc.protocol", "ERROR") == "request r9 failed"
    assert rest[0] == "  | Traceback (most recent call last):"
    assert all(line.startswith("  | ") for line in rest)
    assert rest[-1] == f"  | 2026-01-01 00:00:00,000 forged ERROR {SHOWN_URL}"
    assert "hunter2" not in stderr.getvalue() and "s3cr3t" not in stderr.getvalue()


def test_escape_controls_leaves_ordinary_text_alone() -> None:
    text = "Zürich – 東京 → ok \\n (a literal backslash-n) \u200d\U0001f600"
    assert escape_controls(text) == text


# -- the journal --------------------------------------------------------------------------------------


def test_the_journal_drops_values_and_full_urls_whatever_the_caller_passes(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.jsonl")
    journal.record("elicitation", id=1, content={"phrase": "sesame"}, message="Say the phrase", url=SECRET_URL)
    journal.close()
    entry = json.loads((tmp_path / "j.jsonl").read_text(encoding="utf-8"))
    del entry["ts"]
    assert entry == {"event": "elicitation", "id": 1, "url": SHOWN_URL}


def test_journal_lines_escape_separators_and_bidi_controls(tmp_path: Path) -> None:
    server = "a\u2028b\u2029c\x85d\u202ee\nf"
    journal = Journal(tmp_path / "j.jsonl")
    journal.record("elicitation", server=server)
    journal.close()
    raw = (tmp_path / "j.jsonl").read_bytes()
    assert raw.count(b"\n") == 1 and raw.endswith(b"\n")
    text = raw.decode("utf-8")
    assert '"server": "a\\u2028b\\u2029c\\u0085d\\u202ee\\nf"' in text
    assert text.splitlines() == [text[:-1]]  # one line for str.splitlines too (it splits at U+2028, U+0085)
    assert json.loads(text)["server"] == server
