"""``rulebook serve --save DIR``: a table that survives its server.

After every change the table is written to DIR: ``table.json`` holds what
makes the table (the seats' secret tokens, the author's, which seats are
human, the players' names, the bots, the port) and ``game.log`` the game as
a log of ``rulebook.files.logs`` (header with seed and parameters, one line
per decision). A server started again on DIR reads both, checks the log by
replaying it (``logs.replay``: a damaged log or a changed ruleset is one
placed error line) and plays the decisions again at the table, so every
seat gets its narration back and every link opens its seat as before.
Files are written whole to a temporary name and renamed, so that a server
stopped mid-write leaves the previous version.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from rulebook.files import logs
from rulebook.files.loading import Failure
from rulebook.interpreter.errors import RulebookError

TABLE = "table.json"
GAME = "game.log"


class Saved:
    """Where one table is written; ``write`` after every change."""

    def __init__(self, folder: str | Path, ruleset_path: str | Path, port: int):
        self.folder = Path(folder)
        self.ruleset_path = str(ruleset_path)
        self.port = port
        self.labels: dict = {}  # (step, player, value as JSON) -> label: a label is worked out once
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise Failure(f"--save {folder}: {err.strerror or err}") from None

    def write(self, host) -> None:
        table = {
            "rulebook_table": 1,
            "tokens": {str(p): t for p, t in host.tokens.items()},
            "author_token": host.author_token,
            "humans": list(host.humans),
            "names": {str(p): n for p, n in host.names.items()},
            "bots": host.bot_spec,
            "games": host.games,
            "port": self.port,
        }
        _write(self.folder / TABLE, json.dumps(table, indent=1) + "\n")
        tmp = self.folder / (GAME + ".tmp")
        st = host.st
        writer = logs.LogWriter(tmp, host.game, st, st.seed, self.ruleset_path)
        try:
            for k, entry in enumerate(st.history):
                if len(entry) == 3:
                    writer.time_out(entry[0])
                else:
                    writer.decision(entry[0], entry[1], self._label(host, k, entry))
            if st.over:
                writer.end(st)
        finally:
            writer.close()
        os.replace(tmp, self.folder / GAME)

    def _label(self, host, k: int, entry) -> str | None:
        key = (k, entry[0], json.dumps(entry[1], default=str))
        if key not in self.labels and k < len(host.snapshots):
            before = host.snapshots[k]
            try:
                options = host.game.options(before, entry[0])
                self.labels[key] = options.labels[options.index_of(entry[1])]
            except Exception:  # noqa: BLE001 - a label is for the reader; replay works it out again
                self.labels[key] = None
        return self.labels.get(key)


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def exists(folder: str | Path) -> bool:
    return (Path(folder) / TABLE).is_file()


def load(folder: str | Path, game) -> tuple[dict, logs.Log]:
    """The saved table and its checked log. A damaged file is a Failure
    with the file's name (and for the log, its line)."""
    path = Path(folder) / TABLE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise Failure(f"{path}: not a saved table ({err})") from None
    problem = _table_problem(data)
    if problem:
        raise Failure(f"{path}: not a saved table: {problem}")
    try:
        log = logs.read(Path(folder) / GAME)
        logs.replay(game, log)
    except RulebookError as err:
        raise Failure(str(err).splitlines()[0]) from None
    return data, log


def _table_problem(data) -> str | None:
    if not isinstance(data, dict) or data.get("rulebook_table") != 1:
        return "no 'rulebook_table: 1'"
    tokens = data.get("tokens")
    if not isinstance(tokens, dict) or not all(isinstance(k, str) and k.isdigit() and isinstance(v, str)
                                               and 10 <= len(v) <= 100 for k, v in tokens.items()):
        return "'tokens' is not a mapping of seats to tokens"
    if not isinstance(data.get("humans"), list) or not all(isinstance(p, int) and not isinstance(p, bool)
                                                           for p in data["humans"]):
        return "'humans' is not a list of seats"
    if not all(str(p) in tokens for p in data["humans"]):
        return "a human seat has no token"
    if data.get("author_token") is not None and not isinstance(data.get("author_token"), str):
        return "'author_token' is not text"
    if not isinstance(data.get("names", {}), dict) or not isinstance(data.get("bots", ""), str):
        return "'names' or 'bots' has the wrong type"
    return None
