"""The terminal seat: the play screen drawn with rich, and line input.

Everything a human sees comes from ``interpreter.view.view(st, p)`` (their
own view) and from the narration meant for them, so the screen can never
show what the seat may not know. Nothing here names a game: zones, players,
variables and boards are laid out from the ruleset's own declarations.

Colour is decoration only: every screen reads the same as plain text, and
rich drops the colour codes when standard output is not a terminal; with
``NO_COLOR`` set no styling codes are written at all, so logs, pipes and
tests see plain text.
"""

from __future__ import annotations

import io
import os
import re
import select
import sys
import time

from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.text import Text

from rulebook.interpreter.labels import comp_name, player_name, zone_name
from rulebook.interpreter.narrate import Line
from rulebook.interpreter.ops import can_see
from rulebook.interpreter.view import component_view, view
from rulebook.terminal import boardmap

# one colour per seat, in seat order (more seats than colours reuse them)
SEAT_STYLES = ("bright_red", "bright_blue", "bright_green", "yellow", "bright_magenta", "bright_cyan", "orange3",
               "medium_purple1")
LINE_STYLES = {
    "turn": "dim",
    "secret": "dim italic",
    "time_out": "bold yellow",
    "private": "italic",
    "phase": "bold cyan",
    "move": "dim",
    "shuffle": "dim",
    "eliminate": "bold red",
    "end": "bold green",
}
_WRAP_CONSOLE = Console(width=1000, color_system=None)  # Text.wrap measures with a console; no output
MAX_GROUPS = 40  # face-up runs shown per zone before "+N more": a long deck must not fill the screen

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


def seat_style(p: int | None) -> str:
    return SEAT_STYLES[p % len(SEAT_STYLES)] if isinstance(p, int) else ""


def make_console(file=None, width: int | None = None, force_terminal: bool | None = None) -> Console:
    """A console for play output. ``file`` None follows ``sys.stdout`` (so
    test runners that swap it see everything); colour only on a terminal
    and never with NO_COLOR."""
    no_color = os.environ.get("NO_COLOR", "") != ""
    return Console(
        file=file,
        width=width,
        force_terminal=force_terminal,
        highlight=False,
        markup=False,
        emoji=False,
        color_system=None if no_color else "auto",
        soft_wrap=True,  # narration is never broken into lines by us: the terminal wraps, logs stay greppable
    )


# ------------------------------------------------------------------ text
def styled_line(st, line: Line) -> Text:
    """A narrated sentence, its player names in their seat colours."""
    text = Text(line.text, style=LINE_STYLES.get(line.kind, ""))
    name_players(st, text)
    return text


def name_players(st, text: Text) -> Text:
    for p in range(st.n):
        name = player_name(st, p)
        if name:
            text.highlight_regex(rf"(?<!\w){re.escape(name)}(?!\w)", style=f"bold {seat_style(p)}")
    return text


def value_text(st, value, t, viewer) -> str:
    """A variable's value as game text, naming only what ``viewer`` may see."""
    kind = getattr(t, "kind", None)
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        inner = getattr(t, "arg", None) if kind == "list" else None
        return "[" + ", ".join(value_text(st, v, inner, viewer) for v in value) + "]"
    if isinstance(value, int) and kind == "player" and 0 <= value < st.n:
        return player_name(st, value)
    if isinstance(value, int) and kind == "comp" and 0 <= value < len(st.static):
        if can_see(st, value, viewer):
            return comp_name(st, value)
        return f"a face-down {component_view(st, value, viewer).get('type', 'component')}"
    if isinstance(value, int) and kind == "zone" and 0 <= value < len(st.zones):
        return zone_name(st, value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {value_text(st, v, None, viewer)}" for k, v in value.items())
    if value == "":
        return '""'
    return str(value)


def _item_text(item: dict, zone_type: str | None) -> str:
    if not item.get("hidden"):
        name = str(item.get("name", item.get("type", "?")))
        return f"{name} ({item['status']})" if item.get("status") else name
    if item.get("name"):  # the type's back_label
        return f"[hidden] {item['name']}"
    shown = [f"{k} {v}" for k, v in item.items() if k not in ("hidden", "type", "owner") and v is not None]
    kind = "" if item.get("type") == zone_type else f" {item.get('type')}"
    return f"[hidden]{kind}" + (f" ({', '.join(shown)})" if shown else "")


def items_text(items: list[dict], zone_type: str | None = None) -> Text:
    """A zone's items in order, runs of equal ones as "name ×N"; face-down
    ones as their backs, dimmed."""
    runs: list[list] = []
    for item in items:
        label = _item_text(item, zone_type)
        if runs and runs[-1][0] == label:
            runs[-1][1] += 1
        else:
            runs.append([label, 1, bool(item.get("hidden"))])
    out = Text()
    for i, (label, n, hidden) in enumerate(runs[:MAX_GROUPS]):
        if i:
            out.append(", ")
        out.append(label + (f" ×{n}" if n > 1 else ""), style="dim" if hidden else "")
    if len(runs) > MAX_GROUPS:
        out.append(f", … +{sum(r[1] for r in runs[MAX_GROUPS:])} more", style="dim")
    return out


# ------------------------------------------------------------------ the table
def _zone_groups(st, v: dict, skip_families: set, seen: set | None = None) -> tuple[list, dict]:
    """Split the view's zones into shared ones and each player's: a zone
    kept per player belongs to that player, one kept per component to the
    component's owner when the viewer can see who owns it. An empty zone of
    a family that no rule of the chosen variants names, or (``seen`` given)
    that has never held anything in this game, is left off the table."""
    from rulebook.interpreter.ops import zone_family, zone_key, zone_label

    families, viewer = st.prog.families, v["viewer"]
    used = st.prog.used_zones or frozenset(families)
    shared: list = []
    per_player: dict[int, list] = {p: [] for p in range(st.n)}
    for z in range(len(st.zones)):
        name = zone_label(st, z)
        fam = families[zone_family(st, z)]
        if fam.name in skip_families:
            continue
        zone = v["zones"][name]
        if not zone["count"] and (fam.name not in used or (seen is not None and fam.name not in seen)):
            continue
        key = zone_key(st, z)
        owner = None
        if fam.per is None:
            label = fam.name
        elif fam.per == "player":
            label, owner = f"{fam.name}[{player_name(st, key)}]", key
        else:
            if not zone["count"]:
                continue  # one empty zone per component would bury the rest
            key_view = component_view(st, key, viewer)
            label = f"{fam.name}[{key_view.get('name') or key_view.get('type')}]"
            owner = key_view.get("owner") if isinstance(key_view.get("owner"), int) else None
        entry = (label, zone, fam.of)
        (per_player[owner] if owner is not None and owner in per_player else shared).append(entry)
    return shared, per_player


def _zone_lines(entries: list, name_width: int, width: int, one_line: bool = False) -> list[Text]:
    """One row per zone: its name, its count and its items, the items
    wrapped under themselves. Built line by line (no table) so that plain
    text has no trailing padding."""
    out = []
    indent = 2 + name_width + 1 + 4 + 2
    for label, zone, of in entries:
        head = Text("  ")
        head.append(label[:name_width].ljust(name_width))
        head.append(f" {zone['count']:>4}  ", style="cyan")
        body = items_text(zone["items"], of)
        if not body.plain:
            out.append(head.rstrip() or head)
            continue
        wrapped = list(body.wrap(_WRAP_CONSOLE, max(20, width - indent), overflow="fold"))
        if one_line and len(wrapped) > 1:
            wrapped = [wrapped[0][: max(19, width - indent - 1)] + Text("…")]
        for i, piece in enumerate(wrapped):
            out.append((head if i == 0 else Text(" " * indent)) + piece)
    return out


def _wrapped(text: Text, indent: int, width: int) -> list[Text]:
    pad = Text(" " * indent)
    return [pad + piece for piece in text.wrap(_WRAP_CONSOLE, max(20, width - indent), overflow="fold")]


def _vars_text(st, values: dict, types: dict, viewer) -> str:
    return " · ".join(f"{k.replace('_', ' ')} {value_text(st, val, types.get(k), viewer)}" for k, val in values.items())


def table_view(st, p, width: int = 80, seen: set | None = None, compact: int = 0) -> Group:
    """The table as seat ``p`` sees it (``p`` None: a spectator): a header
    with the scores ``p`` may know, the board maps, shared zones, each
    player's zones (the viewer's first) and the public variables. ``seen``:
    the zone families that have held something in this game (the others,
    empty, are left off). ``compact`` (for small screens): 1 leaves the
    empty zones out and writes the other players' zones in a flow after
    their names; 2 also gives each shared zone and each other player one
    line. The viewer's own zones are always drawn whole."""
    v = view(st, p)
    prog = st.prog
    parts: list[RenderableType] = []
    title = prog.title + (f" ({', '.join(prog.variants)})" if prog.variants else "")
    head = f"{title} · phase {v['phase'] or '-'}" + (f" · turn {v['turn']}" if v["turn"] else "")
    parts.append(Rule(Text(head, style="bold"), style="blue"))
    status = Text()
    if v["over"]:
        winners = ", ".join(player_name(st, q) for q in v["winners"]) or "nobody"
        status.append(f"Game over. Winners: {winners}." if len(v["winners"]) != 1 else f"Game over. Winner: {winners}.")
    else:
        if v["current"] is not None:
            status.append(f"{player_name(st, v['current'])}'s turn")
        if v["to_move"] and v["to_move"] != [v["current"]]:
            status.append(("  ·  " if status.plain else "") + "to decide: ")
            status.append(", ".join(player_name(st, q) for q in v["to_move"]))
    score_line = scores_text(st, p)
    if compact >= 2 and score_line is not None and len(status) + 3 + len(score_line) <= width:
        status = status + Text(" · ") + score_line if status.plain else score_line
        score_line = None
    if status.plain:
        parts.append(name_players(st, status))
    if score_line is not None:
        parts.append(name_players(st, score_line))
    board_lines = boardmap.render_text(st, v, seat_style, legend=not compact, title=compact < 2)
    board_zones = {(ct.board or {}).get("show", {}).get("pieces") for ct in prog.comp_types.values() if ct.board}
    parts += [Text("  ") + line for line in board_lines]
    shared, per_player = _zone_groups(st, v, board_zones if board_lines else set(), seen)
    labels = [e[0] for e in shared] + [e[0] for es in per_player.values() for e in es]
    name_width = min(max((len(x) for x in labels), default=8), 28)
    public_vars = {k: val for k, val in v["vars"].items()
                   if k != "direction" and shown_var(prog, k, val, prog.var_types.get(k))}
    if v["vars"].get("direction", 1) == -1:
        public_vars["direction"] = "reversed"
    if compact >= 3:  # a small screen with a board: the map, the viewer's own zones, the decision
        if public_vars:
            vars_line = _vars_text(st, public_vars, prog.var_types, p)
            if status.plain and len(status) + 3 + len(vars_line) <= width:
                status.append(" · " + vars_line)  # the status line drawn above: one line for both
            else:
                parts += _wrapped(Text(vars_line), 0, width)
        if p is not None:
            own = Text.assemble((player_name(st, p), f"bold {seat_style(p)}"), (" (you)  ", "bold"))
            for i, (label, zone, of) in enumerate(e for e in per_player[p] if e[1]["count"]):
                own.append((" · " if i else "") + f"{_short_label(label, st, p)} {zone['count']}: ")
                own.append_text(items_text(zone["items"], of))
            parts += list(own.wrap(_WRAP_CONSOLE, width, overflow="fold"))
        return Group(*parts)
    if shared or public_vars:
        head_line = Text("Table", style="bold")
        if public_vars:
            vars_line = _vars_text(st, public_vars, prog.var_types, p)
            if len(vars_line) + 7 <= width:  # "Table  day 1 · seagulls 0": one line where it fits
                parts.append(head_line + Text("  " + vars_line))
            else:
                parts.append(head_line)
                parts += _wrapped(Text(vars_line), 2, width)
        else:
            parts.append(head_line)
        parts += _zone_lines([e for e in shared if e[1]["count"]], name_width, width, one_line=compact >= 2)
        empty = [e[0] for e in shared if not e[1]["count"]]
        if empty and not compact:
            parts.append(Text("  empty: " + ", ".join(empty), style="dim"))
    order = list(range(st.n)) if p is None else [(p + i) % st.n for i in range(st.n)]
    for q in order:
        pinfo = v["players"][q]
        heading = Text(player_name(st, q), style=f"bold {seat_style(q)}")
        if q == p:
            heading.append(" (you)", style="bold")
        if q in v["to_move"]:
            heading.append("  ◀ to decide", style="bold")
        if pinfo["eliminated"]:
            heading.append("  out of the game", style="red")
        if v["over"] and q in v["winners"]:
            heading.append("  winner", style="bold green")
        pv = {k: val for k, val in pinfo["vars"].items() if shown_var(prog, k, val, prog.pvar_types.get(k))
              and value_text(st, val, prog.pvar_types.get(k), p) != player_name(st, q)}  # "character Kid" for Kid
        vars_text = _vars_text(st, pv, prog.pvar_types, p) if pv else ""
        if pv and len(heading) + 3 + len(vars_text) <= width:
            heading.append("   " + vars_text)
            pv = {}
        full = [e for e in per_player[q] if e[1]["count"]]
        empty = [e[0] for e in per_player[q] if not e[1]["count"]]
        if compact and q != p:  # the others' zones in a flow after their name
            flow = Text()
            for label, zone, of in full:
                flow.append(("" if not flow.plain else " · ") + f"{_short_label(label, st, q)} {zone['count']}: ")
                flow.append_text(items_text(zone["items"], of))
            if pv:
                flow = Text(vars_text + (" · " if flow.plain else "")) + flow
            line = Text.assemble(heading, "   ", flow) if flow.plain else heading  # each part keeps its style
            lines = line.wrap(_WRAP_CONSOLE, width, overflow="fold")
            if compact >= 2 and len(lines) > 1:
                lines = [lines[0][: width - 1] + Text("…")]
            parts += list(lines)
            continue
        parts.append(heading)
        if pv:
            parts += _wrapped(Text(vars_text), 2, width)
        parts += _zone_lines(full, name_width, width)
        if empty and not compact:
            parts.append(Text("  empty: " + ", ".join(empty), style="dim"))
    return Group(*parts)


def _short_label(label: str, st, q) -> str:
    """``friend[Kid]`` under Kid's name is just ``friend``."""
    suffix = f"[{player_name(st, q)}]"
    return label[: -len(suffix)] if label.endswith(suffix) else label


def scores_text(st, p) -> Text | None:
    """``Scores  P1 12 · P2 9 · P3 ?``: each player's score as ``p`` may
    know it now (``rulebook.scores.live_scores``); None without a scoring
    section."""
    from rulebook.display.scores import live_scores
    from rulebook.interpreter.game import Game

    if st.prog.score is None:
        return None
    scores = live_scores(Game(st.prog), st, p)
    line = Text("Scores  ", style="bold")
    line.append(" · ".join(f"{player_name(st, q)} {'?' if s is None else s}" for q, s in enumerate(scores)))
    return line


def unset(value) -> bool:
    """A variable with nothing in it (none, "", []): left off the table."""
    return value is None or value == "" or value == []


def shown_var(prog, name: str, value, typ=None) -> bool:
    """Whether the table draws a variable: not one of the engine's own
    (``_x``), not bookkeeping (``show: false``), not holding nothing, and
    not at its zero with ``show: nonzero`` (a number at 0, ``false``; a
    player at seat 0 is not a zero)."""
    if name.startswith("_") or name in prog.unshown_vars or unset(value):
        return False
    if name not in prog.nonzero_vars or value is True:
        return True
    kind = getattr(typ, "kind", None)
    return not (value is False or value == {} or (value == 0 and kind in (None, "int", "fraction", "any", "bool")))


def render_view(st, p, width: int = 100) -> str:
    """The table as plain text (``rulebook replay --step``, tests)."""
    buf = io.StringIO()
    console = Console(file=buf, width=width, color_system=None, highlight=False, markup=False, emoji=False)
    console.print(table_view(st, p, width))
    return "\n".join(line.rstrip() for line in buf.getvalue().splitlines())


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
            pieces = text[2:].wrap(_WRAP_CONSOLE, width - 4)
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
    parts += list(name_players(st, head).wrap(_WRAP_CONSOLE, screen_width))  # at words, not by the terminal
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


# ------------------------------------------------------------------ input
class Timeout:
    """What ``LineReader.read`` returns when the deadline passed first."""


TIMEOUT = Timeout()


class LineReader:
    """Reads answers one line at a time, optionally with a deadline.

    On a real file descriptor (a terminal or a pipe) lines are read with
    ``os.read`` into a buffer of our own, so ``select`` tells the truth
    about waiting input (a Python text buffer could hold a line ``select``
    cannot see). Streams without a descriptor (test runners) are read with
    ``readline`` and cannot time out.
    """

    def __init__(self, stream=None):
        self.stream = stream if stream is not None else sys.stdin
        self.fd = _fileno(self.stream)
        self.buffer = b""
        self.eof = False

    @property
    def can_time_out(self) -> bool:
        return self.fd is not None

    def isatty(self) -> bool:
        try:
            return bool(self.stream.isatty())
        except (AttributeError, ValueError, OSError):
            return False

    def read(self, timeout: float | None = None) -> str | None | Timeout:
        """The next line without its newline; None at the end of input;
        TIMEOUT when ``timeout`` seconds passed without a whole line."""
        if self.fd is None:
            line = self.stream.readline()
            return None if not line else line.rstrip("\r\n")
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.buffer and not self.eof:
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return TIMEOUT
                try:
                    ready, _, _ = select.select([self.fd], [], [], left)
                except (OSError, ValueError):
                    ready = [self.fd]  # cannot wait on this descriptor: read without a clock
                if not ready:
                    return TIMEOUT
            chunk = os.read(self.fd, 4096)
            if not chunk:
                self.eof = True
            self.buffer += chunk
        if b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
        elif self.buffer:
            line, self.buffer = self.buffer, b""
        else:
            return None
        return line.decode("utf-8", "replace").rstrip("\r")


def _fileno(stream) -> int | None:
    try:
        fd = stream.fileno()
    except (AttributeError, ValueError, OSError, io.UnsupportedOperation):
        return None
    return fd if isinstance(fd, int) and fd >= 0 else None

