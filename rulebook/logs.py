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

from interpreter.errors import RulebookError, SaveFileError

LOG_FORMAT = 1


class LogWriter:
    def __init__(self, path: str | Path, game, st, seed: int, ruleset_path: str):
        self.file = open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed by close()
        prog = game.program
        self.write(
            {
                "rulebook_log": LOG_FORMAT,
                "ruleset": prog.id,
                "path": str(ruleset_path),
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


def read(path: str | Path) -> Log:
    """Read and check a log; a damaged or foreign file is a SaveFileError."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise SaveFileError(f"cannot read log {path}: {err}") from None
    if not lines:
        raise SaveFileError(f"{path} is empty, not a Rulebook log")
    try:
        records = [json.loads(line) for line in lines if line.strip()]
    except json.JSONDecodeError as err:
        raise SaveFileError(f"{path}: line {err.lineno if hasattr(err, 'lineno') else '?'} is not JSON") from None
    header = records[0]
    if not isinstance(header, dict) or header.get("rulebook_log") != LOG_FORMAT:
        raise SaveFileError(f"{path} is not a Rulebook log (or of a format this version cannot read)")
    for key, kind in (("ruleset", str), ("players", int), ("seed", int), ("variants", list), ("params", dict)):
        if not isinstance(header.get(key), kind):
            raise SaveFileError(f"{path}: the header's '{key}' is missing or damaged")
    log = Log(header)
    for i, rec in enumerate(records[1:], start=2):
        if not isinstance(rec, dict):
            raise SaveFileError(f"{path}: line {i} is damaged")
        if "step" in rec:
            if not isinstance(rec.get("player"), int):
                raise SaveFileError(f"{path}: line {i} has no player")
            log.decisions.append(rec)
        elif "end" in rec:
            log.winners = rec["end"]
    return log


def replay(game, log: Log) -> list:
    """Play the log's decisions again; returns the states after each
    decision (index 0: the start). Raises SaveFileError where the ruleset
    no longer reproduces the log."""
    prog = game.program
    h = log.header
    if h["ruleset"] != prog.id:
        raise SaveFileError(f"this log is of ruleset '{h['ruleset']}', not '{prog.id}'", "R021")
    if h.get("digest") != prog.digest:
        raise SaveFileError(
            f"the ruleset changed since the log was written (digest {h.get('digest')} != "
            f"{prog.digest}); use --force to try anyway",
            "R022",
        )
    st = game.new(players=h["players"], seed=h["seed"], params=h["params"])
    states = [st.clone()]
    for rec in log.decisions:
        if st.over:
            raise SaveFileError(f"step {rec['step']}: the game was already over", "R024")
        try:
            if rec.get("time_out") is True:
                game.time_out(st, rec["player"])
            else:
                game.apply_value(st, rec["player"], rec.get("value"))
        except RulebookError as err:
            raise SaveFileError(f"step {rec['step']}: {err}", "R024") from None
        states.append(st.clone())
    if log.winners is not None and st.over and sorted(st.winners) != sorted(log.winners):
        raise SaveFileError(f"the replay ends with winners {st.winners}, the log says {log.winners}", "R024")
    return states
