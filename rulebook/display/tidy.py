"""Narration tidied for a reader: one line per event, nothing said twice.

``interpreter.narrate`` tells every event; a ruleset's own ``say`` lines
often tell the same event better ("P3 names red." after "P3 chose red.",
"P2 plays blue 3 for the blue robot." after "Revealed: blue 3."). ``tidy``
drops the engine's line when a ``say`` of the same batch (up to the next
decision) restates it, and says a sentence repeated in a row once, with a
count. It works on words only, so it names no game.
"""

from __future__ import annotations

import re

from rulebook.interpreter.labels import player_name
from rulebook.interpreter.narrate import Line

_WORD = re.compile(r"[\w']+")


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def _restates(say: str, who: str, what: str) -> bool:
    """Whether ``say`` names ``who`` and every word of ``what`` (a word of
    the say may extend one of ``what``: "plays" restates "play")."""
    said = _words(say)
    if who and not re.search(rf"(?<!\w){re.escape(who)}(?!\w)", say):
        return False
    wanted = _words(what)
    return bool(wanted) and all(any(s == w or s.startswith(w) for s in said) for w in wanted)


def _decision_label(st, line: Line) -> str | None:
    """The option a decision line tells: ``P1: play blue 5.`` or
    ``P1 chose blue 5.`` -> ``play blue 5`` / ``blue 5``."""
    who = player_name(st, line.player) if isinstance(line.player, int) else ""
    text = line.text.rstrip(".").removesuffix(" (the only option)")
    for head in (f"{who}: ", f"{who} chose "):
        if text.startswith(head):
            return text[len(head):]
    return None


def tidy(st, lines: list[Line]) -> list[Line]:
    """``lines`` (one batch of narration) without the engine's lines that a
    following ``say`` restates, repeated sentences said once with a count."""
    keep = []
    for i, line in enumerate(lines):
        later = []
        for nxt in lines[i + 1:]:
            if nxt.kind in ("decision", "secret", "turn", "time_out"):
                break
            if nxt.kind == "say":
                later.append(nxt.text)
        if line.kind in ("decision", "secret"):
            label = _decision_label(st, line)
            who = player_name(st, line.player) if isinstance(line.player, int) else ""
            if label and any(_restates(s, who, label) for s in later):
                continue
        if line.kind == "reveal" and line.text.startswith("Revealed: "):
            name = line.text[len("Revealed: "):].rstrip(".")
            if any(re.search(rf"(?<!\w){re.escape(name)}(?!\w)", s) for s in later):
                continue
        keep.append(line)
    return collapse(keep)


def collapse(lines: list[Line]) -> list[Line]:
    """The same sentence several times in a row, said once: "... (×3)"."""
    out: list[list] = []
    for line in lines:
        if out and out[-1][0] == line:
            out[-1][1] += 1
        else:
            out.append([line, 1])
    return [ln if n == 1 else ln._replace(text=f"{ln.text} (×{n})") for ln, n in out]
