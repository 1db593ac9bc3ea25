"""The structured request log (JSON lines, rotating) of the tray app.

One JSON object per line in ``<user state dir>/elicit-tray/tray.log.jsonl`` (platformdirs;
on Linux ``~/.local/state/elicit-tray/``), rotated at :data:`MAX_LOG_BYTES` with
:data:`LOG_BACKUPS` old files (``tray.log.jsonl.1`` ...). ``$ELICIT_TRAY_LOG`` overrides the
path; ``ELICIT_TRAY_LOG=off`` turns the log off. Directory 0700, files 0600.

Every line has ``ts`` (UTC, RFC 3339 with milliseconds) and ``event``. ``event:
"elicitation"`` lines (one per ``elicitation/create`` request, written when it ends) have:
``id`` (JSON-RPC id), ``key`` (the tray's request key, when the params were valid), ``pid``,
``process``, ``uid`` (the socket peer), ``server`` / ``client`` (self-reported), ``mode``,
``outcome`` (one of :data:`OUTCOMES`), ``ms`` (received -> answer written), ``parse_ms``, and
where it applies ``code``/``error`` (JSON-RPC errors), ``violations`` (paths only),
``reason`` (why it expired), ``fields`` (names of the accepted content's fields), ``url``
(scheme, host, port and path: no user info, query or fragment).

Values are not logged unless the user asks (``elicit-tray serve --log-values``): only then do
lines carry ``content`` (the accepted values), ``message`` and the full ``url``.

Other events: ``ignored-response`` (a response sent to the tray), ``connection-refused``
(another user's uid; too many connections), ``started`` / ``stopped``.

The files cannot be turned against the user (README "IPC contract"): the log is
opened with ``O_NOFOLLOW`` and used only if it is a regular file owned by the user with no other
hard link, in a directory that no other user can write or, if others can (``/tmp``), that is
sticky; every symbolic link on the way to it must be the user's or root's. Its mode is forced to
0600, existing files included. Rotation only renames and unlinks (it never follows a link) and
opens the new file the same way. A file that fails these checks is not written
(:class:`UnsafeLogFile`; the app warns and runs without a journal).

The stderr log (``-v``) goes through :class:`LogFormatter`: without ``--log-values`` no field
value and no URL user info, query, fragment or opaque path segment reaches it, and in every
line the control characters (C0, DEL, C1), bidi controls, U+2028/U+2029 and lone surrogates
are escaped, so that no text from a requester can forge a line (:func:`escape_controls`).
"""

from __future__ import annotations

import json
import logging
import logging.handlers
import os
import re
import stat
import sys
import time
from io import TextIOWrapper
from pathlib import Path
from typing import IO, Any, Protocol
from urllib.parse import SplitResult, urlsplit

from .display import escape_char
from .paths import PrivateFileRefused, open_private_append

__all__ = [
    "ENV_LOG",
    "MAX_LOG_BYTES",
    "LOG_BACKUPS",
    "OUTCOMES",
    "VALUE_ARGUMENTS",
    "EventLog",
    "Journal",
    "LogFormatter",
    "UnsafeLogFile",
    "configure_logging",
    "default_log_path",
    "escape_controls",
    "open_journal",
    "open_private_log",
    "redact_url",
]

#: Environment variable with the log file's path (``off`` disables the log).
ENV_LOG = "ELICIT_TRAY_LOG"
#: Size at which the log rotates (bytes).
MAX_LOG_BYTES = 1024 * 1024
#: Rotated files kept beside the current one.
LOG_BACKUPS = 3
#: The ``outcome`` values of ``elicitation`` lines.
OUTCOMES = (
    "accept",
    "decline",
    "cancel-escape",
    "cancel-button",
    "cancel-close",
    "cancel-tray",
    "cancel-timeout",
    "expired",
    "error",
    "invalid",
    "busy",
)


def default_log_path() -> Path | None:
    """``$ELICIT_TRAY_LOG`` (``None`` when it is ``off``), else the user state dir's
    ``elicit-tray/tray.log.jsonl``."""
    env = os.environ.get(ENV_LOG)
    if env:
        return None if env.strip().lower() in ("off", "0", "none", "-") else Path(env)
    from platformdirs import user_state_dir

    return Path(user_state_dir("elicit-tray", appauthor=False)) / "tray.log.jsonl"


#: A path segment shown as it is in a redacted URL: a plain word (letters, ``-``, ``_``, ``.``,
#: ``~``; at most 32 characters). Anything else (digits, percent escapes, long or mixed
#: strings: ids and tokens) is shown as ``…``.
_PLAIN_SEGMENT = re.compile(r"[A-Za-z][A-Za-z._~-]{0,31}")


def split_url(url: str) -> tuple[SplitResult, str] | None:
    """``(parts, host)`` of ``url``: its ``urlsplit`` parts and its host with the port and without
    user info (an IPv6 host in brackets, e.g. ``[::1]:8443``); ``None`` when it cannot be parsed
    or has no scheme. Shared by :func:`redact_url` and the history's URL."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port is not None else ""
    except ValueError:
        return None
    if not parts.scheme:
        return None
    return parts, (f"[{host}]" if ":" in host else host) + port


def redact_url(url: str) -> str:
    """``url`` without user info, query and fragment, and without any path segment that is not a
    plain word: ``scheme://host:port/path`` where each segment is kept only if it is letters,
    ``-``, ``_``, ``.`` or ``~`` (at most 32 characters), else ``…``; ``?…`` / ``#…`` say a
    query / fragment was there. A URL without an authority (``mailto:``, ``data:``) becomes
    ``scheme:…``; one that cannot be parsed, ``<unparseable>``. Idempotent.

    E.g. ``https://u:pw@h.example:8443/reset/8f3a9c/confirm?t=1#x`` ->
    ``https://h.example:8443/reset/…/confirm?…#…`` (README "IPC contract", the request log).
    """
    split = split_url(url)
    if split is None:
        return "<unparseable>"
    parts, host = split
    rest = "/".join(
        seg if not seg or seg == "…" or _PLAIN_SEGMENT.fullmatch(seg) else "…" for seg in parts.path.split("/")
    )
    suffix = ("?…" if parts.query else "") + ("#…" if parts.fragment else "")
    if parts.netloc or parts.scheme in ("http", "https"):
        return f"{parts.scheme}://{host}{rest}{suffix}"
    return f"{parts.scheme}:{'…' if rest or suffix else ''}"


# -- escaping ---------------------------------------------------------------------------------------

#: Characters escaped in every log line: C0 controls, DEL, C1 controls (NEL U+0085 included),
#: the bidi controls (ALM, LRM, RLM, LRE..RLO, LRI..PDI), the line and paragraph separators and
#: lone surrogates.
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]")
_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_one(match: re.Match[str]) -> str:
    char = match.group()
    short = _SHORT_ESCAPES.get(char)
    if short is not None:
        return short
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else escape_char(char)


def escape_controls(text: str) -> str:
    """``text`` with every character of :data:`_CONTROLS` written as an escape: ``\\n``,
    ``\\r``, ``\\t``, ``\\xNN`` (other C0, DEL, C1) or ``\\uNNNN`` (bidi controls,
    U+2028/U+2029, lone surrogates); everything else unchanged (a backslash stays a backslash).
    The result is one line that renders in logical order. Never raises."""
    return _CONTROLS.sub(_escape_one, text)


#: JSON text keeps C1 controls, bidi controls and U+2028/U+2029 raw with ``ensure_ascii=False``;
#: in a JSON-lines file they are written as ``\\uNNNN`` escapes instead (the same JSON value).
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def _json_escape(text: str) -> str:
    return _JSON_UNSAFE.sub(lambda m: escape_char(m.group()), text)


# -- the stderr log -------------------------------------------------------------------------------

#: Arguments that are values, by call site: ``(logger name, message template) -> positions`` of
#: ``record.args`` shown as ``<value>`` without ``--log-values``. A safety net for call sites
#: that pass a value; ``tests/unit/test_logs_redaction.py`` checks each template still exists.
VALUE_ARGUMENTS: dict[tuple[str, str], tuple[int, ...]] = {
    ("elicit_tray.schema.parse", "ignoring the default of %s: %r (%s)"): (1,),
}

#: A URL with an authority inside free text (``%r`` quotes end it).
_URL_IN_TEXT = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[^\s'\"<>`]+")


class _Shown(str):
    """A string that ``%r`` prints as itself (a redacted stand-in for an argument)."""

    def __repr__(self) -> str:
        return str(self)


def _redact_arg(value: Any) -> Any:
    from .request import Accepted  # no import cycle at module load

    if isinstance(value, Accepted) and value.content is not None:
        names = ", ".join(escape_controls(str(name)) for name in sorted(value.content))
        return _Shown(f"Accepted(content=<{len(value.content)} field(s): {names}>)")
    return value


def _redacted_message(record: logging.LogRecord) -> str:
    args = record.args
    if isinstance(args, tuple) and args:
        hidden = VALUE_ARGUMENTS.get((record.name, str(record.msg)), ())
        args = tuple(_Shown("<value>") if i in hidden else _redact_arg(a) for i, a in enumerate(args))
    elif isinstance(args, dict):
        args = {k: _redact_arg(v) for k, v in args.items()}
    text = str(record.msg)
    if args:
        try:
            text = text % args
        except (TypeError, ValueError):
            text = record.getMessage()
    return _URL_IN_TEXT.sub(lambda m: redact_url(m.group()), text)


class LogFormatter(logging.Formatter):
    """The formatter of the stderr log: one record, one line.

    The message (after ``%`` formatting) has its control characters escaped
    (:func:`escape_controls`); without ``log_values`` it carries no field value (an
    :class:`~elicit_tray.elicitation.Accepted` shows its field names only, the arguments of
    :data:`VALUE_ARGUMENTS` show ``<value>``) and every ``scheme://`` URL in it goes through
    :func:`redact_url`. A traceback follows on lines that all begin with ``"  | "`` (escaped and
    redacted the same way), so no text can start a line that looks like a record of its own.
    """

    def __init__(self, fmt: str | None = None, datefmt: str | None = None, *, log_values: bool = False):
        super().__init__(fmt, datefmt)
        self.log_values = log_values

    def _clean(self, text: str) -> str:
        if not self.log_values:
            text = _URL_IN_TEXT.sub(lambda m: redact_url(m.group()), text)
        return escape_controls(text)

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage() if self.log_values else _redacted_message(record)
        clean = logging.makeLogRecord(record.__dict__)
        clean.msg, clean.args = escape_controls(message), None
        clean.exc_text = None
        return super().format(clean)

    def _continuation(self, text: str) -> str:
        return "\n".join("  | " + self._clean(line) for line in text.rstrip("\n").split("\n"))

    def formatException(self, ei: Any) -> str:
        return self._continuation(super().formatException(ei))

    def formatStack(self, stack_info: str) -> str:
        return self._continuation(stack_info)


def configure_logging(
    *, verbose: bool = False, log_values: bool = False, stream: IO[str] | None = None
) -> logging.Handler:
    """Send the root logger to ``stream`` (default ``sys.stderr``) through a
    :class:`LogFormatter`; level INFO with ``verbose`` (``-v``), else WARNING. Replaces any
    handler set before; returns the new one."""
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(LogFormatter("%(asctime)s %(name)s %(levelname)s %(message)s", log_values=log_values))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.INFO if verbose else logging.WARNING)
    return handler


# -- the journal file ------------------------------------------------------------------------------


class UnsafeLogFile(OSError):
    """The journal's path is not a file only this user controls (the message says why)."""


def _uid() -> int | None:
    return os.getuid() if hasattr(os, "getuid") else None


def _check_log_dir(directory: Path) -> None:
    """Raise :class:`UnsafeLogFile` unless every directory from ``/`` to ``directory`` (links
    resolved) is the user's or root's and writable by no one else, or sticky (``/tmp``), and
    every symbolic link on the way is the user's or root's."""
    uid = _uid()
    if uid is None:
        return
    trusted = (uid, 0)
    absolute = Path(os.path.abspath(directory))
    for prefix in [*reversed(absolute.parents), absolute]:
        info = os.lstat(prefix)
        if stat.S_ISLNK(info.st_mode) and info.st_uid not in trusted:
            raise UnsafeLogFile(
                f"{prefix} is a symbolic link owned by uid {info.st_uid}; the log is not "
                f"written through another user's link"
            )
    real = Path(os.path.realpath(directory))
    for prefix in [*reversed(real.parents), real]:
        info = os.stat(prefix)
        others = info.st_mode & 0o002 or (info.st_mode & 0o020 and info.st_gid != os.getgid())
        if info.st_uid not in trusted or (others and not info.st_mode & stat.S_ISVTX):
            raise UnsafeLogFile(
                f"{prefix} (on the way to the log) can be changed by another user "
                f"(owner uid {info.st_uid}, mode {stat.S_IMODE(info.st_mode):04o})"
            )


def open_private_log(path: Path) -> int:
    """Open ``path`` for appending and return the descriptor (close-on-exec), creating it 0600.

    ``O_NOFOLLOW`` (a symbolic link is refused, never followed) and ``O_NONBLOCK`` while opening
    (a FIFO is refused instead of blocking); then the file must be a regular file owned by the
    user with one link, and its mode is forced to 0600. Its directory is checked first
    (:func:`_check_log_dir`).

    Raises:
        UnsafeLogFile: a link, not a regular file, another user's file, another hard link,
            or an unsafe directory.
        OSError: it cannot be opened.
    """
    _check_log_dir(path.parent)
    try:
        return open_private_append(path)
    except PrivateFileRefused as refused:
        if refused.kind == "link":
            raise UnsafeLogFile(f"{path} is a symbolic link; the log is never written through one") from None
        if refused.kind == "owner":
            raise UnsafeLogFile(f"{path} is owned by uid {refused.value}, not by you (uid {_uid()})") from None
        if refused.kind == "links":
            raise UnsafeLogFile(f"{path} has {refused.value} hard links; the log must be a file of its own") from None
        raise UnsafeLogFile(f"{path} is not a regular file") from None


class _PrivateRotatingHandler(logging.handlers.RotatingFileHandler):
    """A rotating handler whose files are opened by :func:`open_private_log` and whose rotation
    only renames and unlinks (``os.replace`` moves a link itself, never its target)."""

    def _open(self) -> TextIOWrapper:
        fd = open_private_log(Path(self.baseFilename))
        return os.fdopen(fd, "a", encoding=self.encoding, errors=self.errors)

    def doRollover(self) -> None:
        if self.stream:
            self.stream.close()
            self.stream = None
        base = self.baseFilename
        if self.backupCount > 0:
            for i in range(self.backupCount - 1, 0, -1):
                if os.path.lexists(f"{base}.{i}"):
                    os.replace(f"{base}.{i}", f"{base}.{i + 1}")
            if os.path.lexists(base):
                os.replace(base, f"{base}.1")
        elif os.path.lexists(base):
            os.unlink(base)
        self.stream = self._open()


class EventLog(Protocol):
    """What the dispatcher and the endpoint write events to: a :class:`Journal`, or the
    :class:`~elicit_tray.history.Recorder` that keeps its interface."""

    @property
    def enabled(self) -> bool: ...
    @property
    def log_values(self) -> bool: ...
    def record(self, event: str, **fields: Any) -> None: ...


class Journal:
    """Writes structured events; a journal without a handler writes nothing.

    Args:
        path: the log file (``None``: no file; events are dropped).
        log_values: also log field values, messages and full URLs.
    """

    def __init__(self, path: Path | None = None, *, log_values: bool = False):
        self.path = path
        self.log_values = log_values
        self._handler: logging.Handler | None = None
        if path is not None:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            # Opened now (not at the first line): a path that fails the checks is reported at start.
            self._handler = _PrivateRotatingHandler(
                path, maxBytes=MAX_LOG_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8", delay=False
            )
            self._handler.setFormatter(logging.Formatter("%(message)s"))

    @property
    def enabled(self) -> bool:
        return self._handler is not None

    def record(self, event: str, **fields: Any) -> None:
        """Write one line ``{"ts", "event", **fields}`` (``None`` fields are left out). Never raises.

        Without ``log_values`` the fields ``content`` and ``message`` are dropped and ``url`` goes
        through :func:`redact_url`, whatever the caller passed. C1 and bidi controls and
        U+2028/U+2029 are written as ``\\uNNNN`` escapes, so a line is one line to any reader.
        """
        if self._handler is None:
            return
        if not self.log_values:
            fields.pop("content", None)
            fields.pop("message", None)
            if isinstance(fields.get("url"), str):
                fields["url"] = redact_url(fields["url"])
        now = time.time()
        line: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now % 1 * 1000):03d}Z",
            "event": event,
        }
        line.update((k, v) for k, v in fields.items() if v is not None)
        try:
            text = json.dumps(line, ensure_ascii=False, default=repr, allow_nan=False)
            text.encode("utf-8")
        except (ValueError, UnicodeEncodeError):  # NaN, or a lone surrogate: escape everything
            text = json.dumps(line, default=repr)
        text = _json_escape(text)
        try:
            record = logging.LogRecord("elicit_tray.journal", logging.INFO, __file__, 0, text, None, None)
            self._handler.handle(record)
        except Exception:  # pragma: no cover - a full disk must not take the app down
            logging.getLogger(__name__).exception("cannot write the request log")

    def close(self) -> None:
        if self._handler is not None:
            self._handler.close()
            self._handler = None


def open_journal(*, log_values: bool = False) -> Journal:
    """The app's journal at :func:`default_log_path`; a disabled one, with a warning naming the
    path and the reason, if it cannot be opened or fails the checks of :func:`open_private_log`."""
    path = default_log_path()
    try:
        return Journal(path, log_values=log_values)
    except OSError as exc:
        logging.getLogger(__name__).warning("no request log: %s", exc)
        return Journal(None, log_values=log_values)
