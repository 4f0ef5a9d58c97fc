"""What players read (issue 41 items 10 and 13): ``explain`` is a player's
guide written from the ruleset's texts (the definitions behind a flag),
and counts read as English."""

from __future__ import annotations

import re

from click.testing import CliRunner

from rulebook.cli.explain_guide import label_text, player_text
from rulebook.cli.main import cli
from rulebook.display.words import players_range, seats_text


def run(*args):
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_explain_is_a_players_guide_first():
    code, out = run("explain", "dead-mans-draw")
    assert code == 0 and out.startswith("# Dead Man's Draw\n")
    for heading in ("## How the game goes", "## What you can do", "## How you win"):
        assert heading in out, heading
    assert "Draw if you dare!" in out  # an action's description
    assert "rulebook explain dead-mans-draw --definitions" in out
    # none of the data behind the guide: no definitions, expressions or effects
    assert "## Definitions" not in out and "score_of(" not in out and "## Zones" not in out


def test_explain_definitions_keeps_the_rules_as_data():
    code, out = run("explain", "dead-mans-draw", "--definitions")
    assert code == 0 and "## Zones" in out and "## Actions" in out and "score_of(player)" in out


def test_the_guide_leaves_out_references_and_templates():
    assert player_text("Last card (A-S6): the player wins (P20, A-S3).") == "Last card: the player wins."
    assert player_text("A line\n  and its rest") == "A line and its rest"
    assert label_text("play {c}{' + Svintus!' if shout else ''}") == "play …"
    code, out = run("explain", "young-svintus")
    assert code == 0 and not re.search(r"\((?:A-)?[A-Z]\d+\)", out) and "{" not in out


def test_counts_read_as_english():
    assert players_range(2, 2) == "2 players" and players_range(2, 4) == "2-4 players"
    assert seats_text([]) == "no seat" and seats_text([2]) == "seat 2" and seats_text([1, 2, 4]) == "seats 1, 2 and 4"
    code, out = run("list")
    assert code == 0 and "2-2 players" not in out and re.search(r"^tic-tac-toe .* 2 players$", out, re.M)


def test_a_count_of_one_reads_singular_in_a_say_line():
    """Lifeboat's "treats X (1 wound left)" is written so: the say line's template chooses the word."""
    from rulebook.compiler.build import compile_text
    from rulebook.interpreter.game import Game
    from rulebook.interpreter.narrate import narrate

    text = ("rulebook: 1\nid: wounds\nplayers: {min: 2, max: 2}\nvars:\n  wounds: 1\n"
            "phases:\n  go:\n    on_begin: |\n"
            "      say \"({wounds} {'wound' if wounds == 1 else 'wounds'} left)\"\n"
            "      set wounds = 2\n"
            "      say \"({wounds} {'wound' if wounds == 1 else 'wounds'} left)\"\n"
            "      end game\n")
    game = Game(compile_text(text).program)
    st = game.new(players=2, seed=1, record=True)
    said = [line for line in narrate(st, st.events, None, False) if "left" in line]
    assert said == ["(1 wound left)", "(2 wounds left)"]
    source = open(__import__("rulebook.files.locate", fromlist=["locate"]).locate("lifeboat"), encoding="utf-8")
    assert "{'wound' if patient.wounds == 1 else 'wounds'} left" in source.read()


def test_a_variable_is_drawn_in_the_words_of_its_shown_as():
    """Issue 41 item 10: Young Svintus's table rule is drawn as players are
    told it, not as the id the rules keep ("grunt_on_draw")."""
    from rulebook.compiler.build import compile_text
    from rulebook.interpreter.game import Game

    from rulebook.terminal.table import render_view

    text = (re.search(r"```yaml example name=shown-as\n(.*?)```",
                      open("docs/format.md", encoding="utf-8").read(), re.S).group(1))
    text = text.replace("    on_begin: end game\n",
                        "    turn: {actions: [stop]}\nactions:\n  stop: {effect: end game}\n")
    game = Game(compile_text(text).program)
    st = game.new(players=2, seed=1)
    view = render_view(st, 0)
    assert "mode everybody passes a card left" in view and "pass_left" not in view
    assert st.vars["mode"] == "pass_left"  # the rules keep the value


def test_young_svintus_draws_its_table_rule_in_words():
    from rulebook.files.loading import load_game
    from rulebook.terminal.table import render_view

    game, _ = load_game("young-svintus")
    st = game.new(players=2, seed=1)
    st.vars["table_rule"] = "grunt_on_draw"
    view = render_view(st, 0)
    assert "table rule grunt oink! when you draw" in view and "grunt_on_draw" not in view
