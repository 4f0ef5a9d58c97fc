"""Write checked expressions (``validator.ir.X``) as Python source.

One small function per operation, in the table ``EMIT``; each returns
Python source over ``st`` (the game state) and the locals of the code it
sits in. Locals are named by the ``Code`` being written: real Python locals
in code that cannot stop at a decision, ``L[slot]`` (the frame's list) in
code that can. Values that are not literals (types, texts of places) are
module constants; helpers come from ``interpreter.lib`` and ``ops``.

Evaluation order is the rule language's: left to right, except where a
helper's arguments are listed in the order the rules read them (a divisor
before the number divided, a zone before what moves into it).
"""

from __future__ import annotations

from rulebook.compiler import option_invariants
from rulebook.compiler.bounds import plain_item, plain_product
from rulebook.compiler.cse import KEEP, chain, key_of
from rulebook.compiler.emit_let import emit_let
from rulebook.compiler.emit_query import (
    LAMBDA_SLOT,
    filter_items,
    inlined,
    iterable,
    lam,
    looped,
    read_invariant,
    search,
)
from rulebook.compiler.emit_return import emit_return_if
from rulebook.compiler.emptiness import compare
from rulebook.compiler.fused import with_fusion
from rulebook.validator.ir import X, walk

MAX_DEPTH = 30  # nesting kept in one Python expression; deeper parts become functions of their own



# operations whose value is a new list nobody else holds: copying it again is waste
FRESH = frozenset({"list", "filter", "map", "flatten", "sorted", "sort_by", "best_each", "reverse", "distinct",
                   "distinct_lists", "distinct_by", "range", "subsets", "components", "copy", "list_plus",
                   "list_plus_one", "list_minus", "list_minus_one", "players", "live_players", "top_n", "bottom_n",
                   "seat_order", "opponents", "within"})


def snapshot(e, x: X) -> str:
    """A list of its own of ``x``'s items (a loop or a question's options
    must not change when a zone does)."""
    return ex(e, x) if x.op in FRESH else f"list({ex(e, x)})"


def ex(e, x: X) -> str:
    if x._depth is None:
        _measure(x)
    if e.invariant_names is not None and id(x) in e.invariant_names:
        return read_invariant(e, x)
    if e.level >= MAX_DEPTH and x._depth > 1:
        return e.hoist(x)
    if x.op in KEEP and e.cse_bound:
        name = e.cse_bound.get(key_of(x))
        if name is not None:
            return name
    e.level += 1
    try:
        if x.op in ("and", "or"):
            return chain(e, x.op, x)
        src = EMIT[x.op](e, *x.a)
    finally:
        e.level -= 1
    once = e.once_plan.get(id(x)) if e.once_plan else None
    if once is not None and not e.in_iterable:
        src = option_invariants.read(once, src)
    kept = e.cse_plan.get(id(x)) if e.cse_plan else None
    if kept is not None and not e.in_iterable:
        name, key = kept
        e.cse_bound[key] = name
        return f"({name} := {src})"
    return src


def condition(e, x: X) -> str:
    return ex(e, x)


def type_of(e, c: X) -> str:
    """A component's type: from the catalogue's table, which holds every
    component when no rule creates one in play."""
    if not e.m.an.created:
        return f"{e.hoisted('cat_types', 'st.cat.types')}[{ex(e, c)}]"
    if c.op == "local":
        return f"(st.cat.types[{ex(e, c)}] if {ex(e, c)} < st.cat.n else st.static[{ex(e, c)}]['type'])"
    return f"type_of(st, {ex(e, c)})"


SCALAR_KINDS = frozenset({"int", "bool", "str", "none", "player", "comp", "zone"})


def text_piece(e, x: X, t, public: bool) -> str:
    """Source of a value written as text in a template. A value that may be
    a list or a map goes through ``words``, which charges the text it would
    make before making it; a number, a name or a text is written at once."""
    if getattr(t, "kind", None) in SCALAR_KINDS:
        return f"describe(st, {ex(e, x)}, {e.const(t)}, {public})"
    return f"words(st, {ex(e, x)}, {e.const(t)}, {public}, {e.const(e.where)})"


def charge_call(code, body: X) -> None:
    """The first lines of a ruleset function that calls functions: the call
    counts one against the work budget. Calls nested in calls (ten calls a
    level, nine levels) are otherwise work no budget sees, since a function
    has neither loops nor queries to count; a function that calls none is
    not charged, its cost being bounded by its body and charged with its
    callers' (ordinary games pay nothing for their small functions); nor is
    one whose calls are all written at their call site (``inlined``), as
    those bodies call no function; a table's call counts as the call it
    stands for (compiler/tabling.py: the budget is spent as without tables)."""
    if any(n.op == "fn" and not inlined(code.m, n.a[0], n.a[3], tables=False) for n in walk(body)):
        code.line("st.work += 1")
        code.line(f"if st.work > {code.limit('max_work')}: over_budget(st, 'calls')")


def _measure(x: X) -> int:
    """The nesting depth of ``x``, kept on each node (computed without recursion)."""
    order, stack = [], [x]
    while stack:
        n = stack.pop()
        if n._depth is not None:
            continue
        order.append(n)
        stack.extend(n.children())
    for n in reversed(order):
        n._depth = 1 + max((c._depth for c in n.children()), default=0)
    return x._depth


EMIT = {
    # ------------------------------------------------------------- values
    "const": lambda e, v: e.const(v),
    "local": lambda e, slot: e.local(slot),
    "list": lambda e, items: "[" + ", ".join(ex(e, i) for i in items) + "]",
    "players": lambda e: "list(range(st.n))",
    "live_players": lambda e: "[p for p in range(st.n) if not st.eliminated[p]]",
    "player_count": lambda e: "st.n",
    "current": lambda e: "st.current",
    "phase": lambda e: "st.phase",
    "turn_number": lambda e: "st.turn",
    "var": lambda e, name: f"st.vars[{name!r}]",
    "param": lambda e, name: e.param(name),
    "shared_zone": lambda e, family: e.shared_zone(family),
    "pvar": lambda e, p, attr: f"st.pvars[{ex(e, p)}][{attr!r}]",
    "field": lambda e, ev, attr: f"{ex(e, ev)}[{attr!r}]",
    "owner": lambda e, c: f"st.owner[{ex(e, c)}]",
    "type_of": lambda e, c: type_of(e, c),
    "dyn": lambda e, c, attr: f"st.props[{ex(e, c)}][{attr!r}]",
    "static": lambda e, c, attr, kind: e.static_prop(c, attr, kind),
    "static_get": lambda e, c, attr: e.static_prop(c, attr, None),
    "list_item": lambda e, xs, i, w: (f"{ex(e, xs)}[{ex(e, i)}]" if plain_item(e, xs, i)
                                      else f"item_of({ex(e, xs)}, {ex(e, i)}, {e.const(w)})"),
    "text_item": lambda e, s, i, w: f"text_item({ex(e, s)}, {ex(e, i)}, {e.const(w)})",
    "slice": lambda e, xs, lo, hi, w: f"sliced({ex(e, xs)}, {'None' if lo is None else ex(e, lo)}, "
                                     f"{'None' if hi is None else ex(e, hi)}, {e.const(w)})",
    "format": lambda e, x, spec, w: f"formatted({ex(e, x)}, {ex(e, spec)}, {e.const(w)})",
    "zone_item": lambda e, z, i, w: f"zone_item(st, {ex(e, z)}, {ex(e, i)}, {e.const(w)})",
    "player_zone": lambda e, fam, p, w: e.player_zone(fam, p, w),
    "comp_zone": lambda e, fam, c, w, per: e.comp_zone(fam, c, w, per),
    # ------------------------------------------------------------- operators
    "ifexpr": lambda e, c, a, b: f"({ex(e, a)} if {ex(e, c)} else {ex(e, b)})",
    "not": lambda e, a: f"(not {ex(e, a)})",
    "cmp": lambda e, op, a, b: compare(e, op, a, b),
    "cmp_sized": lambda e, op, a, b: f"same(st, {ex(e, a)}, {ex(e, b)}, {op == '=='})",
    "in": lambda e, item, coll, neg: e.contains(item, coll, neg),
    "list_plus": lambda e, a, b, w: f"sized({ex(e, a)} + {ex(e, b)}, {e.const(w)}, {e.limit('max_value')})",
    "list_plus_one": lambda e, a, b, w: f"sized({ex(e, a)} + [{ex(e, b)}], {e.const(w)}, {e.limit('max_value')})",
    "list_minus_one": lambda e, a, b: f"minus_one(st, {ex(e, a)}, {ex(e, b)})",
    "list_minus": lambda e, a, b: f"minus(st, {ex(e, a)}, {ex(e, b)})",
    "str_plus": lambda e, a, b, w: f"joined({ex(e, a)}, {ex(e, b)}, {e.const(w)}, {e.limit('max_value')})",
    "arith": lambda e, op, a, b, w: (f"mul({ex(e, a)}, {ex(e, b)}, {e.const(w)}, {e.limit('max_number')})"
                                     if op == "*" and not plain_product(e, a, b) else f"({ex(e, a)} {op} {ex(e, b)})"),
    "div": lambda e, op, a, b, w: f"divide({ex(e, b)}, {ex(e, a)}, {e.const(w)}, {op == '//'})",
    "neg": lambda e, a: f"(-{ex(e, a)})",
    "zone_nonempty": lambda e, z: f"(len(st.zones[{ex(e, z)}]) > 0)",
    "not_none": lambda e, x: f"({ex(e, x)} is not None)",
    "bool": lambda e, x: f"bool({ex(e, x)})",
    "zone_items": lambda e, z: f"st.zones[{ex(e, z)}]",
    "anylist": lambda e, x: f"anylist({ex(e, x)})",
    "copy": lambda e, x: snapshot(e, x),
    "as_list": lambda e, x: f"anylist({ex(e, x)})",
    "face_up": lambda e, x, depth: f"face_up(st, {ex(e, x)}, {depth})",
    "guarded": lambda e, guards, call: "(" + "".join(ex(e, g) + ", " for g in guards) + ex(e, call) + ")[-1]",
    "event_words": lambda e, ev, fields, public: (
        f"describe_fields(st, {ex(e, ev)}, {e.const(dict(fields))}, {public})"),
    "describe": lambda e, x, t, public: text_piece(e, x, t, public),
    "str": lambda e, x: f"text_of(st, {ex(e, x)}, {e.const(e.where)})",
    "fn": lambda e, key, player, event, args: e.call_function(key, player, event, args),
    # ------------------------------------------------------------- built-ins
    "zone_len": lambda e, z: f"len(st.zones[{ex(e, z)}])",
    "len": lambda e, xs: f"len({ex(e, xs)})",
    "sum": lambda e, xs: f"sum({ex(e, xs)})",
    "sum_by": lambda e, xs, slot, key: lam(e, slot, key, xs, "sum([{body} for {t} in {items}])"),
    "pick2": lambda e, fn, a, b: f"{fn}({ex(e, a)}, {ex(e, b)})",
    "pick": lambda e, fn, xs, empty: f"{fn}({ex(e, xs)}, default={empty!r})",
    "pick_key": lambda e, fn, xs, slot, key, empty: lam(e, slot, key, xs, fn + "([{body} for {t} in {items}], "
                                                          f"default={empty!r})"),
    "best_by": lambda e, less, xs, slot, key: e.keyed("best_by", xs, slot, key, f", {less == '<'}"),
    "best_each": lambda e, less, xs, slot, group, value: e.best_each(less == "<", xs, slot, group, value),
    "sorted": lambda e, xs: f"sorted({ex(e, xs)})",
    "sort_by": lambda e, xs, slot, key: e.keyed("sorted", xs, slot, key, "", by_key=True),
    "reverse": lambda e, xs: f"{ex(e, xs)}[::-1]",
    "filter": lambda e, xs, slot, pred: filter_items(e, xs, slot, pred),
    "map": lambda e, xs, slot, f: lam(e, slot, f, xs, "[{body} for {t} in {items}]"),
    "flatten": lambda e, xs: f"flatten(st, {ex(e, xs)})",
    "all_not_none": lambda e, xs: f"(None not in {ex(e, xs)})",
    "any_not_none": lambda e, xs: f"any(x is not None for x in {iterable(e, xs)})",
    "all_zones": lambda e, xs: f"all(st.zones[z] for z in {iterable(e, xs)})",
    "any_zones": lambda e, xs: f"any(st.zones[z] for z in {iterable(e, xs)})",
    "all": lambda e, xs: f"all({ex(e, xs)})",
    "any": lambda e, xs: f"any({ex(e, xs)})",
    "all_by": lambda e, xs, slot, pred: search(e, "all_by", xs, slot, pred, "all({body} for {t} in {items})"),
    "any_by": lambda e, xs, slot, pred: search(e, "any_by", xs, slot, pred, "any({body} for {t} in {items})"),
    "first": lambda e, xs: f"({ex(e, xs)} or NONE1)[0]",
    "first_by": lambda e, xs, slot, pred: search(e, "first_by", xs, slot, pred,
                                                   "next(({t} for {t} in {items} if {body}), None)"),
    "last": lambda e, xs: f"({ex(e, xs)} or NONE1)[-1]",
    "top_n": lambda e, xs, k: f"{ex(e, xs)}[:max({ex(e, k)}, 0)]",
    "bottom_n": lambda e, xs, k: f"bottom_n({ex(e, xs)}, {ex(e, k)})",
    "distinct": lambda e, xs: f"list(dict.fromkeys({ex(e, xs)}))",
    "distinct_lists": lambda e, xs: f"distinct_lists(st, {ex(e, xs)})",
    "distinct_by": lambda e, xs, slot, key: e.keyed("distinct_by", xs, slot, key, ""),
    "range": lambda e, lo, hi, w: f"numbers({ex(e, lo)}, {ex(e, hi)}, {e.const(w)}, {e.limit('max_value')})",
    "abs": lambda e, a: f"abs({ex(e, a)})",
    "random": lambda e, xs: f"pick(st, {ex(e, xs)})",
    "roll": lambda e, k, w: f"roll(st, {ex(e, k)}, {e.const(w)})",
    "index_of": lambda e, xs, x: f"index_in(st, {ex(e, xs)}, {ex(e, x)})",
    "count_of": lambda e, xs, x: e.count_of(xs, x),
    "zone_of": lambda e, c: (f"(st.loc[{ex(e, c)}] if st.loc[{ex(e, c)}] >= 0 else None)" if c.op == "local"
                             else f"zone_of(st, {ex(e, c)})"),
    "zone_owner": lambda e, z: e.zone_owner(z),
    "next_player": lambda e, p, k: f"next_player(st, {ex(e, p)}, {ex(e, k)})",
    "seat_order": lambda e, p: f"seat_order(st, {ex(e, p)})",
    "opponents": lambda e, p: f"opponents(st, {ex(e, p)})",
    "alive": lambda e, p: f"(not st.eliminated[{ex(e, p)}])",
    "in_game": lambda e, p: f"(st.eliminated[{ex(e, p)}] is not True)",
    "components": lambda e, name: f"components_of(st, {name!r})",
    "subsets": lambda e, xs, lo, hi, w: (f"subsets({ex(e, xs)}, {'None' if hi is None else ex(e, hi)}, {ex(e, lo)}, "
                                         f"{e.const(w)})"),
    "sees": lambda e, p, what: f"sees(st, {ex(e, what)}, {ex(e, p)})",
    "is_face_up": lambda e, c: f"st.face[{ex(e, c)}]",
    "seat": lambda e, p: f"({ex(e, p)} + 1)",
    "neighbours": lambda e, s: f"neighbours(st, {ex(e, s)})",
    "distance": lambda e, a, b: f"distance(st, {ex(e, a)}, {ex(e, b)})",
    "space_at": lambda e, name, k: f"st.cat.boards[{name!r}].by_key.get({ex(e, k)})",
    "space_at2": lambda e, name, a, b: f"st.cat.boards[{name!r}].by_key.get(({ex(e, a)}, {ex(e, b)}))",
    "space_at_in": lambda e, name, i, *keys: f"space_at_in(st, {name!r}, {', '.join(ex(e, k) for k in (i, *keys))})",
    "within": lambda e, s, k, slot, pred: e.within(s, k, slot, pred),
    "let_in": emit_let,
    "return_if": emit_return_if,
    "lines": lambda e, name, k, through, w: f"board_lines(st, {name!r}, {ex(e, k)}, "
                                            f"{'None' if through is None else ex(e, through)}, {e.const(w)})",
}

EMIT.update(with_fusion(EMIT))  # chains of map/filter/flatten/range read as one loop (compiler/fused.py)


__all__ = ["EMIT", "LAMBDA_SLOT", "charge_call", "ex", "inlined", "looped", "snapshot", "text_piece"]
