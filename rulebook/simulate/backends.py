"""Where the games of a run are played: here, in local processes, or on Dask.

A compiled ruleset cannot be pickled (its rules are Python closures), so a
worker gets a ``Job``: the ruleset's text, the file name it was read from
(runtime errors name it, so they read the same everywhere) and the digest
the parent compiled. The worker compiles the text once, checks the digest
(the same rules, or no results) and plays the games it is given by index.
Each game depends only on the job and its index (``rulebook.simulate.run``), so
how the indexes are split between workers cannot change any result; the
parent sorts the results by index.

Local processes use the ``spawn`` start method on every platform: a worker
starts from a fresh interpreter, never from a fork of a parent that may hold
threads (Dask's, a progress bar's) or a half-written file.
"""

from __future__ import annotations

import logging
import os
import signal
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from rulebook.simulate.games import WORKER, Result, game_seed, play_game

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
        from rulebook.compiler.build import load_text_program
        from rulebook.interpreter.game import Game

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
    try:
        for i in range(n):
            out.append(job.play(game, i))
            if progress:
                progress(1)
    except KeyboardInterrupt:
        raise Interrupted(out, n) from None
    return out


# ------------------------------------------------------------ local processes

LOST = "the worker process playing it died ({how}), and again when the game was played on its own"
TOO_MANY = "the worker process playing it died ({how}), after {deaths} others: the run stopped starting new ones"


class Interrupted(Exception):
    """Ctrl-C during a run: ``results`` holds the games finished so far (in
    index order), so the caller can still write them."""

    def __init__(self, results: list[Result], total: int):
        super().__init__(f"interrupted after {len(results)} of {total} games")
        self.results, self.total = results, total


@contextmanager
def _no_sigint():
    """Start processes with Ctrl-C ignored: a worker inherits the ignored
    signal (Python then installs no KeyboardInterrupt handler in it), so a
    Ctrl-C at the terminal, which every process of the foreground group
    receives, reaches only the parent, which stops the workers itself:
    no worker prints a traceback."""
    try:
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: signals cannot be changed here
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _worker_main(conn, job: Job) -> None:
    """A worker process: play each chunk of indexes it is sent, answer with
    the results (or the error), stop at ``None`` or when the parent is gone."""
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            answer = ("done", run_chunk(job, task))
        except Exception as err:  # noqa: BLE001 - reported to the parent, which raises it
            answer = ("error", f"{type(err).__name__}: {err}")
        try:
            conn.send(answer)
        except (BrokenPipeError, OSError):
            return


class _Worker:
    """One worker process, its end of the pipe and the chunk it is playing."""

    def __init__(self, ctx, job: Job):
        here, there = ctx.Pipe()
        self.process = ctx.Process(target=_worker_main, args=(there, job), daemon=True)
        with _no_sigint():
            self.process.start()
        there.close()
        self.conn, self.task = here, None

    def give(self, task: list[int]) -> None:
        self.task = task
        try:
            self.conn.send(task)
        except OSError:  # it died meanwhile: its sentinel says so, and the task is played again
            pass

    def stop(self) -> None:
        """Stop the process at once (its chunk, if any, is somebody else's now)."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()

    def how(self) -> str:
        self.process.join(1)
        code = self.process.exitcode
        if code is not None and code < 0:
            try:
                return f"signal {signal.Signals(-code).name}"
            except ValueError:
                return f"signal {-code}"
        return f"exit code {code}"


def run_processes(job: Job, n: int, workers: int, progress: Progress = None,
                  notice: Callable[[str], None] | None = None) -> list[Result]:
    """In ``workers`` processes of this machine (0: one per core).

    The parent gives each worker a chunk at a time and watches both its pipe
    and its process. A worker that dies (killed, out of memory, a crash) is
    replaced; the games of its chunk are played again, one per task, and a
    game whose worker dies a second time is reported as failed (``worker``).
    Ctrl-C stops the workers and raises ``Interrupted`` with the games done.
    ``notice`` is told, in a sentence, of each worker lost."""
    import multiprocessing
    from multiprocessing.connection import wait

    workers = workers or os.cpu_count() or 1
    workers = max(1, min(workers, n))
    ctx = multiprocessing.get_context("spawn")
    todo = deque(chunks(n, workers))
    done: dict[int, Result] = {}
    lost_once: set[int] = set()
    deaths = 0
    pool: list[_Worker] = []
    try:
        while todo or pool:
            for w in [w for w in pool if w.task is None and not w.process.is_alive()]:
                w.stop()  # died after its last answer: it owes nothing
                pool.remove(w)
            while todo and len(pool) < workers and len(pool) < len(todo) + sum(1 for w in pool if w.task):
                pool.append(_Worker(ctx, job))
            for w in pool:
                if w.task is None and todo:
                    w.give(todo.popleft())
            busy = [w for w in pool if w.task]
            if not busy:
                break
            ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy]))
            for w in busy:
                if w.conn not in ready and w.process.sentinel not in ready:
                    continue
                answer = _answer(w)
                if answer is None:  # the worker died: its games again, one per task, or failed
                    deaths += 1
                    how = w.how()
                    for i in w.task:
                        if i in lost_once:
                            done[i] = _lost(job, i, LOST.format(how=how))
                        elif deaths > 2 * workers + 8:  # something kills every worker: stop trying
                            done[i] = _lost(job, i, TOO_MANY.format(how=how, deaths=deaths - 1))
                        else:
                            lost_once.add(i)
                            todo.append([i])
                    failed = [i for i in w.task if i in done]
                    if notice:
                        notice(f"a worker process died ({how}) while playing {len(w.task)} game(s): "
                               + (f"{len(failed)} of them counted as failed, " if failed else "")
                               + f"{len(w.task) - len(failed)} will be played again")
                    if progress:
                        progress(len(failed))
                    w.stop()
                    pool.remove(w)
                    continue
                kind, value = answer
                if kind == "error":
                    raise RuntimeError(value)
                for r in value:
                    done[r.index] = r
                if progress:
                    progress(len(value))
                w.task = None
    except KeyboardInterrupt:
        raise Interrupted(sorted(done.values(), key=lambda r: r.index), n) from None
    finally:
        for w in pool:
            w.stop()
    return sorted(done.values(), key=lambda r: r.index)


def _answer(w: _Worker):
    """What worker ``w`` sent, or None when it died without an answer."""
    try:
        return w.conn.recv() if w.conn.poll() else None
    except (EOFError, OSError):
        return None


def _lost(job: Job, index: int, why: str) -> Result:
    return Result(index, game_seed(job.run_seed, index), [], 0, why, list(job.specs), kind=WORKER)


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
    results: list[Result] = []
    try:
        if scheduler is None:
            with _no_sigint():  # its processes ignore Ctrl-C: the parent stops them (see _no_sigint)
                cluster = LocalCluster(n_workers=max(1, min(workers or os.cpu_count() or 1, n)),
                                       threads_per_worker=1, processes=True, dashboard_address=None,
                                       silence_logs=logging.ERROR)
        with Client(scheduler or cluster) as client:
            size = len(client.scheduler_info().get("workers", {})) or 1
            shared = client.scatter(job, broadcast=True)
            futures = [client.submit(run_chunk, shared, part, pure=False) for part in chunks(n, size)]
            for future in as_completed(futures):
                part = future.result()
                results.extend(part)
                if progress:
                    progress(len(part))
    except KeyboardInterrupt:
        raise Interrupted(sorted(results, key=lambda r: r.index), n) from None
    finally:
        if cluster is not None:
            _quietly(cluster.close)
    return sorted(results, key=lambda r: r.index)


def _quietly(close) -> None:
    """Close a local cluster without the log lines Dask prints while its
    workers are stopped (after Ctrl-C, tasks still running are cancelled)."""
    loggers = [logging.getLogger(name) for name in ("distributed", "tornado", "asyncio")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        close()
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)
