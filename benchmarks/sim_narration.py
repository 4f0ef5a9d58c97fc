"""What `rulebook simulate` pays for narration and for streaming `--out`,
side by side in one process (docs/performance.md).

    python benchmarks/sim_narration.py [--games get-bit:4:4000,pig:2:4000] [--rounds 5]

For each ruleset, ``run_many`` with random agents is timed (CPU time of
this process, the best of ``--rounds`` alternated rounds) with narration in
no game (``--check-narration 0``), in the default sample, and in every game
(``1``); then the default with each row written as its game finishes
(``GameOutputs`` over a ``RowWriter``, what ``simulate --out`` does) against
the same rows written at the end (``write_results``). Only the ratios,
measured together, mean much on a shared machine.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

GAMES = "get-bit:4:4000,dead-mans-draw:2:2000,pig:2:4000,young-svintus:4:60"


def measure(ruleset: str, players: int, n: int, rounds: int) -> dict[str, float]:
    """The best CPU seconds of each way of running ``n`` games."""
    from rulebook.compiler.build import compile_path
    from rulebook.interpreter.game import Game

    from rulebook.files.locate import locate
    from rulebook.simulate.games import DEFAULT_NARRATED
    from rulebook.simulate.outputs import GameOutputs
    from rulebook.simulate.rows import RowWriter, write_results
    from rulebook.simulate.run import run_many

    path = locate(ruleset)
    game = Game(compile_path(path).program)
    folder = Path(tempfile.mkdtemp(prefix="rulebook-bench-"))

    def streamed():
        rows = RowWriter(folder / "streamed.jsonl")
        try:
            run_many(game, players, n, sink=GameOutputs(game, str(path), players, {}, 0, folder / "failures",
                                                        rows=rows))
        finally:
            rows.close()

    ways = {
        "none": lambda: run_many(game, players, n, narrate=0.0),
        "sample": lambda: run_many(game, players, n, narrate=DEFAULT_NARRATED),
        "every": lambda: run_many(game, players, n, narrate=1.0),
        "rows at the end": lambda: write_results(folder / "end.jsonl", run_many(game, players, n)),
        "rows streamed": streamed,
    }
    best = dict.fromkeys(ways, float("inf"))
    ways["none"]()  # warm: the compiled module, the templates
    for _ in range(rounds):
        for name, run in ways.items():
            start = time.process_time()
            run()
            best[name] = min(best[name], time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=GAMES, help="RULESET:PLAYERS:GAMES, comma-separated")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print("| ruleset | games | none g/s | sample g/s (vs none) | every g/s (vs none) "
          "| rows at the end g/s | rows streamed g/s (vs at the end) |")
    print("|---|---|---|---|---|---|---|")
    for item in args.games.split(","):
        ruleset, players, n = item.split(":")
        t = measure(ruleset, int(players), int(n), args.rounds)
        rate = {k: int(n) / v for k, v in t.items()}
        print(f"| {ruleset} ({players}p) | {n} | {rate['none']:,.0f} "
              f"| {rate['sample']:,.0f} ({rate['sample'] / rate['none']:.3f}) "
              f"| {rate['every']:,.0f} ({rate['every'] / rate['none']:.3f}) | {rate['rows at the end']:,.0f} "
              f"| {rate['rows streamed']:,.0f} ({rate['rows streamed'] / rate['rows at the end']:.3f}) |", flush=True)


if __name__ == "__main__":
    main()
