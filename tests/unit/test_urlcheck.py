"""Behaviour of elicit_tray.urlcheck (MCP 2025-11-25 client/elicitation, Safe URL Handling).

Corpus rows come from the project's copy of the cases, ``tests/cases`` (override the directory
with the ``ELICIT_TRAY_CASES`` environment variable).  No Qt is imported here.
"""

from __future__ import annotations

import ada_url
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from elicit_tray.urlcheck import REASON_TABLE, REASONS, UrlAnalysis, analyze_url, visible_url
from elicit_tray.urlcheck.reasons import SEVERITY, verdict
from tests.conftest import load_cases

CORPUS = load_cases("urls-corpus.jsonl")
URL_CASES = {case["id"]: case for case in load_cases("url.jsonl")}


def needs_cases(test):
    """Kept as a marker of the corpus-driven tests (the cases always ship in tests/cases)."""
    return test


# --- corpus -------------------------------------------------------------------------------
@needs_cases
def test_the_corpus_has_all_thirty_two_rows():
    assert len(CORPUS) == 32


@pytest.mark.parametrize("row", CORPUS, ids=[row["url"] for row in CORPUS])
def test_corpus_url_gets_the_expected_verdict_host_and_registrable_domain(row):
    result = analyze_url(row["url"])
    assert result.verdict == row["verdict"]
    assert result.display_host == row["display_host"]
    assert result.registrable_domain == row["registrable_domain"]
    assert set(row["reasons"]) <= set(result.reasons)
    assert result.url == row["url"]
    assert result.can_open == (row["verdict"] != "refuse")


# --- url.jsonl expectations that concern the analysis ------------------------------------
def _case_url(case_id: str) -> str:
    if case_id not in URL_CASES:
        pytest.skip(f"case {case_id} not in url.jsonl")
    return URL_CASES[case_id]["params"]["url"]


def test_a_plain_https_consent_url_is_ok_and_highlights_its_registrable_domain():
    result = analyze_url(_case_url("url-consent"))
    assert result.verdict == "ok"
    assert result.registrable_domain == "example.com"
    assert result.host_parts() == ("auth.", "example.com", "")
    assert result.href == "https://auth.example.com/connect?flow=3f1c2a9e"


def test_a_javascript_url_is_refused_because_of_its_scheme():
    result = analyze_url(_case_url("url-javascript-refused"))
    assert result.verdict == "refuse"
    assert "scheme_not_allowed" in result.reasons
    assert result.scheme == "javascript"
    assert not result.can_open and result.href is None


def test_a_cyrillic_lookalike_punycode_host_is_shown_as_punycode_with_a_warning():
    result = analyze_url(_case_url("url-punycode-spoof"))
    assert result.verdict == "warn"
    assert result.display_host == "xn--80ak6aa92e.com"
    assert "idn_shown_as_punycode" in result.reasons
    assert result.unicode_host == "аррӏе.com"


def test_userinfo_before_the_host_shows_the_real_host_with_a_warning():
    result = analyze_url(_case_url("url-userinfo"))
    assert result.verdict == "warn"
    assert "userinfo" in result.reasons
    assert result.display_host == "evil.example.net"
    assert result.registrable_domain == "example.net"
    assert "accounts" not in result.display_host


# --- further behaviour ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "url, verdict, reason, host",
    [
        ("https:evil.com", "refuse", "ambiguous_authority", None),
        ("https:///evil.com", "refuse", "ambiguous_authority", None),
        ("https://1.2.3.256/", "refuse", "unparseable", None),
        ("https://evil.com%2F%2Egoogle.com/", "refuse", "unparseable", None),
        ("https://xn---bbk.com/", "refuse", "invalid_idna", None),
        ("java\tscript:alert(1)", "refuse", "forbidden_character", None),
        ("https://ex\u200bample.com/", "refuse", "forbidden_character", None),
        ("vbscript:msgbox", "refuse", "scheme_not_allowed", None),
        ("http://0xC0A80101/", "warn", "ip_noncanonical", "192.168.1.1"),
        ("https://ex%61mple.com/", "warn", "host_normalized", "example.com"),
        ("https://google\u3002com/", "warn", "host_normalized", "google.com"),
        ("https://XN--80AK6AA92E.COM/", "warn", "idn_whole_script_confusable", "xn--80ak6aa92e.com"),
        ("https://p\u0430ypal.com/", "warn", "idn_mixed_script", "xn--pypal-4ve.com"),
        (
            "https://www.paypal.com.account-check.example.net/",
            "warn",
            "subdomain_embeds_domain",
            "www.paypal.com.account-check.example.net",
        ),
        ("https://" + "a" * 64 + ".com/", "refuse", "invalid_host", None),
        ("https://" + "a." * 126 + "com/", "warn", "host_too_long", "a." * 126 + "com"),
        ("https://printer.local/", "warn", "local_target", "printer.local"),
        ("https://аррӏе.рф/", "ok", None, "аррӏе.рф"),
        ("https://ικα.gr/", "ok", None, "ικα.gr"),
        ("https://café.fr/", "ok", None, "café.fr"),
    ],
)
def test_notable_urls_are_classified_as_the_research_note_says(url, verdict, reason, host):
    result = analyze_url(url)
    assert result.verdict == verdict
    if reason:
        assert reason in result.reasons
    else:
        assert result.reasons == ()
    assert result.display_host == host


def test_plain_http_to_loopback_is_not_flagged_insecure_but_to_other_hosts_it_is():
    assert "insecure_scheme" not in analyze_url("http://[::1]:3000/callback").reasons
    assert "insecure_scheme" not in analyze_url("http://127.0.0.1/").reasons
    assert "insecure_scheme" in analyze_url("http://10.0.0.1/").reasons


def test_non_string_input_is_refused_as_unparseable_instead_of_raising():
    for value in (None, b"https://example.com/", 42, ["https://example.com/"]):
        result = analyze_url(value)
        assert result.verdict == "refuse"
        assert result.reasons == ("unparseable",)
        assert result.href is None and result.display_host is None


def test_every_reported_reason_has_a_plain_words_sentence():
    urls = [row["url"] for row in CORPUS] + ["https://xn--ls8h.la/", "http://127.1/"]
    for url in urls:
        for reason in analyze_url(url).reasons:
            assert REASONS[reason].endswith(".")


def test_to_json_has_exactly_the_four_corpus_keys():
    data = analyze_url("https://google.com@evil.com/").to_json()
    assert data == {
        "verdict": "warn",
        "reasons": ["userinfo"],
        "display_host": "evil.com",
        "registrable_domain": "evil.com",
    }


def test_host_parts_split_around_the_registrable_domain_and_keep_a_trailing_dot():
    assert analyze_url("https://a.b.example.com./").host_parts() == ("a.b.", "example.com", ".")
    assert analyze_url("http://localhost:8765/").host_parts() == ("", "localhost", "")
    assert analyze_url("javascript:alert(1)").host_parts() == ("", "", "")


def test_visible_url_escapes_invisible_bidi_and_space_characters_only():
    assert visible_url("https://e\u200bx.com/\u202efdp exe") == ("https://e\\u200bx.com/\\u202efdp\\u0020exe")
    assert visible_url("a\U000e0001b") == "a\\U000e0001b"
    assert visible_url("https://bücher.de/日本") == "https://bücher.de/日本"


def test_reasons_are_reported_in_a_deterministic_order():
    first = analyze_url("http://3232235777/").reasons
    assert first == analyze_url("http://3232235777/").reasons
    assert list(first) == sorted(first, key=list(REASONS).index)


def test_each_reason_states_its_severity_in_the_one_table():
    assert len({r.id for r in REASON_TABLE}) == len(REASON_TABLE) == len(REASONS)
    assert {r.id for r in REASON_TABLE if r.severity == "refuse"} == {
        "unparseable",
        "forbidden_character",
        "bidi_control",
        "ambiguous_authority",
        "scheme_not_allowed",
        "invalid_host",
        "invalid_idna",
    }
    assert {r.severity for r in REASON_TABLE} == {"refuse", "warn"}
    assert all(REASONS[r.id] == r.sentence and r.sentence.endswith(".") for r in REASON_TABLE)


def test_the_verdict_is_the_most_serious_severity_of_the_reasons():
    assert verdict([]) == "ok"
    assert verdict(["insecure_scheme", "userinfo"]) == "warn"
    assert verdict(["insecure_scheme", "invalid_host"]) == "refuse"
    urls = [row["url"] for row in CORPUS] + ["https://xn--ls8h.la/", "http://127.1/", "https://example.com/"]
    for url in urls:
        result = analyze_url(url)
        severities = {SEVERITY[r] for r in result.reasons}
        assert result.verdict == ("refuse" if "refuse" in severities else "warn" if severities else "ok")
        assert result.can_open == (result.verdict != "refuse")


# --- properties ----------------------------------------------------------------------------
_LABEL = st.one_of(
    st.from_regex(r"[a-z0-9-]{1,12}", fullmatch=True),
    st.text(min_size=1, max_size=8),
    st.sampled_from(
        [
            "xn--80ak6aa92e",
            "xn--bcher-kva",
            "xn--",
            "xn--zz",
            "xn---bbk",
            "bücher",
            "аррӏе",
            "ｇｏｏｇｌｅ",
            "%61",
            "127",
            "0x7f",
            "[::1]",
            "日本語",
            "💩",
        ]
    ),
)
_URLISH = st.builds(
    lambda scheme, sep, user, labels, port, path: f"{scheme}{sep}{user}{'.'.join(labels)}{port}{path}",
    st.sampled_from(["https:", "http:", "HTTPS:", "javascript:", "file:", "ftp:", "", "h"]),
    st.sampled_from(["//", "/", "///", "\\\\", ""]),
    st.sampled_from(["", "user@", "a:b@", "google.com@", "@"]),
    st.lists(_LABEL, min_size=1, max_size=4),
    st.sampled_from(["", ":80", ":3000", ":99999", ":x"]),
    st.sampled_from(["", "/", "/a?b#c", "/\u202e", "?q=1"]) | st.text(max_size=10),
)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_analyze_url_never_raises_on_arbitrary_text(text):
    result = analyze_url(text)
    assert isinstance(result, UrlAnalysis)
    assert result.verdict in ("ok", "warn", "refuse")


@settings(max_examples=400, deadline=None)
@given(_URLISH)
def test_an_openable_result_opens_exactly_the_host_it_analysed(url):
    result = analyze_url(url)
    assert result.verdict in ("ok", "warn", "refuse")
    if result.can_open:
        assert result.href is not None and result.href.isascii()
        assert ada_url.parse_url(result.href)["hostname"] == result.ascii_host
        assert result.scheme in ("http", "https")
        before, middle, after = result.host_parts()
        assert before + middle + after == result.display_host
    else:
        assert result.href is None and result.display_host is None


@settings(max_examples=300, deadline=None)
@given(_URLISH)
def test_a_url_the_browser_accepts_is_never_called_unparseable(url):
    result = analyze_url(url)
    if result.scheme in ("http", "https") and ada_url.check_url(url):
        assert "unparseable" not in result.reasons
