"""Chains of map/filter/flatten/range read as one loop (compiler/fused.py):
each consumer over each producer gives what the operations one after
another give, in the same order, ties and empty lists included; errors
are raised at the same rule place; the work budget still stops a loop
over a huge range.

Every case is a ruleset function ``c<i>(p, k)`` compiled twice: fused, and
with fusion turned off (``fused.chain_of`` answering None, so each operation
is written as before); both are called on every state of a few games, for
several ``k``, and must agree, and the fused module must read differently.
"""

from __future__ import annotations

import re
import textwrap

import pytest
from rulebook.compiler import code as code_module
from rulebook.compiler import fused
from rulebook.compiler.build import compile_text
from rulebook.interpreter.errors import RuleError
from rulebook.interpreter.game import Game

# (consumer, the expression): each producer under each consumer; k runs over KS
CASES = [
    # first, first with a condition
    ("first", "first(map(hand[p], c => c.value * k))"),
    ("first", "first(filter(map(deck, c => c.value), v => v > k))"),
    ("first", "first(range(k, 3))"),
    ("first_by", "first(filter(deck, c => c.value > k), c => c.value % 2 == 0)"),
    ("first_by", "first(flatten(map(players, q => filter(hand[q], c => c.value != k))), c => c.value > 2)"),
    # any, all, with or without a condition
    ("any", "any(map(deck, c => c.value > k))"),
    ("any", "any(range(0, k))"),
    ("all", "all(map(hand[p], c => c.value > k))"),
    ("any_not_none", "any(map(filter(deck, c => c.value > k), c => c))"),
    ("all_not_none", "all(map(players, q => first(filter(hand[q], c => c.value > k))))"),
    ("any_by", "any(filter(deck, c => c.value > k), c => c.value == 8)"),
    ("any_by", "any(range(k, 40), n => n * n == 49)"),
    ("all_by", "all(flatten(map(range(1, 4), n => range(0, n * k))), m => m < 7)"),
    ("all_by", "all(filter(map(deck, c => c.value), v => v > 2), v => v > k)"),
    # count compared with 0, is_empty
    ("nonempty", "count(filter(map(range(0, k), n => n * 2), m => m > 4)) > 0"),
    ("nonempty", "count(filter(map(range(0, k), n => n * 2), m => m > 4)) == 0"),
    ("nonempty", "1 <= count(flatten(map(deck, c => range(0, c.value - k))))"),
    ("nonempty", "is_empty(map(filter(flatten(map(players, q => hand[q] + [])), c => c.value > k), c => c.value))"),
    ("nonempty", "count(range(k, 4)) != 0"),
    # sum, with or without a function
    ("sum", "sum(map(filter(deck, c => c.value > k), c => c.value))"),
    ("sum", "sum(flatten(map(range(0, k), n => range(0, n))))"),
    ("sum_by", "sum(filter(range(k, 10), n => n % 3 == 0), n => n * n)"),
    ("sum_by", "sum(map(deck[1:k], c => c.value), v => v * 2)"),
    # max_by and min_by: ties go to the first
    ("max_by", "max_by(filter(deck, c => c.value < k + 3), c => c.value % 3)"),
    ("min_by", "min_by(map(range(0, 12), n => n - k), m => m * m)"),
    ("max_by", "max_by(flatten(map(players, q => top(hand[q], 2))), c => c.value)"),
    ("min_by", "min_by(filter(range(0, k * 30), n => n > 100), n => n % 7)"),  # empty when k < 4
    # lists: two operations or more, or one over a range
    ("list", "filter(map(range(0, k + 2), n => n * 3), m => m % 2 == 0)"),
    ("list", "flatten(map(deck[:k], c => [c.value, k]))"),
    ("list", "map(range(k, 6), n => n + 1)"),
    ("list", "map(filter(hand[p], c => c.value > k), c => c.value)"),
]
KS = (-1, 0, 2, 5, 9)

# errors: the answer needs every item, so both ways meet the failing one (8 // 0 where a card's value is k)
ERROR_CASES = [
    "sum(map(deck, c => 8 // (c.value - k)))",
    "all(filter(map(deck, c => c.value), v => 8 // (v - k) > -100))",
    "max_by(filter(deck, c => c.value != k), c => 8 // (c.value - k - 1))",
    "count(filter(flatten(map(deck, c => [8 // (c.value - k)])), v => v > 100)) > 0",
]

BODY = """
rulebook: 1
id: unit
title: Unit
players: {min: 2, max: 2}
components:
  card:
    for_each: {value: "range(1, 9)", suit: "['a', 'b']"}
zones:
  deck: {of: card}
  hand: {of: card, per: player}
functions:
FUNCTIONS
setup: |
  move components(card) to deck
  shuffle deck
actions:
  draw:
    effect: |
      move top(deck) to hand[player]
phases:
  play:
    turn:
      actions: [draw]
    end_if: "count(deck) == 0"
    next: done
  done:
    on_begin: |
      end game
"""


def ruleset(exprs: list[str]) -> str:
    fns = "".join(f"  c{i}:\n    params: {{p: player, k: int}}\n    value: \"{x}\"\n" for i, x in enumerate(exprs))
    return textwrap.dedent(BODY).replace("FUNCTIONS\n", fns)


def both(monkeypatch, text: str, limits=None) -> tuple[Game, Game]:
    """The ruleset compiled fused and not (no cache: the two modules differ).
    The functions here read only fixed data, so the tabling pass would write
    them as tables: it is turned off for both, so that this pass is seen alone."""
    monkeypatch.setenv("RULEBOOK_CACHE", "off")
    monkeypatch.setattr(code_module, "tabled_functions", lambda checked, created: {})
    fast = compile_text(text, "unit.yaml", (), limits)
    with monkeypatch.context() as m:
        m.setattr(fused, "chain_of", lambda e, xs: None)
        plain = compile_text(text, "unit.yaml", (), limits)
    for result in (fast, plain):
        assert result.program is not None, "\n".join(d.render() for d in result.report.errors)
    return Game(fast.program), Game(plain.program)


def outcome(fn, st, p, k):
    """What a call gives: its value, or the error's code and place."""
    try:
        return "value", fn(st, None, p, k)
    except RuleError as err:
        return "error", err.code, err.where


def body_of(game: Game, name: str) -> str:
    """The source of a generated function, its rule places unnumbered (the two modules number them apart)."""
    return re.sub(r"PLACE\[\d+\]", "PLACE[]", game.program.source.split(f"def {name}(")[1].split("\ndef ")[0])


def played_states(game: Game):
    """Every state of three games, from the start (empty hands) to the end (empty deck)."""
    for seed in range(3):
        st = game.new(players=2, seed=seed)
        while True:
            yield st
            if st.over:
                break
            game.apply(st, game.to_move(st)[0], 0)


@pytest.mark.parametrize("exprs", [[x for _, x in CASES]], ids=["cases"])
def test_each_consumer_over_each_producer_gives_the_unfused_answer(monkeypatch, exprs):
    fast, plain = both(monkeypatch, ruleset(exprs))
    for i, x in enumerate(exprs):  # each case is written differently once fused
        assert body_of(fast, f"fn_c{i}") != body_of(plain, f"fn_c{i}"), x
    answers = {i: set() for i in range(len(exprs))}
    for st in played_states(fast):
        for i, x in enumerate(exprs):
            for p in (0, 1):
                for k in KS:
                    got = outcome(fast.program.module[f"fn_c{i}"], st, p, k)
                    assert got == outcome(plain.program.module[f"fn_c{i}"], st, p, k), (x, p, k)
                    answers[i].add(repr(got))
    dull = [exprs[i] for i, seen in answers.items() if len(seen) < 2]
    assert not dull, f"cases that always gave one answer: {dull}"


def test_ties_in_max_by_and_min_by_go_to_the_first_item(monkeypatch):
    fast, _ = both(monkeypatch, ruleset(["min_by(map(range(0, 12), n => 2 * n - k), m => m * m)",
                                         "max_by(filter(range(0, 9), n => n > k), n => n % 3)"]))
    st = fast.new(players=2, seed=1)
    fn = fast.program.module
    assert fn["fn_c0"](st, None, 0, 5) == -1 and fn["fn_c0"](st, None, 0, 3) == -1  # -1 and 1 tie: -1 first
    assert fn["fn_c1"](st, None, 0, 0) == 2  # 2, 5 and 8 tie (2 % 3 is the most): 2 is the first
    assert fn["fn_c1"](st, None, 0, 9) is None  # an empty list


@pytest.mark.parametrize("expr", ERROR_CASES)
def test_an_error_is_raised_at_the_same_rule_place(monkeypatch, expr):
    fast, plain = both(monkeypatch, ruleset([expr]))
    errors = 0
    for st in played_states(fast):
        for k in (1, 4, 8, 20):
            got = outcome(fast.program.module["fn_c0"], st, 0, k)
            assert got == outcome(plain.program.module["fn_c0"], st, 0, k), k
            errors += got[0] == "error"
    assert errors, "the case never failed"


@pytest.mark.parametrize("expr", ["any(range(0, 100000), n => n < 0)",
                                  "count(filter(map(range(0, 100000), n => n * 2), m => m < 0)) > 0",
                                  "sum(filter(flatten(map(range(0, 1000), n => range(0, 1000))), m => m < 0))",
                                  "first(filter(map(range(0, 100000), n => n + 1), m => m < 0))"])
def test_the_work_budget_still_stops_a_loop_over_a_huge_range(monkeypatch, expr):
    fast, plain = both(monkeypatch, ruleset([expr]), limits={"max_work": 5000})
    st = fast.new(players=2, seed=1)
    got = outcome(fast.program.module["fn_c0"], st, 0, 1)
    assert got[0] == "error" and got[1] == "R100"
    assert got == outcome(plain.program.module["fn_c0"], plain.new(players=2, seed=1), 0, 1)


def test_a_range_is_read_as_a_python_range_and_a_search_stops_at_its_answer(monkeypatch):
    """``count(xs) > 0`` of a chain is a search that returns at the first
    item: no list of the range, of the map or of the filter is made."""
    fast, _ = both(monkeypatch, ruleset(["count(filter(map(range(0, k), n => n * 2), m => m > 4)) > 0"]))
    src = fast.program.source
    search = src.split("def has_items_fn_c0(")[1].split("\ndef ")[0]
    assert "numbers(" not in search and "span(0, k_2" in search and "return True" in search
    assert "[" not in search.replace("PLACE[", "")  # no list made
    assert "has_items_fn_c0(st, " in body_of(fast, "fn_c0")


def test_a_chain_that_draws_at_random_is_not_fused(monkeypatch):
    """Fusing it would skip or reorder draws, and so change the game."""
    fast, plain = both(monkeypatch, ruleset(["first(filter(map(deck, c => roll(6)), v => v > k))"]))
    assert body_of(fast, "fn_c0") == body_of(plain, "fn_c0")
