"""Many games between random bots: results, summaries and benchmarks."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

from interpreter.agents import RandomAgent
from interpreter.errors import RulebookError


@dataclass
class Result:
    index: int
    seed: int
    winners: list
    decisions: int
    error: str | None = None


def game_seed(run_seed: int, index: int) -> int:
    """Each game's seed from the run's seed and the game's index, so that
    any game of a run can be replayed on its own."""
    return (run_seed * 1_000_003 + index * 7919) % (2**31)


def play_one(game, players: int, seed: int, params=None, record=False) -> tuple[list, int]:
    st = game.new(players=players, seed=seed, params=params, record=record)
    bots = [RandomAgent(seed * 31 + p) for p in range(players)]
    decisions = 0
    while not st.over:
        for p in game.to_move(st):
            options = game.legal_values(st, p)
            game.apply(st, p, bots[p].rng.randrange(len(options)))
            decisions += 1
    return st.winners, decisions


def run_many(game, players, n, run_seed=0, params=None, progress=False) -> list[Result]:
    import click

    results = []
    iterator = range(n)
    bar = click.progressbar(iterator, label="simulating", file=None, show_eta=True) if progress else None
    items = bar.__enter__() if bar else iterator
    try:
        for i in items:
            seed = game_seed(run_seed, i)
            try:
                winners, decisions = play_one(game, players, seed, params)
                results.append(Result(i, seed, winners, decisions))
            except RulebookError as err:
                results.append(Result(i, seed, [], 0, str(err)))
    finally:
        if bar:
            bar.__exit__(None, None, None)
    return results


def summary(game, players, results: list[Result]) -> str:
    from interpreter.labels import player_name

    ok = [r for r in results if r.error is None]
    prog = game.program
    lines = [
        f"{prog.title}{' (' + ', '.join(prog.variants) + ')' if prog.variants else ''}: "
        f"{len(results)} games, {players} players"
    ]
    if ok:
        wins = [0.0] * players
        for r in ok:
            for w in r.winners:
                wins[w] += 1 / len(r.winners)
        lines.append(
            "wins by seat: "
            + ", ".join(f"P{p + 1} {wins[p]:.1f} ({100 * wins[p] / len(ok):.1f}%)" for p in range(players))
            + " (a shared win counts 1/k for each of its k winners)"
        )
        none = sum(1 for r in ok if not r.winners)
        shared = sum(1 for r in ok if len(r.winners) > 1)
        lines.append(f"games without a winner: {none}; games with a shared win: {shared}")
        lengths = [r.decisions for r in ok]
        lines.append(f"decisions per game: mean {statistics.mean(lengths):.1f}, min {min(lengths)}, max {max(lengths)}")
    errors = [r for r in results if r.error]
    lines.append(f"errors: {len(errors)}")
    for r in errors[:5]:
        lines.append(f"  game {r.index} (seed {r.seed}): {r.error}")
    del player_name
    return "\n".join(lines)


def bench(game, players, seconds, seed) -> dict:
    games = decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    i = 0
    while True:
        _, d = play_one(game, players, game_seed(seed, i))
        i += 1
        games += 1
        decisions += d
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {
        "games": games,
        "decisions": decisions,
        "games_per_s": games / elapsed,
        "decisions_per_s": decisions / elapsed,
        "decisions_per_game": decisions / games,
    }
