"""A scenario calls a function the ruleset calls only in text said to
everybody: the scenario's call is another variant of the function (not
said), checked and compiled with the scenario's own code. Its name must be
known before that code is written, which calls it (it was a KeyError)."""

from __future__ import annotations

from rulebook.testing.scenarios import run_file

RULESET = """\
rulebook: 1
id: said-only
players: {min: 2, max: 2}
components:
  card:
    for_each: {value: "range(1, 7)"}
zones:
  deck: {of: card}
vars:
  kept: 0
functions:
  half:
    params: {n: int}
    value: "n // 2"
  top_half:
    description: Calls another function, so it is called where it is used, not written there.
    value: "half(top(deck).value)"
setup: move components(card) to deck
phases:
  main:
    on_begin: |
      say "{top_half()}"
      end game
"""


def outcome(tmp_path, scenario: str):
    (tmp_path / "ruleset.yaml").write_text(RULESET)
    path = tmp_path / "scenario.yaml"
    path.write_text(scenario)
    return run_file(path)


def test_an_expectation_calls_a_function_said_only(tmp_path):
    result = outcome(tmp_path, 'name: said only\nexpect:\n  - "top_half() == 3"\n  - "half(5) == 2"\n')
    assert result.passed, [d.render() for d in result.failures]


def test_a_run_step_calls_a_function_said_only(tmp_path):
    result = outcome(tmp_path, 'name: said only\nsteps:\n  - run: "set kept = top_half() + 1"\n'
                               '  - expect: "kept == 4"\n')
    assert result.passed, [d.render() for d in result.failures]


def test_a_wrong_expectation_still_fails(tmp_path):
    result = outcome(tmp_path, 'name: said only\nexpect:\n  - "top_half() == 2"\n')
    assert not result.passed and "could not run" not in result.failures[0].message
