"""Boards kept per something (issue 40 item 2): ``board: {per: seat}``
makes one board per value of the spaces' ``seat``, each with its own
coordinates, neighbours, distances, lines and map."""

from __future__ import annotations

import pytest
from rulebook.interpreter.view import view

from rulebook.terminal.table import render_view
from rulebook.web.layout import seat_table
from tests.helpers import codes, compile_ok

KINGDOMS = """
components:
  plot:
    for_each: {seat: "players", col: "range(3)", row: "range(3)"}
    label: "{self.col},{self.row}"
    board: {grid: square, per: seat, show: {pieces: "on"}}
  tile:
    count: 4
    glyph: "t"
zones:
  "on": {per: plot}
  supply: {of: tile}
setup: |
  move components(tile) to supply
  move top(supply) to on[space_at(plot[players[0]], 1, 1)]
  move top(supply) to on[space_at(plot[players[1]], 2, 0)]
phases:
  main:
    on_begin: |
      let mine = space_at(plot[players[0]], 1, 1)
      let theirs = space_at(plot[players[1]], 1, 1)
      say "{count(neighbours(mine))} {distance(mine, space_at(plot[players[0]], 2, 2))} {distance(mine, theirs)}"
      say "{count(lines(plot, 3))} {space_at(plot[players[1]], 5, 5)}"
      end game
"""


def test_each_part_has_its_own_coordinates_and_neighbours():
    game = compile_ok(KINGDOMS)
    st = game.new(2, seed=0)
    board = st.cat.boards["plot"]
    assert sorted(board.parts) == [0, 1]
    mine = board.parts[0].by_key[(1, 1)]
    theirs = board.parts[1].by_key[(1, 1)]
    assert mine != theirs and st.static[theirs]["seat"] == 1
    assert all(st.static[n]["seat"] == 0 for n in board.adj[mine]) and len(board.adj[mine]) == 4
    assert board.distance(mine, theirs) is None
    assert len(board.lines(3)) == 2 * 8  # each 3 x 3 part's rows, columns and two diagonals


def test_rules_read_one_part_at_a_time():
    game = compile_ok(KINGDOMS)
    st = game.new(2, seed=0)
    said = [e[1] for e in st.events if e[0] == "say"]
    # 4 neighbours of a centre square, 2 squares to a corner of the same kingdom, none to the other's;
    # 16 lines of 3 (8 per kingdom); no square at 5,5
    assert said == ["4 2 none", "16 none"]


def test_each_seats_board_is_drawn():
    game = compile_ok(KINGDOMS)
    st = game.new(2, seed=0)
    text = render_view(st, 0)
    assert "plot of P1 map" in text and "plot of P2 map" in text, text
    table = seat_table(game, st, 0, [], {"on", "supply"})
    assert [len(b["spaces"]) for b in table["boards"]] == [9, 9]
    assert view(st, 0)["zones"]


@pytest.mark.parametrize("change,code", [
    ("per: seat,", "per: colour,"),
    ("per: seat,", "per: col,"),
])
def test_a_part_needs_a_property_that_is_not_a_coordinate(change, code):
    old, new = change, code
    assert codes(KINGDOMS.replace(old, new)) == (["E032"] if "colour" in new else ["E013"])


def test_space_at_names_the_part():
    assert codes(KINGDOMS.replace("space_at(plot[players[0]], 1, 1)]", "space_at(plot, 1, 1)]")) == ["E040"]
    assert codes(KINGDOMS.replace("space_at(plot[players[0]], 1, 1)]", "space_at(plot['a'], 1, 1)]")) == ["E041"]
