"""Draw a board as a terminal map, from one player's view only.

Terrain comes from the spaces' fixed properties (a board's spaces are public
by definition); pieces come from the viewer's view of the zone kept per
space, so a hidden piece shows only what its back shows. Glyph templates are
filled by plain substitution of visible properties: no Python formatting.
"""

from __future__ import annotations

import re

_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def glyph_of(item: dict, template: str | None) -> str:
    if not template:
        return (item.get("type") or "?")[:1]
    return _FIELD.sub(lambda m: "" if item.get(m.group(1)) is None else str(item.get(m.group(1))), template)[:3]


def render(st, view: dict) -> list[str]:
    out = []
    prog = st.prog
    for tname, board in st.cat.boards.items():
        ct = prog.comp_types[tname]
        show = (ct.board or {}).get("show")
        if not show or board.kind == "graph":
            continue
        terrain, glyphs, pieces = show.get("terrain"), show.get("glyphs") or {}, show.get("pieces")
        cells = {}
        for c in board.ids:
            col, row = st.static[c]["col"], st.static[c]["row"]
            value = st.props[c].get(terrain) if st.props[c] and terrain in st.props[c] else st.static[c].get(terrain)
            mark = glyphs.get(str(value), ".") if terrain else "."
            if pieces:
                zone = view["zones"].get(f"{pieces}[{c}]")
                if zone and zone["items"]:
                    marks = [glyph_of(i, prog.comp_types[i["type"]].glyph) for i in zone["items"]]
                    mark = "".join(marks)[:3] if len(marks) == 1 else (marks[0][:2] + "+")
            cells[(col, row)] = mark
        cols = sorted({c for c, _ in cells})
        rows = sorted({r for _, r in cells})
        layout = (ct.board or {}).get("layout", "odd-r")
        header = "     " + "".join(f"{c:<4}" for c in cols)
        out.append(f"{tname} map")
        out.append(header)
        for r in rows:
            indent = (
                "  "
                if board.kind == "hex" and layout in ("odd-r", "even-r") and (r % 2 == (1 if layout == "odd-r" else 0))
                else ""
            )
            line = "".join(f"{cells.get((c, r), ' '):<4}" for c in cols)
            out.append(f"{r:>3}  {indent}{line}".rstrip())
        legend = show.get("legend") or {}
        if legend:
            out.append("legend: " + "  ".join(f"{k} {v}" for k, v in legend.items()))
    return out
