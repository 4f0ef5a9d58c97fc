"""``show: false`` on a zone or a board (issue 40 item 6): left off the
tables ``rulebook play`` and ``rulebook serve`` draw, and still in the
state and in every seat's view (a display choice, not a secret)."""

from __future__ import annotations

from rulebook.interpreter.view import view

from rulebook.terminal.table import render_view
from rulebook.web.layout import seat_table
from tests.helpers import codes, compile_ok

GAME = """
components:
  square:
    for_each: {col: "range(3)", row: "range(3)"}
    board: {grid: square, show: SHOW}
  card:
    for_each: {value: "range(1, 4)"}
zones:
  scratch: {of: card, show: false}
  hand: {per: player, of: card}
setup: |
  move components(card) to scratch
  move top(scratch) to hand[0]
phases:
  main:
    on_begin: end game
"""


def test_a_zone_and_a_board_kept_off_the_tables():
    game = compile_ok(GAME.replace("SHOW", "false"))
    st = game.new(2, seed=0)
    v = view(st, 0)
    assert v["zones"]["scratch"]["count"] == 2  # still in the view: only the tables leave it off
    text = render_view(st, 0)
    assert "scratch" not in text and "hand" in text, text
    table = seat_table(game, st, 0, [], {"scratch", "hand"})
    assert {z["family"] for z in table["zones"]} == {"hand"}
    assert table["boards"] == []


def test_the_same_game_draws_them_without_show_false():
    game = compile_ok(GAME.replace("SHOW", "{}").replace(", show: false", ""))
    st = game.new(2, seed=0)
    assert "scratch" in render_view(st, 0)
    table = seat_table(game, st, 0, [], {"scratch", "hand"})
    assert {z["family"] for z in table["zones"]} == {"hand", "scratch"}
    assert [len(b["spaces"]) for b in table["boards"]] == [9]


def test_show_on_a_zone_is_true_or_false():
    assert codes(GAME.replace("SHOW", "false").replace("card, show: false}", "card, show: nonzero}")) == ["E010"]
