"""The pure core loads no Qt (DESIGN.md "Layout": "Pure parts never import Qt").

Each module is imported in a fresh interpreter in which PySide6 and shiboken6 cannot be imported
(``sys.modules[name] = None``), and a few of its functions are called, so a Qt import at module
level or on a call path fails here with the import chain in the traceback. A fresh process per
module: one module may not pass only because another one was imported first.

Also the rules that keep one copy of a helper: JSON Pointers are written and read only in
``schema/pointer.py``, the ``\\uXXXX`` escape is written only by ``display.escape_char``, and
the requester side builds its JSON-RPC lines with ``ipc/jsonrpc.py``.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "elicit_tray"

FORM = {"message": "m", "requestedSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}
URL = {"mode": "url", "message": "m", "url": "https://example.com/x", "elicitationId": "e"}

#: module -> code run after importing it (names: ``m`` the module, FORM, URL).
PURE: dict[str, str] = {
    "elicit_tray.schema": "m.parse_requested_schema(FORM['requestedSchema'])",
    "elicit_tray.schema.pointer": "m.ref_tokens(m.pointer('$defs', 'a/b').replace('/', '#/', 1))",
    "elicit_tray.urlcheck": "m.analyze_url(URL['url'])",
    "elicit_tray.client": "m.Completions()",
    "elicit_tray.requester": "",
    "elicit_tray.requester.calls": "",
    "elicit_tray.requester.completions": "m.Completions()",
    "elicit_tray.requester.errors": "m.TrayUnavailable('x')",
    "elicit_tray.requester.launch": "m.tray_command()",
    "elicit_tray.requester.trust": "",
    "elicit_tray.ipc": "",
    "elicit_tray.ipc.jsonrpc": "m.decode_line(m.encode(m.request(1, 'ping', {}))[:-1])",
    "elicit_tray.ipc.protocol": "m.vet_create(FORM); m.vet_create(URL)",
    "elicit_tray.ipc.answers": "m.vet_create(FORM); m.vet_create(URL)",
    "elicit_tray.ipc.load": "m.LoadPolicy().refusal(m.Demand(0, 0, 'p'))",
    "elicit_tray.presence": "m.requester_present.get()()",
    "elicit_tray.request": "from elicit_tray.elicitation import parse_elicit_params as p; "
    "m.outcome_to_result(m.Accepted({})); m.for_display(p(FORM)); m.for_display(p(URL))",
    "elicit_tray.limits": "m.limit_violations(FORM)",
    "elicit_tray.elicitation": "m.parse_elicit_params(FORM); m.parse_elicit_params(URL)",
    "elicit_tray.display": "m.display_line('\\u202e'); m.breakable('x' * 50)",
    "elicit_tray.desktop": "",
    "elicit_tray.logs": "m.escape_controls('\\u202e')",
    "elicit_tray.paths": "m.probe_socket(m.default_socket_path())",
    "elicit_tray.session": "m.display_problem({'DISPLAY': ':4799'})",
    "elicit_tray.lastexit": "",
    "elicit_tray": "m.check(FORM); m.check(URL)",  # without rendering (--png imports Qt)
    "elicit_tray.checker": "m.check(FORM); m.check(URL)",
    "elicit_tray.checker.command": "",
    "elicit_tray.wrap": "",
    "elicit_tray.wrap.actions": "m.Identity(('srv',)).client_name()",
    "elicit_tray.wrap.capability": "m.owned_modes({}, 'complement')",
    "elicit_tray.wrap.core": "",
    "elicit_tray.wrap.lines": "m.raw_member(b'{\"id\": 1}', 'id')",
    "elicit_tray.wrap.shell": "",
    # The demo waits for its tray app with paths.probe_socket, not through the Qt endpoint: a
    # tray app that exits at once (a fake Popen) makes it probe once and give up.
    "elicit_tray.demo.run": textwrap.dedent("""
        import pathlib, subprocess, tempfile
        class Exited:
            def poll(self): return 1
            def kill(self): pass
        subprocess.Popen = lambda *args, **kwargs: Exited()
        folder = pathlib.Path(tempfile.mkdtemp())
        try:
            m._start_headless_tray(folder, folder)
        except RuntimeError:
            pass
        else:
            raise AssertionError("the demo did not give up on a tray app that exited")
    """),
}

_PROBE = textwrap.dedent("""
    import importlib, sys
    for blocked in ("PySide6", "shiboken6"):
        sys.modules[blocked] = None  # any "import PySide6..." now raises ImportError
    FORM, URL = {form!r}, {url!r}
    m = importlib.import_module({module!r})
    {code}
    qt = sorted(n for n, v in sys.modules.items() if v is not None and n.split(".")[0] in ("PySide6", "shiboken6"))
    ui = sorted(n for n in sys.modules if n.startswith("elicit_tray.ui"))
    print(qt, ui)
""")


@pytest.mark.parametrize("module", sorted(PURE))
def test_a_pure_module_loads_no_qt(module: str, tmp_path: Path) -> None:
    """Importing ``module`` and calling into it works with Qt unimportable, and neither Qt nor
    the ``elicit_tray.ui`` package is loaded."""
    code = _PROBE.format(form=FORM, url=URL, module=module, code=PURE[module] or "pass")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_RUNTIME_DIR": str(tmp_path), "ELICIT_TRAY_LOG": "off"}
    env["PYTHONPATH"] = str(SRC.parent)  # this checkout's sources, whatever the install points at
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, f"{module} needs Qt (or failed without it):\n{done.stderr[-3000:]}"
    assert done.stdout.strip() == "[] []", f"{module} loaded {done.stdout.strip()}"


def test_the_endpoint_is_the_only_ipc_module_with_qt() -> None:
    """Within ``ipc/``, only the thin ``QLocalServer`` adapter imports Qt."""
    with_qt = sorted(p.name for p in (SRC / "ipc").glob("*.py") if "PySide6" in p.read_text(encoding="utf-8"))
    assert with_qt == ["server.py"]


def _sources() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def _code_lines(path: Path) -> list[tuple[int, str]]:
    """(number, line) of the lines of ``path`` outside docstrings and comments (roughly)."""
    out, in_doc = [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        stripped = line.strip()
        quotes = stripped.count('"""')
        if in_doc or stripped.startswith(('"""', "#", 'r"""')):
            if quotes % 2 == 1:
                in_doc = not in_doc
            continue
        out.append((number, line))
    return out


def _where(pattern: str) -> list[str]:
    regex = re.compile(pattern)
    return [f"{p.relative_to(SRC)}:{n}" for p in _sources() for n, line in _code_lines(p) if regex.search(line)]


def test_json_pointers_are_escaped_and_read_in_one_place() -> None:
    """RFC 6901 escaping (``~0``/``~1``) is written only by ``schema/pointer.py``: every
    violation path and every ``$ref`` reading goes through it."""
    places = _where(r"""["']~[01]["']""")
    assert places and all(place.startswith("schema/pointer.py:") for place in places), places


#: Ways of writing a ``\\uXXXX`` escape by hand: a backslash-u followed by a format field
#: (f-string, ``%`` or ``+``), a ``04x``/``08x`` format spec, or Python's ``unicode_escape`` codec.
_OWN_ESCAPE = re.compile(r"""\\\\[uU](?:\{|%|["']\s*[+%])|:0?[48]x\}|%0?[48]x|unicode_escape""")


def test_the_escape_detector_knows_the_ways_to_write_it() -> None:
    """The detector below finds the copy ``urlcheck/chars.py`` had (before it called
    ``display.escape_char``) and the other spellings of the same escape."""
    copies = [
        'out.append(f"\\\\u{cp:04x}" if cp <= 0xFFFF else f"\\\\U{cp:08x}")',
        'text = "\\\\u%04x" % ord(ch)',
        'text = "\\\\u" + format(ord(ch), "04x")',
        'text = "{:04x}".format(ord(ch))',
        'text = ch.encode("unicode_escape").decode()',
    ]
    assert [bool(_OWN_ESCAPE.search(line)) for line in copies] == [True] * len(copies)
    assert not _OWN_ESCAPE.search('return f"U+{ord(ch):04X} {name}".rstrip()')  # describe_char's


def test_one_helper_writes_the_backslash_u_escape() -> None:
    """``\\uXXXX`` / ``\\UXXXXXXXX`` escapes of shown or logged text are formatted only by
    :func:`elicit_tray.display.escape_char` (the log's ``\\xNN`` short form aside): no module,
    ``urlcheck`` included, keeps a copy of its own."""
    places = _where(_OWN_ESCAPE.pattern)
    assert places and all(place.startswith("display.py:") for place in places), places


def test_the_requester_side_writes_no_envelope_of_its_own() -> None:
    """``client.py`` and ``requester/`` build and read their lines with ``ipc/jsonrpc.py``: no
    ``"jsonrpc"`` key, no JSON-RPC error code and no ``json`` module of their own."""
    for path in [SRC / "client.py", *sorted((SRC / "requester").glob("*.py"))]:
        text = path.read_text(encoding="utf-8")
        assert '"jsonrpc"' not in text, path
        assert not re.search(r"^import json$", text, re.MULTILINE), path
        assert not re.search(r"-326\d\d", "\n".join(line for _n, line in _code_lines(path))), path


def test_the_wrap_proxy_takes_the_trays_requester_limit() -> None:
    """``wrap`` cuts requester strings to the tray's own limit (kept as a number there so that
    wrap starts without the schema package)."""
    from elicit_tray.limits import MAX_TEXT_CHARS
    from elicit_tray.wrap.actions import MAX_REQUESTER_CHARS

    assert MAX_REQUESTER_CHARS == MAX_TEXT_CHARS
