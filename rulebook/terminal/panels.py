"""The panels under the table: the recent events, the pending decision
with its options, and the ``?`` help."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.text import Text

from rulebook.interpreter.labels import player_name
from rulebook.interpreter.narrate import Line
from rulebook.terminal.text import name_players, styled_line, wrapped

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


def line_rows(st, line: Line, width: int, dim: bool = False) -> list[Text]:
    """One narrated line as screen rows: indented two, a longer one broken
    at words and going on under its start (never cut: what happened must
    be readable whole)."""
    text = styled_line(st, line)
    if dim:
        text.stylize("dim")
    if not width:
        return [Text("  ") + text]
    return wrapped(text, 4, width, first=2)


def events_panel(st, lines: list[Line], fresh: int, limit: int = 14, exact: bool = False,
                 width: int = 0) -> Group | None:
    """The last narrated lines; ``fresh`` of them are new since this
    player's previous decision and stay bright, older ones are dimmed.
    ``exact``: at most ``limit`` screen rows in all, the rule included (a
    screen of fixed height: the table stays, the oldest lines give way, and
    the play session pages the fresh ones that do not fit before it draws
    the screen); else every fresh line and at least ``limit`` lines.
    A line longer than ``width`` (when given) is wrapped at words."""
    lines = [ln for ln in lines if ln.text]
    if not lines:
        return None
    first_fresh = len(lines) - min(fresh, len(lines))
    if exact:
        room = max(1, limit - 1)
        shown: list[list[Text]] = []
        used = 0
        for i in range(len(lines) - 1, -1, -1):
            rows = line_rows(st, lines[i], width, dim=i < first_fresh)
            if used + len(rows) > room:
                break
            shown.insert(0, rows)
            used += len(rows)
        earlier = len(lines) - len(shown)
        if earlier and used + 1 > room and len(shown) > 1 and len(lines) - len(shown) < first_fresh:
            used -= len(shown.pop(0))  # room for "… N earlier": one old line fewer, never a fresh one
            earlier += 1
    else:
        start = min(first_fresh, max(0, len(lines) - limit))
        shown = [line_rows(st, lines[i], width, dim=i < first_fresh) for i in range(start, len(lines))]
        earlier = start
    parts: list[RenderableType] = [Rule(Text("Recent events", style="bold"), style="blue", align="left")]
    if earlier and not (exact and sum(map(len, shown)) + 1 >= limit):
        parts.append(Text(f"  … {earlier} earlier (l shows the log)", style="dim"))
    for rows in shown:
        parts += rows
    return Group(*parts)


def fresh_rows(st, lines: list[Line], fresh: int, width: int) -> int:
    """How many screen rows the panel needs to show every fresh line (its rule included)."""
    lines = [ln for ln in lines if ln.text]
    if not fresh or not lines:
        return 0
    return 1 + sum(len(line_rows(st, ln, width)) for ln in lines[-fresh:])


def catch_up_pages(st, lines: list[Line], width: int, height: int) -> list[Group]:
    """Lines that happened since a seat's last decision and do not fit its
    screen, as pages of ``height`` rows (a rule with the page's number, the
    lines, and a row left for the "Enter" prompt): scrolled through before
    the screen is drawn, so nothing that happened is dropped."""
    rows = [row for ln in lines if ln.text for row in line_rows(st, ln, width)]
    per_page = max(1, height - 2)
    chunks = [rows[i:i + per_page] for i in range(0, len(rows), per_page)]
    return [Group(Rule(Text(f"Since your last decision ({k + 1}/{len(chunks)})", style="bold"), style="blue",
                       align="left"), *chunk) for k, chunk in enumerate(chunks)]


def decision_panel(st, p, prompt: str, options, seconds: float | None = None, screen_width: int = 80,
                   rule: bool = True, spaces: dict[int, str] | None = None, head: bool = True) -> Group:
    """The numbered options of the pending decision, with its prompt
    (``rule``: under a "Your decision" rule). ``spaces``: each option's
    space as the map writes it (``6,2``), when every option is one space
    the player can type: the options are then drawn as those coordinates,
    grouped by the rest of their labels (``space_lines``), to keep the map
    on a small screen. ``head`` False: the prompt is left for the input
    line (``decision_head``), the last resort of a small screen."""
    parts: list[RenderableType] = [Rule(Text("Your decision", style="bold"), style="blue", align="left")] if rule \
        else []
    if head:
        line = decision_head(st, p, prompt)
        if spaces:
            line.append(" · type its column,row", style="")
        parts += wrapped(name_players(st, line), 4, screen_width, first=0)  # at words, going on under its start
    if seconds is not None:
        parts.append(Text(f"You have {seconds:g} seconds to answer.", style="bold yellow"))
    parts += space_lines(options, spaces, screen_width) if spaces else option_lines(options, screen_width)
    return Group(*parts)


def decision_head(st, p, prompt: str) -> Text:
    """``Red: play: your move``: who decides and what the rules ask."""
    return Text(f"{player_name(st, p)}: {prompt}", style="bold")


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
        if len(keys) > 24:  # many: by row, the columns as ranges ("row 3: 0 2-3 5-11"), so they fit
            keys = _by_row(keys)
        for k in keys:
            if len(line) + len(k) + 2 > screen_width - 1 and len(line) > indent:
                out.append(line)
                line = Text(" " * indent)
            line.append(k + "  ")
        out.append(line)
    for line in out:
        line.rstrip()
    return out


def _by_row(keys: list[str]) -> list[str]:
    """``["2,0", "3,0", "5,0", "1,1"]`` as ``["row 0: 2-3 5", "row 1: 1"]``."""
    rows: dict[int, list[int]] = {}
    for k in keys:
        col, row = map(int, k.split(","))
        rows.setdefault(row, []).append(col)
    out = []
    for row in sorted(rows):
        cols, spans = sorted(rows[row]), []
        for c in cols:
            if spans and c == spans[-1][1] + 1:
                spans[-1][1] = c
            else:
                spans.append([c, c])
        out.append(f"row {row}: " + " ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans) + " ")
    return out


def option_groups(options) -> list[tuple[object, int]]:
    """The options with equal labels as one (its first option, how many):
    options a player cannot tell apart are listed once, ``red person (1) ×3``,
    and its number picks the first of them."""
    groups: dict[str, list] = {}
    for o in options:
        groups.setdefault(o.label, [o, 0])[1] += 1
    return [(o, n) for o, n in groups.values()]


def option_runs(groups: list[tuple[object, int]]) -> list[tuple[str, list[tuple[object, int, str]]]]:
    """Consecutive options whose labels begin with the same words (two or
    more, three options or more) as one run under those words: ``move red
    person on: 1. beach (6,9)  2. forest (7,8)``; the others alone, under
    no words. Each option keeps the rest of its label."""
    words = [o.label.split(" ") for o, _ in groups]
    runs: list[tuple[str, list]] = []
    i = 0
    while i < len(groups):
        j, prefix = i + 1, words[i][:-1]
        while j < len(groups):
            common = _common(prefix, words[j][:-1])
            if len(common) < 2:
                break
            prefix, j = common, j + 1
        if j - i >= 3:
            runs.append((" ".join(prefix), [(o, n, " ".join(words[k][len(prefix):]))
                                            for k, (o, n) in enumerate(groups[i:j], i)]))
            i = j
        else:
            runs.append(("", [(groups[i][0], groups[i][1], groups[i][0].label)]))
            i += 1
    return runs


def _common(a: list[str], b: list[str]) -> list[str]:
    k = 0
    while k < min(len(a), len(b)) and a[k] == b[k]:
        k += 1
    return a[:k]


def _cell(o, n: int, label: str, width: int) -> Text:
    cell = Text(f"{o.index + 1:>{width}}. ", style="cyan")
    cell.append(label)
    if n > 1:
        cell.append(f" ×{n}", style="dim")
    return cell


def option_lines(options, screen_width: int = 80) -> list[Text]:
    """The numbered options, equal ones once (``option_groups``). Options
    that begin alike are written once under their common words, in a flow
    (``option_runs``); else more than a few short ones go in columns,
    numbered down each column: so that the header, the map and the options
    fit one screen."""
    groups = option_groups(options)
    width = len(str(len(options)))
    runs = option_runs(groups)
    if any(words for words, _ in runs):
        return _run_lines(runs, width, screen_width)
    cells = [_cell(o, n, o.label, width + 1) for o, n in groups]
    longest = max((len(c) for c in cells), default=0)
    columns = max(1, (screen_width - 2) // (longest + 3)) if len(cells) > 4 else 1
    rows = -(-len(cells) // columns)
    if columns == 1:  # one option a row, a long one broken at words under its label
        return [row for cell in cells for row in _long_cell(cell, 2, width + 3, screen_width)]
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


def _long_cell(cell: Text, indent: int, number: int, screen_width: int) -> list[Text]:
    """An option as rows of the screen: indented ``indent``, a label longer
    than a row broken at words and going on under its start (past its
    number, ``number`` columns), never mid-word nor by the terminal."""
    if indent + len(cell) <= screen_width:
        return [Text(" " * indent) + cell]
    rows = wrapped(cell, indent + number, screen_width, first=indent)
    for row in rows:
        row.rstrip()
    return rows


def _run_lines(runs: list, width: int, screen_width: int) -> list[Text]:
    """Each run as its words and then its options in a flow, the options
    alone between runs in a flow of their own; a cell is never broken."""
    out: list[Text] = []
    line: Text | None = None
    words_before = None
    for words, members in runs:
        if line is not None and (words or words_before):  # a run starts its own line, and ends it
            out.append(line)
            line = None
        words_before = words
        if line is None:
            line = Text("  ") + (Text(words + ":", style="bold") if words else Text())
        for o, n, rest in members:
            cell = _cell(o, n, rest, 1)
            if len(cell) + 4 > screen_width:  # longer than a row: rows of its own, broken at words
                if line.plain.strip():
                    out.append(line)
                rows = _long_cell(cell, 4, len(str(o.index + 1)) + 2, screen_width)
                out += rows[:-1]
                line = rows[-1]
                continue
            gap = " " if line.plain.endswith(":") else ("" if not line.plain.strip() else "   ")
            if len(line) + len(gap) + len(cell) > screen_width and line.plain.strip():
                out.append(line)
                line, gap = Text("    "), ""
            line.append_text(Text(gap) + cell)
    if line is not None:
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
    about = {
        "action": "Your turn: pick one of the actions the rules allow you now.",
        "choose": "A choice the rules ask you to make.",
        "simul": "A secret choice: the others choose at the same time and cannot see yours.",
    }.get(kind, "")
    if about:  # where it is in the ruleset file is for its author (rulebook debug), not for a player
        parts.append(Text(about))
    notes = [_action_note(prog, v) for v in game.options(st, p).plain] if kind == "action" else []
    common = notes[0] if notes and len(set(notes)) == 1 else ""
    parts.append(Text("Options:" + (f" ({common})" if common else ""), style="bold"))
    width = len(str(len(options)))
    for o in options:
        line = Text(f"  {o.index + 1:>{width + 1}}. ", style="cyan")
        line.append(o.label)
        if notes and not common and notes[o.index]:
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


def _action_note(prog, value) -> str:
    """What an option's action does, in the ruleset's words for players
    (its description); empty without one. Never the action's name, which
    is an identifier."""
    try:
        act = prog.actions[value[0]]
    except (TypeError, IndexError, KeyError):
        return ""
    data = prog.data
    spec = (data.get("actions") or {}).get(act.name) if isinstance(data, dict) else None
    if isinstance(spec, dict) and isinstance(spec.get("description"), str):
        return " ".join(spec["description"].split())
    return ""
