"""The sans-IO core of ``elicit-tray wrap`` (``docs/wrap-design.md`` §2): raw
newline-delimited JSON lines in, bytes out plus actions for the shell. No I/O, no clock.

Here: the message rules of both eras (§2.2-§2.5) and the id mapping of the 2026 retries
(§2.3). Its parts: :mod:`.capability` (owned modes and the declared capability, §2.1, §2.7),
:mod:`.lines` (reading and editing raw JSON lines without loss, §2.5), :mod:`.actions` (what
the shell is told to do, and told back).

Input: one line at a time, *with* its terminator (``b"...\\n"``, ``b"...\\r\\n"``, or no
terminator for a last partial line), through :meth:`WrapCore.feed_host` (host -> server) and
:meth:`WrapCore.feed_server` (server -> host); the tray app's answers through
:meth:`WrapCore.tray_done`. Output: a list of actions, in order:

- :class:`~.actions.ToServer` / :class:`~.actions.ToHost`: bytes to write to the child's stdin / the host's stdout.
  A line the proxy has no reason to change is the *same bytes object* that came in (§2.5:
  batches, non-JSON, odd ids, ``1e400``, ``\\r\\n``, unknown members all pass untouched).
- :class:`~.actions.AskTray`: send ``elicitation/create`` with these params to the tray app, then call
  :meth:`WrapCore.tray_done` with the ticket.
- :class:`~.actions.CancelTray`: the request of that ticket is moot (expire its dialog); its answer, if it
  still comes, is ignored.
- :class:`~.actions.CompleteTray`: deliver ``notifications/elicitation/complete`` for that id to the tray.
- :class:`~.actions.ReleaseTray`: close the tray connections held for that host request (it ended).

Cost: a line is parsed only when a cheap byte pre-filter says it may matter (§2.6
"Performance"), then the parse confirms. A changed message is re-encoded with
``json.dumps(ensure_ascii=False, separators=(",", ":"), allow_nan=False)``; a message that
cannot be re-encoded without loss (``1e400``, duplicate keys, lone surrogates) is forwarded
untouched and not changed.

The five things the proxy changes (§0): the elicitation capability (§2.1), server
``elicitation/create`` in owned modes (§2.2), 2026 ``input_required`` results holding owned
elicitations (§2.3), ``notifications/cancelled`` naming proxy-owned ids (§2.2, §2.4), and
``notifications/elicitation/complete`` for URL elicitations it answered (§2.2).
"""

from __future__ import annotations

import itertools
import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from ..ipc.jsonrpc import INTERNAL_ERROR
from ..request import FLOW_KEY, REQUESTER_KEY
from .actions import (
    MAX_REQUESTER_CHARS,
    UNREACHABLE_MESSAGE,
    Action,
    AskTray,
    CancelTray,
    CompleteTray,
    Identity,
    ReleaseTray,
    ToHost,
    ToServer,
    TrayAnswer,
)
from .capability import CLIENT_CAPS_KEY, FIRST_ELICITATION_VERSION, POLICIES, URL_VERSION, declare, owned_modes
from .lines import encode, ending, error_line, id_key, parse_object, with_id
from .rawjson import UNREADABLE, Line, RawObject
from .required import REQUIRED_METHODS, URL_REQUIRED, RequiredFlows

__all__ = [
    "WrapCore",
    "Identity",
    "ToHost",
    "ToServer",
    "AskTray",
    "CancelTray",
    "CompleteTray",
    "ReleaseTray",
    "TrayAnswer",
    "Action",
    "POLICIES",
    "UNREACHABLE_MESSAGE",
    "INTERNAL_ERROR",
    "MAX_ROUNDS",
    "CLIENT_CAPS_KEY",
    "SERVER_INFO_KEY",
    "INPUT_REQUIRED_METHODS",
    "owned_modes",
    "MAX_REQUESTER_CHARS",
]

#: Most ``input_required`` rounds the proxy answers for one host request (the SDK default).
MAX_ROUNDS = 10
#: 2026-07-28 result ``_meta`` key holding the server's self-reported identity.
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"
#: Methods whose results may be ``input_required`` (``mcp_types.methods.INPUT_REQUIRED_METHODS``).
INPUT_REQUIRED_METHODS = frozenset({"tools/call", "prompts/get", "resources/read"})
# REQUESTER_KEY (request): the key of the requester identity in the tray's ``elicitation/create`` params.

# Byte pre-filters (§2.6): only a line holding one of these can need a change.
_B_INIT = b'"initialize"'
_B_CAPS = CLIENT_CAPS_KEY.encode()
_B_CANCELLED = b'"notifications/cancelled"'
_B_ELICIT = b'"elicitation/create"'
_B_COMPLETE = b'"notifications/elicitation/complete"'
_B_INPUT_REQUIRED = b'"input_required"'
_B_RESULT = b'"result"'
_B_ERROR = b'"error"'
_B_SERVER_INFO = b'"serverInfo"'
_B_URL_REQUIRED = b"-32042"
_B_REQUIRED_METHODS = tuple(json.dumps(m).encode() for m in sorted(REQUIRED_METHODS))


def _key(msg: RawObject, *path: str) -> str | None:
    """:func:`~.lines.id_key` of the id at ``path``; None when it is absent or unreadable."""
    value = msg.get(*path, default=UNREADABLE)
    return None if value is UNREADABLE else id_key(value)


def _mode(msg: RawObject, *path: str) -> str | None:
    """The ``mode`` of the elicitation params at ``path`` (``"form"`` when absent), or None
    when they are not an object or the mode not a string (:func:`~.lines.elicitation_mode`)."""
    if not msg.is_object(*path):
        return None
    mode = msg.get(*path, "mode", default="form")
    return mode if isinstance(mode, str) else None


def _request_line(watch: _Watch) -> bytes | None:
    """The watched request as forwarded (re-encoded), for a §2.8 retry; None if it cannot be."""
    params = encode(watch.params)
    method = encode(watch.method)
    if params is None or method is None:
        return None
    head = b'{"jsonrpc":"2.0","id":' + watch.raw_id.encode("utf-8", "surrogatepass")
    return head + b',"method":' + method + b',"params":' + params + b"}\n"


def _released(watch: _Watch, host_key: str) -> list[Action]:
    """The watch of ``host_key`` ended: let go of the connections its URL rounds hold (§2.9)."""
    return [ReleaseTray(host_key)] if watch.url_asked else []


@dataclass
class _Ticket:
    kind: str  # "server" (2025 elicitation/create), "mrtr" (an inputRequests key), "notice" (-32042)
    raw_id: str = ""  # server id (kind "server")
    id_key: str = ""
    host_key: str = ""  # kind "mrtr": the watched host request
    input_key: str = ""
    url_id: str | None = None  # elicitationId of a URL elicitation (2025)


@dataclass
class _Watch:
    """A host request (§2.3.1) sent with injected modes, until its final answer."""

    raw_id: str  # the host id exactly as the host wrote it
    method: str
    params: dict[str, Any]  # as forwarded (after injection)
    owned: frozenset[str]
    state: str = "sent"  # "sent" (at the server), "tray" (asking the tray), "retry" (the proxy's retry at the server)
    rounds: int = 0
    tickets: dict[str, int] = field(default_factory=dict)  # input key -> ticket still open
    answers: dict[str, Any] = field(default_factory=dict)
    state_raw: str | None = None  # requestState as the server wrote it
    retry_key: str | None = None
    urls: frozenset[str] = frozenset()  # the URLs the last round asked to open
    url_asked: bool = False  # a URL round was asked: its held connections go at the end (§2.9)


class WrapCore:
    """The proxy's rules over raw lines (``docs/wrap-design.md`` §2.1-2.5, §2.7).

    Args:
        policy: ``"complement"`` (own only the modes the host lacks), ``"always"`` (own both),
            ``"off"`` (a pure pipe); see §2.7.
        identity: who asks, shown in every dialog (:class:`Identity`).
        id_prefix: prefix of the proxy's own request ids (default
            ``"elicit-tray-<16 random hex>-"``); ids are ``<prefix><n>`` strings.
        max_rounds: most ``input_required`` rounds answered per host request (§2.3.4).

    Attributes:
        tray_up: whether the tray app can be reached; the shell keeps it current. While False,
            no capability is injected (§2.1, §2.5 "Before declaring").
        server_info: the server's self-reported ``serverInfo`` (from the ``initialize`` result,
            or a 2026 result's ``_meta``), or None.
        owned_legacy: the modes owned on a 2025 (handshake) session, set at ``initialize``.

    Raises:
        ValueError: an unknown ``policy``.
    """

    def __init__(
        self,
        policy: str = "complement",
        *,
        identity: Identity | None = None,
        id_prefix: str | None = None,
        max_rounds: int = MAX_ROUNDS,
    ):
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r} (one of {', '.join(POLICIES)})")
        self.policy = policy
        self.identity = identity or Identity()
        self.prefix = id_prefix if id_prefix is not None else f"elicit-tray-{secrets.token_hex(8)}-"
        self._prefix_bytes = json.dumps(self.prefix)[:-1].encode()  # '"elicit-tray-…-' as it appears on the wire
        self.max_rounds = max_rounds
        self.tray_up = True
        self.server_info: dict[str, Any] | None = None
        self.owned_legacy: frozenset[str] = frozenset()
        self._initialized = False
        self._init_key: str | None = None
        self._ids = itertools.count(1)
        self._tickets: dict[int, _Ticket] = {}
        self._server_asks: dict[str, int] = {}  # 2025: server id key -> ticket
        self._answered_urls: set[str] = set()  # 2025: elicitationIds the proxy accepted
        self._watch: dict[str, _Watch] = {}  # host id key -> watch
        self._retries: dict[str, str] = {}  # proxy retry id key -> host id key
        self._dead: set[str] = set()  # proxy retry id keys whose late answers are dropped
        # the -32042 flows (§2.8) are rounds of the session's URL flow too (§2.9)
        self.required = RequiredFlows(lambda: next(self._ids), self.prefix, self._requester_params, max_rounds)

    # -- host -> server ---------------------------------------------------------------------

    def wants_tray_state(self, line: Line) -> bool:
        """Whether :attr:`tray_up` should be current before :meth:`feed_host` takes ``line``
        (it may declare the capability). A byte check only."""
        return self.policy != "off" and (_B_CAPS in line or (_B_INIT in line and not self._initialized))

    def feed_host(self, line: Line) -> list[Action]:
        """One line from the host (terminator included). Returns the actions, in order."""
        if self.policy == "off" or not (
            _B_CAPS in line
            or _B_INIT in line
            or _B_CANCELLED in line
            or ("url" in self.owned_legacy and any(m in line for m in _B_REQUIRED_METHODS))
        ):
            return [ToServer(line)]
        msg = RawObject.of(line)
        if msg is None:
            return [ToServer(line)]
        method = msg.get("method")
        if method == "initialize" and msg.has("id"):
            return self._host_initialize(line, msg)
        if method == "notifications/cancelled":
            return self._host_cancelled(line, msg)
        if isinstance(method, str) and msg.is_object("params", "_meta", CLIENT_CAPS_KEY):
            return self._host_enveloped(line, msg, method)
        if method in REQUIRED_METHODS and "url" in self.owned_legacy:  # §2.8: kept for a -32042 retry
            raw_id, key = msg.text("id"), _key(msg, "id")
            if raw_id is not None and key is not None and key not in self.required.flows:
                self.required.watch(key, raw_id, line)
        return [ToServer(line)]

    def _host_initialize(self, line: Line, msg: RawObject) -> list[Action]:
        """§2.1 2025 era: edit ``params.capabilities`` of the host's ``initialize``, once."""
        if self._initialized:
            return [ToServer(line)]
        self._initialized = True
        self._init_key = _key(msg, "id")
        version = msg.get("params", "protocolVersion")
        if (
            not msg.is_object("params", "capabilities")
            or not isinstance(version, str)
            or version < FIRST_ELICITATION_VERSION
            or not self.tray_up
        ):
            return [ToServer(line)]
        declared = msg.get("params", "capabilities", "elicitation")
        owned = owned_modes(declared, self.policy)
        if owned is None:
            return [ToServer(line)]
        if version < URL_VERSION:  # 2025-06-18: form only, spelled {}
            owned = owned - {"url"}
        self.owned_legacy = owned
        if not owned:
            return [ToServer(line)]
        new = declare(declared, owned, bare_form=version < URL_VERSION)
        if new == declared:
            return [ToServer(line)]
        full = parse_object(line)  # the line changes: parsed (and checked) in full
        data = None
        if full is not None:
            full["params"]["capabilities"]["elicitation"] = new
            data = encode(full)
        if data is None:  # cannot be re-encoded without loss: forward untouched, own nothing
            self.owned_legacy = frozenset()
            return [ToServer(line)]
        return [ToServer(data + ending(line))]

    def _host_enveloped(self, line: Line, msg: RawObject, method: str) -> list[Action]:
        """§2.1 2026 era: edit the client-capabilities ``_meta`` of every request carrying
        it; watch the ``input_required`` methods (§2.3.1)."""
        if not self.tray_up:
            return [ToServer(line)]
        declared = msg.get("params", "_meta", CLIENT_CAPS_KEY, "elicitation")
        owned = owned_modes(declared, self.policy)
        if not owned:
            return [ToServer(line)]
        new = declare(declared, owned)
        watched = msg.has("id") and method in INPUT_REQUIRED_METHODS
        if new == declared and not watched:
            return [ToServer(line)]
        full = parse_object(line)  # changed, or kept for a retry: parsed (and checked) in full
        if full is None:
            return [ToServer(line)]
        params: dict[str, Any] = full["params"]
        out = line
        if new != declared:
            params["_meta"][CLIENT_CAPS_KEY]["elicitation"] = new
            data = encode(full)
            if data is None:
                return [ToServer(line)]
            out = data + ending(line)
        # (a retry must be writable: params that cannot be re-encoded are not watched)
        if watched and (out is not line or encode(params) is not None):
            raw_id = msg.text("id")
            if raw_id is not None:
                self._watch[id_key(full["id"])] = _Watch(raw_id=raw_id, method=method, params=params, owned=owned)
        return [ToServer(out)]

    def _host_cancelled(self, line: Line, msg: RawObject) -> list[Action]:
        """§2.4: the host cancels host request H."""
        key = _key(msg, "params", "requestId")
        if key is not None and key in self.required.flows:
            flow_actions = self.required.host_cancelled(key, line)
            return [ToServer(line)] if flow_actions is None else flow_actions
        watch = self._watch.pop(key, None) if key is not None else None
        if watch is None or key is None or watch.state == "sent":
            return [ToServer(line)]  # not ours (or before its first response): forward raw
        actions: list[Action] = _released(watch, key)
        if watch.state == "tray":  # the server already answered H: close the dialogs, send nothing
            for ticket in watch.tickets.values():
                self._tickets.pop(ticket, None)
                actions.append(CancelTray(ticket))
            return actions
        # "retry": the proxy's retry P is at the server: cancel P instead.
        assert watch.retry_key is not None
        self._retries.pop(watch.retry_key, None)
        self._dead.add(watch.retry_key)
        retry_id = json.loads(watch.retry_key)
        full = parse_object(line)
        data = None
        if full is not None:
            full["params"]["requestId"] = retry_id
            data = encode(full)
        if data is None:
            data = encode({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": retry_id}})
        assert data is not None
        return [*actions, ToServer(data + ending(line))]

    # -- server -> host ---------------------------------------------------------------------

    def feed_server(self, line: Line) -> list[Action]:
        """One line from the server (terminator included). Returns the actions, in order."""
        if self.policy == "off":
            return [ToHost(line)]
        if not (
            _B_ELICIT in line
            or _B_CANCELLED in line
            or _B_COMPLETE in line
            or self._prefix_bytes in line
            or ((self._watch or self.required.watching()) and (_B_RESULT in line or _B_ERROR in line))
            or (self._init_key is not None and self.server_info is None and _B_SERVER_INFO in line)
            or ("url" in self.owned_legacy and _B_URL_REQUIRED in line)
        ):
            return [ToHost(line)]
        msg = RawObject.of(line)
        if msg is None:
            return [ToHost(line)]
        method = msg.get("method")
        if method is None:
            return self._server_response(line, msg)
        if method == "elicitation/create" and msg.has("id"):
            return self._server_elicit(line, msg)
        key = _key(msg, "params", "requestId")
        if method == "notifications/cancelled" and key is not None:
            ticket = self._server_asks.pop(key, None)
            if ticket is not None:  # §2.2: close the dialog; no response, nothing forwarded
                self._tickets.pop(ticket, None)
                return [CancelTray(ticket)]
        if method == "notifications/elicitation/complete":
            eid = msg.get("params", "elicitationId")
            flow_actions = self.required.completed(eid) if isinstance(eid, str) else None
            if flow_actions is not None:
                return flow_actions
            if isinstance(eid, str) and eid in self._answered_urls:
                self._answered_urls.discard(eid)
                return [CompleteTray(eid)]
        return [ToHost(line)]

    def _requester_params(self, params: dict[str, Any], *, flow: bool = True) -> dict[str, Any]:
        """The tray's ``elicitation/create`` params: the server's, with our requester identity
        (§2.6) replacing any ``elicit-tray/requester`` the server put there, and, for a URL
        request with ``flow``, the session's flow (§2.9)."""
        out = dict(params)
        meta = dict(out.get("_meta") or {}) if isinstance(out.get("_meta"), dict) else {}
        requester: dict[str, Any] = {}
        info = self.server_info or {}
        for src, dst in (("name", "serverName"), ("title", "serverTitle"), ("version", "serverVersion")):
            value = info.get(src)
            if isinstance(value, str) and value:
                requester[dst] = value[:MAX_REQUESTER_CHARS]
        requester["clientName"] = self.identity.client_name()
        meta[REQUESTER_KEY] = requester
        meta.pop(FLOW_KEY, None)  # a server's own is never passed on
        if flow and out.get("mode") == "url":  # every URL round of this session is one flow (§2.9)
            meta[FLOW_KEY] = self.prefix + "flow"
        out["_meta"] = meta
        return out

    def _new_ticket(self, ticket: _Ticket) -> int:
        number = next(self._ids)
        self._tickets[number] = ticket
        return number

    def _server_elicit(self, line: Line, msg: RawObject) -> list[Action]:
        """§2.2: a 2025 ``elicitation/create`` in an owned mode is answered by the proxy."""
        if _mode(msg, "params") not in self.owned_legacy:
            return [ToHost(line)]
        raw_id, key = msg.text("id"), _key(msg, "id")
        full = parse_object(line) if raw_id is not None and key is not None else None
        if full is None or raw_id is None or key is None:
            return [ToHost(line)]
        params: dict[str, Any] = full["params"]
        eid = params.get("elicitationId") if params.get("mode") == "url" else None
        ticket = self._new_ticket(
            _Ticket("server", raw_id=raw_id, id_key=key, url_id=eid if isinstance(eid, str) else None)
        )
        self._server_asks[key] = ticket
        return [AskTray(ticket, self._requester_params(params))]

    def _server_response(self, line: Line, msg: RawObject) -> list[Action]:
        key = _key(msg, "id") if msg.has("id") else id_key(None)
        if key is None:  # an id too long to be one the proxy knows
            return [ToHost(line)]
        if key == self._init_key and self.server_info is None:
            info = msg.get("result", "serverInfo")
            if isinstance(info, dict):
                self.server_info = info
        info = msg.get("result", "_meta", SERVER_INFO_KEY)
        if isinstance(info, dict):
            self.server_info = info
        if self.required.owns_response(key):  # §2.8
            return self.required.response(line, key, msg.get("error"))
        if key in self._dead:  # a late answer to a cancelled retry (§2.4)
            self._dead.discard(key)
            return []
        host_key = self._retries.pop(key, None)
        if host_key is not None:
            return self._watched_response(line, msg, self._watch[host_key], host_key, retry=True)
        watch = self._watch.get(key)
        if watch is not None and watch.state == "sent":
            return self._watched_response(line, msg, watch, key, retry=False)
        if "url" in self.owned_legacy and msg.get("error", "code") == -32042:
            full = parse_object(line)  # acted on: parsed (and checked) in full
            if full is not None and isinstance(full.get("error"), dict):
                return self._url_required(line, full["error"])
        return [ToHost(line)]

    def _url_required(self, line: Line, error: dict[str, Any]) -> list[Action]:
        """§2.2 ``-32042`` with URL mode owned (v1): show each URL elicitation in the tray, and
        forward the error unchanged."""
        actions: list[Action] = []
        data = error.get("data")
        for item in (data.get("elicitations") if isinstance(data, dict) else None) or []:
            if isinstance(item, dict) and item.get("mode", "url") == "url":
                eid = item.get("elicitationId")
                ticket = self._new_ticket(_Ticket("notice", url_id=eid if isinstance(eid, str) else None))
                actions.append(AskTray(ticket, self._requester_params(item, flow=False)))
        actions.append(ToHost(line))
        return actions

    def _watched_response(
        self, line: Line, msg: RawObject, watch: _Watch, host_key: str, *, retry: bool
    ) -> list[Action]:
        """§2.3.2 / §2.3.4: the server's answer to a watched host request or to our retry."""
        owned_keys: dict[str, dict[str, Any]] = {}
        if msg.get("result", "resultType") == "input_required":
            for name in msg.keys("result", "inputRequests"):
                request = ("result", "inputRequests", name)
                if (
                    msg.get(*request, "method") == "elicitation/create"
                    and _mode(msg, *request, "params") in watch.owned
                ):
                    params = msg.get(*request, "params", limit=None)  # acted on: decoded whole
                    if isinstance(params, dict):
                        owned_keys[name] = params
        if owned_keys and parse_object(line) is None:  # acted on: the whole line must be valid
            owned_keys = {}
        if not owned_keys and not retry and "url" in watch.owned and msg.get("error", "code") == URL_REQUIRED:
            again = _request_line(watch)  # §2.8 in the 2026 era: the first answer is a -32042
            if again is not None:
                del self._watch[host_key]
                self.required.watch(host_key, watch.raw_id, again)
                return self.required.response(line, host_key, msg.get("error"))
        if not owned_keys:  # final, or nothing the proxy owns: to the host under its own id
            del self._watch[host_key]
            done = _released(watch, host_key)  # the flow's window goes with the host's answer (§2.9)
            data = with_id(line, watch.raw_id) if retry else line
            unreadable = {"code": INTERNAL_ERROR, "message": "elicit-tray: unreadable answer from the server"}
            return [*done, ToHost(data if data is not None else error_line(watch.raw_id, unreadable))]
        urls = frozenset(
            p["url"] for p in owned_keys.values() if p.get("mode") == "url" and isinstance(p.get("url"), str)
        )
        if not (len(urls) == len(owned_keys) and urls <= watch.urls):
            watch.rounds += 1  # a URL round asked again (not done yet) is paced by the user: not counted
        watch.urls = urls
        if watch.rounds > self.max_rounds:
            del self._watch[host_key]
            return [
                *_released(watch, host_key),
                ToHost(
                    error_line(
                        watch.raw_id,
                        {
                            "code": INTERNAL_ERROR,
                            "message": f"elicit-tray: the server asked for input in more than {self.max_rounds} rounds",
                        },
                    )
                ),
            ]
        watch.state = "tray"
        watch.retry_key = None
        watch.answers = dict.fromkeys(owned_keys)  # answers go back in the server's key order
        watch.state_raw = msg.text("result", "requestState")
        actions: list[Action] = []
        for name, params in owned_keys.items():
            ticket = self._new_ticket(_Ticket("mrtr", host_key=host_key, input_key=name))
            watch.tickets[name] = ticket
            is_url = params.get("mode") == "url"
            watch.url_asked |= is_url
            actions.append(AskTray(ticket, self._requester_params(params), host_key if is_url else None))
        return actions

    # -- tray answers -----------------------------------------------------------------------

    def tray_done(self, ticket: int, answer: TrayAnswer) -> list[Action]:
        """The tray app's answer for ``ticket`` (ignored if the ticket was cancelled)."""
        if self.required.owns_ticket(ticket):
            return self.required.tray_done(ticket, answer)
        info = self._tickets.pop(ticket, None)
        if info is None:
            return []
        accepted = answer.result is not None and answer.result.get("action") == "accept"
        if info.kind == "notice":
            if accepted and info.url_id:
                self._answered_urls.add(info.url_id)
            return []
        if info.kind == "server":
            self._server_asks.pop(info.id_key, None)
            if answer.error is not None:
                return [ToServer(error_line(info.raw_id, answer.error))]
            body = encode(answer.result)
            if body is None:
                return [ToServer(error_line(info.raw_id, TrayAnswer.unreachable().error or {}))]
            if accepted and info.url_id:
                self._answered_urls.add(info.url_id)
            return [
                ToServer(
                    b'{"jsonrpc":"2.0","id":'
                    + info.raw_id.encode("utf-8", "surrogatepass")
                    + b',"result":'
                    + body
                    + b"}\n"
                )
            ]
        watch = self._watch.get(info.host_key)
        if watch is None or watch.state != "tray":
            return []
        watch.tickets.pop(info.input_key, None)
        if answer.error is not None:  # §2.5: the error to the host under H; close the siblings
            del self._watch[info.host_key]
            actions: list[Action] = _released(watch, info.host_key)
            for other in watch.tickets.values():
                self._tickets.pop(other, None)
                actions.append(CancelTray(other))
            actions.append(ToHost(error_line(watch.raw_id, answer.error)))
            return actions
        watch.answers[info.input_key] = answer.result
        if watch.tickets:
            return []
        return [self._retry(watch, info.host_key)]

    def _retry(self, watch: _Watch, host_key: str) -> ToServer:
        """§2.3.3: the same request under a fresh proxy id, with ``inputResponses`` and the
        server's ``requestState`` echoed byte for byte (or omitted if it sent none)."""
        retry_id = f"{self.prefix}{next(self._ids)}"
        params = dict(watch.params)
        params["inputResponses"] = watch.answers
        placeholder = f"elicit-tray-state-{secrets.token_hex(8)}"
        if watch.state_raw is not None:
            params["requestState"] = placeholder
        else:
            params.pop("requestState", None)
        data = encode({"jsonrpc": "2.0", "id": retry_id, "method": watch.method, "params": params})
        assert data is not None  # the params were re-encodable when stored (or came in unchanged)
        if watch.state_raw is not None:
            data = data.replace(json.dumps(placeholder).encode(), watch.state_raw.encode("utf-8", "surrogatepass"), 1)
        key = id_key(retry_id)
        watch.state, watch.retry_key, watch.answers = "retry", key, {}
        self._retries[key] = host_key
        return ToServer(data + b"\n")
