"""``elicit-tray`` subcommands: ``serve`` (default), ``ask``, ``demo``, ``check-url``, ``check``,
``history``.

Exit codes: 0 success; 1 the tray app answered ``ask`` with a JSON-RPC error; 2 usage
error, including input of ``ask``, ``check`` and ``check-url`` that the tray's framing or limits
refuse (one line on stderr naming the tray's answer; input is read bounded); 3 another tray app
is already running or holds the lock ``<socket>.lock`` (``serve``);
4 the socket path cannot be used (``serve``: its directory is not the user's with mode 0700, it
names something other than a stale socket, it is too long for ``AF_UNIX`` or cannot be created;
one line on stderr, nothing removed or chmodded); 6 a socket passed by systemd is unusable; 5 the
tray app is unavailable (``ask``), including a socket that is not the user's own (its directory
is not the user's with mode 0700, the socket file is another user's, or the listening process
runs as another user: nothing is sent, so another user's process never sees the request).

The ``serve`` options of the settings are derived from the settings table
(:data:`~elicit_tray.settings.SETTINGS`, :func:`_setting_options`), and what they set reaches
``serve`` as its ``settings`` (:func:`setting_overrides`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import __version__

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    """The ``elicit-tray`` parser: global options, then one subparser per subcommand
    (:data:`_SUBCOMMANDS`, in the order ``--help`` lists them)."""
    parser = argparse.ArgumentParser(
        prog="elicit-tray", description=("Native dialogs that answer MCP elicitations for local MCP clients.")
    )
    parser.add_argument("--version", action="version", version=f"elicit-tray {__version__}")
    _global_options(parser, default=None)
    sub = parser.add_subparsers(dest="command")
    for add_subcommand in _SUBCOMMANDS:
        add_subcommand(sub)
    for subparser in sub.choices.values():  # global options are accepted after the subcommand too
        _global_options(subparser, default=argparse.SUPPRESS)
    return parser


#: How a setting's type becomes a ``serve`` option (a setting of a new type needs a row here).
_OPTION_KINDS: dict[type, dict[str, Any]] = {
    bool: {"action": argparse.BooleanOptionalAction},  # --history / --no-history
    int: {"type": int},
    str: {},
}


def _setting_options(serve: argparse.ArgumentParser) -> None:
    """One option per row of the settings table (:data:`~elicit_tray.settings.SETTINGS`), with
    the setting's name as its ``dest`` and ``None`` when not given (the settings file decides)."""
    from .settings import SETTINGS

    for row in SETTINGS:
        options: dict[str, Any] = {"dest": row.name, "default": None, "help": row.help, **_OPTION_KINDS[row.kind]}
        if row.kind is not bool:
            options["metavar"] = row.metavar
        serve.add_argument(row.flag, **options)


def setting_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """Setting name -> value given on the command line (``None``: not given), what ``serve``
    gets as ``settings``."""
    from .settings import SETTINGS

    return {row.name: getattr(args, row.name, None) for row in SETTINGS}


def _add_serve(sub: Any) -> None:
    serve = sub.add_parser("serve", help="run the tray app (the default)")
    serve.add_argument(
        "--scripted-user",
        metavar="PLAN",
        type=Path,
        help="answer every dialog with a scripted user following PLAN (JSON); for demos and tests",
    )
    serve.add_argument("--screenshots", metavar="DIR", type=Path, help="save a PNG of every dialog in DIR")
    serve.add_argument("--no-browser", action="store_true", help="Open only prints the address (headless demo)")
    serve.add_argument("--arm-delay-ms", type=int, default=None, help=argparse.SUPPRESS)
    serve.add_argument(
        "--log-values",
        action="store_true",
        help="the request log and the -v log also record field values, messages and full "
        "URLs (default: never; see $ELICIT_TRAY_LOG)",
    )
    # The settings: each also in the settings file and the Settings window; these win.
    _setting_options(serve)


def _add_history(sub: Any) -> None:
    history = sub.add_parser("history", help="print the decision history (newest first)")
    history.add_argument("--json", action="store_true", help="print a JSON array of rows (every column)")
    history.add_argument(
        "--since",
        metavar="DATE",
        help="only decisions received since DATE (YYYY-MM-DD, local midnight, or an ISO 8601 date-time)",
    )
    history.add_argument("--server", metavar="NAME", help="only decisions of this (self-reported) server")
    from .logs import OUTCOMES  # pure and small: the words the request log and history use

    history.add_argument(
        "--outcome",
        metavar="O",
        choices=[*OUTCOMES, "cancel", "pending", "interrupted"],
        help="only this outcome (accept, decline, cancel-escape, ..., interrupted; 'cancel' matches every cancel-*)",
    )


def _add_ask(sub: Any) -> None:
    ask = sub.add_parser("ask", help="send one elicitation/create request; print the ElicitResult JSON")
    ask.add_argument("file", nargs="?", default="-", help="params JSON file, or - for stdin (default)")
    ask.add_argument("--server-name", help="the MCP server's name to show (self-reported)")
    ask.add_argument("--no-start", action="store_true", help="do not start the tray app if it is not running")


def _add_demo(sub: Any) -> None:
    demo = sub.add_parser("demo", help="run the bundled MCP server and answer its elicitations")
    demo.add_argument(
        "--headless", action="store_true", help="offscreen, with a scripted user (the default when there is no display)"
    )
    demo.add_argument("--out", type=Path, default=Path("demo-output"), help="folder for the PNGs (headless)")
    demo.add_argument(
        "--mode",
        choices=["legacy", "2026-07-28", "both"],
        default="both",
        help="MCP protocol version(s) to run (default: both)",
    )


def _add_wrap(sub: Any) -> None:
    wrap = sub.add_parser(
        "wrap",
        help="run an MCP stdio server behind a proxy that answers its elicitations "
        "through the tray app, for hosts that cannot (elicit-tray wrap -- <server command...>)",
    )
    wrap.add_argument(
        "--policy",
        choices=["complement", "always", "off"],
        default="complement",
        help="complement: answer only the modes the host did not declare (default); always: answer "
        "every elicitation, even if the host declared it; off: a plain pipe",
    )
    wrap.add_argument(
        "--wire-log",
        metavar="PATH",
        type=Path,
        default=None,
        help="append every line sent to the host and to the server to PATH (debugging; default: $ELICIT_TRAY_WRAP_LOG)",
    )
    wrap.add_argument("server", nargs=argparse.REMAINDER, help="-- then the server command and its arguments")


def _add_check_url(sub: Any) -> None:
    check = sub.add_parser("check-url", help="print the URL analysis used by the consent dialog")
    check.add_argument("url")
    check.add_argument("--json", action="store_true", help="print {verdict, reasons, display_host, registrable_domain}")


def _add_check(sub: Any) -> None:
    lint = sub.add_parser(
        "check",
        help="say what the tray would do with an elicitation (for server authors): "
        "the -32602 errors it would answer, warnings, and a PNG of the dialog",
    )
    lint.add_argument(
        "file", help="params JSON of an elicitation/create (or a requestedSchema with --schema); - for stdin"
    )
    lint.add_argument("--schema", action="store_true", help="the file is a bare requestedSchema")
    lint.add_argument(
        "--json", action="store_true", help='print {"errors": [{path, message}], "warnings": [{id, path, message}]}'
    )
    lint.add_argument("--strict", action="store_true", help="exit 1 on warnings too")
    lint.add_argument("--png", metavar="OUT", type=Path, help="render the dialog offscreen to this PNG")
    lint.add_argument("--theme", choices=["light", "dark", "high-contrast"], default="light", help="(with --png)")
    lint.add_argument("--scale", type=float, default=1.0, help="device pixel ratio, e.g. 2 for 200%% (with --png)")
    lint.add_argument("--lang", help="language of the dialog, e.g. de (with --png; default English)")
    lint.add_argument("--width", metavar="PX", type=int, help="dialog width in logical pixels (with --png)")
    lint.add_argument(
        "--after-submit",
        action="store_true",
        help="render after pressing Accept on the untouched form, with its inline errors (with --png)",
    )


def _add_desktop(sub: Any) -> None:
    install = sub.add_parser(
        "install-desktop",
        help="install the desktop entry, icon, AppStream metainfo and "
        "systemd user units (socket activation) for the current user (Linux)",
    )
    install.add_argument(
        "--user",
        action="store_true",
        default=True,
        help="for the current user, in $XDG_DATA_HOME and $XDG_CONFIG_HOME (the default and "
        "only choice; distribution packages install packaging/linux/ system-wide)",
    )
    install.add_argument("--autostart", action="store_true", help="also start the tray app at login")
    uninstall = sub.add_parser("uninstall-desktop", help="remove what install-desktop (and Start at login) installed")
    uninstall.add_argument("--user", action="store_true", default=True, help="for the current user (the default)")


#: The subcommands' parsers, in the order ``--help`` lists them (``_add_desktop`` adds two).
_SUBCOMMANDS: tuple[Callable[[Any], None], ...] = (
    _add_serve,
    _add_history,
    _add_ask,
    _add_demo,
    _add_wrap,
    _add_check_url,
    _add_check,
    _add_desktop,
)


def _global_options(parser: argparse.ArgumentParser, default: object) -> None:
    """``--socket`` and ``-v``, before or after the subcommand (``elicit-tray serve --socket S``
    and ``elicit-tray --socket S serve`` mean the same); ``default`` SUPPRESS on a subcommand
    keeps the value given before it."""
    parser.add_argument(
        "--socket",
        metavar="PATH",
        default=default,
        help="IPC socket path, in a directory only you "
        "can use (mode 0700) (default: $ELICIT_TRAY_SOCKET, else $XDG_RUNTIME_DIR/elicit-tray/socket, "
        "else /run/user/<uid>/elicit-tray/socket, else ~/.local/state/elicit-tray/run/socket)",
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        default=False if default is None else default,
        help="log what happens to stderr",
    )


def _leave_out_openssl() -> None:
    """The tray app never speaks TLS and hashes nothing with OpenSSL, yet ``asyncio`` imports
    ``ssl`` and ``hashlib`` prefers OpenSSL's ``_hashlib``: together 4.7 MiB of RSS
    (``libcrypto``, ``libssl``, their Python modules; measured by ``benchmarks/memory.py``).
    Marking both unimportable before the app imports ``asyncio`` leaves them out: ``asyncio``
    then has no TLS (documented: ``ssl`` may be missing) and ``hashlib`` uses Python's own
    BLAKE2 and SHA-2. Only for ``serve``, and only if neither is imported yet."""
    for name in ("ssl", "_hashlib"):
        if name in sys.modules:
            return
    sys.modules["ssl"] = None  # type: ignore[assignment]
    sys.modules["_hashlib"] = None  # type: ignore[assignment]


def _serve(args: argparse.Namespace, socket_path: Path, *, own_process: bool) -> int:
    """``serve``. As the whole process (``own_process``) it ends here with
    :func:`~elicit_tray.lastexit.end_process`: never through the interpreter's teardown, whose
    order of destroying Qt objects is not ours, and never with the C ``exit()`` handler of
    :func:`~elicit_tray.app.serve` still to run."""
    from .app import serve

    status = 1
    try:
        status = serve(
            socket_path,
            plan_path=getattr(args, "scripted_user", None),
            screenshot_dir=getattr(args, "screenshots", None),
            no_browser=getattr(args, "no_browser", False),
            arm_delay_ms=getattr(args, "arm_delay_ms", None),
            log_values=getattr(args, "log_values", False),
            settings=setting_overrides(args),
            own_process=own_process,
        )
    except BaseException:
        if not own_process:
            raise
        import traceback

        traceback.print_exc()  # a bug: said, and the process ends with 1 as Python would
    if own_process:
        from .lastexit import end_process

        end_process(status)
    return status


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``elicit-tray`` console script; returns the exit code. ``argv`` None
    means the process's own command line (the console script, ``python -m elicit_tray``): then
    ``serve`` owns the process and ends it itself (:func:`_serve`)."""
    args = _parser().parse_args(argv)
    from .logs import configure_logging

    # Values stay out of stderr too unless --log-values; every line has its controls escaped.
    configure_logging(verbose=args.verbose, log_values=getattr(args, "log_values", False))
    from .paths import default_socket_path

    socket_path = default_socket_path(args.socket)
    command = args.command or "serve"
    if command == "serve":
        _leave_out_openssl()
        return _serve(args, socket_path, own_process=argv is None)
    if command == "history":
        from .history import print_history

        try:
            return print_history(as_json=args.json, since=args.since, server=args.server, outcome=args.outcome)
        except BrokenPipeError:  # `elicit-tray history | head`: the reader has all it wanted
            import os

            # As the Python docs advise: stdout to /dev/null, so the flush at exit cannot fail.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
    if command == "ask":
        return _ask(args, socket_path)
    if command == "demo":
        from .demo.run import run_demo

        return run_demo(headless=args.headless, out_dir=args.out, modes=args.mode)
    if command == "wrap":
        import os

        from .wrap.shell import wrap_main

        server = args.server[1:] if args.server[:1] == ["--"] else args.server
        log = args.wire_log or (
            Path(os.environ["ELICIT_TRAY_WRAP_LOG"]) if os.environ.get("ELICIT_TRAY_WRAP_LOG") else None
        )
        return wrap_main(server, policy=args.policy, socket_path=socket_path, wire_log=log)
    if command == "check-url":
        return _check_url(args)
    if command == "check":
        from .checker.command import run as check_run

        return check_run(args)
    if command in ("install-desktop", "uninstall-desktop"):
        return _desktop(command, args)
    return 2  # pragma: no cover - argparse rejects unknown commands


def _ask_params(source: str) -> dict[str, Any] | None:
    """The params of ``ask`` from ``source`` (a path or ``-``), read bounded and framed as the
    tray frames them (:mod:`elicit_tray.checker.framing`); ``None`` after one line on stderr
    when they cannot be read or the tray's framing would refuse them (nothing is sent)."""
    from .checker.framing import read_input, read_params, refusal, source_name
    from .checker.report import InputError

    where = source_name(source)
    try:
        params, refused = read_params(read_input(source))
    except OSError as exc:
        print(f"elicit-tray ask: cannot read {where}: {exc.strerror or exc}", file=sys.stderr)
        return None
    except InputError as exc:
        print(f"elicit-tray ask: {where}: {exc}", file=sys.stderr)
        return None
    if params is None:
        assert refused is not None
        print(f"elicit-tray ask: {where}: {refusal(refused)}", file=sys.stderr)
    return params


def _ask(args: argparse.Namespace, socket_path: Path) -> int:
    from .client import TrayError, TrayUnavailable, request

    params = _ask_params(args.file)
    if params is None:
        return 2
    if args.server_name:  # only into objects: a _meta of another type is the tray's to refuse
        meta = params.setdefault("_meta", {})
        requester = meta.setdefault("elicit-tray/requester", {}) if isinstance(meta, dict) else None
        if isinstance(requester, dict):
            requester["serverName"] = args.server_name
    import asyncio

    try:
        result = asyncio.run(
            request("elicitation/create", params, socket_path=socket_path, autostart=not args.no_start)
        )
    except TrayUnavailable as exc:
        print(f"elicit-tray ask: {exc.message}", file=sys.stderr)
        return 5
    except TrayError as exc:
        print(
            json.dumps({"code": exc.code, "message": exc.message, "data": exc.data}, ensure_ascii=False),
            file=sys.stderr,
        )
        return 1
    print(json.dumps(result, ensure_ascii=False))
    return 0


def _check_url(args: argparse.Namespace) -> int:
    from .elicitation import ParamsError
    from .limits import limit_violations
    from .urlcheck import analyze_url
    from .urlcheck.reasons import describe

    over = limit_violations({"url": args.url})  # the tray refuses these before any analysis
    if over:
        said = f"the tray would answer JSON-RPC -32602: Invalid params: {ParamsError(over)}"
        print(f"elicit-tray check-url: {said}", file=sys.stderr)
        return 2
    analysis = analyze_url(args.url)
    if args.json:
        print(json.dumps(analysis.to_json(), ensure_ascii=False))
        return 0
    print(f"verdict:            {analysis.verdict}")
    print(f"display host:       {analysis.display_host or '-'}")
    print(f"registrable domain: {analysis.registrable_domain or '-'}")
    if analysis.imitated_domain:
        print(f"looks like:         {analysis.imitated_domain} (a well-known site it is not)")
    for reason in analysis.reasons:
        print(f"- {reason}: {describe(reason, analysis.imitated_domain)}")
    return 0


def _desktop(command: str, args: argparse.Namespace) -> int:
    if not sys.platform.startswith("linux"):
        print(f"elicit-tray {command}: only for Linux desktops (see packaging/)", file=sys.stderr)
        return 2
    from . import desktop

    try:
        if command == "uninstall-desktop":
            removed = desktop.uninstall()
            for path in removed:
                print(f"removed {path}")
            if not removed:
                print("nothing to remove")
            return 0
        for path in desktop.install():
            print(f"installed {path}")
        if args.autostart:
            print(f"installed {desktop.set_autostart(True)}")
    except OSError as exc:
        print(f"elicit-tray {command}: {exc}", file=sys.stderr)
        return 1
    print(
        "To start elicit-tray on the first request (socket activation), run:\n"
        "  systemctl --user daemon-reload && systemctl --user enable --now elicit-tray.socket"
    )
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
