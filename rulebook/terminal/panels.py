"""The panels under the table: the recent events, the pending decision
with its options, and the ``?`` help."""

from __future__ import annotations

import os

from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.text import Text

from rulebook.interpreter.labels import player_name
from rulebook.interpreter.narrate import Line
from rulebook.terminal.text import WRAP_CONSOLE, name_players, styled_line

KEYS = (
    ("a number", "pick that option"),
    ("?", "this help"),
    ("r", "show the whole table again (on a small screen the table is drawn compactly)"),
    ("b", "in a later stage of a staged action: back to its first stage"),
    ("l", "show the log: everything narrated so far"),
    ("3,4", "on a map: the option that names the space in column 3, row 4"),
    ("s", "save the game and stop (resume it later with --resume)"),
    ("q", "quit (asks first; nothing is saved)"),
)


def events_panel(st, lines: list[Line], fresh: int, limit: int = 14, exact: bool = False,
                 width: int = 0) -> Group | None:
    """The last narrated lines; ``fresh`` of them are new since this
    player's previous decision and stay bright, older ones are dimmed.
    ``exact``: at most ``limit`` lines in all (a screen of fixed height: the
    log scrolls, the table stays, a longer line is cut at ``width``); else
    up to 30 fresh lines, a line longer than ``width`` (when given) wrapped
    at words."""
    lines = [ln for ln in lines if ln.text]
    if not lines:
        return None
    if exact:  # the panel's rule, then the lines (and "… N earlier" when there is room for it)
        room = max(1, limit - 1)
        shown = lines[-room:] if len(lines) <= room or room < 3 else lines[-(room - 1):]
    else:
        shown = lines[-max(limit, min(fresh, 30)):]
    old = len(shown) - min(fresh, len(shown))
    parts: list[RenderableType] = [Rule(Text("Recent events", style="bold"), style="blue", align="left")]
    if len(lines) > len(shown) and not (exact and len(shown) + 1 >= limit):
        parts.append(Text(f"  … {len(lines) - len(shown)} earlier", style="dim"))
    for i, line in enumerate(shown):
        text = Text("  ") + styled_line(st, line)
        if exact and width and len(text) > width:  # one screen line each: the panel's height is counted
            text = text[: width - 1] + Text("…")
        if i < old:
            text.stylize("dim")
        if not exact and width and len(text) > width:  # wrapped at words, under its start
            pieces = text[2:].wrap(WRAP_CONSOLE, width - 4)
            parts += [Text("  ") + pieces[0]] + [Text("    ") + piece for piece in pieces[1:]]
            continue
        parts.append(text)
    return Group(*parts)


def decision_panel(st, p, prompt: str, options, seconds: float | None = None, screen_width: int = 80,
                   rule: bool = True, spaces: dict[int, str] | None = None) -> Group:
    """The numbered options of the pending decision, with its prompt
    (``rule``: under a "Your decision" rule). ``spaces``: each option's
    space as the map writes it (``6,2``), when every option is one space
    the player can type: the options are then drawn as those coordinates,
    grouped by the rest of their labels (``space_lines``), to keep the map
    on a small screen."""
    parts: list[RenderableType] = [Rule(Text("Your decision", style="bold"), style="blue", align="left")] if rule \
        else []
    head = Text(f"{player_name(st, p)}: {prompt}", style="bold")
    if spaces:
        head.append(" · type its column,row", style="")
    parts += list(name_players(st, head).wrap(WRAP_CONSOLE, screen_width))  # at words, not by the terminal
    if seconds is not None:
        parts.append(Text(f"You have {seconds:g} seconds to answer.", style="bold yellow"))
    parts += space_lines(options, spaces, screen_width) if spaces else option_lines(options, screen_width)
    return Group(*parts)


def space_lines(options, spaces: dict[int, str], screen_width: int = 80) -> list[Text]:
    """Options that are spaces of the map as their coordinates, grouped by
    what their labels say besides them: ``beach  6,2  4,3 ...`` for
    ``beach (6,2)``, ``beach (4,3)``, in the options' order."""
    import re

    groups: dict[str, list[str]] = {}
    for o in options:
        key = spaces[o.index]
        col, row = key.split(",")
        rest = re.sub(rf"\(?\s*(?<!\d){col}\s*,\s*{row}(?!\d)\s*\)?", " ", o.label)
        rest = " ".join(rest.split()).strip(" -:·")
        groups.setdefault(rest, []).append(key)
    name_width = max(len(name) for name in groups)
    out = []
    for name, keys in groups.items():
        line = Text("  ")
        line.append(f"{name:<{name_width}}  " if name_width else "", style="cyan")
        indent = len(line)
        for k in keys:
            if len(line) + len(k) + 2 > screen_width - 1 and len(line) > indent:
                out.append(line)
                line = Text(" " * indent)
            line.append(k + "  ")
        out.append(line)
    for line in out:
        line.rstrip()
    return out


def option_lines(options, screen_width: int = 80) -> list[Text]:
    """The numbered options, one a line; many short ones (spaces of a
    board) in columns, numbered down each column, so that the map and the
    options fit one screen."""
    width = len(str(len(options)))
    cells = []
    for o in options:
        cell = Text(f"{o.index + 1:>{width + 1}}. ", style="cyan")
        cell.append(o.label)
        cells.append(cell)
    longest = max((len(c) for c in cells), default=0)
    columns = max(1, (screen_width - 2) // (longest + 3)) if len(cells) > 8 else 1
    rows = -(-len(cells) // columns)
    out = []
    for r in range(rows):
        line = Text("  ")
        for c in range(columns):
            k = c * rows + r
            if k < len(cells):
                piece = cells[k].copy()
                if c < columns - 1 and k + rows < len(cells):
                    piece.pad_right(longest + 3 - len(piece))
                line.append_text(piece)
        out.append(line)
    return out


def help_panel(game, st, p, options, save_path: str, game_arg: str) -> Group:
    """``?`` at a decision: the prompt, where the decision comes from, what
    each option is (its action and the action's description, when the
    ruleset gives one) and the keys."""
    prog = st.prog
    parts: list[RenderableType] = [Rule(Text("Help", style="bold"), style="green", align="left")]
    prompt = game.prompt(st, p)
    parts.append(Text(f"{player_name(st, p)}, the rules ask you: {prompt}", style="bold"))
    kind = (st.pending or {}).get("kind")
    origin = _origin(st)
    about = {
        "action": "Your turn: pick one of the actions the rules allow you now.",
        "choose": "A choice the rules ask you to make.",
        "simul": "A secret choice: the others choose at the same time and cannot see yours.",
    }.get(kind, "")
    if about or origin:
        parts.append(Text(about + (f" (rules: {origin})" if origin else "")))
    notes = [_action_note(prog, v) for v in game.legal_values(st, p)] if kind == "action" else []
    common = notes[0] if notes and len(set(notes)) == 1 else ""
    parts.append(Text("Options:" + (f" each is {common}" if common else ""), style="bold"))
    width = len(str(len(options)))
    for o in options:
        line = Text(f"  {o.index + 1:>{width + 1}}. ", style="cyan")
        line.append(o.label)
        if notes and not common:
            line.append(f"  ({notes[o.index]})", style="dim")
        elif o.value is None:
            line.append("  (choose nothing)", style="dim")
        parts.append(line)
    parts.append(Text("Keys:", style="bold"))
    for key, meaning in KEYS:
        if key == "3,4" and not st.cat.boards:
            continue
        if key == "s":
            meaning = f"save the game to {save_path} and stop; go on later with: rulebook play {game_arg} " \
                      f"--resume {save_path}"
        parts.append(Text(f"  {key:<9} {meaning}"))
    parts.append(Text(
        "Type the number of an option and press Enter. Only legal options are listed; what you see is "
        "your own view of the table.", style="dim"))
    return Group(*parts)


def _origin(st) -> str:
    """Where the suspended rule is in the ruleset file: ``ruleset.yaml:95``."""
    from rulebook.interpreter.game import Game

    return _short(Game(st.prog).asked_at(st))


def _short(where: str) -> str:
    """``/long/path/ruleset.yaml:95:16`` -> ``ruleset.yaml:95``."""
    parts = where.rsplit(":", 2)
    if len(parts) == 3 and parts[1].isdigit():
        return f"{os.path.basename(parts[0])}:{parts[1]}"
    return os.path.basename(where)


def _action_note(prog, value) -> str:
    """The action an option comes from, its description and its place."""
    try:
        act = prog.actions[value[0]]
    except (TypeError, IndexError, KeyError):
        return ""
    note = f"the action {act.name}"
    data = prog.data
    spec = (data.get("actions") or {}).get(act.name) if isinstance(data, dict) else None
    if isinstance(spec, dict) and isinstance(spec.get("description"), str):
        note += f": {' '.join(spec['description'].split())}"
    doc = prog.doc
    if doc is not None and prog.source_file:
        line, _ = doc.where(("actions", act.name), key=True)
        note += f" ({os.path.basename(prog.source_file)}:{line})"
    return note
