#!/usr/bin/env python3
"""Hand-written Goofspiel (examples/goofspiel), uniformly random players,
standard library only.

Rules as in examples/goofspiel/ruleset.yaml: each player holds cards 1 to
13; the 13 prizes are shuffled and turned one a round; every player bids a
card from hand at once; the single highest bid takes the prize's value, a
tie for the highest sets the prize aside; bid cards are spent. After the
last prize the highest score wins (ties shared). A decision is one
player's bid, the last (forced) one included, as Rulebook counts them.

    python goofspiel.py --players 2 --seconds 5
"""

from __future__ import annotations

import random
import sys

DEFAULT_PLAYERS = 2
CARDS = 13


def play(players: int, rng: random.Random, cards: int = CARDS) -> tuple[list[int], int]:
    """One game; returns (winners, decisions)."""
    hands = [list(range(1, cards + 1)) for _ in range(players)]
    prizes = list(range(1, cards + 1))
    rng.shuffle(prizes)
    scores = [0] * players
    decisions = 0
    for prize in prizes:
        bids = [hand.pop(rng.randrange(len(hand))) for hand in hands]
        decisions += players
        high = max(bids)
        best = [p for p, bid in enumerate(bids) if bid == high]
        if len(best) == 1:
            scores[best[0]] += prize
    top = max(scores)
    return [p for p, s in enumerate(scores) if s == top], decisions


if __name__ == "__main__":
    from _harness import main

    sys.exit(main("goofspiel", play, DEFAULT_PLAYERS))
