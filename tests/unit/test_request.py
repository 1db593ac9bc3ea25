"""The typed request layer: one type per mode over a shared base, and the
``Literal`` types naming the only values of mode, cancel reason and URL verdict."""

from __future__ import annotations

import dataclasses
from typing import get_args

import pytest

from elicit_tray.elicitation import parse_elicit_params
from elicit_tray.request import (
    CANCEL_HOWS,
    MODES,
    URL_VERDICTS,
    CancelHow,
    FormRequest,
    Mode,
    RequestBase,
    UrlRequest,
    UrlVerdict,
    for_display,
)
from elicit_tray.urlcheck import analyze_url

FORM = {"message": "m", "requestedSchema": {"type": "object", "properties": {}}}
URL = {"mode": "url", "message": "m", "url": "https://example.com/x"}


def names(cls: type) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)}


def test_each_mode_has_its_own_fields_over_the_shared_base() -> None:
    assert names(RequestBase) == {"message", "requester", "peer", "key"}
    assert names(FormRequest) - names(RequestBase) == {"form"}
    assert names(UrlRequest) - names(RequestBase) == {"url", "url_analysis", "elicitation_id", "flow"}
    assert (FormRequest.mode, UrlRequest.mode) == ("form", "url")


def test_the_literal_types_list_exactly_their_values() -> None:
    assert get_args(Mode) == MODES == ("form", "url")
    assert get_args(CancelHow) == CANCEL_HOWS == ("escape", "button", "close", "tray", "timeout")
    assert get_args(UrlVerdict) == URL_VERDICTS == ("ok", "warn", "refuse")


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/",
        "http://example.com/",
        "https://xn--80ak6aa92e.com/",
        "javascript:alert(1)",
        "file:///etc/passwd",
        "https://127.0.0.1/",
    ],
)
def test_every_url_verdict_is_a_url_verdict(url: str) -> None:
    assert analyze_url(url).verdict in URL_VERDICTS


@pytest.mark.parametrize(("params", "kind"), [(FORM, FormRequest), (URL, UrlRequest)])
def test_parsing_and_display_keep_the_type_and_the_key(params: dict, kind: type) -> None:
    request = parse_elicit_params(params)
    shown = for_display(request)
    assert type(request) is type(shown) is kind
    assert shown.key == request.key
