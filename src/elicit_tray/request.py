"""The typed request layer: what the UI is asked, and the outcomes it can end in (pure Python).

Data flows one way (docs/design.md "Layout"): params -> :func:`~elicit_tray.elicitation.parse_elicit_params`
-> a :class:`FormRequest` or :class:`UrlRequest` (:data:`ElicitationRequest`) -> dialog ->
:data:`Outcome` -> :func:`outcome_to_result` (the MCP ``ElicitResult``). Decline, dismiss,
timeout and internal error are distinct outcomes here and in the logs, even where the wire only
has ``cancel`` or an error.

Each mode has its own type, so a form request always has a ``form`` and a URL request always its
``url`` and ``url_analysis`` (MCP 2025-11-25 ``ElicitRequestFormParams`` /
``ElicitRequestURLParams``); code that handles one mode narrows with ``isinstance`` or
``request.mode``. What both share (message, requester, peer, key) lives on :class:`RequestBase`.
:data:`Mode`, :data:`CancelHow` and :data:`UrlVerdict` name the only values those strings take;
:data:`Handler` is the UI coroutine the dispatcher awaits for each request; :func:`for_display`
is the copy of a request its dialog shows (server strings made honest by :mod:`elicit_tray.display`).

No Qt and no schema parsing are loaded by importing this module (``FormSpec`` and
``UrlAnalysis`` are annotations only).
"""

from __future__ import annotations

import itertools
import os
import shlex
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeVar

from .display import display_line, display_text, isolate

if TYPE_CHECKING:
    from .schema import FormSpec
    from .urlcheck import UrlAnalysis

__all__ = [
    "Mode",
    "MODES",
    "CancelHow",
    "CANCEL_HOWS",
    "UrlVerdict",
    "URL_VERDICTS",
    "REQUESTER_KEY",
    "FLOW_KEY",
    "MAX_CMDLINE_BYTES",
    "Requester",
    "Peer",
    "RequestBase",
    "FormRequest",
    "UrlRequest",
    "ElicitationRequest",
    "Accepted",
    "Declined",
    "Cancelled",
    "Failed",
    "Outcome",
    "outcome_kind",
    "outcome_to_result",
    "Handler",
    "for_display",
]

#: An elicitation mode we render (MCP 2025-11-25 ``ElicitRequestParams.mode``).
Mode = Literal["form", "url"]
#: Every :data:`Mode`, in the order error messages name them.
MODES: tuple[Mode, ...] = ("form", "url")
#: How a dialog was dismissed without a choice (:attr:`Cancelled.how`): Escape, the Cancel
#: button, the window's close button, the tray menu, or the user-set timeout.
CancelHow = Literal["escape", "button", "close", "tray", "timeout"]
#: Every :data:`CancelHow`.
CANCEL_HOWS: tuple[CancelHow, ...] = ("escape", "button", "close", "tray", "timeout")
#: What :func:`~elicit_tray.urlcheck.analyze_url` says of a URL: open after consent, open only
#: after a prominent warning, or never open.
UrlVerdict = Literal["ok", "warn", "refuse"]
#: Every :data:`UrlVerdict`.
URL_VERDICTS: tuple[UrlVerdict, ...] = ("ok", "warn", "refuse")
#: The ``_meta`` key of the requester's self-reported identity (README "IPC contract").
REQUESTER_KEY = "elicit-tray/requester"
#: The ``_meta`` key with which a requester marks the rounds of one URL flow (README "IPC
#: contract", docs/design.md "URL flows over several rounds"): the same string on every round.
FLOW_KEY = "elicit-tray/flow"
#: Most bytes of a requesting process's arguments read from ``/proc/<pid>/cmdline``.
MAX_CMDLINE_BYTES = 4096
_counter = itertools.count(1)


def _next_key() -> str:
    return f"r{next(_counter)}"


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
        return self._compose(lambda text: text)

    @property
    def isolated_label(self) -> str | None:
        """:attr:`label` as the UI shows it: each of the server's strings (title, name, version)
        a bidi run of its own (:func:`~elicit_tray.display.isolate`), so that none reorders the
        others or the brackets between them; ``None`` when unknown."""
        return self._compose(isolate)

    def _compose(self, run: Callable[[str], str]) -> str | None:
        name = self.server_title or self.server_name
        if not name:
            return None
        name = run(name)
        if self.server_title and self.server_name and self.server_title != self.server_name:
            name = f"{run(self.server_title)} ({run(self.server_name)})"
        return f"{name} {run(self.server_version)}" if self.server_version else name


@dataclass(frozen=True)
class Peer:
    """The requesting local process, as the OS reports the socket peer (docs/design.md "UI rules":
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
    :func:`for_display` make them one honest line.
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
        return self._compose(lambda word: word)

    @property
    def isolated_label(self) -> str | None:
        """:attr:`label` as the UI shows it: the executable and each argument a bidi run of its
        own (:func:`~elicit_tray.display.isolate`), so that an argument in a right-to-left script
        cannot move the pid or the other words; ``None`` when the OS told nothing."""
        return self._compose(isolate)

    def _compose(self, run: Callable[[str], str]) -> str | None:
        if self.pid is None:
            return None

        def words(items: list[str]) -> str:
            return " ".join(run(display_line(shlex.quote(word))) for word in items) + (" …" if self.argv_cut else "")

        if self.executable is not None:
            state = ", executable deleted since it started" if self.executable_deleted else ""
            return f"{words([self.executable, *(self.argv or ())[1:]])} (pid {self.pid}{state})"
        if self.argv:
            named = words(list(self.argv))
        else:
            named = run(display_line(shlex.quote(self.process_name))) if self.process_name else "unknown process"
        told = ", as the process names itself" if (self.argv or self.process_name) else ""
        return f"{named} (pid {self.pid}){told}; its executable is unknown"

    @classmethod
    def from_proc(cls, pid: int, uid: int | None, proc: str = "/proc") -> Peer:
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
        return cls(
            pid=pid,
            uid=uid,
            process_name=name,
            executable=executable,
            executable_deleted=deleted,
            argv=argv,
            argv_cut=cut,
        )


@dataclass(frozen=True, kw_only=True)
class RequestBase:
    """What every ``elicitation/create`` request has, validated (keyword arguments only).

    ``message``: the server's text (shown through :func:`for_display`).
    ``requester``: the self-reported identity; ``peer``: the requesting process as the OS
    reports it. ``key``: a process-unique string (``"r1"``, ``"r2"``, ...) used in logs, the
    pending list and completion notices; kept by :func:`dataclasses.replace`.
    """

    #: The request's mode; each subclass fixes it.
    mode: ClassVar[Mode]
    message: str
    requester: Requester = field(default_factory=Requester)
    peer: Peer = field(default_factory=Peer)
    key: str = field(default_factory=_next_key)


@dataclass(frozen=True, kw_only=True)
class FormRequest(RequestBase):
    """A form-mode request (MCP ``ElicitRequestFormParams``): ``form`` is its parsed
    ``requestedSchema``."""

    mode: ClassVar[Literal["form"]] = "form"
    form: FormSpec


@dataclass(frozen=True, kw_only=True)
class UrlRequest(RequestBase):
    """A URL-mode request (MCP 2025-11-25 ``ElicitRequestURLParams``): ``url`` as sent,
    ``url_analysis`` what the dialog shows of it (:func:`~elicit_tray.urlcheck.analyze_url`),
    ``elicitation_id`` only on 2025-11-25 (the key of its completion notice), ``flow`` the
    requester's ``_meta["elicit-tray/flow"]`` (:data:`FLOW_KEY`): rounds with the same flow and
    URL are one flow for the user (docs/design.md "URL flows over several rounds")."""

    mode: ClassVar[Literal["url"]] = "url"
    url: str
    url_analysis: UrlAnalysis
    elicitation_id: str | None = None
    flow: str | None = None


#: One validated request, of either mode (narrow with ``isinstance`` or ``request.mode``).
ElicitationRequest = FormRequest | UrlRequest


@dataclass(frozen=True)
class Accepted:
    """The user accepted: form ``content`` (a dict), or URL consent (``content`` None)."""

    content: dict[str, Any] | None = None


@dataclass(frozen=True)
class Declined:
    """The user explicitly said no (the Decline button)."""


@dataclass(frozen=True)
class Cancelled:
    """Dismissed without a choice; ``how`` is a :data:`CancelHow`."""

    how: CancelHow = "close"


@dataclass(frozen=True)
class Failed:
    """No decision could be obtained (no UI, internal error): a JSON-RPC -32603, never an action."""

    message: str


Outcome = Accepted | Declined | Cancelled | Failed


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


#: The UI side of the dispatcher: one coroutine per request, returning the user's outcome.
#: Cancelling it means the request expired (the dialog must say so and send nothing).
Handler = Callable[[ElicitationRequest], Awaitable[Outcome]]


#: One of the request types, or :data:`ElicitationRequest` (both): :func:`for_display` returns
#: the type it was given.
_AnyRequest = TypeVar("_AnyRequest", bound=FormRequest | UrlRequest)


def for_display(request: _AnyRequest) -> _AnyRequest:
    """A copy of ``request`` (of the same type, with the same ``key``) whose shown strings are
    made honest: the message and descriptions through :func:`~elicit_tray.display.display_text`;
    titles, option titles, the self-reported requester strings and the peer's strings read from
    ``/proc`` (name, executable, arguments) through :func:`~elicit_tray.display.display_line`. A
    blank title falls back to the property name. Values (what goes back in ``content``) and the
    URL of a URL request (shown by its dialog through :func:`~elicit_tray.urlcheck.visible_url`)
    are never touched. docs/design.md
    "UI rules"; raises nothing for a valid request."""

    def line(text: str | None) -> str | None:
        return None if text is None else display_line(text)

    requester = replace(
        request.requester,
        server_name=line(request.requester.server_name),
        server_title=line(request.requester.server_title),
        server_version=line(request.requester.server_version),
        client_name=line(request.requester.client_name),
    )
    peer = request.peer
    peer = replace(
        peer,
        process_name=line(peer.process_name),
        executable=line(peer.executable),
        argv=None if peer.argv is None else tuple(display_line(a) for a in peer.argv),
    )
    message = display_text(request.message or "")
    if not isinstance(request, FormRequest):
        return replace(request, message=message, requester=requester, peer=peer)
    fields = []
    for spec in request.form.fields:
        title = spec.title if spec.title.strip() else (spec.name.strip() or "(no name)")
        fields.append(
            replace(
                spec,
                title=display_line(title),
                description=None if spec.description is None else display_text(spec.description),
                options=tuple(replace(o, title=display_line(o.title)) for o in spec.options),
            )
        )
    form = replace(request.form, fields=tuple(fields))
    return replace(request, message=message, form=form, requester=requester, peer=peer)
