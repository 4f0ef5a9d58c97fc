"""Texts: indexing and slicing of texts and lists, and format() (issue 20, feature 5)."""

from __future__ import annotations

import pytest
from rulebook.dsl.parser import parse_expression
from rulebook.dsl.printer import source
from rulebook.interpreter.errors import RuleError

from tests.helpers import codes, compile_ok

GAME = """
vars:
  out: {type: list of str, initial: "[]"}
  v: {type: any}
components:
  card:
    for_each: {value: "range(1, 4)"}
zones:
  deck: {of: card, visibility: hidden}
setup: |
  move components(card) to deck at bottom
actions:
  go:
    effect: |
      append "score: " + format(player.score, "+03") to out
      append "rulebook"[2:6] to out
      append str(map(deck[1:], c => c.value)) to out
      say "top two: {deck[:2]}"
      append format(v, "03") to out
      end game
player_vars:
  score: 5
phases:
  main:
    turn:
      actions: [go]
"""


def test_slices_and_formats_in_play():
    game = compile_ok(GAME)
    st = game.new(2, seed=0)
    st.record = True
    st.vars["v"] = 4
    game.apply(st, 0, 0)
    assert st.vars["out"] == ["score: +05", "lebo", "[2, 3]", "004"]
    said = [e[1] for e in st.events if e[0] == "say"]
    assert said == ["top two: [a face-down card, a face-down card]"]


@pytest.mark.parametrize("value", [[1], None, True])
def test_a_value_format_cannot_write_stops_the_game(value):
    game = compile_ok(GAME)
    st = game.new(2, seed=0)
    st.vars["v"] = value
    with pytest.raises(RuleError) as err:
        game.apply(st, 0, 0)
    assert err.value.code == "R104"


@pytest.mark.parametrize("text", ["xs[1:2]", "xs[:2]", "xs[1:]", "xs[:]", "(a + b)[-1:]", "s[0][0:1]"])
def test_slices_print_back(text):
    assert source(parse_expression(text)) == text


@pytest.mark.parametrize("expr, code", [
    ('format(3, "x")', "E013"),
    ('format([1], "3")', "E041"),
    ('format(3, 3)', "E041"),
    ('"abc"["a"]', "E041"),
    ('"abc"[1:"b"]', "E041"),
    ('true[1:]', "E041"),
])
def test_errors_at_load(expr, code):
    assert codes(f"""
vars:
  t: {{type: any}}
actions:
  go:
    effect: |
      set t = {expr}
      end game
phases:
  main:
    turn:
      actions: [go]
""") == [code]
