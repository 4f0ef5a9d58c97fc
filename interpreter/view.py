"""What one player may see: ``view(state, player)``.

The single place where hidden information is filtered (as boardgame.io's
``playerView``). A component this player may not see appears without its
identity, only with the properties its type declares ``public`` (its back).
Two states that differ only in what a player cannot see give that player
equal views; agents and the terminal UI only ever get views.
"""

from __future__ import annotations

from rulebook.interpreter.labels import comp_name, player_name
from rulebook.interpreter.ops import can_see, zone_family, zone_label


def component_view(st, c: int, p) -> dict:
    if can_see(st, c, p):
        d = {"id": c, "type": _type(st, c), "name": comp_name(st, c)}
        d.update({k: v for k, v in st.static[c].items() if k != "type"})
        if st.props[c]:
            d.update(st.props[c])
        if st.owner[c] is not None:
            d["owner"] = st.owner[c]
        status = st.prog.comp_types[d["type"]].status
        if status is not None:
            d["status"] = _status(st, c, status)
        return d
    t = _type(st, c)
    back = {"hidden": True, "type": t}
    ct = st.prog.comp_types[t]
    for prop in ct.public:
        if prop in st.static[c]:
            back[prop] = st.static[c][prop]
        elif st.props[c] and prop in st.props[c]:
            back[prop] = st.props[c][prop]
    if st.owner[c] is not None:
        back["owner"] = st.owner[c]
    if ct.back_label is not None:  # the back in words (it reads only public properties)
        back["name"] = _status(st, c, ct.back_label)
    return back


def _status(st, c: int, status) -> str:
    try:
        return status(st, c)
    except Exception:  # like a label, a status must never break a view
        return ""


def _type(st, c: int) -> str:
    return st.cat.types[c] if c < st.cat.n else st.static[c]["type"]


def _told(st, v, kind: str, p):
    """An answer given in public: a component as ``p`` sees it (lists item by item)."""
    if isinstance(v, list):
        return [_told(st, x, kind, p) for x in v]
    if kind == "comp" and isinstance(v, int) and not isinstance(v, bool):
        return component_view(st, v, p)
    return v


def view(st, p) -> dict:
    """The game as player ``p`` sees it (``p=None``: a spectator)."""
    zones = {}
    families = st.prog.families
    for z, zone in enumerate(st.zones):
        name = zone_label(st, z)
        items = [component_view(st, c, p) for c in zone]
        if not families[zone_family(st, z)].ordered and any(i.get("hidden") for i in items):
            # an unordered zone is kept in component order; shown as is, where a hidden
            # component sits would tell which one it is: hidden ones first, by their backs
            hidden = sorted((i for i in items if i.get("hidden")), key=lambda i: sorted(map(str, i.items())))
            items = hidden + [i for i in items if not i.get("hidden")]
        zones[name] = {"count": len(zone), "items": items}
    pvars = []
    for q in range(st.n):
        visible = {k: v for k, v in st.pvars[q].items() if q == p or k not in st.prog.secret_pvars}
        info = {"player": q, "name": player_name(st, q), "eliminated": st.eliminated[q] is True, "vars": visible}
        if st.eliminated[q] and st.eliminated[q] is not True:  # out until a point ('phase', 'cleared')
            info["out"] = st.eliminated[q]
        pvars.append(info)
    out = {
        "viewer": p,
        "phase": st.phase,
        "current": st.current,
        "turn": st.turn,
        "over": st.over,
        "winners": list(st.winners) if st.over else [],
        "vars": dict(st.vars),
        "players": pvars,
        "zones": zones,
        "to_move": _to_move(st),
    }
    if st.pending is not None and p is not None:
        for i, (q, done) in enumerate(zip(st.pending["players"], st.pending["done"])):
            if q == p and not done:
                options = list(st.pending["options"][i])
                from rulebook.interpreter.options import hidden_options

                for k in hidden_options(st, st.pending, i, p):
                    options[k] = {"hidden": True, "index": k}  # no identity for what p cannot see
                prompts = st.pending.get("prompts")
                out["decision"] = {
                    "prompt": prompts[i] if prompts else st.pending.get("prompt", ""),
                    "kind": st.pending["kind"],
                    "options": options,
                }
                break
    if st.pending is not None and st.pending.get("public"):  # 'choose ... public': the answers given so far
        kind = st.pending.get("type", "any").rsplit(":", 1)[-1]
        out["answered"] = [[q, _told(st, st.pending["answers"][i], kind, p)]
                           for i, (q, done) in enumerate(zip(st.pending["players"], st.pending["done"])) if done]
    return out


def _to_move(st) -> list:
    if st.over or st.pending is None:
        return []
    return sorted({q for q, done in zip(st.pending["players"], st.pending["done"]) if not done})
