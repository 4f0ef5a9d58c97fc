"""MCTS iterations per second in each seed game (a benchmark, not a test).

    python benchmarks/mcts_rate.py --seconds 5

For each seed game at its usual player count, an MCTS agent (seat 1, 50
iterations a decision, rollouts of at most 100 decisions) plays against
random bots for about ``--seconds``; the line gives the iterations it made
per second of its own thinking (CPU time of this process). ``--root DIR`` measures another checkout of
Rulebook (an older engine) with the same script, for a side-by-side ratio:

    python benchmarks/mcts_rate.py --root ../old --json > old.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

GAMES = [("get-bit", 4), ("dead-mans-draw", 2), ("young-svintus", 4), ("lifeboat", 6), ("survive", 3)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--root", default=str(Path(__file__).resolve().parent.parent))
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--native", action="store_true", help="the rulesets as native code (compiler/native.py)")
    ap.add_argument("--only", action="append", help="a seed game's name (repeatable; default: all five)")
    args = ap.parse_args(argv)
    sys.path.insert(0, args.root)
    if (Path(args.root) / "compiler" / "build.py").exists():
        from rulebook.compiler.build import compile_path
    else:  # engines before the compiler that emits Python (the installed checkout's compiler/ is not theirs)
        from rulebook.validator.pipeline import compile_path
    from rulebook.interpreter.game import Game
    try:
        from rulebook.agents.base import Decision, as_agent
        from rulebook.agents.mcts import MCTSAgent
    except ImportError:
        from rulebook.interpreter.agents import Decision, as_agent
        from rulebook.interpreter.mcts import MCTSAgent
    out = {}
    for name, players in GAMES:
        if args.only and name not in args.only:
            continue
        program = compile_path(Path(args.root) / "rulesets" / name / "ruleset.yaml").program
        if args.native:
            from rulebook.compiler.native import native_program

            program = native_program(program)
        game = Game(program)
        try:  # the search measured before issue 21's defaults (random rollouts ranked by the score, no widening)
            agent = MCTSAgent(seed=1, iterations=50, max_rollout_decisions=100, cutoff="score", widen=0)
        except TypeError:  # an older engine: that was its only search
            agent = MCTSAgent(seed=1, iterations=50, max_rollout_decisions=100)
        rng = random.Random(1)
        iterations, thinking, seed = 0, 0.0, 0
        end = time.perf_counter() + args.seconds
        while time.perf_counter() < end:
            st = game.new(players=players, seed=seed, record=False)
            seed += 1
            while not st.over and time.perf_counter() < end:
                for p in game.to_move(st):
                    n = len(game.options(st, p))
                    if p == 0 and n > 1:
                        t = time.process_time()  # CPU time: waiting for a core on a shared machine is not thinking
                        k = as_agent(agent)(Decision(game, p, None, None, None, st, None))
                        thinking += time.process_time() - t
                        iterations += agent.iterations
                    else:
                        k = rng.randrange(n)
                    game.apply(st, p, k)
        out[name] = iterations / thinking if thinking else 0.0
        if not args.json:
            print(f"{name:<16} {players} players: {out[name]:8.0f} MCTS iterations/s", flush=True)
    if args.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
