"""How strong is an agent (MCTS by default)? It plays against random (or greedy) bots in each seed game.

The agent (MCTS, ``mcts:KEY=VALUE,...``, or ``--agent SPEC`` such as ``greedy``)
takes every seat in turn (game i: seat i mod N) against N-1 random agents
(``--opponents greedy``: greedy agents); its result in a
game is ``Game.returns`` for its seat (1 for a win, 1/k for a win shared by
k). The win rate is printed with a 95 % Wilson interval
next to the fair share 1/N, as a Markdown table (docs/agents.md holds one).

    nice python tools/strength.py                    # the default budgets below
    python tools/strength.py --only get-bit --games 20 --iterations 50
    python tools/strength.py --jobs 2 --minutes 20   # stop starting games after 20 min per ruleset
    python tools/strength.py --agent greedy --games 200
    python tools/strength.py --opponents greedy --agent mcts:seconds=1 --minutes 10

``--iterations`` and ``--cap`` set MCTS's budget unless the spec after
``mcts:`` sets it. ``--minutes`` bounds each ruleset's time and the table
reports the games actually played, and the measured agent's slowest move.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# name, players, MCTS iterations per decision, rollout cap (decisions; None: the agent's default), games
GAMES = [
    ("get-bit", 4, 200, None, 100),
    ("dead-mans-draw", 2, 200, None, 60),
    ("young-svintus", 4, 200, None, 60),
    ("lifeboat", 4, 200, None, 60),
    ("survive", 2, 200, None, 40),
]

_GAMES: dict = {}


def _game(name: str):
    if name not in _GAMES:
        from rulebook.compiler import native
        from rulebook.compiler.build import compile_path
        from rulebook.interpreter.game import Game

        result = compile_path(ROOT / "rulesets" / name / "ruleset.yaml")
        if result.program is None:
            raise SystemExit(f"{name} does not compile")
        _GAMES[name] = Game(native.as_asked(result.program))
    return _GAMES[name]


def play_one(name: str, players: int, index: int, iterations: int, cap: int, deadline: float,
             spec: str = "mcts", opponents: str = "random", explicit: bool = False) -> tuple | None:
    """One game, the agent in seat ``index mod players``: (seat, reward, MCTS
    iterations that failed, seconds), or None when the deadline has passed."""
    if time.time() > deadline:
        return None
    from rulebook.agents.base import RandomAgent, _options, as_agent, make_agent, play_out
    from rulebook.agents.mcts import MCTSAgent

    g = _game(name)
    seat = index % players
    agents = [RandomAgent(seed=1000 * index + p) if opponents == "random" else make_agent(opponents, 1000 * index + p)
              for p in range(players)]
    if spec == "mcts" or spec.startswith("mcts:") and "=" in spec:
        if "seconds=" in spec and "iterations=" not in spec and not explicit:
            iterations = None  # a time budget alone
        options = {}
        if iterations is not None:
            options["iterations"] = iterations
        if cap is not None:
            options["max_rollout_decisions"] = cap
        options.update(_options(spec.partition(":")[2]))
        agent = MCTSAgent(seed=index, **options)
    else:
        agent = make_agent(spec, index)
    slowest = [0.0]

    class Timed:  # the measured agent, with the time of its slowest decision
        def decide(self, decision):
            t = time.perf_counter()
            choice = agent.decide(decision) if hasattr(agent, "decide") else as_agent(agent)(decision)
            slowest[0] = max(slowest[0], time.perf_counter() - t)
            return choice

    agents[seat] = Timed()
    st = g.new(players=players, seed=index, record=False)
    t = time.perf_counter()
    play_out(g, st, agents, view_fn=False)
    return (seat, g.returns(st)[seat], getattr(agent, "failed_iterations", 0), time.perf_counter() - t,
            slowest[0])


def _progress(name: str, results: list) -> None:
    """One line on stderr per game played: the running tally, so a long run can be followed."""
    done = [r for r in results if r is not None]
    if done and results[-1] is not None:
        wins = sum(r[1] for r in done)
        print(f"  {name}: game {len(done)}, reward {results[-1][1]:g}, {wins:g} of {len(done)} so far",
              file=sys.stderr, flush=True)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion (successes may be
    fractional: a shared win counts 1/k)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", help="ruleset name (repeatable)")
    ap.add_argument("--agent", default="mcts", help="the agent measured: mcts (with the budgets below) or a spec "
                    "as for rulebook simulate, e.g. greedy")
    ap.add_argument("--opponents", default="random", help="the agent in the other seats (a spec: random, greedy, ...)")
    ap.add_argument("--games", type=int, help="games per ruleset (default: the table in this file)")
    ap.add_argument("--iterations", type=int, help="MCTS iterations per decision")
    ap.add_argument("--cap", type=int, help="rollout cap in decisions")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--minutes", type=float, default=0, help="per ruleset: start no game after this (0: no limit)")
    ap.add_argument("--native", action="store_true", help="run the rulesets as native code (rulebook --native)")
    args = ap.parse_args(argv)
    if args.native:
        os.environ["RULEBOOK_NATIVE"] = "1"  # the worker processes inherit it
    rows = []
    mcts = args.agent.partition(":")[0] == "mcts"
    print(f"{args.agent} against {args.opponents}", flush=True)
    print(f"| game | players | {'MCTS budget' if mcts else 'agent'} | games | wins | win rate | 95 % Wilson | "
          "fair share | s/game | slowest move (s) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, players, iterations, cap, games in GAMES:
        if args.only and name not in args.only:
            continue
        explicit = bool(args.iterations)
        iterations = args.iterations or iterations
        cap = args.cap or cap
        games = args.games or games
        deadline = time.time() + args.minutes * 60 if args.minutes else float("inf")
        task = [(name, players, i, iterations, cap, deadline, args.agent, args.opponents, explicit)
                for i in range(games)]
        if args.jobs > 1:
            with ProcessPoolExecutor(args.jobs) as pool:
                results = []
                for r in pool.map(play_one, *zip(*task)):
                    results.append(r)
                    _progress(name, results)
        else:
            results = []
            for t in task:
                results.append(play_one(*t))
                _progress(name, results)
        results = [r for r in results if r is not None]
        n = len(results)
        wins = sum(r[1] for r in results)
        lo, hi = wilson(wins, n)
        secs = sum(r[3] for r in results) / max(n, 1)
        rate = wins / n if n else 0.0
        extra = f" ({args.agent.partition(':')[2]})" if ":" in args.agent else ""
        cut = f", rollouts ≤ {cap}" if cap is not None else ""
        budget = f"{iterations} it.{cut}{extra}" if mcts else args.agent
        if mcts and ("seconds=" in args.agent or "iterations=" in args.agent):  # the spec sets the budget
            budget = args.agent.partition(":")[2] + (f", ≤ {iterations} it." if explicit else "")
        slowest = max((r[4] for r in results), default=0.0)
        row = (f"| {name} | {players} | {budget} | {n} | {wins:g} | {rate:.2f} | "
               f"[{lo:.2f}, {hi:.2f}] | {1 / players:.2f} | {secs:.1f} | {slowest:.2f} |")
        rows.append(row)
        print(row, flush=True)
        failed = sum(r[2] for r in results)
        if failed:
            print(f"  ({name}: {failed} MCTS iterations skipped: re-drawn states the rules could not play)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
