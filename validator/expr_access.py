"""Check reading into a value: ``x.prop``, ``x[i]``, ``x[a:b]`` and a family's zone ``hand[p]``."""

from __future__ import annotations

from rulebook.dsl import ast as A
from rulebook.validator.check_expr import as_list, face_up_only
from rulebook.validator.diagnostics import did_you_mean
from rulebook.validator.ir import X
from rulebook.validator.types import ANY, COMP, INT, LIST, PLAYER, STR, ZONE, Type, compatible, elem_type, is_listy


# ----------------------------------------------------------- access
def check_attribute(ck, n, cx):
    obj, t = ck.expr(n.obj, cx)
    attr = n.attr
    if attr.startswith("_"):
        cx.error("E032", f"'{attr}': names starting with '_' are not part of the language", n.pos)
    if t.kind == "error":
        return obj, t
    if t.kind == "comp":
        return comp_attr(ck, obj, t, attr, n, cx)
    if t.kind == "player":
        if attr in ck.pvar_types:
            return X("pvar", obj, attr), ck.pvar_types[attr]
        cx.error(
            "E032",
            f"players have no variable '{attr}'",
            n.pos,
            did_you_mean(attr, ck.pvar_types) or "declare it under player_vars",
            len(attr),
        )
    if t.kind == "map":
        fields = ck.events.get(cx.scope.event or "", {})
        if fields and attr not in fields:
            cx.error(
                "E032",
                f"event '{cx.scope.event}' has no field '{attr}'",
                n.pos,
                did_you_mean(attr, fields),
                len(attr),
            )
        return X("field", obj, attr), fields.get(attr, ANY)
    if t.kind in ("any", "error", "none"):
        in_comps = any(attr in ct.static or attr in ct.dynamic for ct in ck.comp_types.values()) or attr in (
            "owner",
            "type",
            "id",
        )
        in_players = attr in ck.pvar_types
        if in_comps and not in_players:
            return comp_attr(ck, obj, COMP(None), attr, n, cx)
        if in_players and not in_comps:
            return X("pvar", obj, attr), ck.pvar_types[attr]
        cx.error(
            "E041",
            f"cannot tell what kind of value '.{attr}' is read from",
            n.pos,
            "give the value a known type, e.g. through a typed zone ('of:') or a procedure parameter",
        )
    cx.error("E041", f"a {t} has no properties ('.{attr}')", n.pos)


def comp_attr(ck, obj: X, t: Type, attr: str, n, cx):
    types = [ck.comp_types[t.arg]] if t.arg else list(ck.comp_types.values())
    if cx.public and attr != "type" and not all(attr in ct.public for ct in types):
        obj = face_up_only(obj)
    if attr == "owner":
        return X("owner", obj), PLAYER
    if attr == "type":
        return X("type_of", obj), STR
    if attr == "id":
        return obj, INT
    for ct in types:
        if attr in ct.dynamic:
            ck.read_props.add((ct.name if t.arg else None, attr))
            return X("dyn", obj, attr), ct.dynamic[attr]
    for ct in types:
        if attr in ct.static:
            ck.read_props.add((ct.name if t.arg else None, attr))
            if t.arg:
                return X("static", obj, attr, t.arg), ct.static[attr]
            return X("static_get", obj, attr), ct.static[attr]
    known = set()
    for ct in types:
        known |= set(ct.static) | set(ct.dynamic)
    what = f"'{t.arg}'" if t.arg else "any component type"
    cx.error("E032", f"{what} has no property '{attr}'", n.pos, did_you_mean(attr, known), len(attr))


def check_index(ck, n, cx):
    obj, t = ck.expr(n.obj, cx)
    if t.kind == "family":
        return zone_of_family(ck, t.arg, n.key, n, cx)
    key, kt = ck.expr(n.key, cx)
    if t.kind == "error":
        return obj, t
    if t.kind in ("list", "any", "error"):
        if not compatible(INT, kt):
            cx.error("E041", f"a list index must be a number, not {kt}", n.key.pos)
        return X("list_item", obj, key, cx.where(n.pos)), elem_type(t)
    if t.kind == "str":
        if not compatible(INT, kt):
            cx.error("E041", f"a text's index must be a number, not {kt}", n.key.pos)
        return X("text_item", obj, key, cx.where(n.pos)), STR
    if t.kind == "zone":
        if kt.kind == "player" and isinstance(n.obj, A.Name) and n.obj.id in ck.families:
            cx.error("E041", f"'{n.obj.id}' is one shared zone: {n.obj.id}[...] is the component at a "
                     "position, and this index is a player", n.key.pos,
                     f"drop the index, or declare '{n.obj.id}' with 'per: player' to give each player one")
        return X("zone_item", obj, key, cx.where(n.pos)), COMP(t.arg)
    cx.error("E041", f"a {t} cannot be indexed with [...]", n.pos)


def check_slice(ck, n, cx):
    obj, t = ck.expr(n.obj, cx)
    bounds = []
    for b in (n.lo, n.hi):
        if b is None:
            bounds.append(None)
            continue
        x, bt = ck.expr(b, cx)
        if bt.kind not in ("int", "any", "error", "player"):
            cx.error("E041", f"a slice's bound must be a number, not {bt}", b.pos)
        bounds.append(x)
    if t.kind == "str":
        return X("slice", obj, bounds[0], bounds[1], cx.where(n.pos)), STR
    if not is_listy(t):
        cx.error("E041", f"a {t} cannot be sliced with [a:b]: only lists, zones and texts", n.pos)
    return X("slice", as_list(obj, t), bounds[0], bounds[1], cx.where(n.pos)), LIST(elem_type(t))


def zone_of_family(ck, name: str, key_node, n, cx):
    fam = ck.families[name]
    key, kt = ck.expr(key_node, cx)
    where = cx.where(n.pos)
    if fam.per == "player":
        if not compatible(PLAYER, kt) and kt.kind != "int":
            cx.error("E041", f"zone '{name}' is one per player; its index must be a player, not {kt}", key_node.pos)
        return X("player_zone", name, key, where), ZONE(fam.of)
    if not compatible(COMP(fam.per), kt):
        cx.error(
            "E041", f"zone '{name}' is one per {fam.per}; its index must be a {fam.per}, not {kt}", key_node.pos
        )
    return X("comp_zone", name, key, where, fam.per), ZONE(fam.of)
