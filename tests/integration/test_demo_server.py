"""The demo server, run as a real stdio subprocess, in both protocol eras.

Every test starts ``python -m elicit_tray.demo.server`` and talks to it with
``mcp.Client`` in ``mode="legacy"`` (2025-11-25: back-channel
``elicitation/create``) and ``mode="2026-07-28"`` (MRTR ``input_required``).
A scripted fake user answers each elicitation and records the params it saw.

The expected params are copied verbatim from the ``spec-*`` rows of
``cases/forms.jsonl`` and the ``url-consent`` row of ``cases/url.jsonl``.
"""

import os
import re
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters, types
from mcp.client import ClientRequestContext

pytestmark = pytest.mark.anyio

SRC = Path(__file__).resolve().parents[2] / "src"
MODES = ("legacy", "2026-07-28")
# Subprocess start-up plus a few round trips; generous for a slow CI box.
SESSION_TIMEOUT_S = 60
NOTIFICATION_TIMEOUT_S = 10

# `params` of the forms.jsonl rows, verbatim.
SPEC_FORMS: dict[str, dict[str, Any]] = {
    "spec-booking": {
        "mode": "form",
        "message": "Please confirm your booking.",
        "requestedSchema": {
            "type": "object",
            "properties": {"confirm": {"type": "boolean"}},
            "required": ["confirm"],
        },
    },
    "spec-deploy": {
        "mode": "form",
        "message": "Confirm the deployment",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "environment": {
                    "type": "string",
                    "title": "Environment",
                    "oneOf": [{"const": "stg", "title": "Staging"}, {"const": "prd", "title": "Production"}],
                    "default": "stg",
                },
                "notify": {"type": "boolean", "title": "Notify the on-call channel", "default": True},
                "window": {"type": "string", "format": "date-time", "title": "Deploy at"},
            },
            "required": ["environment"],
        },
    },
    "spec-delete-project": {
        "mode": "form",
        "message": "Delete project prj_123? This cannot be undone.",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "confirm": {"type": "boolean", "title": "I understand this is permanent", "default": False},
                "retention": {
                    "type": "string",
                    "title": "Backup retention",
                    "oneOf": [
                        {"const": "none", "title": "Delete immediately"},
                        {"const": "7d", "title": "Keep a backup for 7 days"},
                        {"const": "30d", "title": "Keep a backup for 30 days"},
                    ],
                    "default": "7d",
                },
            },
            "required": ["confirm", "retention"],
        },
    },
    "spec-feedback": {
        "mode": "form",
        "message": "How was the demo?",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "rating": {"type": "number", "title": "Rating (1-5)", "minimum": 1, "maximum": 5},
                "comment": {"type": "string", "title": "Comment"},
            },
            "required": ["rating"],
        },
    },
}

# Which tool asks which row, and (accepted content, exact tool text) pairs: the
# rows' expected results plus the optional fields the rows never fill in.
FORM_TOOLS: dict[str, tuple[str, list[tuple[dict[str, Any], str]]]] = {
    "spec-booking": (
        "book_table",
        [
            ({"confirm": True}, 'accept {"confirm": true}'),
            ({"confirm": False}, 'accept {"confirm": false}'),
        ],
    ),
    "spec-deploy": (
        "deploy",
        [
            ({"environment": "stg", "notify": True}, 'accept {"environment": "stg", "notify": true}'),
            ({"environment": "prd", "notify": True}, 'accept {"environment": "prd", "notify": true}'),
            (
                {"environment": "prd", "notify": False, "window": "2026-07-28T09:30:00+02:00"},
                'accept {"environment": "prd", "notify": false, "window": "2026-07-28T09:30:00+02:00"}',
            ),
        ],
    ),
    "spec-delete-project": (
        "delete_project",
        [
            ({"confirm": True, "retention": "7d"}, 'accept {"confirm": true, "retention": "7d"}'),
            ({"confirm": False, "retention": "none"}, 'accept {"confirm": false, "retention": "none"}'),
        ],
    ),
    "spec-feedback": (
        "feedback",
        [
            ({"rating": 5}, 'accept {"rating": 5}'),
            ({"rating": 4.5, "comment": "Nice dialogs"}, 'accept {"rating": 4.5, "comment": "Nice dialogs"}'),
        ],
    ),
}

URL_CONSENT_MESSAGE = "Authorize access to your calendar."
URL_CONSENT_PREFIX = "https://auth.example.com/connect?flow="


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=MODES)
def mode(request: pytest.FixtureRequest) -> str:
    return request.param


def demo_server() -> StdioServerParameters:
    python_path = os.pathsep.join(p for p in (str(SRC), os.environ.get("PYTHONPATH", "")) if p)
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "elicit_tray.demo.server"],
        env={**os.environ, "PYTHONPATH": python_path},
    )


class FakeUser:
    """Answers elicitations from a script and records the params it was shown."""

    def __init__(self) -> None:
        self.script: list[types.ElicitResult] = []
        self.seen: list[dict[str, Any]] = []

    def will(self, action: str, content: dict[str, Any] | None = None) -> None:
        self.script.append(types.ElicitResult(action=action, content=content))

    async def __call__(
        self, context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult | types.ErrorData:
        self.seen.append(params.model_dump(by_alias=True, exclude_none=True))
        if not self.script:
            return types.ErrorData(code=types.INTERNAL_ERROR, message="FakeUser has no scripted answer left")
        return self.script.pop(0)


class Inbox:
    """A message_handler that collects elicitation-complete notifications."""

    def __init__(self) -> None:
        self.completed: list[str] = []
        self._arrived = anyio.Event()

    async def __call__(self, message: Any) -> None:
        if isinstance(message, types.ElicitCompleteNotification):
            self.completed.append(message.params.elicitation_id)
            self._arrived.set()
            self._arrived = anyio.Event()

    async def wait_for(self, elicitation_id: str) -> None:
        with anyio.fail_after(NOTIFICATION_TIMEOUT_S):
            while elicitation_id not in self.completed:
                await self._arrived.wait()


async def call_text(client: Client, tool: str, arguments: dict[str, Any] | None = None) -> str:
    result = await client.call_tool(tool, arguments or {})
    assert not result.is_error, result.content
    [content] = result.content
    assert isinstance(content, types.TextContent)
    return content.text


def assert_same_form(seen: dict[str, Any], row: dict[str, Any]) -> None:
    assert seen["mode"] == row["mode"]
    assert seen["message"] == row["message"]
    schema, expected = seen["requestedSchema"], row["requestedSchema"]
    assert schema["type"] == "object"
    assert schema["properties"] == expected["properties"]
    assert schema.get("required", []) == expected.get("required", [])
    # Nothing beyond the row, except a top-level title (allowed on legacy; the demo sends none).
    assert set(schema) - {"title", "$schema"} <= set(expected)


@pytest.mark.parametrize("row_id", list(FORM_TOOLS))
async def test_each_form_tool_asks_exactly_the_spec_row_and_states_every_answer(mode: str, row_id: str) -> None:
    tool, accepted = FORM_TOOLS[row_id]
    user = FakeUser()
    with anyio.fail_after(SESSION_TIMEOUT_S):
        async with Client(demo_server(), mode=mode, elicitation_callback=user) as client:
            texts = []
            for content, _ in accepted:
                user.will("accept", content)
                texts.append(await call_text(client, tool))
            user.will("decline")
            texts.append(await call_text(client, tool))
            user.will("cancel")
            texts.append(await call_text(client, tool))

    assert texts == [text for _, text in accepted] + ["decline", "cancel"]
    assert len(user.seen) == len(texts)
    for seen in user.seen:
        assert_same_form(seen, SPEC_FORMS[row_id])


async def test_booking_accept_reads_exactly_accept_and_the_content(mode: str) -> None:
    user = FakeUser()
    user.will("accept", {"confirm": True})
    with anyio.fail_after(SESSION_TIMEOUT_S):
        async with Client(demo_server(), mode=mode, elicitation_callback=user) as client:
            text = await call_text(client, "book_table", {"restaurant": "Chez Demo"})
    assert text == 'accept {"confirm": true}'


async def test_delete_project_names_the_project_it_was_given(mode: str) -> None:
    user = FakeUser()
    user.will("decline")
    with anyio.fail_after(SESSION_TIMEOUT_S):
        async with Client(demo_server(), mode=mode, elicitation_callback=user) as client:
            text = await call_text(client, "delete_project", {"project": "prj_999"})
    assert text == "decline"
    assert user.seen[0]["message"] == "Delete project prj_999? This cannot be undone."


async def test_connect_account_asks_in_url_mode_and_states_every_answer(mode: str) -> None:
    user = FakeUser()
    inbox = Inbox()
    with anyio.fail_after(SESSION_TIMEOUT_S):
        async with Client(demo_server(), mode=mode, elicitation_callback=user, message_handler=inbox) as client:
            texts = []
            for action in ("accept", "decline", "cancel"):
                user.will(action)
                texts.append(await call_text(client, "connect_account"))

    assert texts == ["accept", "decline", "cancel"]
    flows = []
    for seen in user.seen:
        assert seen["mode"] == "url"
        assert seen["message"] == URL_CONSENT_MESSAGE
        assert seen["url"].startswith(URL_CONSENT_PREFIX)
        flow = seen["url"].removeprefix(URL_CONSENT_PREFIX)
        assert re.fullmatch(r"[0-9a-f]{8}", flow)
        flows.append(flow)
        if mode == "legacy":
            # 2025-11-25 requires an elicitationId; the flow id is its uuid4 hex prefix.
            assert seen["elicitationId"].replace("-", "").startswith(flow)
        else:
            assert "elicitationId" not in seen  # removed at 2026-07-28
    assert len(set(flows)) == 3, "each call gets a fresh flow id"
    if mode != "legacy":
        assert inbox.completed == []  # the server sends no completion at 2026-07-28


async def test_legacy_connect_account_sends_elicitation_complete_after_accept_only() -> None:
    user = FakeUser()
    inbox = Inbox()
    with anyio.fail_after(SESSION_TIMEOUT_S):
        async with Client(demo_server(), mode="legacy", elicitation_callback=user, message_handler=inbox) as client:
            for action in ("decline", "cancel", "accept"):
                user.will(action)
                assert await call_text(client, "connect_account") == action
            accepted_id = user.seen[-1]["elicitationId"]
            await inbox.wait_for(accepted_id)

    # One pipe, in order: a completion for the declined or cancelled flows would have come first.
    assert inbox.completed == [accepted_id]
