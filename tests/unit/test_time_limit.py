"""Turn time limits (``turn: {time_limit, on_time_out}``): the engine
records a time-out like a decision, so saves, logs and replays reproduce it;
only ``rulebook play`` measures time, for human seats."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rulebook.compiler.build import compile_path, compile_text
from rulebook.interpreter.errors import IllegalOptionError
from rulebook.interpreter.game import Game

RULESET = Path(__file__).parents[1] / "data" / "timeout" / "ruleset.yaml"


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
    from rulebook.files.logs import LogWriter, read, replay

    g, st = game()
    path = tmp_path / "game.jsonl"
    log = LogWriter(str(path), g, st, 1, str(RULESET))
    log.time_out(0)
    g.time_out(st, 0)
    while not st.over:
        p = g.to_move(st)[0]
        log.decision(p, g.options(st, p).plain[0], "move")
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


# ---------------------------------------------------------------- simulated players who dawdle
def test_simulated_time_outs_follow_the_rate_and_a_rate_of_zero_changes_nothing():
    from rulebook.simulate.run import play_game

    g, _ = game()
    runs = {rate: [play_game(g, 2, i, 100 + i, ["random", "random"], time_outs=rate, keep_history=True)
                   for i in range(40)] for rate in (0.0, 0.3)}
    plain = [play_game(g, 2, i, 100 + i, ["random", "random"], keep_history=True) for i in range(40)]
    assert [r.history for r in runs[0.0]] == [r.history for r in plain]
    assert not any(len(h) > 2 for r in plain for h in r.history)
    timed = [h for r in runs[0.3] for h in r.history]
    outs = sum(1 for h in timed if len(h) > 2 and h[2] == "time_out")
    assert all(r.error is None for r in runs[0.3])
    assert 0.15 < outs / len(timed) < 0.45  # about 0.3 of the (all timed) turns ran out
    # a time-out costs the turn: whoever times out more often tends to lose, and the penalty is counted
    assert any(r.winners != p.winners for r, p in zip(runs[0.3], plain))


def test_simulated_time_outs_are_the_same_in_the_agent_loop_and_the_fast_loop():
    from rulebook.simulate.run import play_game

    g, _ = game()
    for i in range(10):
        fast = play_game(g, 2, i, i, ["random", "random"], fast=True, time_outs=0.4, keep_history=True)
        slow = play_game(g, 2, i, i, ["random", "random"], fast=False, time_outs=0.4, keep_history=True)
        assert fast.history == slow.history


def test_a_rate_leaves_games_without_time_limits_alone():
    from rulebook.simulate.run import play_game

    g = Game(compile_path(Path(__file__).parents[2] / "examples" / "pig" / "ruleset.yaml").program)
    for i in range(5):
        a = play_game(g, 2, i, i, ["random", "random"], time_outs=0.9, keep_history=True)
        b = play_game(g, 2, i, i, ["random", "random"], keep_history=True)
        assert a.history == b.history


def test_cli_time_outs_are_logged_and_every_log_replays(tmp_path, capsys):
    from tests.helpers import run_main

    logs = tmp_path / "logs"
    code, out, _ = run_main(capsys, "simulate", RULESET, "-n", "4", "-q", "--time-outs", "0.5", "--logs", logs)
    assert code == 0 and "errors: 0" in out
    assert re.search(r"time-outs \(--time-outs\): \d+ of \d+ timed decisions", out)
    seen = 0
    assert f"replay one with: rulebook replay FILE --game {RULESET}" in out  # not on the search path
    for f in sorted(logs.iterdir()):
        code, shown, _ = run_main(capsys, "replay", f, "--game", RULESET)
        assert code == 0 and "replay reproduces the log" in shown
        seen += shown.count("time ran out")
    assert seen > 0


@pytest.mark.parametrize("rate", ["-0.1", "1.5", "often"])
def test_cli_a_rate_outside_zero_to_one_is_a_usage_error(tmp_path, capsys, rate):
    from tests.helpers import run_main

    code, _, err = run_main(capsys, "simulate", RULESET, "-n", "1", "-q", "--time-outs", rate)
    assert code == 2 and "--time-outs" in err


WITHIN = """\
rulebook: 1
id: within
players: {min: 2, max: 2}
vars:
  picks: {type: list of int, initial: "[]"}
phases:
  ask:
    on_begin: |
      choose n from [3, 1, 2] by 0 within 5 prompt "how many?"
      append n to picks
      simultaneous for p in players:
          choose k from [7, 8] by p within seconds(p)
          append k to picks
      choose m from [4, 5] by 1 within 0
      append m to picks
      end game
functions:
  seconds:
    params: {p: player}
    value: "10 if p == 1 else 0"
"""


def _within():
    result = compile_text(WITHIN, "within.yaml")
    assert result.program is not None, [d.render() for d in result.report.errors]
    g = Game(result.program)
    return g, g.new(players=2, seed=1)


def test_a_choose_within_takes_its_first_option_when_the_time_runs_out():
    g, st = _within()
    assert g.time_limit(st, 0) == 5
    g.time_out(st, 0)
    assert st.history[-1] == [0, None, "time_out"] and st.vars["picks"] == [3]
    # in a simultaneous choice each chooser has its own limit (P1 none, P2 ten seconds)
    assert g.time_limit(st, 0) is None and g.time_limit(st, 1) == 10
    with pytest.raises(IllegalOptionError):
        g.time_out(st, 0)
    g.apply(st, 0, 1)
    g.time_out(st, 1)
    assert st.vars["picks"] == [3, 8, 7]
    assert g.time_limit(st, 1) is None  # within 0: no limit
    g.apply(st, 1, 1)
    assert st.over and st.vars["picks"] == [3, 8, 7, 5]


def test_a_game_with_choose_time_outs_saves_and_replays():
    g, st = _within()
    g.time_out(st, 0)
    g.apply(st, 0, 0)
    g.time_out(st, 1)
    again = g.load(json.loads(json.dumps(g.save(st))))
    assert again.to_data() == st.to_data()
