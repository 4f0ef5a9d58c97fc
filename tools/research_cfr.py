"""CFR on Rulebook's Liar's Dice (OpenSpiel's rules) and on OpenSpiel's own
C++ ``liars_dice``, side by side (docs/research.md).

    .venv/bin/python tools/research_cfr.py --sides 3 --iterations 100 --plot docs/images/cfr-liars-dice.png

The ruleset is ``docs/research/liars-dice-openspiel.yaml``, loaded through
``rulebook.integrations.openspiel``; the C++ game is
``liars_dice(numdice=1, dice_sides=sides)``. Both run OpenSpiel's CFR: the
Python ``CFRSolver`` on the Rulebook game (a Python game), the C++
``pyspiel.CFRSolver`` on the C++ one (and, to separate the game from the
solver, the Python solver on the C++ game too). Exploitability after each
iteration is ``exploitability.exploitability`` (Python) and
``pyspiel.exploitability`` (C++).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import pyspiel
from open_spiel.python.algorithms import cfr, exploitability

from rulebook.integrations.openspiel import load_game

RULESET = Path(__file__).resolve().parent.parent / "docs" / "research" / "liars-dice-openspiel.yaml"


def rulebook_game(sides: int):
    return load_game(str(RULESET), params={"sides": sides}, explore_games=5)


def cpp_game(sides: int):
    return pyspiel.load_game("liars_dice", {"numdice": 1, "dice_sides": sides})


def python_cfr(game, iterations: int) -> tuple[list[float], float]:
    solver = cfr.CFRSolver(game)
    curve, start = [], time.process_time()
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
        curve.append(exploitability.exploitability(game, solver.average_policy()))
    return curve, time.process_time() - start


def cpp_cfr(game, iterations: int) -> tuple[list[float], float]:
    solver = pyspiel.CFRSolver(game)
    curve, start = [], time.process_time()
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
        curve.append(pyspiel.exploitability(game, solver.average_policy()))
    return curve, time.process_time() - start


def plot(runs: dict, sides: int, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    styles = {"Rulebook ruleset, Python CFR": "-", "OpenSpiel C++ game, C++ CFR": "--",
              "OpenSpiel C++ game, Python CFR": ":"}
    for name, (curve, seconds) in runs.items():
        xs = range(1, len(curve) + 1)
        left.plot(xs, curve, styles[name], linewidth=2, label=name)
        right.bar(name.replace(", ", ",\n"), seconds / len(curve))
    left.set_xscale("log")
    left.set_yscale("log")
    left.set_xlabel("CFR iterations")
    left.set_ylabel("exploitability")
    left.set_title(f"Liar's Dice, one die each, {sides} sides")
    left.grid(alpha=0.3, which="both")
    left.legend()
    right.set_ylabel("CPU seconds per iteration (with exploitability)")
    right.set_yscale("log")
    right.set_title("time")
    right.tick_params(axis="x", labelsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sides", type=int, default=3)
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--plot")
    args = ap.parse_args()
    runs = {
        "Rulebook ruleset, Python CFR": python_cfr(rulebook_game(args.sides), args.iterations),
        "OpenSpiel C++ game, C++ CFR": cpp_cfr(cpp_game(args.sides), args.iterations),
        "OpenSpiel C++ game, Python CFR": python_cfr(cpp_game(args.sides), args.iterations),
    }
    print(json.dumps({name: {"seconds": round(s, 2), "first": c[0], "last": c[-1],
                             "at": {i: c[i - 1] for i in (1, 10, 100, 1000) if i <= len(c)}}
                      for name, (c, s) in runs.items()}, indent=1))
    if args.plot:
        plot(runs, args.sides, args.plot)


if __name__ == "__main__":
    main()
