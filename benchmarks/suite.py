"""The benchmark suite: every seed game and example, measured the same way.

    python benchmarks/suite.py [--seconds 3] [--games get-bit,pig] [--json out.json]
    rulebook bench suite [--seconds 3]               # the same, from the CLI

For each ruleset at its usual player count: random playouts per second and
decisions per second (uniform random legal options through the decision
interface, as ``rulebook bench``), the size of a mid-game state (its save as
JSON, and what ``tracemalloc`` sees allocated for one game), how much faster
``State.clone`` is than ``copy.deepcopy`` of the same state, and the time to
load and validate the ruleset (all variants) in a fresh process. Then the
command line's start-up time (``rulebook --help``, median of several runs).

Speed is never asserted by a test: this prints figures, and only ratios
measured in one run mean much on a shared machine (docs/performance.md).
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# The usual player count of each game (the rulebook's most common table).
GAMES = {
    "get-bit": 4,
    "dead-mans-draw": 2,
    "young-svintus": 4,
    "lifeboat": 6,
    "survive": 4,
    "tic-tac-toe": 2,
    "rock-paper-scissors": 2,
    "crazy-eights": 4,
    "pig": 2,
    "blackjack": 3,
    "nim": 2,
}


def ruleset_path(name: str) -> Path:
    for folder in ("rulesets", "examples"):
        path = ROOT / folder / name / "ruleset.yaml"
        if path.exists():
            return path
    raise SystemExit(f"no ruleset '{name}'")


def playouts(game, players: int, seconds: float) -> dict:
    from rulebook.simulate.run import bench

    return bench(game, players, seconds, 1)


def mid_game_state(game, players: int, seed: int = 7):
    """A state half-way through a random game (by decisions)."""
    st = game.new(players=players, seed=seed)
    rng = random.Random(seed)
    history = []
    while not st.over:
        p = game.to_move(st)[0]
        k = rng.randrange(len(game.options(st, p)))
        history.append((p, k))
        game.apply(st, p, k)
    st = game.new(players=players, seed=seed)
    for p, k in history[: len(history) // 2]:
        game.apply(st, p, k)
    return st


def state_size(game, players: int) -> dict:
    st = mid_game_state(game, players)
    save_bytes = len(json.dumps(game.save(st)))
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    one = mid_game_state(game, players, seed=8)
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    game_bytes = sum(s.size_diff for s in after.compare_to(before, "filename"))
    del one
    return {"save_bytes": save_bytes, "game_alloc_bytes": max(game_bytes, 0), "state": st}


def clone_ratio(st, rounds: int = 200) -> dict:
    start = time.perf_counter()
    for _ in range(rounds):
        st.clone()
    t_clone = (time.perf_counter() - start) / rounds
    shared = {id(st.prog): st.prog, id(st.cat): st.cat}  # the program and catalogue are shared, not state
    start = time.perf_counter()
    for _ in range(max(rounds // 10, 5)):
        copy.deepcopy(st, memo=dict(shared))
    t_deep = (time.perf_counter() - start) / max(rounds // 10, 5)
    return {"clone_us": t_clone * 1e6, "deepcopy_us": t_deep * 1e6, "clone_speedup": t_deep / t_clone}


LOAD_SNIPPET = """
import sys, time
sys.path.insert(0, {root!r})
t0 = time.perf_counter()
from rulebook.compiler.build import validate_path
report = validate_path({path!r})
assert not report.errors, [d.render() for d in report.errors]
print(time.perf_counter() - t0)
"""


def load_time(path: Path) -> float:
    """Seconds to import the validator and validate the ruleset with every
    variant, in a fresh Python process (a cold start)."""
    out = subprocess.run([sys.executable, "-c", LOAD_SNIPPET.format(root=str(ROOT), path=str(path))],
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def all_load_time(paths: list[Path]) -> float:
    code = (f"import sys, time\nsys.path.insert(0, {str(ROOT)!r})\nt0 = time.perf_counter()\n"
            "from rulebook.compiler.build import validate_path\n"
            f"for p in {[str(p) for p in paths]!r}:\n    assert not validate_path(p).errors\n"
            "print(time.perf_counter() - t0)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def cli_startup(runs: int = 7) -> float:
    exe = Path(sys.executable).with_name("rulebook")
    cmd = [str(exe), "--help"] if exe.exists() else [sys.executable, "-m", "rulebook.cli", "--help"]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run(games: list[str], seconds: float) -> dict:
    from rulebook.compiler.build import compile_path
    from rulebook.interpreter.game import Game

    rows = []
    for name in games:
        path = ruleset_path(name)
        game = Game(compile_path(path).program)
        players = GAMES.get(name, game.program.default_players or game.program.min_players)
        speed = playouts(game, players, seconds)
        size = state_size(game, players)
        clone = clone_ratio(size.pop("state"))
        rows.append({"game": name, "players": players, **{k: speed[k] for k in (
            "games_per_s", "decisions_per_s", "decisions_per_game")}, **size, **clone,
            "load_s": load_time(path)})
    seeds = [ruleset_path(n) for n in ("get-bit", "dead-mans-draw", "young-svintus", "lifeboat", "survive")]
    return {"date": time.strftime("%Y-%m-%d"), "python": sys.version.split()[0], "rows": rows,
            "load_five_seed_games_s": all_load_time(seeds), "cli_help_s": cli_startup()}


def render(result: dict) -> str:
    lines = [f"Rulebook benchmark suite, {result['date']}, Python {result['python']}", "",
             "| game | players | games/s | decisions/s | decisions/game | save (KB) | one game allocates (KB) "
             "| clone (us) | deepcopy (us) | clone speed-up | load+validate (s) |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in result["rows"]:
        lines.append(
            f"| {r['game']} | {r['players']} | {r['games_per_s']:,.1f} | {r['decisions_per_s']:,.0f} | "
            f"{r['decisions_per_game']:,.1f} | {r['save_bytes'] / 1024:,.1f} | {r['game_alloc_bytes'] / 1024:,.1f} | "
            f"{r['clone_us']:,.1f} | {r['deepcopy_us']:,.1f} | {r['clone_speedup']:,.1f}x | {r['load_s']:.2f} |")
    lines += ["", f"Loading and validating the five seed games in one fresh process: "
              f"{result['load_five_seed_games_s']:.2f} s",
              f"`rulebook --help` (median of 7 runs, process start included): {result['cli_help_s']:.2f} s"]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds of playouts per game")
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated ruleset names")
    ap.add_argument("--json", type=Path, help="also write the figures as JSON")
    args = ap.parse_args(argv)
    result = run([g for g in args.games.split(",") if g], args.seconds)
    print(render(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
