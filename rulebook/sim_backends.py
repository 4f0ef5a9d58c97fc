"""Where the games of a run are played: here, in local processes, or on Dask.

A compiled ruleset cannot be pickled (its rules are Python closures), so a
worker gets a ``Job``: the ruleset's text, the file name it was read from
(runtime errors name it, so they read the same everywhere) and the digest
the parent compiled. The worker compiles the text once, checks the digest
(the same rules, or no results) and plays the games it is given by index.
Each game depends only on the job and its index (``rulebook.simulate``), so
how the indexes are split between workers cannot change any result; the
parent sorts the results by index.

Local processes use the ``spawn`` start method on every platform: a worker
starts from a fresh interpreter, never from a fork of a parent that may hold
threads (Dask's, a progress bar's) or a half-written file.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from rulebook.simulate import Result, game_seed, play_game

Progress = Callable[[int], None] | None


@dataclass(frozen=True)
class Job:
    """Everything a worker needs to play games of a run, all picklable."""

    source: str
    file: str
    variants: tuple
    digest: str
    players: int
    params: dict
    specs: tuple
    run_seed: int
    max_decisions: int
    keep_history: bool = False
    time_outs: float = 0.0
    cut_off_says: str | None = None

    @classmethod
    def of(cls, game, players, params, specs, run_seed, max_decisions, source=None, keep_history=False,
           time_outs=0.0, cut_off_says=None) -> Job:
        prog = game.program
        file = str(prog.source_file)
        if source is None:
            try:
                source = Path(file).read_text(encoding="utf-8")
            except OSError:
                source = ""  # only workers need it; they say so if it is missing
        return cls(source, file, tuple(prog.variants), prog.digest, players, dict(params), tuple(specs), run_seed,
                   max_decisions, keep_history, time_outs, cut_off_says)

    def play(self, game, index: int) -> Result:
        return play_game(game, self.players, index, game_seed(self.run_seed, index), self.specs, self.params,
                         self.max_decisions, keep_history=self.keep_history, time_outs=self.time_outs,
                         cut_off_says=self.cut_off_says)


_GAMES: dict = {}


def _game(job: Job):
    """The job's ruleset compiled once per worker process."""
    key = (job.file, job.digest, job.variants)
    game = _GAMES.get(key)
    if game is None:
        from compiler.build import load_text_program
        from interpreter.game import Game

        if not job.source:
            raise RuntimeError(f"the ruleset text of {job.file} was not sent to the worker")
        compiled = load_text_program(job.source, job.file, job.variants)  # the compiled module, from the cache
        if compiled.program is None:
            raise RuntimeError(f"{job.file} does not compile in a worker: {compiled.report.errors[0].message}")
        if compiled.program.digest != job.digest:
            raise RuntimeError(f"{job.file} compiles to digest {compiled.program.digest} in a worker, "
                               f"not {job.digest}: the ruleset changed during the run")
        game = _GAMES[key] = Game(compiled.program)
    return game


def run_chunk(job: Job, indexes: list[int]) -> list[Result]:
    """Play the games ``indexes`` of a job (the task a worker runs)."""
    game = _game(job)
    return [job.play(game, i) for i in indexes]


def chunks(n: int, workers: int) -> Iterator[list[int]]:
    """Game indexes in chunks: small enough to balance the load and move the
    progress bar, large enough that sending them costs little."""
    size = max(1, min(50, n // (workers * 8) if workers else n))
    for start in range(0, n, size):
        yield list(range(start, min(n, start + size)))


def run_here(game, job: Job, n: int, progress: Progress = None) -> list[Result]:
    """In this process, with the parent's compiled game."""
    out = []
    for i in range(n):
        out.append(job.play(game, i))
        if progress:
            progress(1)
    return out


# ------------------------------------------------------------ local processes

_JOB: Job | None = None


def _init_worker(job: Job) -> None:
    global _JOB
    _JOB = job


def _run_indexes(indexes: list[int]) -> list[Result]:
    assert _JOB is not None, "worker not initialised"
    return run_chunk(_JOB, indexes)


def run_processes(job: Job, n: int, workers: int, progress: Progress = None) -> list[Result]:
    """In ``workers`` processes of this machine (0: one per core)."""
    import multiprocessing

    workers = workers or os.cpu_count() or 1
    workers = max(1, min(workers, n))
    ctx = multiprocessing.get_context("spawn")
    results: list[Result] = []
    with ctx.Pool(workers, initializer=_init_worker, initargs=(job,)) as pool:
        for part in pool.imap_unordered(_run_indexes, chunks(n, workers)):
            results.extend(part)
            if progress:
                progress(len(part))
    return sorted(results, key=lambda r: r.index)


# ------------------------------------------------------------ Dask


def dask_available() -> bool:
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        return False
    return True


def run_dask(job: Job, n: int, workers: int | None = None, scheduler: str | None = None,
             progress: Progress = None) -> list[Result]:
    """On a Dask distributed cluster: the one at ``scheduler`` (an address
    such as ``tcp://host:8786``), or a ``LocalCluster`` of ``workers``
    single-threaded processes (default: one per core) started for this run.
    The rulebook package (and any user agent's module) must be importable on
    the cluster's workers; the ruleset itself travels with the job."""
    from dask.distributed import Client, LocalCluster, as_completed

    cluster = None
    if scheduler is None:
        cluster = LocalCluster(n_workers=max(1, min(workers or os.cpu_count() or 1, n)), threads_per_worker=1,
                               processes=True, dashboard_address=None)
    try:
        with Client(scheduler or cluster) as client:
            size = len(client.scheduler_info().get("workers", {})) or 1
            shared = client.scatter(job, broadcast=True)
            futures = [client.submit(run_chunk, shared, part, pure=False) for part in chunks(n, size)]
            results: list[Result] = []
            for future in as_completed(futures):
                part = future.result()
                results.extend(part)
                if progress:
                    progress(len(part))
    finally:
        if cluster is not None:
            cluster.close()
    return sorted(results, key=lambda r: r.index)
