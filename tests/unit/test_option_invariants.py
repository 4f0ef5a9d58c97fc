"""Calls in an action's ``require`` computed once per menu (compiler/option_invariants.py):
which calls are kept, each case in a small ruleset given as data; the games, the
options and the work counted at every decision are those without the pass, and a
work budget spent in such a call stops the game at the same decision."""

from __future__ import annotations

import random
import re

import pytest
from rulebook.compiler import code as code_module
from rulebook.compiler import option_invariants
from rulebook.compiler.build import compile_text
from rulebook.interpreter.errors import RuleError
from rulebook.interpreter.game import Game
from rulebook.interpreter.playout import playout

from tests.helpers import HEAD

RULES = """
components:
  card:
    for_each: {rank: "range(1, 9)", suit: "['a', 'b', 'c']"}
zones:
  deck: {of: card, visibility: hidden}
  hand: {of: card, per: player, visibility: owner}
  pile: {of: card}
functions:
  opening:
    value: "all(players, q => is_empty(pile)) and small()"
  holds_suit:
    params: {s: str}
    value: "any(hand[player], x => x.suit == s)"
  same_rank:
    params: {c: card}
    value: "count(filter(hand[player], x => x.rank == c.rank))"
  lucky:
    value: "count(filter(hand[player], x => roll(6) > 3)) >= 0"
  nested:
    value: "any(hand[player], x => x.rank > 7)"
  small:
    value: "count(pile) < 40"
setup: |
  move components(card) to deck
  shuffle deck
  deal 6 from deck to hand
actions:
  play:
    params: {c: "hand[player]"}
    require: "REQUIRE"
    effect: |
      move c to pile
  draw:
    if: "not is_empty(deck)"
    effect: |
      move top(deck) to hand[player]
phases:
  play:
    turn:
      actions: [play, draw]
end:
  out:
    if: "is_empty(hand[players[0]]) or is_empty(hand[players[1]]) or is_empty(deck)"
scoring:
  score: "0 - count(hand[player])"
""".replace("REQUIRE", "(true if opening() else (c.suit == top(pile).suit or not holds_suit(top(pile).suit)"
            " or holds_suit('a') or holds_suit('b'))) and same_rank(c) > 0 and lucky() and small()"
            " and (c.rank > 0 or any(hand[player], y => nested()))")

# a call of the require -> whether it is computed once per menu, and why
CASES = {
    "opening": (True, "a query, and its arguments read no parameter"),
    "holds_suit": (True, "each call with arguments of its own (top(pile).suit, 'a', 'b') is kept apart"),
    "same_rank": (False, "its argument reads the parameter c"),
    "lucky": (False, "draws at random"),
    "small": (False, "a look-up: no work worth keeping"),
    "nested": (False, "inside a query, where a name is bound"),
}


def _compile(monkeypatch, text: str, limits=None, keep: bool = True) -> Game:
    monkeypatch.setenv("RULEBOOK_CACHE", "off")
    monkeypatch.setattr(code_module, "memoised_functions", lambda checked, pure, tabled: set())
    with monkeypatch.context() as m:
        if not keep:
            m.setattr(option_invariants, "plan", lambda mod, require, params: {})
        result = compile_text(HEAD + text, "unit.yaml", (), limits)
    assert result.program is not None, "\n".join(d.render() for d in result.report.errors)
    return Game(result.program)


@pytest.fixture
def both(monkeypatch):
    return _compile(monkeypatch, RULES), _compile(monkeypatch, RULES, keep=False)


@pytest.mark.parametrize("name", list(CASES))
def test_which_calls_are_kept_for_every_option(both, name):
    kept, why = CASES[name]
    src = both[0].program.source
    assert bool(re.search(rf":= fn_{name}\(", src)) == kept, why
    assert not re.search(rf":= fn_{name}\(", both[1].program.source)


def test_each_kept_call_has_its_own_value(both):
    src = both[0].program.source
    assert len(re.findall(r"_once\d+_w = None", src)) == 4  # opening, and holds_suit of three arguments


def _decisions(game, seed):
    st = game.new(players=2, seed=seed)
    rnd = random.Random(seed)
    seen = []
    while not st.over:
        for p in game.to_move(st):
            labels = game.options(st, p).labels
            seen.append((labels, st.work))
            game.apply(st, p, rnd.randrange(len(labels)))
    return st, seen


def test_games_options_and_work_are_the_same_without_the_pass(both):
    kept, plain = both
    for seed in range(10):
        (a, seen_a), (b, seen_b) = _decisions(kept, seed), _decisions(plain, seed)
        assert seen_a == seen_b  # the same options, and the same work counted, at every decision
        assert a.to_data() == b.to_data() and a.history == b.history
        a, b = kept.new(players=2, seed=seed), plain.new(players=2, seed=seed)
        playout(a, draw=random.Random(seed).random)
        playout(b, draw=random.Random(seed).random)
        assert a.to_data() == b.to_data()


def test_a_state_written_between_menus_is_read_again(both):
    """The kept value lives for one menu: after a card is played (a write),
    the next menu asks the functions again."""
    kept, plain = both
    st_a, st_b = kept.new(players=2, seed=4), plain.new(players=2, seed=4)
    for _ in range(6):
        p = kept.to_move(st_a)[0]
        opts_a, opts_b = kept.options(st_a, p).labels, plain.options(st_b, p).labels
        assert opts_a == opts_b
        pick = next((i for i, label in enumerate(opts_a) if label.startswith("play")), 0)
        kept.apply(st_a, p, pick)
        plain.apply(st_b, p, pick)
        if st_a.over:
            break
    assert st_a.to_data() == st_b.to_data()


@pytest.mark.parametrize("budget", [40, 70, 90, 120, 150])
def test_the_work_budget_stops_the_game_at_the_same_decision(monkeypatch, budget):
    kept = _compile(monkeypatch, RULES, limits={"max_work": budget})
    plain = _compile(monkeypatch, RULES, limits={"max_work": budget}, keep=False)

    def run(game):
        rnd = random.Random(2)
        steps, st = 0, None
        try:
            st = game.new(players=2, seed=2)
            while not st.over:
                for p in game.to_move(st):
                    game.apply(st, p, rnd.randrange(len(game.options(st, p).labels)))
                    steps += 1
        except RuleError as err:
            return steps, err.code, st and st.work
        return steps, None, st.work

    assert run(kept) == run(plain)
