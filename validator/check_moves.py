"""Check the statements that move components: move, draw, deal, shuffle,
reveal, hide, remove, create, swap."""

from __future__ import annotations

from rulebook.dsl import ast as A
from rulebook.validator.check_expr import expect, listy
from rulebook.validator.diagnostics import did_you_mean
from rulebook.validator.expr_access import zone_of_family
from rulebook.validator.ir import S, X
from rulebook.validator.types import COMP, INT, PLAYER, compatible, elem_type


def comps(ck, node, cx, what):
    """(X giving a new list of components, element type)."""
    x, t = ck.expr(node, cx)
    if t.kind == "zone":
        return X("copy", X("zone_items", x)), COMP(t.arg)
    if t.kind == "list":
        if t.arg.kind not in ("comp", "any", "error"):
            cx.error("E041", f"{what} needs components, not {t}", node.pos)
        return X("copy", x), t.arg
    if t.kind in ("comp", "any", "error", "none"):
        return X("as_list", x), t
    cx.error("E041", f"{what} needs a component or a list of them, not {t}", node.pos)


def zone_arg(ck, node, cx, what):
    x, t = ck.expr(node, cx)
    if t.kind == "family":
        cx.error(
            "E045",
            f"zone '{t.arg}' is one per {ck.families[t.arg].per}: say whose, e.g. {t.arg}[player]",
            node.pos,
        )
    if t.kind not in ("zone", "any", "error"):
        cx.error("E041", f"{what} must be a zone, not {t}", node.pos)
    return x, t


def check_move_stmt(ck, s, cx):
    what, _ = comps(ck, s.what, cx, "move")
    dest, dt = zone_arg(ck, s.dest, cx, "the destination of move")
    return S("move", cx.where(s.pos), what, dest, s.position, s.face, zone_family_of(ck, s.dest, dt))


def zone_family_of(ck, node, t) -> str | None:
    """The zone family a zone expression names, when the checker can tell
    (a shared zone by name, or ``family[key]``): the compiler then knows
    the destination's kind (ordered, face, a face-up pile) at load."""
    if isinstance(node, A.Name) and node.id in ck.families and ck.families[node.id].per is None:
        return node.id
    if isinstance(node, A.Index) and isinstance(node.obj, A.Name) and node.obj.id in ck.families \
            and ck.families[node.obj.id].per is not None:
        return node.obj.id
    return None


def check_draw_stmt(ck, s, cx):
    count = expect(ck, s.count, cx, INT, "the number of cards to draw") if s.count else None
    src, st = zone_arg(ck, s.source, cx, "draw ... from")
    dest, dt = zone_arg(ck, s.dest, cx, "draw ... to")
    return S("draw", cx.where(s.pos), count, src, dest, s.face, zone_family_of(ck, s.source, st),
             zone_family_of(ck, s.dest, dt))


def check_deal_stmt(ck, s, cx):
    count = expect(ck, s.count, cx, INT, "the number of cards to deal")
    src, _ = zone_arg(ck, s.source, cx, "deal ... from")
    fam = ck.families.get(s.family)
    if fam is None:
        cx.error(
            "E031", f"unknown zone '{s.family}'", s.family_pos, did_you_mean(s.family, ck.families), len(s.family)
        )
    ck.used_zones.add(s.family)
    if fam.per is None:
        cx.error(
            "E041",
            f"deal gives each player (or component) a share; '{s.family}' is one shared zone",
            s.family_pos,
            f"to put cards in '{s.family}', write: draw N from ... to {s.family}",
        )
    if fam.per != "player" and s.recipients is None:
        cx.error(
            "E041",
            f"deal goes to a zone kept one per player; '{s.family}' is not",
            s.family_pos,
            "add 'for <list of components>' to deal to one zone per component",
        )
    if s.recipients is not None:
        recips, rt = listy(ck, s.recipients, cx, "deal ... for")
    else:
        recips, rt = X("seat_order", X("const", 0)), PLAYER
    # each recipient's zone is found as 'family[recipient]' is, with the same checks: the
    # recipients' type at load (E041), a seat or component that is not one at run time (R104)
    held = " deal recipient"  # a name rule text cannot write
    slot = cx.scope.fresh(held, rt)
    try:
        zone_of, _ = zone_of_family(ck, s.family, A.Name(held, (s.recipients or s).pos), s, cx)
    finally:
        del cx.scope.names[held]
    return S("deal", cx.where(s.pos), count, src, recips, slot, zone_of)


def check_shuffle_stmt(ck, s, cx):
    z, _ = zone_arg(ck, s.zone, cx, "shuffle")
    return S("shuffle", cx.where(s.pos), z)


def check_reveal_stmt(ck, s, cx):
    what, _ = comps(ck, s.what, cx, "reveal")
    if s.to is None:
        return S("reveal", cx.where(s.pos), what, None)
    to, tt = ck.expr(s.to, cx)
    if tt.kind in ("player", "int"):
        to = X("list", (to,))
    elif not (tt.kind in ("list", "any", "error") and elem_type(tt).kind in ("player", "int", "any", "error",
                                                                             "none")):
        cx.error("E041", f"reveal ... to needs a player or a list of players, not {tt}", s.to.pos)
    return S("reveal", cx.where(s.pos), what, to)


def check_hide_stmt(ck, s, cx):
    what, _ = comps(ck, s.what, cx, "hide")
    return S("hide", cx.where(s.pos), what)


def check_remove_stmt(ck, s, cx):
    what, _ = comps(ck, s.what, cx, "remove")
    return S("remove", cx.where(s.pos), what)


def check_create_stmt(ck, s, cx):
    ct = ck.comp_types.get(s.type_name)
    if ct is None:
        cx.error(
            "E039",
            f"unknown component type '{s.type_name}'",
            s.type_pos,
            did_you_mean(s.type_name, ck.comp_types),
            len(s.type_name),
        )
    cx.note("component", s.type_name, s.type_pos)
    zone, _ = zone_arg(ck, s.zone, cx, "create ... in")
    props = []
    for kw in s.props:
        if kw.name not in ct.static:
            cx.error("E032", f"'{ct.name}' has no property '{kw.name}'", kw.pos, None)
        x, t = ck.expr(kw.value, cx)
        want = ct.static[kw.name]
        if not compatible(want, t) and t.kind != "none":  # as 'set' checks a value against its place
            cx.error("E041", f"'{ct.name}' property '{kw.name}' is {want}, and this is {t}", kw.value.pos)
        props.append((kw.name, x))
    missing = set(ct.static) - {k for k, _ in props}
    if missing:
        cx.error("E046", f"create {ct.name} needs {', '.join(sorted(missing))}", s.pos)
    slot = cx.scope.declare(s.name, COMP(ct.name)) if s.name else None
    return S("create", cx.where(s.pos), ct.name, zone, tuple(props), slot)


def check_swap_stmt(ck, s, cx):
    a, at = ck.expr(s.first, cx)
    b, bt = ck.expr(s.second, cx)
    for node, t in ((s.first, at), (s.second, bt)):
        if t.kind not in ("comp", "any", "error"):
            cx.error("E041", f"swap exchanges the places of two components, not {t}", node.pos)
    return S("swap", cx.where(s.pos), a, b)
