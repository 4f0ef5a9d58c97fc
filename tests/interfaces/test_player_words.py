"""No identifier of the rules reaches a player (issue 41 item 10): over a
whole game of every ruleset, every line of every terminal screen (the
narration, the prompts, the options, the table, the game-over screen), the
``?`` help at the first decisions and the browser table's texts (names,
labels, titles, prompts) are scanned for the snake_case names the ruleset
file uses (its actions, triggers, properties, zones, phases and the string
values of its data, such as ``move_whale``). A player reads the ruleset's
labels, descriptions and presentation titles, never its identifiers.
"""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from rulebook.files.loading import load_game
from rulebook.files.locate import locate
from rulebook.terminal.capture import whole_game
from rulebook.terminal.panels import help_panel
from rulebook.web.layout import seat_table

SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
RULESETS = ("dead-mans-draw", "get-bit", "lifeboat", "survive", "young-svintus", "blackjack", "crazy-eights",
            "goofspiel", "hearts", "hex", "liars-dice", "little-kingdoms", "love-letter", "nim", "pig", "reversi",
            "rock-paper-scissors", "tic-tac-toe")
SHOWN_KEYS = ("name", "label", "title", "text", "prompt", "phase_title", "current", "status")


def players_of(game) -> int:
    prog = game.program
    return prog.default_players if prog.min_players <= (prog.default_players or 0) <= prog.max_players \
        else prog.min_players


def identifiers_in(lines, names: set[str]) -> dict[str, str]:
    """Each of ``names`` found in ``lines``, with the first line it is in."""
    found: dict[str, str] = {}
    for line in lines:
        for word in SNAKE.findall(line):
            if word in names:
                found.setdefault(word, line)
    return found


def shown_texts(node) -> list[str]:
    """The strings of the browser table a player reads (not its data)."""
    out: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key in SHOWN_KEYS and isinstance(value, str):
                out.append(value)
            elif isinstance(value, (dict, list)):
                out += shown_texts(value)
    elif isinstance(node, list):
        for value in node:
            out += shown_texts(value)
    return out


def test_the_scan_finds_an_identifier():
    assert identifiers_in(["Blue: play beach tile (move_shark)."], {"move_shark"}) == \
        {"move_shark": "Blue: play beach tile (move_shark)."}
    assert shown_texts({"zones": [{"label": "creature_pool", "props": {"back": "x_y"}}]}) == ["creature_pool"]


@pytest.mark.parametrize("game_id", RULESETS)
def test_no_identifier_reaches_a_player(game_id):
    game, _ = load_game(game_id)
    names = set(SNAKE.findall(locate(game_id).read_text(encoding="utf-8")))
    n = players_of(game)
    capture = whole_game(game, n, seed=1)
    lines = [row for s in capture.screens for page in s.pages + [s.lines] for row in page] + capture.ending
    lines += [o for s in capture.screens for o in s.options]
    found = identifiers_in(lines, names)
    assert not found, f"{game_id}: identifiers on the terminal: {found}"

    st = game.new(players=n, seed=1)
    console = Console(file=io.StringIO(), width=100, color_system=None, record=True)
    asked = 0
    while not st.over and asked < 40:
        p = game.to_move(st)[0]
        options = game.options(st, p)
        if asked < 5:
            console.print(help_panel(game, st, p, options, "save.json", game_id))
        texts = shown_texts(seat_table(game, st, p, [], set(st.prog.families)))
        found = identifiers_in(texts, names)
        assert not found, f"{game_id}: identifiers on the browser table: {found}"
        game.apply(st, p, options[0])
        asked += 1
    found = identifiers_in(console.export_text().splitlines(), names)
    assert not found, f"{game_id}: identifiers in the help: {found}"
