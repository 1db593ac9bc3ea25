"""What the decision history keeps (elicit_tray.history.privacy): the exact rows the recorder
writes for a URL in every spelling of user info and with tokens in its path, and for each kind of
form field under each switch; the table of path segments that are masked and kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from elicit_tray.history import Privacy, history_url
from elicit_tray.history.privacy import masked_path, random_looking
from elicit_tray.request import Accepted, Declined
from tests.rpc import create_line
from tests.unit.test_history import recorder_at, row, run, ts

WHO = {
    "server": "bank",
    "process": "/usr/bin/requester (pid 4242)",
    "pid": 4242,
    "executable": "/usr/bin/requester",
    "uid": 1000,
}


def url_params(url: str) -> dict[str, Any]:
    return {
        "mode": "url",
        "message": "Sign in",
        "elicitationId": "e1",
        "url": url,
        "_meta": {"elicit-tray/requester": {"serverName": "bank"}},
    }


def url_row(got: dict[str, Any], url: str, verdict: str, reasons: list[str]) -> dict[str, Any]:
    return row(
        id=1,
        received=ts(1),
        shown=ts(2),
        answered=ts(3),
        duration_ms=2000.0,
        mode="url",
        message="Sign in",
        url=url,
        url_verdict=verdict,
        url_reasons=reasons,
        outcome="decline",
        request_id=1,
        key=got["key"],
        **WHO,
    )


@pytest.mark.parametrize(
    ("url", "verdict", "reasons"),
    [
        ("https:user:pw@bank.example/login", "refuse", ["ambiguous_authority"]),  # no slashes
        ("https:/user:pw@bank.example/login", "refuse", ["ambiguous_authority"]),
        ("https:///user:pw@bank.example/login", "refuse", ["ambiguous_authority"]),
        ("https:\\\\user:pw@bank.example/login", "refuse", ["ambiguous_authority"]),  # backslashes
        ("https:/\\user:pw@bank.example/login", "refuse", ["ambiguous_authority"]),
        ("https://us\ter:p\nw@bank.example/login", "refuse", ["forbidden_character"]),  # tab, newline
        ("https://user%40corp.example:pw@bank.example/login", "warn", ["userinfo"]),  # %40 in the name
        ("https://a@b:c@bank.example/login", "warn", ["userinfo"]),  # the last @ ends user info
        ("HTTPS://USER:PW@BANK.EXAMPLE:443/login", "warn", ["userinfo"]),  # upper case, default port
        ("https://:pw@bank.example/login", "warn", ["userinfo"]),  # a password without a name
        ("  https://user:pw@bank.example/login  ", "refuse", ["forbidden_character"]),
    ],
)
def test_user_info_is_never_kept_in_any_spelling_the_parser_reads(tmp_path: Path, url, verdict, reasons) -> None:
    recorder, history = recorder_at(tmp_path, Privacy(query=True))
    run(recorder, [Declined()], [create_line(1, url_params(url))])
    (got,) = history.rows()
    assert got == url_row(got, "https://bank.example/login", verdict, reasons)


@pytest.mark.parametrize(
    ("url", "query", "kept"),
    [
        ("https://bank.example/magic-link/s3cret-TOKEN-123", False, "https://bank.example/magic-link/…"),
        ("https://bank.example/reset/8f3a9c1d2e/confirm?t=1#x", False, "https://bank.example/reset/…/confirm"),
        ("https://bank.example/reset/8f3a9c1d2e/confirm?t=1#x", True, "https://bank.example/reset/…/confirm?t=1#x"),
        ("https://bank.example:8443/docs/getting-started", False, "https://bank.example:8443/docs/getting-started"),
        ("https://bank.example/repos/owner/name/pulls/123", False, "https://bank.example/repos/owner/name/pulls/123"),
        ("https://bank.example/verify/482913", False, "https://bank.example/verify/…"),
    ],
)
def test_a_url_keeps_its_origin_and_its_path_with_tokens_masked(tmp_path: Path, url, query, kept) -> None:
    recorder, history = recorder_at(tmp_path, Privacy(query=query))
    run(recorder, [Declined()], [create_line(1, url_params(url))])
    (got,) = history.rows()
    assert got == url_row(got, kept, "ok", [])


@pytest.mark.parametrize(
    ("url", "kept"),
    [
        ("https://bücher.example/straße", "https://xn--bcher-kva.example/stra%C3%9Fe"),  # as the browser opens it
        ("http:u:p@[::1]:99/a b?q=1", "http://[::1]:99/a%20b"),
        ("mailto:a@b.example?subject=x", "mailto:a@b.example"),  # no authority: scheme and path
        ("foo://u:p@h.example/x", "foo://h.example/x"),
        ("file:///etc/passwd", "file:///etc/passwd"),
        ("web+demo:/.//not-a-host/x", "web+demo:/.//not-a-host/x"),  # never reads as a host
        ("data:text/plain;base64,SGVsbG8gV29ybGQhIQ==", "data:text/…"),
        ("https://exa mple/", "<unparseable>"),
        ("", "<unparseable>"),
    ],
)
def test_history_url_of_other_urls(url: str, kept: str) -> None:
    assert history_url(url) == kept


def test_the_query_and_fragment_are_kept_only_when_switched_on() -> None:
    url = "https:u:p@bank.example/a?token=s3cr3t#frag"
    assert (history_url(url), history_url(url, query=True)) == (
        "https://bank.example/a",
        "https://bank.example/a?token=s3cr3t#frag",
    )


#: Path segments that look random (tokens, ids, hashes): each is written "…".
MASKED = [
    "s3cret-TOKEN-123", "8f3a9c1d2e", "550e8400-e29b-41d4-a716-446655440000",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "AKIAIOSFODNN7EXAMPLE", "sk_live_51H8xYzAbC",
    "ghp_16C7e42F292c6912E7710c838347Ae178B4a", "dQw4w9WgXcQ", "AbCdEfGhIjKlMnOpQrStUv", "1790000000123",
    "a1b2c3", "user1234", "x" * 33, "%FF%FE", "abc%2F12de3f",
]  # fmt: skip
#: Path segments that are words or short numbers: each is kept as it is.
KEPT = [
    "docs", "getting-started", "repos", "owner", "name", "pulls", "123", "v2", "api", "sha256", "python3",
    "index.html", "2026-12-02", "report_2026-Q4.pdf", "XMLHttpRequest", "McDonald", "iPhone", "i18n", "k8s",
    "2fa", "1080p", "en-US", "Main_Page", "~user", "@user", "%D0%9F%D0%B0%D1%80%D0%BE%D0%BB%D1%8C", "東京",
    "123456789", "a%20b",
]  # fmt: skip


@pytest.mark.parametrize("segment", MASKED)
def test_a_random_looking_segment_is_masked(segment: str) -> None:
    assert masked_path(f"/docs/{segment}/view") == "/docs/…/view"


@pytest.mark.parametrize("segment", KEPT)
def test_a_word_or_short_number_is_kept(segment: str) -> None:
    assert masked_path(f"/docs/{segment}/view") == f"/docs/{segment}/view"


@pytest.mark.parametrize(
    ("path", "masked"),
    [
        ("/verify/482913", "/verify/…"),  # a short code after a credential word
        ("/password-reset/abc123/done", "/password-reset/…/done"),
        ("/invite/Team-42", "/invite/…"),
        ("/tokens/new", "/tokens/new"),  # a plain word after one is kept
        ("/reset/confirm/done", "/reset/confirm/done"),
        ("/pulls/482913", "/pulls/482913"),  # a number after any other word is kept
        ("/", "/"),
        ("", ""),
        ("//a", "//a"),
    ],
)
def test_a_segment_after_a_credential_word_is_kept_only_as_a_plain_word(path: str, masked: str) -> None:
    assert masked_path(path) == masked


def test_random_looking_judges_decoded_text() -> None:
    assert (random_looking("getting started"), random_looking("s3cret"), random_looking("")) == (False, True, False)


# -- form values ----------------------------------------------------------------------------------

FORM = {
    "message": "Book it?",
    "requestedSchema": {
        "type": "object",
        "properties": {
            "ok": {"type": "boolean", "title": "Agree"},
            "size": {"type": "string", "title": "Size", "enum": ["s", "m"]},
            "tags": {"type": "array", "title": "Tags", "items": {"type": "string", "enum": ["a", "b", "c"]}},
            "count": {"type": "integer", "title": "Count"},
            "price": {"type": "number", "title": "Price"},
            "day": {"type": "string", "title": "Day", "format": "date"},
            "at": {"type": "string", "title": "At", "format": "date-time"},
            "note": {"type": "string", "title": "Note"},
            "mail": {"type": "string", "title": "Mail", "format": "email"},
            "site": {"type": "string", "title": "Site", "format": "uri"},
            "pin": {"type": "integer", "title": "PIN"},
            "seed_phrase": {"type": "string", "title": "Recovery words"},
            "Passwort": {"type": "string"},
        },
    },
    "_meta": {"elicit-tray/requester": {"serverName": "shop"}},
}
CONTENT = {
    "ok": True,
    "size": "m",
    "tags": ["a", "c"],
    "count": 3,
    "price": 9.5,
    "day": "2026-12-02",
    "at": "2026-12-02T09:30:00+01:00",
    "note": "call me at 555-0100",
    "mail": "ada@example.com",
    "site": "https:ada:pw@shop.example/reset/8f3a9c1d2e?x=1",
    "pin": 1234,
    "seed_phrase": "abandon ability able",
    "Passwort": "hunter2",
}
CHOICES = {"ok": True, "size": "m", "tags": ["a", "c"], "count": 3, "price": 9.5, "day": "2026-12-02"}
CHOICES["at"] = "2026-12-02T09:30:00+01:00"
TEXTS = {"note": "call me at 555-0100", "mail": "ada@example.com", "site": "https://shop.example/reset/…"}
TITLES = {
    "ok": "Agree",
    "size": "Size",
    "tags": "Tags",
    "count": "Count",
    "price": "Price",
    "day": "Day",
    "at": "At",
    "note": "Note",
    "mail": "Mail",
    "site": "Site",
    "pin": "PIN",
    "seed_phrase": "Recovery words",
    "Passwort": "Passwort",
}
SECRET = {"pin", "seed_phrase", "Passwort"}


def fields(kept: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for name, title in TITLES.items():
        item: dict[str, Any] = {"name": name, "title": title, "secret": name in SECRET}
        if name in kept:
            item["value"] = kept[name]
        out.append(item)
    return out


@pytest.mark.parametrize(
    ("privacy", "kept"),
    [
        (Privacy(), CHOICES),  # the default: choices, no free text, never a secret
        (Privacy(values=False), {}),
        (Privacy(text=True), {**CHOICES, **TEXTS}),
        (Privacy(values=False, text=True), TEXTS),
        (Privacy(text=True, query=True), {**CHOICES, **TEXTS, "site": "https://shop.example/reset/…?x=1"}),
    ],
    ids=["default", "no-values", "text", "text-only", "text-and-query"],
)
def test_each_kind_of_field_under_each_switch(tmp_path: Path, privacy: Privacy, kept: dict[str, Any]) -> None:
    recorder, history = recorder_at(tmp_path, privacy)
    run(recorder, [Accepted(CONTENT)], [create_line(5, FORM)])
    (got,) = history.rows()
    assert got == row(
        id=1,
        received=ts(1),
        shown=ts(2),
        answered=ts(3),
        duration_ms=2000.0,
        server="shop",
        process="/usr/bin/requester (pid 4242)",
        pid=4242,
        executable="/usr/bin/requester",
        uid=1000,
        mode="form",
        message="Book it?",
        fields=fields(kept),
        outcome="accept",
        request_id=5,
        key=got["key"],
    )


def test_a_pending_row_keeps_titles_and_no_value(tmp_path: Path) -> None:
    recorder, history = recorder_at(tmp_path, Privacy(text=True))
    run(recorder, [None], [create_line(5, FORM)])
    assert history.rows()[0]["fields"] == fields({})
