"""Pure unit tests of ``elicit_tray.elicitation``: params -> request, outcome -> ElicitResult."""

from __future__ import annotations

from typing import Any

import pytest

from elicit_tray.elicitation import ParamsError, parse_elicit_params
from elicit_tray.request import (
    MODES,
    Accepted,
    Cancelled,
    Declined,
    ElicitationRequest,
    Failed,
    FormRequest,
    Peer,
    Requester,
    UrlRequest,
    outcome_to_result,
)
from elicit_tray.schema import FieldKind, Violation

SCHEMA = {"type": "object", "properties": {"name": {"type": "string", "title": "Name"}}, "required": ["name"]}
REQUESTER_PATH = "/_meta/elicit-tray~1requester"


def form_params(**extra: Any) -> dict[str, Any]:
    return {"message": "Who are you?", "requestedSchema": SCHEMA, **extra}


def url_params(**extra: Any) -> dict[str, Any]:
    return {"mode": "url", "message": "Sign in", "url": "https://example.com/login", "elicitationId": "e-1", **extra}


def with_requester(params: dict[str, Any], **requester: Any) -> dict[str, Any]:
    return {**params, "_meta": {"elicit-tray/requester": requester}}


def violations(params: dict[str, Any]) -> list[Violation]:
    with pytest.raises(ParamsError) as info:
        parse_elicit_params(params)
    return info.value.violations


def paths(params: dict[str, Any]) -> list[str]:
    return [v.path for v in violations(params)]


# -- modes ------------------------------------------------------------------------------------------


def test_a_request_without_mode_is_a_form_request() -> None:
    request = parse_elicit_params(form_params())
    assert request.mode == "form"
    assert request.message == "Who are you?"
    assert request.form is not None
    assert [(f.name, f.kind, f.title, f.required) for f in request.form.fields] == [
        ("name", FieldKind.TEXT, "Name", True)
    ]
    assert request.form.schema is SCHEMA
    assert isinstance(request, FormRequest)  # a form request has no URL fields at all
    assert not any(hasattr(request, name) for name in ("url", "url_analysis", "elicitation_id"))
    assert request.requester == Requester()
    assert request.peer == Peer()


def test_an_explicit_form_mode_is_a_form_request() -> None:
    assert parse_elicit_params(form_params(mode="form")).mode == "form"


def test_a_url_request_carries_its_url_analysis_and_elicitation_id() -> None:
    request = parse_elicit_params(url_params())
    assert (request.mode, request.message, request.url, request.elicitation_id) == (
        "url",
        "Sign in",
        "https://example.com/login",
        "e-1",
    )
    assert isinstance(request, UrlRequest) and not hasattr(request, "form")
    assert request.url_analysis.verdict == "ok"
    assert request.url_analysis.display_host == "example.com"


def test_a_url_request_without_elicitation_id_is_accepted_as_in_2026_07_28() -> None:
    params = url_params()
    del params["elicitationId"]
    assert parse_elicit_params(params).elicitation_id is None


@pytest.mark.parametrize("url", [None, "", 5])
def test_url_mode_requires_a_url(url: Any) -> None:
    params = url_params()
    if url is None:
        del params["url"]
    else:
        params["url"] = url
    assert violations(params) == [Violation("/url", '"url" must be a non-empty string in url mode')]


def test_a_refused_url_is_still_a_request_the_dialog_shows_as_refused() -> None:
    request = parse_elicit_params(url_params(url="javascript:alert(1)"))
    assert request.url_analysis is not None
    assert request.url_analysis.verdict == "refuse"


def test_a_non_string_elicitation_id_is_a_violation() -> None:
    assert paths(url_params(elicitationId=7)) == ["/elicitationId"]


@pytest.mark.parametrize("mode", ["sms", "FORM", "", None, 1, ["form"]])
def test_an_unknown_mode_is_refused_at_the_mode_path(mode: Any) -> None:
    assert paths(form_params(mode=mode)) == ["/mode"]


def test_the_rendered_modes_are_form_and_url() -> None:
    assert MODES == ("form", "url")


def test_a_mode_the_client_did_not_declare_is_refused() -> None:
    found = violations(with_requester(form_params(), serverName="s", declaredModes=["url"]))
    assert found == [Violation("/mode", 'mode "form" was not declared by the client (declared: url)')]


def test_no_declared_modes_refuses_every_mode() -> None:
    found = violations(with_requester(url_params(), declaredModes=[]))
    assert found == [Violation("/mode", 'mode "url" was not declared by the client (declared: none)')]


def test_a_declared_mode_is_accepted() -> None:
    request = parse_elicit_params(with_requester(url_params(), declaredModes=["form", "url"]))
    assert request.mode == "url"
    assert request.requester.declared_modes == ("form", "url")


def test_declared_modes_apply_to_a_request_without_mode() -> None:
    assert paths(with_requester({"message": "m", "requestedSchema": SCHEMA}, declaredModes=["url"])) == ["/mode"]


# -- requester identity -----------------------------------------------------------------------------


def test_the_requester_fields_are_parsed() -> None:
    params = with_requester(
        form_params(),
        serverName="weather",
        serverTitle="Weather",
        serverVersion="1.2",
        clientName="agent",
        declaredModes=["form"],
    )
    request = parse_elicit_params(params, Peer(pid=42, uid=1000, process_name="python3"))
    assert request.requester == Requester(
        server_name="weather",
        server_title="Weather",
        server_version="1.2",
        client_name="agent",
        declared_modes=("form",),
    )
    assert request.requester.label == "Weather (weather) 1.2"
    assert request.peer == Peer(pid=42, uid=1000, process_name="python3")
    assert request.peer.label == "python3 (pid 42), as the process names itself; its executable is unknown"
    assert (
        Peer(
            pid=42,
            uid=1000,
            process_name="python3",
            executable="/usr/bin/python3.11",
            argv=("python3", "/home/u/my agent.py", "--x"),
        ).label
        == "/usr/bin/python3.11 '/home/u/my agent.py' --x (pid 42)"
    )
    assert Peer(uid=1000).label is None


def test_empty_requester_strings_are_treated_as_absent() -> None:
    request = parse_elicit_params(with_requester(form_params(), serverName="", serverTitle="Weather"))
    assert request.requester == Requester(server_title="Weather")
    assert request.requester.label == "Weather"


def test_other_meta_keys_are_ignored() -> None:
    request = parse_elicit_params(form_params(_meta={"progressToken": 1, "other/key": {"x": 1}}))
    assert request.requester == Requester()
    assert request.requester.label is None


def test_a_requester_that_is_not_an_object_is_a_violation() -> None:
    params = form_params(_meta={"elicit-tray/requester": "me"})
    assert violations(params) == [Violation(REQUESTER_PATH, "must be an object")]


def test_every_bad_requester_field_is_a_violation() -> None:
    params = with_requester(form_params(), serverName=5, clientName=["x"], declaredModes="form")
    assert paths(params) == [
        f"{REQUESTER_PATH}/serverName",
        f"{REQUESTER_PATH}/clientName",
        f"{REQUESTER_PATH}/declaredModes",
    ]


# -- form params ------------------------------------------------------------------------------------


def test_schema_violations_are_reported_under_requested_schema() -> None:
    schema = {
        "type": "object",
        "properties": {"address": {"type": "object"}, "size": {"type": "string", "enum": ["s", 1]}},
    }
    assert paths(form_params(requestedSchema=schema)) == [
        "/requestedSchema/properties/address",
        "/requestedSchema/properties/size/enum/1",
    ]


def test_a_requested_schema_that_is_not_an_object_is_a_violation_at_its_path() -> None:
    assert violations(form_params(requestedSchema="text")) == [
        Violation("/requestedSchema", "requestedSchema must be a JSON object")
    ]


def test_form_mode_requires_a_requested_schema() -> None:
    assert violations({"message": "m"}) == [Violation("/requestedSchema", '"requestedSchema" is required in form mode')]


def test_every_problem_of_the_params_is_listed_together() -> None:
    params = with_requester({"message": 5, "requestedSchema": {"type": "array", "properties": {}}}, serverName=1)
    assert paths(params) == [f"{REQUESTER_PATH}/serverName", "/message", "/requestedSchema/type"]


def test_the_params_error_message_names_each_path() -> None:
    with pytest.raises(ParamsError) as info:
        parse_elicit_params({"message": None})
    assert str(info.value) == (
        '/message: "message" must be a string; /requestedSchema: "requestedSchema" is required in form mode'
    )
    assert isinstance(info.value, ValueError)


def test_each_request_gets_its_own_key() -> None:
    first, second = parse_elicit_params(form_params()), parse_elicit_params(form_params())
    assert isinstance(first, ElicitationRequest)
    assert first.key != second.key
    assert first.key.startswith("r") and second.key.startswith("r")


# -- outcome_to_result --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("outcome", "expected"),
    [
        (Accepted({"name": "Ada", "age": 36}), {"action": "accept", "content": {"name": "Ada", "age": 36}}),
        (Accepted({}), {"action": "accept", "content": {}}),
        (Accepted(None), {"action": "accept"}),
        (Accepted(), {"action": "accept"}),
        (Declined(), {"action": "decline"}),
        (Cancelled(), {"action": "cancel"}),
        (Cancelled("escape"), {"action": "cancel"}),
        (Cancelled("timeout"), {"action": "cancel"}),
        (Cancelled("tray"), {"action": "cancel"}),
    ],
)
def test_each_outcome_becomes_exactly_this_elicit_result(outcome: Any, expected: dict[str, Any]) -> None:
    assert outcome_to_result(outcome) == expected


def test_a_failed_outcome_has_no_elicit_result() -> None:
    with pytest.raises(ValueError, match="has no ElicitResult"):
        outcome_to_result(Failed("no display"))
