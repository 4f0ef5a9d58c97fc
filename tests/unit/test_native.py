"""Rulesets run as native code (``rulebook --native``, compiler/native.py):
the same games as the Python module, errors still at their rule, and a
library in the cache that does not match its digest built again, never loaded."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from rulebook.compiler import native
from rulebook.compiler.build import compile_path, compile_text, load_program
from rulebook.interpreter.errors import RuleError
from rulebook.interpreter.game import Game

from rulebook.cli.main import cli
from rulebook.simulate.run import game_seed, play_one
from tests.helpers import FAILS_AT_START, ruleset

ROOT = Path(__file__).resolve().parents[2]
needs_native = pytest.mark.skipif(native.missing() is not None, reason=str(native.missing()))


def _same_games():
    spec = importlib.util.spec_from_file_location("same_games", ROOT / "tools" / "same_games.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _games(game: Game, players: int, count: int) -> str:
    """A hash of everything the games show (``tools/same_games.py``: greedy
    games with time-outs through the public interface, random games with
    every option list offered, winners and narration), and the results of
    the engine's own playout loop."""
    h = hashlib.sha256()
    _same_games().hash_cell(h, game, players, count)
    h.update(json.dumps([list(play_one(game, players, game_seed(0, i))) for i in range(count)]).encode())
    return h.hexdigest()


@needs_native
@pytest.mark.parametrize(("path", "players"), [
    # Two builds keep the suite's time: every ruleset's native games are checked by
    # tools/same_games.py --native (docs/performance.md), these two by every run.
    ("rulesets/dead-mans-draw/ruleset.yaml", 2),  # a unit with one local (l_0 = L[0]: no tuple of one)
    ("examples/liars-dice/ruleset.yaml", 3),  # staged actions, simultaneous and public choices, procedures that ask
])
def test_native_code_plays_the_same_games(path, players):
    program = compile_path(ROOT / path).program
    fast = native.native_program(program)
    assert fast.native and not program.native
    assert fast.units[0] is not program.units[0]  # the library's functions, not the module's
    assert _games(Game(fast), players, 12) == _games(Game(program), players, 12)


@needs_native
def test_a_native_state_saves_loads_clones_and_shows_as_a_python_state():
    """Native code makes its states of its own typed ``State``: at every
    decision it holds the same data and shows each player the same view as
    the Python module's state, and it survives a save, a load and a clone."""
    from rulebook.interpreter.view import view

    program = compile_path(ROOT / "rulesets" / "get-bit" / "ruleset.yaml").program
    py, nat = Game(program), Game(native.native_program(program))
    for seed in range(6):
        draw = random.Random(seed)
        a, b = py.new(players=4, seed=seed), nat.new(players=4, seed=seed)
        assert type(b) is not type(a)
        step = 0
        while not a.over:
            assert b.to_data() == a.to_data()
            assert [view(b, p) for p in range(4)] == [view(a, p) for p in range(4)]
            if step % 5 == 2:
                b = nat.clone(nat.load(json.loads(json.dumps(nat.save(b)))))
            p = py.to_move(a)[0]
            k = draw.randrange(len(py.options(a, p)))
            py.apply(a, p, k)
            nat.apply(b, p, k)
            step += 1
        assert b.over and b.winners == a.winners


@needs_native
def test_the_native_shuffle_gives_the_generators_numbers():
    """``RNG_SHUFFLE``, SplitMix64 in C integers, orders a list as
    ``interpreter.rng.shuffle`` does and leaves the same generator state:
    states at the edges of 64 bits, lists up to thousands of items."""
    from rulebook.interpreter import rng

    shuffle = native.native_program(compile_path(ROOT / "rulesets" / "dead-mans-draw" / "ruleset.yaml").program)
    shuffle = shuffle.module["rng_shuffle"]
    draw = random.Random(17)
    states = [0, 1, rng.MASK, 1 << 63, (1 << 63) - 1, rng.seed_state(0)] + [draw.getrandbits(64) for _ in range(200)]
    for state in states:
        for n in (0, 1, 2, 3, 7, 60, 61, 1000, draw.randrange(5000)):
            mine, theirs = list(range(n)), list(range(n))
            assert (shuffle(state, mine), mine) == (rng.shuffle(state, theirs), theirs), (state, n)


@needs_native
def test_a_run_time_error_in_native_code_names_its_rule():
    text = ruleset(FAILS_AT_START)
    program = native.native_program(compile_text(text, "unit.yaml").program)
    with pytest.raises(RuleError) as err:
        Game(program).new(players=2)
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "let v = c.value" in t)
    assert err.value.code == "R104" and err.value.where.startswith(f"unit.yaml:{line}:")


BUILD = """
import sys
from rulebook.compiler.build import load_program
program = load_program(sys.argv[1], native=True).program
print(program.native, program.module_file)
"""


@needs_native
def test_a_library_that_does_not_match_its_digest_is_built_again(tmp_path):
    env = dict(os.environ, RULEBOOK_CACHE=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))
    env.pop(native.BUILD_ENV, None)  # built as a user's is, optimised: the suite's other builds are quick
    game = str(ROOT / "examples/nim/ruleset.yaml")

    def run() -> str:
        done = subprocess.run([sys.executable, "-c", BUILD, game], env=env, capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()[1]

    first = subprocess.run([sys.executable, "-m", "rulebook.cli", "--native", "simulate", game, "-n", "3", "-q"],
                           env=env, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0 and "building Nim as native code" in first.stderr, first.stderr
    name = run().removesuffix(".py")  # loaded from the cache: nothing is built

    lib = next((tmp_path / "cache").glob(f"{name}*.so")) if os.name != "nt" else None
    sig = tmp_path / "cache" / f"{name}.sha256"
    good = lib.read_bytes()
    assert native._matches(lib, sig, sig.read_text().split()[1])
    lib.write_bytes(good[:-1] + bytes([good[-1] ^ 1]))  # one bit changed: somebody else's code
    assert not native._matches(lib, sig, sig.read_text().split()[1])
    assert run() == f"{name}.py"  # built again and loaded
    assert lib.read_bytes() != good[:-1] + bytes([good[-1] ^ 1])
    assert native._matches(lib, sig, sig.read_text().split()[1])


def test_native_without_cython_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("RULEBOOK_NATIVE", "0")  # the command sets it: put back after the test
    monkeypatch.setattr(native, "missing", lambda: "native code needs Cython: pip install 'rulebook[native]'")
    result = CliRunner().invoke(cli, ["--native", "simulate", "nim", "-n", "2"])
    assert result.exit_code == 1
    assert "needs Cython" in result.output and "Traceback" not in result.output
    with pytest.raises(native.NativeError):
        load_program(ROOT / "examples/nim/ruleset.yaml", native=True)


def test_native_is_asked_for_by_the_environment(monkeypatch):
    monkeypatch.setenv("RULEBOOK_NATIVE", "1")
    assert native.wanted()
    monkeypatch.setenv("RULEBOOK_NATIVE", "0")
    assert not native.wanted()
    monkeypatch.delenv("RULEBOOK_NATIVE")
    assert not native.wanted()


def test_the_runtime_helpers_built_with_the_module_find_every_name_they_use():
    """``runtime_tail`` writes helpers of the runtime and the state's methods
    again at the end of the module: every global name they read must be one
    the module has (its
    imports, the tail's own), or the native code would fail only on the path
    that reads it. Checked without Cython, in the module's own namespace."""
    import builtins
    import dis

    program = compile_path(ROOT / "rulesets" / "dead-mans-draw" / "ruleset.yaml").program
    ns = dict(program.module)
    exec(compile(native.runtime_tail(), "tail", "exec"), ns)
    values = list(ns.values()) + list(vars(ns["State"]).values())  # the state's methods are written there too
    helpers = [v for v in values if getattr(v, "__code__", None) is not None and v.__code__.co_filename == "tail"]
    assert {f.__name__ for f in helpers} >= {"charged", "auto_pick", "auto_all", "best_each", "clone", "to_data"}
    for f in helpers:
        codes = [f.__code__] + [c for c in f.__code__.co_consts if hasattr(c, "co_code")]
        for code in codes:
            for ins in dis.get_instructions(code):
                if ins.opname == "LOAD_GLOBAL":
                    assert ins.argval in ns or hasattr(builtins, ins.argval), (f.__name__, ins.argval)


def test_a_quick_build_is_its_own_library(monkeypatch):
    """``RULEBOOK_NATIVE_BUILD=quick`` turns the C compiler's optimiser off;
    the flags are part of the library's key, so a quick library and an
    optimised one are never taken for each other."""
    monkeypatch.delenv(native.BUILD_ENV, raising=False)
    assert native.c_flags() == native.C_FLAGS and "-O2" in native.C_FLAGS
    monkeypatch.setenv(native.BUILD_ENV, "quick")
    assert native.c_flags() == native.QUICK_C_FLAGS and "-O0" in native.QUICK_C_FLAGS
    monkeypatch.setenv(native.BUILD_ENV, "optimised")
    assert native.c_flags() == native.C_FLAGS
