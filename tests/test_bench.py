"""The benchmark suite runs and reports every figure (speed is never
asserted: these check the measuring, not the machine)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

SUITE = Path(__file__).resolve().parent.parent / "benchmarks" / "suite.py"


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
