"""Rulebook against hand-written Python, in one process run on one machine.

    python benchmarks/side_by_side.py --seconds 5

Plays random games of the project's Get Bit! (4 players) and Dead Man's
Draw (2 players), alternating with the hand-written baselines in
../shared/bench, and prints games per second for both and their ratio;
then Young Svintus (base game, 4 players) against rlcard's raw UnoGame by
decisions per second, when rlcard is importable (run it with the Python of
the virtual environment that has rlcard: see benchmarks/svintus_vs_uno.py).
Only ratios measured together mean anything on a noisy machine.

Every benchmark game (reversi, hex, hearts, goofspiel, pig, little-kingdoms
and these two) against its baseline: benchmarks/baselines/run.py, or
``rulebook bench all``.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BENCH = ROOT.parent / "shared" / "bench"


def load_baseline(name: str):
    path = BENCH / f"{name}.py"
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Games per second of this process's CPU time (``--clock cpu``, the default):
# on a shared machine, time spent waiting for a core counts for neither side.
CLOCK = {"cpu": time.process_time, "wall": time.perf_counter}


def rate(fn, seconds: float, clock=time.process_time) -> tuple[float, int]:
    games = 0
    start = clock()
    deadline = start + seconds
    while True:
        fn(games)
        games += 1
        if clock() >= deadline:
            break
    return games / (clock() - start), games


def _game(ruleset: str, native: bool = False):
    from rulebook.compiler.build import compile_path
    from rulebook.compiler.native import as_asked
    from rulebook.interpreter.game import Game

    path = ROOT / "rulesets" / ruleset / "ruleset.yaml"
    if not path.exists():
        return None
    program = compile_path(path).program
    return Game(as_asked(program, native))


def rulebook_game(ruleset: str, players: int, native: bool = False):
    from rulebook.simulate.run import game_seed, play_one

    game = _game(ruleset, native)
    if game is None:
        return None
    return lambda i: play_one(game, players, game_seed(1, i))


def rulebook_public_game(ruleset: str, players: int):
    """The same random games through the public decision interface (who
    must decide, their legal options with labels, a checked ``apply``), as
    a human, a bot or PettingZoo plays them."""
    return public_games(_game(ruleset), players)


def public_games(game, players: int):
    """``one(i)``: the ``i``-th random game of ``game`` through its public
    decision interface (benchmarks/work_count.py counts the same games)."""
    from rulebook.simulate.run import game_seed, random_seats

    def one(i: int) -> None:
        seed = game_seed(1, i)
        st = game.new(players=players, seed=seed, record=False)
        draw = random_seats(seed).random
        while not st.over:
            for p in game.to_move(st):
                options = game.options(st, p)
                game.apply(st, p, options[int(draw() * len(options))])

    return one


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--rounds", type=int, default=2, help="alternations of the two sides")
    ap.add_argument("--clock", choices=sorted(CLOCK), default="cpu",
                    help="what a second is: this process's CPU time (default) or the wall clock; Young Svintus "
                         "against rlcard is timed by the wall clock (rlcard's runner times itself)")
    args = ap.parse_args(argv)
    from rulebook.compiler.native import missing

    lines = []
    if missing():
        lines.append(f"(no native-code figures: {missing()})")
    for label, ruleset, module, players, run_hand in [
        ("Get Bit!", "get-bit", "handcoded_getbit", 4, lambda m, rng: m.run_one(4, rng)),
        (
            "Dead Man's Draw",
            "dead-mans-draw",
            "handcoded_deadmansdraw",
            2,
            lambda m, rng: m.run_one(2, rng) if hasattr(m, "run_one") else m.play_game(2, rng),
        ),
    ]:
        ours = rulebook_game(ruleset, players)
        base = load_baseline(module)
        if ours is None or base is None:
            lines.append(f"{label}: skipped ({'no ruleset' if ours is None else 'no baseline'})")
            continue
        public = rulebook_public_game(ruleset, players)
        fast = None if missing() else rulebook_game(ruleset, players, native=True)
        rng = random.Random(12345)
        ours_rates, base_rates, public_rates, native_rates = [], [], [], []
        for _ in range(args.rounds):
            clock = CLOCK[args.clock]
            base_rates.append(rate(lambda i: run_hand(base, rng), args.seconds / args.rounds, clock)[0])
            ours_rates.append(rate(ours, args.seconds / args.rounds, clock)[0])
            if fast is not None:
                native_rates.append(rate(fast, args.seconds / args.rounds, clock)[0])
            public_rates.append(rate(public, args.seconds / args.rounds / 2, clock)[0])
        o, b = sum(ours_rates) / len(ours_rates), sum(base_rates) / len(base_rates)
        q = sum(public_rates) / len(public_rates)
        nat = ""
        if native_rates:
            f = sum(native_rates) / len(native_rates)
            nat = f"; as native code (rulebook --native): {f:,.0f} games/s, ratio {f / b:.3f}"
        lines.append(
            f"{label} ({players} players): rulebook {o:,.0f} games/s, hand-written {b:,.0f} games/s, ratio {o / b:.3f} "
            f"(the public decision interface: {q:,.0f} games/s, ratio {q / b:.3f}{nat})"
        )
    lines.append(svintus_against_uno(args.seconds, args.rounds))
    print("\n".join(lines))
    return 0


def svintus_against_uno(seconds: float, rounds: int) -> str:
    """Young Svintus (base, 4 players) against rlcard's raw UnoGame, by
    decisions per second (benchmarks/svintus_vs_uno.py has the details and
    the rlcard-only options). rlcard lives in a virtual environment of its
    own; without it, the line says how to get it."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import svintus_vs_uno as sv

    if importlib.util.find_spec("rlcard") is None:
        return "Young Svintus against rlcard's UNO: skipped; " + sv.INSTALL.replace("\n", " ").replace("  ", " ")
    peers = sv.load_peers(BENCH)
    if peers is None:
        return f"Young Svintus against rlcard's UNO: skipped (no peer_playouts.py in {BENCH})"
    from rulebook.compiler.native import missing

    sides = [("ours", sv.svintus_runner()), ("uno", sv.uno_runner(peers))]
    if not missing():
        sides.insert(1, ("native", sv.svintus_runner(native=True)))
    totals: dict = {name: {} for name, _ in sides}
    for r in range(rounds):
        for name, run in sides if r % 2 == 0 else reversed(sides):
            sv.add(totals[name], run(seconds / rounds))
    o = totals["ours"]["decisions"] / totals["ours"]["seconds"]
    u = totals["uno"]["decisions"] / totals["uno"]["seconds"]
    nat = ""
    if "native" in totals:
        f = totals["native"]["decisions"] / totals["native"]["seconds"]
        nat = f"; as native code: {f:,.0f} decisions/s, ratio {f / u:.3f}"
    return (f"Young Svintus base (4 players) against rlcard's raw UnoGame: rulebook {o:,.0f} decisions/s, "
            f"rlcard {u:,.0f} decisions/s, ratio {o / u:.3f}{nat}")


if __name__ == "__main__":
    sys.exit(main())
