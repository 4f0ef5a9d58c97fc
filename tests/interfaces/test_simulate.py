"""`rulebook simulate`: agent line-ups, determinism across backends, outputs
and replayable failures. Every run here is a few fast games (Pig, tic-tac-toe,
Dead Man's Draw, or a tiny ruleset written in the test)."""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path

import pytest
from rulebook.agents.base import RandomAgent, play_out
from rulebook.compiler.build import compile_path
from rulebook.interpreter.game import Game

from rulebook.simulate.report import percentile, wilson
from rulebook.simulate.run import (
    AGENT,
    CAP,
    RULE,
    agent_seed,
    game_seed,
    lineup,
    play_game,
    play_one,
    run_many,
    split_agents,
)
from tests.helpers import agent_package, run_main

ROOT = Path(__file__).resolve().parents[2]

# A rule that fails only on some seeds: a roll of 8 indexes past the list.
FLAKY = """\
rulebook: 1
id: flaky
title: Flaky
players: {min: 2, max: 3}
vars:
  rolls: 0
  faces:
    type: list of int
    initial: "[1, 2, 3, 4, 5]"
actions:
  roll:
    effect: |
      set rolls += 1
      let r = roll(8)
      if r == 8:
          set rolls = faces[r]
      if rolls >= 6:
          end game winners [player]
  wait:
    effect: |
      set rolls += 1
phases:
  play:
    turn:
      actions: [roll, wait]
"""

# User agents, in a package put on sys.path (spawned workers inherit it).
AGENTS = """\
import random


class Uniform:
    '''What RandomAgent does, written as a user would.'''

    def __init__(self, seed=0):
        self.rng = random.Random(seed)

    def choose(self, view, options):
        return self.rng.randrange(len(options))


class First:
    def __init__(self, seed=0):
        pass

    def decide(self, decision):
        assert decision.view is not None and decision.options
        return 0


class Broken:
    def __init__(self, seed=0):
        self.calls = 0

    def choose(self, view, options):
        self.calls += 1
        if self.calls > 2:
            raise KeyError("oops")
        return 0


def wild(seed=0):
    return lambda view, options: 99
"""




def load(path) -> Game:
    compiled = compile_path(path)
    assert compiled.program is not None
    return Game(compiled.program)


@pytest.fixture
def user_agents(tmp_path, monkeypatch):
    return agent_package(tmp_path, monkeypatch, "rbsim_agents", AGENTS)


@pytest.fixture
def flaky(tmp_path) -> Path:
    path = tmp_path / "flaky.yaml"
    path.write_text(FLAKY)
    return path


PIG = ROOT / "examples" / "pig" / "ruleset.yaml"
DMD = ROOT / "rulesets" / "dead-mans-draw" / "ruleset.yaml"


# ------------------------------------------------------------ agents and seeds


@pytest.mark.parametrize("path,players", [(PIG, 2), (DMD, 2), (ROOT / "examples" / "tic-tac-toe", 2)])
def test_random_fast_loop_plays_like_random_agents_through_the_decision_interface(path, players):
    game = load(path / "ruleset.yaml" if path.is_dir() else path)
    for i in range(6):
        seed = game_seed(5, i)
        fast = play_game(game, players, i, seed, ["random"] * players, fast=True)
        general = play_game(game, players, i, seed, ["random"] * players, fast=False)
        assert fast == general and fast.error is None


def test_random_results_are_those_of_the_old_loop():
    game = load(PIG)
    results = run_many(game, 2, 8, run_seed=3)
    for r in results:
        winners, decisions = play_one(game, 2, game_seed(3, r.index))
        assert (r.winners, r.decisions) == (winners, decisions)


def test_a_user_agent_is_built_per_seat_with_the_seat_seed(user_agents):
    """Uniform, written as a user would, is RandomAgent (a generator per
    seat, seeded with the seat's seed): built by name for each seat, it
    plays exactly as RandomAgent built by hand with agent_seed would."""
    game = load(PIG)
    as_user = run_many(game, 2, 5, run_seed=1, specs=[f"{user_agents}:Uniform"] * 2)
    outcome = lambda results: [(r.winners, r.decisions, r.scores) for r in results]  # noqa: E731
    by_hand = []
    for r in as_user:
        st = game.new(players=2, seed=r.seed, record=False)
        decisions = play_out(game, st, [RandomAgent(agent_seed(r.seed, p)) for p in range(2)], view_fn=False)
        by_hand.append((st.winners, decisions, game.scores(st)))
    assert outcome(as_user) == by_hand
    random = run_many(game, 2, 5, run_seed=1)
    mixed = run_many(game, 2, 5, run_seed=1, specs=[f"{user_agents}:First", "random"])
    assert all(r.error is None and r.agents == [f"{user_agents}:First", "random"] for r in mixed)
    assert [r.decisions for r in mixed] != [r.decisions for r in random]


def test_a_failing_agent_fails_its_game_not_the_run(user_agents, tmp_path, capsys):
    results = run_many(load(PIG), 2, 3, specs=[f"{user_agents}:Broken", "random"])
    assert all(r.kind == AGENT and "KeyError" in r.error and "seat 1" in r.error for r in results)
    assert all(r.decisions == len(r.history) >= 2 for r in results)  # Broken answered twice before failing
    code, out, _ = run_main(capsys, "simulate", "pig", "-n", "2", "-q", "--seat", f"2={user_agents}:wild",
                            "--failures", tmp_path / "f")
    assert code == 1 and "agent 2)" in out and "chose 99, not one of" in out
    assert len(list((tmp_path / "f").iterdir())) == 2
    for log in (tmp_path / "f").iterdir():  # the game up to the agent's bad answer
        code, out, _ = run_main(capsys, "replay", log)
        assert code == 0 and "not finished" in out


def test_agent_specs_by_seat():
    assert split_agents("mcts:iterations=200,c=1.4,random") == ["mcts:iterations=200,c=1.4", "random"]
    assert split_agents("random, pkg.mod:Name") == ["random", "pkg.mod:Name"]
    assert lineup(4, ["mcts", "random"]) == ["mcts", "random", "random", "random"]
    assert lineup(3, ["random"], {1: "mcts"}) == ["random", "mcts", "random"]
    with pytest.raises(ValueError):
        lineup(2, ["random"] * 3)
    with pytest.raises(ValueError):
        lineup(2, ["random"], {2: "mcts"})


def test_cli_line_up_with_seat_overrides(tmp_path, capsys, user_agents):
    out = tmp_path / "r.jsonl"
    code, text, _ = run_main(capsys, "simulate", "pig", "-n", "3", "-q", "--players", "3",
                             "--agents", f"{user_agents}:First,random", "--seat", "3=" + f"{user_agents}:Uniform",
                             "--out", out)
    assert code == 0, text
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["agents"] for r in rows] == [[f"{user_agents}:First", "random", f"{user_agents}:Uniform"]] * 3
    assert f"P1 {user_agents}:First" in text and f"P3 {user_agents}:Uniform" in text


@pytest.mark.parametrize("args", [("--agents", "nosuch"), ("--agents", "random,random,random"),
                                  ("--seat", "3=random"), ("--seat", "x"), ("--agents", "no.such.module:Agent"),
                                  ("--out", "results.txt"), ("--scheduler", "tcp://127.0.0.1:1")])
def test_cli_bad_line_ups_and_options_are_usage_errors(capsys, args):
    code, _, err = run_main(capsys, "simulate", "pig", "-n", "2", "-q", *args)
    assert code == 2 and "Traceback" not in err, err


def test_mcts_is_a_usage_error_until_it_is_installed_then_it_plays(capsys, tmp_path):
    import importlib.util

    code, out, err = run_main(capsys, "simulate", "tic-tac-toe", "-n", "2", "-q", "--seat", "1=mcts:iterations=5",
                              "--failures", tmp_path)
    if importlib.util.find_spec("rulebook.agents.mcts") is None:
        assert code == 2 and "mcts" in err
    else:
        assert code == 0 and "X mcts:iterations=5" in out


def test_a_wrong_parameter_is_one_error_not_one_per_game(capsys, tmp_path):
    code, out, err = run_main(capsys, "simulate", "pig", "-n", "5", "-q", "--param", "nope=1",
                              "--failures", tmp_path / "f")
    assert code == 1 and "E036" in err and not (tmp_path / "f").exists()


# ------------------------------------------------------------ determinism across backends


def test_two_worker_processes_give_the_results_of_one(flaky, user_agents):
    game = load(flaky)
    specs = ["random", f"{user_agents}:Uniform"]
    one = run_many(game, 2, 24, run_seed=7, specs=specs)
    two = run_many(game, 2, 24, run_seed=7, specs=specs, workers=2)
    assert one == two
    assert any(r.error for r in one) and any(r.error is None for r in one)  # both kinds of game were compared


def test_the_dask_backend_gives_the_results_of_a_local_run(flaky):
    distributed = pytest.importorskip("dask.distributed", reason="dask.distributed is not installed (the dask extra)")
    game = load(flaky)
    local = run_many(game, 2, 24, run_seed=7)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        remote = run_many(game, 2, 24, run_seed=7, backend="dask", scheduler=cluster.scheduler_address)
    assert remote == local and any(r.error for r in local)


# ------------------------------------------------------------ outputs


def test_wilson_interval():
    lo, hi = wilson(5, 10)
    assert round(lo, 4) == 0.2366 and round(hi, 4) == 0.7634
    assert wilson(0, 20)[0] == 0.0 and 0 < wilson(0, 20)[1] < 0.17
    assert wilson(20, 20)[1] == 1.0
    assert percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9) == 9 and percentile([4], 0.9) == 4


def test_summary_table_and_rows(tmp_path, capsys, user_agents):
    jsonl, table = tmp_path / "r.jsonl", tmp_path / "r.csv"
    code, out, err = run_main(capsys, "simulate", "pig", "-n", "12", "--seed", "2", "-q", "--out", jsonl)
    assert code == 0 and err == ""
    for needle in ("wins by seat", "95% interval", "median", "p90", "errors: 0", "games/s"):
        assert needle in out, needle
    assert "wins by agent" not in out  # one agent everywhere: nothing to compare
    code, out, _ = run_main(capsys, "simulate", "pig", "-n", "4", "-q", "--agents", f"random,{user_agents}:First")
    assert "wins by agent" in out and re.search(rf"{re.escape(user_agents)}:First +1 +4 ", out), out
    code, _, _ = run_main(capsys, "simulate", "pig", "-n", "12", "--seed", "2", "-q", "--out", table)
    rows = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert [r["index"] for r in rows] == list(range(12))
    assert all(r["seed"] == game_seed(2, r["index"]) and len(r["winners"]) == 1 and r["error"] is None for r in rows)
    assert all(len(r["scores"]) == 2 and r["decisions"] > 0 and r["turns"] > 0 for r in rows)
    with open(table, newline="") as f:
        records = list(csv.DictReader(f))
    assert [int(r["decisions"]) for r in records] == [r["decisions"] for r in rows]
    assert [r["winners"] for r in records] == [str(r["winners"][0]) for r in rows]


def test_progress_bar_goes_to_stderr_unless_quiet(capsys):
    code, out, err = run_main(capsys, "simulate", "tic-tac-toe", "-n", "3")
    assert code == 0 and "simulating" in err and "simulating" not in out


def test_plot_is_a_png(tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (the plot extra)")
    png = tmp_path / "p.png"
    code, out, _ = run_main(capsys, "simulate", "pig", "-n", "10", "-q", "--plot", png)
    assert code == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_without_matplotlib_is_a_usage_error_before_the_run(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # makes `import matplotlib` fail
    code, out, err = run_main(capsys, "simulate", "pig", "-n", "10", "-q", "--plot", tmp_path / "p.png")
    assert code == 2 and "rulebook[plot]" in err and out == ""


# ------------------------------------------------------------ failures


def test_a_failing_game_is_saved_and_replays_to_the_same_error(flaky, tmp_path, capsys):
    failures = tmp_path / "failures"
    out = tmp_path / "r.jsonl"
    code, text, _ = run_main(capsys, "simulate", flaky, "-n", "20", "--seed", "1", "-q",
                             "--failures", failures, "--out", out)
    assert code == 1
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    failed = [r for r in rows if r["error"]]
    assert failed and len(failed) < len(rows)  # only some seeds fail
    assert sorted(Path(r["log"]).name for r in failed) == sorted(p.name for p in failures.iterdir())
    for r in failed:
        assert r["error_kind"] == RULE and "error[R104]: index 8 is outside a list of 5" in r["error"]
        # the ruleset is not on the search path: the printed command names it (a log's header cannot)
        assert f"rulebook replay {r['log']} --game {flaky}" in text or "more failed games" in text
        code, _, err = run_main(capsys, "replay", r["log"], "--game", flaky)
        assert code == 1 and f"step {r['decisions']}: " in err
        assert err.strip().endswith(r["error"].split(": ", 1)[1]), err  # the same rule, line and message
        assert "did not fail the same way" not in text


def test_a_game_stopped_by_the_decision_cap_is_saved_and_replays_to_where_it_stopped(tmp_path, capsys):
    failures = tmp_path / "failures"
    code, text, _ = run_main(capsys, "simulate", "pig", "-n", "2", "-q", "--max-decisions", "5",
                             "--failures", failures)
    assert code == 1 and "decision cap 2" in text
    for log in failures.iterdir():
        code, out, _ = run_main(capsys, "replay", log)
        assert code == 0 and "replay reproduces the log: 5 decisions, not finished" in out


def test_failures_agree_between_the_run_and_a_rerun_of_one_game(flaky):
    game = load(flaky)
    results = run_many(game, 2, 20, run_seed=1)
    for r in results:
        again = play_game(game, 2, r.index, r.seed, ["random", "random"])
        assert again == r
        assert (r.kind is None) == (r.error is None) and r.kind in (None, RULE, CAP)


def test_bench_still_runs(capsys):
    code, out, _ = run_main(capsys, "bench", "pig", "--seconds", "0.2")
    assert code == 0 and "games_per_s=" in out


def test_logs_writes_every_game_and_each_replays_to_its_winners(tmp_path, capsys):
    logs, out = tmp_path / "logs", tmp_path / "r.jsonl"
    code, text, _ = run_main(capsys, "simulate", DMD, "-n", "3", "--seed", "2", "-q", "--workers", "2",
                             "--agents", "mcts:iterations=3,random", "--logs", logs, "--out", out)
    assert code == 0 and "3 game logs written" in text
    rows = {r["index"]: r for r in map(json.loads, out.read_text().splitlines())}
    files = sorted(logs.iterdir())
    assert len(files) == 3
    for f in files:
        index = int(re.search(r"game(\d+)-", f.name).group(1))
        code, shown, _ = run_main(capsys, "replay", f)
        assert code == 0 and f"replay reproduces the log: {rows[index]['decisions']} decisions" in shown


def test_the_summary_gives_final_scores_by_seat_and_the_winning_score(capsys):
    code, out, _ = run_main(capsys, "simulate", PIG, "-n", "12", "-q", "--param", "target=20")
    assert code == 0
    rows = out[out.index("final scores by seat (12 games)"):].splitlines()
    assert rows[1].split() == ["seat", "mean", "min", "median", "max"]
    assert rows[2].startswith("  P1 random") and rows[3].startswith("  P2 random")
    winning = re.search(r"winning score: mean [\d.]+, min (\d+), median [\d.]+, max (\d+)", out)
    assert winning and int(winning.group(1)) >= 20  # pig ends when a player holds at or over the target


def test_a_game_without_scores_prints_no_score_table(capsys):
    code, out, _ = run_main(capsys, "simulate", ROOT / "examples" / "tic-tac-toe", "-n", "3", "-q")
    assert code == 0 and "final scores" not in out


def test_games_the_rules_cut_off_are_counted_when_asked(tmp_path, capsys):
    from helpers import run_main

    out = tmp_path / "ys.csv"
    code, text, _ = run_main(capsys, "simulate", "young-svintus", "-n", "3", "-q", "--cut-off-says",
                             "is cut off after", "--out", out)
    assert code == 0
    assert "cut off by the rules (the narration said 'is cut off after'): 3 of 3 finished games" in text
    rows = out.read_text().splitlines()
    assert rows[0].split(",")[7] == "cut_off" and all(r.split(",")[7] == "True" for r in rows[1:])
    code, text, _ = run_main(capsys, "simulate", "young-svintus", "-n", "3", "-q")
    assert code == 0 and "cut off by the rules" not in text


def test_seats_are_named_as_the_ruleset_names_its_players(capsys):
    """Issue 40 item 7: ``simulate`` names seats as the ruleset does (X and
    O), and by number where the names come from the game itself (Lifeboat's
    characters are dealt in setup, so a name holds for one game only)."""
    code, out, _ = run_main(capsys, "simulate", "tic-tac-toe", "-n", "4")
    assert code == 0
    assert re.search(r"^\s+X random\s", out, re.M) and re.search(r"^\s+O random\s", out, re.M), out
    assert not re.search(r"^\s+P1 random", out, re.M)
    code, out, _ = run_main(capsys, "simulate", "lifeboat", "-n", "2")
    assert code == 0 and re.search(r"^\s+P1 random\s", out, re.M), out
