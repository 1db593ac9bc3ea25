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


def test_invisible_characters_of_a_value_are_listed_once_in_order_and_named():
    from elicit_tray.display import describe_char, invisible_chars

    assert invisible_chars("\u200f12 34 56") == ["\u200f"]
    assert invisible_chars("a\u200bb\u202e\u200b\n\u3164") == ["\u200b", "\u202e", "\n", "\u3164"]
    assert invisible_chars("می\u200cخواهم 👩\u200d💻 Bücher") == []
    assert [describe_char(c) for c in "\u200f\n\x07\u3164"] == [
        "U+200F RIGHT-TO-LEFT MARK",
        "U+000A LINE FEED",
        "U+0007",
        "U+3164 HANGUL FILLER",
    ]
    assert display_line("\u3164\u3164") == "\\u3164\\u3164"  # a name of fillers does not look blank


def test_long_runs_get_a_break_opportunity_every_ten_characters_and_short_text_is_untouched():
    from elicit_tray.display import breakable

    assert breakable("a" * 20) == "a" * 20
    assert breakable("a" * 25) == "a" * 10 + "\u200b" + "a" * 10 + "\u200b" + "aaaaa"
    assert (
        breakable("short words " + "b" * 21 + " end") == "short words " + "b" * 10 + "\u200b" + "b" * 10 + "\u200bb end"
    )
    assert breakable("x" * 9 + "\\u202e" + "y" * 10) == "x" * 9 + "\\u202e\u200b" + "y" * 10  # not inside \\u202e
    assert breakable("e\u0301" * 12) == "e\u0301" * 5 + "\u200b" + "e\u0301" * 5 + "\u200b" + "e\u0301" * 2
    assert breakable("&" * 22) == "&" * 22  # never between a mnemonic & and its letter


@given(st.text())
def test_break_opportunities_are_the_only_change(text):
    from elicit_tray.display import breakable

    shown = breakable(text)
    assert shown.replace("\u200b", "") == text.replace("\u200b", "")
    assert shown == text or len(text) > 20


def test_display_is_a_leaf() -> None:
    """``display.py`` imports nothing of elicit_tray (not even inside a function), so every
    layer may use it without an import cycle; whole requests are made honest by
    ``request.for_display``."""
    import ast
    from pathlib import Path

    import elicit_tray.display as display

    tree = ast.parse(Path(display.__file__).read_text(encoding="utf-8"))
    ours = [
        ast.unparse(node)
        for node in ast.walk(tree)
        if (isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("elicit_tray")))
        or (isinstance(node, ast.Import) and any(a.name.startswith("elicit_tray") for a in node.names))
    ]
    assert ours == []
    assert not hasattr(display, "for_display")


def test_bidi_marks_and_deprecated_format_controls_in_a_message_are_shown_not_obeyed():
    # "Pay to account \u200f12 34 56" would read "56 34 12": every mark is shown where it is.
    assert display_text("Pay to account \u200f12 34 56") == "Pay to account \\u200f12 34 56"
    assert display_text("a\u200eb\u061cc\nd\u206ee\u206af") == "a\\u200eb\\u061cc\nd\\u206ee\\u206af"
    for mark in "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u206a\u206f":
        assert display_text(f"x{mark}1 2") == f"x\\u{ord(mark):04x}1 2"
        assert display_line(f"x{mark}1 2") == f"x\\u{ord(mark):04x}1 2"


def test_each_line_of_server_text_is_a_run_of_its_own():
    from elicit_tray.display import FSI, PDI, isolate

    assert isolate("") == ""
    assert isolate("שלום 12") == FSI + "שלום 12" + PDI
    assert isolate("a\n\nb") == FSI + "a" + PDI + "\n\n" + FSI + "b" + PDI


@given(st.text())
def test_isolated_server_text_holds_only_balanced_isolates_of_ours(text):
    from elicit_tray.display import FSI, PDI, isolate

    for line in isolate(display_line(text)).split("\n"):
        assert line == "" or (line[0], line[-1]) == (FSI, PDI)
        assert line.count(FSI) == line.count(PDI) == (1 if line else 0)
