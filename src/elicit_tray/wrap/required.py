"""``-32042`` (URL elicitation required) for a host that never declared URL mode (no I/O;
``docs/wrap-design.md`` §2.8).

When the proxy owns URL mode (it declared ``url`` on the host's behalf), a host request answered
with ``-32042`` is finished by the proxy, since the host cannot show the URLs: each URL of
``error.data.elicitations`` is shown in the tray (consent); once every one is accepted, the proxy
asks the tray for a round of the session's URL flow for the same URL (the flow's waiting window,
"I have finished, check again" / Cancel, ``docs/wrap-design.md`` §2.9) and at the same time
waits for the server's ``notifications/elicitation/complete`` for each ``elicitationId`` (which
withdraws the round); then it retries the host's request under an id of its own and hands the
host the retry's answer under the host's id. A decline, a cancel or a tray error ends the flow
with a JSON-RPC error to the host (:data:`URL_STEP_REFUSED` for the user's decisions), and the
end of a flow lets go of every tray connection its dialogs hold (:class:`~.actions.ReleaseTray`).

:class:`RequiredFlows` holds the host requests that may get ``-32042`` (their lines as
forwarded, for the retry) and the flows under way; :class:`~.core.WrapCore` feeds it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..ipc.jsonrpc import INTERNAL_ERROR
from .actions import Action, AskTray, CancelTray, CompleteTray, ReleaseTray, ToHost, ToServer, TrayAnswer
from .lines import encode, ending, error_line, id_key, parse_object, with_id
from .rawjson import Line

__all__ = [
    "REQUIRED_METHODS",
    "URL_REQUIRED",
    "URL_STEP_REFUSED",
    "RequiredFlows",
    "refused_error",
]

#: The JSON-RPC error code of "URL elicitation required" (MCP 2025-11-25).
URL_REQUIRED = -32042
#: The error code the host gets when the user declines or cancels the web page step: the request
#: was not retried. Outside the JSON-RPC reserved range (-32768..-32000), so no host reads it as
#: a protocol error of its own; ``data.action`` says ``"decline"`` or ``"cancel"``.
URL_STEP_REFUSED = -32800
#: Host requests watched for a ``-32042`` answer (the requests a server answers with a tool, a
#: prompt or a resource; ``initialize``, ``ping``, lists and notifications are not).
REQUIRED_METHODS = frozenset({"tools/call", "prompts/get", "resources/read"})
#: Most elicitationIds of ended flows remembered, so that their late notices never reach the host
#: (and most withdrawn consent tickets, whose accept may cross the withdrawal, and most URLs the
#: user consented to in this session).
MAX_ENDED_IDS = 1024
_REFUSED = {
    "decline": "elicit-tray: the user declined to open the web page the server asked for; the request was not retried",
    "cancel": "elicit-tray: the user cancelled the web page step the server asked for; the request was not retried",
}


def refused_error(action: str) -> dict[str, Any]:
    """The error the host gets for the user's ``"decline"`` or ``"cancel"`` (anything else counts
    as cancel): ``{code: -32800, message, data: {action}}``."""
    action = action if action in _REFUSED else "cancel"
    return {"code": URL_STEP_REFUSED, "message": _REFUSED[action], "data": {"action": action}}


def _rounds_error(max_rounds: int) -> dict[str, Any]:
    return {
        "code": INTERNAL_ERROR,
        "message": f"elicit-tray: the server asked for a web page step in more than {max_rounds} rounds",
    }


@dataclass
class _Flow:
    """One host request that may get (or got) ``-32042``, until its final answer."""

    raw_id: str  # the host id exactly as the host wrote it
    line: bytes  # the request as forwarded (the retry is this line under another id)
    state: str = "sent"  # "sent" / "retry" (at the server), "consent" (URL dialogs), "waiting" (for completion)
    rounds: int = 0
    items: list[dict[str, Any]] = field(default_factory=list)  # this round's URL elicitations
    consent: dict[int, dict[str, Any]] = field(default_factory=dict)  # open consent ticket -> URL elicitation
    finish_ticket: int | None = None  # the open round in the flow's waiting window ("I have finished")
    consented: set[str] = field(default_factory=set)  # URLs the user accepted in this flow
    expected: set[str] = field(default_factory=set)  # elicitationIds of this round
    completed: set[str] = field(default_factory=set)  # of those, the ones the server completed
    held: set[str] = field(default_factory=set)  # accepted ids whose tray connection waits for completion
    retry_key: str | None = None


class RequiredFlows:
    """The ``-32042`` flows of one proxy session (module docstring; ``docs/wrap-design.md`` §2.8).

    Args:
        new_number: the proxy's counter (tickets and retry ids share it with the core).
        prefix: the proxy's own id prefix (``"elicit-tray-<random>-"``).
        requester_params: adds the requester identity and the session's URL flow to tray params
            (the core's).
        max_rounds: most ``-32042`` rounds per host request; one more is a -32603 to the host.
    """

    def __init__(
        self,
        new_number: Callable[[], int],
        prefix: str,
        requester_params: Callable[[dict[str, Any]], dict[str, Any]],
        max_rounds: int,
    ):
        self._number, self._prefix, self._requester, self.max_rounds = new_number, prefix, requester_params, max_rounds
        self.flows: dict[str, _Flow] = {}  # host id key -> flow
        self._retries: dict[str, str] = {}  # proxy retry id key -> host id key
        self._dead: set[str] = set()  # retry id keys whose late answers are dropped
        self._tickets: dict[int, str] = {}  # tray ticket -> host id key
        self._ids: dict[str, str] = {}  # elicitationId -> host id key (while its flow lives)
        self._late: dict[int, str] = {}  # consent tickets withdrawn by a flow's end -> host id key
        self._ended: dict[str, None] = {}  # elicitationIds of ended flows, oldest first: their notices are dropped
        self._consented: dict[str, None] = {}  # URLs consented to in this session (the tray remembers them too)

    def watching(self) -> bool:
        """Whether any answer from the server may belong to a flow (a byte pre-filter's test)."""
        return bool(self.flows)

    def watch(self, key: str, raw_id: str, line: Line) -> None:
        """Keep the host request ``line`` (id ``raw_id``, :func:`~.lines.id_key` ``key``), as
        forwarded, until its answer: a ``-32042`` is retried with it."""
        self.flows[key] = _Flow(raw_id=raw_id, line=bytes(line))

    def owns_response(self, key: str) -> bool:
        """Whether the server's answer with id key ``key`` is a flow's (the host's first answer,
        a retry's, or a late one to a cancelled retry)."""
        return key in self._retries or key in self._dead or (key in self.flows and self.flows[key].state == "sent")

    def owns_ticket(self, ticket: int) -> bool:
        """Whether ``ticket`` is a flow's tray request (or was, until its flow ended)."""
        return ticket in self._tickets or ticket in self._late

    # -- the server's answers -----------------------------------------------------------------

    def response(self, line: Line, key: str, error: Any) -> list[Action]:
        """The server's answer ``line`` with id key ``key`` (:meth:`owns_response`); ``error`` is
        its ``error`` member as read (a dict, or anything else)."""
        if key in self._dead:
            self._dead.discard(key)
            return []
        retry = key in self._retries
        host_key = self._retries.pop(key) if retry else key
        flow = self.flows[host_key]
        items = _url_items(line) if isinstance(error, dict) and error.get("code") == URL_REQUIRED else None
        if items:
            return self._round(host_key, flow, items)
        actions = self._end(host_key, flow)
        if not retry:
            return [*actions, ToHost(line)]
        data = with_id(line, flow.raw_id)
        unreadable = {"code": INTERNAL_ERROR, "message": "elicit-tray: unreadable answer from the server"}
        return [*actions, ToHost(data if data is not None else error_line(flow.raw_id, unreadable))]

    def _round(self, host_key: str, flow: _Flow, items: list[dict[str, Any]]) -> list[Action]:
        """A ``-32042`` with URL elicitations ``items``: consent for each URL not yet accepted in
        this flow, then :meth:`_wait`."""
        flow.rounds += 1
        if flow.rounds > self.max_rounds:
            return [*self._end(host_key, flow), ToHost(error_line(flow.raw_id, _rounds_error(self.max_rounds)))]
        flow.state, flow.retry_key = "consent", None
        for eid in flow.expected:  # the last round's: their late notices are dropped
            self._ids.pop(eid, None)
            self._ended[eid] = None
        flow.expected = {item["elicitationId"] for item in items if isinstance(item.get("elicitationId"), str)}
        flow.completed, flow.items = set(), items
        for eid in flow.expected:
            self._ids[eid] = host_key
        actions: list[Action] = []
        for item in items:
            url = item["url"]
            if url in flow.consented or url in self._consented or any(url == i["url"] for i in flow.consent.values()):
                continue  # consent once per URL (in this session's flow, as the tray remembers it)
            ticket = self._number()
            self._tickets[ticket] = host_key
            flow.consent[ticket] = item
            actions.append(AskTray(ticket, self._requester(item), host_key))
        if not flow.consent:
            actions.extend(self._wait(host_key, flow))
        return actions

    def _wait(self, host_key: str, flow: _Flow) -> list[Action]:
        """Every URL accepted: retry if the server completed them all, else ask the tray for a
        round of the flow for the round's first URL: its waiting window says when the user has
        finished (while completion notices may still end the wait)."""
        if flow.expected and flow.expected <= flow.completed:
            return [self._retry(host_key, flow)]
        flow.state = "waiting"
        ticket = self._number()
        self._tickets[ticket] = host_key
        flow.finish_ticket = ticket
        return [AskTray(ticket, self._requester(flow.items[0]), host_key)]

    def _retry(self, host_key: str, flow: _Flow) -> ToServer:
        """The host's request again, under a fresh proxy id (every other byte as forwarded)."""
        retry_id = f"{self._prefix}{self._number()}"
        data = with_id(flow.line, json.dumps(retry_id))
        assert data is not None  # the line's id was read when it was watched
        if not ending(data):
            data += b"\n"
        key = id_key(retry_id)
        flow.state, flow.retry_key, flow.finish_ticket = "retry", key, None
        self._retries[key] = host_key
        return ToServer(data)

    def _end(self, host_key: str, flow: _Flow) -> list[Action]:
        """Forget the flow: close its open dialogs and the connections its dialogs hold (for
        completion notices, and the flow's window, which then closes at once)."""
        self.flows.pop(host_key, None)
        actions: list[Action] = []
        for ticket in [*flow.consent, *([flow.finish_ticket] if flow.finish_ticket is not None else [])]:
            self._tickets.pop(ticket, None)
            actions.append(CancelTray(ticket))
            self._late[ticket] = host_key  # its answer may be on its way: an accept holds a connection
        flow.consent.clear()
        for eid in flow.expected:
            self._ids.pop(eid, None)
            self._ended[eid] = None
        while len(self._ended) > MAX_ENDED_IDS:
            del self._ended[next(iter(self._ended))]
        while len(self._late) > MAX_ENDED_IDS:  # most withdrawn tickets never answer: bounded
            del self._late[next(iter(self._late))]
        if flow.rounds:
            actions.append(ReleaseTray(host_key))
        if flow.retry_key is not None:
            self._retries.pop(flow.retry_key, None)
        return actions

    def completed(self, eid: str) -> list[Action] | None:
        """The server's ``notifications/elicitation/complete`` for ``eid``; None when no flow
        expects it (then the core's other rules apply)."""
        host_key = self._ids.get(eid)
        flow = self.flows.get(host_key) if host_key is not None else None
        if flow is None or host_key is None:
            if eid in self._ended:  # the host never asked for it and its flow is over
                del self._ended[eid]
                return []
            return None
        flow.completed.add(eid)
        actions: list[Action] = []
        if eid in flow.held:
            flow.held.discard(eid)
            actions.append(CompleteTray(eid))
        if flow.state == "waiting" and flow.expected <= flow.completed:
            if flow.finish_ticket is not None:
                self._tickets.pop(flow.finish_ticket, None)
                actions.append(CancelTray(flow.finish_ticket))
            actions.append(self._retry(host_key, flow))
        return actions

    # -- the tray's answers and the host's cancellation ------------------------------------------

    def tray_done(self, ticket: int, answer: TrayAnswer) -> list[Action]:
        """The tray's answer for a flow's ``ticket`` (:meth:`owns_ticket`)."""
        late = self._late.pop(ticket, None)
        if late is not None:  # answered after its flow ended: let an accept's held connection go
            accepted = answer.result is not None and answer.result.get("action") == "accept"
            return [ReleaseTray(late)] if accepted and late not in self.flows else []
        host_key = self._tickets.pop(ticket, None)
        flow = self.flows.get(host_key) if host_key is not None else None
        if flow is None or host_key is None:
            return []
        item = flow.consent.pop(ticket, None)
        if ticket == flow.finish_ticket:
            flow.finish_ticket = None
        action = answer.result.get("action") if answer.result is not None else None
        if answer.error is not None or action != "accept":
            if item is None:  # the user stopped the flow in its window: the tray forgot the consent
                for url_item in flow.items:
                    self._consented.pop(url_item["url"], None)
            error = answer.error if answer.error is not None else refused_error(str(action))
            return [*self._end(host_key, flow), ToHost(error_line(flow.raw_id, error))]
        if item is None:  # "I have finished, check again"
            return [self._retry(host_key, flow)]
        flow.consented.add(item["url"])
        self._consented[item["url"]] = None
        while len(self._consented) > MAX_ENDED_IDS:
            del self._consented[next(iter(self._consented))]
        actions: list[Action] = []
        eid = item.get("elicitationId")
        if isinstance(eid, str):
            if eid in flow.completed:
                actions.append(CompleteTray(eid))  # the notice came before the consent
            else:
                flow.held.add(eid)
        if not flow.consent:
            actions.extend(self._wait(host_key, flow))
        return actions

    def host_cancelled(self, key: str, line: Line) -> list[Action] | None:
        """The host's ``notifications/cancelled`` for request key ``key``; None when it is not a
        flow past its first answer (then forwarded raw: the watch ends)."""
        flow = self.flows.get(key)
        if flow is None:
            return None
        if flow.state == "sent":
            self.flows.pop(key)
            return None
        retry_key = flow.retry_key
        actions = self._end(key, flow)
        if retry_key is None:  # the server already answered H: nothing goes to it
            return actions
        self._dead.add(retry_key)  # the retry is at the server: cancel it instead
        full = parse_object(line)
        retry_id = json.loads(retry_key)
        bare: dict[str, Any] = {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": retry_id},
        }
        message: dict[str, Any] = full if full is not None else bare
        params = message.get("params")
        message["params"] = {**(params if isinstance(params, dict) else {}), "requestId": retry_id}
        data = encode(message) or encode(bare)
        assert data is not None
        return [*actions, ToServer(data + (ending(line) or b"\n"))]


def _url_items(line: Line) -> list[dict[str, Any]]:
    """The URL elicitations of a ``-32042`` error line (``error.data.elicitations``: objects
    with ``mode`` ``"url"`` or none, and a string ``url``); [] if there are none or the line is
    not valid in full."""
    full = parse_object(line)
    error = full.get("error") if full is not None else None
    data = error.get("data") if isinstance(error, dict) else None
    items = data.get("elicitations") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return []
    return [
        {**item, "mode": "url"}
        for item in items
        if isinstance(item, dict) and item.get("mode", "url") == "url" and isinstance(item.get("url"), str)
    ]
