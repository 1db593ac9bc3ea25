"""``elicit-tray check`` and ``elicit_tray.check``: the tray's verdict for server authors.

The errors must be exactly what the tray answers: every shared case is sent to a real
:class:`~elicit_tray.ipc.protocol.Dispatcher` (in-process, fake channel) and ``check --json`` is
compared with its answer. Warnings are pinned as exact JSON, one case per id. No Qt here.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import elicit_tray
from elicit_tray.checker import WARNING_IDS, check
from elicit_tray.cli import main as cli_main
from elicit_tray.ipc.protocol import Dispatcher, UiFunctions
from elicit_tray.request import Accepted, ElicitationRequest, Peer
from tests.conftest import REPO, load_cases
from tests.fakes import FakeChannel
from tests.rpc import create_line

CASES = load_cases("forms.jsonl")
P = "/requestedSchema/properties"


def tray_answer(params: dict[str, Any]) -> dict[str, Any]:
    """What the dispatcher answers to ``elicitation/create`` with ``params`` (accept for a shown
    dialog: the handler stands in for the user)."""

    async def handler(_request: ElicitationRequest) -> Accepted:
        return Accepted({})

    async def main() -> dict[str, Any]:
        dispatcher, channel = Dispatcher(UiFunctions(handler), version="t"), FakeChannel(Peer())
        dispatcher.connection_made(channel)
        dispatcher.data_received(channel, create_line(7, params))
        while not channel.sent:
            await asyncio.sleep(0)
        dispatcher.connection_lost(channel)
        return channel.sent[0]

    return asyncio.run(main())


def run_cli(*args: str, stdin: str | None = None, capsys: Any = None, monkeypatch: Any = None) -> tuple[int, str]:
    if stdin is not None:
        import io

        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    code = cli_main(["check", *args])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_check_json_gives_every_case_the_answer_the_dispatcher_gives(
    case: dict[str, Any], tmp_path: Path, capsys: Any
) -> None:
    answer = tray_answer(case["params"])
    path = tmp_path / "params.json"
    path.write_text(json.dumps(case["params"]), encoding="utf-8")
    code = cli_main(["check", "--json", str(path)])
    report = json.loads(capsys.readouterr().out)
    if "error" in answer:
        assert answer["error"]["code"] == -32602
        assert (code, report["errors"]) == (1, answer["error"]["data"]["violations"])
    else:
        assert answer["result"] == {"action": "accept", "content": {}}
        assert (code, report["errors"]) == (0, [])


def test_the_refused_case_has_the_tray_s_exact_violation_and_the_api_its_exact_error() -> None:
    case = next(c for c in CASES if c["id"] == "nested-object-refused")
    report = elicit_tray.check(case["params"])
    assert report.to_json() == {
        "errors": [
            {"path": f"{P}/address", "message": "nested objects are not supported; use flat primitive properties"}
        ],
        "warnings": [],
    }
    assert report.error == tray_answer(case["params"])["error"]
    assert (report.accepted, report.exit_code(), report.exit_code(strict=True)) == (False, 1, 1)


def test_more_than_fifty_violations_are_cut_as_the_tray_cuts_them() -> None:
    params = {
        "message": "m",
        "requestedSchema": {"type": "object", "properties": {f"p{i:02}": {"type": "object"} for i in range(60)}},
    }
    report = check(params)
    assert len(report.errors) == 50
    assert list(report.errors) == tray_answer(params)["error"]["data"]["violations"]


def test_the_cases_warnings_are_exact() -> None:
    by_id = {c["id"]: elicit_tray.check(c["params"]).to_json()["warnings"] for c in CASES}
    assert {k: v for k, v in by_id.items() if v} == {
        "legacy-enum-names": [
            {
                "id": "legacy-enum-names",
                "path": f"{P}/pet/enumNames",
                "message": (
                    '"enumNames" is the legacy way to label options (MCP 2025-06-18); this tray shows its labels, clients of '
                    'the current revision may show the raw values: use a titled "oneOf": [{"const", "title"}]'
                ),
            }
        ],
        "enumnames-length-mismatch": [
            {
                "id": "enum-names-length",
                "path": f"{P}/pet/enumNames",
                "message": (
                    '"enumNames" has 2 labels for 3 values: they cannot be paired, so it is ignored and the raw values are '
                    "shown; give one label per value"
                ),
            }
        ],
        "secret-warning-not-from-negated-description": [
            {
                "id": "secret-field",
                "path": f"{P}/cardPin",
                "message": (
                    '"Card PIN" seems to ask for a secret: MCP forbids requesting passwords, tokens or keys in form mode, '
                    "and the dialog warns the user to decline; use URL mode for credentials"
                ),
            }
        ],
    }


def test_secret_warnings_name_exactly_the_fields_the_dialog_warns_about() -> None:
    for case in CASES:
        for step in case["interactions"]:
            expected = step["expect"].get("secret_warning_fields")
            if expected is not None:
                warned = [w.path.rsplit("/", 1)[1] for w in check(case["params"]).warnings if w.id == "secret-field"]
                assert warned == expected, case["id"]


def _schema(props: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"message": "m", "requestedSchema": {"type": "object", "properties": props, **extra}}


def test_each_warning_id_with_its_exact_json() -> None:
    params = _schema(
        {
            "color": {"$ref": "#/$defs/Color"},
            "pick": {"oneOf": [{"const": "a", "title": "A"}]},
            "tags": {"type": "array", "items": {"type": "string", "oneOf": [{"const": "x", "title": "X"}]}},
            "level": {"type": "integer", "minimum": 1, "default": 0},
            "flag": {"type": "boolean", "default": "yes"},
            "apiKey": {"type": "string"},
            "zip": {"type": "string", "pattern": "^[[:digit:]]{5}$"},
        },
        **{"$defs": {"Color": {"type": "string", "enum": ["red", "green"]}}},
    )
    report = check(params)
    assert report.to_json() == {
        "errors": [
            {"path": f"{P}/zip/pattern", "message": "invalid ECMA-262 regular expression: Invalid atom character"},
        ],
        "warnings": [
            {
                "id": "secret-field",
                "path": f"{P}/apiKey",
                "message": (
                    '"apiKey" seems to ask for a secret: MCP forbids requesting passwords, tokens or keys in form mode, and '
                    "the dialog warns the user to decline; use URL mode for credentials"
                ),
            },
            {
                "id": "local-ref",
                "path": f"{P}/color/$ref",
                "message": (
                    '"$ref": "#/$defs/Color" is followed by this tray, but the MCP requested schema has no "$ref" and other '
                    "clients refuse or mis-render it; inline the definition in the property (Pydantic: an Enum field renders "
                    'as "$ref"; use Literal[...] or json_schema_extra)'
                ),
            },
            {
                "id": "default-ignored",
                "path": f"{P}/flag/default",
                "message": (
                    'the default "yes" is ignored and the field starts empty: it is not a boolean; give a default the field '
                    "accepts"
                ),
            },
            {
                "id": "default-ignored",
                "path": f"{P}/level/default",
                "message": (
                    'the default 0 is ignored and the field starts empty: the field\'s own check says "The minimum is 1."; '
                    "give a default the field accepts"
                ),
            },
            {
                "id": "oneof-without-type",
                "path": f"{P}/pick",
                "message": (
                    'a titled "oneOf" without "type": this tray reads it as a single-select because every "const" is a '
                    'string; the MCP schema requires "type": "string" beside "oneOf"'
                ),
            },
            {
                "id": "items-oneof",
                "path": f"{P}/tags/items/oneOf",
                "message": (
                    'a multi-select\'s options are "items.anyOf" in MCP; this tray reads "items.oneOf" the same way, other '
                    'clients may not: rename it to "anyOf"'
                ),
            },
            {
                "id": "pattern-not-ecma",
                "path": f"{P}/zip/pattern",
                "message": (
                    'the pattern "^[[:digit:]]{5}$" uses syntax outside ECMA-262, the regex dialect of JSON Schema: POSIX '
                    'classes such as "[:alpha:]": write "[A-Za-z]"; the tray refuses the request. Pydantic\'s pattern= is not '
                    "checked against ECMA-262"
                ),
            },
        ],
    }
    del params["requestedSchema"]["properties"]["zip"]
    report = check(params)
    assert (report.errors, len(report.warnings)) == ((), 6)
    assert (report.exit_code(), report.exit_code(strict=True)) == (0, 1)


def test_refused_fields_still_get_the_hints_that_explain_them() -> None:
    report = check(
        _schema(
            {
                "name": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
                "zip": {"type": "string", "pattern": r"^(?P<zip>\d{5})$"},
                "ok": {"type": "string", "enum": ["a"], "enumNames": ["A"]},
            }
        )
    )
    assert report.to_json() == {
        "errors": [
            {"path": f"{P}/name", "message": 'missing "type"'},
            {"path": f"{P}/zip/pattern", "message": "invalid ECMA-262 regular expression: Invalid group modifier"},
        ],
        "warnings": [
            {
                "id": "nullable-anyof",
                "path": f"{P}/name/anyOf",
                "message": (
                    '"anyOf" with a {"type": "null"} branch is how Pydantic renders an Optional field (X | None); the MCP '
                    "schema has no null and no anyOf, so the tray refuses the request: make the field optional by leaving "
                    'it out of "required" (give it a default), not by allowing null'
                ),
            },
            {
                "id": "legacy-enum-names",
                "path": f"{P}/ok/enumNames",
                "message": (
                    '"enumNames" is the legacy way to label options (MCP 2025-06-18); this tray shows its labels, clients '
                    'of the current revision may show the raw values: use a titled "oneOf": [{"const", "title"}]'
                ),
            },
            {
                "id": "pattern-not-ecma",
                "path": f"{P}/zip/pattern",
                "message": (
                    'the pattern "^(?P<zip>\\\\d{5})$" uses syntax outside ECMA-262, the regex dialect of JSON Schema: '
                    'Python\'s named groups "(?P<name>...)": write "(?<name>...)"; the tray refuses the request. '
                    "Pydantic's pattern= is not checked against ECMA-262"
                ),
            },
        ],
    }


def test_a_url_request_gets_its_verdict_and_reasons() -> None:
    ok = check({"mode": "url", "message": "m", "url": "https://auth.example.com/connect", "elicitationId": "e"})
    assert ok.to_json() == {"errors": [], "warnings": []}
    refused = check({"mode": "url", "message": "m", "url": "javascript:alert(1)", "elicitationId": "e"})
    assert refused.accepted and [w.id for w in refused.warnings] == ["url-verdict"]
    assert refused.warnings[0].message.startswith(
        'verdict "refuse": Open is disabled: the user can only decline or cancel. Reasons: '
    )


def test_every_warning_id_is_documented() -> None:
    assert sorted(WARNING_IDS) == sorted(
        [
            "legacy-enum-names",
            "enum-names-length",
            "oneof-without-type",
            "items-oneof",
            "local-ref",
            "default-ignored",
            "secret-field",
            "pattern-not-ecma",
            "url-verdict",
            "nullable-anyof",
        ]
    )
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## For server authors") :]
    assert [i for i in WARNING_IDS if f"`{i}`" not in section] == []


def test_json_text_is_read_with_the_tray_s_own_decoder() -> None:
    dup = check('{"message": "m", "message": "n", "requestedSchema": {"type": "object", "properties": {}}}')
    assert dup.to_json() == {
        "errors": [{"path": "", "message": 'Invalid Request: duplicate key "message"'}],
        "warnings": [],
    }
    assert dup.error == {"code": -32600, "message": 'Invalid Request: duplicate key "message"'}
    big = check(
        '{"message": "m", "requestedSchema": {"type": "object", "properties": {"n": {"type": "number", '
        '"maximum": 1e400}}}}'
    )
    assert big.error == {"code": -32700, "message": "Parse error: number 1e400 is out of range"}
    assert check('{"type": "object", "properties": {}}\n', schema=True).to_json() == {"errors": [], "warnings": []}


def test_cli_exit_codes_and_text(tmp_path: Path, capsys: Any, monkeypatch: Any) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(_schema({"pet": {"type": "string", "enum": ["a"], "enumNames": ["A"]}})))
    assert run_cli(str(good), capsys=capsys) == (
        0,
        (
            f'warning [legacy-enum-names]: {P}/pet/enumNames: "enumNames" is the legacy way to label options (MCP '
            "2025-06-18); this tray shows its labels, clients of the current revision may show the raw values: use a "
            'titled "oneOf": [{"const", "title"}]\n'
            "ok: the tray would show this dialog (0 error(s), 1 warning(s))\n"
        ),
    )
    assert run_cli("--strict", "--json", str(good), capsys=capsys)[0] == 1
    assert run_cli(
        "--schema",
        "-",
        stdin='{"type": "object", "properties": {"a": {"type": "object"}}}',
        capsys=capsys,
        monkeypatch=monkeypatch,
    ) == (
        1,
        (
            f"error: {P}/a: nested objects are not supported; use flat primitive properties\n"
            "refused: the tray would answer JSON-RPC -32602 (1 error(s), 0 warning(s))\n"
        ),
    )
    assert run_cli(str(tmp_path / "missing.json"), capsys=capsys) == (2, "")
    assert run_cli("-", stdin="[1, 2]", capsys=capsys, monkeypatch=monkeypatch) == (2, "")
    assert run_cli("-", stdin="{not json", capsys=capsys, monkeypatch=monkeypatch) == (2, "")
    with pytest.raises(SystemExit) as usage:
        cli_main(["check", "--theme", "pink", str(good)])
    assert usage.value.code == 2


def test_the_demo_server_s_own_elicitations_are_clean() -> None:
    from elicit_tray.checker.demo import demo_params

    params = demo_params()
    assert sorted(params) == ["book_table", "connect_account", "delete_project", "deploy", "feedback", "link_account"]
    assert {name: check(p).to_json() for name, p in params.items()} == {
        name: {"errors": [], "warnings": []} for name in params
    }


def test_check_loads_no_qt_even_when_qt_cannot_be_imported() -> None:
    code = """
import json, sys
sys.modules["PySide6"] = None
sys.modules["shiboken6"] = None
import elicit_tray
report = elicit_tray.check({"message": "m", "requestedSchema": {"type": "object", "properties": {
    "pet": {"type": "string", "enum": ["a"], "enumNames": ["A"], "default": "b"}, "password": {"type": "string"}}}})
url = elicit_tray.check({"mode": "url", "message": "m", "url": "https://xn--80ak6aa92e.com/"})
qt = sorted(m for m in sys.modules if m.startswith(("PySide6", "shiboken6")) and sys.modules[m] is not None)
print(json.dumps([[w.id for w in report.warnings], [w.id for w in url.warnings], qt]))
"""
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    assert json.loads(out) == [["secret-field", "default-ignored", "legacy-enum-names"], ["url-verdict"], []]


def test_elicit_tray_check_stays_the_function_whatever_was_imported() -> None:
    """``elicit_tray.check`` is a plain function; importing the checker package (as a test
    suite does for ``WARNING_IDS``) or its ``command`` module does not put a module in its
    place, and the two ``check`` give the same report."""
    code = """
import elicit_tray, types
before = elicit_tray.check
import elicit_tray.checker.command
from elicit_tray.checker import WARNING_IDS, check
params = {"message": "m", "requestedSchema": {"type": "object", "properties": {"password": {"type": "string"}}}}
assert elicit_tray.check is before and isinstance(before, types.FunctionType), elicit_tray.check
assert elicit_tray.check(params) == check(params) and WARNING_IDS
print("ok")
"""
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert (done.returncode, done.stdout.strip()) == (0, "ok"), done.stderr


def test_importing_elicit_tray_does_not_load_the_checker() -> None:
    code = "import sys, elicit_tray; print(sorted(m for m in sys.modules if m.startswith('elicit_tray')))"
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    assert out.strip() == "['elicit_tray']"


def test_every_field_rule_is_in_the_rule_table_and_every_warning_id_has_its_producer() -> None:
    """A rule written in ``checker/fields.py`` but left out of ``_FIELD_RULES`` never runs, and
    an id in ``WARNING_IDS`` that no ``LintWarning(...)`` produces is a promise nothing keeps."""
    import ast
    import inspect

    from elicit_tray.checker import fields

    written = {
        name
        for name, value in vars(fields).items()
        if inspect.isfunction(value)
        and value.__module__ == fields.__name__
        and list(inspect.signature(value).parameters) == ["field"]
    }
    assert written == {rule.__name__ for rule in fields._FIELD_RULES}
    produced = {
        call.args[0].value
        for path in (REPO / "src/elicit_tray/checker").glob("*.py")
        for call in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(call, ast.Call) and getattr(call.func, "id", None) == "LintWarning"
        if call.args and isinstance(call.args[0], ast.Constant)
    }
    assert produced == set(WARNING_IDS)


#: A pattern in each foreign dialect ``checker/patterns.py`` knows (one per row of its table).
FOREIGN_EXAMPLES = (r"^(?P<zip>\d{5})$", r"\Aabc\z", r"(?i)abc", r"a++", r"[[:alpha:]]", r"\h+")


def test_every_foreign_regex_row_has_an_example_and_warns_for_it() -> None:
    from elicit_tray.checker.patterns import _FOREIGN, pattern_warnings

    for regex, fix in _FOREIGN:
        examples = [e for e in FOREIGN_EXAMPLES if regex.search(e)]
        assert examples, f"no example in FOREIGN_EXAMPLES for the row {fix!r}"
        assert all(fix in pattern_warnings("/p", e)[0].message for e in examples), fix
