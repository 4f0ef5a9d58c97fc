#!/usr/bin/env python3
"""OpenSpiel as a peer: random playouts of the games OpenSpiel shares with
the benchmark suite, timed the way benchmarks/baselines/run.py times ours.

OpenSpiel (``pyspiel``, C++ behind Python bindings) is never a dependency
of the project: run this with the Python of a separate virtual environment,

    python -m venv /work/venv-peers && /work/venv-peers/bin/pip install open_spiel
    /work/venv-peers/bin/python benchmarks/openspiel_peers.py --seconds 3
    /work/venv-peers/bin/python benchmarks/openspiel_peers.py --only othello,hex --seconds 1

and ``python benchmarks/baselines/run.py --peers /work/venv-peers/bin/python``
(or ``rulebook bench all --peers ...``) runs it in a subprocess, alternated
with our games. Each line:

    peer=openspiel game=<name> players=<n> games=<g> games_per_s=<x> decisions_per_s=<y>
        decisions_per_game=<d> chance_per_game=<c>          (one line)

A decision is one player's choice at a decision node, forced ones (one
legal action) included, as Rulebook counts them; at a simultaneous node
(goofspiel) each player's action is one decision. Chance outcomes are
sampled by their probabilities and counted apart. Only the game loop is
timed, by this process's CPU time unless ``--clock wall``; the library's
import and the game's construction are not.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

# Our id -> OpenSpiel's game string, chosen to match our rulesets where
# OpenSpiel lets it (see docs/performance.md, "Benchmarks", for what differs).
GAMES = {
    "liars-dice": "liars_dice",
    "hearts": "hearts(pass_cards=false)",
    "reversi": "othello",
    "hex": "hex(board_size=7)",
    "goofspiel": "goofspiel(num_cards=13,players=2,points_order=random)",
    "pig": "pig(players=2,winscore=100)",
    "tic-tac-toe": "tic_tac_toe",
}

CLOCK = {"cpu": time.process_time, "wall": time.perf_counter}


def sample(outcomes, draw: float) -> int:
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if draw < acc:
            return action
    return outcomes[-1][0]


def playouts(game_string: str, seconds: float, seed: int, clock=time.process_time) -> dict:
    """Random games of one OpenSpiel game for ``seconds`` of ``clock``."""
    import pyspiel

    game = pyspiel.load_game(game_string)
    rng = random.Random(seed)
    choice, rand = rng.choice, rng.random
    games = decisions = chance = 0
    start = clock()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample(state.chance_outcomes(), rand()))
                chance += 1
            elif state.is_simultaneous_node():
                actions = [choice(state.legal_actions(p)) for p in range(game.num_players())]
                state.apply_actions(actions)
                decisions += len(actions)
            else:
                state.apply_action(choice(state.legal_actions()))
                decisions += 1
        games += 1
        if clock() >= deadline:
            break
    elapsed = clock() - start
    return {"players": game.num_players(), "games": games, "games_per_s": games / elapsed,
            "decisions_per_s": decisions / elapsed, "decisions_per_game": decisions / games,
            "chance_per_game": chance / games}


def line(name: str, r: dict) -> str:
    return (f"peer=openspiel game={name} players={r['players']} games={r['games']} "
            f"games_per_s={r['games_per_s']:.1f} decisions_per_s={r['decisions_per_s']:.0f} "
            f"decisions_per_game={r['decisions_per_game']:.1f} chance_per_game={r['chance_per_game']:.1f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds of playouts per game")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default="", help="comma-separated names: our ids (reversi) or OpenSpiel's (othello)")
    ap.add_argument("--clock", choices=sorted(CLOCK), default="cpu")
    args = ap.parse_args(argv)
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("peer=openspiel status=unavailable: pip install open_spiel in a separate virtual environment",
              flush=True)
        return 2
    wanted = {w for w in args.only.split(",") if w}
    for ours, theirs in GAMES.items():
        if wanted and ours not in wanted and theirs.split("(")[0] not in wanted:
            continue
        print(line(ours, playouts(theirs, args.seconds, args.seed, CLOCK[args.clock])), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
