#!/usr/bin/env python3
"""Hand-written Reversi (examples/reversi), uniformly random players,
standard library only.

Rules as in examples/reversi/ruleset.yaml: 8x8, Black (player 0) first,
White on d4 and e5, Black on d5 and e4. A move must bracket at least one
line of the opponent's discs, which all turn. A player with no move passes
(a decision with one option, as Rulebook counts it). Before each decision,
when neither player can move the game ends: more discs win, equal counts
are shared.

    python reversi.py --seconds 5
"""

from __future__ import annotations

import random
import sys

DEFAULT_PLAYERS = 2
SIZE = 8
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


class Reversi:
    def __init__(self) -> None:
        self.board = [[None] * SIZE for _ in range(SIZE)]  # board[row][col]
        self.board[3][3] = self.board[4][4] = 1
        self.board[4][3] = self.board[3][4] = 0

    def flips(self, col: int, row: int, player: int) -> list[tuple[int, int]]:
        """The opponent's discs a disc of player's on (col, row) would turn."""
        if self.board[row][col] is not None:
            return []
        turned = []
        for dc, dr in DIRECTIONS:
            run = []
            c, r = col + dc, row + dr
            while 0 <= c < SIZE and 0 <= r < SIZE and self.board[r][c] == 1 - player:
                run.append((c, r))
                c, r = c + dc, r + dr
            if run and 0 <= c < SIZE and 0 <= r < SIZE and self.board[r][c] == player:
                turned.extend(run)
        return turned

    def moves(self, player: int) -> list[tuple[int, int]]:
        return [(c, r) for r in range(SIZE) for c in range(SIZE) if self.flips(c, r, player)]

    def place(self, col: int, row: int, player: int) -> None:
        for c, r in self.flips(col, row, player):
            self.board[r][c] = player
        self.board[row][col] = player

    def discs(self, player: int) -> int:
        return sum(row.count(player) for row in self.board)


def play(players: int, rng: random.Random) -> tuple[list[int], int]:
    """One game; returns (winners, decisions)."""
    game = Reversi()
    player = decisions = 0
    while True:
        options = game.moves(player)
        if not options and not game.moves(1 - player):
            break
        decisions += 1
        if options:
            game.place(*options[rng.randrange(len(options))], player)
        player = 1 - player
    black, white = game.discs(0), game.discs(1)
    return ([0] if black > white else [1] if white > black else [0, 1]), decisions


if __name__ == "__main__":
    from _harness import main

    sys.exit(main("reversi", play, DEFAULT_PLAYERS))
