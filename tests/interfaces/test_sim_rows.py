"""`rulebook simulate --out` (issue 37, item 7): the file is opened before
the first game, each game's row is written as the game finishes, in index
order on every backend, and a write that fails (a full disk) stops the run
with the complete rows kept and no partial line.

A full disk is a file object whose writes fail with ENOSPC after a number
of bytes (``Filling``), or /dev/full behind a name ending in .jsonl."""

from __future__ import annotations

import errno
import io
import json
import os
from pathlib import Path

import pytest
from rulebook.compiler.build import compile_path
from rulebook.interpreter.game import Game

from rulebook.simulate import backends as sim_backends
from rulebook.simulate import rows as sim_rows
from rulebook.simulate.backends import InOrder
from rulebook.simulate.rows import RowsLost, RowWriter
from rulebook.simulate.run import run_many
from tests.helpers import run_main

ROOT = Path(__file__).resolve().parents[2]
PIG = ROOT / "examples" / "pig" / "ruleset.yaml"


class Filling(io.BytesIO):
    """A disk with ``room`` bytes left: a write takes what fits, and one
    with nothing left raises ENOSPC, as write(2) does on a full disk."""

    def __init__(self, room: int, stop: BaseException | None = None):
        super().__init__()
        self.room, self.stop = room, stop or OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def write(self, data) -> int:
        left = self.room - self.tell()
        if left <= 0:
            raise self.stop
        return super().write(bytes(data)[:left])

    def close(self) -> None:
        self.kept = self.getvalue()
        super().close()


@pytest.fixture
def played(monkeypatch) -> list[int]:
    """The index of every game played, in the order they were played."""
    calls: list[int] = []
    real = sim_backends.Job.play

    def play(self, game, index):
        calls.append(index)
        return real(self, game, index)

    monkeypatch.setattr(sim_backends.Job, "play", play)
    return calls


def pig() -> Game:
    return Game(compile_path(PIG).program)


def lines(data: bytes) -> list[dict]:
    assert data.endswith(b"\n") or not data, data[-80:]
    return [json.loads(line) for line in data.decode().splitlines()]


# ------------------------------------------------------------ before the first game


def test_an_out_path_that_cannot_be_written_stops_the_run_before_its_first_game(tmp_path, capsys, played):
    missing = tmp_path / "no" / "such" / "folder" / "r.jsonl"
    code, out, err = run_main(capsys, "simulate", "pig", "-n", "30", "-q", "--out", missing)
    assert code == 1 and played == [] and out == ""
    assert f"--out {missing}: No such file or directory; no game was played" in err and "Traceback" not in err


def test_a_csv_whose_header_cannot_be_written_stops_the_run_before_its_first_game(tmp_path, capsys, played):
    full = tmp_path / "full.csv"
    full.symlink_to("/dev/full")
    code, _, err = run_main(capsys, "simulate", "pig", "-n", "30", "-q", "--out", full)
    assert code == 1 and played == [] and "No space left on device; no game was played" in err


# ------------------------------------------------------------ a full disk


def test_a_full_disk_stops_the_run_and_keeps_the_complete_rows_only(played):
    disk = Filling(room=1000)
    rows = RowWriter("r.jsonl", file=disk)
    with pytest.raises(RowsLost) as lost:
        run_many(pig(), 2, 40, run_seed=3, sink=rows.write)
    kept = lines(disk.getvalue())  # a whole number of lines: the row cut by the full disk was cut off
    assert lost.value.rows == len(kept) > 0 and [r["index"] for r in kept] == list(range(len(kept)))
    assert played == list(range(len(kept) + 1))  # the game whose row failed was the last one played
    assert f"the file holds the {len(kept)} complete rows written before it, and no partial line" in str(lost.value)


def test_the_command_says_how_many_rows_a_full_disk_kept(tmp_path, capsys, monkeypatch, played):
    disks = []

    def open_filling(path, mode, buffering):  # what RowWriter opens: a disk with room for about four rows
        assert (mode, buffering) == ("wb", 0)
        disks.append(Filling(room=1100))
        return disks[-1]

    monkeypatch.setattr(sim_rows, "open", open_filling, raising=False)
    code, out, err = run_main(capsys, "simulate", "pig", "-n", "30", "-q", "--out", tmp_path / "r.jsonl")
    kept = lines(disks[0].kept)
    assert code == 1 and out == "" and 0 < len(kept) < 30 and len(played) == len(kept) + 1
    assert f"No space left on device: the run stopped; the file holds the {len(kept)} complete rows" in err
    assert "Traceback" not in err


def test_dev_full_as_out_is_an_error_after_the_first_game_not_after_the_run(tmp_path, capsys, played):
    full = tmp_path / "full.jsonl"
    full.symlink_to("/dev/full")
    code, _, err = run_main(capsys, "simulate", "pig", "-n", "30", "-q", "--out", full)
    assert code == 1 and played == [0]
    assert "No space left on device: the run stopped; the file holds the 0 complete rows" in err


def test_ctrl_c_in_the_middle_of_a_row_leaves_no_partial_line():
    disk = Filling(room=700, stop=KeyboardInterrupt())
    rows = RowWriter("r.jsonl", file=disk)
    with pytest.raises(sim_backends.Interrupted) as stop:
        run_many(pig(), 2, 40, run_seed=3, sink=rows.write)
    kept = lines(disk.getvalue())
    assert rows.rows == len(kept) > 0 and len(stop.value.results) == len(kept) + 1  # the last game's row was cut


# ------------------------------------------------------------ as the games finish


def test_each_row_is_written_when_its_game_finishes_not_at_the_end(tmp_path, monkeypatch):
    out = tmp_path / "r.jsonl"
    seen = []
    real = sim_backends.Job.play

    def play(self, game, index):  # before game i is played, the rows of games 0 .. i-1 are in the file
        seen.append(len(out.read_bytes().splitlines()) if out.exists() else None)
        return real(self, game, index)

    monkeypatch.setattr(sim_backends.Job, "play", play)
    rows = RowWriter(out)
    run_many(pig(), 2, 12, sink=rows.write)
    rows.close()
    assert seen == list(range(12))


def test_the_command_writes_each_row_as_its_game_finishes(tmp_path, capsys, monkeypatch):
    out = tmp_path / "r.csv"
    seen = []
    real = sim_backends.Job.play

    def play(self, game, index):
        seen.append(len(out.read_bytes().splitlines()))  # the header, then one row per game finished
        return real(self, game, index)

    monkeypatch.setattr(sim_backends.Job, "play", play)
    code, _, _ = run_main(capsys, "simulate", "pig", "-n", "8", "-q", "--out", out)
    assert code == 0 and seen == [1 + i for i in range(8)] and len(out.read_bytes().splitlines()) == 9


def test_results_in_any_order_reach_the_sink_in_index_order():
    from rulebook.simulate.games import Result

    got = []
    ordered = InOrder(lambda r: got.append(r.index))
    for i in (2, 0, 3, 1, 6, 5):
        ordered.add(Result(i, i, [], 0))
    assert got == [0, 1, 2, 3]  # 5 and 6 wait for game 4
    ordered.rest()  # the run stopped: game 4 never finished
    assert got == [0, 1, 2, 3, 5, 6]


@pytest.mark.parametrize("backend,workers", [("local", 1), ("local", 2), ("dask", 2)])
def test_every_backend_gives_the_sink_the_rows_in_index_order_as_the_file_had_them(backend, workers):
    if backend == "dask":
        pytest.importorskip("dask.distributed", reason="dask.distributed is not installed (the dask extra)")
    given = []
    results = run_many(pig(), 2, 30, run_seed=4, workers=workers, backend=backend, sink=given.append)
    assert [r.index for r in given] == list(range(30)) and given == results

