"""The ruleset's optional presentation hints, read for the tables that
draw it (``rulebook serve``; see docs/format.md#presentation).

Hints never change the rules and are optional: without them every zone is
drawn in the order it is declared and every component type gets a colour of
its own (a stable hash of its name), so a table looks right as it is. The
validator checks the names a hint uses (``validator/presentation.py``).
"""

from __future__ import annotations


def hints(prog) -> dict:
    """``{"layout": [zone families in order], "types": {type: {colour,
    colour_by, colours, short}}}`` for the page."""
    data = prog.data if isinstance(prog.data, dict) else {}
    spec = data.get("presentation") if isinstance(data.get("presentation"), dict) else {}
    declared = list(prog.families)
    layout = [z for z in spec.get("layout") or [] if z in prog.families]
    layout += [z for z in declared if z not in layout]
    given = spec.get("components") if isinstance(spec.get("components"), dict) else {}
    types = {}
    for name in prog.comp_types:
        mine = given.get(name) if isinstance(given.get(name), dict) else {}
        types[name] = {
            "colour": mine.get("colour"),
            "colour_by": mine.get("colour_by"),
            "colours": dict(mine.get("colours") or {}),
            "short": mine.get("short"),
        }
    return {"layout": layout, "types": types}
