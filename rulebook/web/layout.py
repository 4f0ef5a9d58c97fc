"""The table as plain data for a browser: one seat's view, laid out.

``seat_table`` turns ``interpreter.view.view(state, seat)`` (the only
source of what a seat sees), the narration meant for that seat, the live
scores it may know and the pending decision's legal options into one JSON
document that the page in ``rulebook/web`` draws. Nothing here names a
game: zones, players, variables and boards come from the ruleset's own
declarations, and how they look from its optional ``presentation`` hints
(``rulebook.display.presentation``, which the terminal reads too: a zone's
stacks are grouped there, once, for both).

``author_table`` is the same document for the author's panel, drawn with
every face shown (the author sees the whole state); it is only ever sent
to a client holding the author's token.
"""

from __future__ import annotations

from rulebook.display import presentation
from rulebook.display.axes import axis_names
from rulebook.display.scores import breakdown, live_scores
from rulebook.display.targets import option_targets
from rulebook.display.titles import board_title, phase_title, words
from rulebook.interpreter.boards import drawn_boards
from rulebook.interpreter.labels import comp_name, player_name
from rulebook.interpreter.ops import zone_family, zone_key, zone_label
from rulebook.interpreter.view import component_view, view
from rulebook.web.help import descriptions


def seat_table(game, st, seat, log: list[dict], seen: set[str], forced_answered: bool = True) -> dict:
    """What seat ``seat`` (None: a spectator) may see, ready to draw.
    ``log``: the narrated lines meant for it; ``seen``: the zone families
    that have held a component in this game (others, empty, are left off).
    ``forced_answered``: a decision with one legal option is answered by
    the server at once, so it is not offered."""
    v = view(st, seat)
    decision = _decision(game, st, seat)
    if decision is not None and forced_answered and len(decision["options"]) == 1:
        decision = None
    return _table(game, st, v, seat, log, seen, live_scores(game, st, seat), decision)


def author_table(game, st, log: list[dict], seen: set[str]) -> dict:
    """The whole table with every face shown, for the author's panel."""
    v = view(st, None)
    for z, zone in enumerate(st.zones):
        v["zones"][zone_label(st, z)]["items"] = [_full_item(st, c) for c in zone]
    v["players"] = [dict(p, vars=dict(st.pvars[p["player"]])) for p in v["players"]]
    scores = game.scores(st) if game.program.score is not None else None
    return _table(game, st, v, None, log, seen, scores, None)


def _full_item(st, c: int) -> dict:
    d = {"id": c, "type": st.cat.types[c] if c < st.cat.n else st.static[c]["type"], "name": comp_name(st, c)}
    d.update({k: val for k, val in st.static[c].items() if k != "type"})
    if st.props[c]:
        d.update(st.props[c])
    if st.owner[c] is not None:
        d["owner"] = st.owner[c]
    if not st.face[c]:
        d["down"] = True  # face down at the table: the author sees it anyway
    status = st.prog.comp_types[d["type"]].status
    if status is not None:
        try:
            d["status"] = status(st, c)
        except Exception:  # a status must never break the table
            pass
    return d


def _table(game, st, v: dict, seat, log, seen, scores, decision) -> dict:
    prog = st.prog
    hints = presentation.hints(prog)
    players = []
    for q in range(st.n):
        info = v["players"][q]
        players.append({
            "seat": q,
            "name": player_name(st, q),
            "you": q == seat,
            "to_move": q in v["to_move"],
            "current": q == v["current"],
            "eliminated": info["eliminated"],
            "winner": v["over"] and q in v["winners"],
            "vars": [x for x in _vars(st, info["vars"], prog.pvar_types, seat, prog.pvar_shown, q)
                     if x["text"] != player_name(st, q)],  # "character Kid" under Kid says nothing
            "score": None if scores is None else scores[q],
        })
    boards, board_zones = _boards(st, v, hints)
    zones = _zones(st, v, seat, hints, seen, board_zones)
    public = {k: val for k, val in v["vars"].items() if k != "direction"}
    table_vars = _vars(st, public, prog.var_types, seat, prog.var_shown)
    if v["vars"].get("direction", 1) == -1:
        table_vars.append({"name": "direction", "text": "reversed"})
    return {
        "title": prog.title,
        "variants": list(prog.variants),
        "phase": v["phase"],
        "phase_title": phase_title(prog, v["phase"]),
        "turn": v["turn"],
        "over": v["over"],
        "winners": [player_name(st, q) for q in v["winners"]],
        "current": None if v["current"] is None else player_name(st, v["current"]),
        "viewer": seat,
        "has_score": scores is not None,
        "players": players,
        "vars": table_vars,
        "zones": zones,
        "boards": boards,
        "decision": decision,
        "log": log,
        "types": hints["types"],
        "texts": descriptions(prog),
        "steps": len(st.history),
        "breakdown": _breakdown(game, st) if v["over"] else None,
    }


def _breakdown(game, st) -> list[dict] | None:
    """The final scores by the scoring section's parts, once the game is over."""
    rows = breakdown(game, st)
    if rows is None:
        return None
    return [dict(r, name=player_name(st, r["player"]), parts=[[k, val] for k, val in r["parts"]]) for r in rows]


def _vars(st, values: dict, types: dict, seat, shown: dict, owner: int | None = None) -> list[dict]:
    """The variables the table draws, each named in words and its value in
    the words of its ``shown_as`` (as the terminal draws them)."""
    from rulebook.terminal.screen import shown_var
    from rulebook.terminal.table import shown_value

    return [{"name": words(k), "text": shown_value(st, k, val, types.get(k), seat, shown, owner)}
            for k, val in values.items() if shown_var(st.prog, k, val, types.get(k))]


def _item(item: dict, zone_of: str | None) -> dict:
    """A component as the page draws it: only what the view holds."""
    out = {"type": item.get("type"), "hidden": bool(item.get("hidden"))}
    if "id" in item:
        out["id"] = item["id"]
    if item.get("name"):
        out["name"] = str(item["name"])
    if item.get("status"):
        out["status"] = str(item["status"])
    if isinstance(item.get("owner"), int):
        out["owner"] = item["owner"]
    if item.get("down"):
        out["down"] = True
    out["props"] = {k: val for k, val in item.items()
                    if k not in ("id", "type", "name", "status", "owner", "hidden", "down")
                    and isinstance(val, (str, int, float)) and not isinstance(val, bool)}
    return out


def _stacks(items: list[dict], hint: dict | None, zone_of: str | None) -> list[dict] | None:
    """The zone's stacks as the terminal draws them too (``presentation.stacks``), each item as the page draws it."""
    groups = presentation.stacks(items, hint)
    if groups is None:
        return None
    return [dict(g, value="?" if g["value"] is None else g["value"], items=[_item(i, zone_of) for i in g["items"]])
            for g in groups]


def _zones(st, v: dict, seat, hints: dict, seen: set[str], skip: set[str]) -> list[dict]:
    """Every zone worth drawing, in the layout order: a zone of a family no
    rule of the chosen variants names, or one that has never held anything
    and is empty, is left off; zones kept per component show only when
    they hold something."""
    prog = st.prog
    families = prog.families
    used = prog.used_zones or frozenset(families)
    order = hints["layout"]
    out = []
    for z in range(len(st.zones)):
        fam = families[zone_family(st, z)]
        name = zone_label(st, z)
        zone = v["zones"][name]
        if fam.name in skip or fam.name in prog.unshown_zones:  # drawn on a board, or 'show: false'
            continue
        if not zone["count"] and (fam.name not in used or fam.name not in seen or fam.per not in (None, "player")):
            continue
        key = zone_key(st, z)
        owner, label = None, hints["titles"][fam.name]
        if fam.per == "player":
            owner = key
        elif fam.per is not None:
            kv = component_view(st, key, seat)
            label = f"{label} of {kv.get('name') or kv.get('type')}"
            owner = kv.get("owner") if isinstance(kv.get("owner"), int) else None
        out.append({
            "id": name,
            "family": fam.name,
            "label": label,
            "owner": owner,
            "count": zone["count"],
            "visibility": fam.visibility,
            "items": [_item(i, fam.of) for i in zone["items"]],
            "stacks": _stacks(zone["items"], hints["zones"].get(fam.name), fam.of),
            "order": order.index(fam.name) if fam.name in order else len(order),
        })
    out.sort(key=lambda e: e["order"])
    return out


def _boards(st, v: dict, hints: dict) -> tuple[list[dict], set[str]]:
    """Every board: its spaces (public: a board's spaces are components
    everybody sees), their terrain, and the pieces on them from the view."""
    out, shown = [], set()
    prog = st.prog
    for tname, part, board in drawn_boards(st):  # a board kept per seat: each seat's part
        ct = prog.comp_types[tname]
        spec = ct.board or {}
        if spec.get("show") is False:  # kept off the table: a display choice, the view still holds its pieces
            continue
        show = spec.get("show") or {}
        terrain, pieces = show.get("terrain"), show.get("pieces")
        look = hints["boards"].get(tname) or {}
        colour_by = look.get("colour_by") or terrain
        if pieces:
            shown.add(pieces)
        spaces = []
        grid = board.kind in ("hex", "square")
        # the board's names for its columns and rows (board.axes), as the terminal map shows them
        col_names = axis_names(spec, "col", sorted({st.static[c].get("col") for c in board.ids})) if grid else {}
        row_names = axis_names(spec, "row", sorted({st.static[c].get("row") for c in board.ids})) if grid else {}
        for c in board.ids:
            props = dict(st.static[c])
            if st.props[c]:
                props.update(st.props[c])
            value = props.get(terrain) if terrain else None
            items = []
            if pieces:
                zone = v["zones"].get(f"{pieces}[{c}]")
                items = [_item(i, None) for i in (zone["items"] if zone else [])]
            colour_value = props.get(colour_by) if colour_by else None
            glyph = (show.get("glyphs") or {}).get(str(value)) if terrain else None
            if look.get("symbols") or look.get("colours"):
                glyph = look.get("symbols", {}).get(str(colour_value))  # the hints' symbols replace the glyphs
            space = {"id": c, "name": comp_name(st, c), "terrain": None if value is None else str(value),
                     "colour_value": None if colour_value is None else str(colour_value),
                     "colour": (look.get("colours") or {}).get(str(colour_value)), "glyph": glyph,
                     "pieces": items}
            if board.kind in ("hex", "square"):
                space["col"], space["row"] = props.get("col"), props.get("row")
                space["at"] = f"{col_names[space['col']]},{row_names[space['row']]}"
            spaces.append(space)
        edges = []
        if board.kind == "graph":
            edges = sorted({tuple(sorted((a, b))) for a in board.ids for b in board.adj.get(a, ())})
        out.append({"type": tname, "title": board_title(prog, tname, part), "kind": board.kind,
                    "layout": spec.get("layout", "odd-r"),
                    "spaces": spaces, "edges": [list(e) for e in edges],
                    "labels": look.get("labels", "edges"), "swatches": dict(look.get("colours") or {}),
                    "col_names": {str(k): str(n) for k, n in col_names.items()},
                    "row_names": {str(k): str(n) for k, n in row_names.items()},
                    "legend": {} if look.get("colours") else {str(k): str(val) for k, val in
                                                               (show.get("legend") or {}).items()}})
    return out, shown


def _decision(game, st, seat) -> dict | None:
    """The pending decision of ``seat``: its prompt and its legal options,
    each with the components, spaces and players it names that the seat
    may see (the page lets a click on one of them pick the option)."""
    if seat is None or seat not in game.to_move(st):
        return None
    options = []
    for o in game.options(st, seat):
        options.append({"index": o.index, "label": o.label, "targets": option_targets(st, o.value, seat)})
    try:
        seconds = game.time_limit(st, seat)
    except Exception:  # no limit can be read: none is shown
        seconds = None
    return {"prompt": game.prompt(st, seat), "kind": (st.pending or {}).get("kind"), "options": options,
            "seconds": seconds or None, "number": len(st.history)}  # an answer names the decision it answers
