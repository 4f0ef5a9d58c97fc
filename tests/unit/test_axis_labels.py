"""A board's axis labels (issue 40 item 7): ``board.axes`` names a grid's
columns and rows, and the terminal map (and the browser's board) reads them."""

from __future__ import annotations

from helpers import compile_ok, diagnostics
from rulebook.interpreter.view import view

from rulebook.display.axes import axis_names
from rulebook.terminal.boardmap import render

BOARD = """
components:
  cell:
    for_each: {col: "range(1, 4)", row: "range(2)"}
    board: {grid: GRID, AXES show: {pieces: "on"}}
  pawn:
    count: 1
    glyph: "p"
zones:
  "on": {per: cell}
setup: |
  move components(pawn) to on[space_at(cell, 2, 1)]
phases:
  main:
    on_begin: end game
"""


def _map(grid: str = "square", axes: str = "") -> list[str]:
    g = compile_ok(BOARD.replace("GRID", grid).replace("AXES ", axes))
    st = g.new(players=2, seed=1)
    return render(st, view(st, 0))


def test_axis_names_go_in_order_of_the_values_and_fall_back_to_the_value():
    spec = {"axes": {"col": ["a", "b"]}}
    assert axis_names(spec, "col", [3, 1, 2]) == {1: "a", 2: "b", 3: "3"}
    assert axis_names(spec, "row", [0, 1]) == {0: "0", 1: "1"}
    assert axis_names(None, "col", [5]) == {5: "5"}


def test_without_axes_the_map_is_numbered_by_col_and_row():
    assert _map() == ["cell map", "     1   2   3", "  0  .   .   .", "  1  .   p   ."]


def test_the_map_names_columns_and_rows_as_declared():
    lines = _map(axes="axes: {col: [a, b, c], row: ['2', '1']}, ")
    assert lines == ["cell map", "     a   b   c", "  2  .   .   .", "  1  .   p   ."]


def test_long_names_widen_the_columns_and_the_row_gutter_and_missing_ones_are_numbers():
    lines = _map(axes="axes: {col: [west, middle], row: [north]}, ")
    assert lines == ["cell map",
                     "       west   middle 3",
                     "north  .      .      .",
                     "    1  .      p      ."]


def test_a_hex_row_shifts_by_half_a_column():
    lines = _map(grid="hex", axes="axes: {col: [west, middle]}, ")
    assert lines[2:] == ["  0  .      .      .", "  1     .      p      ."]


def _errors(board: str) -> list[tuple[str, str]]:
    text = BOARD.replace("board: {grid: GRID, AXES show: {pieces: \"on\"}}", board)
    return [(d.code, d.path) for d in diagnostics(text) if d.is_error]


def test_a_label_that_is_not_a_short_text_is_e014_at_it():
    found = _errors("board: {grid: square, axes: {col: [a, abcdefghi, 7], row: ['1', '']}}")
    assert found == [("E014", "components.cell.board.axes.col[1]"), ("E014", "components.cell.board.axes.row[1]")]


def test_a_label_that_is_neither_text_nor_number_is_refused_by_the_schema_at_it():
    assert _errors("board: {grid: square, axes: {col: [a, true]}}") == [("E010", "components.cell.board.axes.col[1]")]


def test_a_graph_board_has_no_axes():
    text = BOARD.replace('for_each: {col: "range(1, 4)", row: "range(2)"}', "items: [{name: a}, {name: b}]")
    text = text.replace('board: {grid: GRID, AXES show: {pieces: "on"}}',
                        "board: {grid: graph, edges: [[a, b]], axes: {col: [x]}}")
    text = text.replace("space_at(cell, 2, 1)", "first(components(cell))")
    found = [(d.code, d.message) for d in diagnostics(text) if d.is_error]
    assert found == [("E014", "'cell': a graph board has no columns and rows to name")], found


def test_the_browsers_board_names_each_space_by_its_axes():
    from rulebook.web.layout import seat_table

    g = compile_ok(BOARD.replace("GRID", "square").replace("AXES ", "axes: {col: [a, b], row: [top]}, "))
    st = g.new(players=2, seed=1)
    (board,) = seat_table(g, st, 0, [], set())["boards"]
    at = {(s["col"], s["row"]): s["at"] for s in board["spaces"]}
    assert at == {(1, 0): "a,top", (2, 0): "b,top", (3, 0): "3,top", (1, 1): "a,1", (2, 1): "b,1", (3, 1): "3,1"}
