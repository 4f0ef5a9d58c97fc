"""The ruleset's optional presentation hints, read for the tables that
draw it (``rulebook serve``; see docs/format.md#presentation).

Hints never change the rules and are optional: without them every zone is
drawn in the order it is declared, each as one row, every component type
gets a colour of its own (a stable hash of its name) and is drawn on a
board as a circle, and board spaces get a colour per value of the board's
``show.terrain`` property, so a table looks right as it is. The validator
checks the names a hint uses (``validator/presentation.py``).
"""

from __future__ import annotations

from rulebook.display.titles import board_title, zone_title

SHAPES = ("circle", "square", "diamond", "triangle", "hull", "none")
TOPS = ("first", "last", "highest", "lowest")


def hints(prog) -> dict:
    """``{"layout": [zone families in order], "types": {type: {colour,
    colour_by, colours, short, shape, about_by, about}}, "boards": {type:
    {colour_by, colours, symbols, labels, title}}, "zones": {family: {group_by,
    top, top_by}}, "titles": {family: title}}`` for the page."""
    data = prog.data if isinstance(prog.data, dict) else {}
    spec = _dict(data.get("presentation"))
    declared = list(prog.families)
    layout = [z for z in spec.get("layout") or [] if z in prog.families]
    layout += [z for z in declared if z not in layout]
    given = _dict(spec.get("components"))
    types = {}
    for name in prog.comp_types:
        mine = _dict(given.get(name))
        types[name] = {
            "colour": mine.get("colour"),
            "colour_by": mine.get("colour_by"),
            "colours": dict(mine.get("colours") or {}),
            "short": mine.get("short"),
            "shape": mine.get("shape") if mine.get("shape") in SHAPES else "circle",
            "about_by": mine.get("about_by"),
            "about": {str(k): " ".join(str(v).split()) for k, v in _dict(mine.get("about")).items()},
        }
    boards = {}
    for name, mine in _dict(spec.get("boards")).items():
        mine = _dict(mine)
        boards[name] = {
            "colour_by": mine.get("colour_by"),
            "colours": {str(k): v for k, v in _dict(mine.get("colours")).items()},
            "symbols": {str(k): str(v) for k, v in _dict(mine.get("symbols")).items()},
            "labels": mine.get("labels") if mine.get("labels") in ("edges", "spaces", "none") else "edges",
            "title": board_title(prog, name),
        }
    zones = {}
    for name, mine in _dict(spec.get("zones")).items():
        mine = _dict(mine)
        zones[name] = {"group_by": mine.get("group_by"),
                       "top": mine.get("top") if mine.get("top") in TOPS else None,
                       "top_by": mine.get("top_by")}
    titles = {name: zone_title(prog, name) for name in declared}
    return {"layout": layout, "types": types, "boards": boards, "zones": zones, "titles": titles}


def _dict(x) -> dict:
    return x if isinstance(x, dict) else {}
