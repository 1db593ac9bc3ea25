"""Issue 10 ("what the user reads is the truth") in the URL consent dialog.

* The full URL reads left to right in its own order whatever scripts its parts use: measured
  on the laid-out glyphs of the ``full-url`` box (:func:`reads_left_to_right`, also used by
  tests/ui/test_cases.py for ``url_reads_left_to_right``).
* The registrable domain on the "Website:" line is always in view: a long subdomain is elided
  from the left, a too-wide registrable domain is broken across lines, never cut.
* What Open hands to the browser is exactly the href the dialog shows, and
  ``presenter.system_browser`` opens nothing Qt would reject or rewrite.
"""

from __future__ import annotations

import asyncio

import pytest
from PySide6.QtCore import QLocale, Qt, QUrl
from PySide6.QtGui import QFont, QFontMetricsF, QTextDocument, QTextOption
from PySide6.QtWidgets import QPlainTextEdit

from elicit_tray.ui import presenter
from elicit_tray.ui.i18n import install_translations
from elicit_tray.ui.url_dialog import LRI, PDI, _describe_reason, ltr_isolated
from elicit_tray.urlcheck import analyze_url
from tests.ui.harness import Tray, shown_texts

#: Characters that separate the parts of a URL (labels, path segments, query fields).
SEPARATORS = frozenset("/?#[]@:.&=;,")


def _parts_on_screen(box: QPlainTextEdit) -> list[tuple[str, list[tuple[int, float, float]]]]:
    """The URL's logical parts (runs of non-separators; each separator on its own) with, per
    part, ``(line, left, right)`` of every glyph run of its characters as laid out."""
    block = box.document().firstBlock()
    layout = block.layout()
    parts: list[list] = []
    for i, ch in enumerate(block.text()):
        if ch in (LRI, PDI):
            continue
        separator = ch in SEPARATORS
        if not parts or separator or parts[-1][0]:
            parts.append([separator, "", []])
        parts[-1][1] += ch
        line = layout.lineForTextPosition(i).lineNumber()
        for run in layout.glyphRuns(i, 1):
            rect = run.boundingRect()
            if rect.width() > 0:
                parts[-1][2].append((line, rect.left(), rect.right()))
    return [(text, extents) for _, text, extents in parts]


def reads_left_to_right(box: QPlainTextEdit) -> bool:
    """Whether every part of the URL in ``box`` is drawn after (right of, or on a later line
    than) the part before it: the visual order of the parts is their logical order."""
    previous_end = None
    for text, extents in _parts_on_screen(box):
        assert extents, f"no glyphs drawn for {text!r}"
        first_line = min(line for line, _, _ in extents)
        last_line = max(line for line, _, _ in extents)
        left = min(lft for line, lft, _ in extents if line == first_line)
        right = max(rgt for line, _, rgt in extents if line == last_line)
        if previous_end is not None:
            prev_line, prev_right = previous_end
            if first_line < prev_line or (first_line == prev_line and left < prev_right - 0.5):
                return False
        previous_end = (last_line, right)
    return True


def _plain_box(text: str, like: QPlainTextEdit) -> QPlainTextEdit:
    """The box as it was before the fix: the URL as plain text, no direction set."""
    box = QPlainTextEdit()
    box.setReadOnly(True)
    box.setFont(like.font())
    box.setWordWrapMode(QTextOption.WrapMode.WrapAnywhere)
    box.setPlainText(text)
    box.resize(like.size())
    box.show()
    return box


def _dialog(aio, url: str):
    tray = Tray(aio)
    channel, dialog = tray.ask({"mode": "url", "message": "Connect", "url": url}, [])
    return tray, channel, dialog


# --- the full URL reads in its own order -----------------------------------------------------
RTL_URLS = [
    "https://facebook.com.مصر/٠/123",
    "https://مصر.example/שלום/123?x=١٢٣&y=abc#frag",
    "https://example.com/" + "مصر/٤٥/" * 20 + "end",  # wraps over several lines
]


def test_the_full_url_box_shows_every_part_in_the_urls_own_order(aio):
    for url in RTL_URLS:
        tray, channel, dialog = _dialog(aio, url)
        box = dialog.url_box
        assert reads_left_to_right(box), url
        assert box.toPlainText().replace(LRI, "").replace(PDI, "") == url
        assert box.document().defaultTextOption().textDirection() == Qt.LayoutDirection.LeftToRight
        # The check itself fails on the box as it was (plain text): the Arabic label and the
        # Arabic-Indic digit swap places with the parts after them.
        old = _plain_box(url, box)
        aio.run_until_complete(asyncio.sleep(0))
        assert not reads_left_to_right(old), url
        old.close()
        tray.disconnect(channel)


def test_a_plain_url_is_shown_unchanged_and_reads_left_to_right(aio):
    url = "https://auth.example.com/connect?flow=3f1c2a9e#x"
    tray, channel, dialog = _dialog(aio, url)
    assert dialog.url_box.toPlainText() == url
    assert reads_left_to_right(dialog.url_box)
    tray.disconnect(channel)


def test_copying_from_the_url_box_gives_the_url_without_the_isolates(aio):
    url = RTL_URLS[0]
    tray, channel, dialog = _dialog(aio, url)
    dialog.url_box.selectAll()
    assert dialog.url_box.createMimeDataFromSelection().text() == url
    tray.disconnect(channel)


def test_ltr_isolated_wraps_only_the_parts_that_would_move():
    assert ltr_isolated("https://example.com/a") == "https://example.com/a"
    assert ltr_isolated("example.com", whole=True) == LRI + "example.com" + PDI
    assert ltr_isolated("https://facebook.com.مصر/٠/123") == (
        LRI + "https://facebook.com." + LRI + "مصر" + PDI + "/" + LRI + "٠" + PDI + "/123" + PDI
    )
    assert ltr_isolated("com.مصر") == LRI + "com." + LRI + "مصر" + PDI + PDI


# --- the registrable domain stays in view ----------------------------------------------------
def _visible_lines(label) -> list[tuple[str, float]]:
    """(text, width) of each line of the host label as laid out at the label's width."""
    document = QTextDocument()
    document.setDefaultFont(label.font())
    document.setDocumentMargin(0)
    document.setHtml(label.text())
    document.setTextWidth(label.contentsRect().width())
    document.size()  # lays the document out
    layout = document.firstBlock().layout()
    text = document.firstBlock().text()
    lines = []
    for n in range(layout.lineCount()):
        line = layout.lineAt(n)
        lines.append((text[line.textStart() : line.textStart() + line.textLength()], line.naturalTextWidth()))
    return lines


def _assert_in_view(dialog) -> None:
    label = dialog.host_label
    viewport = dialog.scroll.viewport()
    assert dialog.scroll.widget().width() <= viewport.width()
    right_edge = label.mapTo(viewport, label.rect().topRight()).x()
    assert right_edge <= viewport.width()
    for _text, width in _visible_lines(label):
        assert width <= label.contentsRect().width()


def test_a_300_character_subdomain_is_elided_from_the_left_and_the_domain_stays_visible(aio):
    subdomain = ".".join(f"accounts-security-verification-{i:02d}" for i in range(9))[:300].rstrip(".-")
    assert len(subdomain) == 300
    tray, channel, dialog = _dialog(aio, f"https://{subdomain}.example.com/login")
    label = dialog.host_label
    _assert_in_view(dialog)
    [(before, domain, after)] = label.lines
    assert (domain, after) == ("example.com", "")
    assert before.startswith("\u2026") and (subdomain + ".").endswith(before[1:]) and len(before) > 10
    # The registrable domain, in the bold font it is drawn in, ends within the label's width.
    bold = QFont(label.font())
    bold.setBold(True)
    lines = _visible_lines(label)
    assert lines[-1][0].endswith("example.com")
    plain_width = QFontMetricsF(label.font()).horizontalAdvance(before)
    assert plain_width + QFontMetricsF(bold).horizontalAdvance("example.com") <= label.contentsRect().width()
    assert "<b><u>example.com</u></b>" in label.text()
    assert label.accessibleName() == f"Website {subdomain}.example.com, which belongs to example.com"
    tray.disconnect(channel)


def test_a_registrable_domain_wider_than_the_label_is_broken_across_lines_not_cut(aio):
    domain = "q" * 63 + ".co.uk"
    tray, channel, dialog = _dialog(aio, f"https://www.{domain}/x")
    label = dialog.host_label
    # (The plain "This address belongs to the site ..." line below is a word-wrapped label
    # that Qt does not break inside a word; only the host line is checked here.)
    assert label.minimumSizeHint().width() < 100
    for _text, width in _visible_lines(label):
        assert width <= label.contentsRect().width()
    assert len(label.lines) >= 2
    assert "".join(part for _b, d, _a in label.lines for part in d) == domain
    assert label.lines[0][0] == "\u2026"  # "www." gave way first
    tray.disconnect(channel)


def test_a_short_host_keeps_the_website_line_on_one_line(aio):
    tray, channel, dialog = _dialog(aio, "https://auth.example.com/x")
    assert dialog.host_label.lines == [("auth.", "example.com", "")]
    assert dialog.host_label.text() == "Website: auth.<b><u>example.com</u></b>"
    tray.disconnect(channel)


# --- the browser gets exactly the href the dialog shows ----------------------------------------
def test_open_hands_the_browser_exactly_the_href_the_dialog_shows(aio):
    from elicit_tray.ui.scripted import perform

    tray = Tray(aio)
    channel, dialog = tray.ask({"mode": "url", "message": "Connect", "url": "https://example.com/%zz?q={x}"}, [])
    href = "https://example.com/%25zz?q=%7Bx%7D"
    assert "The browser will open exactly this address:\n" + href in shown_texts(dialog)
    perform(dialog, [{"do": "open"}])
    assert tray.reply(channel)["result"] == {"action": "accept"}
    assert tray.browser.opened == [href]
    assert QUrl(href, QUrl.ParsingMode.StrictMode).toString(QUrl.ComponentFormattingOption.FullyEncoded) == href


def test_system_browser_opens_only_what_qt_writes_back_unchanged(monkeypatch):
    opened: list[str] = []

    def fake_open(url: QUrl) -> bool:
        opened.append(url.toString(QUrl.ComponentFormattingOption.FullyEncoded))
        return True

    monkeypatch.setattr(presenter.QDesktopServices, "openUrl", staticmethod(fake_open))
    assert presenter.system_browser("https://example.com/%25zz") is True
    assert presenter.system_browser("https://[::ffff:8.8.8.8]/") is True
    assert opened == ["https://example.com/%25zz", "https://[::ffff:8.8.8.8]/"]
    for rejected_or_rewritten in (
        "https://example.com/%zz",
        "https://a-.example.com/",
        "https://example.com/%7e",
        "https://[::ffff:808:808]/",
    ):
        assert presenter.system_browser(rejected_or_rewritten) is False
    assert len(opened) == 2


# --- a look-alike names the site it imitates ----------------------------------------------------
LOOK_ALIKES = [
    (
        "https://paypal.com-secure.net/login",
        "The address spells out {domain} with dots or dashes, but it leads to a different site.",
        "paypal.com",
    ),
    (
        "https://login.paypal.evil.net/",
        "The name of {domain} is only part of this address: it leads to a different site.",
        "paypal.com",
    ),
    (
        "https://github-login.info/",
        "The site name joins the name of {domain} with other words, but it is not that site.",
        "github.com",
    ),
    (
        "https://githuh.com/",
        "The site name looks almost identical to a well-known site. It looks like {domain}, but it is not that site.",
        "github.com",
    ),
    (
        "https://google.com.evil.net/",
        "The address contains the name of a well-known site, but it leads to a different site. "
        "It looks like {domain}, but it is not that site.",
        "google.com",
    ),
]


@pytest.mark.parametrize("url, sentence, imitated", LOOK_ALIKES)
def test_the_warning_of_a_look_alike_names_the_site_it_imitates(aio, url, sentence, imitated):
    tray, channel, dialog = _dialog(aio, url)
    warning = sentence.replace("{domain}", ltr_isolated(imitated))
    assert dialog.warnings == [warning]
    assert warning in shown_texts(dialog)
    assert dialog.open_button.isEnabled()
    tray.disconnect(channel)


def test_the_look_alike_warning_names_the_site_in_german_and_arabic(aio):
    try:
        install_translations(QLocale("de_DE"))
        analysis = analyze_url("https://paypal-com.evil.net/")
        assert _describe_reason("target_embedding", analysis) == (
            f"Die Adresse schreibt {ltr_isolated('paypal.com')} mit Punkten oder Bindestrichen aus, "
            "führt aber zu einer anderen Website."
        )
        install_translations(QLocale("ar_EG"))
        analysis = analyze_url("https://login.paypal.evil.net/")
        assert _describe_reason("brand_in_subdomain", analysis) == (
            f"اسم {ltr_isolated('paypal.com')} ليس سوى جزء من هذا العنوان: فهو يؤدي إلى موقع مختلف."
        )
    finally:
        install_translations(QLocale("en_US"))
