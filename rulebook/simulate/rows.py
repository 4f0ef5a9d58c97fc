"""One row per game of a run (``simulate --out``): JSON Lines or CSV,
written while the run goes on.

A run of a million games must neither keep a million rows to write at the
end nor lose them all when the file cannot be written. ``RowWriter`` opens
the file before the first game (a path that cannot be written is an error
before any game is played) and writes each game's row as the game finishes,
one write per row, nothing kept. When a write fails (a full disk, a file
system gone), the bytes of the row it was writing are cut off again:
``RowsLost`` says how many complete rows the file holds, and the file holds
those and no partial line.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import BinaryIO

from rulebook.simulate.games import Result

FIELDS = ["index", "seed", "agents", "winners", "scores", "decisions", "turns", "cut_off", "error_kind", "error",
          "log", "narrated"]


def row(r: Result, log: str | None = None) -> dict:
    """A game's record. Seats (in ``winners``) are 1-based, as on the
    command line; ``scores`` and ``agents`` are in seat order; ``log`` is
    the replayable log of a failed game."""
    return {
        "index": r.index,
        "seed": r.seed,
        "agents": list(r.agents),
        "winners": [w + 1 for w in r.winners],
        "scores": r.scores,
        "decisions": r.decisions,
        "turns": r.turns,
        "cut_off": r.cut_off,
        "error_kind": r.kind,
        "error": r.error,
        "log": log,
        "narrated": r.narrated,
    }


def rows(results: list[Result], logs: dict[int, str] | None = None) -> list[dict]:
    """One record per game (``row``); ``logs``: failed games' logs by index."""
    logs = logs or {}
    return [row(r, logs.get(r.index)) for r in results]


class RowsLost(Exception):
    """Writing ``--out`` failed: the file holds ``rows`` complete rows (the
    games before the one whose row failed) and no partial line."""

    def __init__(self, path: Path, rows: int, reason: OSError):
        why = reason.strerror or str(reason)
        super().__init__(f"--out {path}: {why}: the run stopped; the file holds the {rows} complete "
                         f"row{'' if rows == 1 else 's'} written before it, and no partial line")
        self.path, self.rows, self.reason = path, rows, reason


class RowWriter:
    """Rows of ``.jsonl`` (one JSON object a line) or ``.csv`` (a header,
    then lists joined by ';'), one write each. ``file``: a binary file to
    write to instead of opening ``path`` (it must be writable and, to cut a
    partial row off, truncatable)."""

    def __init__(self, path: str | Path, file: BinaryIO | None = None):
        self.path = Path(path)
        self.csv = self.path.suffix.lower() == ".csv"
        self.rows = 0
        self._good = 0  # the bytes of the complete lines written so far
        self._file = file if file is not None else open(self.path, "wb", buffering=0)  # noqa: SIM115 - close()
        if self.csv:
            self._put(_csv_line(FIELDS))

    def write(self, result: Result, log: str | None = None) -> None:
        record = row(result, log)
        if self.csv:
            line = _csv_line([_cell(record[k]) for k in FIELDS])
        else:
            line = (json.dumps(record, default=str) + "\n").encode("utf-8")
        self._put(line)
        self.rows += 1

    def _put(self, data: bytes) -> None:
        """Write ``data`` whole, or cut off what part of it was written and
        raise ``RowsLost`` (or the interruption that stopped it)."""
        view, done = memoryview(data), 0
        try:
            while done < len(data):
                count = self._file.write(view[done:])
                if not count:
                    raise OSError(f"{len(data) - done} bytes could not be written")
                done += count
            self._file.flush()
        except OSError as err:
            self._cut()
            raise RowsLost(self.path, self.rows, err) from None
        except BaseException:  # Ctrl-C in the middle of a row: the rows before it stay, whole
            self._cut()
            raise
        self._good += len(data)

    def _cut(self) -> None:
        try:
            self._file.truncate(self._good)
        except (OSError, ValueError):  # not a file that can be cut (/dev/full): nothing of it stays anyway
            pass

    def close(self) -> None:
        try:
            self._file.close()
        except OSError:  # closing flushes nothing: every row was written whole or cut off
            pass


def write_results(path: str | Path, results: list[Result], logs: dict[int, str] | None = None) -> None:
    """Every row of a finished run at once (``RowWriter``)."""
    logs = logs or {}
    writer = RowWriter(path)
    try:
        for r in results:
            writer.write(r, logs.get(r.index))
    finally:
        writer.close()


def _csv_line(cells: list[str]) -> bytes:
    text = io.StringIO(newline="")
    csv.writer(text).writerow(cells)
    return text.getvalue().encode("utf-8")


def _cell(v) -> str:
    if v is None:
        return ""
    if isinstance(v, list):
        return ";".join(json.dumps(x, default=str) if not isinstance(x, str) else x for x in v)
    return str(v)
