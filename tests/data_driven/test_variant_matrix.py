"""tools/variant_matrix.py: every variant combination and player count of a
ruleset, with agents and time-outs as simulate has them, and --resume."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("variant_matrix", ROOT / "tools" / "variant_matrix.py")
vm = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(vm)

NIM = str(ROOT / "examples" / "nim" / "ruleset.yaml")


def _rows(text: str) -> list[list[str]]:
    return [[c.strip() for c in line.strip("|").split("|")] for line in text.splitlines()
            if line.startswith("| ") and not line.startswith("| variants")]


def test_every_combination_and_player_count_is_a_cell(capsys):
    assert vm.main([NIM, "--list"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "6 cells" and "misere: 4 players" in out


def test_a_run_writes_one_row_per_cell_and_resume_keeps_them(tmp_path, capsys):
    first = tmp_path / "a.md"
    assert vm.main([NIM, "--games", "3", "--players", "2,3", "--agents", "greedy", "--out", str(first)]) == 0
    rows = _rows(first.read_text())
    assert [(r[0], r[1], r[2], r[3]) for r in rows] == [
        ("(base)", "2", "3", "0"), ("(base)", "3", "3", "0"), ("misere", "2", "3", "0"), ("misere", "3", "3", "0")]
    assert "agents greedy" in first.read_text()
    second = tmp_path / "b.md"
    assert vm.main([NIM, "--games", "3", "--players", "2-4", "--agents", "greedy", "--resume", str(first),
                    "--out", str(second)]) == 0
    text = second.read_text()
    assert "4 cells kept from" in text
    again = {(r[0], r[1]): r for r in _rows(text)}
    assert len(again) == 6 and all(again[(r[0], r[1])] == r for r in rows)  # kept as they were
    # a cell with fewer games than asked for is played again
    third = tmp_path / "c.md"
    assert vm.main([NIM, "--games", "4", "--players", "2", "--agents", "greedy", "--resume", str(second),
                    "--out", str(third)]) == 0
    assert "kept from" not in third.read_text() and all(r[2] == "4" for r in _rows(third.read_text()))
    # the games of another line-up are not this run's
    with pytest.raises(SystemExit, match="was not made with agents random"):
        vm.main([NIM, "--games", "3", "--resume", str(second)])
    # nor those of another version of the rules
    changed = tmp_path / "nim" / "ruleset.yaml"
    changed.parent.mkdir()
    changed.write_text((ROOT / NIM).read_text() + "\n# a changed file\n")
    with pytest.raises(SystemExit, match="ruleset file sha256"):
        vm.main([str(changed), "--games", "3", "--players", "2-4", "--agents", "greedy", "--resume", str(second)])
    capsys.readouterr()


def test_time_outs_add_a_column(tmp_path, capsys):
    out = tmp_path / "t.md"
    data = ROOT / "tests" / "data" / "timeout" / "ruleset.yaml"
    assert vm.main([str(data), "--games", "20", "--time-outs", "0.5", "--out", str(out)]) == 0
    text = out.read_text()
    assert "| time-outs |" in text and "time-out rate 0.5" in text
    (row,) = _rows(text)
    assert int(row[4]) > 0  # some of the 20 games' timed turns ran out
    capsys.readouterr()
