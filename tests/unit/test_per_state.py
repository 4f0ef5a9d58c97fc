"""Functions that keep their values while one decision is made (compiler/per_state.py,
interpreter/memo.py): which are kept, each case in a small ruleset given as data;
the memo exists only while a decision's options, conditions and end rules are
computed, never at rest, in a clone or a save; the games, and the work budget spent,
are those without it."""

from __future__ import annotations

import random

import pytest
from helpers import compile_ok
from rulebook.compiler import code as code_module
from rulebook.compiler.build import compile_path
from rulebook.interpreter.game import Game
from rulebook.interpreter.playout import playout

RULES = """
components:
  card:
    for_each: {rank: "range(1, 9)", suit: "['a', 'b', 'c']"}
zones:
  deck: {of: card, visibility: hidden}
  hand: {of: card, per: player, visibility: owner}
  pile: {of: card}
functions:
  playable:
    params: {c: card}
    value: "is_empty(pile) or c.rank > top(pile).rank or c.suit == top(pile).suit"
  can_play:
    params: {p: player}
    value: "any(hand[p], c => playable(c))"
  high_cards:
    params: {p: player}
    value: "filter(hand[p], c => c.rank > 4)"
  lucky:
    params: {p: player}
    value: "count(filter(hand[p], c => roll(6) > 3)) >= 0"
  total:
    params: {cs: "list of card"}
    value: "sum(cs, c => c.rank)"
setup: |
  move components(card) to deck
  shuffle deck
  deal 5 from deck to hand
actions:
  play:
    params: {c: "high_cards(player) + hand[player]"}
    require: "playable(c) and lucky(player) and total(hand[player]) >= 0"
    effect: |
      move c to pile
  draw:
    if: "not can_play(player) and not is_empty(deck) and total(hand[player]) >= 0"
    effect: |
      move top(deck) to hand[player]
  pass:
    if: "not can_play(player) and is_empty(deck) and lucky(player)"
    effect: |
      say "{player} passes."
phases:
  play:
    turn:
      actions: [play, draw, pass]
end:
  stuck:
    if: "is_empty(deck) and not can_play(players[0]) and not can_play(players[1])"
  out:
    if: "is_empty(hand[players[0]]) or is_empty(hand[players[1]])"
scoring:
  score: "0 - count(hand[player])"
"""

# function -> whether it keeps its values while a decision is made, and why
CASES = {
    "can_play": (True, "a query, asked by the actions' conditions and the end rules"),
    "playable": (False, "asked by all three, but a few look-ups: cheaper than keeping it"),
    "high_cards": (False, "asked only by the options"),
    "lucky": (False, "draws at random"),
    "total": (False, "keyed by a list"),
}


@pytest.fixture(scope="module")
def game():
    return compile_ok(RULES)


@pytest.fixture(scope="module")
def plain():
    saved = code_module.memoised_functions
    code_module.memoised_functions = lambda checked, pure, tabled: set()
    try:
        return compile_ok(RULES)
    finally:
        code_module.memoised_functions = saved


@pytest.mark.parametrize("name", list(CASES))
def test_which_functions_keep_their_values(game, name):
    kept, why = CASES[name]
    src = game.program.source
    assert (f"def fn_{name}_value(" in src) == kept, why


def _public(game, seed):
    st = game.new(players=2, seed=seed)
    rnd = random.Random(seed)
    rest = []
    while not st.over:
        for p in game.to_move(st):
            game.apply(st, p, rnd.randrange(len(game.options(st, p))))
            rest.append((st.memo, st.work))
    return st, rest


def test_games_and_work_are_the_same_without_the_memo(game, plain):
    assert "st.memo = {}" in game.program.source and "st.memo = {}" not in plain.program.source
    for seed in range(8):
        (a, rest_a), (b, rest_b) = _public(game, seed), _public(plain, seed)
        assert a.to_data() == b.to_data()
        assert rest_a == rest_b  # no memo at rest, and the same work counted at every decision
        a, b = game.new(players=2, seed=seed), plain.new(players=2, seed=seed)
        playout(a, draw=random.Random(seed).random)
        playout(b, draw=random.Random(seed).random)
        assert a.to_data() == b.to_data() and a.memo is None


def test_the_memo_is_open_while_the_decision_is_made_and_holds_true_values(game):
    """The end rules run after the options and conditions (the run loop's
    check before a decision): the memo is there, filled by them."""
    prog = game.program
    seen = []
    check_end = prog.check_end

    def spy(st):
        if st.memo:
            seen.append(dict(st.memo))
            fn = prog.module["fn_can_play_value"]
            for (name, *args), (value, _work) in st.memo.items():
                assert name == "fn_can_play" and value == fn(st, None, *args)
        return check_end(st)

    prog.check_end = spy
    try:
        st, _ = _public(game, 3)
    finally:
        prog.check_end = check_end
    assert seen and st.memo is None


def test_a_clone_and_a_save_have_no_memo(game):
    st = game.new(players=2, seed=1)
    st.memo = {("fn_can_play", 0): (True, 0)}  # as while a decision is made
    assert st.clone().memo is None
    assert "memo" not in st.to_data()
    st.memo = None


def test_reversi_plays_the_same_games_without_the_memo(monkeypatch):
    path = "examples/reversi/ruleset.yaml"
    with_memo = Game(compile_path(path).program)
    assert "fn_can_move_value" in with_memo.program.source
    monkeypatch.setattr(code_module, "memoised_functions", lambda checked, pure, tabled: set())
    without = Game(compile_path(path).program)
    assert "fn_can_move_value" not in without.program.source
    for seed in range(3):
        a, b = with_memo.new(players=2, seed=seed), without.new(players=2, seed=seed)
        playout(a, draw=random.Random(seed).random)
        playout(b, draw=random.Random(seed).random)
        assert a.history == b.history and a.winners == b.winners


def test_deep_calls_are_looked_at_once_each_by_both_passes():
    """Seven levels of ten calls, reached by an action's options and its
    condition: the tabling and memo passes look at each function once (they
    followed every call before, ten million times at the last level)."""
    import time

    from rulebook.compiler.build import compile_text

    from tests.helpers import ruleset

    levels = ["  f0:\n    params: {n: int}\n    value: \"count(filter(range(1, 4), k => k > n))\""]
    for k in range(1, 8):
        calls = " + ".join([f"f{k - 1}(n)"] * 10)
        levels.append(f"  f{k}:\n    params: {{n: int}}\n    value: \"{calls}\"")
    text = ruleset("functions:\n" + "\n".join(levels) + "\n" + """
vars:
  x: 0
actions:
  go:
    params: {n: "filter(range(0, 3), k => f7(k) >= 0)"}
    if: "f7(0) > 0"
    effect: set x = n
phases:
  p:
    turn:
      actions: [go]
end:
  done:
    if: "f7(x) < 0 or x > 0"
scoring:
  score: "x"
""")
    start = time.process_time()
    result = compile_text(text, "unit.yaml")
    assert time.process_time() - start < 10, "the passes followed every call"
    assert result.program is not None, [d.render() for d in result.report.errors]
