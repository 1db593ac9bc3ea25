"""The tray app's settings: one value per setting from the command line, the settings file or
the default, in that order, applied at once when they change (issue 15 §3).

The settings file is a ``QSettings`` INI file at ``<user config dir>/elicit-tray/settings.ini``
(on Linux ``$XDG_CONFIG_HOME``, default ``~/.config``; ``ELICIT_TRAY_CONFIG=PATH`` moves it); the
Settings window writes it, and it can be edited by hand:

=====================  ====================================  ===========================  =========
key (INI)              meaning                               ``serve`` option             default
=====================  ====================================  ===========================  =========
``dialogs/timeout``    seconds until an untouched dialog     ``--timeout S``              0 (none)
                       answers cancel (0: never)
``dialogs/consent``    ms every button stays disarmed        ``--consent-delay-ms MS``    700
                       (:data:`CONSENT_DELAY_BOUNDS`)
``history/enabled``    keep the decision history             ``--history/--no-history``   true
``history/values``     keep submitted field values           ``--history-values/--no-..`` true
``history/query``      keep URL query strings and fragments  ``--history-query/--no-..``  false
``history/retention``  days a decision is kept (0: ever)     ``--retention-days N``       90
``ui/language``        ``de``, ``ar``, ``en``; empty: system ``--lang CODE``              (system)
=====================  ====================================  ===========================  =========

"Start at login" is the XDG autostart entry itself (``install-desktop --autostart``; the tray
menu and the Settings window toggle it). A value given on the command line wins: the window shows
it and does not let it be changed. Values out of bounds are clamped; a value that cannot be read
is the default. No Qt at import (``QSettings`` is loaded by :func:`settings_store`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from .history import DEFAULT_RETENTION_DAYS, Privacy

__all__ = [
    "CONSENT_DELAY_BOUNDS",
    "ENV_CONFIG",
    "KEYS",
    "Preferences",
    "Settings",
    "default_config_path",
    "settings_store",
]

#: Environment variable with the settings file's path.
ENV_CONFIG = "ELICIT_TRAY_CONFIG"
#: The consent delay's bounds in ms: never 0 (a key pressed as the dialog appears must not
#: answer it), at most 5 s.
CONSENT_DELAY_BOUNDS = (300, 5000)
#: Bounds of the timeout (s) and the retention (days).
TIMEOUT_BOUNDS = (0, 24 * 3600)
RETENTION_BOUNDS = (0, 3650)


@dataclass(frozen=True)
class Settings:
    """Every setting's value (see the module table; units in the names)."""

    timeout_s: int = 0
    consent_delay_ms: int = 700
    history: bool = True
    history_values: bool = True
    history_query: bool = False
    retention_days: int = DEFAULT_RETENTION_DAYS
    language: str = ""

    def privacy(self) -> Privacy:
        """The history switches of these settings."""
        return Privacy(
            enabled=self.history,
            values=self.history_values,
            query=self.history_query,
            retention_days=self.retention_days,
        )

    def clamped(self) -> Settings:
        """These settings with numbers inside their bounds and the language a plain code."""

        def clamp(value: int, bounds: tuple[int, int]) -> int:
            return max(bounds[0], min(bounds[1], int(value)))

        language = self.language.strip().lower()
        return replace(
            self,
            timeout_s=clamp(self.timeout_s, TIMEOUT_BOUNDS),
            consent_delay_ms=clamp(self.consent_delay_ms, CONSENT_DELAY_BOUNDS),
            retention_days=clamp(self.retention_days, RETENTION_BOUNDS),
            language=language if language.isalpha() and len(language) <= 8 else "",
        )


#: Settings attribute -> key in the settings file.
KEYS = {
    "timeout_s": "dialogs/timeout",
    "consent_delay_ms": "dialogs/consent",
    "history": "history/enabled",
    "history_values": "history/values",
    "history_query": "history/query",
    "retention_days": "history/retention",
    "language": "ui/language",
}


def default_config_path() -> Path:
    """``$ELICIT_TRAY_CONFIG``, else ``<user config dir>/elicit-tray/settings.ini``."""
    env = os.environ.get(ENV_CONFIG)
    if env:
        return Path(env)
    from platformdirs import user_config_dir

    return Path(user_config_dir("elicit-tray", appauthor=False)) / "settings.ini"


def settings_store(path: Path | None = None) -> Any:
    """A ``QSettings`` over the INI file at ``path`` (default :func:`default_config_path`)."""
    from PySide6.QtCore import QSettings

    return QSettings(str(path or default_config_path()), QSettings.Format.IniFormat)


def _read(store: Any, name: str, default: Any) -> Any:
    raw = store.value(KEYS[name])
    if raw is None:
        return default
    try:
        if isinstance(default, bool):
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in ("true", "1", "yes", "on"):
                return True
            if text in ("false", "0", "no", "off"):
                return False
            return default
        if isinstance(default, int):
            return int(str(raw).strip())
        return str(raw)
    except ValueError:
        return default


class Preferences:
    """The settings in force: the file's values under the command line's (``overrides``), and
    whoever applies them (:meth:`subscribe`).

    Args:
        store: a ``QSettings`` (or anything with ``value(key)``, ``setValue(key, v)``, ``sync()``),
            or ``None`` (nothing is read or saved).
        overrides: ``Settings`` attribute -> value given on the command line; these win and are
            :meth:`locked`.
    """

    def __init__(self, store: Any = None, overrides: dict[str, Any] | None = None):
        self.store = store
        self.overrides = {k: v for k, v in (overrides or {}).items() if v is not None}
        unknown = set(self.overrides) - set(KEYS)
        if unknown:
            raise ValueError(f"unknown settings: {sorted(unknown)}")
        defaults = Settings()
        stored = {
            f.name: (
                _read(store, f.name, getattr(defaults, f.name)) if store is not None else getattr(defaults, f.name)
            )
            for f in fields(Settings)
        }
        self.current = Settings(**{**stored, **self.overrides}).clamped()
        self._listeners: list[Callable[[Settings], None]] = []

    def locked(self, name: str) -> bool:
        """Whether setting ``name`` was given on the command line (it cannot be changed here)."""
        return name in self.overrides

    def subscribe(self, listener: Callable[[Settings], None]) -> None:
        """Call ``listener(settings)`` now and after every change."""
        self._listeners.append(listener)
        listener(self.current)

    def change(self, **values: Any) -> Settings:
        """Set settings (attribute names of :class:`Settings`), save the ones not locked to the
        file and apply the result at once. A locked one keeps the command line's value.
        Returns the settings in force."""
        free = {k: v for k, v in values.items() if not self.locked(k)}
        if not free:
            return self.current
        self.current = replace(self.current, **free).clamped()
        if self.store is not None:
            for name in free:
                self.store.setValue(KEYS[name], getattr(self.current, name))
            self.store.sync()
        for listener in list(self._listeners):
            listener(self.current)
        return self.current

    def as_dict(self) -> dict[str, Any]:
        """The settings in force as a ``dict``."""
        return asdict(self.current)
