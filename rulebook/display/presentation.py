"""The ruleset's optional presentation hints, read by both tables that
draw a game: the browser's (``rulebook serve``, ``rulebook.web.layout``)
and the terminal's (``rulebook play``, ``rulebook.terminal.table``); see
docs/format.md#presentation. One reading for both, so that a zone grouped
into stacks or a card coloured by its suit looks the same in each:
``hints`` (what the ruleset declares, defaults filled in), ``stacks`` (a
zone's items grouped as declared, each stack's top marked) and ``colour``
(the declared colour of an item).

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


def stacks(items: list[dict], hint: dict | None) -> list[dict] | None:
    """A zone's items (as ``interpreter.view`` gives them) grouped into
    stacks by the zone's ``group_by`` hint: ``[{"value": "coins", "items":
    [bottom ... top], "top": True}]``, one stack per value in the order
    the values first appear; an item whose value the viewer does not see
    (face down, its back not showing it) goes in a stack of value None. The items of a stack are
    ordered so that its top comes last: ``top: first`` reverses them,
    ``highest``/``lowest`` sorts them by ``top_by``; ``top`` is whether the
    last one is marked as the top (a ``top`` hint is given and the stack's
    value is known). None: the zone is not grouped."""
    hint = hint or {}
    by = hint.get("group_by")
    if not by:
        return None
    groups: dict = {}
    for item in items:
        value = item.get(by) if isinstance(item.get(by), (str, int, float)) else None  # a back may show it
        groups.setdefault(None if value is None else str(value), []).append(item)
    top, key = hint.get("top"), hint.get("top_by")
    out = []
    for value, members in groups.items():
        ordered = list(members)
        if top == "first":
            ordered.reverse()
        elif top in ("highest", "lowest") and key:
            ordered.sort(key=lambda it: _number(it.get(key)), reverse=top == "lowest")
        out.append({"value": value, "items": ordered, "top": bool(top) and value is not None})
    return out


def _number(x) -> float:
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else 0.0


def colour(item: dict, types: dict) -> str | None:
    """The colour the ruleset declares for a face-up item: its type's
    ``colours`` entry for the value of ``colour_by``, else the type's
    ``colour``; None when it declares none (``types``: ``hints()["types"]``)."""
    if item.get("hidden"):
        return None
    hint = types.get(item.get("type")) or {}
    by = hint.get("colour_by")
    if by and item.get(by) is not None:
        found = (hint.get("colours") or {}).get(str(item.get(by)))
        if found:
            return str(found)
    return str(hint["colour"]) if hint.get("colour") else None


def _dict(x) -> dict:
    return x if isinstance(x, dict) else {}
