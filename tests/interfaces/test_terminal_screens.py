"""Every screen of whole games at 80x24, for every seed game (issue 41,
items 1-3): the play session draws each screen on a recording terminal of
80 columns and 24 rows, a human seat answering at random and greedy bots
at the others (``rulebook.terminal.capture``). Each screen must fit (no
line left for the terminal to break), keep its header (whose turn or who
is to decide, the scores) and the question, and show everything narrated
to the seat since its previous decision (on the screen or on the pages
before it); the game-over screen fits too and says how the game ended,
once. ``test_tmux_play`` finds these very screens at a real 80x24
terminal for one whole game."""

from __future__ import annotations

import pytest

from rulebook.display.scores import live_board
from rulebook.files.loading import load_game
from rulebook.terminal.capture import whole_game

SEED_GAMES = ("dead-mans-draw", "get-bit", "lifeboat", "survive", "young-svintus", "blackjack", "crazy-eights",
              "liars-dice", "love-letter", "nim", "pig", "rock-paper-scissors", "tic-tac-toe")
WIDTH, HEIGHT = 80, 24


def players_of(game) -> int:
    prog = game.program
    return prog.default_players if prog.min_players <= (prog.default_players or 0) <= prog.max_players \
        else prog.min_players


@pytest.mark.parametrize("game_id", SEED_GAMES)
def test_every_screen_of_a_whole_game_fits_80x24_and_shows_what_happened(game_id):
    game, _ = load_game(game_id)
    capture = whole_game(game, players_of(game), seed=1, width=WIDTH, height=HEIGHT)
    scored = live_board(game, game.new(players=players_of(game), seed=1), 0) is not None
    assert capture.screens, "the human seat was never asked"
    for i, screen in enumerate(capture.screens):
        where = f"{game_id} screen {i}:\n" + "\n".join(screen.lines)
        assert len(screen.lines) <= HEIGHT and all(len(row) <= WIDTH for row in screen.lines), where
        assert not screen.too_wide, f"{where}\nleft for the terminal to break: {screen.too_wide}"
        assert screen.lines[0].startswith("─"), where  # the header's rule is the top row
        header = " ".join(screen.lines[:3])  # under it whose turn, or who is to decide, and the scores
        assert "'s turn" in header or "to decide" in header, where
        assert "Scores" in header or not scored, where
        assert screen.lines[-1].rstrip().endswith("q to quit):"), where  # and the question the bottom one
        for page in screen.pages:
            assert len(page) <= HEIGHT and page[0].startswith("Since your last decision"), where
        missing = [text for text in screen.fresh if not screen.shows(text)]
        assert not missing, f"{where}\nnot shown: {missing}"
    ending = "\n".join(capture.ending)
    assert not capture.ending_too_wide, capture.ending_too_wide
    assert len(capture.ending) < HEIGHT, ending  # and a row for the shell's prompt after it
    assert "How the game ended" in ending and "Game over." in capture.ending[1] + capture.ending[0], ending
    assert ending.count("Game over.") == 1, ending
    assert "Game over. Winner: " in ending or "Game over. Winners: " in ending, ending  # who won, once


def test_identical_options_are_listed_once_and_alike_ones_under_their_common_words():
    from rulebook.terminal.panels import option_lines

    class Option:
        def __init__(self, index, label):
            self.index, self.label, self.value = index, label, index

    labels = ["red person (1)", "red person (2)", "red person (2)", "move boat 1 at sea (9,4)",
              "move boat 2 at sea (5,11)", "move boat 3 at sea (2,9)", "stop moving"]
    text = "\n".join(line.plain for line in option_lines([Option(i, x) for i, x in enumerate(labels)], 80))
    assert text.count("red person (2)") == 1 and "2. red person (2) ×2" in text
    assert "move boat: 4. 1 at sea (9,4)   5. 2 at sea (5,11)   6. 3 at sea (2,9)" in text
    assert "7. stop moving" in text


def test_a_long_option_is_broken_at_words_under_its_label():
    """Lifeboat's navigation cards read as long sentences: broken at words,
    going on under the label's start, never left to the terminal (which
    breaks mid-word at column 80, with no indent)."""
    from rulebook.terminal.panels import option_lines

    class Option:
        def __init__(self, index, label):
            self.index, self.label, self.value = index, label, index

    long = "nav 23 (no seagull; overboard: [Sailor]; thirsty: [Madame Wong, Sir Stephen]; rowers are thirsty)"
    rows = [line.plain for line in option_lines([Option(0, long), Option(1, "nav 5")], 80)]
    assert rows == ["   1. nav 23 (no seagull; overboard: [Sailor]; thirsty: [Madame Wong, Sir",
                    "      Stephen]; rowers are thirsty)", "   2. nav 5"], rows
    alike = ["move boat 1 " + "on and on " * 9, "move boat 2 at sea", "move boat 3 at sea"]
    rows = [line.plain for line in option_lines([Option(i, x) for i, x in enumerate(alike)], 80)]
    assert all(len(row) <= 80 for row in rows) and rows[2].startswith("       on and"), rows
