"""``rulebook check``: the property checks on a ruleset from the command
line. A sound ruleset passes with every check made; one that asks only the
players holding a card is caught, with the decisions that lead there."""

from __future__ import annotations

from click.testing import CliRunner

from rulebook.cli.main import cli
from tests.unit.test_who_is_asked import EVERYBODY, LEAKY, ONLY_HOLDERS

HEAD = """rulebook: 1
id: reactions
title: Reactions
players: {min: 3, max: 3}
"""


def run(*args):
    result = CliRunner().invoke(cli, ["check", *args], catch_exceptions=False)
    return result.exit_code, result.output


def test_a_sound_ruleset_passes_every_check():
    code, out = run("nim", "-n", "5")
    assert code == 0, out
    summary = out.strip().splitlines()[-1]
    assert summary.startswith("Nim: 10 games") and summary.endswith("0 failures")
    for check in ("components", "decisions", "clones", "saves", "views", "who is asked"):
        assert f"{check} 0;" not in summary + ";" and f"{check} " in summary


def test_a_question_put_only_to_holders_is_caught(tmp_path):
    leaky, fixed = tmp_path / "leaky.yaml", tmp_path / "fixed.yaml"
    leaky.write_text(HEAD + LEAKY.replace("ASK", ONLY_HOLDERS))
    fixed.write_text(HEAD + LEAKY.replace("ASK", EVERYBODY))
    code, out = run(str(leaky), "-n", "8", "--seed", "1")
    assert code == 1 and "FAIL  who is asked:" in out and "replay: game.new(players=3, seed=" in out
    code, out = run(str(fixed), "-n", "8", "--seed", "1")
    assert code == 0 and out.strip().endswith("0 failures"), out
