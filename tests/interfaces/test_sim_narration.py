"""`rulebook simulate` and narration (issue 37, item 7): a `say` (or an
option label) that fails at run time is an error in a simulation too, not
only in `rulebook play`. The fast random loop skips narration; a seeded
sample of the games (the first ones and a fraction of the rest) is played
with it, and playing a game with its narration changes nothing else."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rulebook.compiler.build import compile_path
from rulebook.interpreter.game import Game

from rulebook.simulate.run import NARRATED_FIRST, RULE, game_seed, narrated, run_many
from tests.helpers import run_main

ROOT = Path(__file__).resolve().parents[2]

# Playing from an empty hand moves nothing, and then the narration reads the
# value of the top card of that empty hand: only `say` fails, and only when
# `play` is chosen with an empty hand.
SAYS_TOO_MUCH = """\
rulebook: 1
id: says-too-much
title: Says too much
players: {min: 2, max: 2}
components:
  card:
    for_each: {value: "range(1, 7)"}
zones:
  deck: {of: card, visibility: hidden}
  hand: {per: player, of: card}
setup: |
  shuffle deck
actions:
  draw:
    effect: |
      move top(deck) to hand[player]
      if count(deck) == 0:
          end game winners [player]
  play:
    effect: |
      if count(hand[player]) > 0:
          move top(hand[player]) to deck
      say "{player} now shows {top(hand[player]).value}"
phases:
  play:
    turn:
      actions: [draw, play]
"""

SAY_AT = "says-too-much.yaml:23:7"  # the say's line and column


@pytest.fixture
def says(tmp_path) -> Path:
    path = tmp_path / "says-too-much.yaml"
    path.write_text(SAYS_TOO_MUCH)
    return path


def load(path) -> Game:
    return Game(compile_path(path).program)


def test_a_say_that_fails_in_play_is_an_error_in_simulate_with_its_place_and_seed(says, tmp_path, capsys):
    out, failures = tmp_path / "r.jsonl", tmp_path / "f"
    code, text, _ = run_main(capsys, "simulate", says, "-n", "50", "-q", "--out", out, "--failures", failures)
    assert code == 1 and "errors: 0" not in text, text
    failed = [r for r in map(json.loads, out.read_text().splitlines()) if r["error"]]
    assert failed and all(r["error_kind"] == RULE and SAY_AT in r["error"] and r["narrated"] for r in failed)
    for r in failed:
        assert f"game {r['index']} (seed {r['seed']}): " in text or "more" in text
        code, _, err = run_main(capsys, "replay", r["log"], "--game", says)  # replay reproduces it
        assert code == 1 and SAY_AT in err and f"step {r['decisions']}: " in err
    assert "did not fail the same way" not in text
    assert f"narration and option labels evaluated in {NARRATED_FIRST} of 50 games (--check-narration)" in text


def test_with_check_narration_1_every_game_is_narrated_and_0_none(says, capsys, tmp_path):
    code, every, _ = run_main(capsys, "simulate", says, "-n", "40", "-q", "--check-narration", "1",
                              "--failures", tmp_path / "f")
    failing = sum(1 for r in run_many(load(says), 2, 40, narrate=1.0) if r.error)
    assert code == 1 and "evaluated in 40 of 40 games" in every and f"errors: {failing} " in every
    assert failing > 5  # more than the first games' share
    code, none, _ = run_main(capsys, "simulate", says, "-n", "40", "-q", "--check-narration", "0")
    assert code == 0 and "errors: 0" in none and "evaluated in 0 of 40 games" in none


@pytest.mark.parametrize("path,players,games", [
    (ROOT / "examples" / "pig" / "ruleset.yaml", 2, 12),
    (ROOT / "examples" / "love-letter" / "ruleset.yaml", 3, 12),
    (ROOT / "rulesets" / "dead-mans-draw" / "ruleset.yaml", 2, 12),
    (ROOT / "rulesets" / "get-bit" / "ruleset.yaml", 4, 12),
    (ROOT / "rulesets" / "young-svintus" / "ruleset.yaml", 4, 2),
])
def test_narration_changes_no_game(path, players, games):
    """The same games with and without narration, on the fast random loop
    and with an agent: only ``narrated`` differs."""
    game = load(path)
    for specs in (["random"] * players, ["greedy"] + ["random"] * (players - 1)):
        plain = run_many(game, players, games, run_seed=5, specs=specs, narrate=0.0)
        told = run_many(game, players, games, run_seed=5, specs=specs, narrate=1.0)
        assert not any(r.narrated for r in plain) and all(r.narrated for r in told)
        for r in told:
            r.narrated = False
        assert told == plain and all(r.error is None for r in plain)


def test_the_narrated_games_are_the_first_ones_and_a_seeded_fraction_of_the_rest():
    seeds = [game_seed(11, i) for i in range(40_000)]
    chosen = [i for i, s in enumerate(seeds) if narrated(i, s, 0.005)]
    assert chosen[:NARRATED_FIRST] == list(range(NARRATED_FIRST))
    assert 140 < len(chosen) - NARRATED_FIRST < 260  # about 0.5 % of 39,990
    assert chosen == [i for i, s in enumerate(seeds) if narrated(i, s, 0.005)]  # the same for the same seed
    assert not any(narrated(i, s, 0.0) for i, s in enumerate(seeds[:100]))
    assert all(narrated(i, s, 1.0) for i, s in enumerate(seeds))
    more = {i for i, s in enumerate(seeds) if narrated(i, s, 0.05)}
    assert set(chosen) <= more  # a higher rate adds games, it does not choose others


def test_workers_narrate_the_same_games(says):
    game = load(says)
    one = run_many(game, 2, 30, run_seed=2, narrate=0.2)
    two = run_many(game, 2, 30, run_seed=2, narrate=0.2, workers=2)
    assert one == two and any(r.error for r in one) and any(not r.narrated for r in one)
