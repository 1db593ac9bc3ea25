"""Render the dialog the tray would show for an elicitation to a PNG, offscreen (``--png``).

The dialog is the tray's own (:meth:`elicit_tray.ui.presenter.Presenter.build`: same widgets,
same identity header), for a placeholder requester unless the params carry
``_meta["elicit-tray/requester"]``. Imports PySide6; everything else in
:mod:`elicit_tray.checker` does not.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

    from ..request import ElicitationRequest, Outcome

__all__ = ["render_png", "THEMES", "PLACEHOLDER_REQUESTER", "PLACEHOLDER_PEER"]

#: ``theme`` values: the system's light palette, a dark one and a high-contrast one (the
#: palettes the accessibility screenshots use, tests/ui/layout_probe.py).
THEMES = ("light", "dark", "high-contrast")
#: Shown as the self-reported server when the params name none.
PLACEHOLDER_REQUESTER = {"serverName": "your-mcp-server"}


class PeerFields(TypedDict):
    """Keyword arguments of :class:`~elicit_tray.request.Peer` (:data:`PLACEHOLDER_PEER`)."""

    pid: int
    process_name: str
    executable: str
    argv: tuple[str, ...]


#: Shown as the requesting process (pid and executable as the OS would report them).
PLACEHOLDER_PEER: PeerFields = {
    "pid": 4242,
    "process_name": "mcp-client",
    "executable": "/usr/bin/mcp-client",
    "argv": ("mcp-client",),
}

_PALETTES: dict[str, tuple[tuple[str, str], ...]] = {
    "dark": (
        ("Window", "#202124"),
        ("WindowText", "#e8eaed"),
        ("Base", "#17181a"),
        ("AlternateBase", "#2a2b2e"),
        ("Text", "#e8eaed"),
        ("Button", "#303134"),
        ("ButtonText", "#e8eaed"),
        ("PlaceholderText", "#9aa0a6"),
    ),
    "high-contrast": (
        ("Window", "#000000"),
        ("WindowText", "#ffffff"),
        ("Base", "#000000"),
        ("AlternateBase", "#000000"),
        ("Text", "#ffffff"),
        ("Button", "#000000"),
        ("ButtonText", "#ffff00"),
        ("PlaceholderText", "#ffffff"),
        ("Highlight", "#ffff00"),
        ("HighlightedText", "#000000"),
    ),
}


def render_png(
    params: Mapping[str, Any],
    out: str | Path,
    *,
    theme: str = "light",
    scale: float = 1.0,
    lang: str | None = None,
    width: int | None = None,
    after_submit: bool = False,
) -> Path:
    """Build the tray's dialog for ``params`` offscreen and save it as the PNG ``out``.

    Args:
        params: ``elicitation/create`` params the tray accepts (see :func:`elicit_tray.checker.check`).
        out: the PNG file to write (its folder is created).
        theme: one of :data:`THEMES`.
        scale: device pixel ratio of the image (2: a 200% display); layout is in logical pixels.
        lang: a language code with a shipped catalogue (``de``...), ``None`` for English.
        width: the dialog's width in logical pixels (default: the width the tray opens it at).
        after_submit: press Accept on the untouched form first, showing the inline errors a
            user would see (form mode only).

    Returns:
        The path written.

    Raises:
        ValueError: the tray refuses ``params`` (message: the violations), or an unknown
            ``theme``/``lang`` or a non-positive ``scale``/``width``.
        RuntimeError: the image could not be written.

    Uses the running ``QApplication`` if there is one, else starts one on the ``offscreen``
    platform (nothing appears on screen); the application palette is restored afterwards and
    English is installed again.
    """
    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}; expected one of {', '.join(THEMES)}")
    if not scale > 0 or (width is not None and width <= 0):
        raise ValueError("scale and width must be positive")
    request = _vetted(params)
    app = _application()
    from PySide6.QtCore import QLocale

    from ..ui.i18n import available_languages, install_translations

    if lang is not None and lang != "en" and lang not in available_languages():
        raise ValueError(f"no translation for {lang!r}; available: en, {', '.join(available_languages())}")
    old_palette = app.palette()
    _set_palette(app, theme)
    install_translations(QLocale(lang or "en_US"))
    try:
        return _shoot(app, request, Path(out), scale=scale, width=width, after_submit=after_submit)
    finally:
        app.setPalette(old_palette)
        install_translations(QLocale("en_US"))


def _vetted(params: Mapping[str, Any]) -> ElicitationRequest:
    """The request the tray builds from ``params`` for the placeholder requester and peer.

    Raises:
        ValueError: the tray refuses ``params`` (message: its -32602 message).
    """
    params = dict(params)
    meta = dict(params.get("_meta") or {}) if isinstance(params.get("_meta"), dict) else {}
    meta.setdefault("elicit-tray/requester", dict(PLACEHOLDER_REQUESTER))
    params["_meta"] = meta

    from ..ipc.protocol import vet_create
    from ..request import Peer

    peer = Peer(uid=os.getuid() if hasattr(os, "getuid") else None, **PLACEHOLDER_PEER)
    request, error = vet_create(params, peer)
    if request is None:
        assert error is not None
        raise ValueError(error["message"])
    return request


def _application() -> QApplication:
    """The running ``QApplication``, or a new one on the ``offscreen`` platform (never a window
    on the author's screen), whose only note about every window is kept quiet."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        from PySide6.QtCore import qInstallMessageHandler

        previous = qInstallMessageHandler(None)

        def quiet(kind: Any, context: Any, message: str) -> None:
            if "propagateSizeHints" not in message:  # the offscreen platform's note on every window
                (previous or _to_stderr)(kind, context, message)

        qInstallMessageHandler(quiet)
        app = QApplication([])
    assert isinstance(app, QApplication)
    return app


def _set_palette(app: QApplication, theme: str) -> None:
    """Give ``app`` the palette of ``theme`` (the light one is the system's: left as it is)."""
    if theme not in _PALETTES:
        return
    from PySide6.QtGui import QColor, QPalette

    palette = QPalette()
    for role, color in _PALETTES[theme]:
        palette.setColor(getattr(QPalette.ColorRole, role), QColor(color))
    app.setPalette(palette)


def _shoot(
    app: QApplication, request: ElicitationRequest, path: Path, *, scale: float, width: int | None, after_submit: bool
) -> Path:
    """Build the tray's dialog for ``request``, save it to the PNG ``path`` and delete it."""
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtGui import QPixmap

    from ..ui.presenter import Presenter

    dialog = None
    try:
        dialog = Presenter(opener=lambda href: False, arm_delay_ms=0).build(request)
        dialog.show()
        app.processEvents()
        if width is not None:
            dialog.resize(width, dialog.height())
            app.processEvents()
        if after_submit and hasattr(dialog, "attempt_submit"):
            # Press Accept as a user would; a valid form would now be answered and its buttons
            # disabled, so nothing is sent here: the image shows the form as it was pressed.
            def keep_open(outcome: Outcome, *, close: bool = True) -> None:
                """Answer nothing and stay open."""

            # mypy refuses any assignment to a method (method-assign); here this one dialog's
            # finish is replaced on purpose, and its class stays as it is.
            dialog.finish = keep_open  # type: ignore[method-assign]
            dialog.attempt_submit()
            app.processEvents()
        pixmap = QPixmap(dialog.size() * scale)
        pixmap.setDevicePixelRatio(scale)
        dialog.render(pixmap)
        path.parent.mkdir(parents=True, exist_ok=True)
        if not pixmap.save(str(path), "PNG"):
            raise RuntimeError(f"cannot write {path}")
        return path
    finally:
        if dialog is not None:
            dialog.hide()
            dialog.deleteLater()
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def _to_stderr(_kind: Any, _context: Any, message: str) -> None:
    import sys

    print(message, file=sys.stderr)
