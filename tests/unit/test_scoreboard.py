"""``scoring.show``: the scoreboard shows what decides the winner (issue 41
item 12), a column a player cannot know as ``?``, and changes no game."""

from __future__ import annotations

import re
from pathlib import Path

from rulebook.compiler.build import compile_text
from rulebook.interpreter.game import Game

from rulebook.terminal.table import render_view, scores_text

ROOT = Path(__file__).resolve().parents[2]


def example(name: str) -> str:
    text = (ROOT / "docs" / "format.md").read_text(encoding="utf-8")
    return re.search(rf"```yaml example name={name}\n(.*?)```", text, re.S).group(1)


def game_of(text: str) -> Game:
    compiled = compile_text(text)
    assert compiled.program is not None, compiled.report.sorted()
    return Game(compiled.program)


def test_the_scoreboard_shows_each_column_of_show_one_line_each():
    game = game_of(example("scoreboard"))
    st = game.new(players=2, seed=1)
    line = scores_text(st, 0)
    assert line.plain.split("\n") == ["Scores  cards in hand  P1 2 · P2 3", "        points         P1 0 · P2 0"]
    assert "Scores  cards in hand  P1 2 · P2 3" in render_view(st, 0)


def test_a_column_the_viewer_cannot_know_is_a_question_mark_until_the_end():
    game = game_of(
        "rulebook: 1\nid: secret-board\nplayers: {min: 2, max: 2}\n"
        "components:\n  card:\n    for_each: {value: \"range(1, 6)\"}\n"
        "zones:\n  deck: {visibility: hidden}\n  hand: {per: player, visibility: owner}\n"
        "setup: |\n  move components(card) to deck\n  shuffle deck\n"
        "  deal 2 from deck to hand\n"
        "phases:\n  play:\n    turn: {actions: [stop]}\n"
        "actions:\n  stop: {effect: end game}\n"
        "scoring:\n  score: \"sum(hand[player], c => c.value)\"\n"
        "  show:\n    cards: count(hand[player])\n    value: \"sum(hand[player], c => c.value)\"\n")
    st = game.new(players=2, seed=1)
    rows = scores_text(st, 0).plain.split("\n")
    assert rows[0] == "Scores  cards  P1 2 · P2 2"  # a count of a hand is public
    assert re.fullmatch(r" {8}value  P1 \d+ · P2 \?", rows[1]), rows  # the other hand's values are not
    game.apply(st, 0, 0)  # stop: the game is over, every value is shown
    assert re.fullmatch(r" {8}value  P1 \d+ · P2 \d+", scores_text(st, 0).plain.split("\n")[1])


def test_without_show_the_scoreboard_is_the_score():
    game = game_of(example("scoreboard").replace("  show:\n    cards in hand: count(hand[player])\n"
                                                 "    points: player.points\n", ""))
    st = game.new(players=2, seed=1)
    assert scores_text(st, 0).plain == "Scores  P1 0 · P2 0"


def test_young_svintus_shows_the_cards_in_hand():
    from rulebook.files.loading import load_game

    game, _ = load_game("young-svintus")
    st = game.new(players=4, seed=3)
    rows = scores_text(st, 0).plain.split("\n")
    assert rows[0].startswith("Scores  cards in hand  P1 ") and rows[1].lstrip().startswith("points")
    assert game.program.score_shown and [label for label, _ in game.program.score_shown] == ["cards in hand", "points"]
