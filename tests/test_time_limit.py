"""Turn time limits (``turn: {time_limit, on_time_out}``): the engine
records a time-out like a decision, so saves, logs and replays reproduce it;
only ``rulebook play`` measures time, for human seats."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.errors import IllegalOptionError
from interpreter.game import Game
from validator.pipeline import compile_path, compile_text

RULESET = Path(__file__).parent / "data" / "timeout" / "ruleset.yaml"


def game(params=None):
    result = compile_path(RULESET)
    assert result.program is not None, [d.render() for d in result.report.errors]
    g = Game(result.program)
    return g, g.new(players=2, seed=1, params=params)


def test_the_pending_turn_carries_its_time_limit():
    g, st = game()
    assert g.to_move(st) == [0]
    assert g.time_limit(st, 0) == 10


def test_a_limit_of_zero_is_no_limit_and_time_out_is_refused():
    g, st = game({"seconds": 0})
    assert g.time_limit(st, 0) is None
    with pytest.raises(IllegalOptionError):
        g.time_out(st, 0)


def test_a_time_out_runs_on_time_out_and_ends_the_turn():
    g, st = game()
    g.time_out(st, 0)
    assert st.pvars[0]["penalties"] == 1 and st.pvars[0]["moves"] == 0
    assert g.to_move(st) == [1]  # the turn passed on without an action
    for _ in range(3):
        p = g.to_move(st)[0]
        g.apply(st, p, 0)
    assert st.over and st.winners == [1]
    assert [0, None, "time_out"] in st.history


def test_a_state_waiting_after_a_time_out_saves_and_resumes():
    g, st = game()
    g.time_out(st, 0)
    data = json.loads(json.dumps(g.save(st)))
    again = g.load(data)
    assert again.pvars == st.pvars and g.to_move(again) == [1]


def test_a_log_with_a_time_out_replays(tmp_path):
    from rulebook.logs import LogWriter, read, replay

    g, st = game()
    path = tmp_path / "game.jsonl"
    log = LogWriter(str(path), g, st, 1, str(RULESET))
    log.time_out(0)
    g.time_out(st, 0)
    while not st.over:
        p = g.to_move(st)[0]
        log.decision(p, g.legal_values(st, p)[0], "move")
        g.apply(st, p, 0)
    log.end(st)
    states = replay(g, read(path))
    assert states[-1].over and states[-1].winners == st.winners == [1]


def test_on_time_out_without_a_time_limit_is_E044():
    text = RULESET.read_text().replace("      time_limit: seconds\n", "")
    result = compile_text(text, "t.yaml")
    assert [(d.code, d.line) for d in result.report.errors] == [("E044", 12)]


def test_a_time_limit_must_be_a_number_E041():
    text = RULESET.read_text().replace("time_limit: seconds", "time_limit: \"'soon'\"")
    result = compile_text(text, "t.yaml")
    assert [d.code for d in result.report.errors] == ["E041"]


# ---------------------------------------------------------------- end rules before an empty decision
ENDS_WHEN_EMPTY = """\
rulebook: 1
id: last-stick
players: {min: 2, max: 2}
vars:
  sticks: 2
  last: {type: player, initial: none}
actions:
  take:
    if: sticks > 0
    effect: |
      set sticks -= 1
      set last = player
phases:
  play:
    turn:
      actions: [take]
    next: play
end:
  no_sticks:
    if: sticks == 0
    winners: "[last]"
"""


def test_end_rules_are_checked_before_a_decision_with_no_options():
    """Found by the tutorial: with nothing left to take, R101 was raised
    before the end rules (checked before every decision) had their turn."""
    g = Game(compile_text(ENDS_WHEN_EMPTY, "u.yaml").program)
    st = g.new(players=2, seed=0)
    g.apply(st, 0, 0)
    g.apply(st, 1, 0)
    assert st.over and st.winners == [1]
