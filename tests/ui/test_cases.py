"""Every case of ``shared/cases/forms.jsonl`` and ``url.jsonl`` drives the real dialog widgets
and compares the exact JSON-RPC response the tray app writes back."""

from __future__ import annotations

import time

import pytest

from tests import rpc
from tests.conftest import load_cases
from tests.ui.harness import Tray, shown_texts

FORM_CASES = load_cases("forms.jsonl")
URL_CASES = load_cases("url.jsonl")


def _interactions(cases):
    for case in cases:
        for index, interaction in enumerate(case["interactions"]):
            yield pytest.param(case, interaction, id=f"{case['id']}-{index}")


def _check_blocked(tray: Tray, channel, dialog, expected_text: str) -> None:
    tray.settle()
    assert channel.sent == [], "a blocked submit must send nothing"
    assert dialog.outcome is None
    visible = " ".join(getattr(dialog, "errors", dict)().values()) + " " + shown_texts(dialog)
    assert expected_text.lower() in visible.lower(), visible
    if dialog.commit_button is not None:
        assert not dialog.commit_button.isEnabled()


@pytest.fixture
def case_env(monkeypatch):
    """Applies a case's ``env`` (e.g. ``TZ``) to this process for the test, then restores it."""

    def apply(env):
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        if "TZ" in env:
            time.tzset()

    yield apply
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize(("case", "interaction"), list(_interactions(FORM_CASES)))
def test_form_case_sends_back_exactly_the_expected_json(aio, case_env, case, interaction):
    case_env(case.get("env", {}))
    tray = Tray(aio)
    expect = interaction["expect"]
    if "error" in expect:
        channel = tray.connect()
        tray.send(channel, rpc.create(7, case["params"]))
        reply = tray.reply(channel)
        assert reply["id"] == 7
        assert reply["error"]["code"] == expect["error"]["code"]
        assert [v["path"] for v in reply["error"]["data"]["violations"]] == [
            "/requestedSchema" + expect["error"]["path"]
        ]
        assert tray.presenter.dialogs == {}
        return
    channel, dialog = tray.ask(case["params"], interaction["steps"])
    if "secret_warning_fields" in expect:
        assert dialog.secret_fields == expect["secret_warning_fields"]
        warned = [dialog.spec.field(name).title for name in expect["secret_warning_fields"]]
        assert ("MCP forbids" in shown_texts(dialog)) is bool(warned)
        assert all(title in shown_texts(dialog) for title in warned)
    if "result" in expect:
        assert tray.reply(channel) == {"jsonrpc": "2.0", "id": 1, "result": expect["result"]}
        tray.settle()
        assert channel.sent == [], "exactly one response per request"
    elif "blocked" in expect:
        _check_blocked(tray, channel, dialog, expect["blocked"])
        tray.disconnect(channel)
    else:  # nothing to answer: the dialog waits, and nothing has been sent
        tray.settle()
        assert channel.sent == [] and dialog.outcome is None
        tray.disconnect(channel)


@pytest.mark.parametrize(("case", "interaction"), list(_interactions(URL_CASES)))
def test_url_case_sends_back_exactly_the_expected_json(aio, case, interaction):
    tray = Tray(aio)
    expect = interaction["expect"]
    channel, dialog = tray.ask(case["params"], [])
    texts = shown_texts(dialog)
    for text in expect.get("shown", []):
        assert text in texts
    if "warning" in expect:
        assert bool(dialog.warnings) is expect["warning"]
        assert ("⚠" in texts) is expect["warning"]
    if "url_reads_left_to_right" in expect:
        from tests.ui.test_url_dialog_truth import reads_left_to_right

        # Measured on the laid-out glyphs: each part of the URL is drawn after the one before.
        assert reads_left_to_right(dialog.url_box) is expect["url_reads_left_to_right"]
    from elicit_tray.ui.scripted import perform

    perform(dialog, interaction["steps"])
    if "result" in expect:
        assert tray.reply(channel) == {"jsonrpc": "2.0", "id": 1, "result": expect["result"]}
    elif "blocked" in expect:
        _check_blocked(tray, channel, dialog, expect["blocked"])
    if "browser_opened" in expect:
        expected = [case["params"]["url"]] if expect["browser_opened"] else []
        assert tray.browser.opened == expected
    tray.disconnect(channel)
