"""A scenario step can run statements between two decisions: to fix what
chance gave inside a phase (dice rolled at the start of a round, a deck
dealt each hand), which a scenario's setup, run before the first phase,
cannot reach."""

from __future__ import annotations

import textwrap

from rulebook.testing.scenarios import run_file

RULESET = """
rulebook: 1
id: guess
title: Guess
players: {min: 2, max: 2}
components:
  die:
    count: 2
    state: {face: 1}
zones:
  cup: {per: player, of: die, visibility: owner}
setup: |
  move first(components(die)) to cup[0]
  move last(components(die)) to cup[1]
actions:
  high:
    effect: |
      if top(cup[player]).face >= 4:
          say "{player} wins"
          end game winners [player]
      end game winners [next_player(player)]
phases:
  round:
    on_begin: |
      for d in components(die):
          set d.face = roll(6)
    turn:
      actions: [high]
    next: round
"""


def run(tmp_path, scenario: str):
    (tmp_path / "ruleset.yaml").write_text(RULESET)
    path = tmp_path / "scenario.yaml"
    path.write_text(textwrap.dedent(scenario))
    return run_file(path)


def test_a_run_step_fixes_a_roll_made_inside_a_phase(tmp_path):
    for face, winners in ((6, [0]), (2, [1])):
        outcome = run(tmp_path, f"""
        steps:
          - run: "set top(cup[player]).face = {face}"
          - expect: "top(cup[0]).face == {face} and player == 0"
          - {{player: 0, option: high}}
        winners: {winners}
        """)
        assert outcome.passed, [d.render() for d in outcome.failures]


def test_a_run_step_cannot_ask_for_a_decision(tmp_path):
    outcome = run(tmp_path, """
    steps:
      - run: |
          choose n from [1, 2] by 0
    """)
    assert not outcome.passed
    assert [d.message for d in outcome.failures] == [
        "a run step cannot ask for a decision (choose, simultaneous)"]


def test_a_run_step_with_a_mistake_is_reported_where_it_is(tmp_path):
    outcome = run(tmp_path, """
    steps:
      - run: "set top(cup[player]).fase = 6"
    """)
    assert not outcome.passed
    (diag,) = outcome.failures
    assert diag.code == "E032" and diag.line == 3


def test_a_step_for_a_player_the_game_does_not_have_says_so(tmp_path):
    outcome = run(tmp_path, """
    steps:
      - {player: 7, option: high}
    """)
    (diag,) = outcome.failures
    assert diag.message == "player 7 is not a player of this 2-player game"
    assert diag.hint == "scenario players are numbered from 0 to 1"


def test_a_misspelt_step_field_gets_a_suggestion(tmp_path):
    outcome = run(tmp_path, """
    stepz:
      - {player: 0, option: high}
    """)
    (diag,) = outcome.failures
    assert diag.message == "unknown scenario field 'stepz'" and diag.hint == "did you mean 'steps'?"
