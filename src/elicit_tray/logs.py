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
"""

from __future__ import annotations

import json
import logging
import logging.handlers
import os
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

__all__ = ["ENV_LOG", "MAX_LOG_BYTES", "LOG_BACKUPS", "OUTCOMES", "Journal", "default_log_path",
           "open_journal", "redact_url"]

#: Environment variable with the log file's path (``off`` disables the log).
ENV_LOG = "ELICIT_TRAY_LOG"
#: Size at which the log rotates (bytes).
MAX_LOG_BYTES = 1024 * 1024
#: Rotated files kept beside the current one.
LOG_BACKUPS = 3
#: The ``outcome`` values of ``elicitation`` lines.
OUTCOMES = ("accept", "decline", "cancel-escape", "cancel-button", "cancel-close", "cancel-tray",
            "cancel-timeout", "expired", "error", "invalid", "busy")


def default_log_path() -> Path | None:
    """``$ELICIT_TRAY_LOG`` (``None`` when it is ``off``), else the user state dir's
    ``elicit-tray/tray.log.jsonl``."""
    env = os.environ.get(ENV_LOG)
    if env:
        return None if env.strip().lower() in ("off", "0", "none", "-") else Path(env)
    from platformdirs import user_state_dir

    return Path(user_state_dir("elicit-tray", appauthor=False)) / "tray.log.jsonl"


def redact_url(url: str) -> str:
    """``url`` without user info, query and fragment (``scheme://host:port/path``)."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port is not None else ""
    except ValueError:
        return "<unparseable>"
    if ":" in host:
        host = f"[{host}]"
    rest = parts.path
    suffix = ("?…" if parts.query else "") + ("#…" if parts.fragment else "")
    if parts.netloc or parts.scheme in ("http", "https"):
        return f"{parts.scheme}://{host}{port}{rest}{suffix}"
    return f"{parts.scheme}:{'…' if rest or suffix else ''}"


class _PrivateRotatingHandler(logging.handlers.RotatingFileHandler):
    """A rotating handler whose files are created 0600."""

    def _open(self):  # type: ignore[no-untyped-def]
        fd = os.open(self.baseFilename, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        return os.fdopen(fd, self.mode.replace("w", "a") or "a", encoding=self.encoding, errors=self.errors)


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
            self._handler = _PrivateRotatingHandler(path, maxBytes=MAX_LOG_BYTES, backupCount=LOG_BACKUPS,
                                                    encoding="utf-8", delay=True)
            self._handler.setFormatter(logging.Formatter("%(message)s"))

    @property
    def enabled(self) -> bool:
        return self._handler is not None

    def record(self, event: str, **fields: Any) -> None:
        """Write one line ``{"ts", "event", **fields}`` (``None`` fields are left out). Never raises."""
        if self._handler is None:
            return
        now = time.time()
        line: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now % 1 * 1000):03d}Z",
            "event": event}
        line.update((k, v) for k, v in fields.items() if v is not None)
        try:
            text = json.dumps(line, ensure_ascii=False, default=repr, allow_nan=False)
            text.encode("utf-8")
        except (ValueError, UnicodeEncodeError):  # NaN, or a lone surrogate: escape everything
            text = json.dumps(line, default=repr)
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
    """The app's journal at :func:`default_log_path` (a disabled one if it cannot be opened)."""
    path = default_log_path()
    try:
        return Journal(path, log_values=log_values)
    except OSError as exc:
        logging.getLogger(__name__).warning("no request log: %s", exc)
        return Journal(None)
