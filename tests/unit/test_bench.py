"""The benchmark suite runs and reports every figure (speed is never
asserted: these check the measuring, not the machine)."""
from __future__ import annotations

import importlib.util
import random
import re
import sys
from pathlib import Path

import pytest

from tests.helpers import run_main

SUITE = Path(__file__).resolve().parents[2] / "benchmarks" / "suite.py"


def load_suite():
    spec = importlib.util.spec_from_file_location("bench_suite", SUITE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_suite_measures_one_game_and_renders_its_row():
    suite = load_suite()
    result = suite.run(["nim"], 0.2)
    (row,) = result["rows"]
    assert row["game"] == "nim" and row["players"] == 2
    assert row["games_per_s"] > 0 and row["decisions_per_game"] > 1
    assert 0 < row["save_bytes"] < 100 * 1024  # the state is small...
    assert row["clone_us"] > 0 and row["clone_speedup"] > 1  # ...and a clone is cheaper than a deep copy
    assert 0 < row["load_s"] and 0 < result["load_five_seed_games_s"] and 0 < result["cli_help_s"]
    text = suite.render(result)
    assert "| nim | 2 |" in text and "rulebook --help" in text


def test_every_game_of_the_suite_exists():
    suite = load_suite()
    for name in suite.GAMES:
        assert suite.ruleset_path(name).exists()


def test_the_line_sampler_ranks_lines_of_the_generated_module(capsys):
    """tools/line_sampler.py samples random games of a ruleset and names
    lines of its generated module (the measuring, not the machine)."""
    spec = importlib.util.spec_from_file_location("line_sampler", SUITE.parent.parent / "tools" / "line_sampler.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["get-bit", "4", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "samples over" in out and "generated lines:" in out
    listed = out.split("generated lines:")[1].strip().splitlines()
    assert listed and all(": " in row and "%" in row for row in listed)


# ------------------------------------------------------------------ issue 39: baselines and ratios

BASELINES = SUITE.parent / "baselines"
ROOT = SUITE.parent.parent
LINE = re.compile(
    r"^game=(?P<game>[\w-]+) players=\d+ impl=(?P<impl>python|native) games_per_s=[\d.]+ "
    r"decisions_per_game=[\d.]+ vs_handwritten=(?P<ratio>[\d.]+) \((?P<lo>[\d.]+)-(?P<hi>[\d.]+)\) "
    r"handwritten_games_per_s=[\d.]+ handwritten_decisions_per_game=[\d.]+$")


def load_runner():
    spec = importlib.util.spec_from_file_location("bench_baselines_run", BASELINES / "run.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_bench_all_prints_a_ratio_with_its_spread_for_each_game(capsys):
    code, out, _ = run_main(capsys, "bench", "all", "--seconds", "0.2", "--rounds", "2", "--games", "goofspiel,pig")
    assert code == 0
    rows = [LINE.match(line) for line in out.strip().splitlines()]
    assert all(rows), out
    assert [(m["game"], m["impl"]) for m in rows] == [("goofspiel", "python"), ("pig", "python")]
    for m in rows:
        assert float(m["lo"]) <= float(m["ratio"]) <= float(m["hi"]) and float(m["ratio"]) > 0


def test_bench_all_refuses_a_game_it_does_not_have(capsys):
    code, _, err = run_main(capsys, "bench", "all", "--games", "pig,chess")
    assert code != 0 and "chess is neither a benchmark game" in err


def test_bench_native_says_why_it_cannot_build(capsys, monkeypatch):
    """bench GAME --native measures the native build; on a machine that
    cannot build one it says why in one line (the build itself takes a
    minute or two, too long for this file: docs/performance.md has its figures)."""
    from rulebook.compiler import native

    monkeypatch.setattr(native, "missing", lambda: "native code needs Cython: pip install 'rulebook[native]'")
    code, out, err = run_main(capsys, "bench", "pig", "--native", "--seconds", "0.1")
    assert code != 0 and "native code needs Cython" in err and "Traceback" not in err + out


def test_bench_all_measures_a_ruleset_by_its_path_against_a_given_baseline(capsys, tmp_path):
    """A ruleset nobody listed is measured the same way, by its path."""
    code, out, _ = run_main(capsys, "bench", "all", "--games", ROOT / "examples" / "pig", "--baseline",
                            BASELINES / "pig.py", "--seconds", "0.2", "--rounds", "1")
    assert code == 0 and LINE.match(out.strip().replace(str(ROOT / "examples" / "pig"), "pig")), out
    code, out, _ = run_main(capsys, "bench", "all", "--games", ROOT / "examples" / "nim", "--seconds", "0.1")
    assert code == 0 and "skipped: no hand-written baseline (--baseline FILE gives one)" in out


def test_bench_game_keeps_its_output_format(capsys):
    code, out, _ = run_main(capsys, "bench", "goofspiel", "--seconds", "0.1")
    assert code == 0
    assert re.fullmatch(r"impl=rulebook game=goofspiel players=2 games=\d+ games_per_s=[\d.]+ "
                        r"decisions_per_s=\d+ decisions_per_game=26\.0\n", out)


@pytest.mark.parametrize("name,players", [("pig", 2), ("pig", 4), ("goofspiel", 2), ("goofspiel", 3), ("hex", 2),
                                          ("reversi", 2), ("hearts", 4), ("little_kingdoms", 2)])
def test_each_baseline_plays_a_game_to_the_end_with_a_legal_winner(name, players):
    runner = load_runner()
    module = runner.load_module(BASELINES / f"{name}.py")
    for seed in range(3):
        winners, decisions = module.play(players, random.Random(seed))
        assert winners and set(winners) <= set(range(players)) and len(set(winners)) == len(winners)
        assert decisions > 0


def test_the_baselines_play_the_rulesets_rules():
    """Fixed counts the rules imply, the same in the baseline as in the
    ruleset: every player bids once per prize, every card is played once."""
    runner = load_runner()
    goofspiel = runner.load_module(BASELINES / "goofspiel.py")
    hearts = runner.load_module(BASELINES / "hearts.py")
    hex_game = runner.load_module(BASELINES / "hex.py")
    assert all(goofspiel.play(2, random.Random(s))[1] == 26 for s in range(5))
    assert all(goofspiel.play(3, random.Random(s))[1] == 39 for s in range(5))
    assert all(hearts.play(4, random.Random(s))[1] == 52 for s in range(5))
    # a hex board fills up in at most size * size moves, never in fewer than 2 * size - 1
    assert all(13 <= hex_game.play(2, random.Random(s))[1] <= 49 for s in range(20))
    by_name = {e.game: e for e in runner.ENTRIES}
    for game in ("goofspiel", "hearts"):
        ours, theirs = runner.parity(by_name[game], 5)
        assert ours == theirs
    ours, theirs = runner.parity(by_name["hex"], 40)
    assert abs(ours - theirs) < 6  # random games: means of 40 games with a spread of about 5


def test_hearts_baseline_leads_the_two_of_clubs_and_follows_suit():
    hearts = load_runner().load_module(BASELINES / "hearts.py")
    hand = [("clubs", 5), ("hearts", 3), ("spades", 12), ("diamonds", 9)]
    assert hearts.legal([("clubs", 2)] + hand, [], True, False) == [("clubs", 2)]
    assert hearts.legal(hand, [(0, ("clubs", 9))], False, False) == [("clubs", 5)]
    # void in the suit led, on the first trick: no points while there is anything else
    assert hearts.legal(hand[1:], [(0, ("clubs", 2))], True, False) == [("diamonds", 9)]
    assert hearts.legal(hand[1:], [], False, False) == [("spades", 12), ("diamonds", 9)]
    assert hearts.legal([("hearts", 3), ("hearts", 9)], [], False, False) == [("hearts", 3), ("hearts", 9)]


def test_reversi_baseline_opens_with_the_four_classic_moves():
    reversi = load_runner().load_module(BASELINES / "reversi.py")
    game = reversi.Reversi()
    assert sorted(game.moves(0)) == sorted([(3, 2), (2, 3), (5, 4), (4, 5)])
    game.place(3, 2, 0)
    assert game.discs(0) == 4 and game.discs(1) == 1


def test_the_peer_script_measures_open_spiel_or_says_it_is_missing():
    """benchmarks/openspiel_peers.py runs under a Python with open_spiel (a
    separate virtual environment); its line is what the runner reads, and
    without open_spiel it says so and the runner leaves the peer out."""
    import subprocess

    runner = load_runner()
    got = runner.peer_round(sys.executable, "tic-tac-toe", 0.05)
    if importlib.util.find_spec("pyspiel") is None:
        out = subprocess.run([sys.executable, str(runner.PEERS_SCRIPT), "--seconds", "0.1"], capture_output=True,
                             text=True)
        assert out.returncode == 2 and "status=unavailable" in out.stdout and got is None
    else:
        games, decisions, seconds = got
        assert games > 0 and 5 * games <= decisions <= 9 * games and seconds > 0  # 5 to 9 marks a game


def test_the_work_count_counts_calls_and_instructions_and_grows_with_the_games(capsys):
    """benchmarks/work_count.py counts calls and instructions, not time: it
    prints both, the generated module's share by its file name, and more
    games count more calls. (Two counts of the same games in one process
    need not be equal: lazy tables filled on first use, which a fresh
    install filled at other points, so exact repeats are not asserted.)"""
    spec = importlib.util.spec_from_file_location("work_count", SUITE.parent / "work_count.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(["examples/nim/ruleset.yaml", "--games", "1"])
    out = capsys.readouterr().out
    assert re.search(r"^calls=[1-9]\d*$", out, re.M) and re.search(r"^instructions=[1-9]\d*$", out, re.M)
    assert re.search(r"^ +\d+  <rulebook nim ", out, re.M)  # the generated module's share, by its file name

    from rulebook.compiler.build import compile_path
    from rulebook.interpreter.game import Game

    from rulebook.simulate.run import game_seed, play_one

    game = Game(compile_path(ROOT / "examples" / "nim" / "ruleset.yaml").program)

    def play(i):
        play_one(game, 2, game_seed(0, i))

    play(0)  # the first game fills the engine's lazy tables: counted after it, as main() does
    assert 0 < module.count_calls(play, 2) < module.count_calls(play, 6)
