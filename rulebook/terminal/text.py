"""The words and styles of the play screen: seat colours, a narrated line
with its players named in their colours, a variable's value and a zone's
items as game text. Shared by the table, the panels and the web page, so
that both say a thing the same way.

Colour is decoration only: every screen reads the same as plain text, and
rich drops the colour codes when standard output is not a terminal; with
``NO_COLOR`` set no styling codes are written at all, so logs, pipes and
tests see plain text.
"""

from __future__ import annotations

import os
import re

from rich.console import Console
from rich.text import Text

from rulebook.interpreter.labels import comp_name, player_name, zone_name
from rulebook.interpreter.narrate import Line
from rulebook.interpreter.ops import can_see
from rulebook.interpreter.view import component_view

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
WRAP_CONSOLE = Console(width=1000, color_system=None)  # Text.wrap measures with a console; no output
MAX_GROUPS = 40  # face-up runs shown per zone before "+N more": a long deck must not fill the screen


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


def items_text(items: list[dict], zone_type: str | None = None, types: dict | None = None) -> Text:
    """A zone's items in order, runs of equal ones as "name ×N"; face-down
    ones as their backs, dimmed; with the presentation hints' ``types``,
    a face-up one on the colour the ruleset gives its property
    (``rulebook.terminal.looks``)."""
    from rulebook.terminal.looks import item_style

    runs: list[list] = []
    for item in items:
        label = _item_text(item, zone_type)
        if runs and runs[-1][0] == label:
            runs[-1][1] += 1
        else:
            style = "dim" if item.get("hidden") else (item_style(item, types) if types else "")
            runs.append([label, 1, style])
    out = Text()
    for i, (label, n, style) in enumerate(runs[:MAX_GROUPS]):
        if i:
            out.append(", ")
        out.append(label, style=style)
        if n > 1:
            out.append(f" ×{n}")
    if len(runs) > MAX_GROUPS:
        out.append(f", … +{sum(r[1] for r in runs[MAX_GROUPS:])} more", style="dim")
    return out



def wrapped(text: Text, indent: int, width: int, first: int | None = None) -> list[Text]:
    """``text`` as screen rows of ``width``, broken at words: the first row
    indented by ``first`` (default ``indent``), the rows after it by
    ``indent``, so a continued line reads as one."""
    first = indent if first is None else first
    rows = text.wrap(WRAP_CONSOLE, max(20, width - indent), overflow="fold")
    if len(rows) > 1 and first < indent:  # the first row may be longer: wrap it alone, then the rest under it
        head = text.wrap(WRAP_CONSOLE, max(20, width - first), overflow="fold")[0]
        rest = text[len(head.plain):]
        rest = rest[len(rest.plain) - len(rest.plain.lstrip()):]
        rows = [head] + (list(rest.wrap(WRAP_CONSOLE, max(20, width - indent), overflow="fold")) if rest.plain else [])
    return [Text(" " * (first if i == 0 else indent)) + row for i, row in enumerate(rows)]


def pack_items(body: Text, width: int) -> list[Text]:
    """A zone's items (``items_text``) as rows of ``width``, broken between
    items, never inside one ("map 4" stays whole); an item longer than a
    row is wrapped at its words."""
    rows: list[Text] = []
    line = Text()
    pieces = list(body.split(", ")) if body.plain else []
    for k, piece in enumerate(pieces):
        piece = piece + Text(",") if k < len(pieces) - 1 else piece
        if line.plain and len(line) + 1 + len(piece) > width:
            rows.append(line)
            line = Text()
        if len(piece) > width:
            parts = piece.wrap(WRAP_CONSOLE, max(20, width), overflow="fold")
            rows += [line + parts[0]] if not line.plain else [line, parts[0]]
            rows += list(parts[1:-1])
            line = parts[-1] if len(parts) > 1 else Text()
            continue
        line = line + Text(" ") + piece if line.plain else piece
    if line.plain:
        rows.append(line)
    return rows
