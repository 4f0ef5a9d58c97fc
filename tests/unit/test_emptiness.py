"""A count compared with 0 is a test for items that stops when the answer
is known (compiler/emptiness.py): the same answer as counting the whole
list, for every form a list can take."""

from __future__ import annotations

import pytest
from helpers import compile_ok

RULES = """
components:
  card:
    for_each: {value: "range(1, 9)"}
zones:
  deck: {of: card}
  hand: {of: card, per: player}
functions:
  high:
    params: {p: player}
    value: "filter(hand[p], c => c.value > 5)"
  high_or_low:
    params: {p: player, k: int}
    value: "filter(hand[p], c => c.value > 5 and k >= 0 and high_count(p) >= 0) + filter(deck, c => c.value < k)"
  high_count:
    params: {p: player}
    value: "count(hand[p])"
  picked:
    params: {p: player, k: int}
    value: "high(p) if k > 4 else map(deck, c => c.value * k)"
  written:
    params: {k: int}
    value: "[k, k + 1] if k > 2 else []"
# each test written the fast way (count compared with 0) and the slow way (the same count compared with 0 + x)
  t_filter:
    params: {p: player}
    value: "[count(high(p)) > 0, count(high(p)) == 0, 0 < count(high(p)), count(high(p)) >= 1]"
  s_filter:
    params: {p: player}
    value: "[count(high(p)) > zero(), count(high(p)) == zero(), zero() < count(high(p)), count(high(p)) >= 1 + zero()]"
  t_plus:
    params: {p: player, k: int}
    value: "[count(high_or_low(p, k)) > 0, count(high_or_low(p, k)) <= 0]"
  s_plus:
    params: {p: player, k: int}
    value: "[count(high_or_low(p, k)) > zero(), count(high_or_low(p, k)) <= zero()]"
  t_picked:
    params: {p: player, k: int}
    value: "[count(picked(p, k)) != 0, count(written(k)) < 1, count(filter(deck, c => c.value == k)) == 0]"
  s_picked:
    params: {p: player, k: int}
    value: >-
      [count(picked(p, k)) != zero(), count(written(k)) < 1 + zero(),
       count(filter(deck, c => c.value == k)) == zero()]
  t_drawn:
    params: {}
    value: "count(filter(deck, c => roll(6) > 3)) > 0"
  zero:
    params: {}
    value: "count(deck) * 0"
  probe:
    params: {}
    value: "true"
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


def test_a_count_compared_with_zero_gives_the_answer_the_whole_count_gives():
    g = compile_ok(RULES)
    fns = g.program.module
    src = g.program.source
    assert "fn_high_or_low_nonempty" in src and "fn_picked_nonempty" in src  # companions of the larger functions
    seen = set()
    for seed in range(3):
        st = g.new(players=2, seed=seed)
        while True:
            for p in range(2):
                got = fns["fn_t_filter"](st, None, p)
                assert got == fns["fn_s_filter"](st, None, p)
                seen.add(got[0])
                for k in (-1, 0, 3, 5, 9):
                    assert fns["fn_t_plus"](st, None, p, k) == fns["fn_s_plus"](st, None, p, k)
                    assert fns["fn_t_picked"](st, None, p, k) == fns["fn_s_picked"](st, None, p, k)
            if st.over:
                break
            g.apply(st, g.to_move(st)[0], 0)
    assert seen == {True, False}  # both answers were met


def test_a_list_that_draws_at_random_is_counted_whole():
    """Stopping early would skip draws, and so change the game."""
    g = compile_ok(RULES)
    body = g.program.source.split("def fn_t_drawn(")[1].split("\n\n")[0]
    assert "len(" in body and "any(" not in body


@pytest.mark.parametrize("form", ["count(filter(deck, c => c == top(deck) or 8 // (c.value - c.value) > 0)) > 0",
                                  "0 != count(map(deck, c => 8 // (c.value - c.value)))"])
def test_the_test_stops_when_the_answer_is_known(form):
    """What the test does not need is not computed: the filter stops at the
    deck's first card, which passes, and map's function is not called (each
    would divide by zero on the cards it is not asked about). The error is
    the rule's when the list itself is computed."""
    from rulebook.interpreter.errors import RuleError

    whole = form.replace("> 0", "> zero()").replace("0 !=", "zero() !=")  # the same list, counted whole
    g = compile_ok(RULES.replace('value: "true"', f'value: "{form}"').replace(
        "  zero:\n", f'  whole:\n    params: {{}}\n    value: "{whole}"\n  zero:\n'))
    st = g.new(players=2, seed=1)
    assert g.program.module["fn_probe"](st, None) is True
    with pytest.raises(RuleError):
        g.program.module["fn_whole"](st, None)
