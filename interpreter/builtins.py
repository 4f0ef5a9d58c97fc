"""The built-in functions of the rule language.

Each entry is (min args, max args, handler). A handler compiles one call:
it checks argument types and returns ``(closure, type)``. Functions that
take a function argument (``filter(xs, c => ...)``) bind its parameter to a
fresh local slot of the running frame.
"""

from __future__ import annotations

import itertools

from interpreter import ops
from interpreter.compile_expr import CompileError, as_list_fn, const, face_up_only, fused, via
from interpreter.errors import BAD_VALUE, RuleError
from interpreter.fuse import fuse, has_src, name_for, part
from interpreter.labels import literal
from interpreter.program import ANY, BOOL, COMP, INT, LIST, PLAYER, STR, Type, elem_type, is_listy

MAX_SUBSETS = 5000


def charge(st, n: int) -> None:
    """Count items visited by queries against the work budget, so that one
    expression cannot run away where the step limit does not look."""
    st.work += n
    limit = st.prog.limits["max_work"]
    if st.work > limit:
        raise RuleError("R100", f"queries visited more than {limit} items without a decision",
                        hint="a query inside a query over large lists; narrow the lists first")


def charged(st, items):
    """``items``, counted against the work budget (for fused queries)."""
    charge(st, len(items))
    return items


def _loop(fallback, template, xs, slot, body):
    """``fallback`` fused as a Python comprehension over ``xs`` that binds
    each item to the local ``slot``, as the closure's loop does (the last
    item visited stays in the slot, and the work budget is charged first)."""
    if not has_src(xs, body):
        return fallback
    env: dict = {}
    items = f"{name_for(charged, env)}(st, {part(xs, env)})"
    src = template.format(body=part(body, env), target=f"L[{slot}]", items=items)
    return fuse(fallback, src, env, xs, body)


def _count(c, n, cx):
    fn, t = c.expr(n.args[0], cx)
    if t.kind == "zone":
        return fused(lambda st, L: len(st.zones[fn(st, L)]), "len(st.zones[{0}])", fn), INT
    if not is_listy(t):
        cx.error("E041", f"count() needs a list or a zone, not {t}", n.args[0].pos)
    return fused(lambda st, L: len(fn(st, L)), "len({0})", fn), INT


def _is_empty(c, n, cx):
    fn, _ = _count(c, n, cx)
    return fused(lambda st, L: fn(st, L) == 0, "({0} == 0)", fn), BOOL


def _with_key(c, n, cx, name):
    xs, et = c.listy(n.args[0], cx, f"the first argument of {name}()")
    if len(n.args) == 1:
        return xs, et, None, et
    slot, key, kt = c.lam(n.args[1], cx, et, f"{name}()")
    return xs, et, (slot, key), kt


def _sum(c, n, cx):
    xs, et, k, kt = _with_key(c, n, cx, "sum")
    if kt.kind not in ("int", "any", "error", "none", "player"):  # players are seat numbers
        cx.error("E041", f"sum() adds numbers, not {kt}", n.pos)
    if k is None:
        return fused(lambda st, L: sum(xs(st, L)), "sum({0})", xs), INT
    slot, key = k

    def total(st, L):
        s = 0
        items = xs(st, L)
        charge(st, len(items))
        for x in items:
            L[slot] = x
            s += key(st, L)
        return s

    return _loop(total, "sum({body} for {target} in {items})", xs, slot, key), INT


def _minmax(pick):
    def handler(c, n, cx):
        first, ft = c.expr(n.args[0], cx)
        if not is_listy(ft):  # max(a, b): two numbers
            if len(n.args) != 2:
                cx.error("E040", f"{n.func}() takes a list, or two numbers", n.pos)
            second, second_t = c.expr(n.args[1], cx)
            for arg, t in ((n.args[0], ft), (n.args[1], second_t)):
                if t.kind not in ("int", "any", "error", "player", "comp", "none"):  # components go by id
                    cx.error("E041", f"{n.func}(a, b) takes two numbers, not {t}", arg.pos,
                             f"{n.func}([a, b]) gives the {'least' if n.func == 'min' else 'greatest'} of a list")
            return via(pick, False, first, second), ft if ft.kind == "comp" else INT
        xs, et, k, kt = _with_key(c, n, cx, n.func)
        if k is None:
            empty = None if et.kind in ("comp", "player") else 0
            return via(lambda v: pick(v, default=empty), False, xs), et

        slot, key = k
        empty_key = None if kt.kind in ("comp", "player") else 0

        def best(st, L):
            vals = []
            items = xs(st, L)
            charge(st, len(items))
            for x in items:
                L[slot] = x
                vals.append(key(st, L))
            return pick(vals, default=empty_key)

        if not has_src(xs, key):
            return best, kt
        env: dict = {}
        items = f"{name_for(charged, env)}(st, {part(xs, env)})"
        src = (f"{name_for(pick, env)}([{part(key, env)} for L[{slot}] in {items}], "
               f"default={name_for(empty_key, env)})")
        return fuse(best, src, env, xs, key), kt

    return handler


def _by(better):
    def handler(c, n, cx):
        xs, et, k, _ = _with_key(c, n, cx, n.func)
        slot, key = k

        def best(st, L):
            found = None
            best_key = None
            items = xs(st, L)
            charge(st, len(items))
            for x in items:
                L[slot] = x
                kv = key(st, L)
                if found is None or better(kv, best_key):
                    found, best_key = x, kv
            return found

        return best, et

    return handler


def _sort(c, n, cx):
    xs, et, k, _ = _with_key(c, n, cx, "sort")
    if k is None:
        return (lambda st, L: sorted(xs(st, L))), LIST(et)
    slot, key = k

    def sort(st, L):
        items = list(xs(st, L))
        charge(st, len(items))
        keys = []
        for x in items:
            L[slot] = x
            keys.append(key(st, L))
        order = sorted(range(len(items)), key=keys.__getitem__)  # stable
        return [items[i] for i in order]

    return sort, LIST(et)


def _reverse(c, n, cx):
    xs, et = c.listy(n.args[0], cx, "reverse()")
    return (lambda st, L: xs(st, L)[::-1]), LIST(et)


def _filter(c, n, cx):
    xs, et = c.listy(n.args[0], cx, "filter()")
    slot, pred, _ = c.lam(n.args[1], cx, et, "filter()", predicate=True)

    def filt(st, L):
        out = []
        items = xs(st, L)
        charge(st, len(items))
        for x in items:
            L[slot] = x
            if pred(st, L):
                out.append(x)
        return out

    return _loop(filt, "[{target} for {target} in {items} if {body}]", xs, slot, pred), LIST(et)


def _map(c, n, cx):
    xs, et = c.listy(n.args[0], cx, "map()")
    slot, f, ft = c.lam(n.args[1], cx, et, "map()")

    def mapped(st, L):
        out = []
        items = xs(st, L)
        charge(st, len(items))
        for x in items:
            L[slot] = x
            out.append(f(st, L))
        return out

    return _loop(mapped, "[{body} for {target} in {items}]", xs, slot, f), LIST(ft)


def _quantifier(want_all):
    def handler(c, n, cx):
        xs, et = c.listy(n.args[0], cx, f"{n.func}()")
        if len(n.args) == 1 and et.kind in ("comp", "player"):  # true when not none, as conditions read them
            if want_all:
                return fused(lambda st, L: None not in xs(st, L), "(None not in {0})", xs), BOOL
            return fused(lambda st, L: any(x is not None for x in xs(st, L)),
                         "any(_x is not None for _x in {0})", xs), BOOL
        if len(n.args) == 1 and et.kind == "zone":
            if want_all:
                return fused(lambda st, L: all(st.zones[z] for z in xs(st, L)), "all(st.zones[_z] for _z in {0})",
                             xs), BOOL
            return fused(lambda st, L: any(st.zones[z] for z in xs(st, L)), "any(st.zones[_z] for _z in {0})",
                         xs), BOOL
        if len(n.args) == 1:
            if want_all:
                return fused(lambda st, L: all(xs(st, L)), "all({0})", xs), BOOL
            return fused(lambda st, L: any(xs(st, L)), "any({0})", xs), BOOL
        slot, pred, _ = c.lam(n.args[1], cx, et, f"{n.func}()", predicate=True)

        def quant(st, L):
            items = xs(st, L)
            charge(st, len(items))
            for x in items:
                L[slot] = x
                if bool(pred(st, L)) != want_all:
                    return not want_all
            return want_all

        return _loop(quant, ("all" if want_all else "any") + "({body} for {target} in {items})", xs, slot, pred), BOOL

    return handler


def _first(c, n, cx):
    xs, et = c.listy(n.args[0], cx, "first()")
    if len(n.args) == 1:
        return fused(lambda st, L: (xs(st, L) or [None])[0], "({0} or [None])[0]", xs), et
    slot, pred, _ = c.lam(n.args[1], cx, et, "first()", predicate=True)

    def first(st, L):
        items = xs(st, L)
        charge(st, len(items))
        for x in items:
            L[slot] = x
            if pred(st, L):
                return x
        return None

    return _loop(first, "next(({target} for {target} in {items} if {body}), None)", xs, slot, pred), et


def _last(c, n, cx):
    xs, et = c.listy(n.args[0], cx, "last()")
    return fused(lambda st, L: (xs(st, L) or [None])[-1], "({0} or [None])[-1]", xs), et


def _end(from_top):
    def handler(c, n, cx):
        xs, et = c.listy(n.args[0], cx, f"{n.func}()")
        if len(n.args) == 1:
            if from_top:
                return fused(lambda st, L: (xs(st, L) or [None])[0], "({0} or [None])[0]", xs), et
            return fused(lambda st, L: (xs(st, L) or [None])[-1], "({0} or [None])[-1]", xs), et
        k = c.expect(n.args[1], cx, INT, f"the count of {n.func}()")
        if from_top:
            return (lambda st, L: xs(st, L)[: max(k(st, L), 0)]), LIST(et)
        return (lambda st, L: xs(st, L)[len(xs(st, L)) - max(min(k(st, L), len(xs(st, L))), 0) :]), LIST(et)

    return handler


def _distinct(c, n, cx):
    xs, et = c.listy(n.args[0], cx, "distinct()")
    if len(n.args) == 1:
        if et.kind in ("list", "any"):  # lists as items: compared by what they hold
            return via(lambda items: _first_of_each(items, items), False, xs), LIST(et)
        return fused(lambda st, L: list(dict.fromkeys(xs(st, L))), "list(dict.fromkeys({0}))", xs), LIST(et)
    slot, key, _ = c.lam(n.args[1], cx, et, "distinct()")

    def distinct_by(st, L):
        items = xs(st, L)
        charge(st, len(items))
        keys = []
        for x in items:
            L[slot] = x
            keys.append(key(st, L))
        return _first_of_each(items, keys)

    return distinct_by, LIST(et)


def _first_of_each(items: list, keys: list) -> list:
    """The items whose key has not come before: one pass, so a big hand
    costs its length, not its length squared."""
    out, seen = [], set()
    for x, k in zip(items, keys):
        k = _hashable(k)
        if k not in seen:
            seen.add(k)
            out.append(x)
    return out


def _hashable(value):
    """A key as a set can hold it: lists (at any depth) as tuples."""
    return tuple(_hashable(v) for v in value) if isinstance(value, list) else value


def _range(c, n, cx):
    a = c.expect(n.args[0], cx, INT, "range()")
    b = c.expect(n.args[1], cx, INT, "range()") if len(n.args) == 2 else None
    where = cx.where(n.pos)
    limit = c.limits["max_value"]

    def numbers(lo, hi):
        if hi - lo > limit:
            raise RuleError("R107", f"range({lo}, {hi}) would hold {hi - lo} numbers; the limit is {limit}", where)
        return list(range(lo, hi))

    if b is None:
        return via(lambda hi: numbers(0, hi), False, a), LIST(INT)
    return via(numbers, False, a, b), LIST(INT)


def _abs(c, n, cx):
    a = c.expect(n.args[0], cx, INT, "abs()")
    return fused(lambda st, L: abs(a(st, L)), "abs({0})", a), INT


def _random(c, n, cx):
    xs, et = c.listy(n.args[0], cx, "random()")

    return via(_pick, True, xs), et


def _pick(st, items):
    if not items:
        return None
    return items[ops.random_index(st, len(items))]


def _roll(c, n, cx):
    sides = c.expect(n.args[0], cx, INT, "roll()")
    where = cx.where(n.pos)

    def roll_die(st, k):
        if k < 1:
            raise RuleError(BAD_VALUE, f"roll({k}): a die needs at least one side", where)
        return 1 + ops.random_index(st, k)

    return via(roll_die, True, sides), INT


def _index_of(c, n, cx):
    xs, _ = c.listy(n.args[0], cx, "index_of()")
    x, _ = c.expr(n.args[1], cx)

    return via(_index_in, False, xs, x), INT


def _index_in(items, v):
    return items.index(v) if v in items else -1


def _comp_arg(c, n, cx, what):
    fn, t = c.expr(n.args[0], cx)
    if t.kind not in ("comp", "any", "error"):
        cx.error("E041", f"{what} needs a component, not {t}", n.args[0].pos)
    return fn, t


def _zone(c, n, cx):
    fn, _ = _comp_arg(c, n, cx, "zone()")
    return via(_zone_of, True, fn), Type("zone", None)


def _zone_of(st, c):
    return st.loc[c] if st.loc[c] >= 0 else None


def _owner(c, n, cx):
    fn, t = c.expr(n.args[0], cx)
    if t.kind == "zone":
        return via(ops.zone_owner, True, fn), PLAYER
    if t.kind not in ("comp", "any", "error"):
        cx.error("E041", f"owner() needs a component or a zone, not {t}", n.args[0].pos)
    return fused(lambda st, L: st.owner[fn(st, L)], "st.owner[{0}]", fn), PLAYER


def _player_arg(c, n, cx, i=0):
    return c.expect(n.args[i], cx, PLAYER, f"argument {i + 1} of {n.func}()")


def _next_player(c, n, cx):
    p = _player_arg(c, n, cx)
    if len(n.args) == 1:
        return via(ops.next_player, True, p), PLAYER
    k = c.expect(n.args[1], cx, INT, "the step of next_player()")
    return (lambda st, L: ops.next_player(st, p(st, L), k(st, L))), PLAYER


def _seat_order(c, n, cx):
    p = _player_arg(c, n, cx)
    return via(ops.seat_order, True, p), LIST(PLAYER)


def _opponents(c, n, cx):
    p = _player_arg(c, n, cx)
    return via(_opponents_of, True, p), LIST(PLAYER)


def _opponents_of(st, p):
    order = ops.seat_order(st, p)
    return order[1:] if not st.eliminated[p] else [q for q in order if q != p]


def _alive(c, n, cx):
    p = _player_arg(c, n, cx)
    return fused(lambda st, L: not st.eliminated[p(st, L)], "(not st.eliminated[{0}])", p), BOOL


def _components(c, n, cx):
    arg = n.args[0]
    name = getattr(arg, "id", None)
    if name not in c.comp_types:
        from validator.diagnostics import did_you_mean

        cx.error("E039", f"unknown component type '{name or '?'}'", arg.pos, did_you_mean(str(name), c.comp_types))

    def of_type_in(st):
        ids = st.cat.by_type[name]
        if len(st.static) == st.cat.n:
            return list(ids)
        return list(ids) + [c for c in range(st.cat.n, len(st.static)) if st.static[c].get("type") == name]

    def of_type(st, L):
        return of_type_in(st)

    env: dict = {}
    of_type = fuse(of_type, f"{name_for(of_type_in, env)}(st)", env)

    return of_type, LIST(COMP(name))


def _subsets(c, n, cx):
    xs, et = c.listy(n.args[0], cx, "subsets()")
    lo = c.expect(n.args[1], cx, INT, "subsets()") if len(n.args) > 1 else const(0)
    hi = c.expect(n.args[2], cx, INT, "subsets()") if len(n.args) > 2 else None
    where = cx.where(n.pos)

    def subsets(st, L):
        items = xs(st, L)
        top = len(items) if hi is None else min(hi(st, L), len(items))
        out = []
        for k in range(max(lo(st, L), 0), top + 1):
            for combo in itertools.combinations(items, k):
                out.append(list(combo))
                if len(out) > MAX_SUBSETS:
                    raise RuleError(BAD_VALUE, f"subsets() would give more than {MAX_SUBSETS} options", where)
        return out

    return subsets, LIST(LIST(et))


def _sees(c, n, cx):
    p = _player_arg(c, n, cx)
    what, _ = c.expr(n.args[1], cx)
    return (lambda st, L: ops.can_see(st, what(st, L), p(st, L))), BOOL


def _face_up(c, n, cx):
    fn, _ = _comp_arg(c, n, cx, "face_up()")
    return (lambda st, L: st.face[fn(st, L)]), BOOL


def _name(c, n, cx):
    fn, t = c.expr(n.args[0], cx)
    from interpreter.labels import describe

    public = cx.public  # in text said to everybody, a face-down component is named by its back
    if t.kind == "map":  # an event: its fields by their declared types
        return c.event_words(fn, cx, public), STR
    return (lambda st, L: describe(st, fn(st, L), t, public)), STR


def _str(c, n, cx):
    fn, t = c.expr(n.args[0], cx)
    if cx.public and t.kind == "map":  # an event: its fields by their declared types
        return c.event_words(fn, cx, True), STR
    if cx.public:  # a component's number tells which one it is, also inside a list
        fn = face_up_only(fn, t)
    return (lambda st, L: literal(fn(st, L), quoted=False)), STR


def _count_of(c, n, cx):
    xs, et = c.listy(n.args[0], cx, "count_of()")
    v, _ = c.expr(n.args[1], cx)
    return (lambda st, L: xs(st, L).count(v(st, L))), INT


def _seat(c, n, cx):
    p = _player_arg(c, n, cx)
    return (lambda st, L: p(st, L) + 1), INT


def _list_arg_fn(c, n, cx):
    fn, t = c.expr(n.args[0], cx)
    return as_list_fn(fn, t), elem_type(t)


def _space_arg(c, n, cx, i, what):
    fn, t = c.expr(n.args[i], cx)
    if t.kind not in ("comp", "any", "error", "none"):
        cx.error("E041", f"{what} needs a board space, not {t}", n.args[i].pos)
    if t.kind == "comp" and t.arg and not c.comp_types[t.arg].board:
        cx.error("E041", f"'{t.arg}' is not a board: declare board: on its component type", n.args[i].pos)
    return fn, t


def _board(st, space):
    board = st.cat.boards.get(st.cat.types[space] if space < st.cat.n else None)
    if board is None:
        raise RuleError(BAD_VALUE, f"component {space} is not a board space")
    return board


def _neighbours(c, n, cx):
    s, t = _space_arg(c, n, cx, 0, "neighbours()")
    return via(_neighbours_of, True, s), LIST(t if t.kind == "comp" else ANY)


def _neighbours_of(st, space):
    return list(_board(st, space).adj.get(space, ()))


def _distance(c, n, cx):
    a, _ = _space_arg(c, n, cx, 0, "distance()")
    b, _ = _space_arg(c, n, cx, 1, "distance()")
    return via(_distance_of, True, a, b), INT


def _distance_of(st, a, b):
    return _board(st, a).distance(a, b)


def _space_at(c, n, cx):
    arg = n.args[0]
    name = getattr(arg, "id", None)
    if name not in c.comp_types or not c.comp_types[name].board:
        cx.error(
            "E039",
            f"space_at() needs a board type first, e.g. space_at(hex, col, row); '{name or '?'}' is not one",
            arg.pos,
        )
    keys = [c.expr(a, cx)[0] for a in n.args[1:]]
    if len(keys) == 1:
        k0 = keys[0]
        return (lambda st, L: st.cat.boards[name].by_key.get(k0(st, L))), COMP(name)
    if len(keys) != 2:
        cx.error("E040", "space_at() takes a board type and a key, or a board type, a column and a row", n.pos)
    k0, k1 = keys
    return (lambda st, L: st.cat.boards[name].by_key.get((k0(st, L), k1(st, L)))), COMP(name)


def _within(c, n, cx):
    s, t = _space_arg(c, n, cx, 0, "within()")
    k = c.expect(n.args[1], cx, INT, "the distance of within()")
    st_t = t if t.kind == "comp" else ANY
    if len(n.args) == 3:
        slot, pred, _ = c.lam(n.args[2], cx, st_t, "within()")
    else:
        slot = pred = None

    def within(st, L):
        start = s(st, L)
        board = _board(st, start)
        if pred is None:
            passable = None
        else:

            def passable(x):
                L[slot] = x
                return pred(st, L)

        reached = board.bfs(start, passable, k(st, L))
        return sorted(x for x, d in reached.items() if d > 0)

    return within, LIST(st_t)


BUILTINS = {
    "neighbours": (1, 1, _neighbours),
    "distance": (2, 2, _distance),
    "space_at": (2, 3, _space_at),
    "within": (2, 3, _within),
    "count": (1, 1, _count),
    "len": (1, 1, _count),
    "is_empty": (1, 1, _is_empty),
    "sum": (1, 2, _sum),
    "min": (1, 2, _minmax(min)),
    "max": (1, 2, _minmax(max)),
    "min_by": (2, 2, _by(lambda a, b: a < b)),
    "max_by": (2, 2, _by(lambda a, b: a > b)),
    "sort": (1, 2, _sort),
    "reverse": (1, 1, _reverse),
    "filter": (2, 2, _filter),
    "map": (2, 2, _map),
    "any": (1, 2, _quantifier(False)),
    "all": (1, 2, _quantifier(True)),
    "first": (1, 2, _first),
    "last": (1, 1, _last),
    "top": (1, 2, _end(True)),
    "bottom": (1, 2, _end(False)),
    "distinct": (1, 2, _distinct),
    "range": (1, 2, _range),
    "abs": (1, 1, _abs),
    "random": (1, 1, _random),
    "roll": (1, 1, _roll),
    "index_of": (2, 2, _index_of),
    "count_of": (2, 2, _count_of),
    "zone": (1, 1, _zone),
    "owner": (1, 1, _owner),
    "next_player": (1, 2, _next_player),
    "seat_order": (1, 1, _seat_order),
    "opponents": (1, 1, _opponents),
    "alive": (1, 1, _alive),
    "components": (1, 1, _components),
    "subsets": (1, 3, _subsets),
    "name": (1, 1, _name),
    "sees": (2, 2, _sees),
    "face_up": (1, 1, _face_up),
    "str": (1, 1, _str),
    "seat": (1, 1, _seat),
}

__all__ = ["BUILTINS", "CompileError", "ANY"]
