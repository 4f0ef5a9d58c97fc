"""The command line every baseline shares: play random games for a while
and print one line in the format of ``rulebook bench`` (impl=... games_per_s=...
decisions_per_game=...), so the figures read side by side."""

from __future__ import annotations

import argparse
import random
import time


def main(name: str, play, default_players: int, argv=None) -> int:
    ap = argparse.ArgumentParser(description=f"Random-play {name} baseline (hand-written Python)")
    ap.add_argument("--players", type=int, default=default_players)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    games = decisions = 0
    start = time.perf_counter()
    deadline = start + args.seconds
    while True:
        _, d = play(args.players, rng)
        games += 1
        decisions += d
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    print(f"impl=handwritten game={name} players={args.players} games={games} "
          f"games_per_s={games / elapsed:.1f} decisions_per_s={decisions / elapsed:.0f} "
          f"decisions_per_game={decisions / games:.1f}")
    return 0
