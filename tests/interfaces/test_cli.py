"""The command line: every command, its exit codes, and no tracebacks."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from rulebook.cli.main import cli
from tests.helpers import run_main

HERE = Path(__file__).parents[1]
ROOT = HERE.parent


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)




def test_list_shows_get_bit():
    result = run("list")
    assert result.exit_code == 0 and "get-bit" in result.output and "two-players" in result.output


def test_validate_clean_ruleset(capsys):
    code, out, _ = run_main(capsys, "validate", "get-bit")
    assert code == 0 and "ok (0 errors" in out


def test_validate_reports_errors_with_exit_1_and_json(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "rulebook: 1\nid: bad\nplayers: {min: 2, max: 2}\nphases:\n  p:\n    on_begin: |\n      move x to deck\n"
    )
    code, out, _ = run_main(capsys, "validate", str(bad))
    assert code == 1 and "bad.yaml:7:12: error[E030]: unknown name 'x'" in out and "^" in out
    code, out, _ = run_main(capsys, "validate", "--format", "json", str(bad))
    data = json.loads(out)
    assert code == 1 and data[0]["code"] == "E030" and data[0]["line"] == 7


def test_unknown_game_is_one_line_exit_1(capsys):
    code, _, err = run_main(capsys, "play", "no-such-game")
    assert code == 1 and "no ruleset 'no-such-game'" in err and "Traceback" not in err


def test_usage_errors_exit_2(capsys):
    code, _, err = run_main(capsys, "play", "get-bit", "--players", "9")
    assert code == 2 and "4-6 players" in err
    code, _, _ = run_main(capsys, "frobnicate")
    assert code == 2


def test_demo_game_is_narrated(capsys):
    code, out, _ = run_main(capsys, "play", "get-bit", "--players", "4", "--seed", "1")
    assert code == 0 and "Round 1." in out and "Game over. Winner" in out


def test_variant_play_and_unknown_variant(capsys):
    code, out, _ = run_main(capsys, "play", "get-bit", "-v", "two-players", "-p", "2", "--seed", "3")
    assert code == 0 and "Game over" in out
    code, _, err = run_main(capsys, "play", "get-bit", "-v", "two-player", "-p", "2")
    assert code == 1 and "did you mean 'two-players'" in err


def test_a_scripted_human_sees_only_their_view_and_plays(capsys, monkeypatch):
    import io

    answers = io.StringIO("?\n9\n1\n" + "1\n" * 400)
    monkeypatch.setattr("sys.stdin", answers)
    code, out, _ = run_main(capsys, "play", "get-bit", "--players", "4", "--seed", "2", "--human", "1")
    assert code == 0
    assert "P1: choose a card to play" in out and "1. red 1" in out
    assert "Please type a number from 1 to 5." in out  # the bad answer 9
    assert "Type the number of an option" in out  # help
    first_view = out.split("P1: choose a card to play")[0]
    hand_lines = [line for line in first_view.splitlines() if line.strip().startswith("hand[")]
    assert any("red 1" in line for line in hand_lines)
    assert all("[hidden]" in line for line in hand_lines if "red" not in line)  # other hands are hidden


def test_simulate_summary(capsys):
    code, out, _ = run_main(capsys, "simulate", "get-bit", "-n", "20", "-q", "--seed", "4")
    assert code == 0 and "wins by seat" in out and "errors: 0" in out


def test_graph_formats(capsys):
    code, out, _ = run_main(capsys, "graph", "get-bit")
    assert code == 0 and '"swim" -> "bite" [label="round > 1"]' in out
    code, out, _ = run_main(capsys, "graph", "get-bit", "--format", "mermaid")
    assert code == 0 and out.startswith("flowchart LR")


def test_schema_is_json(capsys):
    code, out, _ = run_main(capsys, "schema")
    assert code == 0 and json.loads(out)["title"] == "Rulebook ruleset"


def test_scenarios_command(capsys):
    code, out, _ = run_main(capsys, "test", str(ROOT / "rulesets" / "get-bit"))
    assert code == 0 and " passed, 0 failed" in out


def test_failing_scenario_shows_expression_value_and_line(tmp_path, capsys):
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (tmp_path / "ruleset.yaml").write_text((ROOT / "rulesets" / "get-bit" / "ruleset.yaml").read_text())
    (folder / "wrong.yaml").write_text('name: wrong\nplayers: 4\nexpect:\n  - "count(line) == 5"\n')
    code, out, _ = run_main(capsys, "test", str(folder / "wrong.yaml"))
    assert code == 1
    assert "wrong.yaml:4:5: error[E070]: expectation failed: count(line) == 5 (left side is 4, right side is 5)" in out


def test_bench_prints_rates(capsys):
    code, out, _ = run_main(capsys, "bench", "get-bit", "--seconds", "0.3")
    assert code == 0 and "games_per_s=" in out and "decisions_per_s=" in out


def test_board_map_from_the_view():
    from rulebook.compiler.build import compile_path
    from rulebook.interpreter.game import Game

    from rulebook.terminal.screen import render_view

    st = Game(compile_path(HERE / "data" / "map.yaml").program).new(players=2)
    text = render_view(st, 0)
    assert "hex map" in text and "b1+" in text and "legend: # land" in text


def test_new_scaffold_validates_tests_and_plays(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run_main(capsys, "new", "my-first-game")
    assert code == 0 and "created my-first-game/ruleset.yaml" in out
    first = (tmp_path / "my-first-game" / "scenarios" / "stop-keeps-cards.yaml").read_text().splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=") and first.endswith("validator/scenario.schema.json")
    assert Path(first.split("=", 1)[1]).is_file()
    assert run_main(capsys, "validate", "my-first-game")[0] == 0
    code, out, _ = run_main(capsys, "test", "my-first-game")
    assert code == 0 and "1 passed, 0 failed" in out
    code, out, _ = run_main(capsys, "play", "my-first-game", "--seed", "3")
    assert code == 0 and "Game over" in out
    code, _, err = run_main(capsys, "new", "my-first-game")
    assert code == 1 and "not empty" in err


def test_explain_summarises_phases_actions_and_variants(capsys):
    code, out, _ = run_main(capsys, "explain", "get-bit", "--definitions")
    assert code == 0
    for text in (
        "# Get Bit!",
        "## Components (with 4 players)",
        "- 20 × card",
        "### swim",
        "- then: bite if round > 1",
        "- two-players (2 players): players 2-2; sets robots_per_player = 2",
        "## Bots\n- the greedy agent judges a position by: sum(filter(line, r => owner(r) == player)",
    ):
        assert text in out, text
    code, out, _ = run_main(capsys, "explain", "get-bit", "-v", "play-the-shark", "--definitions")
    assert code == 0 and "# Get Bit! (play-the-shark)" in out and "× shark_card" in out


def test_log_and_replay_reproduce_a_game(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    code, out, _ = run_main(capsys, "play", "get-bit", "--seed", "6", "--log", str(log))
    assert code == 0
    header = json.loads(log.read_text().splitlines()[0])
    assert header["ruleset"] == "get-bit" and header["seed"] == 6 and header["digest"]
    code, out, _ = run_main(capsys, "replay", str(log))
    assert code == 0 and "replay reproduces the log" in out and "winners: P" in out


def test_a_tampered_log_is_refused_with_one_line(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    run_main(capsys, "play", "get-bit", "--seed", "6", "--log", str(log))
    lines = log.read_text().splitlines()
    first = next(i for i, line in enumerate(lines) if '"step"' in line)
    record = json.loads(lines[first])
    record["value"] = 999  # a decision the game never offered
    lines[first] = json.dumps(record)
    log.write_text("\n".join(lines))
    code, _, err = run_main(capsys, "replay", str(log))
    assert code == 1 and "step 1:" in err and "Traceback" not in err
    (tmp_path / "junk.jsonl").write_text("not json\n")
    code, _, err = run_main(capsys, "replay", str(tmp_path / "junk.jsonl"))
    assert code == 1 and "not JSON" in err


def test_save_at_a_decision_and_resume(tmp_path, capsys, monkeypatch):
    import io

    save = tmp_path / "save.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\ns\n"))
    code, out, _ = run_main(capsys, "play", "get-bit", "--seed", "8", "--human", "1", "--save", str(save))
    assert code == 0 and "Saved to" in out and save.exists()
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 300))
    code, out, _ = run_main(capsys, "play", "get-bit", "--resume", str(save))
    assert code == 0 and "Game over" in out
    save.write_text(save.read_text().replace('"digest": "', '"digest": "x'))
    code, _, err = run_main(capsys, "play", "get-bit", "--resume", str(save))
    assert code == 1 and "changed since this game was saved" in err


def test_a_save_naming_a_user_agent_is_refused_unless_bots_are_given(tmp_path, capsys, monkeypatch):
    import io

    save = tmp_path / "save.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\ns\n"))
    code, _, _ = run_main(capsys, "play", "tic-tac-toe", "--seed", "3", "--human", "1", "--bots", "greedy",
                          "--save", str(save))
    data = json.loads(save.read_text())
    assert code == 0 and data["bots"] == "greedy"
    data["bots"] = "os:system"  # would import and call code named by whoever wrote the file
    save.write_text(json.dumps(data))
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 5))
    code, out, err = run_main(capsys, "play", "tic-tac-toe", "--resume", str(save))
    assert code == 1 and "not built in ('os:system')" in err and "Game over" not in out
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 5))
    code, out, _ = run_main(capsys, "play", "tic-tac-toe", "--resume", str(save), "--bots", "random")
    assert code == 0 and "Game over" in out


def test_test_takes_a_ruleset_file_or_id_for_the_scenarios_beside_it(capsys):
    from helpers import run_main

    for arg in ("examples/pig/ruleset.yaml", "pig", "examples/pig"):
        code, out, _ = run_main(capsys, "test", arg)
        assert code == 0 and out.strip().endswith("6 passed, 0 failed"), (arg, out)
    code, _, err = run_main(capsys, "test", "no-such-game")
    assert code == 1 and "no ruleset 'no-such-game'" in err


def test_replay_checks_the_seat_given_to_as(tmp_path, capsys):
    from helpers import run_main

    log = tmp_path / "nim.jsonl"
    code, _, _ = run_main(capsys, "play", "nim", "--seed", "2", "--log", log)
    assert code == 0
    code, _, err = run_main(capsys, "replay", log, "--step", "--as", "9")
    assert code == 2 and "--as takes a seat from 1 to 2, not 9" in err
    code, _, err = run_main(capsys, "replay", log, "--as", "1")
    assert code == 2 and "add --step" in err
    code, out, _ = run_main(capsys, "replay", log)
    assert code == 0 and "replay reproduces the log" in out
