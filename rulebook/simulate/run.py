"""Many games between agents: a run, on one process, several or a Dask
cluster, and its summary.

One game of a run (its seed, its agents, the loops that play it) is
``rulebook.simulate.games``; where the games of a run are played is
``rulebook.simulate.backends``; the summary table is ``rulebook.simulate.report``.
Everything a caller needs is importable from here.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from rulebook.simulate import backends as sim_backends
from rulebook.simulate.games import (  # noqa: F401 - the names callers import from here
    AGENT,
    CAP,
    DEFAULT_MAX_DECISIONS,
    RULE,
    WORKER,
    GameStopped,
    Result,
    SharedRandom,
    agent_seed,
    check_agents,
    game_seed,
    lineup,
    play_game,
    play_one,
    play_state,
    random_seats,
    split_agents,
)


def run_many(
    game,
    players: int,
    n: int,
    run_seed: int = 0,
    params: dict | None = None,
    progress: bool | Callable[[int], None] = False,
    specs: Sequence[str] | None = None,
    workers: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    max_decisions: int = DEFAULT_MAX_DECISIONS,
    source: str | None = None,
    keep_history: bool = False,
    time_outs: float = 0.0,
    cut_off_says: str | None = None,
    notice: Callable[[str], None] | None = None,
) -> list[Result]:
    """Play games ``0 .. n-1`` of a run and return their results in index
    order. ``workers`` > 1 plays them in that many processes; ``backend``
    ``"dask"`` on a Dask cluster (``scheduler``'s, or a local one). The
    results are the same whatever the backend (see the module's docstring).
    ``progress``: True for a bar on stderr, or a function told how many more
    games are done. ``time_outs``: the rate at which timed decisions run out
    of time (see the module's docstring). ``notice`` is told of worker
    processes lost (their games are played again). Ctrl-C raises
    ``sim_backends.Interrupted``, which holds the games finished."""
    if not 0.0 <= time_outs <= 1.0:
        raise ValueError(f"a time-out rate is between 0 and 1, not {time_outs}")
    specs = list(specs) if specs is not None else ["random"] * players
    job = sim_backends.Job.of(game, players, params or {}, specs, run_seed, max_decisions, source, keep_history,
                              time_outs, cut_off_says)
    bar = None
    if progress is True:
        import sys

        import click

        bar = click.progressbar(length=n, label="simulating", show_eta=True, file=sys.stderr)
        bar.__enter__()
        advance = bar.update
    else:
        advance = progress or None
    try:
        if backend == "dask":
            return sim_backends.run_dask(job, n, workers, scheduler, advance)
        if backend != "local":
            raise ValueError(f"unknown backend '{backend}': local or dask")
        if workers is not None and workers != 1:
            return sim_backends.run_processes(job, n, workers, advance, notice)
        return sim_backends.run_here(game, job, n, advance)
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)


def summary(game, players, results: list[Result], seconds: float | None = None, where: str = "",
            cut_off_says: str | None = None) -> str:
    """The run's summary table (see ``rulebook.simulate.report``)."""
    from rulebook.simulate.report import summary as make

    return make(game, players, results, seconds, where, cut_off_says)


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
