"""Staged choices: an action with 'staged: true' asks its parameters one
after another (issue 20, feature 4)."""

from __future__ import annotations

import json

from rulebook.agents.base import RandomAgent, play_out
from rulebook.interpreter.narrate import narrate

from tests.helpers import codes, compile_ok

BIDS = """
vars:
  bid: {type: list of int, initial: "[0, 0]"}
  calls: 0
actions:
  raise:
    staged: true
    params:
      quantity: "range(1, 6)"
      face: "range(1, 7)"
      sure: "[false, true] if quantity > 3 else [false]"
    require: "quantity > bid[0] or (quantity == bid[0] and face > bid[1])"
    label: "bid {quantity} x {face}{'!' if sure else ''}"
    effect: |
      set bid = [quantity, face]
  call:
    if: "bid[0] > 0"
    effect: |
      end game
phases:
  main:
    turn:
      actions: [raise, call]
    next: main
"""


def labels(game, st):
    return game.options(st, game.to_move(st)[0]).labels


def test_stages_narrow_one_parameter_at_a_time():
    game = compile_ok(BIDS)
    st = game.new(2, seed=0)
    st.record = True
    assert labels(game, st) == [f"raise quantity {q} ..." for q in range(1, 6)]
    assert game.options(st, 0).staged
    assert len(game.options(st, 0).flat) == 3 * 6 + 2 * 12
    game.apply(st, 0, 4)  # quantity 5
    assert game.prompt(st, 0) == "raise (quantity 5): face?"
    assert labels(game, st) == [f"raise quantity 5, face {f} ..." for f in range(1, 7)]
    game.apply(st, 0, 1)  # face 2
    assert game.prompt(st, 0) == "raise (quantity 5, face 2): sure?"
    assert labels(game, st) == ["bid 5 x 2", "bid 5 x 2!"]
    game.apply(st, 0, 1)
    assert st.vars["bid"] == [5, 2]
    assert game.to_move(st) == [1]
    # a value only one combination has is offered whole; quantities below the bid are gone
    assert labels(game, st) == ["raise quantity 5 ...", "call"]
    told = narrate(st, st.events, None)
    assert "P1: bid 5 x 2!." in told and not any("..." in line for line in told)


def test_flat_options_and_replays():
    game = compile_ok(BIDS)
    st = game.new(2, seed=0)
    flat = game.options(st, 0).flat
    pick = next(o for o in flat if o.label == "bid 4 x 6!")
    assert pick.whole and flat.labels[pick.index] == "bid 4 x 6!"
    game.apply(st, 0, pick)
    assert st.vars["bid"] == [4, 6] and game.to_move(st) == [1]
    assert len(st.history) == 3  # one decision per stage: quantity, face, sure
    # the stages are decisions of the history: a save replays them
    again = game.load(json.loads(json.dumps(game.save(st))))
    assert again.vars == st.vars and again.history == st.history


def test_random_games_and_clones_mid_stage():
    game = compile_ok(BIDS)
    for seed in range(20):
        st = game.new(2, seed=seed)
        play_out(game, st, [RandomAgent(seed), RandomAgent(seed + 1)])
        assert st.over
    st = game.new(2, seed=0)
    game.apply(st, 0, 2)
    copy = game.clone(st)
    for s in (st, copy):
        game.apply(s, 0, 3)
    assert st.vars == copy.vars


def test_mcts_searches_the_stages():
    from rulebook.agents.base import decide
    from rulebook.agents.mcts import MCTSAgent

    game = compile_ok(BIDS)
    st = game.new(2, seed=0)
    agent = MCTSAgent(seed=0, iterations=30)
    for _ in range(4):
        if st.over:
            break
        p = game.to_move(st)[0]
        game.apply(st, p, decide(game, st, p, agent.decide))
    assert st.history  # the search ran through stage decisions (a partial answer is a decision)


def test_a_later_parameter_is_refused_at_load():
    found = codes(BIDS.replace('face: "range(1, 7)"', 'face: "range(1, sure + 7)"'))
    assert found == ["E030"]


def test_staged_needs_two_parameters():
    found = codes("""
actions:
  go:
    staged: true
    params:
      n: "range(3)"
    effect: end game
phases:
  main:
    turn:
      actions: [go]
""")
    assert found == ["E013"]


def test_a_human_goes_back_to_the_first_stage(tmp_path):
    from click.testing import CliRunner

    from rulebook.cli.main import cli
    from tests.helpers import HEAD

    path = tmp_path / "bids.yaml"
    path.write_text(HEAD + BIDS)
    # P1: quantity 2, back, quantity 1, face 3; the bot answers for P2
    result = CliRunner().invoke(cli, ["play", str(path), "--human", "1", "--seed", "0"], input="2\nb\n1\n3\nq\ny\n",
                                catch_exceptions=False)
    out = result.output
    assert "raise (quantity 2): face?" in out and "raise (quantity 1): face?" in out, out
    assert "P1: raise quantity 1, face 3." in out or "P1: bid 1 x 3." in out, out


def test_each_stage_has_the_turns_time_limit():
    timed = BIDS.replace("      actions: [raise, call]", "      actions: [raise, call]\n      time_limit: 30")
    game = compile_ok(timed)
    st = game.new(2, seed=0)
    assert game.time_limit(st, 0) == 30
    game.apply(st, 0, 4)
    assert game.time_limit(st, 0) == 30
    game.time_out(st, 0)  # the turn ends without an action
    assert game.to_move(st) == [1] and st.vars["bid"] == [0, 0]


HUNT = """
components:
  ground:
    items: [{item: hunting grounds}, {item: forest}]
    label: "{self.item}"
zones:
  board: {of: ground}
setup: |
  for g in components(ground):
      move g to board
actions:
  place:
    staged: true
    params:
      s: "board"
      n: "range(1, 3)"
    param_labels: {s: space, n: workers}
    label: "place {n} on {s.item}"
    effect: end game
phases:
  main:
    turn:
      actions: [place]
"""


def test_stages_name_parameters_by_their_labels_and_components_by_theirs():
    game = compile_ok(HUNT)
    st = game.new(2, seed=0)
    assert sorted(labels(game, st)) == ["place space forest ...", "place space hunting grounds ..."]
    game.apply(st, 0, labels(game, st).index("place space hunting grounds ..."))
    assert game.prompt(st, 0) == "place (space hunting grounds): workers?"
    assert labels(game, st) == ["place 1 on hunting grounds", "place 2 on hunting grounds"]


def test_a_label_for_no_parameter_is_refused():
    assert codes(HUNT.replace("{s: space, n: workers}", "{s: space, m: workers}")) == ["E036"]
