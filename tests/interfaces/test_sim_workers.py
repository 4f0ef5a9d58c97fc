"""`rulebook simulate --workers N` when a worker dies or the user presses
Ctrl-C (issue 22, item 1): a lost worker is noticed and its games are played
again (or reported failed), every finished game reaches ``--out``, and Ctrl-C
exits with 130 after writing the finished games, without worker tracebacks.

The worker to kill is made deterministic by an agent that, in a worker
process, stalls at one chosen game (writing its pid to a file first) the
first time that game is played; the test then kills that process from
outside, as a user or the kernel's OOM killer would. Every subprocess has a
timeout, so a hang fails the test instead of blocking the suite."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rulebook.compiler.build import compile_path
from rulebook.interpreter.game import Game

from rulebook.simulate.run import WORKER, agent_seed, game_seed, run_many
from tests.helpers import agent_package

ROOT = Path(__file__).resolve().parents[2]
PIG = ROOT / "examples" / "pig" / "ruleset.yaml"

AGENTS = '''
import multiprocessing, os, signal, time
from rulebook.agents.base import RandomAgent


class Stall(RandomAgent):
    """A random agent that, in a worker process, stops at the game whose seat-0
    seed is $RB_STALL_SEED the first time it is played there: it writes its
    pid to $RB_STALL_DIR/pid and sleeps (or, with $RB_STALL_KILL, kills its
    own process at every try)."""

    def __init__(self, seed=0):
        super().__init__(seed)
        self.target = seed == int(os.environ.get("RB_STALL_SEED", "-1"))

    def choose(self, view, options):
        if self.target and multiprocessing.parent_process() is not None:
            if os.environ.get("RB_STALL_KILL"):
                os.kill(os.getpid(), signal.SIGKILL)
            try:
                fd = os.open(os.path.join(os.environ["RB_STALL_DIR"], "pid"), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                pass  # played again after the kill: play on
            else:
                os.write(fd, str(os.getpid()).encode())
                os.close(fd)
                time.sleep(600)
        return super().choose(view, options)
'''

GAMES, STALL_AT = 200, 30  # 200 games in chunks of 12: game 30 is in the third chunk


@pytest.fixture
def stall(tmp_path, monkeypatch):
    agent_package(tmp_path, monkeypatch, "rbstall", AGENTS)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path / "pkg"), str(ROOT)]),
               RB_STALL_DIR=str(tmp_path), RB_STALL_SEED=str(agent_seed(game_seed(0, STALL_AT), 0)))
    for key, value in env.items():
        if key.startswith("RB_STALL"):
            monkeypatch.setenv(key, value)
    return env


def _start(tmp_path, env, *extra) -> subprocess.Popen:
    args = ["simulate", str(PIG), "-n", str(GAMES), "--workers", "2", "--agents", "rbstall.agents:Stall", "-q",
            "--out", str(tmp_path / "k.jsonl"), *extra]
    # Ctrl-C as a shell's foreground process gets it, however this test runs: a test run started in the
    # background of a shell without job control (`pytest &`) ignores SIGINT, and its children inherit that
    command = [sys.executable, "-c", "import runpy, signal, sys; "
               "signal.signal(signal.SIGINT, signal.default_int_handler); "
               "signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT]); sys.argv = ['rulebook'] + sys.argv[1:]; "
               "runpy.run_module('rulebook.cli', run_name='__main__')", *args]
    # a session of its own: Ctrl-C at a terminal signals the whole foreground process group
    return subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)


def _stalled_pid(tmp_path, proc, timeout=120.0) -> int:
    marker = tmp_path / "pid"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if marker.exists() and marker.read_text():
            return int(marker.read_text())
        if proc.poll() is not None:
            pytest.fail(f"the run ended before the worker stalled: {proc.communicate()}")
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGKILL)
    pytest.fail("no worker reached the stalling game in time")


def _finish(proc, timeout=180.0):
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("rulebook simulate hung after its worker was lost or after Ctrl-C")


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_worker_killed_mid_game_is_noticed_and_its_games_are_played_again(tmp_path, stall):
    proc = _start(tmp_path, stall)
    os.kill(_stalled_pid(tmp_path, proc), signal.SIGKILL)
    out, err = _finish(proc)
    assert proc.returncode == 0, err
    assert "worker process died (signal SIGKILL)" in err and "will be played again" in err
    assert "Traceback" not in out + err
    rows = _rows(tmp_path / "k.jsonl")
    assert [r["index"] for r in rows] == list(range(GAMES)) and not any(r["error"] for r in rows)
    # the same games as one process plays them (the agent is RandomAgent with the seat's seed)
    here = run_many(Game(compile_path(PIG).program), 2, GAMES, specs=["rulebook.agents.base:RandomAgent"] * 2)
    assert [(r["winners"], r["decisions"]) for r in rows] == [([p + 1 for p in r.winners], r.decisions)
                                                               for r in here]


@pytest.mark.parametrize("backend", ["local", "dask"])
def test_ctrl_c_exits_130_after_writing_the_finished_games(tmp_path, stall, backend):
    if backend == "dask":
        pytest.importorskip("dask.distributed")
    proc = _start(tmp_path, stall, "--backend", backend)
    _stalled_pid(tmp_path, proc)  # one worker is stuck in game 30; the other plays on
    time.sleep(3)
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C at the terminal does
    out, err = _finish(proc, 60)
    assert proc.returncode == 130, err
    assert "Traceback" not in out + err and "KeyboardInterrupt" not in err
    rows = _rows(tmp_path / "k.jsonl")
    assert f"Interrupted: {len(rows)} of {GAMES} games finished." in err
    assert f"the {len(rows)} finished games written to" in err
    assert STALL_AT not in {r["index"] for r in rows} and 0 < len(rows) < GAMES
    assert [r["index"] for r in rows] == sorted(r["index"] for r in rows)
    time.sleep(1)
    for pid in _children_of(proc.pid):  # no worker outlives the run
        pytest.fail(f"worker {pid} still running")


def _children_of(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                out.append(int(entry.name))
    return out


def test_a_game_whose_worker_dies_twice_is_reported_failed_and_the_rest_are_played(stall, monkeypatch):
    monkeypatch.setenv("RB_STALL_KILL", "1")
    notices = []
    game = Game(compile_path(PIG).program)
    results = run_many(game, 2, 60, specs=["rbstall.agents:Stall"] * 2, workers=2, notice=notices.append)
    assert [r.index for r in results] == list(range(60))
    failed = [r for r in results if r.error]
    assert [(r.index, r.kind) for r in failed] == [(STALL_AT, WORKER)]
    assert "signal SIGKILL" in failed[0].error
    assert len(notices) == 2 and all("worker process died" in n for n in notices)


def test_ctrl_c_in_one_process_keeps_the_finished_games(monkeypatch):
    from rulebook.simulate import backends as sim_backends

    game = Game(compile_path(PIG).program)
    real = sim_backends.Job.play
    calls = []

    def play(self, g, index):
        calls.append(index)
        if index == 7:
            raise KeyboardInterrupt
        return real(self, g, index)

    monkeypatch.setattr(sim_backends.Job, "play", play)
    with pytest.raises(sim_backends.Interrupted) as stop:
        run_many(game, 2, 20)
    assert [r.index for r in stop.value.results] == list(range(7)) and stop.value.total == 20
