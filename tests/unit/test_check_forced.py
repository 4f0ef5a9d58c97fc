"""``rulebook check`` catches a table that would tell a seat who has only
one option (issue 37, item 3): ``properties.check_forced_answers``, run
with the "who is asked" check, asks each sampled question again in a world
the observer cannot tell apart and compares whom the browser table
(``rulebook.display.forced.answered_by_table``, every seat human) answers itself."""

from __future__ import annotations

from pathlib import Path

from rulebook.compiler.build import compile_path
from rulebook.interpreter.game import Game

from rulebook.display import forced as table
from rulebook.testing.random_games import run_checks

ABOVE_THREE = Path(__file__).resolve().parents[1] / "data" / "serve" / "play-one-above-three.yaml"


def answer_every_forced_question(game, st, humans):
    """The table's old rule: any human's one-option question answered at once."""
    for p in game.to_move(st):
        if p in humans and len(game.options(st, p)) == 1:
            return p
    return None


def game() -> Game:
    return Game(compile_path(ABOVE_THREE).program)


def test_the_table_asks_every_seat_when_several_are_human():
    g = game()
    for seed in range(6):
        st = g.new(players=2, seed=seed)
        assert table.answered_by_table(g, st, (0, 1)) is None
    st = next(s for s in (g.new(players=2, seed=seed) for seed in range(20))
              if len(g.options(s, 0)) == 1)
    assert table.answered_by_table(g, st, (0,)) == 0  # one human: its forced answer is given at once


def test_check_passes_the_table_as_it_is():
    report = run_checks(game(), [2, 3], 12, 1)
    assert not report.failures, report.failures
    assert report.applied["who is asked"] > 0


def test_check_catches_a_table_that_answers_forced_questions(monkeypatch):
    monkeypatch.setattr(table, "answered_by_table", answer_every_forced_question)
    report = run_checks(game(), [2, 3], 12, 1)
    assert report.failures, "the check did not see that the table tells who has only one option"
    failure = report.failures[0]
    assert failure.check == "who is asked" and "one-option question" in failure.message
