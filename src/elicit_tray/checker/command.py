"""``elicit-tray check FILE|-``: the tray's verdict on an elicitation, for server authors.

Exit codes (as linters): 0 the tray would show the dialog (warnings are printed); 1 it would
refuse the request (or, with ``--strict``, there are warnings; with ``--png``, the image could
not be rendered); 2 usage error (unreadable file, not a JSON object, text the tray's framing
refuses, a bad option value), said in one line on stderr. The input is read bounded
(:func:`~.framing.read_input`) and framed as the tray frames it (:func:`~.framing.read_params`).
"""

from __future__ import annotations

import argparse
import json
import sys

from . import InputError, Report, check
from .framing import read_input, refusal, source_name

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    """Run ``check`` for the parsed ``args`` (``file``, ``schema``, ``json``, ``strict``,
    ``png``, ``theme``, ``scale``, ``lang``, ``width``, ``after_submit``); returns the exit code.
    Prints the report on stdout (``--json``: ``{"errors", "warnings"}``), problems on stderr."""
    where = source_name(args.file)
    try:
        report = check(read_input(args.file), schema=args.schema)
    except OSError as exc:
        print(f"elicit-tray check: cannot read {where}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except InputError as exc:
        print(f"elicit-tray check: {where}: {exc}", file=sys.stderr)
        return 2
    if report.params is None:  # not even framed: as unusable as text that is not JSON
        assert report.error is not None
        print(f"elicit-tray check: {where}: {refusal(report.error)}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
    else:
        _print_text(report)
    code = report.exit_code(strict=args.strict)
    if args.png is not None:
        if not report.accepted:
            print("elicit-tray check: no PNG: the tray refuses this request, so it shows no dialog", file=sys.stderr)
            return 1
        try:
            path = report.render_png(
                args.png,
                theme=args.theme,
                scale=args.scale,
                lang=args.lang,
                width=args.width,
                after_submit=args.after_submit,
            )
        except ValueError as exc:
            print(f"elicit-tray check: {exc}", file=sys.stderr)
            return 2
        except RuntimeError as exc:
            print(f"elicit-tray check: {exc}", file=sys.stderr)
            return 1
        if not args.json:
            print(f"wrote {path}")
    return code


def _print_text(report: Report) -> None:
    for error in report.errors:
        print(f"error: {error['path'] or '/'}: {error['message']}")
    for warning in report.warnings:
        print(f"warning [{warning.id}]: {warning.path or '/'}: {warning.message}")
    counts = f"{len(report.errors)} error(s), {len(report.warnings)} warning(s)"
    if report.accepted:
        print(f"ok: the tray would show this dialog ({counts})")
    else:
        assert report.error is not None
        print(f"refused: the tray would answer JSON-RPC {report.error['code']} ({counts})")
