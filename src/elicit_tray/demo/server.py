"""Demo MCP server that asks the user things through elicitation.

Run it over stdio with ``python -m elicit_tray.demo.server``. It is an SDK
``MCPServer`` and serves both protocol eras on one pipe: a 2025-11-25 client
(``initialize`` handshake) gets back-channel ``elicitation/create`` requests,
a 2026-07-28 client gets ``input_required`` results (MRTR) and retries.

Tools (each returns one short text that states the outcome exactly):

- ``book_table(restaurant)``: "Please confirm your booking." with a required,
  untitled ``confirm`` boolean.
- ``deploy(service)``: "Confirm the deployment" with a titled ``environment``
  choice (Staging/Production, default ``stg``, required), a ``notify`` boolean
  (default true) and an optional ``window`` date-time.
- ``delete_project(project)``: "Delete project <project>? This cannot be
  undone." with a ``confirm`` boolean (default false) and a titled
  ``retention`` choice (default ``7d``), both required.
- ``feedback()``: "How was the demo?" with a required ``rating`` number from 1
  to 5 and an optional ``comment``.
- ``summarize_and_confirm(topic)``: one round that both samples the client's LLM ("Summarize
  <topic> in one line.") and asks "Publish this summary?" (a required ``publish`` boolean):
  a mixed elicitation + sampling round (needs the client's ``sampling`` capability). Returns
  ``<sampled text> | accept {"publish": ...}``, ``... | decline`` or ``... | cancel``.
- ``connect_account()``: URL mode, "Authorize access to your calendar." for
  ``https://auth.example.com/connect?flow=<id>``.
- ``link_account(rounds, step2_rounds)``: a URL flow over several rounds (the server asks for
  the same URL again while its out-of-band step is "not done"), then, optionally, for a second
  URL. Returns ``linked after N rounds`` or ``<action> in round N``.

Form tools return ``accept <json>`` (the accepted content as JSON, fields in
the form's order, only the fields the client sent), ``decline`` or
``cancel``. ``connect_account`` returns ``accept``, ``decline`` or
``cancel``. A decline or cancel is a normal tool result, not a tool error.

The form schemas match the ``spec-*`` rows of ``cases/forms.jsonl`` exactly:
the pydantic models carry no docstring (it would leak into the legacy
``requestedSchema.description``), the model title and the titles pydantic
invents for untitled fields are removed, and titled single-selects come from
``json_schema_extra``.
"""

import json
import uuid
from typing import Annotated, Any

from mcp.server.elicitation import AcceptedUrlElicitation
from mcp.server.mcpserver import (
    AcceptedElicitation,
    Context,
    Elicit,
    ElicitationResult,
    MCPServer,
    Resolve,
    Sample,
)
from mcp.types import (
    CreateMessageResult,
    ElicitRequest,
    ElicitRequestURLParams,
    ElicitResult,
    InputRequiredResult,
    SamplingMessage,
    TextContent,
)
from mcp_types.version import is_version_at_least
from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from rfc3339_validator import validate_rfc3339

mcp = MCPServer("elicit-tray-demo", instructions="Tools that ask the user through elicitation.")

# The first protocol revision without a server-to-client back-channel.
_MRTR_VERSION = "2026-07-28"
# The inputRequests key of connect_account's URL request.
_URL_KEY = "connect_account"


def _spec_shape(schema: dict[str, Any], model: type[BaseModel]) -> None:
    """Model-level ``json_schema_extra``: drop the titles the spec rows don't have.

    Pydantic titles the model (``"title": "BookingForm"``) and every field
    (``confirm`` -> ``"Confirm"``). Keep a property title only where the field
    declares one explicitly.
    """
    schema.pop("title", None)
    schema.pop("description", None)
    for name, prop in schema.get("properties", {}).items():
        if model.model_fields[name].title is None:
            prop.pop("title", None)


def _as_json_number(schema: dict[str, Any]) -> None:
    """Field ``json_schema_extra``: render ``int | float`` as one ``number`` schema.

    The union keeps the client's number as sent (5 stays 5, not 5.0); the
    spec subset has no ``anyOf``, so collapse to the ``number`` branch.
    """
    branches = schema.pop("anyOf")
    schema.update(next(b for b in branches if b.get("type") == "number"))


def _rfc3339_date_time(value: str) -> str:
    """Check an RFC 3339 date-time but keep the string exactly as received."""
    if not validate_rfc3339(value):
        raise ValueError("expected an RFC 3339 date-time, e.g. 2026-07-28T09:00:00Z")
    return value


def _titled_options(*options: tuple[str, str]) -> list[Any]:
    # list[Any]: a json_schema_extra value is Pydantic's JsonValue, whose list[JsonValue] a
    # list[dict[str, str]] does not match (lists are invariant), and Pydantic does not export it.
    return [{"const": const, "title": title} for const, title in options]


_SPEC_CONFIG = ConfigDict(json_schema_extra=_spec_shape)

_Number1to5 = Annotated[int, Field(ge=1, le=5)] | Annotated[float, Field(ge=1, le=5)]
_DateTimeText = Annotated[str, AfterValidator(_rfc3339_date_time)]


class BookingForm(BaseModel):
    model_config = _SPEC_CONFIG

    confirm: bool


class DeployForm(BaseModel):
    model_config = _SPEC_CONFIG

    # Required with an advertised default: the default lives only in the schema.
    environment: str = Field(
        title="Environment",
        json_schema_extra={
            "oneOf": _titled_options(("stg", "Staging"), ("prd", "Production")),
            "default": "stg",
        },
    )
    notify: bool = Field(True, title="Notify the on-call channel")
    window: _DateTimeText | None = Field(None, title="Deploy at", json_schema_extra={"format": "date-time"})


class DeleteProjectForm(BaseModel):
    model_config = _SPEC_CONFIG

    confirm: bool = Field(title="I understand this is permanent", json_schema_extra={"default": False})
    retention: str = Field(
        title="Backup retention",
        json_schema_extra={
            "oneOf": _titled_options(
                ("none", "Delete immediately"),
                ("7d", "Keep a backup for 7 days"),
                ("30d", "Keep a backup for 30 days"),
            ),
            "default": "7d",
        },
    )


class FeedbackForm(BaseModel):
    model_config = _SPEC_CONFIG

    rating: _Number1to5 = Field(title="Rating (1-5)", json_schema_extra=_as_json_number)
    comment: str | None = Field(None, title="Comment")


def _outcome(result: ElicitationResult[Any]) -> str:
    """``accept <content JSON>``, ``decline`` or ``cancel``."""
    if isinstance(result, AcceptedElicitation):
        content = result.data.model_dump(mode="json", exclude_unset=True)
        return "accept " + json.dumps(content, sort_keys=False)
    return result.action


# Resolvers: each returns the question; the SDK asks it in whichever era the
# connection speaks and injects the outcome into the tool.


def ask_booking() -> Elicit[BookingForm]:
    return Elicit("Please confirm your booking.", BookingForm)


def ask_deploy() -> Elicit[DeployForm]:
    return Elicit("Confirm the deployment", DeployForm)


def ask_delete(project: str) -> Elicit[DeleteProjectForm]:
    return Elicit(f"Delete project {project}? This cannot be undone.", DeleteProjectForm)


def ask_feedback() -> Elicit[FeedbackForm]:
    return Elicit("How was the demo?", FeedbackForm)


@mcp.tool()
async def book_table(
    answer: Annotated[ElicitationResult[BookingForm], Resolve(ask_booking)],
    restaurant: str = "Chez Demo",
) -> str:
    """Ask "Please confirm your booking." (a required ``confirm`` boolean).

    Returns ``accept {"confirm": ...}``, ``decline`` or ``cancel``.
    """
    return _outcome(answer)


@mcp.tool()
async def deploy(
    answer: Annotated[ElicitationResult[DeployForm], Resolve(ask_deploy)],
    service: str = "web",
) -> str:
    """Ask "Confirm the deployment": environment (Staging/Production), notify, window.

    Returns ``accept {...}`` with the fields the user sent, ``decline`` or ``cancel``.
    """
    return _outcome(answer)


@mcp.tool()
async def delete_project(
    answer: Annotated[ElicitationResult[DeleteProjectForm], Resolve(ask_delete)],
    project: str = "prj_123",
) -> str:
    """Ask "Delete project <project>? This cannot be undone." (confirm + retention choice).

    Returns ``accept {"confirm": ..., "retention": ...}``, ``decline`` or ``cancel``.
    Nothing is deleted: this is a demo.
    """
    return _outcome(answer)


@mcp.tool()
async def feedback(
    answer: Annotated[ElicitationResult[FeedbackForm], Resolve(ask_feedback)],
) -> str:
    """Ask "How was the demo?" (a required 1-5 ``rating``, an optional ``comment``).

    Returns ``accept {"rating": ...}`` (plus ``comment`` if sent), ``decline`` or ``cancel``.
    """
    return _outcome(answer)


class PublishForm(BaseModel):
    model_config = _SPEC_CONFIG

    publish: bool


def ask_summary(topic: str) -> Sample:
    return Sample(
        [SamplingMessage(role="user", content=TextContent(type="text", text=f"Summarize {topic} in one line."))],
        max_tokens=100,
    )


def ask_publish() -> Elicit[PublishForm]:
    return Elicit("Publish this summary?", PublishForm)


@mcp.tool()
async def summarize_and_confirm(
    summary: Annotated[CreateMessageResult, Resolve(ask_summary)],
    answer: Annotated[ElicitationResult[PublishForm], Resolve(ask_publish)],
    topic: str = "the demo",
) -> str:
    """Sample the client's LLM and ask "Publish this summary?" in the same round.

    Returns ``<sampled text> | accept {"publish": ...}``, ``... | decline`` or ``... | cancel``.
    """
    text = summary.content.text if isinstance(summary.content, TextContent) else ""
    return f"{text} | {_outcome(answer)}"


def _consent_request() -> tuple[str, str, str]:
    """A fresh ``(message, url, elicitation_id)`` for connect_account."""
    elicitation_id = str(uuid.uuid4())
    url = "https://auth.example.com/connect?flow=" + elicitation_id.replace("-", "")[:8]
    return "Authorize access to your calendar.", url, elicitation_id


@mcp.tool()
async def connect_account(ctx: Context) -> str | InputRequiredResult:
    """Ask, in URL mode, to open "https://auth.example.com/connect?flow=<id>".

    "Authorize access to your calendar." Returns ``accept``, ``decline`` or
    ``cancel`` (accept means consent to open the URL, nothing more). On a
    2025-11-25 connection the server then pretends the out-of-band flow
    finished and sends ``notifications/elicitation/complete`` with the same
    elicitationId; 2026-07-28 has neither elicitationId nor that notification.
    """
    version = ctx.protocol_version
    if version is not None and is_version_at_least(version, _MRTR_VERSION):
        answer = (ctx.input_responses or {}).get(_URL_KEY)
        if not isinstance(answer, ElicitResult):
            # Round 1 (or a retry without our answer): ask, and let the client retry.
            message, url, _ = _consent_request()
            request = ElicitRequest(params=ElicitRequestURLParams(message=message, url=url))
            return InputRequiredResult(input_requests={_URL_KEY: request})
        return answer.action

    message, url, elicitation_id = _consent_request()
    result = await ctx.elicit_url(message, url, elicitation_id)
    if isinstance(result, AcceptedUrlElicitation):
        # Stand-in for the browser flow finishing out of band.
        await ctx.session.send_elicit_complete(elicitation_id)
    return result.action


# The inputRequests key of link_account's URL request, and its message.
_LINK_KEY = "link_account"
_LINK_MESSAGE = "Link your account: sign in at the address, then come back."


def _link_url(round_number: int, rounds: int) -> str:
    """link_account's URL for a round: the first ``rounds`` ask for step 1, later ones for step 2."""
    return f"https://auth.example.com/link?step={1 if round_number <= rounds else 2}"


@mcp.tool()
async def link_account(ctx: Context, rounds: int = 3, step2_rounds: int = 0) -> str | InputRequiredResult:
    """A URL flow that takes several rounds, as a server whose out-of-band step is not done yet.

    It asks to open "https://auth.example.com/link?step=1" in ``rounds`` rounds in a row (each
    accept answered by the same request again, as if the user had not finished), then, with
    ``step2_rounds``, "…?step=2" in that many more. 2026-07-28: each round is another
    ``input_required`` with the same URL elicitation (the round number in ``requestState``);
    2025-11-25: another ``elicitation/create`` with a new ``elicitationId``, and after the last
    accept ``notifications/elicitation/complete`` for it. Returns ``linked after N rounds``, or
    ``decline in round N`` / ``cancel in round N``.
    """
    total = rounds + step2_rounds
    version = ctx.protocol_version
    if version is not None and is_version_at_least(version, _MRTR_VERSION):
        answer = (ctx.input_responses or {}).get(_LINK_KEY)
        asked = int(ctx.request_state or 0) if isinstance(answer, ElicitResult) else 0
        if isinstance(answer, ElicitResult) and answer.action != "accept":
            return f"{answer.action} in round {asked}"
        if asked >= total:
            return f"linked after {asked} rounds"
        request = ElicitRequest(params=ElicitRequestURLParams(message=_LINK_MESSAGE, url=_link_url(asked + 1, rounds)))
        return InputRequiredResult(input_requests={_LINK_KEY: request}, request_state=str(asked + 1))

    elicitation_id = ""
    for round_number in range(1, total + 1):
        elicitation_id = str(uuid.uuid4())
        result = await ctx.elicit_url(_LINK_MESSAGE, _link_url(round_number, rounds), elicitation_id)
        if not isinstance(result, AcceptedUrlElicitation):
            return f"{result.action} in round {round_number}"
    await ctx.session.send_elicit_complete(elicitation_id)
    return f"linked after {total} rounds"


def main() -> None:
    """Serve the demo tools over stdio (both protocol eras)."""
    mcp.run("stdio")


if __name__ == "__main__":
    main()
