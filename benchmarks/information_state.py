"""The OpenSpiel adapter's information-state string, whole views against
their changes, in one process run on one machine.

    python benchmarks/information_state.py young-svintus --players 2 --decisions 1200

Plays one seeded random game (explicit chance) twice at once, with
``information_state=views`` (every view written whole, the string before
views were written as their changes) and with the default
``information_state=changes``, and asks every player's information-state
string at every node, as OpenSpiel's ``random_sim_test`` does. Prints, for
each stretch of ``--every`` decisions, the milliseconds a node took with
each and their ratio, and the strings' length at its end: the cost of a
step with whole views grows with the game, with changes it should not.
Each node's two steps are timed back to back, so the machine's load falls
on both alike. (The two strings say the same: ``trail.expand`` of the one
is the other, checked at the last node.)
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def step(state, action, players: int) -> float:
    """Seconds to apply ``action`` and ask every player's information-state string."""
    start = time.perf_counter()
    if isinstance(action, list):
        state.apply_actions(action)
    else:
        state.apply_action(action)
    for p in range(players):
        state.information_state_string(p)
    return time.perf_counter() - start


def main() -> None:
    from rulebook.integrations.openspiel import load_game
    from rulebook.integrations.trail import expand

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ruleset")
    ap.add_argument("--players", type=int)
    ap.add_argument("--decisions", type=int, default=1000, help="a cut: the game ends after so many decisions")
    ap.add_argument("--every", type=int, default=200, help="decisions a printed stretch")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    made = {kind: load_game(f"rulebook:{args.ruleset}", players=args.players, explore_games=2,
                            max_game_length=args.decisions, information_state=kind) for kind in ("views", "changes")}
    n = made["views"].num_players()
    states = {kind: g.new_initial_state() for kind, g in made.items()}
    rng = random.Random(args.seed)
    spent = {"views": 0.0, "changes": 0.0}
    nodes = decisions = 0
    rows = []
    a, b = states["views"], states["changes"]
    while not a.is_terminal():
        if a.is_chance_node():
            outcomes, probs = zip(*a.chance_outcomes())
            action = rng.choices(outcomes, probs)[0]
        elif a.is_simultaneous_node():
            action = [rng.choice(a.legal_actions(p) or [-1]) for p in range(n)]
            decisions += 1
        else:
            action = rng.choice(a.legal_actions())
            decisions += 1
        for kind, state in (("views", a), ("changes", b)) if nodes % 2 else (("changes", b), ("views", a)):
            spent[kind] += step(state, action, n)
        nodes += 1
        if (decisions % args.every == 0 and decisions and (not rows or rows[-1]["to"] < decisions)) or a.is_terminal():
            row = {"to": decisions, "nodes": nodes - sum(r["nodes"] for r in rows)}
            for kind in spent:
                row[f"{kind}_ms_per_node"] = round(1000 * spent[kind] / row["nodes"], 3)
            row["ratio"] = round(spent["views"] / spent["changes"], 1)
            row["chars"] = {kind: len(s.information_state_string(0)) for kind, s in states.items()}
            rows.append(row)
            print(json.dumps(row), flush=True)
            spent = {"views": 0.0, "changes": 0.0}
    same = all(expand(b.information_state_string(p)) == a.information_state_string(p) for p in range(n))
    print(json.dumps({"ruleset": args.ruleset, "players": n, "decisions": decisions, "nodes": nodes,
                      "same_strings": same}))


if __name__ == "__main__":
    main()
