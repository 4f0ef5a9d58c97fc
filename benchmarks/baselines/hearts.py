#!/usr/bin/env python3
"""Hand-written Hearts (examples/hearts), uniformly random players,
standard library only.

Rules as in examples/hearts/ruleset.yaml: four players, one hand, no
passing. The two of clubs leads the first trick; players follow suit if
they can; on the first trick nobody plays a heart or the queen of spades
unless they hold nothing else; hearts may not be led until a heart or the
queen of spades has been played, unless the leader holds only hearts. The
highest card of the suit led takes the trick and leads the next. Hearts
cost 1, the queen of spades 13; taking all 26 (shooting the moon) scores 0
and gives everybody else 26. The fewest points win (ties shared). A
decision is one card played, forced ones included.

    python hearts.py --seconds 5
"""

from __future__ import annotations

import random
import sys

DEFAULT_PLAYERS = 4
SUITS = ("clubs", "diamonds", "spades", "hearts")
MOON = 26


def points(card: tuple[str, int]) -> int:
    suit, rank = card
    return 1 if suit == "hearts" else 13 if suit == "spades" and rank == 12 else 0


def legal(hand: list, trick: list, first_trick: bool, broken: bool) -> list:
    """The cards of hand that may be played to the trick (a list of (player, card))."""
    if not trick:
        if first_trick:
            return [("clubs", 2)]
        if broken or all(suit == "hearts" for suit, _ in hand):
            return list(hand)
        return [card for card in hand if card[0] != "hearts"]
    led = trick[0][1][0]
    options = [card for card in hand if card[0] == led] or list(hand)
    if first_trick:
        options = [card for card in options if not points(card)] or options
    return options


def play(players: int, rng: random.Random) -> tuple[list[int], int]:
    """One game; returns (winners, decisions)."""
    deck = [(suit, rank) for suit in SUITS for rank in range(2, 15)]
    rng.shuffle(deck)
    hands = [deck[p * 13:(p + 1) * 13] for p in range(4)]
    penalty = [0] * 4
    leader = next(p for p in range(4) if ("clubs", 2) in hands[p])
    broken = False
    decisions = 0
    for number in range(13):
        trick = []
        for k in range(4):
            player = (leader + k) % 4
            options = legal(hands[player], trick, number == 0, broken)
            card = options[rng.randrange(len(options))]
            hands[player].remove(card)
            trick.append((player, card))
            decisions += 1
            if points(card):
                broken = True
        led = trick[0][1][0]
        leader = max((c[1], p) for p, c in trick if c[0] == led)[1]
        penalty[leader] += sum(points(c) for _, c in trick)
    if MOON in penalty:
        shooter = penalty.index(MOON)
        penalty = [0 if p == shooter else MOON for p in range(4)]
    low = min(penalty)
    return [p for p in range(4) if penalty[p] == low], decisions


if __name__ == "__main__":
    from _harness import main

    sys.exit(main("hearts", play, DEFAULT_PLAYERS))
