"""What the tables show (rulebook/web/layout.py, scores.py, tell.py, the play
screen): live scores that tell no secret, score parts, narration said once,
zones and variables of no use left off, coordinates typed as the map shows
them, one save file per game, the player count message and replay --step."""

from __future__ import annotations

import json

from click.testing import CliRunner
from rulebook.agents.base import as_agent, decide, make_agent
from rulebook.interpreter.narrate import Line

from rulebook.cli.main import cli
from rulebook.display import scores
from rulebook.display.tidy import collapse, tidy
from rulebook.files.loading import load_game


def played(game_id: str, players: int, seed: int, decisions: int, **params):
    game, _ = load_game(game_id)
    st = game.new(players=players, seed=seed, params=params)
    bot = as_agent(make_agent("random", seed))
    for _ in range(decisions):
        if st.over:
            break
        p = game.to_move(st)[0]
        game.apply(st, p, decide(game, st, p, bot))
    return game, st


# ------------------------------------------------------------------ scores
def test_live_scores_show_only_what_the_seat_can_know():
    """Lifeboat's score reads the secret friend and enemy cards: a seat sees
    its own score, not the others', until the end; Dead Man's Draw's banks
    are public, so every score shows."""
    game, st = played("lifeboat", 4, 3, 30)
    mine = scores.live_scores(game, st, 0)
    assert mine[0] == game.scores(st)[0] and mine[1:] == [None, None, None]
    assert scores.live_scores(game, st, None) == [None] * 4
    game, st = played("dead-mans-draw", 2, 3, 30)
    assert scores.live_scores(game, st, 1) == game.scores(st)
    game, st = played("lifeboat", 4, 3, 100_000, max_days=1)
    assert st.over and scores.live_scores(game, st, 0) == game.scores(st)


def test_the_score_breakdown_adds_up_to_the_score():
    from rulebook.validator.check_rules import part_name

    assert part_name("friend_points(player)") == "friend points"
    assert part_name("count(trophies[player])") == "trophies"
    game, st = played("lifeboat", 4, 7, 100_000, max_days=1)
    rows = scores.breakdown(game, st)
    assert [name for name, _ in rows[0]["parts"]] == ["survival points", "friend points", "enemy points",
                                                      "valuable points"]
    for r in rows:
        assert sum(v for _, v in r["parts"]) == r["total"] == game.scores(st)[r["player"]]
    game, st = played("dead-mans-draw", 2, 3, 5)
    assert scores.score_parts(game) == []  # one part: no breakdown


# ------------------------------------------------------------------ narration
def test_a_say_that_restates_a_decision_or_a_reveal_replaces_it():
    game, st = played("young-svintus", 3, 1, 0)
    lines = [Line("decision", 0, "P1 chose red."), Line("say", None, "P1 names red."),
             Line("decision", 1, "P2: draw a card."), Line("say", None, "P3 draws 2."),
             Line("reveal", None, "Revealed: blue 3."), Line("say", None, "P2 plays blue 3."),
             Line("reveal", None, "Revealed: blue 4."), Line("decision", 2, "P3: play blue 4."),
             Line("say", None, "x"), Line("say", None, "x"), Line("say", None, "x")]
    assert [ln.text for ln in tidy(st, lines)] == [
        "P1 names red.", "P2: draw a card.", "P3 draws 2.", "P2 plays blue 3.", "Revealed: blue 4.",
        "P3: play blue 4.", "x (×3)"]
    assert collapse([Line("say", None, "a")]) == [Line("say", None, "a")]


# ------------------------------------------------------------------ the table in the terminal
def test_bookkeeping_and_zones_of_variants_not_in_play_stay_off_the_table():
    from rulebook.interpreter.ops import zone_family

    from rulebook.terminal.screen import _WRAP_CONSOLE as console
    from rulebook.terminal.screen import render_view, table_view

    game, st = played("get-bit", 4, 2, 0)
    text = render_view(st, 0)
    assert "tie" not in text and "hunger" not in text  # show: false
    seen = {zone_family(st, z) for z, zone in enumerate(st.zones) if zone}
    with console.capture() as cap:
        console.print(table_view(st, 0, 100, seen))
    assert "shark_hand" not in cap.get() and "round 1" in cap.get()
    game, st = played("get-bit", 6, 2, 0)
    game2, _ = load_game("get-bit", ("play-the-shark",))
    st2 = game2.new(players=6, seed=2)
    assert "hunger 5" in render_view(st2, 0)  # the variant's hunger tokens (one per robot) are on the table


def test_a_nonzero_variable_shows_only_while_it_is_not_zero(tmp_path):
    """``show: nonzero`` (docs/format.md, example nonzero-vars): "steps left
    2" on the table during a walk, nothing before or after it; Survive's
    moves and Dead Man's Draw's kraken count the same way."""
    import re
    from pathlib import Path

    from rulebook.compiler.build import compile_path
    from rulebook.interpreter.game import Game

    from rulebook.terminal.screen import render_view
    from rulebook.web.layout import seat_table

    doc = (Path(__file__).resolve().parents[2] / "docs" / "format.md").read_text()
    text = re.search(r"```yaml example name=nonzero-vars\n(.*?)```", doc, re.S).group(1)
    (tmp_path / "ruleset.yaml").write_text(text)
    game = Game(compile_path(str(tmp_path / "ruleset.yaml")).program)
    st = game.new(players=2, seed=1)
    assert "steps left" not in render_view(st, 0) and "steps 0" in render_view(st, 0)
    game.apply(st, 0, game.options(st, 0).labels.index("start"))
    assert "steps left 2" in render_view(st, 0)
    assert {"name": "steps left", "text": "2"} in seat_table(game, st, 0, [], set())["vars"]
    for _ in range(2):
        game.apply(st, 0, game.options(st, 0).labels.index("step"))
    assert "steps left" not in render_view(st, 0)
    assert all(v["name"] != "steps left" for v in seat_table(game, st, 0, [], set())["vars"])
    game, st = played("survive", 2, 4, 0)
    assert "moves left" not in render_view(st, 0)  # placing people: no moves to count
    game, st = played("dead-mans-draw", 2, 3, 0)
    assert "kraken" not in render_view(st, 0)
    game, st = played("young-svintus", 4, 1, 0)
    assert "pending draw" not in render_view(st, 0) and "deal number 1" in render_view(st, 0)


def test_a_coordinate_typed_as_the_map_shows_it_picks_the_option():
    from rulebook.terminal.play import space_option

    game, st = played("survive", 2, 5, 0)
    for _ in range(200):  # to the first decision whose options are board spaces
        p = game.to_move(st)[0]
        options = game.options(st, p)
        labels = [o.label for o in options]
        if any(label.endswith(")") and "," in label for label in labels) and game.prompt(st, p).startswith("Place"):
            break
        game.apply(st, p, 0)
    import re

    col, row = re.search(r"\((\d+),(\d+)\)", labels[-1]).groups()
    assert space_option(st, options, f"{col},{row}") == len(options) - 1
    assert space_option(st, options, f"({col}, {row})") == len(options) - 1
    assert space_option(st, options, "7") is None  # a number is an option's number
    assert "No space" in space_option(st, options, "99,99")


def test_one_save_per_game_and_another_games_save_is_not_overwritten_without_asking(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    first = runner.invoke(cli, ["play", "tic-tac-toe", "--human", "1", "--seed", "1"], input="s\n")
    assert first.exit_code == 0 and (tmp_path / "tic-tac-toe-save.json").exists()
    saved = (tmp_path / "tic-tac-toe-save.json").read_text()
    other = runner.invoke(cli, ["play", "tic-tac-toe", "--human", "1", "--seed", "2"], input="1\ns\n\nq\ny\n")
    assert "holds the save of another game; overwrite it?" in other.output
    assert (tmp_path / "tic-tac-toe-save.json").read_text() == saved  # Enter: not overwritten
    again = runner.invoke(cli, ["play", "tic-tac-toe", "--human", "1", "--seed", "2"], input="1\ns\ny\n")
    assert "Saved to tic-tac-toe-save.json" in again.output
    assert json.loads((tmp_path / "tic-tac-toe-save.json").read_text())["seed"] == 2
    resumed = runner.invoke(cli, ["play", "tic-tac-toe", "--resume", "tic-tac-toe-save.json"], input="1\ns\n")
    assert "another game" not in resumed.output and "Saved to" in resumed.output  # its own save: no question


def test_a_player_count_outside_the_range_names_the_variants_that_allow_it():
    result = CliRunner().invoke(cli, ["play", "get-bit", "--players", "2"])
    assert result.exit_code == 2
    assert "plays with 4-6 players, not 2; with 2 players: --variant two-players" in result.output
    result = CliRunner().invoke(cli, ["play", "get-bit", "--players", "7"])
    assert "--variant play-the-shark" in result.output


def test_replay_step_narrates_and_jumps_to_a_step(tmp_path):
    log = tmp_path / "g.jsonl"
    runner = CliRunner()
    assert runner.invoke(cli, ["play", "dead-mans-draw", "--seed", "3", "--log", str(log)]).exit_code == 0
    out = runner.invoke(cli, ["replay", str(log), "--step", "--as", "1"], input="n\n12\nb\nq\n").output
    assert "step 0/" in out and "step 1/" in out and "step 12/" in out and "step 11/" in out
    assert "What happened:" in out and "enters the play area." in out
