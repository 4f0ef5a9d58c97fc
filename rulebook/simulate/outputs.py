"""What ``rulebook simulate`` writes of each game as soon as it finishes:
the replayable log of a failed game (``--failures``), every game's log
(``--logs``) and its row (``--out``).

``GameOutputs`` is the run's sink (``run_many(sink=...)``): the backends
give it each result in index order while the run goes on, so a long run
keeps no row and no game's decisions, and a run stopped by Ctrl-C or by a
full disk has written every game before the stop.
"""

from __future__ import annotations

from pathlib import Path

from rulebook.simulate.games import WORKER, Result
from rulebook.simulate.report import log_path, save_log, write_failure
from rulebook.simulate.rows import RowsLost, RowWriter


def open_rows(path: str | Path | None) -> RowWriter | None:
    """``--out``'s writer, opened (and a CSV's header written) before the
    first game, so a file that cannot be written stops the run before it
    starts: raises the ``OSError`` that says why."""
    if path is None:
        return None
    try:
        return RowWriter(path)
    except RowsLost as lost:
        raise lost.reason from None


class GameOutputs:
    """Writes each game's outputs as it is given the game's result.
    ``saved``: the failed games' logs by index (path, and whether the
    failure reproduced when its log was written); ``logged``: how many
    ``--logs`` files were written. Raises ``RowsLost`` when ``--out``
    cannot be written, which stops the run."""

    def __init__(self, game, ruleset_path: str, players: int, params: dict, run_seed: int,
                 failures: str | Path, logs: str | Path | None = None, rows: RowWriter | None = None):
        self.game, self.ruleset_path, self.players, self.params, self.run_seed = (
            game, ruleset_path, players, params, run_seed)
        self.failures, self.logs = Path(failures), Path(logs) if logs is not None else None
        self.rows = rows
        self.saved: dict[int, tuple[str, bool]] = {}
        self.logged = 0

    def __call__(self, r: Result) -> None:
        log = None
        if r.error and r.kind != WORKER:  # a lost worker left no decisions to replay
            self.failures.mkdir(parents=True, exist_ok=True)
            path = log_path(self.failures, self.game, r)
            self.saved[r.index] = (str(path), write_failure(path, self.game, self.ruleset_path, self.players,
                                                            self.params, self.run_seed, r))
            log = str(path)
        if self.logs is not None:
            self.logs.mkdir(parents=True, exist_ok=True)
            save_log(log_path(self.logs, self.game, r), self.game, self.ruleset_path, self.players, self.params,
                     self.run_seed, r)
            self.logged += 1
        r.history = None  # written: the run keeps no game's decisions
        if self.rows is not None:
            self.rows.write(r, log)
