"""Saved games read from a file (``rulebook play --resume``).

A save is input like any other file, so it is read through
``validator.files`` (a regular file, at most ``MAX_SAVE_BYTES``, JSON with
limits) and checked against its JSON Schema, ``validator/save.schema.json``
(``files.shapes``), before any field is used: types, ranges, lengths; then
the bots it names (built-in ones only, with bounded options). ``Game.load``
then checks that the save belongs to the ruleset and replays it. Every problem is a
``SaveFileError`` placed in the file: ``save.json:1:245: error[R023]: ...``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from rulebook.files import shapes
from rulebook.interpreter.errors import SaveFileError
from rulebook.validator import files
from rulebook.validator.files import Field, integer

MAX_SAVE_BYTES = 16_000_000
MAX_PLAYERS = 64  # the ruleset schema's largest players.max (save.schema.json's too)
MAX_DECISIONS = 1_000_000  # decisions in a save's history or in a log (as their schemas say)

# the bots a save may name, with the options each takes and their bounds (a save may not ask for
# a billion MCTS iterations at every decision); the command line's --bots has no such bounds
BOT_OPTIONS: dict[str, dict[str, Field]] = {
    "random": {},
    "greedy": {"samples": integer(1, 100)},
    "mcts": {
        "iterations": integer(1, 100_000),
        "seconds": Field("a number of seconds from 0 to 60",
                         lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v <= 60),
        "c": Field("a number from 0 to 100", lambda v: isinstance(v, (int, float)) and 0 <= v <= 100),
        "max_rollout_decisions": integer(0, 10_000),
        "widen": Field("a number from 0 to 100", lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
                       and 0 <= v <= 100),
        "rollout": Field("'random' or 'greedy'", lambda v: v in ("random", "greedy")),
        "cutoff": Field("'score', 'heuristic' or 'lead'", lambda v: v in ("score", "heuristic", "lead")),
        "epsilon": Field("a number from 0 to 1", lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
                         and 0 <= v <= 1),
    },
}


# what would break an error's one line or reorder what it shows (control characters are escaped
# by ``files.escape``): line breaks and separators, and the bidirectional controls
BREAKS = re.compile("[\t\n\r\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")


class PlacedError(SaveFileError):
    """A save or a log that cannot be used, placed in the file: ``file``,
    ``line`` and ``column`` (1-based) and ``path`` (the keys of the value
    inside the save's JSON, or inside the log line's record) are fields, as a ``Diagnostic``'s are; only
    ``__str__`` renders them, as one printable line (``FILE:LINE:COL:
    error[CODE]: ...``) whatever texts of the file it quotes, so that a file
    cannot write lines of its own into Rulebook's answer."""

    def __init__(self, file: str, line: int, column: int, code: str, message: str, path: tuple = ()):
        super().__init__(one_line(message), code, path)
        self.file, self.line, self.column = file, line, column

    def __str__(self) -> str:
        return f"{one_line(self.file)}:{self.line}:{self.column}: error[{self.code}]: {self.message}"


def one_line(text: str) -> str:
    """``text`` with control characters, line breaks and bidirectional controls shown as escapes."""
    return BREAKS.sub(lambda m: f"\\u{ord(m.group()):04x}" if ord(m.group()) > 0xff else repr(m.group())[1:-1],
                      files.escape(text))


@dataclass
class Save:
    """A save's data, checked, and the text it came from (to place errors)."""

    path: str
    text: str
    data: dict

    def error(self, message: str, code: str, where: tuple = ()) -> SaveFileError:
        return PlacedError(self.path, *files.locate(self.text, where), code, message, where)

    def load(self, game):
        """The saved game's state, replayed by ``Game.load``; its errors are
        placed at the field they are about."""
        try:
            return game.load(self.data)
        except SaveFileError as err:
            raise self.error(err.message, err.code, err.path) from None

    @property
    def bots(self) -> str:
        """The bots the save names, when the command line names none: built-in
        ones only, with bounded options (``bot_problem``)."""
        problem = bot_problem(self.data.get("bots"))
        if problem:
            raise self.error(problem, "R023", ("bots",))
        return self.data.get("bots") or "random"


def read_save(path: str | Path) -> Save:
    """Read and check a save file (see the module's docstring)."""
    path = str(path)
    try:
        source = files.read_text(path, MAX_SAVE_BYTES, "the save")
        data = files.parse_json(source)
    except files.UnsafeFile as err:
        raise PlacedError(path, err.line, err.column, "R020", err.message) from None
    if not isinstance(data, dict):
        raise PlacedError(path, 1, 1, "R020", "not a saved game (a save is a JSON object)")
    save = Save(path, source, data)
    problems = shapes.problems("save", data)
    if problems:
        raise save.error(problems[0].message, "R020", problems[0].path)  # not a save this version can use as it is
    for i, seat in enumerate(data.get("humans") or []):
        if seat > data["players"]:
            raise save.error(f"human seat {seat} is not a seat of this {data['players']}-player game", "R023",
                             ("humans", i))
    return save


def bot_problem(value) -> str | None:
    """What is wrong with the bots a save names, or None. A spec such as
    ``package.module:Name`` would import (run) code named by whoever wrote
    the file, so only built-in bots are taken from a save, with bounded
    options; the command line's ``--bots`` may ask for anything."""
    from rulebook.agents.base import split_agents

    if value is None:
        return None
    for spec in split_agents(value):
        name, _, options = spec.partition(":")
        if name not in BOT_OPTIONS:
            return (f"the save names a bot that is not built in ({files.escape(spec)[:80]!r}); resume with --bots "
                    "to choose the bots yourself")
        for option in filter(None, (o.strip() for o in options.split(","))):
            key, _, raw = option.partition("=")
            field = BOT_OPTIONS[name].get(key)
            if field is None:
                return f"bot '{name}' has no option '{files.escape(key)[:40]}'"
            value = _number(raw)
            if not field.test(value):
                return f"bot '{name}': {key} must be {field.says} in a save, not {files.describe(value)}"
    return None


def _number(raw: str):
    if len(raw) > 40:
        return raw
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            pass
    return raw
