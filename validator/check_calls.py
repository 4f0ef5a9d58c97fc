"""The built-in functions of the rule language, as the checker sees them.

Each entry is (min args, max args, handler). A handler checks one call's
arguments and returns ``(X, Type)``; functions that take a function
argument (``filter(xs, c => ...)``) bind its parameter to a fresh local
slot. What each call does at run time is in ``compiler/emit_expr.py`` (how
it is written in Python) and ``interpreter/lib.py`` (the helpers it calls).
"""

from __future__ import annotations

import re

from rulebook.dsl import ast as A
from rulebook.validator.check_expr import as_list, const, expect, listy
from rulebook.validator.check_texts import event_words
from rulebook.validator.diagnostics import did_you_mean
from rulebook.validator.expr_functions import lam
from rulebook.validator.ir import X
from rulebook.validator.types import ANY, BOOL, COMP, INT, LIST, PLAYER, STR, Type, compatible, is_listy


def _count(c, n, cx):
    x, t = c.expr(n.args[0], cx)
    if t.kind == "zone":
        return X("zone_len", x), INT
    if t.kind == "str":  # the characters of a text
        return X("len", x), INT
    if not is_listy(t):
        cx.error("E041", f"count() needs a list or a zone, not {t}", n.args[0].pos)
    return X("len", x), INT


def _is_empty(c, n, cx):
    x, _ = _count(c, n, cx)
    return X("cmp", "==", x, const(0)), BOOL


def _with_key(c, n, cx, name):
    xs, et = listy(c, n.args[0], cx, f"the first argument of {name}()")
    if len(n.args) == 1:
        return xs, et, None, et
    slot, key, kt = lam(c, n.args[1], cx, et, f"{name}()")
    return xs, et, (slot, key), kt


def _sum(c, n, cx):
    xs, et, k, kt = _with_key(c, n, cx, "sum")
    if kt.kind not in ("int", "any", "error", "none", "player"):  # players are seat numbers
        cx.error("E041", f"sum() adds numbers, not {kt}", n.pos)
    if k is None:
        return X("sum", xs), INT
    return X("sum_by", xs, k[0], k[1]), INT


def _minmax(c, n, cx):
    first, ft = c.expr(n.args[0], cx)
    if not is_listy(ft):  # max(a, b): two numbers
        if len(n.args) != 2:
            cx.error("E040", f"{n.func}() takes a list, or two numbers", n.pos)
        second, second_t = c.expr(n.args[1], cx)
        for arg, t in ((n.args[0], ft), (n.args[1], second_t)):
            if t.kind not in ("int", "any", "error", "player", "comp", "none"):  # components go by id
                cx.error("E041", f"{n.func}(a, b) takes two numbers, not {t}", arg.pos,
                         f"{n.func}([a, b]) gives the {'least' if n.func == 'min' else 'greatest'} of a list")
        return X("pick2", n.func, first, second), ft if ft.kind == "comp" else INT
    xs, et, k, kt = _with_key(c, n, cx, n.func)
    if k is None:
        return X("pick", n.func, xs, None if et.kind in ("comp", "player") else 0), et
    empty_key = None if kt.kind in ("comp", "player") else 0
    return X("pick_key", n.func, xs, k[0], k[1], empty_key), kt


def _by(c, n, cx):
    xs, et, k, _ = _with_key(c, n, cx, n.func)
    return X("best_by", "<" if n.func == "min_by" else ">", xs, k[0], k[1]), et


def _by_group(c, n, cx):
    """``max_by_group(xs, g, f)``: one function binds the items, the other
    reads them through the same slot, so the compiler sees one query."""
    xs, et = listy(c, n.args[0], cx, f"the first argument of {n.func}()")
    slot, group, _ = lam(c, n.args[1], cx, et, f"{n.func}()")
    _, value, vt = lam(c, n.args[2], cx, et, f"{n.func}()", slot=slot)
    if vt.kind not in ("int", "str", "player", "comp", "none", "any", "error"):
        cx.error("E041", f"{n.func}() compares numbers (or texts), not {vt}", n.args[2].pos)
    return X("best_each", "<" if n.func == "min_by_group" else ">", xs, slot, group, value), LIST(et)


def _sort(c, n, cx):
    xs, et, k, _ = _with_key(c, n, cx, "sort")
    if k is None:
        return X("sorted", xs), LIST(et)
    return X("sort_by", xs, k[0], k[1]), LIST(et)


def _reverse(c, n, cx):
    xs, et = listy(c, n.args[0], cx, "reverse()")
    return X("reverse", xs), LIST(et)


def _filter(c, n, cx):
    xs, et = listy(c, n.args[0], cx, "filter()")
    slot, pred, _ = lam(c, n.args[1], cx, et, "filter()", predicate=True)
    return X("filter", xs, slot, pred), LIST(et)


def _map(c, n, cx):
    xs, et = listy(c, n.args[0], cx, "map()")
    slot, f, ft = lam(c, n.args[1], cx, et, "map()")
    return X("map", xs, slot, f), LIST(ft)


def _flatten(c, n, cx):
    xs, et = listy(c, n.args[0], cx, "flatten()")
    if et.kind == "list":
        return X("flatten", xs), et
    if et.kind not in ("any", "error", "none"):
        cx.error("E041", f"flatten() takes a list of lists, not a list of {et}", n.args[0].pos)
    return X("flatten", xs), LIST(ANY)


def _quantifier(c, n, cx):
    want_all = n.func == "all"
    xs, et = listy(c, n.args[0], cx, f"{n.func}()")
    if len(n.args) == 1 and et.kind in ("comp", "player"):  # true when not none, as conditions read them
        return X("all_not_none" if want_all else "any_not_none", xs), BOOL
    if len(n.args) == 1 and et.kind == "zone":
        return X("all_zones" if want_all else "any_zones", xs), BOOL
    if len(n.args) == 1:
        return X(n.func, xs), BOOL
    slot, pred, _ = lam(c, n.args[1], cx, et, f"{n.func}()", predicate=True)
    return X(n.func + "_by", xs, slot, pred), BOOL


def _first(c, n, cx):
    xs, et = listy(c, n.args[0], cx, "first()")
    if len(n.args) == 1:
        return X("first", xs), et
    slot, pred, _ = lam(c, n.args[1], cx, et, "first()", predicate=True)
    return X("first_by", xs, slot, pred), et


def _last(c, n, cx):
    xs, et = listy(c, n.args[0], cx, "last()")
    return X("last", xs), et


def _end(c, n, cx):
    from_top = n.func == "top"
    xs, et = listy(c, n.args[0], cx, f"{n.func}()")
    if len(n.args) == 1:
        return X("first" if from_top else "last", xs), et
    k = expect(c, n.args[1], cx, INT, f"the count of {n.func}()")
    return X("top_n" if from_top else "bottom_n", xs, k), LIST(et)


def _distinct(c, n, cx):
    xs, et = listy(c, n.args[0], cx, "distinct()")
    if len(n.args) == 1:
        if et.kind in ("list", "any"):  # lists as items: compared by what they hold
            return X("distinct_lists", xs), LIST(et)
        return X("distinct", xs), LIST(et)
    slot, key, _ = lam(c, n.args[1], cx, et, "distinct()")
    return X("distinct_by", xs, slot, key), LIST(et)


def _range(c, n, cx):
    a = expect(c, n.args[0], cx, INT, "range()")
    b = expect(c, n.args[1], cx, INT, "range()") if len(n.args) == 2 else None
    if b is None:
        return X("range", const(0), a, cx.where(n.pos)), LIST(INT)
    return X("range", a, b, cx.where(n.pos)), LIST(INT)


def _abs(c, n, cx):
    return X("abs", expect(c, n.args[0], cx, INT, "abs()")), INT


def _random(c, n, cx):
    xs, et = listy(c, n.args[0], cx, "random()")
    return X("random", xs), et


def _roll(c, n, cx):
    return X("roll", expect(c, n.args[0], cx, INT, "roll()"), cx.where(n.pos)), INT


def _index_of(c, n, cx):
    xs, _ = listy(c, n.args[0], cx, "index_of()")
    x, _ = c.expr(n.args[1], cx)
    return X("index_of", xs, x), INT


def _comp_arg(c, n, cx, what):
    x, t = c.expr(n.args[0], cx)
    if t.kind not in ("comp", "any", "error"):
        cx.error("E041", f"{what} needs a component, not {t}", n.args[0].pos)
    return x, t


def _zone(c, n, cx):
    x, _ = _comp_arg(c, n, cx, "zone()")
    return X("zone_of", x), Type("zone", None)


def _owner(c, n, cx):
    x, t = c.expr(n.args[0], cx)
    if t.kind == "zone":
        return X("zone_owner", x), PLAYER
    if t.kind not in ("comp", "any", "error"):
        cx.error("E041", f"owner() needs a component or a zone, not {t}", n.args[0].pos)
    return X("owner", x), PLAYER


def _player_arg(c, n, cx, i=0):
    return expect(c, n.args[i], cx, PLAYER, f"argument {i + 1} of {n.func}()")


def _next_player(c, n, cx):
    p = _player_arg(c, n, cx)
    k = expect(c, n.args[1], cx, INT, "the step of next_player()") if len(n.args) == 2 else const(1)
    return X("next_player", p, k), PLAYER


def _seat_order(c, n, cx):
    return X("seat_order", _player_arg(c, n, cx)), LIST(PLAYER)


def _opponents(c, n, cx):
    return X("opponents", _player_arg(c, n, cx)), LIST(PLAYER)


def _alive(c, n, cx):
    return X("alive", _player_arg(c, n, cx)), BOOL


def _in_game(c, n, cx):
    return X("in_game", _player_arg(c, n, cx)), BOOL


def _components(c, n, cx):
    arg = n.args[0]
    name = getattr(arg, "id", None)
    if name not in c.comp_types:
        cx.error("E039", f"unknown component type '{name or '?'}'", arg.pos, did_you_mean(str(name), c.comp_types))
    cx.note("component", name, arg.pos)
    return X("components", name), LIST(COMP(name))


def _subsets(c, n, cx):
    xs, et = listy(c, n.args[0], cx, "subsets()")
    lo = expect(c, n.args[1], cx, INT, "subsets()") if len(n.args) > 1 else const(0)
    hi = expect(c, n.args[2], cx, INT, "subsets()") if len(n.args) > 2 else None
    return X("subsets", xs, lo, hi, cx.where(n.pos)), LIST(LIST(et))


def _sees(c, n, cx):
    p = _player_arg(c, n, cx)
    what, _ = c.expr(n.args[1], cx)
    return X("sees", p, what), BOOL


def _face_up(c, n, cx):
    x, _ = _comp_arg(c, n, cx, "face_up()")
    return X("is_face_up", x), BOOL


def _name(c, n, cx):
    x, t = c.expr(n.args[0], cx)
    if t.kind == "map":  # an event: its fields by their declared types
        return event_words(c, x, cx, cx.public), STR
    return X("describe", x, t, cx.public), STR  # in text said to everybody, a face-down one by its back


def _str(c, n, cx):
    from rulebook.validator.check_expr import face_up_only

    x, t = c.expr(n.args[0], cx)
    if cx.public and t.kind == "map":  # an event: its fields by their declared types
        return event_words(c, x, cx, True), STR
    if cx.public:  # a component's number tells which one it is, also inside a list
        x = face_up_only(x, t)
    return X("str", x), STR


FORMAT_SPEC = re.compile(r"([^{}]?[<>^])?[+ -]?0?[0-9]{0,2}[,_]?")


def _format(c, n, cx):
    x, t = c.expr(n.args[0], cx)
    if t.kind not in ("int", "str", "any", "error", "player"):
        cx.error("E041", f"format() writes a number or a text, not {t}", n.args[0].pos)
    spec, st = c.expr(n.args[1], cx)
    if st.kind not in ("str", "any", "error"):
        cx.error("E041", f"format()'s second argument is a text such as \"03\" or \"+\", not {st}", n.args[1].pos)
    if spec.op == "const" and not FORMAT_SPEC.fullmatch(spec.a[0]):
        cx.error("E013", f"format(): {spec.a[0]!r} is not a format", n.args[1].pos,
                 "[fill][<>^][+ -][0][width][,_], e.g. \"03\", \"+\", \",\", \">5\", \"*^9\"")
    return X("format", x, spec, cx.where(n.pos)), STR


def _count_of(c, n, cx):
    xs, _ = listy(c, n.args[0], cx, "count_of()")
    v, _ = c.expr(n.args[1], cx)
    return X("count_of", xs, v), INT


def _seat(c, n, cx):
    return X("seat", _player_arg(c, n, cx)), INT


def _space_arg(c, n, cx, i, what):
    x, t = c.expr(n.args[i], cx)
    if t.kind not in ("comp", "any", "error", "none"):
        cx.error("E041", f"{what} needs a board space, not {t}", n.args[i].pos)
    if t.kind == "comp" and t.arg and not c.comp_types[t.arg].board:
        cx.error("E041", f"'{t.arg}' is not a board: declare board: on its component type", n.args[i].pos)
    return x, t


def _neighbours(c, n, cx):
    s, t = _space_arg(c, n, cx, 0, "neighbours()")
    return X("neighbours", s), LIST(t if t.kind == "comp" else ANY)


def _distance(c, n, cx):
    a, _ = _space_arg(c, n, cx, 0, "distance()")
    b, _ = _space_arg(c, n, cx, 1, "distance()")
    return X("distance", a, b), INT


def _space_at(c, n, cx):
    arg = n.args[0]
    part = None
    if isinstance(arg, A.Index):  # space_at(land[p], col, row): one part of a board kept per something
        arg, part = arg.obj, arg.key
    name = getattr(arg, "id", None)
    if name not in c.comp_types or not c.comp_types[name].board:
        cx.error(
            "E039",
            f"space_at() needs a board type first, e.g. space_at(hex, col, row); '{name or '?'}' is not one",
            arg.pos,
        )
    per = (c.comp_types[name].board or {}).get("per")
    if per is not None and part is None:
        cx.error("E040", f"'{name}' is one board per '{per}': space_at() needs the part", arg.pos,
                 hint=f"name whose board: space_at({name}[...], col, row)")
    if per is None and part is not None:
        cx.error("E040", f"'{name}' is one board, not one per something: space_at() takes no part", part.pos,
                 hint=f"space_at({name}, ...) without an index")
    keys = [c.expr(a, cx)[0] for a in n.args[1:]]
    if part is not None:
        if len(keys) not in (1, 2):
            cx.error("E040", "space_at() takes a board and a key, or a board, a column and a row", n.pos)
        index, t = c.expr(part, cx)
        want = c.comp_types[name].static.get(per)
        if want is not None and not compatible(want, t):
            cx.error("E041", f"the parts of '{name}' are named by '{per}', {want}, not {t}", part.pos)
        return X("space_at_in", name, index, *keys), COMP(name)
    if len(keys) == 1:
        return X("space_at", name, keys[0]), COMP(name)
    if len(keys) != 2:
        cx.error("E040", "space_at() takes a board type and a key, or a board type, a column and a row", n.pos)
    return X("space_at2", name, keys[0], keys[1]), COMP(name)


def _lines(c, n, cx):
    arg = n.args[0]
    name = getattr(arg, "id", None)
    ct = c.comp_types.get(name) if isinstance(arg, A.Name) else None
    if ct is None or not ct.board:
        cx.error("E039", f"lines() needs a board type first, e.g. lines(cell, 4); '{name or '?'}' is not one",
                 arg.pos)
    if ct.board.get("grid", "graph") not in ("hex", "square"):
        cx.error("E041", f"lines(): '{name}' is a graph board, whose spaces lie in no directions", arg.pos,
                 "lines() reads rows, columns and diagonals of a square or hex grid (board: {grid: square})")
    k = expect(c, n.args[1], cx, INT, "the length of lines()")
    through = None
    if len(n.args) == 3:
        through, t = _space_arg(c, n, cx, 2, "lines()")
        if t.kind == "comp" and t.arg and t.arg != name:
            cx.error("E041", f"lines({name}, ...) go through spaces of '{name}', not of '{t.arg}'", n.args[2].pos)
    return X("lines", name, k, through, cx.where(n.pos)), LIST(LIST(COMP(name)))


def _within(c, n, cx):
    s, t = _space_arg(c, n, cx, 0, "within()")
    k = expect(c, n.args[1], cx, INT, "the distance of within()")
    st_t = t if t.kind == "comp" else ANY
    if len(n.args) == 3:
        slot, pred, _ = lam(c, n.args[2], cx, st_t, "within()")
    else:
        slot = pred = None
    return X("within", s, k, slot, pred), LIST(st_t)


BUILTINS = {
    "neighbours": (1, 1, _neighbours),
    "distance": (2, 2, _distance),
    "space_at": (2, 3, _space_at),
    "within": (2, 3, _within),
    "lines": (2, 3, _lines),
    "count": (1, 1, _count),
    "len": (1, 1, _count),
    "is_empty": (1, 1, _is_empty),
    "sum": (1, 2, _sum),
    "min": (1, 2, _minmax),
    "max": (1, 2, _minmax),
    "min_by": (2, 2, _by),
    "max_by": (2, 2, _by),
    "min_by_group": (3, 3, _by_group),
    "max_by_group": (3, 3, _by_group),
    "sort": (1, 2, _sort),
    "reverse": (1, 1, _reverse),
    "filter": (2, 2, _filter),
    "map": (2, 2, _map),
    "flatten": (1, 1, _flatten),
    "any": (1, 2, _quantifier),
    "all": (1, 2, _quantifier),
    "first": (1, 2, _first),
    "last": (1, 1, _last),
    "top": (1, 2, _end),
    "bottom": (1, 2, _end),
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
    "in_game": (1, 1, _in_game),
    "components": (1, 1, _components),
    "subsets": (1, 3, _subsets),
    "name": (1, 1, _name),
    "sees": (2, 2, _sees),
    "face_up": (1, 1, _face_up),
    "str": (1, 1, _str),
    "format": (2, 2, _format),
    "seat": (1, 1, _seat),
}

__all__ = ["BUILTINS", "as_list", "STR"]
