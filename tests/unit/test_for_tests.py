"""Helpers for tests (issue 40 item 5): a procedure or function marked
``for_tests: true`` is for scenarios' ``run:`` steps, so W104 does not call
it unused, and W109 says where a rule calls it."""

from __future__ import annotations

import textwrap

from helpers import diagnostics
from rulebook.compiler.build import compile_text

from rulebook.testing.scenarios import run_file

BODY = """
vars:
  score: 0
procedures:
  give:
    for_tests: true
    params: {n: int}
    effect: set score += n
  forgotten:
    effect: set score += 1
functions:
  doubled:
    for_tests: true
    value: "score * 2"
phases:
  main:
    on_begin: end game
"""


def _found(body: str) -> list[tuple[str, int, int, str]]:
    return [(d.code, d.line, d.column, d.message) for d in diagnostics(body)]


def test_a_helper_for_tests_is_not_called_unused_and_others_still_are():
    found = _found(BODY)
    assert [(c, m) for c, _, _, m in found] == [("W104", "procedure 'forgotten' is never called")]


def test_without_the_mark_the_warning_is_still_given():
    found = _found(BODY.replace("    for_tests: true\n    params", "    params"))
    assert {m for _, _, _, m in found} == {"procedure 'give' is never called", "procedure 'forgotten' is never called"}


def test_a_rule_calling_a_helper_for_tests_is_w109_at_the_call():
    body = BODY.replace("    on_begin: end game", "    on_begin: |\n      give(doubled())\n      end game")
    found = [f for f in _found(body) if f[0] == "W109"]
    # after the 5 head lines, the call is line 23: give at column 7, doubled at column 12
    assert [(c, line, col) for c, line, col, _ in found] == [("W109", 23, 7), ("W109", 23, 12)], found
    assert "procedure 'give' is marked for_tests" in found[0][3]
    assert "function 'doubled' is marked for_tests" in found[1][3]


def test_helpers_for_tests_may_call_each_other():
    body = BODY.replace("    effect: set score += n", "    effect: set score += n + doubled()")
    assert [f for f in _found(body) if f[0] == "W109"] == []


def test_a_scenario_run_step_calls_a_helper_for_tests(tmp_path):
    (tmp_path / "ruleset.yaml").write_text(textwrap.dedent("""
        rulebook: 1
        id: unit
        players: {min: 2, max: 2}
    """) + textwrap.dedent(BODY).replace("    on_begin: end game", "    turn: {actions: [pass]}")
        + "actions:\n  pass:\n    effect: end game\n")
    assert compile_text((tmp_path / "ruleset.yaml").read_text(), "r.yaml").program is not None
    (tmp_path / "give.yaml").write_text(textwrap.dedent("""
        ruleset: ruleset.yaml
        players: 2
        steps:
          - run: "give(3)"
          - expect: "score == 3 and doubled() == 6"
    """))
    outcome = run_file(tmp_path / "give.yaml")
    assert outcome.passed, [d.render() for d in outcome.failures]
