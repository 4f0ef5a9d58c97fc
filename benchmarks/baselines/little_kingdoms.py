#!/usr/bin/env python3
"""Hand-written Little kingdoms (examples/little-kingdoms), uniformly random
players, standard library only.

Rules as in examples/little-kingdoms/ruleset.yaml: two 5x5 kingdoms with a
castle in the middle; 24 one-square tiles (four terrains, six each, with
0, 0, 0, 1, 1, 2 crowns), shuffled. Six rounds: four tiles are turned, the
players take them alternately (the first player first), and each tile is
laid in its taker's kingdom on an empty plot orthogonally next to the
castle or to a tile of the same terrain, or discarded when it fits nowhere.
Each region of one terrain scores its size times its crowns; the higher
total wins (ties shared). Decisions, as Rulebook counts them: taking a
tile, and choosing its plot when it fits somewhere.

    python little_kingdoms.py --seconds 5
"""

from __future__ import annotations

import random
import sys

DEFAULT_PLAYERS = 2
SIDE = 5
CASTLE = (SIDE // 2, SIDE // 2)
TERRAINS = ("field", "forest", "lake", "meadow")
CROWNS = (0, 0, 0, 1, 1, 2)


def neighbours(x: int, y: int) -> list[tuple[int, int]]:
    return [(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= x + dx < SIDE and 0 <= y + dy < SIDE]


NEIGHBOURS = {(x, y): neighbours(x, y) for y in range(SIDE) for x in range(SIDE)}
PLOTS = [plot for plot in NEIGHBOURS if plot != CASTLE]


class Kingdom:
    def __init__(self) -> None:
        self.plots: dict[tuple[int, int], tuple[str, int]] = {}  # (x, y) -> (terrain, crowns)

    def places(self, terrain: str) -> list[tuple[int, int]]:
        plots = self.plots
        return [plot for plot in PLOTS if plot not in plots
                and any(n == CASTLE or (n in plots and plots[n][0] == terrain) for n in NEIGHBOURS[plot])]

    def score(self) -> int:
        seen: set = set()
        total = 0
        for start, (terrain, _) in self.plots.items():
            if start in seen:
                continue
            region, todo = [start], [start]
            seen.add(start)
            while todo:
                for n in NEIGHBOURS[todo.pop()]:
                    if n not in seen and n in self.plots and self.plots[n][0] == terrain:
                        seen.add(n)
                        region.append(n)
                        todo.append(n)
            total += len(region) * sum(self.plots[p][1] for p in region)
        return total


def play(players: int, rng: random.Random) -> tuple[list[int], int]:
    """One game; returns (winners, decisions)."""
    deck = [(terrain, crowns) for terrain in TERRAINS for crowns in CROWNS]
    rng.shuffle(deck)
    kingdoms = [Kingdom() for _ in range(2)]
    decisions = 0
    while deck:
        market, deck = deck[:4], deck[4:]
        player = 0
        while market:
            tile = market.pop(rng.randrange(len(market)))
            decisions += 1
            spots = kingdoms[player].places(tile[0])
            if spots:
                kingdoms[player].plots[spots[rng.randrange(len(spots))]] = tile
                decisions += 1
            player = 1 - player
    scores = [k.score() for k in kingdoms]
    top = max(scores)
    return [p for p in range(2) if scores[p] == top], decisions


if __name__ == "__main__":
    from _harness import main

    sys.exit(main("little-kingdoms", play, DEFAULT_PLAYERS))
