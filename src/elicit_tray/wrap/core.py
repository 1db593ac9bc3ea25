"""The sans-IO core of ``elicit-tray wrap`` (``notes/proxy-design.md`` §2): raw
newline-delimited JSON lines in, bytes out plus actions for the shell. No I/O, no clock.

Input: one line at a time, *with* its terminator (``b"...\\n"``, ``b"...\\r\\n"``, or no
terminator for a last partial line), through :meth:`WrapCore.feed_host` (host -> server) and
:meth:`WrapCore.feed_server` (server -> host); the tray app's answers through
:meth:`WrapCore.tray_done`. Output: a list of actions, in order:

- :class:`ToServer` / :class:`ToHost`: bytes to write to the child's stdin / the host's stdout.
  A line the proxy has no reason to change is the *same bytes object* that came in (§2.5:
  batches, non-JSON, odd ids, ``1e400``, ``\\r\\n``, unknown members all pass untouched).
- :class:`AskTray`: send ``elicitation/create`` with these params to the tray app, then call
  :meth:`WrapCore.tray_done` with the ticket.
- :class:`CancelTray`: the request of that ticket is moot (expire its dialog); its answer, if it
  still comes, is ignored.
- :class:`CompleteTray`: deliver ``notifications/elicitation/complete`` for that id to the tray.

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
import shlex
from dataclasses import dataclass, field
from typing import Any

from ..ipc.jsonrpc import INTERNAL_ERROR, skip_ws
from ..request import MODES, REQUESTER_KEY

__all__ = [
    "WrapCore",
    "Identity",
    "ToHost",
    "ToServer",
    "AskTray",
    "CancelTray",
    "CompleteTray",
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
]

#: ``--policy`` values (§2.7).
POLICIES = ("complement", "always", "off")
# INTERNAL_ERROR (-32603, ipc.jsonrpc) is the answer when the tray app cannot be reached (§2.5).
#: The message of that error (never a decline or cancel: nobody decided).
UNREACHABLE_MESSAGE = "elicit-tray: tray app unreachable"
#: Most ``input_required`` rounds the proxy answers for one host request (the SDK default).
MAX_ROUNDS = 10
#: 2026-07-28 request ``_meta`` key holding the client's capabilities.
CLIENT_CAPS_KEY = "io.modelcontextprotocol/clientCapabilities"
#: 2026-07-28 result ``_meta`` key holding the server's self-reported identity.
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"
#: Methods whose results may be ``input_required`` (``mcp_types.methods.INPUT_REQUIRED_METHODS``).
INPUT_REQUIRED_METHODS = frozenset({"tools/call", "prompts/get", "resources/read"})
# REQUESTER_KEY (request): the key of the requester identity in the tray's ``elicitation/create`` params.
#: Longest requester string the tray takes (README "IPC contract" limits): ``limits.MAX_TEXT_CHARS``,
#: not imported so that wrap starts without the schema package (tests/unit/test_pure_core.py
#: checks they are equal).
MAX_REQUESTER_CHARS = 1000
_FIRST_ELICITATION_VERSION = "2025-06-18"
_URL_VERSION = "2025-11-25"
_BOTH = frozenset(MODES)

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
_DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class ToHost:
    """Write ``data`` (whole lines, terminators included) to the host (our stdout)."""

    data: bytes


@dataclass(frozen=True)
class ToServer:
    """Write ``data`` (whole lines, terminators included) to the child's stdin."""

    data: bytes


@dataclass(frozen=True)
class AskTray:
    """Send ``elicitation/create`` with ``params`` (MCP ``ElicitRequestParams`` plus
    ``_meta["elicit-tray/requester"]``) to the tray app; report the outcome with
    :meth:`WrapCore.tray_done` (``ticket``)."""

    ticket: int
    params: dict[str, Any]


@dataclass(frozen=True)
class CancelTray:
    """Withdraw the tray request of ``ticket`` (its dialog expires); a later answer is ignored."""

    ticket: int


@dataclass(frozen=True)
class CompleteTray:
    """Deliver ``notifications/elicitation/complete`` for ``elicitation_id`` to the tray app
    (on the connection that made that URL elicitation)."""

    elicitation_id: str


Action = ToHost | ToServer | AskTray | CancelTray | CompleteTray


@dataclass(frozen=True)
class TrayAnswer:
    """What the tray app said for a ticket: ``result`` (an ``ElicitResult`` dict) or ``error``
    (a JSON-RPC error object ``{code, message, data?}``). Build the unreachable case with
    :meth:`unreachable`."""

    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None

    @classmethod
    def unreachable(cls) -> TrayAnswer:
        """-32603 ``"elicit-tray: tray app unreachable"`` (§2.5)."""
        return cls(error={"code": INTERNAL_ERROR, "message": UNREACHABLE_MESSAGE})


@dataclass(frozen=True)
class Identity:
    """Who asks, for the dialog (§2.6 "Identity for the tray"): the wrapped command line
    (``argv``), the proxy's pid and the child's pid (None before it runs)."""

    argv: tuple[str, ...] = ()
    proxy_pid: int | None = None
    child_pid: int | None = None

    def client_name(self) -> str:
        """``"elicit-tray wrap (pid P) running <command> (pid C)"``, cut to 1,000 characters
        (the tray's limit for a requester string) in the middle of the command."""
        proxy = f" (pid {self.proxy_pid})" if self.proxy_pid is not None else ""
        child = f" (pid {self.child_pid})" if self.child_pid is not None else ""
        head, tail = f"elicit-tray wrap{proxy} running ", child
        command = shlex.join(self.argv) if self.argv else "a server"
        room = MAX_REQUESTER_CHARS - len(head) - len(tail)
        if len(command) > room:
            command = command[: room - 1] + "…"
        return head + command + tail


def owned_modes(declared: Any, policy: str) -> frozenset[str] | None:
    """The elicitation modes the proxy answers given the host's declared ``elicitation``
    capability value ``declared`` (§2.1): absent (``None``) -> form and url; ``{}`` or
    ``{form}`` -> url; ``{url}`` -> form; both -> none. ``always`` owns both, ``off`` none.
    Returns None when ``declared`` is not an object (not understood: change nothing)."""
    if policy == "off":
        return frozenset()
    if declared is not None and not isinstance(declared, dict):
        return None
    if policy == "always":
        return _BOTH
    if declared is None:
        return _BOTH
    has_form = "form" in declared or not declared  # a bare {} means form only (2025-11-25)
    has_url = "url" in declared
    return frozenset(m for m, has in (("form", has_form), ("url", has_url)) if not has)


def _declare(declared: dict[str, Any] | None, owned: frozenset[str], *, bare_form: bool = False) -> dict[str, Any]:
    """The new ``elicitation`` value: the host's, plus each owned mode as ``{}``. A bare ``{}``
    (form only) is spelled out as ``{"form": {}}`` first, so that adding ``url`` keeps form
    (§2.1). ``bare_form``: write form as a bare ``{}`` (2025-06-18 knows no modes)."""
    if bare_form:
        return dict(declared or {})
    new = dict(declared or {})
    if declared is not None and not declared:
        new["form"] = {}
    for mode in ("form", "url"):
        if mode in owned:
            new.setdefault(mode, {})
    return new


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise ValueError("duplicate key")
    return obj


def _parse(line: bytes) -> dict[str, Any] | None:
    """The JSON object on ``line``, or None (not an object: batch, non-JSON, invalid UTF-8,
    duplicate keys; all forwarded untouched)."""
    start = line.lstrip()[:1]
    if start != b"{":
        return None
    try:
        obj = json.loads(line, object_pairs_hook=_no_duplicates)
    except (ValueError, RecursionError):
        return None
    return obj if isinstance(obj, dict) else None


def _encode(obj: Any) -> bytes | None:
    """Compact UTF-8 JSON, or None if it cannot be written without loss (inf/nan from
    ``1e400``, lone surrogates)."""
    try:
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
    except (ValueError, UnicodeEncodeError, TypeError):
        return None


def _ending(line: bytes) -> bytes:
    if line.endswith(b"\r\n"):
        return b"\r\n"
    return b"\n" if line.endswith(b"\n") else b""


def _key(value: Any) -> str:
    """Map key of a JSON-RPC id: ``1`` and ``"1"`` differ (§2.3.1)."""
    return json.dumps(value, sort_keys=True)


def _members(text: str, start: int) -> dict[str, tuple[int, int]] | None:
    """Spans ``(begin, end)`` of the raw value text of each member of the JSON object that
    starts at ``text[start]`` (after whitespace); None when it is not a well-formed object."""
    try:
        idx = skip_ws(text, start)
        if text[idx] != "{":
            return None
        idx = skip_ws(text, idx + 1)
        spans: dict[str, tuple[int, int]] = {}
        if text[idx] == "}":
            return spans
        while True:
            if text[idx] != '"':
                return None
            key, idx = _DECODER.raw_decode(text, idx)
            idx = skip_ws(text, idx)
            if text[idx] != ":":
                return None
            begin = skip_ws(text, idx + 1)
            _value, end = _DECODER.raw_decode(text, begin)
            spans[key] = (begin, end)
            idx = skip_ws(text, end)
            if text[idx] == "}":
                return spans
            if text[idx] != ",":
                return None
            idx = skip_ws(text, idx + 1)
    except (ValueError, IndexError, RecursionError):
        return None


def _raw(line: bytes, *path: str) -> str | None:
    """The raw JSON text of the member at ``path`` (top-level keys down), exactly as on the line."""
    text = line.decode("utf-8", "surrogatepass")
    start = 0
    span = None
    for key in path:
        spans = _members(text, start)
        if spans is None or key not in spans:
            return None
        span = spans[key]
        start = span[0]
    return None if span is None else text[span[0] : span[1]]


def _with_id(line: bytes, raw_id: str) -> bytes | None:
    """``line`` with the raw text of its top-level ``id`` replaced by ``raw_id``; every other
    byte unchanged (a response passed on under another id, §2.3.4)."""
    text = line.decode("utf-8", "surrogatepass")
    spans = _members(text, 0)
    if spans is None or "id" not in spans:
        return None
    begin, end = spans["id"]
    return (text[:begin] + raw_id + text[end:]).encode("utf-8", "surrogatepass")


def _error_line(raw_id: str, error: dict[str, Any]) -> bytes:
    body = _encode(error) or _encode({"code": INTERNAL_ERROR, "message": UNREACHABLE_MESSAGE})
    assert body is not None
    return b'{"jsonrpc":"2.0","id":' + raw_id.encode("utf-8", "surrogatepass") + b',"error":' + body + b"}\n"


def _mode(params: Any) -> str | None:
    if not isinstance(params, dict):
        return None
    mode = params.get("mode", "form")
    return mode if isinstance(mode, str) else None


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


class WrapCore:
    """The proxy's rules over raw lines (``notes/proxy-design.md`` §2.1-2.5, §2.7).

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

    # -- host -> server ---------------------------------------------------------------------

    def wants_tray_state(self, line: bytes) -> bool:
        """Whether :attr:`tray_up` should be current before :meth:`feed_host` takes ``line``
        (it may declare the capability). A byte check only."""
        return self.policy != "off" and (_B_CAPS in line or (_B_INIT in line and not self._initialized))

    def feed_host(self, line: bytes) -> list[Action]:
        """One line from the host (terminator included). Returns the actions, in order."""
        if self.policy == "off" or not (_B_CAPS in line or _B_INIT in line or _B_CANCELLED in line):
            return [ToServer(line)]
        msg = _parse(line)
        if msg is None:
            return [ToServer(line)]
        method = msg.get("method")
        if method == "initialize" and "id" in msg:
            return self._host_initialize(line, msg)
        if method == "notifications/cancelled":
            return self._host_cancelled(line, msg)
        params = msg.get("params")
        meta = params.get("_meta") if isinstance(params, dict) else None
        if (
            isinstance(method, str)
            and isinstance(params, dict)  # as `meta` says; for the type checker
            and isinstance(meta, dict)
            and isinstance(meta.get(CLIENT_CAPS_KEY), dict)
        ):
            return self._host_enveloped(line, msg, method, params, meta)
        return [ToServer(line)]

    def _host_initialize(self, line: bytes, msg: dict[str, Any]) -> list[Action]:
        """§2.1 2025 era: edit ``params.capabilities`` of the host's ``initialize``, once."""
        if self._initialized:
            return [ToServer(line)]
        self._initialized = True
        self._init_key = _key(msg["id"])
        params = msg.get("params")
        caps = params.get("capabilities") if isinstance(params, dict) else None
        version = params.get("protocolVersion") if isinstance(params, dict) else None
        if (
            not isinstance(caps, dict)
            or not isinstance(version, str)
            or version < _FIRST_ELICITATION_VERSION
            or not self.tray_up
        ):
            return [ToServer(line)]
        declared = caps.get("elicitation")
        owned = owned_modes(declared, self.policy)
        if owned is None:
            return [ToServer(line)]
        if version < _URL_VERSION:  # 2025-06-18: form only, spelled {}
            owned = owned - {"url"}
        self.owned_legacy = owned
        if not owned:
            return [ToServer(line)]
        new = _declare(declared, owned, bare_form=version < _URL_VERSION)
        if new == declared:
            return [ToServer(line)]
        caps["elicitation"] = new
        data = _encode(msg)
        if data is None:  # cannot be re-encoded without loss: forward untouched, own nothing
            self.owned_legacy = frozenset()
            return [ToServer(line)]
        return [ToServer(data + _ending(line))]

    def _host_enveloped(
        self, line: bytes, msg: dict[str, Any], method: str, params: dict[str, Any], meta: dict[str, Any]
    ) -> list[Action]:
        """§2.1 2026 era: edit the client-capabilities ``_meta`` of every request carrying
        it; watch the ``input_required`` methods (§2.3.1)."""
        if not self.tray_up:
            return [ToServer(line)]
        caps = meta[CLIENT_CAPS_KEY]
        declared = caps.get("elicitation")
        owned = owned_modes(declared, self.policy)
        if not owned:
            return [ToServer(line)]
        new = _declare(declared, owned)
        out = line
        if new != declared:
            caps["elicitation"] = new
            data = _encode(msg)
            if data is None:
                return [ToServer(line)]
            out = data + _ending(line)
        if "id" in msg and method in INPUT_REQUIRED_METHODS and (out is not line or _encode(params) is not None):
            raw_id = _raw(line, "id")  # (a retry must be writable: params that cannot be re-encoded are not watched)
            if raw_id is not None:
                self._watch[_key(msg["id"])] = _Watch(raw_id=raw_id, method=method, params=params, owned=owned)
        return [ToServer(out)]

    def _host_cancelled(self, line: bytes, msg: dict[str, Any]) -> list[Action]:
        """§2.4: the host cancels host request H."""
        params = msg.get("params")
        if not isinstance(params, dict) or "requestId" not in params:
            return [ToServer(line)]
        key = _key(params["requestId"])
        watch = self._watch.pop(key, None)
        if watch is None or watch.state == "sent":
            return [ToServer(line)]  # not ours (or before its first response): forward raw
        actions: list[Action] = []
        if watch.state == "tray":  # the server already answered H: close the dialogs, send nothing
            for ticket in watch.tickets.values():
                self._tickets.pop(ticket, None)
                actions.append(CancelTray(ticket))
            return actions
        # "retry": the proxy's retry P is at the server: cancel P instead.
        assert watch.retry_key is not None
        self._retries.pop(watch.retry_key, None)
        self._dead.add(watch.retry_key)
        params["requestId"] = json.loads(watch.retry_key)
        data = _encode(msg)
        if data is None:
            data = _encode(
                {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": params["requestId"]}}
            )
        assert data is not None
        return [ToServer(data + _ending(line))]

    # -- server -> host ---------------------------------------------------------------------

    def feed_server(self, line: bytes) -> list[Action]:
        """One line from the server (terminator included). Returns the actions, in order."""
        if self.policy == "off":
            return [ToHost(line)]
        if not (
            _B_ELICIT in line
            or _B_CANCELLED in line
            or _B_COMPLETE in line
            or self._prefix_bytes in line
            or (self._watch and (_B_RESULT in line or _B_ERROR in line))
            or (self._init_key is not None and self.server_info is None and _B_SERVER_INFO in line)
            or ("url" in self.owned_legacy and _B_URL_REQUIRED in line)
        ):
            return [ToHost(line)]
        msg = _parse(line)
        if msg is None:
            return [ToHost(line)]
        method = msg.get("method")
        if method is None:
            return self._server_response(line, msg)
        if method == "elicitation/create" and "id" in msg:
            return self._server_elicit(line, msg)
        params = msg.get("params")
        if method == "notifications/cancelled" and isinstance(params, dict) and "requestId" in params:
            ticket = self._server_asks.pop(_key(params["requestId"]), None)
            if ticket is not None:  # §2.2: close the dialog; no response, nothing forwarded
                self._tickets.pop(ticket, None)
                return [CancelTray(ticket)]
        if method == "notifications/elicitation/complete" and isinstance(params, dict):
            eid = params.get("elicitationId")
            if isinstance(eid, str) and eid in self._answered_urls:
                self._answered_urls.discard(eid)
                return [CompleteTray(eid)]
        return [ToHost(line)]

    def _requester_params(self, params: dict[str, Any]) -> dict[str, Any]:
        """The tray's ``elicitation/create`` params: the server's, with our requester identity
        (§2.6) replacing any ``elicit-tray/requester`` the server put there."""
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
        out["_meta"] = meta
        return out

    def _new_ticket(self, ticket: _Ticket) -> int:
        number = next(self._ids)
        self._tickets[number] = ticket
        return number

    def _server_elicit(self, line: bytes, msg: dict[str, Any]) -> list[Action]:
        """§2.2: a 2025 ``elicitation/create`` in an owned mode is answered by the proxy."""
        params = msg.get("params")
        if _mode(params) not in self.owned_legacy:
            return [ToHost(line)]
        raw_id = _raw(line, "id")
        if raw_id is None:
            return [ToHost(line)]
        assert isinstance(params, dict)
        eid = params.get("elicitationId") if params.get("mode") == "url" else None
        key = _key(msg["id"])
        ticket = self._new_ticket(
            _Ticket("server", raw_id=raw_id, id_key=key, url_id=eid if isinstance(eid, str) else None)
        )
        self._server_asks[key] = ticket
        return [AskTray(ticket, self._requester_params(params))]

    def _server_response(self, line: bytes, msg: dict[str, Any]) -> list[Action]:
        key = _key(msg.get("id"))
        result = msg.get("result")
        if key == self._init_key and isinstance(result, dict) and self.server_info is None:
            info = result.get("serverInfo")
            if isinstance(info, dict):
                self.server_info = info
        if isinstance(result, dict) and isinstance(result.get("_meta"), dict):
            info = result["_meta"].get(SERVER_INFO_KEY)
            if isinstance(info, dict):
                self.server_info = info
        if key in self._dead:  # a late answer to a cancelled retry (§2.4)
            self._dead.discard(key)
            return []
        host_key = self._retries.pop(key, None)
        if host_key is not None:
            return self._watched_response(line, msg, self._watch[host_key], host_key, retry=True)
        watch = self._watch.get(key)
        if watch is not None and watch.state == "sent":
            return self._watched_response(line, msg, watch, key, retry=False)
        error = msg.get("error")
        if "url" in self.owned_legacy and isinstance(error, dict) and error.get("code") == -32042:
            return self._url_required(line, error)
        return [ToHost(line)]

    def _url_required(self, line: bytes, error: dict[str, Any]) -> list[Action]:
        """§2.2 ``-32042`` with URL mode owned (v1): show each URL elicitation in the tray, and
        forward the error unchanged."""
        actions: list[Action] = []
        data = error.get("data")
        for item in (data.get("elicitations") if isinstance(data, dict) else None) or []:
            if isinstance(item, dict) and item.get("mode", "url") == "url":
                eid = item.get("elicitationId")
                ticket = self._new_ticket(_Ticket("notice", url_id=eid if isinstance(eid, str) else None))
                actions.append(AskTray(ticket, self._requester_params(item)))
        actions.append(ToHost(line))
        return actions

    def _watched_response(
        self, line: bytes, msg: dict[str, Any], watch: _Watch, host_key: str, *, retry: bool
    ) -> list[Action]:
        """§2.3.2 / §2.3.4: the server's answer to a watched host request or to our retry."""
        raw_result = msg.get("result")
        result: dict[str, Any] = raw_result if isinstance(raw_result, dict) else {}
        owned_keys: dict[str, dict[str, Any]] = {}
        if result.get("resultType") == "input_required":
            requests = result.get("inputRequests")
            if isinstance(requests, dict):
                for name, request in requests.items():
                    if (
                        isinstance(request, dict)
                        and request.get("method") == "elicitation/create"
                        and _mode(request.get("params")) in watch.owned
                    ):
                        owned_keys[name] = request["params"]
        if not owned_keys:  # final, or nothing the proxy owns: to the host under its own id
            del self._watch[host_key]
            if not retry:
                return [ToHost(line)]
            data = _with_id(line, watch.raw_id)
            if data is None:
                return [
                    ToHost(
                        _error_line(
                            watch.raw_id,
                            {"code": INTERNAL_ERROR, "message": "elicit-tray: unreadable answer from the server"},
                        )
                    )
                ]
            return [ToHost(data)]
        watch.rounds += 1
        if watch.rounds > self.max_rounds:
            del self._watch[host_key]
            return [
                ToHost(
                    _error_line(
                        watch.raw_id,
                        {
                            "code": INTERNAL_ERROR,
                            "message": f"elicit-tray: the server asked for input in more than {self.max_rounds} rounds",
                        },
                    )
                )
            ]
        watch.state = "tray"
        watch.retry_key = None
        watch.answers = dict.fromkeys(owned_keys)  # answers go back in the server's key order
        watch.state_raw = _raw(line, "result", "requestState") if "requestState" in result else None
        actions: list[Action] = []
        for name, params in owned_keys.items():
            ticket = self._new_ticket(_Ticket("mrtr", host_key=host_key, input_key=name))
            watch.tickets[name] = ticket
            actions.append(AskTray(ticket, self._requester_params(params)))
        return actions

    # -- tray answers -----------------------------------------------------------------------

    def tray_done(self, ticket: int, answer: TrayAnswer) -> list[Action]:
        """The tray app's answer for ``ticket`` (ignored if the ticket was cancelled)."""
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
                return [ToServer(_error_line(info.raw_id, answer.error))]
            body = _encode(answer.result)
            if body is None:
                return [ToServer(_error_line(info.raw_id, TrayAnswer.unreachable().error or {}))]
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
            actions: list[Action] = []
            for other in watch.tickets.values():
                self._tickets.pop(other, None)
                actions.append(CancelTray(other))
            actions.append(ToHost(_error_line(watch.raw_id, answer.error)))
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
        data = _encode({"jsonrpc": "2.0", "id": retry_id, "method": watch.method, "params": params})
        assert data is not None  # the params were re-encodable when stored (or came in unchanged)
        if watch.state_raw is not None:
            data = data.replace(json.dumps(placeholder).encode(), watch.state_raw.encode("utf-8", "surrogatepass"), 1)
        key = _key(retry_id)
        watch.state, watch.retry_key, watch.answers = "retry", key, {}
        self._retries[key] = host_key
        return ToServer(data + b"\n")
