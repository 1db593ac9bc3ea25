"""The tray app's settings: one value per setting from the command line, the settings file or
the default, in that order, applied at once when they change.

The settings file is a ``QSettings`` INI file at ``<user config dir>/elicit-tray/settings.ini``
(on Linux ``$XDG_CONFIG_HOME``, default ``~/.config``; ``ELICIT_TRAY_CONFIG=PATH`` moves it); the
Settings window writes it, and it can be edited by hand.

The table of settings is the body of :class:`Settings`: each attribute is one :class:`Setting`
row (INI key, default, bounds, ``serve`` option and its help, the Settings window's label and
description). Everything else is derived from it, in table order (:data:`SETTINGS`):

- :data:`KEYS` and how a value is read from and written to the file (:meth:`Setting.read`,
  :meth:`Setting.write`, :class:`Preferences`), with its bounds (:meth:`Setting.clean`);
- the ``serve`` options (``cli.py``) and the overrides ``serve`` applies (``app.py``);
- the Settings window's rows (``ui/settings_window.py``: one control per row, its kind chosen by
  the type of the default: a spin box for ``int``, a check box for ``bool``, a combo box of
  ``choices`` for ``str``).

Adding a setting is one row. For example, a sound when a dialog appears::

    # in class Settings below, where it should appear in the window and in `serve --help`:
    sound = Setting(
        key="dialogs/sound",
        default=False,
        flag="--sound",  # a bool is --sound / --no-sound
        help="play a sound when a dialog appears (default: the settings file, else off)",
        label=QT_TRANSLATE_NOOP("Settings", "Play a &sound when a dialog appears"),
        description=QT_TRANSLATE_NOOP("Settings", "A short chime; the system's volume applies."),
        control="sound",  # the Settings window's attribute for its check box
    )

Then use ``settings.sound`` where the app applies settings
(:func:`~elicit_tray.ui.settings_window.connect_settings`), add its line to the README's
settings table and its strings to the catalogues (``scripts/i18n.sh update``). A setting of a
new type (say ``float``) also needs a widget kind in ``ui/settings_window.py`` and an option kind
in ``cli.py``. ``tests/unit/test_settings_table.py`` and ``tests/ui/test_settings_rows.py``
derive from the table: every row has a default of its type, a ``serve`` option that parses to
that type and reaches ``serve``'s settings, a Settings window control with its label that
changes it, a round trip through the file and a line in the README.

"Start at login" is the XDG autostart entry itself (``install-desktop --autostart``; the tray
menu and the Settings window toggle it), not a row. A value given on the command line wins: the
window shows it and does not let it be changed. Values out of bounds are clamped; a value that
cannot be read is the default. No Qt at import (``QSettings`` is loaded by :func:`settings_store`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast, overload

from .translation_marks import QT_TRANSLATE_NOOP

if TYPE_CHECKING:  # history.py (sqlite3) is loaded only when used: every CLI call reads this table
    from .history import Privacy

__all__ = [
    "CONSENT_DELAY_BOUNDS",
    "ENV_CONFIG",
    "KEYS",
    "RETENTION_BOUNDS",
    "SETTINGS",
    "TIMEOUT_BOUNDS",
    "Preferences",
    "Setting",
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
#: Words the settings file may use for a boolean (``QSettings`` writes ``true``/``false``).
_TRUE_WORDS = ("true", "1", "yes", "on")
_FALSE_WORDS = ("false", "0", "no", "off")

T = TypeVar("T")


@dataclass(frozen=True)
class Setting(Generic[T]):
    """One row of the settings table: a class attribute of :class:`Settings`, whose name is the
    setting's name (``settings.timeout_s`` is the value, ``Settings.timeout_s`` the row).

    Attributes:
        key: its key in the settings file, ``"section/name"``.
        default: the value without a command line or file; its type (``int``, ``bool`` or
            ``str``) is the setting's type and picks the window's control and the option's kind.
        flag: the ``serve`` option, e.g. ``"--timeout"`` (a ``bool`` also has ``--no-...``).
        help: the option's ``--help`` text (English, not translated).
        label: the window's text for it (a check box's text, else the label before the control),
            with an ``&`` mnemonic; marked with ``QT_TRANSLATE_NOOP("Settings", ...)``.
        description: the control's accessible description (translated); ``{low}`` and ``{high}``
            are replaced by the bounds.
        control: the Settings window's attribute for the control (``window.timeout``).
        metavar: the option's value name in ``--help`` (not for a ``bool``).
        accessible: the control's accessible name when ``label`` is a separate label.
        bounds: ``(low, high)`` of an ``int``, inclusive; values outside are clamped.
        step: a spin box's step.
        suffix: a spin box's unit after the number, e.g. ``" s"`` (translated).
        special: what a spin box shows at its minimum (e.g. "Never"), or a combo box's entry
            for the empty value (translated).
        choices: a ``str`` setting's ``(value, shown name)`` entries (names shown as written).
        needs: the name of a ``bool`` setting that must be on for this one to be changed.
        tidy: makes a value valid (e.g. the language code plain); applied after the bounds.
        name: set from the attribute's name in :class:`Settings`.
    """

    key: str
    default: T
    flag: str
    help: str
    label: str
    description: str
    control: str
    metavar: str | None = None
    accessible: str = ""
    bounds: tuple[int, int] | None = None
    step: int = 1
    suffix: str = ""
    special: str = ""
    choices: tuple[tuple[str, str], ...] = ()
    needs: str = ""
    tidy: Callable[[T], T] | None = None
    name: str = field(default="", init=False)

    def __set_name__(self, owner: type[Any], name: str) -> None:
        object.__setattr__(self, "name", name)

    @overload
    def __get__(self, settings: None, owner: type[Any]) -> Setting[T]: ...
    @overload
    def __get__(self, settings: Settings, owner: type[Any]) -> T: ...
    def __get__(self, settings: Settings | None, owner: type[Any]) -> Setting[T] | T:
        """On the class the row itself, on a :class:`Settings` its value."""
        if settings is None:
            return self
        return cast(T, settings.values[self.name])

    @property
    def kind(self) -> type[T]:
        """The setting's type: ``int``, ``bool`` or ``str`` (the default's)."""
        return type(self.default)

    @property
    def option(self) -> str:
        """The option as the window names it: ``--timeout``, ``--history/--no-history``."""
        return f"{self.flag}/--no-{self.flag[2:]}" if self.kind is bool else self.flag

    def clean(self, value: T) -> T:
        """``value`` inside :attr:`bounds` and tidied. Raises ``ValueError``/``TypeError`` for
        a number that is not one."""
        if self.bounds is not None:
            value = cast(T, max(self.bounds[0], min(self.bounds[1], int(cast(Any, value)))))
        return self.tidy(value) if self.tidy is not None else value

    def read(self, store: Any) -> T:
        """The value in ``store`` (``store.value(key)``: text from the file, or a value set in
        this run), not yet cleaned; :attr:`default` when absent or unreadable."""
        raw = store.value(self.key)
        if raw is None:
            return self.default
        if self.kind is bool:
            if isinstance(raw, bool):
                return cast(T, raw)
            text = str(raw).strip().lower()
            return cast(T, True if text in _TRUE_WORDS else False if text in _FALSE_WORDS else self.default)
        if self.kind is int:
            try:
                return cast(T, int(str(raw).strip()))
            except ValueError:
                return self.default
        return cast(T, str(raw))

    def write(self, store: Any, value: T) -> None:
        """Put ``value`` in ``store`` (``store.setValue(key, value)``; saved by ``sync()``)."""
        store.setValue(self.key, value)


def _language_code(code: str) -> str:
    """A plain language code (``"de"``), or ``""`` (the system's) for anything else."""
    code = code.strip().lower()
    return code if code.isalpha() and len(code) <= 8 else ""


class Settings:
    """Every setting's value, immutable; ``Settings(timeout_s=45)`` has the defaults elsewhere.

    The class body is the settings table (a flat table, one :class:`Setting` per attribute, in
    the order of the window and of ``serve --help``). Units are in the names. Raises
    ``TypeError`` for a name that is not a setting.
    """

    __slots__ = ("_values",)
    _values: Mapping[str, Any]

    timeout_s = Setting(
        key="dialogs/timeout",
        default=0,
        flag="--timeout",
        metavar="SECONDS",
        help="answer cancel when a dialog is left untouched this long; a visible countdown "
        "stops at the first key or click (default: the settings file, else 0, no timeout)",
        bounds=TIMEOUT_BOUNDS,
        label=QT_TRANSLATE_NOOP("Settings", "&Timeout:"),
        accessible=QT_TRANSLATE_NOOP("Settings", "Timeout"),
        description=QT_TRANSLATE_NOOP(
            "Settings", "An untouched dialog answers cancel after this many seconds; a countdown shows it. 0: never."
        ),
        suffix=QT_TRANSLATE_NOOP("Settings", " s"),
        special=QT_TRANSLATE_NOOP("Settings", "Never"),
        control="timeout",
    )
    consent_delay_ms = Setting(
        key="dialogs/consent",
        default=700,
        flag="--consent-delay-ms",
        metavar="MS",
        help="how long every button stays disarmed after a dialog appears or regains focus "
        "(300-5000; default: the settings file, else 700)",
        bounds=CONSENT_DELAY_BOUNDS,
        label=QT_TRANSLATE_NOOP("Settings", "&Consent delay:"),
        accessible=QT_TRANSLATE_NOOP("Settings", "Consent delay"),
        description=QT_TRANSLATE_NOOP(
            "Settings",
            "Buttons stay disarmed this long after a dialog appears or regains focus, so a key "
            "meant for another window cannot answer it. From {low} to {high} ms.",
        ),
        step=100,
        suffix=QT_TRANSLATE_NOOP("Settings", " ms"),
        control="consent",
    )
    history = Setting(
        key="history/enabled",
        default=True,
        flag="--history",
        help="keep the decision history (default: the settings file, else on; "
        "$ELICIT_TRAY_HISTORY=PATH|off moves it or turns it off)",
        label=QT_TRANSLATE_NOOP("Settings", "Keep a &history of decisions"),
        description=QT_TRANSLATE_NOOP(
            "Settings", "Records every request and its answer in a private database on this computer."
        ),
        control="history",
    )
    history_values = Setting(
        key="history/values",
        default=True,
        flag="--history-values",
        help="keep the choices made in forms in the history: yes/no, options, numbers, dates; "
        "never a secret-looking field's (default: on)",
        label=QT_TRANSLATE_NOOP("Settings", "Keep the &values chosen in forms (yes/no, options, numbers, dates)"),
        description=QT_TRANSLATE_NOOP(
            "Settings",
            "Without it the history keeps each field's title but not what was chosen. "
            "Never the value of a field that looks like it asks for a secret.",
        ),
        needs="history",
        control="values",
    )
    history_text = Setting(
        key="history/text",
        default=False,
        flag="--history-text",
        help="also keep text typed in forms in the history; never a secret-looking field's (default: off)",
        label=QT_TRANSLATE_NOOP("Settings", "Keep &free text typed in forms (never secret-looking fields)"),
        description=QT_TRANSLATE_NOOP(
            "Settings",
            "Typed text can hold anything: names, addresses, a pasted token. Without it the history "
            "keeps only the choices made.",
        ),
        needs="history",
        control="free_text",
    )
    history_query = Setting(
        key="history/query",
        default=False,
        flag="--history-query",
        help="keep URL query strings and fragments in the history (default: off)",
        label=QT_TRANSLATE_NOOP("Settings", "Keep the &query strings of addresses"),
        description=QT_TRANSLATE_NOOP(
            "Settings",
            "Query strings and fragments often hold tokens; without it only scheme, host and path are kept.",
        ),
        needs="history",
        control="query",
    )
    retention_days = Setting(
        key="history/retention",
        default=90,  # history.DEFAULT_RETENTION_DAYS, the Recorder's own default (a test compares)
        flag="--retention-days",
        metavar="DAYS",
        help="delete decisions older than this, at start and daily (0: keep; default: 90)",
        bounds=RETENTION_BOUNDS,
        label=QT_TRANSLATE_NOOP("Settings", "&Keep decisions for:"),
        accessible=QT_TRANSLATE_NOOP("Settings", "Retention"),
        description=QT_TRANSLATE_NOOP(
            "Settings", "Older decisions are deleted at start and once a day. 0: kept forever."
        ),
        suffix=QT_TRANSLATE_NOOP("Settings", " days"),
        special=QT_TRANSLATE_NOOP("Settings", "Forever"),
        needs="history",
        control="retention",
    )
    language = Setting(
        key="ui/language",
        default="",
        flag="--lang",
        metavar="CODE",
        help="language of the dialogs and windows, e.g. de, ar, en (default: the settings file, else the system's)",
        label=QT_TRANSLATE_NOOP("Settings", "&Language:"),
        accessible=QT_TRANSLATE_NOOP("Settings", "Language"),
        description=QT_TRANSLATE_NOOP("Settings", "The language of new dialogs and windows."),
        special=QT_TRANSLATE_NOOP("Settings", "System language"),
        choices=(("en", "English"), ("de", "Deutsch"), ("ar", "العربية")),  # each in its own language
        tidy=_language_code,
        control="language",
    )

    def __init__(self, **values: Any) -> None:
        unknown = set(values) - set(KEYS)
        if unknown:
            raise TypeError(f"unknown settings: {sorted(unknown)}")
        self._values = MappingProxyType({row.name: values.get(row.name, row.default) for row in SETTINGS})

    @property
    def values(self) -> Mapping[str, Any]:
        """Setting name -> value, in table order (read-only)."""
        return self._values

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Settings) and dict(self.values) == dict(other.values)

    def __hash__(self) -> int:
        return hash(tuple(self.values.items()))

    def __repr__(self) -> str:
        return "Settings(" + ", ".join(f"{name}={value!r}" for name, value in self.values.items()) + ")"

    def replace(self, **values: Any) -> Settings:
        """These settings with ``values`` (setting name -> value) changed."""
        return Settings(**{**self.values, **values})

    def privacy(self) -> Privacy:
        """The history switches of these settings."""
        from .history import Privacy

        return Privacy(
            enabled=self.history,
            values=self.history_values,
            text=self.history_text,
            query=self.history_query,
            retention_days=self.retention_days,
        )

    def clamped(self) -> Settings:
        """These settings with every value made valid by its row (:meth:`Setting.clean`)."""
        return Settings(**{row.name: row.clean(self.values[row.name]) for row in SETTINGS})


#: The settings table in order: the rows of :class:`Settings`.
SETTINGS: tuple[Setting[Any], ...] = tuple(row for row in vars(Settings).values() if isinstance(row, Setting))
#: Setting name -> key in the settings file.
KEYS: dict[str, str] = {row.name: row.key for row in SETTINGS}


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


class Preferences:
    """The settings in force: the file's values under the command line's (``overrides``), and
    whoever applies them (:meth:`subscribe`).

    Args:
        store: a ``QSettings`` (or anything with ``value(key)``, ``setValue(key, v)``, ``sync()``),
            or ``None`` (nothing is read or saved).
        overrides: setting name -> value given on the command line; these win and are
            :meth:`locked`. ``None`` values are left to the file.

    Raises:
        ValueError: an override's name is not a setting.
    """

    def __init__(self, store: Any = None, overrides: Mapping[str, Any] | None = None):
        self.store = store
        self.overrides = {k: v for k, v in (overrides or {}).items() if v is not None}
        unknown = set(self.overrides) - set(KEYS)
        if unknown:
            raise ValueError(f"unknown settings: {sorted(unknown)}")
        stored = {row.name: row.read(store) if store is not None else row.default for row in SETTINGS}
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
        """Set settings (by name), save the ones not locked to the file and apply the result at
        once. A locked one keeps the command line's value. Returns the settings in force."""
        free = {k: v for k, v in values.items() if not self.locked(k)}
        if not free:
            return self.current
        self.current = self.current.replace(**free).clamped()
        if self.store is not None:
            for row in SETTINGS:
                if row.name in free:
                    row.write(self.store, getattr(self.current, row.name))
            self.store.sync()
        for listener in list(self._listeners):
            listener(self.current)
        return self.current
