"""Boards: hex (every offset layout), square (with and without diagonals)
and graph spaces, with neighbours, distance, space_at and within."""

from __future__ import annotations

from pathlib import Path

import pytest
from rulebook.compiler.build import compile_path
from rulebook.interpreter.errors import RulebookError
from rulebook.interpreter.game import Game

from tests.helpers import codes, compile_ok

HERE = Path(__file__).parents[1]


def test_board_queries_from_a_ruleset():
    result = compile_path(HERE / "data" / "boards.yaml")
    assert result.program is not None
    st = Game(result.program).new(players=2)
    assert st.vars["n1"] == 6  # a hex has six neighbours inside the grid
    assert st.vars["d1"] == 6  # odd-r distance from (0,0) to (4,4)
    assert st.vars["sq"] == 8  # with diagonals
    assert st.vars["gd"] == 3  # a-b-c-d


def hexes(layout: str):
    return compile_ok(f"""
    components:
      hex:
        for_each: {{col: "range(7)", row: "range(7)"}}
        board: {{grid: hex, layout: {layout}}}
    vars:
      ring: {{type: "list of int"}}
    setup: |
      let c = space_at(hex, 3, 3)
      set ring = map(range(0, 4), k => count(filter(components(hex), h => distance(c, h) == k)))
    phases:
      p:
        on_begin: |
          end game
    """)


def test_hex_rings_have_six_times_k_spaces_in_every_layout():
    for layout in ("odd-r", "even-r", "odd-q", "even-q"):
        st = hexes(layout).new(players=2)
        assert st.vars["ring"] == [1, 6, 12, 18], layout


def test_neighbours_are_exactly_the_spaces_at_distance_one():
    game = hexes("odd-r")
    st = game.new(players=2)
    board = st.cat.boards["hex"]
    for c in board.ids:
        assert board.adj[c] == sorted(x for x in board.ids if board.distance(c, x) == 1)


def test_square_grid_without_diagonals_is_manhattan():
    game = compile_ok("""
    components:
      sq:
        for_each: {col: "range(4)", row: "range(4)"}
        board: {grid: square}
    vars:
      corner: 0
      far: 0
    setup: |
      set corner = count(neighbours(space_at(sq, 0, 0)))
      set far = distance(space_at(sq, 0, 0), space_at(sq, 3, 3))
    phases:
      p:
        on_begin: |
          end game
    """)
    st = game.new(players=2)
    assert st.vars == {"direction": 1, "corner": 2, "far": 6}


def test_within_only_passes_through_allowed_spaces():
    game = compile_ok("""
    components:
      node:
        items: [{name: a, open: true}, {name: b, open: false}, {name: c, open: true}, {name: d, open: true}]
        board: {grid: graph, key: name, edges: [[a, b], [b, c], [a, d], [d, c]]}
    vars:
      reach: {type: "list of str"}
    setup: |
      set reach = map(within(space_at(node, 'a'), 2, n => n.open), n => n.name)
    phases:
      p:
        on_begin: |
          end game
    """)
    st = game.new(players=2)
    assert st.vars["reach"] == ["c", "d"]  # b is closed, so c is reached through d


def test_a_grid_board_needs_col_and_row():
    assert "E032" in codes("""
    components:
      hex:
        for_each: {x: "range(3)"}
        board: {grid: hex}
    phases:
      p:
        on_begin: |
          end game
    """)


def test_board_functions_need_board_spaces():
    assert "E041" in codes("""
    components:
      card:
        count: 3
    phases:
      p:
        on_begin: |
          let n = neighbours(first(components(card)))
          end game
    """)


def test_distance_rows_agree_with_the_boards_own_distance_on_every_kind():
    """``lib.distance`` reads a row per space, computed on first use: the
    same answers as the board's own ``distance`` for every pair, on hex,
    square and graph boards, across boards (None) and for components that
    are no space of the first one's board."""
    from rulebook.interpreter import lib

    result = compile_path(HERE / "data" / "boards.yaml")
    st = Game(result.program).new(players=2)
    boards = st.cat.boards
    assert {b.kind for b in boards.values()} >= {"hex", "square", "graph"}
    everything = range(st.cat.n)
    for board in boards.values():
        for a in board.ids:
            for b in everything:
                assert lib.distance(st, a, b) == board.distance(a, b), (board.kind, a, b)
    assert all(st.cat.distances[a] is not None for board in boards.values() for a in board.ids)
    pawn = st.cat.by_type["pawn"][0]
    with pytest.raises(RulebookError, match="not a board space"):  # no space: the rule's error, as before
        lib.distance(st, pawn, boards["hex"].ids[0])
