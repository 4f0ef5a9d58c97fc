"""How much work the engine does for a ruleset's random games, counted, not timed.

    python benchmarks/work_count.py RULESET [--players N] [--games G] [--public]

Plays G random games (the engine's own playout loop, the seeds of
``rulebook simulate``; with ``--public``, through the public decision
interface as benchmarks/side_by_side.py plays them) and prints the Python
calls made and the bytecode instructions executed, per file. On a shared machine two timings of the same
code differ by more than a small regression; these counts do not depend on
the load. Run it with two engines (two virtual environments, one ruleset) and
compare the lines: equal counts of calls and instructions mean the same work,
so a difference in measured speed is the machine's, not the engine's. One
game is played before counting, since the engine fills some tables on first
use; compare runs made the same way (a fresh process each). It does
not see what an instruction costs (a constant and a global read count as one
each): a change of that kind still needs the side-by-side benchmarks.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def count_calls(play, games: int) -> int:
    """The Python calls made by ``play(i)`` for ``i`` in ``range(games)``."""
    profile = cProfile.Profile()
    profile.enable()
    for i in range(games):
        play(i)
    profile.disable()
    return sum(nc for (_cc, nc, _tt, _ct, _callers) in pstats.Stats(profile).stats.values())


def count_instructions(play, games: int) -> Counter:
    """The bytecode instructions executed by the games, by the file of their code."""
    counts: Counter = Counter()

    def on_call(frame, _event, _arg):
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        where = Path(frame.f_code.co_filename).name

        def on_opcode(_frame, event, _arg):
            if event == "opcode":
                counts[where] += 1
            return on_opcode

        return on_opcode

    sys.settrace(on_call)
    try:
        for i in range(games):
            play(i)
    finally:
        sys.settrace(None)
    return counts


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--public", action="store_true", help="play through game.options and game.apply")
    args = parser.parse_args(argv)

    from rulebook.compiler.build import compile_path
    from rulebook.interpreter.game import Game

    from rulebook.simulate.run import game_seed, play_one

    game = Game(compile_path(args.ruleset).program)
    players = args.players or game.program.default_players or game.program.min_players

    def play(i: int) -> None:
        play_one(game, players, game_seed(0, i))

    if args.public:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from side_by_side import public_games

        play = public_games(game, players)

    play(0)  # compiled and warmed before counting
    print(f"ruleset={args.ruleset} players={players} games={args.games} public={args.public}")
    print(f"calls={count_calls(play, args.games)}")
    counts = count_instructions(play, args.games)
    print(f"instructions={sum(counts.values())}")
    for where, n in counts.most_common():
        print(f"  {n:>12}  {where}")


if __name__ == "__main__":
    main()
