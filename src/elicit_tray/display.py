"""Server text as the dialogs show it (pure Python, no Qt).

DESIGN.md "UI rules": server text is plain text, shown as sent, never markup or a link. One
more rule keeps it honest: characters that can make text *look* different from what it is are
made visible as ``\\uXXXX`` instead of acting. These are the bidirectional embedding, override
and isolate controls (``\\u202e`` can show ``gnp.exe`` as ``exe.png``), the C0/C1 control
characters, and, in one-line text such as a server name, line and paragraph breaks and invisible
format characters (a name must not forge a second line such as "Verified by elicit-tray").
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .elicitation import ElicitationRequest

__all__ = ["display_text", "display_line", "for_display"]

_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_JOINERS = frozenset("\u200c\u200d")  # needed by Persian, Indic scripts and emoji sequences


def _escape(ch: str) -> str:
    cp = ord(ch)
    return f"\\u{cp:04x}" if cp <= 0xFFFF else f"\\U{cp:08x}"


def display_text(text: str) -> str:
    """Multi-line server text (message, description): newlines and tabs kept; bidi controls
    and other control characters shown as ``\\uXXXX``. Raises nothing for any ``str``."""
    return "".join(_escape(c) if (c in _BIDI_CONTROLS or (unicodedata.category(c) == "Cc" and c not in "\n\t"))
                   else c for c in text)


def display_line(text: str) -> str:
    """One-line server text (server name, version, title, option): like :func:`display_text`,
    and line breaks, tabs and invisible format characters (other than the joiners ZWJ/ZWNJ)
    are shown as ``\\uXXXX`` too, so the text stays one honest line."""
    out = []
    for ch in text:
        category = unicodedata.category(ch)
        if ch in _BIDI_CONTROLS or category in ("Cc", "Zl", "Zp") or (category == "Cf" and ch not in _JOINERS):
            out.append(_escape(ch))
        else:
            out.append(ch)
    return "".join(out)


def for_display(request: "ElicitationRequest") -> "ElicitationRequest":
    """A copy of ``request`` whose shown strings are made honest: the message and descriptions
    through :func:`display_text`; titles, option titles, the self-reported requester strings and
    the peer's strings read from ``/proc`` (name, executable, arguments) through :func:`display_line`. A blank title falls back to the
    property name. Values (what goes back in ``content``) are never touched."""
    from dataclasses import replace

    def line(text: str | None) -> str | None:
        return None if text is None else display_line(text)

    form = request.form
    if form is not None:
        fields = []
        for field in form.fields:
            title = field.title if field.title.strip() else (field.name.strip() or "(no name)")
            fields.append(replace(
                field, title=display_line(title),
                description=None if field.description is None else display_text(field.description),
                options=tuple(replace(o, title=display_line(o.title)) for o in field.options)))
        form = replace(form, fields=tuple(fields))
    requester = replace(request.requester, server_name=line(request.requester.server_name),
                        server_title=line(request.requester.server_title),
                        server_version=line(request.requester.server_version),
                        client_name=line(request.requester.client_name))
    peer = request.peer
    peer = replace(peer, process_name=line(peer.process_name), executable=line(peer.executable),
                   argv=None if peer.argv is None else tuple(display_line(a) for a in peer.argv))
    return replace(request, message=display_text(request.message or ""), form=form, requester=requester, peer=peer)
