"""Server text cannot disguise itself: bidi controls and line-forging characters are shown."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from elicit_tray.display import display_line, display_text


def test_a_bidi_override_is_shown_instead_of_reversing_the_text():
    assert display_text("invoice \u202egnp.exe") == "invoice \\u202egnp.exe"


def test_a_message_keeps_its_lines_and_tabs_but_not_other_controls():
    assert display_text("line one\nline two\tend\x07\x1b[31m") == "line one\nline two\tend\\u0007\\u001b[31m"


def test_a_server_name_cannot_forge_a_second_line():
    assert display_line("1.0\nVerified by elicit-tray") == "1.0\\u000aVerified by elicit-tray"
    assert display_line("a\u2028b\u200bc") == "a\\u2028b\\u200bc"


def test_scripts_that_need_joiners_and_rtl_text_are_unchanged():
    for text in ("می\u200cخواهم", "क्\u200dष", "👩\u200d💻", "خادم الملفات", "Bücher 日本語"):
        assert display_line(text) == text
        assert display_text(text) == text


@given(st.text())
def test_the_result_never_holds_a_bidi_control_or_a_line_break(text):
    shown = display_line(text)
    assert not any(c in shown for c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\n\r\u2028\u2029")
