"""Draw a board as a terminal map, from one player's view only.

Terrain comes from the spaces' fixed properties (a board's spaces are public
by definition); pieces come from the viewer's view of the zone kept per
space, so a hidden piece shows only what its back shows. Glyph templates are
filled by plain substitution of visible properties: no Python formatting.
A board's presentation hints (``presentation.boards``, read as the browser
reads them: ``rulebook.display.presentation.hints``) colour each space by
the value of its ``colour_by`` property and write a space with a declared
symbol (one character) as that symbol, the legend saying so.

``render_text`` gives styled lines for the play screen (pieces in their
owner's seat colour); ``render`` is the same map as plain strings.
"""

from __future__ import annotations

import re
import textwrap
import zlib

from rich.cells import cell_len
from rich.text import Text

from rulebook.display.axes import axis_names
from rulebook.display.presentation import hints
from rulebook.display.titles import board_title
from rulebook.interpreter.boards import drawn_boards

_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
# terrain styles: picked by a stable hash of the terrain value, so every
# ruleset gets distinct, repeatable colours without naming any terrain here
_TERRAIN_STYLES = ("green", "yellow", "cyan", "blue", "magenta", "bright_black", "red", "white")
CELL = 4  # characters per map cell


def glyph_of(item: dict, template: str | None) -> str:
    if not template:
        return (item.get("type") or "?")[:1]
    return _FIELD.sub(lambda m: "" if item.get(m.group(1)) is None else str(item.get(m.group(1))), template)[:3]


def render(st, view: dict) -> list[str]:
    return [line.plain for line in render_text(st, view)]


def render_text(st, view: dict, seat_style=None, legend: bool = True, title: bool = True,
                side: int = 0, look: dict | None = None) -> list[Text]:
    """The maps of every drawable board in ``view``. ``seat_style(p)``: the
    style of seat ``p``'s pieces (None: no colour). ``legend`` and
    ``title`` off: the map alone (a small screen). ``side``: the columns
    the map may take; with the legend off, the legend goes beside the map
    when it fits there whole, so that a small screen still says what the
    marks mean."""
    out: list[Text] = []
    prog = st.prog
    looks = (look or hints(prog))["boards"] if drawn_boards(st) else {}  # ``look``: the hints, when read already
    for tname, part, board in drawn_boards(st):  # a board kept per seat: each seat's part
        ct = prog.comp_types[tname]
        show = (ct.board or {}).get("show")
        if not show or board.kind == "graph":
            continue
        terrain, glyphs, pieces = show.get("terrain"), show.get("glyphs") or {}, show.get("pieces")
        look = looks.get(tname) or {}
        cells: dict[tuple, tuple[str, str]] = {}
        symbols: dict[str, set] = {}  # each glyph the map would write, and what it wrote instead
        for c in board.ids:
            col, row = st.static[c]["col"], st.static[c]["row"]
            value = _prop(st, c, terrain)
            mark = glyphs.get(str(value), ".") if terrain else "."
            style = _terrain_style(value) if terrain and mark != "." else "dim"
            hue = (look.get("colours") or {}).get(str(_prop(st, c, look.get("colour_by")))) \
                if look.get("colour_by") else None
            style = hue or style
            symbol = (look.get("symbols") or {}).get(str(_prop(st, c, look.get("colour_by"))))
            if symbol and cell_len(symbol) == 1:
                symbols.setdefault(mark, set()).add(symbol)
                mark = symbol
            else:
                symbols.setdefault(mark, set()).add(mark)
            if pieces:
                zone = view["zones"].get(f"{pieces}[{c}]")
                if zone and zone["items"]:
                    marks = [glyph_of(i, prog.comp_types[i["type"]].glyph) for i in zone["items"]]
                    mark = "".join(marks)[:3] if len(marks) == 1 else (marks[0][:2] + "+")
                    owner = zone["items"][0].get("owner")
                    style = "bold " + seat_style(owner) if seat_style and isinstance(owner, int) \
                        else "bold " + (hue or "")
            cells[(col, row)] = (mark, style)
        cols = sorted({c for c, _ in cells})
        rows = sorted({r for _, r in cells})
        layout = (ct.board or {}).get("layout", "odd-r")
        # the board's own names for its columns and rows (board.axes), each column as wide as its longest name
        col_names, row_names = axis_names(ct.board, "col", cols), axis_names(ct.board, "row", rows)
        cell = max([CELL] + [len(n) + 1 for n in col_names.values()])
        gutter = max([3] + [len(n) for n in row_names.values()])
        if title:
            out.append(Text(board_title(prog, tname, part), style="bold"))  # " of P1": a part
        out.append(Text((" " * (gutter + 2) + "".join(f"{col_names[c]:<{cell}}" for c in cols)).rstrip(),
                        style="dim"))
        for r in rows:
            shifted = board.kind == "hex" and layout in ("odd-r", "even-r")
            indent = " " * (cell // 2) if shifted and (r % 2 == (1 if layout == "odd-r" else 0)) else ""
            line = Text()
            line.append(f"{row_names[r]:>{gutter}}  {indent}", style="dim")  # the spaces' own colours undimmed
            for c in cols:
                mark, style = cells.get((c, r), (" ", ""))
                line.append(mark, style=style if seat_style is not None else "")
                line.append(" " * max(0, cell - len(mark)))
            line.rstrip()
            out.append(line)
        legend_items = _with_symbols(show.get("legend") or {}, symbols)
        if legend and legend_items:
            text = "legend: " + "  ".join(f"{k} {v}" for k, v in legend_items.items())
            out += [Text(row, style="dim") for row in (textwrap.wrap(text, side, subsequent_indent="  ",
                                                                     break_on_hyphens=False) if side else [text])]
        elif legend_items and side:
            _beside(out[len(out) - len(rows) - 1:], legend_items, side)
    return out


def _beside(lines: list[Text], items: dict, side: int) -> None:
    """Write the legend ``items`` to the right of the map ``lines`` (the
    column names first), each entry wrapped to the room left of ``side``
    columns; nothing when the whole legend does not fit beside the map."""
    left = max(len(line) for line in lines) + 2
    room = side - left
    if room < 14:
        return
    rows: list[str] = []
    for key, meaning in items.items():
        rows += textwrap.wrap(f"{key} {meaning}", room, subsequent_indent="  ", break_on_hyphens=False)
    if len(rows) > len(lines) - 1:
        return
    for line, row in zip(lines[1:], rows, strict=False):
        line.append(" " * (left - len(line)))
        line.append(row, style="dim")


def _prop(st, c: int, name: str | None):
    """Space ``c``'s property ``name``: its changing value, else its fixed one."""
    if not name:
        return None
    return st.props[c].get(name) if st.props[c] and name in st.props[c] else st.static[c].get(name)


def _with_symbols(legend: dict, symbols: dict[str, set]) -> dict:
    """The legend with each glyph the map always wrote as a declared
    symbol (``#`` as a flag) written as that symbol."""
    swap = {glyph: next(iter(drawn)) for glyph, drawn in symbols.items() if len(drawn) == 1 and glyph not in drawn}
    if not swap:
        return legend
    return {" ".join(swap.get(token, token) for token in key.split(" ")): meaning for key, meaning in legend.items()}


def _terrain_style(value) -> str:
    return _TERRAIN_STYLES[zlib.crc32(str(value).encode()) % len(_TERRAIN_STYLES)]
