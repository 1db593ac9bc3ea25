"""The official MCP conformance suite's client scenarios that touch elicitation, with elicit-tray
as the client under test: ``conformance client --command CLIENT --scenario NAME`` runs the
suite's scenario server and starts ``conformance_client.py`` (the Python SDK's ``mcp.Client``
with ``elicitation_callback()`` and nothing else for elicitation) against it; the tray app is a
subprocess whose scripted user operates the real dialog. Each run must end with every check
passed (the suite's own summary and exit code), and the client's lines are exact.

Scenarios (``conformance list --client``; the only client scenarios that send elicitations):
``elicitation-sep1034-client-defaults`` (2025-11-25, the initialize lifecycle) in 0.1.16 and
0.2.0-alpha.12, and ``sep-2322-client-request-state`` (2026-07-28, ``input_required`` rounds)
in 0.2.0-alpha.12, which has no 2025-11-25 client scenario besides the first.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.node import REPO, conformance_cli, node
from tests.integration.tray_process import TrayProcess

CLIENT = Path(__file__).with_name("conformance_client.py")
TIMEOUT_S = 120

PLAN = [
    # sep1034: every field has a default; the user accepts them as shown
    {"match": "Test client default value handling", "steps": [{"do": "submit"}]},
    # sep-2322: two rounds ask the same question
    {"match": "Please confirm to continue", "steps": [{"do": "toggle", "field": "confirmed"}, {"do": "submit"}]},
]

SEP1034_CHECKS = [
    "client-elicitation-sep1034-string-default",
    "client-elicitation-sep1034-integer-default",
    "client-elicitation-sep1034-number-default",
    "client-elicitation-sep1034-enum-default",
    "client-elicitation-sep1034-boolean-default",
]
SEP1034_LINES = [
    'test_client_elicitation_defaults: Elicitation completed: {"name":"John Doe","age":30,"score":95.5,'
    '"status":"active","verified":true}'
]
SEP2322_CHECKS = [
    "sep-2322-client-request-state-echoed",
    "sep-2322-client-jsonrpc-id-different",
    "sep-2322-client-no-state-omitted",
    "sep-2322-client-parallel-isolation",
    "sep-2322-default-result-type-complete",
]
SEP2322_LINES = [
    "test_mrtr_echo_state: echo-state-ok",
    "test_mrtr_no_state: no-state-ok",
    "test_mrtr_unrelated: unrelated-ok",
    # The suite's server answers without ``resultType``: the check passes (no retry was sent), and
    # the Python SDK 2.3 then refuses the result itself (its 2026-07-28 result types require the field).
    "test_mrtr_no_result_type: ValidationError",
]

CASES = [
    ("0.1.16", "elicitation-sep1034-client-defaults", None, SEP1034_CHECKS, SEP1034_LINES),
    ("0.2.0-alpha.12", "elicitation-sep1034-client-defaults", "2025-11-25", SEP1034_CHECKS, SEP1034_LINES),
    ("0.2.0-alpha.12", "sep-2322-client-request-state", "2026-07-28", SEP2322_CHECKS, SEP2322_LINES),
]


@pytest.fixture(scope="module")
def tray(module_scratch):
    process = TrayProcess(module_scratch / "t" / "socket", PLAN, workdir=module_scratch).start()
    yield process
    assert process.stop() == 0


def run_scenario(version: str, scenario: str, spec: str | None, sock: Path, out: Path) -> subprocess.CompletedProcess:
    """One ``conformance client`` run; its results land in ``out/<scenario>-<time>/``."""
    argv = [node(), conformance_cli(version), "client", "--scenario", scenario, "-o", str(out)]
    argv += ["--command", f"{sys.executable} {CLIENT}", "--timeout", "60000"]
    if spec:
        argv += ["--spec-version", spec]
    env = dict(os.environ, ELICIT_TRAY_SOCKET=str(sock), NO_COLOR="1", FORCE_COLOR="0")
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), env.get("PYTHONPATH", "")])
    return subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=TIMEOUT_S)


@pytest.mark.parametrize(("version", "scenario", "spec", "checks", "lines"), CASES)
def test_the_scenario_passes_every_check_with_the_tray_answering(tray, scratch, version, scenario, spec, checks, lines):
    done = run_scenario(version, scenario, spec, tray.sock, scratch / "out")
    summary = f"{done.stdout}\n{done.stderr}"  # the suite writes its summary on stderr
    assert done.returncode == 0, summary
    assert f"\nPassed: {len(checks)}/{len(checks)}, 0 failed, 0 warnings\n" in summary, summary
    assert "OVERALL: PASSED" in summary, summary
    (result,) = (scratch / "out").iterdir()
    verdicts = [(c["id"], c["status"]) for c in json.loads((result / "checks.json").read_text())]
    assert [v for v in verdicts if v[1] != "INFO"] == [(name, "SUCCESS") for name in checks]
    assert (result / "stdout.txt").read_text().splitlines() == lines
