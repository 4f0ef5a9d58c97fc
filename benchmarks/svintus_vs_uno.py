"""Young Svintus in Rulebook against rlcard's UNO, in one process run.

    /tmp/rlvenv/bin/python benchmarks/svintus_vs_uno.py --seconds 10 --rounds 3

Plays random games of Young Svintus (the base game, no options, 4 players)
through Rulebook's playout loop (as simulate plays random agents), alternating with random games of
rlcard's raw ``UnoGame`` (4 players, ``game.get_legal_actions()`` and
``game.step()``, no env) played by ``rlcard_uno_game`` of
``../shared/bench/peer_playouts.py`` (imported, not copied), and prints
decisions per second for both and their ratio (``--round`` adds rlcard's
bare round loop, ``rlcard-uno-round``). A decision is every point
where a player is asked to act, forced moves included, as peer_playouts.py
counts them. The two games differ in length (random Young Svintus games run
to the ruleset's turn cap, random UNO games are short), so decisions per
second is the figure to compare, not games per second.

rlcard is never a dependency of the project; it pins old libraries, so put
it in a virtual environment of its own with Rulebook's dependencies:

    python -m venv /tmp/rlvenv
    /tmp/rlvenv/bin/pip install rlcard==1.2.0 numpy lark pyyaml jsonschema networkx click rich

(or ``/tmp/rlvenv/bin/pip install -e .`` for Rulebook itself). Without
rlcard the script says so and prints the Rulebook line only (exit code 0).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
BENCH = ROOT.parent / "shared" / "bench"
PLAYERS = 4

INSTALL = (
    "rlcard is not installed in this Python; to compare with it:\n"
    "  python -m venv /tmp/rlvenv\n"
    "  /tmp/rlvenv/bin/pip install rlcard==1.2.0 numpy lark pyyaml jsonschema networkx click rich\n"
    "  /tmp/rlvenv/bin/python benchmarks/svintus_vs_uno.py"
)


def load_peers(bench: Path):
    path = bench / "peer_playouts.py"
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location("peer_playouts", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def svintus_runner(native: bool = False):
    from rulebook.compiler.build import compile_path
    from rulebook.compiler.native import as_asked
    from rulebook.interpreter.game import Game

    from rulebook.simulate.run import game_seed, play_one

    program = compile_path(ROOT / "rulesets" / "young-svintus" / "ruleset.yaml").program
    game = Game(as_asked(program, native))
    index = [0]

    def run(seconds: float) -> dict:
        games = decisions = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            _, d = play_one(game, PLAYERS, game_seed(1, index[0]))
            index[0] += 1
            games += 1
            decisions += d
            if time.perf_counter() >= deadline:
                break
        return {"games": games, "decisions": decisions, "seconds": time.perf_counter() - start, "errors": 0}

    return run


def uno_runner(peers, round_only=False):
    seed = [12345]
    line = re.compile(r"games=(\d+) games_per_s=([\d.]+) decisions_per_game=([\d.]+).*errors=(\d+)")

    def run(seconds: float) -> dict:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            peers.rlcard_uno_game(seconds, seed[0], PLAYERS, round_only=round_only)
        seed[0] += 1  # a new sequence of games in each round
        m = line.search(out.getvalue())
        if not m:
            raise RuntimeError(f"unexpected output of peer_playouts.rlcard_uno_game: {out.getvalue()!r}")
        games, gps, dpg, errors = int(m.group(1)), float(m.group(2)), float(m.group(3)), int(m.group(4))
        # peer_playouts prints games per second and decisions per game (rounded to 0.1)
        return {"games": games, "decisions": games * dpg, "seconds": games / gps if gps else 0.0, "errors": errors}

    return run


def add(total: dict, part: dict) -> None:
    for k, v in part.items():
        total[k] = total.get(k, 0) + v


def line(name: str, t: dict) -> str:
    return (
        f"impl={name} players={PLAYERS} games={t['games']} seconds={t['seconds']:.1f} "
        f"games_per_s={t['games'] / t['seconds']:.1f} decisions_per_s={t['decisions'] / t['seconds']:.0f} "
        f"decisions_per_game={t['decisions'] / t['games']:.1f}" + (f" errors={t['errors']}" if t["errors"] else "")
    )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="seconds per side and round")
    ap.add_argument("--rounds", type=int, default=3, help="alternations of the two sides")
    ap.add_argument(
        "--round", action="store_true", help="also rlcard's bare round loop (peer_playouts' rlcard-uno-round)"
    )
    ap.add_argument("--bench-dir", type=Path, default=BENCH, help="the folder of peer_playouts.py")
    args = ap.parse_args(argv)

    have_rlcard = importlib.util.find_spec("rlcard") is not None
    peers = load_peers(args.bench_dir) if have_rlcard else None
    if not have_rlcard:
        print(INSTALL)
    elif peers is None:
        print(f"no peer_playouts.py in {args.bench_dir}: Rulebook only")
    sides = [("rulebook-young-svintus-base", svintus_runner())]
    if peers is not None:
        sides.append(("rlcard-uno-game", uno_runner(peers)))
        if args.round:
            sides.append(("rlcard-uno-round", uno_runner(peers, round_only=True)))
    totals = {name: {} for name, _ in sides}
    for r in range(args.rounds):
        for name, run in sides if r % 2 == 0 else reversed(sides):
            part = run(args.seconds)
            add(totals[name], part)
            print(f"# round {r + 1}: {line(name, part)}", flush=True)
    for name, _ in sides:
        print(line(name, totals[name]))
    ours = totals[sides[0][0]]
    for name, _ in sides[1:]:
        theirs = totals[name]
        ratio = (ours["decisions"] / ours["seconds"]) / (theirs["decisions"] / theirs["seconds"])
        print(f"ratio (Rulebook decisions/s over {name} decisions/s) = {ratio:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
