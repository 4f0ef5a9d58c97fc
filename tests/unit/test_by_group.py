"""``min_by_group`` and ``max_by_group``: of each group of items, the one
whose value is least (greatest), the first among equals, kept in the
order of the list; the same items as the quadratic formulation a ruleset
would otherwise write (a filter asking of each item whether another of its
group beats it), in one pass."""

from __future__ import annotations

import pytest
from helpers import codes, compile_ok

RULES = """
components:
  card:
    for_each: {suit: "['red', 'blue', 'green']", value: "range(1, 5)"}
    copies: 2
zones:
  deck: {of: card}
  pile: {of: card, per: player}
functions:
  tops:
    params: {}
    value: "max_by_group(deck, c => c.suit, c => c.value)"
  tops_slow:
    params: {}
    value: "filter(deck, c => all(deck, d => d.suit != c.suit or d.value < c.value or d.value == c.value
      and index_of(deck, d) >= index_of(deck, c)))"
  lows:
    params: {}
    value: "min_by_group(deck, c => c.suit, c => c.value)"
  lows_slow:
    params: {}
    value: "filter(deck, c => all(deck, d => d.suit != c.suit or d.value > c.value or d.value == c.value
      and index_of(deck, d) >= index_of(deck, c)))"
  pile_tops:
    params: {}
    value: "max_by_group(filter(components(card), c => zone(c) != none and zone(c) != deck),
      c => [zone(c), c.suit], c => c.value)"
  pile_tops_slow:
    params: {}
    value: "filter(components(card), c => zone(c) != none and zone(c) != deck and all(zone(c),
      d => d.suit != c.suit or d.value < c.value or d.value == c.value
      and index_of(components(card), d) >= index_of(components(card), c)))"
setup: |
  move components(card) to deck
  shuffle deck
  repeat 7:
    move top(deck) to pile[0]
  repeat 7:
    move top(deck) to pile[1]
phases:
  done:
    on_begin: |
      end game
"""


def test_grouped_extremes_keep_what_the_quadratic_filter_keeps():
    g = compile_ok(RULES)
    fns = g.program.module
    for seed in range(25):
        st = g.new(players=2, seed=seed)
        tops = fns["fn_tops"](st, None)
        assert tops == fns["fn_tops_slow"](st, None) and len(tops) == 3
        assert fns["fn_lows"](st, None) == fns["fn_lows_slow"](st, None)
        piles = fns["fn_pile_tops"](st, None)
        assert piles == fns["fn_pile_tops_slow"](st, None) and piles == sorted(piles)  # groups of zone and suit


def test_the_query_reads_each_item_once():
    src = compile_ok(RULES).program.source
    tops = src[src.index("def fn_tops("):].split("\n\n")[0]
    assert "best_each" in tops and "all(" not in tops and "for d_" not in tops


def test_groups_and_values_of_fixed_properties_are_read_from_columns():
    """``c => c.suit, c => c.value``: no function is called per item (the
    first test shows the same items kept); a group that is not a fixed
    property (the zone) takes the general path."""
    src = compile_ok(RULES).program.source
    body = {name: src[src.index(f"def {name}("):].split("\n\n")[0] for name in ("fn_tops", "fn_lows", "fn_pile_tops")}
    assert "best_each_of(" in body["fn_tops"] and "lambda" not in body["fn_tops"]
    assert "best_each_of(" in body["fn_lows"] and ", True)" in body["fn_lows"]
    assert "best_each(" in body["fn_pile_tops"] and "lambda" in body["fn_pile_tops"]


@pytest.mark.parametrize("text, code", [
    ("max_by_group(deck, c => c.suit)", "E040"),  # two functions
    ("max_by_group(deck, c => c.suit, 3)", "E041"),  # a function, not a value
    ("max_by_group(deck, c => c.suit, c => [c.value])", "E041"),  # values that compare
    ("min_by_group(5, x => x, x => x)", "E041"),  # a list
])
def test_wrong_uses_are_errors(text, code):
    body = RULES.replace('"max_by_group(deck, c => c.suit, c => c.value)"', f'"{text}"')
    assert code in codes(body)
