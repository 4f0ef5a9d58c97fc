"""The JSON Schemas of scenario files, saves and logs (rulebook/files/shapes.py):
valid schemas, in step with the readers' limits, met by every file Rulebook
writes and every scenario in the repository, and their errors in plain words
at the value's place."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from rulebook.files import shapes
from rulebook.files.saves import MAX_DECISIONS, MAX_PLAYERS
from rulebook.testing.scenarios import read_scenario

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["save", "log", "scenario"])
def test_each_schema_is_a_valid_draft_2020_12_schema(name):
    data = shapes.schema(name)
    assert data["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(data)


def test_the_schemas_limits_are_the_readers():
    save, log, scenario = (shapes.schema(n) for n in ("save", "log", "scenario"))
    assert save["properties"]["players"]["maximum"] == MAX_PLAYERS
    assert save["properties"]["state"]["properties"]["history"]["maxItems"] == MAX_DECISIONS
    assert save["properties"]["state"]["properties"]["history"]["items"]["prefixItems"][0]["maximum"] == MAX_PLAYERS - 1
    assert log["$defs"]["header"]["properties"]["players"]["maximum"] == MAX_PLAYERS
    assert log["$defs"]["step"]["properties"]["step"]["maximum"] == MAX_DECISIONS
    assert scenario["properties"]["players"]["maximum"] == MAX_PLAYERS
    assert scenario["properties"]["steps"]["maxItems"] == MAX_DECISIONS


def test_every_scenario_of_the_repository_meets_the_scenario_schema():
    paths = sorted(ROOT.glob("*/*/scenarios/*.yaml"))
    assert len(paths) > 20
    for path in paths:
        doc, diags = read_scenario(path)
        assert diags == [], (path, [d.render() for d in diags])
        assert shapes.problems("scenario", doc.data) == []


def test_a_save_and_a_log_written_by_rulebook_meet_their_schemas(tmp_path):
    from rulebook.compiler.build import compile_path
    from rulebook.interpreter.game import Game

    from rulebook.files.logs import LogWriter

    ruleset = ROOT / "examples" / "tic-tac-toe" / "ruleset.yaml"
    game = Game(compile_path(ruleset).program)
    st = game.new(players=2, seed=3)
    log_path = tmp_path / "game.jsonl"
    writer = LogWriter(log_path, game, st, 3, str(ruleset))
    while not st.over:
        (player,) = game.to_move(st)
        options = game.options(st, player)
        writer.decision(player, options.plain[0], options.labels[0])
        game.apply(st, player, 0)
    save = dict(game.save(st), humans=[1], bots="greedy")
    writer.end(st)
    assert shapes.problems("save", json.loads(json.dumps(save))) == []
    lines = [json.loads(x) for x in log_path.read_text().splitlines()]
    assert len(lines) > 3 and "end" in lines[-1]
    parts = ["header"] + ["step" if "step" in x else "end" if "end" in x else "say" for x in lines[1:]]
    for line, part in zip(lines, parts, strict=True):
        assert shapes.problems("log", line, part) == [], (part, line)
        assert shapes.problems("log", line) == [], line  # the whole schema (what an editor sees) too


def test_a_problem_names_the_value_and_what_it_must_be_at_its_place():
    save = {"format": 1, "ruleset": "x", "digest": "d", "variants": [], "players": 2,
            "state": {"seed": 1, "history": [[0, 1], [64, 2]]}}
    (problem,) = shapes.problems("save", save)
    assert problem.path == ("state", "history", 1)
    assert problem.message.startswith("decision 2 must be [seat, value]") and problem.message.endswith(
        "not a list of 2 items")
    (problem,) = shapes.problems("save", dict(save, state={"history": []}))
    assert (problem.path, problem.message) == (("state",), "'seed' is missing")


def test_a_whole_number_is_not_a_fraction_and_a_pattern_matches_the_whole_text():
    """JSON Schema counts 2.0 as an integer, and jsonschema's ``$`` matches
    before a final line break: neither reaches a game."""
    header = {"rulebook_log": 1, "ruleset": "nim", "players": 2, "seed": 1, "variants": [], "params": {}}
    assert shapes.problems("log", header, "header") == []
    (problem,) = shapes.problems("log", dict(header, players=2.0), "header")
    assert problem.path == ("players",) and problem.message.startswith("'players' must be a whole number")
    (problem,) = shapes.problems("log", dict(header, ruleset="nim\n"), "header")
    assert problem.path == ("ruleset",) and "ruleset id" in problem.message


def test_an_unknown_field_is_placed_at_its_key_with_a_suggestion():
    problems = shapes.problems("scenario", {"players": 2, "steps": [{"player": 0, "optoin": "x"}]})
    assert problems == [shapes.Problem(("steps", 0, "optoin"), "unknown step field 'optoin'",
                                       "did you mean 'option'?", key=True)]
