"""The terminal draws a ruleset's presentation hints (issue 41 item 7, at
the terminal): a zone grouped by a property as stacks with the top card
marked, never cut; components on the colour declared for their property,
in colour only on a terminal without NO_COLOR; a board's declared symbols
on the map and in its legend. Both tables read the hints through the same
functions (``rulebook.display.presentation``), which a small ruleset of
its own shows here."""

from __future__ import annotations

import io

from rulebook.compiler.build import compile_path
from rulebook.interpreter.game import Game

RULESET = """rulebook: 1
id: looks
players: {min: 2, max: 2}
components:
  cell:
    for_each: {row: "range(2)", col: "range(2)"}
    props: {terrain: "'land'"}
    board:
      grid: square
      show: {terrain: terrain, glyphs: {land: "L"}, legend: {"L": dry land}}
  card:
    for_each: {suit: "['cups', 'coins', 'swords', 'wands', 'stars', 'moons']", value: "range(1, 6)"}
zones:
  pile: {of: card, per: player}
setup: |
  move filter(components(card), c => c.value > 1) to pile[0]
  move filter(components(card), c => c.value == 1) to pile[1]
phases:
  main:
    on_begin: end game
presentation:
  components:
    card: {colour_by: suit, colours: {cups: "#1f5fa8", coins: "#c9a100"}, short: "{value}"}
  boards:
    cell: {colour_by: terrain, colours: {land: "#8d6e63"}, symbols: {land: "^"}}
  zones:
    pile: {group_by: suit, top: highest, top_by: value}
"""


def game_of(tmp_path) -> tuple[Game, object]:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET)
    result = compile_path(path)
    assert not result.report.errors, result.report.errors
    game = Game(result.program)
    return game, game.new(players=2, seed=1)


def test_stacks_group_by_the_property_with_the_top_last():
    from rulebook.display.presentation import stacks

    items = [{"type": "c", "suit": "cups", "value": 3}, {"type": "c", "suit": "coins", "value": 1},
             {"type": "c", "suit": "cups", "value": 1}, {"hidden": True, "type": "c"}]
    groups = stacks(items, {"group_by": "suit", "top": "highest", "top_by": "value"})
    assert [(g["value"], [i.get("value") for i in g["items"]], g["top"]) for g in groups] == [
        ("cups", [1, 3], True), ("coins", [1], True), (None, [None], False)]
    back = {"hidden": True, "type": "c", "suit": "coins"}  # a back that shows the suit: in that suit's stack
    assert [len(g["items"]) for g in stacks(items + [back], {"group_by": "suit"})] == [2, 2, 1]
    lowest = stacks(items[:3], {"group_by": "suit", "top": "lowest", "top_by": "value"})
    assert [i["value"] for i in lowest[0]["items"]] == [3, 1]
    assert stacks(items, {}) is None and stacks(items, None) is None


def test_a_grouped_zone_is_drawn_as_stacks_in_columns_and_never_cut(tmp_path):
    from rulebook.terminal.table import render_view, table_view

    game, st = game_of(tmp_path)
    text = render_view(st, 0, 80)
    rows = [row for row in text.splitlines() if "cups" in row or "moons" in row or row.startswith(" " * 17)]
    assert "cups 2 3 4 [5]" in text and "moons 2 3 4 [5]" in text, text
    assert all(len(row) <= 80 for row in text.splitlines()) and "…" not in text, text
    assert len(rows) >= 2, text  # six stacks: more than one row, in columns
    assert "coins 1   cups 1" in text, text  # the other player's, one card a stack: its own top
    for compact in range(6):  # however small the screen, the stacks are whole, the others' too
        from rich.console import Console

        buf = io.StringIO()
        Console(file=buf, width=60, color_system=None).print(table_view(st, 0, 60, compact=compact))
        assert "swords 2 3 4 [5]" in buf.getvalue() or compact >= 5, (compact, buf.getvalue())
        assert "moons 1" in buf.getvalue() or compact >= 5, (compact, buf.getvalue())


def test_the_browser_gets_the_very_same_stacks(tmp_path):
    from rulebook.interpreter.view import view

    from rulebook.display.presentation import hints, stacks
    from rulebook.web.layout import seat_table

    game, st = game_of(tmp_path)
    zone = next(z for z in seat_table(game, st, 0, [], {"pile"})["zones"] if z["id"] == "pile[0]")
    mine = stacks(view(st, 0)["zones"]["pile[0]"]["items"], hints(game.program)["zones"]["pile"])
    assert [(g["value"], [i["id"] for i in g["items"]], g["top"]) for g in zone["stacks"]] == \
        [(g["value"], [i["id"] for i in g["items"]], g["top"]) for g in mine]


def screen(st, monkeypatch, no_color: bool, terminal: bool) -> str:
    from rulebook.terminal.table import table_view
    from rulebook.terminal.text import make_console

    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    buf = io.StringIO()
    console = make_console(file=buf, width=80, force_terminal=terminal or None)
    console.print(table_view(st, 0, 80))
    return buf.getvalue()


def test_declared_colours_only_on_a_terminal_without_no_color(tmp_path, monkeypatch):
    _, st = game_of(tmp_path)
    monkeypatch.setenv("COLORTERM", "truecolor")
    coloured = screen(st, monkeypatch, no_color=False, terminal=True)
    assert "48;2;31;95;168" in coloured  # the cups' declared colour behind them
    assert "48;2;201;161;0" in coloured  # the coins' (light: written in black)
    plain_pipe = screen(st, monkeypatch, no_color=False, terminal=False)
    plain_no_color = screen(st, monkeypatch, no_color=True, terminal=True)
    assert "\x1b[" not in plain_pipe and "48;2" not in plain_no_color
    assert "cups 2 3 4 [5]" in plain_pipe and "cups 2 3 4 [5]" in plain_no_color


def test_a_board_writes_its_declared_symbols_and_its_legend_says_so(tmp_path):
    from rulebook.terminal.table import render_view

    _, st = game_of(tmp_path)
    text = render_view(st, 0, 80)
    assert "0  ^   ^" in text and "L" not in text.split("legend")[0].split("\n", 3)[-1], text
    assert "^ dry land" in text, text
