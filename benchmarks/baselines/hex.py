#!/usr/bin/env python3
"""Hand-written Hex (examples/hex), uniformly random players, standard library only.

Rules as in examples/hex/ruleset.yaml: a size x size rhombus of hexagons
(default 7), Red (player 0) first, no swap rule. Red connects the top and
bottom rows, Blue the left and right columns; the game ends as soon as a
placed stone completes its owner's chain (found by a flood fill from that
stone, as the ruleset does). Cell (q, r) touches (q+-1, r), (q, r+-1),
(q+1, r-1) and (q-1, r+1). A decision is one stone placed.

    python hex.py --seconds 5
"""

from __future__ import annotations

import random
import sys

DEFAULT_PLAYERS = 2
SIZE = 7
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def neighbours(size: int) -> list[list[int]]:
    """For each cell index r * size + q, the indices of its neighbours."""
    table = []
    for r in range(size):
        for q in range(size):
            table.append([(r + dr) * size + q + dq for dq, dr in STEPS
                          if 0 <= q + dq < size and 0 <= r + dr < size])
    return table


def connects(board: list, near: list[list[int]], start: int, player: int, size: int) -> bool:
    """Whether the chain of player's stones through start touches both of their edges."""
    seen = {start}
    todo = [start]
    low = high = False
    while todo:
        cell = todo.pop()
        r, q = divmod(cell, size)
        across = r if player == 0 else q
        low = low or across == 0
        high = high or across == size - 1
        if low and high:
            return True
        for other in near[cell]:
            if other not in seen and board[other] == player:
                seen.add(other)
                todo.append(other)
    return False


def play(players: int, rng: random.Random, size: int = SIZE) -> tuple[list[int], int]:
    """One game; returns (winners, decisions)."""
    near = neighbours(size)
    board = [None] * (size * size)
    empty = list(range(size * size))
    player = decisions = 0
    while True:
        cell = empty.pop(rng.randrange(len(empty)))
        board[cell] = player
        decisions += 1
        if connects(board, near, cell, player, size):
            return [player], decisions
        player = 1 - player


if __name__ == "__main__":
    from _harness import main

    sys.exit(main("hex", play, DEFAULT_PLAYERS))
