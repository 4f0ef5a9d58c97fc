#!/usr/bin/env python3
"""Hand-written Pig (examples/pig), uniformly random players, standard library only.

The baseline a Rulebook ruleset is measured against: plain Python, the way
a competent programmer writes the game, not tuned to be slow or fast.

Rules as in examples/pig/ruleset.yaml: on your turn roll a die as often as
you like; a 1 loses the turn total and ends the turn; holding banks it. The
first roll of a turn is compulsory (hold is offered only with a turn total
above zero). The first to hold with a score at or above the target wins at
once. A decision is one choice between the options offered, forced ones
(a turn's first roll) included, as Rulebook counts them.

    python pig.py --players 2 --seconds 5 --seed 1
"""

from __future__ import annotations

import random
import sys

DEFAULT_PLAYERS = 2
TARGET = 100


def play(players: int, rng: random.Random, target: int = TARGET) -> tuple[list[int], int]:
    """One game; returns (winners, decisions)."""
    scores = [0] * players
    decisions = 0
    current = 0
    while True:
        turn_total = 0
        while True:
            options = ["roll", "hold"] if turn_total > 0 else ["roll"]
            choice = options[rng.randrange(len(options))]
            decisions += 1
            if choice == "hold":
                scores[current] += turn_total
                if scores[current] >= target:
                    return [current], decisions
                break
            face = rng.randint(1, 6)
            if face == 1:
                break
            turn_total += face
        current = (current + 1) % players


if __name__ == "__main__":
    from _harness import main

    sys.exit(main("pig", play, DEFAULT_PLAYERS))
