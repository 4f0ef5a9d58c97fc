"""How the terminal draws components from the ruleset's presentation hints,
read by the same functions the browser's table reads them with
(``rulebook.display.presentation``): a zone the ruleset groups by a
property (``presentation.zones.Z.group_by``) as one stack per value, its
top card marked, and a component coloured by the property the ruleset
colours it by (``colour_by`` and ``colours``).

A stack is one cell that is never broken or cut: ``coins 2 3 [6]`` (the
stack's value, its members bottom to top by the type's ``short`` text or
their names, the top in brackets when the stack has more than one card). Cells are laid in columns, and a zone
of stacks takes as many rows as it needs.

Colour is decoration only: a coloured component is written on its colour
(with black or white letters, whichever reads better), so that a dark
suit stays readable on a dark terminal; the console drops every colour
when its output is not a terminal or ``NO_COLOR`` is set
(``rulebook.terminal.text.make_console``), and the plain text says the
same.
"""

from __future__ import annotations

import re

from rich.text import Text

from rulebook.display.presentation import colour, stacks
from rulebook.display.titles import words

_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
GAP = 3  # spaces between two stacks of a row


def chip(hex_colour: str | None) -> str:
    """The style of a thing written on ``hex_colour``: letters black on a
    light colour, white on a dark one ("" without a colour)."""
    if not hex_colour or not re.fullmatch(r"#[0-9a-fA-F]{6}", hex_colour):
        return ""
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    light = 0.299 * r + 0.587 * g + 0.114 * b > 150
    return f"{'black' if light else 'bright_white'} on {hex_colour}"


def item_style(item: dict, types: dict) -> str:
    """A face-up item's style: on its declared colour, when its type is
    coloured by a property (a type's single colour says nothing a name
    does not, and would paint every row alike)."""
    if not (types.get(item.get("type")) or {}).get("colour_by"):
        return ""
    return chip(colour(item, types))


def short(item: dict, types: dict) -> str:
    """An item's ``short`` text (``{value}`` filled from what the viewer
    sees, as the browser fills it), else its name."""
    template = (types.get(item.get("type")) or {}).get("short")
    name = str(item.get("name") or item.get("type") or "?")
    if not template or item.get("hidden"):
        return name

    def field(m: re.Match) -> str:
        if m.group(1) == "owner":
            return str(item["owner"] + 1) if isinstance(item.get("owner"), int) else ""
        value = item.get(m.group(1))
        return "" if value is None else str(value)

    return _FIELD.sub(field, template).strip() or name


def stack_cells(items: list[dict], hint: dict | None, types: dict) -> list[Text] | None:
    """The zone's items as stacks (``presentation.stacks``), one cell each;
    None when the ruleset does not group this zone."""
    groups = stacks(items, hint)
    if groups is None:
        return None
    cells = []
    for group in groups:
        members = group["items"]
        if group["value"] is None:  # face-down, or without the property: as their backs
            cell = Text(f"[hidden] ×{len(members)}" if len(members) > 1 else "[hidden]", style="dim")
            cells.append(cell)
            continue
        cell = Text(words(group["value"]), style=chip(colour(members[-1], types)))
        for k, item in enumerate(members):
            text = "[hidden]" if item.get("hidden") else short(item, types)
            if group["top"] and k == len(members) - 1 and len(members) > 1:  # one card is its own top
                cell.append(" ")
                cell.append(f"[{text}]", style="bold")
            else:
                cell.append(" " + text)
        cells.append(cell)
    return cells


def cell_rows(cells: list[Text], width: int) -> list[Text]:
    """Cells in rows of ``width``: one row when they fit, else in columns
    of equal width, read along the rows; a cell is never broken."""
    if not cells:
        return []
    if sum(len(c) for c in cells) + GAP * (len(cells) - 1) <= width:
        return [Text(" " * GAP).join(cells)]
    column = max(len(c) for c in cells) + GAP
    per_row = max(1, (width + GAP) // column)
    rows = []
    for start in range(0, len(cells), per_row):
        row = Text()
        chunk = cells[start:start + per_row]
        for k, cell in enumerate(chunk):
            row.append_text(cell)
            if k < len(chunk) - 1:
                row.append(" " * (column - len(cell)))
        rows.append(row)
    return rows
