"""Game logs (JSON Lines) and their replay.

A log's first line is a header naming the ruleset (id, version, digest,
variants), the player count, the seed and the parameters; then one line
per decision (player, plain option value, its label) and the narrated
events; the last line gives the winners. ``replay`` plays the decisions
again and checks, step by step, that the ruleset still reproduces them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from rulebook.files import shapes
from rulebook.files.locate import named_ruleset
from rulebook.files.saves import MAX_DECISIONS, PlacedError
from rulebook.interpreter.errors import IllegalOptionError, RulebookError, SaveFileError
from rulebook.validator import files

LOG_FORMAT = 1


def header_path(log_path: str | Path, ruleset_path: str | Path) -> str:
    """The ruleset's path as a log's header gives it: relative to the log's
    folder when the ruleset is inside it (where ``replay`` looks), else
    absolute (for the reader: ``replay`` finds such a ruleset by its id)."""
    ruleset, folder = Path(ruleset_path).resolve(), Path(log_path).resolve().parent
    return str(ruleset.relative_to(folder) if ruleset.is_relative_to(folder) else ruleset)


class LogWriter:
    def __init__(self, path: str | Path, game, st, seed: int, ruleset_path: str):
        self.file = open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed by close()
        prog = game.program
        self.write(
            {
                "rulebook_log": LOG_FORMAT,
                "ruleset": prog.id,
                "path": header_path(path, ruleset_path),
                "version": prog.version,
                "digest": prog.digest,
                "variants": list(prog.variants),
                "players": st.n,
                "seed": seed,
                "params": {k: v for k, v in st.params.items() if k in prog.params and prog.params[k] != v},
            }
        )
        self.step = 0

    def write(self, obj) -> None:
        self.file.write(json.dumps(obj, default=str) + "\n")

    def decision(self, player, value, label) -> None:
        self.step += 1
        self.write({"step": self.step, "player": player, "value": value, "label": label})

    def time_out(self, player) -> None:
        """The player's time ran out (``Game.time_out``)."""
        self.step += 1
        self.write({"step": self.step, "player": player, "time_out": True, "label": "time ran out"})

    def events(self, lines) -> None:
        for line in lines:
            self.write({"say": line})

    def end(self, st) -> None:
        self.write({"end": list(st.winners), "decisions": self.step})
        self.file.close()

    def close(self) -> None:
        if not self.file.closed:
            self.file.close()


@dataclass
class Log:
    header: dict
    decisions: list = field(default_factory=list)
    winners: list | None = None
    end: dict | None = None  # the record giving the winners
    path: str = ""
    lines: dict = field(default_factory=dict)  # id(record) -> (file line, its text): to place errors

    def error(self, message: str, code: str = "R020", record=None, where: tuple = ()) -> SaveFileError:
        """A PlacedError at ``record``'s line (the header's by default)."""
        record = self.header if record is None else record
        line, text = self.lines.get(id(record), (1, ""))
        column = files.locate(text, where)[1] if text else 1
        return PlacedError(self.path, line, column, code, message, where)


MAX_LOG_BYTES = 64_000_000
def read(path: str | Path) -> Log:
    """Read and check a log: a regular file of at most MAX_LOG_BYTES, one
    JSON object a line (with the limits of ``validator.files``), the header's
    fields and each decision's checked against ``validator/log.schema.json``
    (``files.shapes``) before use. A damaged or foreign file
    is a SaveFileError at the line (and column) of the problem."""
    path = str(path)
    log = Log({}, path=path)
    try:
        for number, line in files.read_lines(path, MAX_LOG_BYTES, "the log"):
            if not line.strip():
                continue
            record = files.parse_json(line, number)
            if not isinstance(record, dict):
                raise files.UnsafeFile("a log line is a JSON object", number, 1)
            log.lines[id(record)] = (number, line)
            if not log.header:
                _check_header(log, record)
            else:
                _add(log, record)
    except files.UnsafeFile as err:
        raise PlacedError(path, err.line, err.column, "R020", err.message) from None
    if not log.header:
        raise PlacedError(path, 1, 1, "R020", "the file is empty, not a Rulebook log")
    return log


def _check_header(log: Log, header: dict) -> None:
    log.header = header
    if header.get("rulebook_log") != LOG_FORMAT:
        raise log.error("not a Rulebook log (or of a format this version cannot read)")
    problems = shapes.problems("log", header, "header")
    if problems:
        raise log.error(f"the header's {problems[0].message}", where=problems[0].path)


def _add(log: Log, record: dict) -> None:
    if "step" in record:
        problems = shapes.problems("log", record, "step")
        if problems:
            raise log.error(problems[0].message, record=record, where=problems[0].path)
        if record["step"] != len(log.decisions) + 1:
            raise log.error(f"step {record['step']} follows step {len(log.decisions)}", record=record,
                            where=("step",))
        if len(log.decisions) >= MAX_DECISIONS:
            raise log.error(f"more than {MAX_DECISIONS} decisions", record=record)
        log.decisions.append(record)
    elif "end" in record:
        problems = shapes.problems("log", record, "end")
        if problems:
            raise log.error(problems[0].message, record=record, where=problems[0].path)
        log.winners, log.end = record["end"], record


class Replayed(list):
    """A log played again: the states before each decision and after the
    last (``[0]`` is the start), and ``labels``, each decision's label as the
    ruleset labels it now (never the label written in the log)."""

    def __init__(self, states: list, labels: list):
        super().__init__(states)
        self.labels = labels

    @property
    def states(self) -> list:
        return self


def ruleset_of(log: Log) -> Path:
    """The ruleset a log names, found as ``locate.named_ruleset`` finds one:
    its id on the search path, or its header's path if that is a ruleset
    inside the log's folder. Else an R021 error at the header's ruleset,
    saying what to do."""
    folder = Path(log.path).parent
    try:
        return named_ruleset(log.header["ruleset"], folder, "the log's ruleset")
    except FileNotFoundError:
        pass
    written = log.header.get("path")
    if written:
        try:
            return named_ruleset(written, folder, "the log's ruleset file")
        except FileNotFoundError:
            pass
    raise log.error(f"this log is of ruleset '{log.header['ruleset']}', which is not a ruleset id on the search "
                    f"path nor a ruleset file inside {folder} (a log's header cannot make Rulebook open a file "
                    "elsewhere): give the ruleset with --game FILE", "R021", where=("ruleset",))


def replay(game, log: Log) -> Replayed:
    """Play the log's decisions again. Raises SaveFileError, at the line of
    the decision, where the ruleset no longer reproduces the log."""
    prog = game.program
    h = log.header
    if h["ruleset"] != prog.id:
        raise log.error(f"this log is of ruleset '{h['ruleset']}', not '{prog.id}'", "R021", where=("ruleset",))
    if h.get("variants") != list(prog.variants):
        raise log.error(f"this log was written with variants {h['variants']}, not {list(prog.variants)}", "R021",
                        where=("variants",))
    if h.get("digest") != prog.digest:
        raise log.error(f"the ruleset changed since the log was written (digest {h.get('digest')}, now "
                        f"{prog.digest}); replay it with the version of the ruleset it was written with",
                        "R022", where=("digest",))
    try:
        st = game.new(players=h["players"], seed=h["seed"], params=h["params"])
    except RulebookError as err:
        raise log.error(f"the game of this log cannot start: {err}", "R024", where=("params",)) from None
    states, labels = [st.clone()], []
    for rec in log.decisions:
        if st.over:
            raise log.error(f"step {rec['step']}: the game was already over", "R024", record=rec)
        try:
            if rec.get("time_out") is True:
                labels.append("time ran out")
                game.time_out(st, rec["player"])
            else:
                labels.append(_label(game, st, rec["player"], rec.get("value")))
                game.apply(st, rec["player"], game.options(st, rec["player"]).index_of(rec.get("value")))
        except RulebookError as err:
            raise log.error(f"step {rec['step']}: {err}", "R024", record=rec) from None
        states.append(st.clone())
    if log.winners is not None and st.over and sorted(st.winners) != sorted(log.winners):
        raise log.error(f"the replay ends with winners {st.winners}, the log says {log.winners}", "R024",
                        log.end)
    return Replayed(states, labels)


def _label(game, st, player: int, value) -> str | None:
    """The label the ruleset gives the option whose value is ``value`` now."""
    options = game.options(st, player)
    try:
        return options.labels[options.index_of(value)]
    except IllegalOptionError:
        return None  # not an option: applying it says so, with its own error
