"""lines(type, n): runs of spaces on grid boards (issue 20, feature 6)."""

from __future__ import annotations

import pytest
from rulebook.interpreter.errors import RuleError

from tests.helpers import codes, compile_ok

FOUR = """
vars:
  won: {type: list of int, initial: "[]"}
  n: 4
components:
  cell:
    for_each: {col: "range(7)", row: "range(6)"}
    board: {grid: square}
  disc:
    count: 42
zones:
  supply: {of: disc}
  on: {per: cell, of: disc}
setup: |
  move components(disc) to supply
  # a diagonal of four for player 0, from the bottom left
  for k in range(4):
      move top(supply) to on[space_at(cell, k, 5 - k)]
      set top(on[space_at(cell, k, 5 - k)]).owner = 0
actions:
  check:
    effect: |
      let mine = filter(lines(cell, n), l => all(l, x => not is_empty(on[x]) and top(on[x]).owner == 0))
      set won = map(mine, l => count(l))
      append count(lines(cell, 4)) to won
      append count(lines(cell, 4, space_at(cell, 3, 2))) to won
      end game
phases:
  main:
    turn:
      actions: [check]
"""


def test_connect_four_has_69_windows_and_finds_a_diagonal():
    game = compile_ok(FOUR)
    st = game.new(2, seed=0)
    game.apply(st, 0, 0)
    assert st.vars["won"] == [4, 69, 13]


def test_a_length_below_one_stops_the_game():
    game = compile_ok(FOUR)
    st = game.new(2, seed=0)
    st.vars["n"] = 0
    with pytest.raises(RuleError) as err:
        game.apply(st, 0, 0)
    assert err.value.code == "R104"


@pytest.mark.parametrize("call, code", [
    ("lines(town, 2)", "E041"),  # a graph board
    ("lines(disc, 2)", "E039"),  # no board
    ("lines(cell, 2, top(supply))", "E041"),  # a space of another type
    ('lines(cell, "2")', "E041"),
])
def test_errors_at_load(call, code):
    body = FOUR.replace("  disc:\n", "  town:\n    items: [{name: a}, {name: b}]\n"
                        "    board: {grid: graph, key: name, edges: [[a, b]]}\n  disc:\n")
    body = body.replace("append count(lines(cell, 4)) to won", f"append count({call}) to won")
    found = codes(body)
    assert code in found, found
