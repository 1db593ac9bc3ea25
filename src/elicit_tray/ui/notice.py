"""Telling screen readers something at the moment it happens (WCAG 2.2 4.1.3 status messages,
3.3.1 error identification, 2.2.1 timing): a dialog's :class:`SpokenNotice`.

What Orca 43 (Debian 12's screen reader) speaks without the user moving: a newly focused control
(its name, role and description), and an object of the *notification* role that becomes
showing (``object:state-changed:showing``: "notification <name>", after the window's name). It
drops the accessibility announcement Qt sends (``object:announcement``: its default script has
no handler), the description or name change of a control that has the focus in a Qt window, and
every name change of a label. So a notice is a widget whose accessibility role is
``Notification`` (an interface of that role for this class, through Qt's accessibility factory),
shown again for each message with the message as its accessible name; it also sends the
announcement, which newer screen readers and other platforms speak.

The notice is a zero-size child of the dialog outside its layouts: it shows nothing and takes
no room. Every message it carries is on screen elsewhere at the same time (an inline error, the
countdown, the status line), so sighted users and screen-reader users are told the same thing.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QAccessibleInterface
from PySide6.QtWidgets import QAccessibleWidget, QWidget

from .labels import announce

__all__ = ["SpokenNotice"]


class SpokenNotice(QWidget):
    """A dialog's channel to screen readers: :meth:`say` makes them speak a message now.

    Args:
        dialog: the window it belongs to (its Qt parent); it lives and dies with it.

    Attributes:
        said: every message said, in order (for tests and the scripted user).
    """

    def __init__(self, dialog: QWidget):
        _install_factory()
        super().__init__(dialog)
        self.setObjectName("spoken-notice")
        self.setFixedSize(0, 0)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.hide()
        self.said: list[str] = []

    def say(self, text: str) -> None:
        """Have screen readers speak ``text`` (plain text, already translated): the notice
        hides, takes ``text`` as its name and shows again (Orca 43 speaks it), and an assertive
        announcement goes out (newer screen readers). Nothing when ``text`` is empty."""
        if not text:
            return
        self.said.append(text)
        self.hide()
        self.setAccessibleName(text)
        self.show()
        announce(self, text)


def _notification_role(classname: str, widget: object) -> QAccessibleInterface | None:
    """Qt's accessibility factory: a :class:`SpokenNotice` has the ``Notification`` role (Qt
    maps it to AT-SPI's notification role); every other class keeps Qt's own interface."""
    if classname == SpokenNotice.__name__ and isinstance(widget, SpokenNotice):
        return QAccessibleWidget(widget, QAccessible.Role.Notification)
    return None


_installed = False


def _install_factory() -> None:
    """Install :func:`_notification_role` once per process (before the first notice exists)."""
    global _installed
    if not _installed:
        QAccessible.installFactory(_notification_role)
        _installed = True
