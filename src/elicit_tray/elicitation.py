"""The immutable elicitation request the UI handles, and the outcomes it can end in.

Pure Python (no Qt). Data flows one way (DESIGN.md): params -> :class:`ElicitationRequest`
-> dialog -> :class:`Outcome` -> :func:`outcome_to_result` (the MCP ``ElicitResult``).
Decline, dismiss, timeout and internal error are distinct outcomes here and in the logs,
even where the wire only has ``cancel`` or an error.
"""

from __future__ import annotations

import itertools
import os
import shlex
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Union

from .schema import FormSpec, SchemaError, Violation, parse_requested_schema
from .schema.pattern import MAX_PATTERN_CHARS

if TYPE_CHECKING:
    from .urlcheck import UrlAnalysis

__all__ = [
    "Requester", "Peer", "ElicitationRequest", "ParamsError", "parse_elicit_params",
    "Accepted", "Declined", "Cancelled", "Failed", "Outcome", "outcome_kind", "outcome_to_result", "MODES",
    "MAX_MESSAGE_CHARS", "MAX_TEXT_CHARS", "MAX_PROPERTIES", "MAX_OPTIONS", "MAX_URL_CHARS",
    "limit_violations", "MAX_CMDLINE_BYTES", "MAX_FORM_OPTIONS", "MAX_PATTERN_CHARS",
]

#: Elicitation modes we render (MCP 2025-11-25 ``ElicitRequestParams.mode``).
MODES = ("form", "url")

# Limits on what one request may ask to show (README "IPC contract"). A request over any of
# them gets -32602 with one violation per excess, and nothing else is checked or built.
#: Longest ``message``, in characters (code points).
MAX_MESSAGE_CHARS = 10_000
#: Longest title, description, property name, option value or title (``enum``, ``enumNames``,
#: ``const``), and self-reported requester string, in characters.
MAX_TEXT_CHARS = 1_000
#: Most properties (form fields) in a ``requestedSchema`` (DESIGN.md targets 200-field forms).
MAX_PROPERTIES = 256
#: Most options in one ``enum``, ``enumNames``, ``oneOf`` or ``anyOf`` list.
MAX_OPTIONS = 200
#: Most options in one form, all its selects together (a ``$ref`` counts each time it is used):
#: every option of a multi-select is a widget, so this bounds what one request builds
#: (issue 11 §1: 256 fields x 200 options stalled the app 8.2 s; at this limit a form builds in
#: about 0.2 s of batched UI-thread work and under 20 MiB).
MAX_FORM_OPTIONS = 512
#: Longest ``url`` (URL mode), in characters.
MAX_URL_CHARS = 8_192
#: Most bytes of a requesting process's arguments read from ``/proc/<pid>/cmdline``.
MAX_CMDLINE_BYTES = 4096
_TEXT_KEYS = frozenset({"title", "description", "const"})
_OPTION_LISTS = frozenset({"enum", "enumNames", "oneOf", "anyOf"})
_NAMED_MAPS = frozenset({"properties", "$defs", "definitions"})
_REQUESTER_KEY = "elicit-tray/requester"
_counter = itertools.count(1)


@dataclass(frozen=True)
class Requester:
    """Self-reported identity from ``_meta["elicit-tray/requester"]``; shown as self-reported."""

    server_name: str | None = None
    server_title: str | None = None
    server_version: str | None = None
    client_name: str | None = None
    declared_modes: tuple[str, ...] | None = None

    @property
    def label(self) -> str | None:
        """``"Title (name) 1.2"``-style label of the server, or ``None`` when unknown."""
        name = self.server_title or self.server_name
        if not name:
            return None
        if self.server_title and self.server_name and self.server_title != self.server_name:
            name = f"{self.server_title} ({self.server_name})"
        return f"{name} {self.server_version}" if self.server_version else name


@dataclass(frozen=True)
class Peer:
    """The requesting local process, as the OS reports the socket peer (DESIGN.md "UI rules":
    "executable and pid from the socket peer, not a name the process chose").

    ``pid`` and ``uid`` come from the kernel for the socket (Linux ``SO_PEERCRED``). The rest
    is read from ``/proc/<pid>`` (:meth:`from_proc`):

    - ``executable``: the file the kernel runs for the process (``/proc/<pid>/exe``), the one
      part the process cannot choose; ``None`` when the system did not tell (no ``/proc``, a
      process that made itself non-dumpable, a process already gone).
    - ``executable_deleted``: that file was deleted or replaced after the process started.
    - ``argv``: its arguments (``/proc/<pid>/cmdline``), ``argv[0]`` included. The process
      chooses all of them (``exec -a`` sets ``argv[0]``), so only ``argv[1:]`` is shown, after
      the executable, as arguments. ``argv_cut``: the list was longer than
      :data:`MAX_CMDLINE_BYTES` and is cut there.
    - ``process_name``: the name the process gave itself (``/proc/<pid>/comm``, which
      ``prctl(PR_SET_NAME)`` sets). Kept for the request log; shown only when the executable is
      unknown, and then marked as the process's own name.

    Every string is as the OS gave it, undecodable bytes as ``\\xNN``; :attr:`label` and
    :func:`~elicit_tray.display.for_display` make them one honest line.
    """

    pid: int | None = None
    uid: int | None = None
    process_name: str | None = None
    executable: str | None = None
    executable_deleted: bool = False
    argv: tuple[str, ...] | None = None
    argv_cut: bool = False

    @property
    def label(self) -> str | None:
        """One line naming the process, or ``None`` when the OS told nothing (no pid).

        With the executable: the executable path and ``argv[1:]``, each shell-quoted where it
        needs it, then the pid, e.g. ``/usr/bin/python3.11 /home/u/agent.py --x (pid 123)``;
        ``… (pid 123, executable deleted since it started)`` for a deleted file; ``…`` after the
        arguments when they were cut. Without it, what the process says of itself, so marked:
        ``agent (pid 123), as the process names itself; its executable is unknown``.
        Bidi controls, line breaks and invisible characters are shown as ``\\uXXXX``
        (:func:`~elicit_tray.display.display_line`), so the line cannot be forged.
        """
        from .display import display_line

        if self.pid is None:
            return None
        if self.executable is not None:
            words = [self.executable, *(self.argv or ())[1:]]
            command = " ".join(shlex.quote(word) for word in words) + (" …" if self.argv_cut else "")
            state = ", executable deleted since it started" if self.executable_deleted else ""
            return display_line(f"{command} (pid {self.pid}{state})")
        if self.argv:
            named = " ".join(shlex.quote(word) for word in self.argv) + (" …" if self.argv_cut else "")
        else:
            named = shlex.quote(self.process_name) if self.process_name else "unknown process"
        told = ", as the process names itself" if (self.argv or self.process_name) else ""
        return display_line(f"{named} (pid {self.pid}){told}; its executable is unknown")

    @classmethod
    def from_proc(cls, pid: int, uid: int | None, proc: str = "/proc") -> "Peer":
        """The peer ``pid`` (of user ``uid``) as ``{proc}/{pid}`` describes it (Linux procfs).

        Reads ``exe`` (readlink; the kernel's `` (deleted)`` suffix becomes
        ``executable_deleted`` unless the file really has that name), ``cmdline`` (NUL-separated,
        at most :data:`MAX_CMDLINE_BYTES`) and ``comm``. Whatever cannot be read stays ``None``;
        raises nothing.
        """
        base = f"{proc}/{pid}"

        def decode(raw: bytes) -> str:
            return raw.decode("utf-8", "backslashreplace")

        executable, deleted = None, False
        try:
            target = os.readlink(f"{base}/exe".encode())
        except OSError:
            pass
        else:
            if target.endswith(b" (deleted)"):
                try:  # a file really named "… (deleted)" is the very file the process runs
                    named = os.path.samestat(os.stat(f"{base}/exe"), os.stat(target))
                except OSError:
                    named = False
                if not named:
                    target, deleted = target[: -len(b" (deleted)")], True
            executable = decode(target)
        argv, cut = None, False
        try:
            with open(f"{base}/cmdline", "rb") as file:
                raw = file.read(MAX_CMDLINE_BYTES + 1)
        except OSError:
            raw = b""
        if raw:
            cut = len(raw) > MAX_CMDLINE_BYTES
            raw = raw[:MAX_CMDLINE_BYTES]
            parts = raw.split(b"\0")
            if parts[-1] == b"":
                parts.pop()
            argv = tuple(decode(part) for part in parts)
        name = None
        try:
            with open(f"{base}/comm", "rb") as file:
                name = decode(file.read(64).removesuffix(b"\n")) or None
        except OSError:
            pass
        return cls(pid=pid, uid=uid, process_name=name, executable=executable, executable_deleted=deleted,
                   argv=argv, argv_cut=cut)


@dataclass(frozen=True)
class ElicitationRequest:
    """One ``elicitation/create`` request, validated.

    ``mode`` is ``"form"`` (then ``form`` is set) or ``"url"`` (then ``url`` and
    ``url_analysis`` are set; ``elicitation_id`` exists only on 2025-11-25).
    ``key`` is a process-unique string used in logs and the pending list.
    """

    mode: str
    message: str
    form: FormSpec | None = None
    url: str | None = None
    url_analysis: UrlAnalysis | None = None
    elicitation_id: str | None = None
    requester: Requester = field(default_factory=Requester)
    peer: Peer = field(default_factory=Peer)
    key: str = field(default_factory=lambda: f"r{next(_counter)}")


class ParamsError(ValueError):
    """Params outside what we render (JSON-RPC -32602, ``data.violations``)."""

    def __init__(self, violations: list[Violation]):
        self.violations = violations
        super().__init__("; ".join(f"{v.path or '/'}: {v.message}" for v in violations))


def _requester(meta: Any) -> tuple[Requester, list[Violation]]:
    raw = meta.get(_REQUESTER_KEY) if isinstance(meta, dict) else None
    if raw is None:
        return Requester(), []
    path = "/_meta/elicit-tray~1requester"
    if not isinstance(raw, dict):
        return Requester(), [Violation(path, "must be an object")]
    problems = []
    values: dict[str, Any] = {}
    for key, attr in (("serverName", "server_name"), ("serverTitle", "server_title"),
                      ("serverVersion", "server_version"), ("clientName", "client_name")):
        value = raw.get(key)
        if value is not None and not isinstance(value, str):
            problems.append(Violation(f"{path}/{key}", "must be a string"))
        elif value:
            values[attr] = value
    modes = raw.get("declaredModes")
    if modes is not None:
        if isinstance(modes, list) and all(isinstance(m, str) for m in modes):
            values["declared_modes"] = tuple(modes)
        else:
            problems.append(Violation(f"{path}/declaredModes", "must be a list of mode names"))
    return Requester(**values), problems


def _esc(part: str) -> str:
    return "/" + part.replace("~", "~0").replace("/", "~1")


def _option_count(schema: dict[str, Any], prop: Any) -> int:
    """How many options property ``prop`` shows: its ``enum``/``oneOf``, or its ``items``'
    ``enum``/``anyOf``/``oneOf``, after following local ``$ref`` (a few hops, as the parser)."""
    for _ in range(5):
        if not (isinstance(prop, dict) and isinstance(prop.get("$ref"), str)):
            break
        from urllib.parse import unquote

        tokens = [unquote(t).replace("~1", "/").replace("~0", "~") for t in prop["$ref"][2:].split("/")]
        section, name = tokens[0], "/".join(tokens[1:])  # read as the parser reads it
        target = schema.get(section)
        prop = target.get(name) if isinstance(target, dict) else None
    if not isinstance(prop, dict):
        return 0
    holder = prop.get("items") if isinstance(prop.get("items"), dict) else prop
    return sum(len(holder[key]) for key in ("enum", "oneOf", "anyOf") if isinstance(holder.get(key), list))


def limit_violations(params: dict[str, Any]) -> list[Violation]:
    """Every way ``params`` exceeds the request limits or holds a NUL character (U+0000).

    Walks ``params`` iteratively (no recursion; depth is already bounded by the framing).
    Paths are JSON Pointers into ``params``.
    """
    problems: list[Violation] = []

    def too_long(value: Any, limit: int) -> bool:
        return isinstance(value, str) and len(value) > limit

    message = params.get("message")
    if too_long(message, MAX_MESSAGE_CHARS):
        problems.append(Violation("/message", f"longer than {MAX_MESSAGE_CHARS} characters ({len(message)})"))
    url = params.get("url")
    if too_long(url, MAX_URL_CHARS):
        problems.append(Violation("/url", f"longer than {MAX_URL_CHARS} characters ({len(url)})"))
    meta = params.get("_meta")
    requester = meta.get(_REQUESTER_KEY) if isinstance(meta, dict) else None
    if isinstance(requester, dict):
        for key, value in requester.items():
            if too_long(value, MAX_TEXT_CHARS):
                problems.append(Violation(f"/_meta/elicit-tray~1requester{_esc(key)}",
                                          f"longer than {MAX_TEXT_CHARS} characters ({len(value)})"))
    schema = params.get("requestedSchema")
    if isinstance(schema, dict) and isinstance(schema.get("properties"), dict) \
            and len(schema["properties"]) > MAX_PROPERTIES:
        problems.append(Violation("/requestedSchema/properties",
                                  f"more than {MAX_PROPERTIES} properties ({len(schema['properties'])})"))
    elif isinstance(schema, dict) and isinstance(schema.get("properties"), dict):
        options = sum(_option_count(schema, prop) for prop in schema["properties"].values())
        if options > MAX_FORM_OPTIONS:
            problems.append(Violation("/requestedSchema/properties",
                                      f"more than {MAX_FORM_OPTIONS} options in the form ({options})"))
    # One walk over all of params: NUL anywhere; inside requestedSchema, the text limits.
    stack: list[tuple[Any, str, str | None, bool]] = [(params, "", None, False)]
    while stack:
        node, path, parent_key, in_schema = stack.pop()
        if isinstance(node, dict):
            items: Any = node.items()
        elif isinstance(node, list):
            items = ((str(i), v) for i, v in enumerate(node))
        else:
            if isinstance(node, str) and "\x00" in node:
                problems.append(Violation(path, "contains a NUL character (U+0000)"))
            elif in_schema and too_long(node, MAX_TEXT_CHARS) and parent_key in _TEXT_KEYS | {"enum", "enumNames"}:
                problems.append(Violation(path, f"longer than {MAX_TEXT_CHARS} characters ({len(node)})"))
            elif in_schema and parent_key == "pattern" and too_long(node, MAX_PATTERN_CHARS):
                problems.append(Violation(path, f"longer than {MAX_PATTERN_CHARS} characters ({len(node)})"))
            continue
        if in_schema and parent_key in _OPTION_LISTS and isinstance(node, list) and len(node) > MAX_OPTIONS:
            problems.append(Violation(path, f"more than {MAX_OPTIONS} options ({len(node)})"))
        for key, value in items:
            child = path + _esc(key)
            if isinstance(node, dict):
                if "\x00" in key:
                    problems.append(Violation(child, "the key contains a NUL character (U+0000)"))
                elif in_schema and parent_key in _NAMED_MAPS and len(key) > MAX_TEXT_CHARS:
                    problems.append(Violation(child, f"the name is longer than {MAX_TEXT_CHARS} characters "
                                                     f"({len(key)})"))
                child_key: str | None = key
            else:
                child_key = parent_key  # items of a list: judged by the list's key
            stack.append((value, child, child_key, in_schema or (path == "" and key == "requestedSchema")))
    problems.sort(key=lambda v: v.path)
    return problems


def parse_elicit_params(params: dict[str, Any], peer: Peer | None = None) -> ElicitationRequest:
    """Validate ``elicitation/create`` params (MCP ``ElicitRequestParams``, both revisions).

    A missing ``mode`` means form (MCP 2025-11-25: "Requests without mode MUST be treated as
    form mode"). A mode other than form/url, or one outside the requester's
    ``declaredModes``, is refused as the specification requires of a client.

    Requests over the limits (:data:`MAX_MESSAGE_CHARS` and the others, see
    :func:`limit_violations`) are refused with those violations only, before anything is built.

    Raises:
        ParamsError: with every violation (JSON Pointer paths into ``params``).
    """
    over = limit_violations(params)
    if over:
        raise ParamsError(over)
    problems: list[Violation] = []
    requester, meta_problems = _requester(params.get("_meta"))
    problems += meta_problems
    mode = params.get("mode", "form")
    if mode not in MODES:
        raise ParamsError(problems + [Violation("/mode", f'unsupported elicitation mode {mode!r}; expected "form" or "url"')])
    if requester.declared_modes is not None and mode not in requester.declared_modes:
        raise ParamsError(problems + [Violation("/mode", f'mode "{mode}" was not declared by the client '
                                                f"(declared: {', '.join(requester.declared_modes) or 'none'})")])
    message = params.get("message")
    if not isinstance(message, str):
        problems.append(Violation("/message", '"message" must be a string'))
    common: dict[str, Any] = {"mode": mode, "message": message, "requester": requester, "peer": peer or Peer()}
    if mode == "form":
        if "requestedSchema" not in params:
            problems.append(Violation("/requestedSchema", '"requestedSchema" is required in form mode'))
        else:
            try:
                common["form"] = parse_requested_schema(params["requestedSchema"])
            except SchemaError as exc:
                problems += [Violation("/requestedSchema" + v.path, v.message) for v in exc.violations]
    else:
        url = params.get("url")
        eid = params.get("elicitationId")
        if not isinstance(url, str) or not url:
            problems.append(Violation("/url", '"url" must be a non-empty string in url mode'))
        else:
            common["url"] = url
            from .urlcheck import analyze_url  # loaded on the first URL request, not at start-up

            common["url_analysis"] = analyze_url(url)
        if eid is not None and not isinstance(eid, str):
            problems.append(Violation("/elicitationId", '"elicitationId" must be a string'))
        else:
            common["elicitation_id"] = eid
    if problems:
        raise ParamsError(problems)
    return ElicitationRequest(**common)


@dataclass(frozen=True)
class Accepted:
    """The user accepted: form ``content`` (a dict), or URL consent (``content`` None)."""

    content: dict[str, Any] | None = None


@dataclass(frozen=True)
class Declined:
    """The user explicitly said no (the Decline button)."""


@dataclass(frozen=True)
class Cancelled:
    """Dismissed without a choice. ``how``: ``"escape"``, ``"button"``, ``"close"``, ``"tray"`` or ``"timeout"``."""

    how: str = "close"


@dataclass(frozen=True)
class Failed:
    """No decision could be obtained (no UI, internal error): a JSON-RPC -32603, never an action."""

    message: str


Outcome = Union[Accepted, Declined, Cancelled, Failed]


def outcome_kind(outcome: Outcome) -> str:
    """The outcome in the request log's words: ``accept``, ``decline``, ``cancel-<how>``
    (escape, button, close, tray, timeout) or ``error``; never a value."""
    if isinstance(outcome, Accepted):
        return "accept"
    if isinstance(outcome, Declined):
        return "decline"
    if isinstance(outcome, Cancelled):
        return f"cancel-{outcome.how}"
    return "error"


def outcome_to_result(outcome: Outcome) -> dict[str, Any]:
    """The MCP ``ElicitResult`` of an outcome: ``{"action", "content"?}``.

    Raises:
        ValueError: for :class:`Failed`, which has no result (send an error instead).
    """
    if isinstance(outcome, Accepted):
        return {"action": "accept"} if outcome.content is None else {"action": "accept", "content": outcome.content}
    if isinstance(outcome, Declined):
        return {"action": "decline"}
    if isinstance(outcome, Cancelled):
        return {"action": "cancel"}
    raise ValueError(f"{outcome!r} has no ElicitResult")
