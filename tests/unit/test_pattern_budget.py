"""One request's ``pattern`` checks share one worker round trip and one time budget
(schema/pattern.py): 256 slow patterns cost one budget, not 256 timeouts, and the values
that could not be checked count as not matching."""

from __future__ import annotations

from typing import Any

import pytest

from elicit_tray.elicitation import parse_elicit_params
from elicit_tray.schema import pattern
from elicit_tray.schema.pattern import PatternEngine, Verdict

SLOW = "x" * 800  # (x+x+)+y backtracks for ever on it


@pytest.fixture
def fresh():
    engine = PatternEngine()
    yield engine
    engine.close()


def test_fast_values_of_one_request_are_checked_in_one_round_trip(fresh):
    pairs = [(r"^item \d+$", f"item {k}") for k in range(100)] + [("^a", "b"), ("[", "x")]
    assert fresh.check_all(pairs) == [Verdict.MATCH] * 100 + [Verdict.NO_MATCH, Verdict.NO_MATCH]
    assert (fresh.starts, fresh.kills, fresh.sent) == (1, 0, 102)
    assert fresh.check_all(pairs[:3]) == [Verdict.MATCH] * 3  # remembered: nothing sent
    assert fresh.sent == 102


def test_256_slow_patterns_cost_one_budget_and_none_of_them_matches(fresh):
    fresh.check("a", "a")  # the worker is up (its start is not part of any budget)
    pairs = [(f"(x+x+)+y|q{i}", SLOW) for i in range(256)]
    assert fresh.check_all(pairs) == [Verdict.TOO_SLOW] * 256
    assert fresh.kills <= 2  # one slow value at most ran out its time; before: one kill per value
    # remembered: asking again (the dialog validating its fields) sends nothing and kills nothing
    kills, sent = fresh.kills, fresh.sent
    assert fresh.check_all(pairs) == [Verdict.TOO_SLOW] * 256
    assert [fresh.check(p, v) for p, v in pairs[:5]] == [Verdict.TOO_SLOW] * 5
    assert (fresh.kills, fresh.sent) == (kills, sent)


def test_values_answered_before_a_slow_one_keep_their_verdicts(fresh):
    pairs = [("^ok$", "ok"), ("^no$", "ok"), ("(x+x+)+y", SLOW), ("(x+x+)+y", SLOW + "x")]
    assert fresh.check_all(pairs) == [Verdict.MATCH, Verdict.NO_MATCH, Verdict.TOO_SLOW, Verdict.TOO_SLOW]
    # after the slow value the next request gets a worker at once (the spare started at the kill)
    assert fresh.check("^ok$", "still ok") == Verdict.NO_MATCH
    assert fresh.check("ok", "still ok") == Verdict.MATCH


def test_one_value_still_gets_its_own_timeout_and_a_longer_one_is_not_tried(fresh):
    assert fresh.check("(x+x+)+y", SLOW) == Verdict.TOO_SLOW
    kills = fresh.kills
    assert kills == 1
    assert fresh.check("(x+x+)+y", SLOW + "xx") == Verdict.TOO_SLOW  # one slow check per pattern and length
    assert fresh.kills == kills
    assert fresh.check("(x+x+)+y", "xxy") == Verdict.MATCH  # shorter: tried


def _slow_request(n: int) -> dict[str, Any]:
    props: dict[str, Any] = {"ok": {"type": "string", "pattern": "^[a-z]+$", "default": "fine"}}
    props |= {
        f"f{i}": {"type": "string", "title": f"Code {i}", "pattern": f"(x+x+)+y|q{i}", "default": SLOW}
        for i in range(n)
    }
    return {"message": "Slow", "requestedSchema": {"type": "object", "properties": props}}


def test_the_parser_checks_every_default_of_a_request_in_one_bounded_round_trip():
    pattern.engine.close()
    pattern.engine.check("a", "a")
    kills = pattern.engine.kills
    request = parse_elicit_params(_slow_request(255))
    fields = {f.name: f for f in request.form.fields}
    assert (fields["ok"].default, fields["ok"].default_ignored) == ("fine", False)  # answered first
    # the slow ones could not be checked in time: left out, as any default that does not fit
    assert [(fields[f"f{i}"].default, fields[f"f{i}"].default_ignored) for i in range(255)] == [(None, True)] * 255
    assert pattern.engine.kills - kills <= 2  # before: one kill per field, 19 s of UI thread


def test_nothing_to_check_starts_no_worker(fresh):
    assert fresh.check_all([]) == []
    assert fresh.starts == 0
    fresh.check_all([("^a", "a")])
    fresh.close()
    assert fresh.check_all([("^a", "a")]) == [Verdict.MATCH]  # remembered: the worker stays stopped
    assert fresh.starts == 1
