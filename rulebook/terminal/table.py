"""The table as one seat sees it: the header (whose turn, the scores), the
board maps, the shared zones, each player's zones and the public
variables, drawn more compactly on a small screen.

Everything comes from ``interpreter.view.view(st, p)`` (the seat's own
view), so the table can never show what the seat may not know. Nothing
here names a game: zones, players, variables and boards are laid out from
the ruleset's own declarations.
"""

from __future__ import annotations

import io

from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.text import Text

from rulebook.display.presentation import hints
from rulebook.display.titles import phase_title, words, zone_title
from rulebook.interpreter.labels import player_name
from rulebook.interpreter.view import component_view, view
from rulebook.terminal import boardmap
from rulebook.terminal.looks import cell_rows, stack_cells
from rulebook.terminal.text import WRAP_CONSOLE, items_text, name_players, pack_items, seat_style, value_text, wrapped


def _zone_groups(st, v: dict, skip_families: set, seen: set | None = None,
                 look: dict | None = None) -> tuple[list, dict]:
    """Split the view's zones into shared ones and each player's: a zone
    kept per player belongs to that player, one kept per component to the
    component's owner when the viewer can see who owns it. An empty zone of
    a family that no rule of the chosen variants names, or (``seen`` given)
    that has never held anything in this game, is left off the table.
    Each zone comes as ``(label, zone, its type, its stacks or None, its
    items as text)``, drawn as the presentation hints ``look`` say."""
    from rulebook.interpreter.ops import zone_family, zone_key, zone_label

    look = look or hints(st.prog)

    families, viewer = st.prog.families, v["viewer"]
    used = st.prog.used_zones or frozenset(families)
    shared: list = []
    per_player: dict[int, list] = {p: [] for p in range(st.n)}
    for z in range(len(st.zones)):
        name = zone_label(st, z)
        fam = families[zone_family(st, z)]
        if fam.name in skip_families or fam.name in st.prog.unshown_zones:  # drawn as a map, or 'show: false'
            continue
        zone = v["zones"][name]
        if not zone["count"] and (fam.name not in used or (seen is not None and fam.name not in seen)):
            continue
        key = zone_key(st, z)
        owner, title = None, zone_title(st.prog, fam.name)
        if fam.per is None:
            label = title
        elif fam.per == "player":
            label, owner = f"{title}[{player_name(st, key)}]", key
        else:
            if not zone["count"]:
                continue  # one empty zone per component would bury the rest
            key_view = component_view(st, key, viewer)
            label = f"{title}[{key_view.get('name') or key_view.get('type')}]"
            owner = key_view.get("owner") if isinstance(key_view.get("owner"), int) else None
        cells = stack_cells(zone["items"], look["zones"].get(fam.name), look["types"])
        entry = (label, zone, fam.of, cells, items_text(zone["items"], fam.of, look["types"]))
        (per_player[owner] if owner is not None and owner in per_player else shared).append(entry)
    return shared, per_player


def _zone_lines(entries: list, name_width: int, width: int, one_line: bool = False) -> list[Text]:
    """One row per zone: its name, its count and its items, the items
    wrapped under themselves (``one_line``: cut to one row, but a zone of
    stacks, which is never cut). Built line by line (no table) so that
    plain text has no trailing padding."""
    out = []
    indent = 2 + name_width + 1 + 4 + 2
    for label, zone, _of, cells, body in entries:
        head = Text("  ")
        head.append(label[:name_width].ljust(name_width))
        head.append(f" {zone['count']:>4}  ", style="cyan")
        if cells:
            rows = cell_rows(cells, max(20, width - indent))
            out += [(head if i == 0 else Text(" " * indent)) + row for i, row in enumerate(rows)]
            continue
        if not body.plain:
            out.append(head.rstrip() or head)
            continue
        rows = pack_items(body, max(20, width - indent))
        if one_line and len(rows) > 1:
            rows = [rows[0][: max(19, width - indent - 1)] + Text("…")]
        for i, piece in enumerate(rows):
            out.append((head if i == 0 else Text(" " * indent)) + piece)
    return out


def _wrapped(text: Text, indent: int, width: int) -> list[Text]:
    pad = Text(" " * indent)
    return [pad + piece for piece in text.wrap(WRAP_CONSOLE, max(20, width - indent), overflow="fold")]


def _vars_text(st, values: dict, types: dict, viewer, shown: dict | None = None, owner: int | None = None) -> str:
    """``day 1 · birds 0``: each variable and its value, in the words of
    its ``shown_as`` when the ruleset gives them (``shown``; ``owner``: the
    player of player variables)."""
    return " · ".join(f"{words(k)} {shown_value(st, k, val, types.get(k), viewer, shown, owner)}"
                      for k, val in values.items())


def shown_value(st, name: str, value, typ, viewer, shown: dict | None, owner: int | None) -> str:
    from rulebook.interpreter.errors import RulebookError

    fn = (shown or {}).get(name)
    if fn is not None:
        try:
            return str(fn(st, owner if owner is not None else (viewer if viewer is not None else 0)))
        except (RulebookError, TypeError, ValueError, KeyError, IndexError):
            pass  # words that cannot be made now: the value itself
    return value_text(st, value, typ, viewer)


def table_view(st, p, width: int = 80, seen: set | None = None, compact: int = 0) -> Group:
    """The table as seat ``p`` sees it (``p`` None: a spectator): a header
    with the scores ``p`` may know, the board maps, shared zones, each
    player's zones (the viewer's first) and the public variables. ``seen``:
    the zone families that have held something in this game (the others,
    empty, are left off). ``compact`` (for small screens): 1 leaves the
    empty zones out and writes the other players' zones in a flow after
    their names; 2 also gives each shared zone and each other player one
    line; 3 keeps only the header, the map, the public variables and the
    viewer's own zones (``r`` draws the rest); 4 gives the viewer's own
    zones one line too and writes the status in the header's rule, the
    last resort of a small screen with a map but 5, which leaves the
    viewer's own zones to the ``r`` key.
    Up to 3 the viewer's own zones are drawn whole."""
    v = view(st, p)
    prog = st.prog
    look = hints(prog)
    parts: list[RenderableType] = []
    status = _status_line(st, v)
    score_line = scores_text(st, p)
    parts.append(Rule(Text(_title(prog, v), style="bold"), style="blue"))
    if compact >= 2 and score_line is not None and len(status) + 3 + len(score_line) <= width:
        status = status + Text(" · ") + score_line if status.plain else score_line
        score_line = None
    public_vars = _public_vars(prog, v)
    if compact >= 3 and public_vars and status.plain:  # "Red's turn · moves left 3": one line for both
        vars_line = _vars_text(st, public_vars, prog.var_types, p, prog.var_shown)
        if len(status) + 3 + len(vars_line) <= width:
            status.append(" · " + vars_line)
            public_vars = {}
    if compact >= 4 and status.plain and len(status) + 12 <= width:  # the header's rule holds the status
        turn = f" · turn {v['turn']}" if v["turn"] else ""
        parts[0] = Rule(name_players(st, status + Text(turn)), style="blue")
    elif status.plain:
        parts += wrapped(name_players(st, status), 2, width, first=0)
    if score_line is not None:
        for row in score_line.split("\n"):  # a line per column of the scoreboard
            parts += wrapped(name_players(st, row), 8, width, first=0)
    board_lines = boardmap.render_text(st, v, seat_style, legend=compact < 3, title=compact < 2, side=width - 2,
                                      look=look)
    board_zones = {((ct.board or {}).get("show") or {}).get("pieces") for ct in prog.comp_types.values() if ct.board}
    parts += [Text("  ") + line for line in board_lines]
    shared, per_player = _zone_groups(st, v, board_zones if board_lines else set(), seen, look)
    if compact >= 3:
        return Group(*parts, *_small_screen(st, v, p, per_player, public_vars, width, one_line=compact >= 4,
                                          hide_own=compact >= 5))
    labels = [e[0] for e in shared] + [e[0] for es in per_player.values() for e in es]
    name_width = min(max((len(x) for x in labels), default=8), 28)
    if shared or public_vars:
        parts += _shared_section(st, p, shared, public_vars, name_width, width, compact)
    order = list(range(st.n)) if p is None else [(p + i) % st.n for i in range(st.n)]
    for q in order:
        parts += _player_section(st, v, p, q, per_player[q], name_width, width, compact)
    return Group(*parts)


def _title(prog, v: dict) -> str:
    """``Survive · phase play · turn 3``: the ruleset, its variants, where the game is."""
    title = prog.title + (f" ({', '.join(prog.variants)})" if prog.variants else "")
    return f"{title} · phase {phase_title(prog, v['phase']) or '-'}" + (f" · turn {v['turn']}" if v["turn"] else "")


def _status_line(st, v: dict) -> Text:
    """Whose turn it is and who is to decide, or how the game ended."""
    status = Text()
    if v["over"]:
        winners = ", ".join(player_name(st, q) for q in v["winners"]) or "nobody"
        status.append(f"Game over. Winners: {winners}." if len(v["winners"]) != 1 else f"Game over. Winner: {winners}.")
        return status
    if v["current"] is not None:
        status.append(f"{player_name(st, v['current'])}'s turn")
    if v["to_move"] and v["to_move"] != [v["current"]]:
        status.append(("  ·  " if status.plain else "") + "to decide: ")
        status.append(", ".join(player_name(st, q) for q in v["to_move"]))
    return status


def _public_vars(prog, v: dict) -> dict:
    """The shared variables the table draws (``shown_var``), the play
    direction only when it is reversed."""
    public = {k: val for k, val in v["vars"].items()
              if k != "direction" and shown_var(prog, k, val, prog.var_types.get(k))}
    if v["vars"].get("direction", 1) == -1:
        public["direction"] = "reversed"
    return public


def _small_screen(st, v: dict, p, per_player: dict, public_vars: dict, width: int, one_line: bool = False,
                  hide_own: bool = False) -> list[Text]:
    """The least a small screen shows under the map: the public variables
    and the viewer's own zones in a flow (``one_line``: cut to one line,
    the ``r`` key draws them whole; ``hide_own``: left off)."""
    parts: list[Text] = []
    if public_vars:
        parts += wrapped(Text(_vars_text(st, public_vars, st.prog.var_types, p, st.prog.var_shown)), 2, width, first=0)
    full = [e for e in per_player.get(p, []) if e[1]["count"]] if p is not None and not hide_own else []
    if full:  # nothing of the viewer's own to show: no line for it
        own = Text.assemble((player_name(st, p), f"bold {seat_style(p)}"), (" (you)  ", "bold"))
        flowing = [e for e in full if not e[3]]
        for i, (label, zone, _of, _cells, body) in enumerate(flowing):
            own.append((" · " if i else "") + f"{_short_label(label, st, p)} {zone['count']}: ")
            own.append_text(body)
        stacked = [e for e in full if e[3]]
        if not flowing:  # only stacks: the first on the name's row
            parts += _stack_rows(stacked, st, p, width, lead=own.rstrip() or own)
        else:
            rows = wrapped(own, 4, width, first=0)
            if one_line and len(rows) > 1:
                rows = [rows[0][: width - 14] + Text(" … (r: all)", style="dim")]
            parts += rows + _stack_rows(stacked, st, p, width)
    for q in range(st.n):  # the others' stacks too: a zone of stacks is never cut (only the last resort leaves it)
        if q != p and not hide_own:
            stacked = [e for e in per_player.get(q, []) if e[1]["count"] and e[3]]
            if stacked:
                parts += _stack_rows(stacked, st, q, width, lead=_heading(st, v, p, q))
    return parts


def _stack_rows(entries: list, st, q, width: int, lead: Text | None = None) -> list[Text]:
    """Each zone of stacks under a player's name: ``pile 4  cups 4   coins
    2 3 [6]``, its stacks in columns on as many rows as they need. With
    ``lead`` (the player's name, alone on its row) the first zone starts on
    that row, a row saved on a small screen."""
    out = []
    for k, (label, zone, _of, cells, _body) in enumerate(entries):
        words = f"{_short_label(label, st, q)} {zone['count']}  "
        head = Text.assemble(lead, "   " + words) if lead is not None and k == 0 else Text("    " + words)
        rows = cell_rows(cells, max(20, width - len(head)))
        out += [(head if i == 0 else Text(" " * len(head))) + row for i, row in enumerate(rows)]
    if lead is not None and not entries:
        out.append(lead)
    return out


def _shared_section(st, p, shared: list, public_vars: dict, name_width: int, width: int, compact: int) -> list:
    """``Table`` with the public variables, then the shared zones."""
    parts: list[Text] = []
    head_line = Text("Table", style="bold")
    if public_vars:
        vars_line = _vars_text(st, public_vars, st.prog.var_types, p, st.prog.var_shown)
        if len(vars_line) + 7 <= width:  # "Table  day 1 · birds 0": one line where it fits
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
    return parts


def _player_section(st, v: dict, p, q: int, entries: list, name_width: int, width: int, compact: int) -> list:
    """Player ``q``'s heading (you, to decide, out, winner, their
    variables) and zones; on a small screen another player's zones in a
    flow after the name."""
    prog = st.prog
    pinfo = v["players"][q]
    heading = _heading(st, v, p, q)
    pv = {k: val for k, val in pinfo["vars"].items() if shown_var(prog, k, val, prog.pvar_types.get(k))
          and value_text(st, val, prog.pvar_types.get(k), p) != player_name(st, q)}  # "character Kid" for Kid
    vars_text = _vars_text(st, pv, prog.pvar_types, p, prog.pvar_shown, q) if pv else ""
    if pv and len(heading) + 3 + len(vars_text) <= width:
        heading.append("   " + vars_text)
        pv = {}
    full = [e for e in entries if e[1]["count"]]
    empty = [e[0] for e in entries if not e[1]["count"]]
    parts: list[Text] = []
    if compact and q != p:  # the others' zones in a flow after their name, their stacks under it
        flow = Text()
        for label, zone, _of, _cells, body in (e for e in full if not e[3]):
            flow.append(("" if not flow.plain else " · ") + f"{_short_label(label, st, q)} {zone['count']}: ")
            flow.append_text(body)
        if pv:
            flow = Text(vars_text + (" · " if flow.plain else "")) + flow
        stacked = [e for e in full if e[3]]
        if not flow.plain:  # only stacks: the first on the name's row
            return _stack_rows(stacked, st, q, width, lead=heading)
        lines = wrapped(Text.assemble(heading, "   ", flow), 4, width, first=0)  # each part keeps its style
        if compact >= 2 and len(lines) > 1:
            lines = [lines[0][: width - 1] + Text("…")]
        return lines + _stack_rows(stacked, st, q, width)
    if compact >= 2 and full and all(e[3] for e in full) and not pv:  # only stacks: the first on the name's row
        return _stack_rows(full, st, q, width, lead=heading)
    parts.append(heading)
    if pv:
        parts += _wrapped(Text(vars_text), 2, width)
    parts += _zone_lines(full, name_width, width)
    if empty and not compact:
        parts.append(Text("  empty: " + ", ".join(empty), style="dim"))
    return parts


def _heading(st, v: dict, p, q: int) -> Text:
    """Player ``q``'s name and tags: you, to decide, out, winner."""
    heading = Text(player_name(st, q), style=f"bold {seat_style(q)}")
    if q == p:
        heading.append(" (you)", style="bold")
    if q in v["to_move"]:
        heading.append("  ◀ to decide", style="bold")
    if v["players"][q]["eliminated"]:
        heading.append("  out of the game", style="red")
    if v["over"] and q in v["winners"]:
        heading.append("  winner", style="bold green")
    return heading


def _short_label(label: str, st, q) -> str:
    """``friend[Kid]`` under Kid's name is just ``friend``."""
    suffix = f"[{player_name(st, q)}]"
    return label[: -len(suffix)] if label.endswith(suffix) else label


def scores_text(st, p) -> Text | None:
    """``Scores  P1 12 · P2 9 · P3 ?``: each player's score as ``p`` may
    know it now; with the scoring section's ``show``, its columns instead,
    ``cards in hand  P1 5 · P2 7 · trophies  P1 0 · P2 1``
    (``rulebook.display.scores.live_board``); None without either."""
    from rulebook.display.scores import live_board
    from rulebook.interpreter.game import Game

    board = live_board(Game(st.prog), st, p)
    if board is None:
        return None
    line = Text("Scores  ", style="bold")
    named = len(board) > 1 or board[0][0] != "score"
    label_width = max(len(label) for label, _ in board)
    for i, (label, values) in enumerate(board):  # one line a column, under each other
        if i:
            line.append("\n" + " " * 8)
        if named:
            line.append(f"{label:<{label_width}}  ", style="bold")
        line.append(" · ".join(f"{player_name(st, q)} {'?' if v is None else v}" for q, v in enumerate(values)))
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
