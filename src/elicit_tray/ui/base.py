"""What every elicitation dialog shares: who asks, the message, the button row, arming,
expiry, and the mapping of Decline / Escape / window close to outcomes.

docs/design.md "UI rules" and "Product policies" (Actions). Server text is always plain text.
"""

from __future__ import annotations

import logging
import shlex
from collections.abc import Mapping

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QFont, QGuiApplication, QKeyEvent, QKeySequence, QPalette, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ..display import display_line, isolate
from ..request import Cancelled, Declined, ElicitationRequest, Outcome, outcome_kind
from .application import application
from .arming import ARM_DELAY_MS, ENGAGE_KEY_TEXT, Arming
from .countdown import Countdown
from .focus import desktop
from .i18n import translate

# Re-exported: dialogs, the presenter and tests import these names from here.
from .labels import (
    FSI,
    LRI,
    PDI,
    ElidedLabel,
    announce,
    claim,
    one_line,
    plain_label,
    summary,
    warning_label,
    window_title,
)
from .notice import SpokenNotice
from .sizing import PREFERRED_WIDTH, Sizing, box_content, capped_box
from .style import FOCUS_MARGIN, error_css, warning_css
from .widgets import mnemonic_letter

__all__ = [
    "ElicitationDialog",
    "ARM_DELAY_MS",
    "EXPIRED_CLOSE_MS",
    "FSI",
    "LRI",
    "PDI",
    "PREFERRED_WIDTH",
    "ElidedLabel",
    "announce",
    "one_line",
    "plain_label",
    "spoken_summary",
    "summary",
    "warning_label",
]

log = logging.getLogger(__name__)

#: How long an expired dialog stays to say so before it closes by itself (ms).
EXPIRED_CLOSE_MS = 10_000
#: Longest message (characters) the dialog's accessible description repeats.
SPOKEN_MESSAGE = 150


def engage_hint_text() -> str:
    """What makes a dialog take keys, in the user's language (:mod:`~.arming`)."""
    return translate(
        "Dialog", "Keys typed here are ignored until you click in this window or press {key} in it."
    ).format(key=ENGAGE_KEY_TEXT)


def spoken_summary(request: ElicitationRequest) -> str:
    """The dialog's accessible description: who asks (the server's name as a claim, the local
    program as the OS reports it) and the message's first line, cut to :data:`SPOKEN_MESSAGE`
    characters; without the bidi isolates the labels show (screen readers get plain text).

    The labels of who asks stay free texts, read when the dialog opens: Orca 43 reads a dialog's
    description only when it has no such text, and then leaves out the first field's own
    description, so the first field's help would go unheard."""
    server_label = request.requester.isolated_label
    server = claim(server_label) if server_label else translate("Dialog", "An unnamed MCP server")
    executable = request.peer.executable
    program = display_line(executable) if executable else translate("Dialog", "(unknown: the system did not tell)")
    message = next((one_line(line) for line in (request.message or "").splitlines() if line.strip()), "")
    if len(message) > SPOKEN_MESSAGE:
        message = message[: SPOKEN_MESSAGE - 1] + "…"
    if message:
        text = translate("Dialog", "{server} asks through the local program {program}: {message}")
    else:
        text = translate("Dialog", "{server} asks through the local program {program}.")
    return text.format(server=server, program=program, message=message).translate(_NO_ISOLATES)


_NO_ISOLATES = {ord(FSI): None, ord(LRI): None, ord(PDI): None}


class ElicitationDialog(QDialog):
    """Base of the form and URL dialogs.

    Signals:
        answered(object): emitted once with the :class:`~elicit_tray.elicitation.Outcome`.
        ended(): emitted once when the request stops waiting (answered or expired).
        armed(): emitted each time the dialog arms (:mod:`~elicit_tray.ui.arming`: every button
            and field is disarmed until :data:`ARM_DELAY_MS` after the dialog became active).

    Subclasses add their body to ``self.body`` and their commit button through
    :meth:`add_commit_button`.

    Collaborators: :attr:`arming` (:class:`~.arming.Arming`), :attr:`sizing`
    (:class:`~.sizing.Sizing`), :attr:`countdown` (:class:`~.countdown.Countdown`, only with a
    user-set timeout); labels come from :mod:`~.labels`. :attr:`error_labels` maps the id of
    each inline error label (``field-<name>-error``, :func:`~.form_row.field_id`) to the label.
    """

    answered = Signal(object)
    armed = Signal()
    ended = Signal()
    #: The content's scroll box. The name hides QWidget.scroll(dx, dy), which mypy reports;
    #: nothing calls that method on a dialog, and tests/ and the sizing read the box by this name.
    scroll: QScrollArea  # type: ignore[assignment]

    #: The request shown (set once, by :meth:`_show_request`; a frame has none yet).
    request: ElicitationRequest

    def __init__(self, request: ElicitationRequest | None, *, arm_delay_ms: int = ARM_DELAY_MS):
        """The dialog for ``request``; with ``None``, only its frame (everything that does not
        depend on a request), which a subclass then gives its one request (``take``)."""
        super().__init__(None)
        self.outcome: Outcome | None = None
        self.expired = False
        self.arming = Arming(self, arm_delay_ms)
        self.arming.changed.connect(self._arming_changed)
        self.arming.engagement_changed.connect(self._engagement_changed)
        self.arming.refused.connect(self._key_refused)
        self.arming.inert_focus.connect(self._inert_focus)
        self._told_inert = False  # the "keys are ignored" announcement, once per focus
        self._enter_down = False  # Enter pressed while armed, not yet released
        self._fitted = False
        #: Built before the language or layout direction changed (a frame's button texts,
        #: tooltips and Alt+D shortcut were chosen then): the presenter does not use it.
        self.outdated = False
        self.setWindowFlag(Qt.WindowType.WindowContextHelpButtonHint, False)
        # Above other windows until answered, so that it cannot hide behind the terminal.
        self.setWindowFlag(Qt.WindowType.WindowStaysOnTopHint, True)
        self.setObjectName("elicitation-dialog")
        self.setMinimumWidth(320)
        #: What screen readers are told at the moment it happens (:mod:`~.notice`).
        self.notice = SpokenNotice(self)

        # Who asks stays in view on top and the buttons at the bottom; everything between
        # scrolls, so nothing is cut off on a small or scaled screen, and a long message scrolls
        # in a box of its own so that it cannot push the identity or the fields out of view.
        self.window_layout = QVBoxLayout(self)  # top to bottom: header, content, buttons row
        self.window_layout.setSpacing(8)
        self._build_content(self.window_layout)
        self._build_buttons()
        self.commit_button: QPushButton | None = None
        self.sizing = Sizing(
            self, header=self.header_scroll, message=self.message_scroll, scroll=self.scroll, buttons=self.buttons
        )
        #: id (``field-<name>-error``) -> inline error label; filled by the dialogs that have
        #: fields (the form dialog makes each label when first needed: :meth:`made_error_labels`).
        self.error_labels: Mapping[str, QLabel] = {}
        #: The user-set timeout, once :meth:`start_timeout` ran.
        self.countdown: Countdown | None = None
        if request is not None:
            ElicitationDialog._show_request(self, request)

    def _build_content(self, window: QVBoxLayout) -> None:
        """The header (who asks, above a line), then the scrolling content: the message in a
        box of its own, :attr:`body` for the subclass, and the status line."""
        self.header = QWidget()
        header = QVBoxLayout(self.header)
        header.setContentsMargins(0, 0, 0, 0)
        self._header_layout = header  # who asks goes on top of the line (_show_request)
        line = QFrame()
        line.setFrameShape(QFrame.Shape.HLine)
        line.setFrameShadow(QFrame.Shadow.Sunken)
        header.addWidget(line)
        self.header_scroll = capped_box(self.header, "header-scroll")
        window.addWidget(self.header_scroll)
        content = QWidget()
        content.setObjectName("content")
        outer = QVBoxLayout(content)
        # room for the focus ring around a control at the edge (the viewport would clip it)
        outer.setContentsMargins(FOCUS_MARGIN, FOCUS_MARGIN, FOCUS_MARGIN, FOCUS_MARGIN)
        outer.setSpacing(10)
        self.scroll = capped_box(content, "scroll")
        window.addWidget(self.scroll, 1)
        application().focusChanged.connect(self._focus_changed)
        self.message_label = plain_label("", bold=True)
        self.message_label.setObjectName("message")
        self.message_label.setAccessibleDescription(translate("Dialog", "Message from the server"))
        self.message_scroll = capped_box(self.message_label, "message-scroll")
        outer.addWidget(self.message_scroll)
        self.body = QVBoxLayout()
        self.body.setSpacing(8)
        outer.addLayout(self.body)
        self.status_label = plain_label("")
        self.status_label.setObjectName("status")
        self.status_label.hide()
        outer.addWidget(self.status_label)
        outer.addStretch(1)

    def _build_buttons(self) -> None:
        """The button row: Decline (Alt+D in every language), Cancel and, once expired, Close;
        :meth:`add_commit_button` adds the commit button."""
        self.buttons = QHBoxLayout()
        self.decline_button = QPushButton(translate("Dialog", "&Decline"))
        self.decline_button.setObjectName("decline")
        self.decline_button.setToolTip(translate("Dialog", "Say no to this request (Alt+D)"))
        self.decline_button.clicked.connect(lambda: self.finish(Declined()))
        self.cancel_button = QPushButton(translate("Dialog", "Cancel"))
        self.cancel_button.setObjectName("cancel")
        self.cancel_button.setToolTip(translate("Dialog", "Dismiss without answering (Esc)"))
        self.cancel_button.clicked.connect(lambda: self.finish(Cancelled("button")))
        self.close_button = QPushButton(translate("Dialog", "&Close"))
        self.close_button.setObjectName("close")
        self.close_button.clicked.connect(self.close)
        self.close_button.hide()
        if mnemonic_letter(self.decline_button.text()) != "d":
            # Alt+D declines in every language, whatever letter the translated label underlines
            # (only then: two owners of one shortcut would make Qt ignore it).
            decline_key = QShortcut(QKeySequence("Alt+D"), self)
            decline_key.activated.connect(self.decline_button.click)
        self.buttons.addWidget(self.decline_button)
        self.buttons.addStretch(1)
        self.buttons.addWidget(self.cancel_button)
        self.buttons.addWidget(self.close_button)
        self.window_layout.addLayout(self.buttons)
        for button in (self.decline_button, self.cancel_button, self.close_button):
            button.setAutoDefault(False)

    def _show_request(self, request: ElicitationRequest) -> None:
        """Fill the frame with ``request``: the window title, who asks and the message. Once
        only: a dialog shows one request in its life, never another."""
        if hasattr(self, "request"):
            raise RuntimeError("this dialog already shows a request")
        self.request = request
        self.setWindowTitle(
            window_title(translate("Dialog", "{summary} — elicit-tray").format(summary=summary(request)))
        )
        self._header_layout.insertWidget(0, self._identity())
        self.message_label.setText(request.message or "")
        self.setAccessibleDescription(spoken_summary(request))

    # -- layout pieces ------------------------------------------------------------------------
    def _identity(self) -> QWidget:
        """Who asks: the self-reported server name (marked as such) and the local process."""
        box = QFrame()
        box.setObjectName("identity")
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        requester, peer = self.request.requester, self.request.peer
        # Each item is one elided line of its own (whitespace runs collapsed), in a framed panel
        # of its own colour: server text can neither wrap into a second header line nor, below
        # the panel, pass for part of it.
        box.setFrameShape(QFrame.Shape.StyledPanel)
        box.setAutoFillBackground(True)
        box.setBackgroundRole(QPalette.ColorRole.AlternateBase)
        layout.setContentsMargins(8, 6, 8, 6)
        # What the requester claims is quoted and says so ("says it is"); what the OS reports is
        # not: a claim cannot pass for the verified line below it, whatever words it uses.
        server_label = requester.isolated_label
        server = ElidedLabel(
            claim(server_label) if server_label else translate("Dialog", "An unnamed MCP server"),
            Qt.TextElideMode.ElideRight,
        )
        server.setObjectName("server-name")
        font = QFont(server.font())
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.25)
        server.setFont(font)
        server.setAccessibleDescription(translate("Dialog", "Requesting server"))
        note = (
            translate("Dialog", "That is what the server says it is; not verified.")
            if server_label
            else translate("Dialog", "The server did not say who it is.")
        )
        hint = plain_label(note, selectable=False)
        hint.setObjectName("server-note")
        lines: list[QWidget] = [server, hint]
        if requester.client_name:
            relay = ElidedLabel(
                translate("Dialog", "Relayed by a program that says it is {client}.").format(
                    client=claim(requester.client_name)
                ),
                Qt.TextElideMode.ElideMiddle,
            )
            relay.setObjectName("relay")
            lines.append(relay)
        # The executable's path stays whole; its arguments are elided in the middle, so that
        # the pid still ends the line.
        # The program is isolated left to right: a path must not be reordered by the sentence
        # around it (in Arabic "/usr/bin/x (pid 1)" read "usr/bin/x (pid 1)/"); each of its words
        # is a run of its own (Peer.isolated_label).
        process = ElidedLabel(
            translate("Dialog", "Asked by the local program {program}").format(
                program=LRI + (peer.isolated_label or translate("Dialog", "(unknown: the system did not tell)")) + PDI
            ),
            Qt.TextElideMode.ElideMiddle,
            keep=isolate(display_line(shlex.quote(peer.executable))) if peer.executable else "",
        )
        process.setObjectName("process")
        process.setAccessibleDescription(translate("Dialog", "Requesting program"))
        lines.append(process)
        for widget in lines:
            layout.addWidget(widget)
        return box

    def add_commit_button(self, text: str, name: str) -> QPushButton:
        """Add the Accept/Open button: disabled until armed and the dialog allows it."""
        button = QPushButton(text)
        button.setObjectName(name)
        button.setAutoDefault(False)
        button.setEnabled(False)
        button.clicked.connect(self.commit)
        self.buttons.addWidget(button)
        self.commit_button = button
        return button

    def tab_through(self, controls: list[QWidget]) -> None:
        """Tab order in reading order: ``controls`` (the body's, top to bottom), the buttons as
        the row shows them (Decline, Cancel, Close, then the commit button), then the header's
        and the message's boxes where they scroll (a keyboard stop only then). Those two are above
        the body, so Tab from the last button wraps to them and then to the first control, and
        Shift+Tab walks the same cycle backwards; the dialog opens on a control or a button."""
        chain = list(controls) + [self.decline_button, self.cancel_button, self.close_button]
        chain += [self.commit_button] if self.commit_button is not None else []
        chain += [
            box for box in (self.header_scroll, self.message_scroll) if box.focusPolicy() != Qt.FocusPolicy.NoFocus
        ]
        for first, second in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(first, second)

    # -- arming -------------------------------------------------------------------------------
    @property
    def is_armed(self) -> bool:
        """Whether buttons and fields take the user's input now (:class:`~.arming.Arming`)."""
        return self.arming.is_armed

    def prepare(self) -> None:
        """Polish, colour and size the dialog for its first show (once; its first show does it
        otherwise). The presenter calls it with the rest of the build, while the input gate is
        paused: polishing sends an event to every widget. Sized before ``show()``, the window is
        also spared Qt's own ``adjustSize()`` of it there, which :meth:`~.sizing.Sizing.fit`
        would override anyway."""
        if not hasattr(self, "request"):
            raise RuntimeError("a dialog frame without a request is never shown")
        if not self._fitted:
            self._fitted = True
            self.ensurePolished()
            self.apply_style()
            self.sizing.fit()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.setAttribute(Qt.WidgetAttribute.WA_KeyboardFocusChange, True)  # see _focus_changed
        self.prepare()

    def apply_style(self) -> None:
        """(Re)colour errors and warnings for the current palette and contrast preference."""
        palette = self.palette()
        for label in self.findChildren(QLabel, "warning"):
            label.setStyleSheet(warning_css(palette))
        for label in self.made_error_labels():
            if not label.isHidden():
                label.setStyleSheet(error_css(palette))  # hidden ones are styled when shown

    def made_error_labels(self) -> list[QLabel]:
        """The inline error labels that exist now (looking one up in :attr:`error_labels` may
        make it)."""
        made = getattr(self.error_labels, "made", None)
        return made() if made is not None else list(self.error_labels.values())

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # the system palette or colour scheme changed
            self.apply_style()
        elif event.type() in (QEvent.Type.LanguageChange, QEvent.Type.LayoutDirectionChange):
            self.outdated = True

    def _focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        """The focused control is always visibly marked (Qt draws the focus ring only after a
        Tab, and forgets it at every other focus change), and kept in view when it is in the
        scrolled part."""
        if new is None or not self.isAncestorOf(new):
            return
        self.setAttribute(Qt.WidgetAttribute.WA_KeyboardFocusChange, True)
        new.update()
        if box_content(self.scroll).isAncestorOf(new):
            self.scroll.ensureWidgetVisible(new, 8, 8)

    def grow_to_content(self) -> None:
        """Content grew (an error, a status line): grow the window so it shows, never shrink
        (:meth:`~.sizing.Sizing.grow`)."""
        self.sizing.grow()

    # -- the optional user-set timeout ------------------------------------------------------
    def start_timeout(self, seconds: int) -> None:
        """Answer ``cancel`` after ``seconds`` unless the user acts first: a visible countdown
        (:class:`~.countdown.Countdown`, its label beside Decline) that stops at the first key
        or click in the dialog (docs/design.md "Product policies": timeout -> cancel). Off unless the user
        set one (``serve --timeout``)."""
        self.countdown = Countdown(self, seconds)
        self.countdown_label = self.countdown.label
        self.buttons.insertWidget(1, self.countdown.label)
        self.countdown.expired.connect(lambda: self.finish(Cancelled("timeout")))
        self.countdown.warned.connect(self.notice.say)  # before the end, wherever the focus is
        self.countdown.start()

    def stop_timeout(self) -> None:
        """Stop the countdown for good (the user is answering); nothing without one."""
        if self.countdown is not None:
            self.countdown.stop()

    def _engagement_changed(self, engaged: bool) -> None:
        if engaged and self.status_label.text() == engage_hint_text():
            self.hide_status()
        if not engaged:
            self._told_inert = False

    def _key_refused(self) -> None:
        """A key reached the dialog before the user engaged with it: say once per focus, on
        screen (the status line, unless it says something else) and to screen readers, what
        makes it take keys."""
        if not self._told_inert and self.outcome is None and not self.expired:
            self._told_inert = True
            if self.status_label.isHidden():
                self.show_status(engage_hint_text(), reveal=False)
            announce(self, engage_hint_text())

    def _inert_focus(self) -> None:
        """The dialog got the focus without the user's act: where the platform can tell that the
        window manager chose it (X11: right after a window mapped or unmapped), the focus goes
        back to the user's last window (:mod:`~.focus`)."""
        server = desktop(QGuiApplication.platformName())
        if server is not None and server.follows_window_change():
            server.give_focus_back()

    def setVisible(self, visible: bool) -> None:  # noqa: N802 (Qt naming)
        """Hiding the dialog while it has the focus gives the focus back to the user's last
        window first (X11), so that the window manager does not hand it to the next dialog."""
        if not visible and self.isVisible() and self.isActiveWindow():
            server = desktop(QGuiApplication.platformName())
            if server is not None:
                server.give_focus_back()
        super().setVisible(visible)

    def _arming_changed(self, armed: bool) -> None:
        self._enter_down = False
        self.refresh()
        if armed and not self.expired and self.outcome is None:
            self.on_armed()
            self.armed.emit()

    def on_armed(self) -> None:
        """The dialog has just armed. Overridden."""

    def can_commit(self) -> bool:
        """Whether the commit button may be enabled now (besides arming). Overridden."""
        return True

    def refresh(self) -> None:
        """Recompute the commit button's state."""
        if self.commit_button is not None:
            self.commit_button.setEnabled(
                self.is_armed and not self.expired and self.outcome is None and self.can_commit()
            )

    # -- outcomes -----------------------------------------------------------------------------
    def commit(self) -> None:
        """Accept/Open pressed. Overridden."""
        raise NotImplementedError

    def finish(self, outcome: Outcome, *, close: bool = True) -> None:
        """Record the single outcome of this dialog, emit ``answered``, and close."""
        if self.outcome is not None or self.expired or not hasattr(self, "request"):  # a frame answers nothing
            return
        self.stop_timeout()
        self.outcome = outcome
        log.info("dialog %s answered: %s", self.request.key, outcome_kind(outcome))  # never the values
        self.answered.emit(outcome)
        self.ended.emit()
        if close:
            self.hide()
            self.deleteLater()

    def mark_expired(self) -> None:
        """The request is no longer waiting: disable everything, say so, send nothing."""
        if self.outcome is not None or self.expired:
            return
        self.stop_timeout()
        self.expired = True
        self.ended.emit()
        self.set_inputs_enabled(False)
        for button in (self.decline_button, self.cancel_button, self.commit_button):
            if button is not None:
                button.setEnabled(False)
                button.hide()
        gone = translate(
            "Dialog",
            "This request is no longer waiting: the program that asked has cancelled it "
            "or gone away. Nothing was sent. This window closes by itself.",
        )
        self.show_status(gone)
        # Screen readers read Close with the reason as its description when it takes the focus;
        # a dialog that is not the active window says it through its notice (:mod:`~.notice`).
        self.close_button.setAccessibleDescription(gone)
        self.close_button.show()
        if not self.isActiveWindow():
            self.notice.say(gone)
        self.close_button.setFocus()
        QTimer.singleShot(EXPIRED_CLOSE_MS, self, self.close)  # nothing to decide any more; don't pile up

    def show_status(self, text: str, *, reveal: bool = True) -> None:
        """Show a status line under the body (plain text); ``reveal`` scrolls it into view."""
        self.status_label.setText(text)
        self.status_label.show()
        self.grow_to_content()
        if reveal:
            self.scroll.ensureWidgetVisible(self.status_label)

    def hide_status(self) -> None:
        """Remove the status line."""
        self.status_label.hide()
        self.status_label.setText("")

    def set_inputs_enabled(self, enabled: bool) -> None:
        """Enable or disable the dialog's own inputs. Overridden."""

    # -- keys and window close ----------------------------------------------------------------
    def reject(self) -> None:
        """Escape: ``cancel`` (or just close when already answered/expired)."""
        if self.outcome is None and not self.expired:
            self.finish(Cancelled("escape"))
        else:
            self.hide()
            self.deleteLater()

    def closeEvent(self, event: QCloseEvent) -> None:
        """The window's close button: ``cancel``."""
        self.finish(Cancelled("close"), close=False)  # no-op when already answered or expired
        self.stop_timeout()
        self.deleteLater()
        super().closeEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            # Only keys pressed after arming get here (the input gate); Enter acts on its release.
            self._enter_down = self.is_armed
            event.accept()
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        """Enter acts when released, and only if it was pressed here after arming: on the focused
        button, else :meth:`submit_by_keyboard`."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not event.isAutoRepeat():
            event.accept()
            if self._enter_down and self.is_armed:
                self._enter_down = False
                focus = self.focusWidget()
                if isinstance(focus, QPushButton):
                    focus.click()
                else:
                    self.submit_by_keyboard()
            return
        super().keyReleaseEvent(event)

    def submit_by_keyboard(self) -> None:
        """Enter outside a button. Overridden (the form dialog submits; URL does nothing)."""
