"""Compile expressions into closures ``f(st, L)`` while checking names and
types.

``st`` is the game ``State`` and ``L`` the locals of the running frame. Every
name is resolved here, at load: a local, a built-in, a global or per-player
variable, a parameter, a zone, a component type or a function. Nothing is
looked up by name while a game runs except dictionary keys of variables.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable

from dsl import ast as A
from interpreter import ops
from interpreter.errors import BAD_VALUE, RuleError
from interpreter.fuse import fuse, has_src, leaf, name_for, part
from interpreter.labels import HiddenInText
from interpreter.program import (
    ANY,
    BOOL,
    COMP,
    INT,
    LIST,
    MAP,
    NONE,
    PLAYER,
    STR,
    ZONE,
    Type,
    compatible,
    elem_type,
    is_listy,
    join,
)
from interpreter.scope import Scope
from validator.diagnostics import did_you_mean

Fn = Callable

BUILTIN_NAMES = {
    "player",
    "players",
    "live_players",
    "player_count",
    "current",
    "phase",
    "event",
    "direction",
    "turn_number",
}


class CompileError(Exception):
    """Raised inside the compiler to abandon one expression; the diagnostic
    has already been recorded."""


class Cx:
    """Where an expression is being compiled: its scope and its place in
    the file, for diagnostics."""

    def __init__(self, comp, scope: Scope, path: tuple, span, depth: int = 0, public: bool = False):
        self.comp = comp
        self.scope = scope
        self.path = path
        self.span = span
        self.depth = depth  # function inlining depth
        # in text said to everybody (say): reading what a face-down
        # component hides makes its piece of text "[hidden]"
        self.public = public

    def inner(self, line: int, col: int, public: bool | None = None) -> Cx:
        """The context for an expression that starts at (line, col) of this text."""
        span = OffsetSpan(self.span, line, col) if self.span is not None else None
        return Cx(self.comp, self.scope, self.path, span, self.depth, self.public if public is None else public)

    def at(self, pos) -> tuple[int, int]:
        if self.span is None:
            return self.comp.doc.where(self.path)
        return self.span.to_file(pos[0], pos[1])

    def error(self, code: str, message: str, pos, hint: str | None = None, length: int = 1):
        self.comp.report(code, message, self.path, self.at(pos), hint, length)
        raise CompileError(message)

    def where(self, pos) -> str:
        line, col = self.at(pos)
        return f"{self.comp.doc.file}:{line}:{col}"


class OffsetSpan:
    """Positions inside an expression embedded in a larger text (a ``{...}``
    of a template) mapped through the outer text's own span."""

    def __init__(self, base, line: int, col: int):
        self.base, self.line, self.col = base, line, col

    def to_file(self, line: int, col: int) -> tuple[int, int]:
        if line == 1:
            return self.base.to_file(self.line, self.col + col - 1)
        return self.base.to_file(self.line + line - 1, col)


def fused(fallback: Fn, template: str, *children: Fn, **helpers) -> Fn:
    """``fallback`` (a closure over ``children``), fused into one function
    with its children when they all have source (see interpreter/fuse.py):
    ``template`` is Python source with ``{0}``, ``{1}``... for them, and
    ``{name}`` for each helper function given by name."""
    if not has_src(*children):
        return fallback
    env: dict = {}
    names = {k: name_for(v, env) for k, v in helpers.items()}
    return fuse(fallback, template.format(*(part(c, env) for c in children), **names), env, *children)


def via(helper, with_state: bool, *args: Fn) -> Fn:
    """The closure computing ``helper([st, ]*args)``, each argument a
    compiled expression; fused into one function when they have source."""
    if len(args) == 1:
        (a,) = args
        fallback = (lambda st, L: helper(st, a(st, L))) if with_state else (lambda st, L: helper(a(st, L)))
    elif len(args) == 2:
        a, b = args
        fallback = ((lambda st, L: helper(st, a(st, L), b(st, L))) if with_state
                    else (lambda st, L: helper(a(st, L), b(st, L))))
    else:
        fallback = ((lambda st, L: helper(st, *[x(st, L) for x in args])) if with_state
                    else (lambda st, L: helper(*[x(st, L) for x in args])))
    inner = ", ".join(["st"] * with_state + [f"{{{i}}}" for i in range(len(args))])
    return fused(fallback, "{helper}(" + inner + ")", *args, helper=helper)


def _type_of(st, c):
    return st.cat.types[c] if c < st.cat.n else st.static[c]["type"]


# built-ins that go by the ids of the components they are given (with one
# argument only, for the second set): in text said to everybody they read
# faces, so face-down components stop the piece ("[hidden]")
_BY_ID = frozenset({"index_of", "count_of", "distinct", "zone", "sees", "owner"})
_BY_ID_WITHOUT_KEY = frozenset({"sort", "min", "max"})


def _by_id(n) -> bool:
    """Whether a built-in's call goes by the ids of the components it is given."""
    if n.func in _BY_ID:
        return True
    return n.func in _BY_ID_WITHOUT_KEY and not any(isinstance(a, A.LambdaExpr) for a in n.args)


def _draws(node) -> bool:
    """Whether an expression draws at random (random(), roll()): it must not
    be computed twice."""
    if isinstance(node, A.Call) and node.func in ("random", "roll"):
        return True
    for name in getattr(node, "__dataclass_fields__", ()):  # the node's children, alone or in tuples
        value = getattr(node, name)
        for child in value if isinstance(value, tuple) else (value,):
            if hasattr(child, "__dataclass_fields__") and _draws(child):
                return True
    return False


# '{name}' or '{expr}' in a plain string: what a template would fill in
_LOOKS_FILLED_IN = re.compile(r"\{[A-Za-z_][^{}]*\}")


def face_up_only(obj: Fn, t: Type | None = None) -> Fn:
    """``obj``, a component (or, with its type ``t``, a list of them at any
    depth), for reading what its face shows in text said to everybody: a
    face-down one stops the piece of text (HiddenInText), which then reads
    "[hidden]" instead of telling a secret. Values of other types pass."""
    depth = 0
    while t is not None and t.kind == "list":
        t, depth = t.arg, depth + 1
    if t is not None and t.kind != "comp":
        return obj

    def check(st, value, d):
        if d == 0:
            if value is not None and not st.face[value]:
                raise HiddenInText
        else:
            for item in value or ():
                check(st, item, d - 1)

    def face_up(st, L):
        value = obj(st, L)
        check(st, value, depth)
        return value

    return face_up


def _bind(L, slots, values):
    """Bind a function's arguments, all computed first, to their slots."""
    for s, v in zip(slots, values):
        L[s] = v


def truthy(fn: Fn, t: Type) -> Fn:
    """The truth of a value as the rule language means it: a zone or list
    holding something, a component or player that is not none, a number
    other than 0, a non-empty text."""
    if t.kind == "zone":
        return fused(lambda st, L: len(st.zones[fn(st, L)]) > 0, "(len(st.zones[{0}]) > 0)", fn)
    if t.kind in ("comp", "player"):
        return fused(lambda st, L: fn(st, L) is not None, "({0} is not None)", fn)
    if t.kind == "bool":
        return fn
    return fused(lambda st, L: bool(fn(st, L)), "bool({0})", fn)


def const(value):
    fn = lambda st, L: value  # noqa: E731
    if value is None or isinstance(value, (bool, int, str)):
        return leaf(fn, repr(value))
    env: dict = {}
    return leaf(fn, name_for(value, env), env)


def local_slot(slot: int) -> Fn:
    return leaf(lambda st, L: L[slot], f"L[{slot}]")


def _anylist(v):
    return v if isinstance(v, list) else ([] if v is None else [v])


def as_list_fn(fn: Fn, t: Type) -> Fn:
    """A closure that yields a plain list whether ``fn`` gives a zone or a list."""
    if t.kind == "zone":
        return fused(lambda st, L: st.zones[fn(st, L)], "st.zones[{0}]", fn)
    if t.kind == "any":

        def anylist(st, L):
            v = fn(st, L)
            return v if isinstance(v, list) else ([] if v is None else [v])

        if has_src(fn):
            env: dict = {}
            return fuse(anylist, f"{name_for(_anylist, env)}({part(fn, env)})", env, fn)
        return anylist
    return fn


_COMPARE = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


class ExprCompiler:
    """Mixed into the ruleset compiler: ``expr(node, cx) -> (fn, type)``."""

    # ----------------------------------------------------------- entry
    def expr(self, node, cx: Cx) -> tuple[Fn, Type]:
        method = getattr(self, "_x_" + type(node).__name__)
        return method(node, cx)

    def expect(self, node, cx: Cx, want: Type, what: str) -> Fn:
        fn, t = self.expr(node, cx)
        if want.kind == "list" and t.kind == "zone":
            return as_list_fn(fn, t)
        if want.kind == "bool":
            return truthy(fn, t)  # any value has a truth value, as in "if there are cards"
        if not compatible(want, t):
            cx.error("E041", f"{what} must be {want}, not {t}", node.pos)
        if want.kind == "list":
            return as_list_fn(fn, t)
        return fn

    def listy(self, node, cx: Cx, what: str) -> tuple[Fn, Type]:
        fn, t = self.expr(node, cx)
        if not is_listy(t):
            cx.error("E041", f"{what} must be a list or a zone, not {t}", node.pos)
        return as_list_fn(fn, t), elem_type(t)

    # ----------------------------------------------------------- literals
    def _x_IntLit(self, n, cx):
        return const(n.value), INT

    def _x_StrLit(self, n, cx):
        brace = _LOOKS_FILLED_IN.search(n.value.replace("{{", "").replace("}}", "")) if "{" in n.value else None
        if brace is not None:  # an author expecting a template: only say texts, labels and prompts are
            self.report(
                "W106",
                f"'{brace.group(0)}' in a plain string is not filled in: "
                "only say texts, labels, prompts and player names are templates",
                cx.path,
                cx.at(n.pos),
                "build the text with + and str(), e.g. \"day \" + str(day)",
                len(n.value) + 2,
            )
        return const(n.value), STR

    def _x_BoolLit(self, n, cx):
        return const(n.value), BOOL

    def _x_NoneLit(self, n, cx):
        return const(None), NONE

    def _x_ListLit(self, n, cx):
        parts = [self.expr(item, cx) for item in n.items]
        t = NONE  # an empty list fits any list type
        if parts:
            t = parts[0][1]
            for _, pt in parts[1:]:
                t = join(t, pt)
        fns = [p[0] for p in parts]
        if cx.public and t.kind == "any":  # a mixed list names its components by number: only face-up ones
            fns = [face_up_only(f, pt) for f, (_, pt) in zip(fns, parts)]
        return fused(lambda st, L: [f(st, L) for f in fns], "[" + ", ".join(f"{{{i}}}" for i in range(len(fns))) + "]",
                     *fns), LIST(t)

    # ----------------------------------------------------------- names
    def _x_Name(self, n, cx):
        name = n.id
        local = cx.scope.lookup(name)
        if local is not None:
            slot, t = local
            return local_slot(slot), t
        if name == "players":
            return leaf(lambda st, L: list(range(st.n)), "list(range(st.n))"), LIST(PLAYER)
        if name == "live_players":
            return (lambda st, L: [p for p in range(st.n) if not st.eliminated[p]]), LIST(PLAYER)
        if name == "player_count":
            return leaf(lambda st, L: st.n, "st.n"), INT
        if name == "current":
            return leaf(lambda st, L: st.current, "st.current"), PLAYER
        if name == "phase":
            return leaf(lambda st, L: st.phase, "st.phase"), STR
        if name == "turn_number":
            return leaf(lambda st, L: st.turn, "st.turn"), INT
        if name == "event":
            if cx.scope.event is None:
                cx.error("E030", "'event' exists only in a trigger", n.pos)
            slot = cx.scope.event_slot
            return local_slot(slot), MAP
        if name in self.var_types:
            return leaf(lambda st, L: st.vars[name], f"st.vars[{name!r}]"), self.var_types[name]
        if name in self.param_types:
            self.used_params.add(name)
            return leaf(lambda st, L: st.params[name], f"st.params[{name!r}]"), self.param_types[name]
        fam = self.families.get(name)
        if fam is not None:
            self.used_zones.add(name)
            if fam.per is None:
                return leaf(lambda st, L: st.cat.zone_base[name], f"st.cat.zone_base[{name!r}]"), ZONE(fam.of)
            return const(name), Type("family", name)
        if name in self.comp_types:
            return const(name), Type("ctype", name)
        known = (
            list(cx.scope.names)
            + list(self.var_types)
            + list(self.param_types)
            + list(self.families)
            + sorted(BUILTIN_NAMES)
        )
        hint = did_you_mean(name, known)
        if name in (self.data.get("define") or {}):
            hint = f"'{name}' is defined further down; a definition can only use the ones above it"
        elif hint is None and name in self.pvar_types:
            hint = f"'{name}' is a player variable: write p.{name} for a player p"
        elif name in self.functions:
            hint = f"'{name}' is a function: write {name}({', '.join(p for p, _ in self.functions[name][0])})"
        cx.error("E030", f"unknown name '{name}'", n.pos, hint, len(name))

    # ----------------------------------------------------------- access
    def _x_Attribute(self, n, cx):
        obj, t = self.expr(n.obj, cx)
        attr = n.attr
        if attr.startswith("_"):
            cx.error("E032", f"'{attr}': names starting with '_' are not part of the language", n.pos)
        if t.kind == "error":
            return obj, t
        if t.kind == "comp":
            return self.comp_attr(obj, t, attr, n, cx)
        if t.kind == "player":
            if attr in self.pvar_types:
                return fused(lambda st, L: st.pvars[obj(st, L)][attr], f"st.pvars[{{0}}][{attr!r}]", obj), \
                    self.pvar_types[attr]
            cx.error(
                "E032",
                f"players have no variable '{attr}'",
                n.pos,
                did_you_mean(attr, self.pvar_types) or "declare it under player_vars",
                len(attr),
            )
        if t.kind == "map":
            fields = self.events.get(cx.scope.event or "", {})
            if fields and attr not in fields:
                cx.error(
                    "E032",
                    f"event '{cx.scope.event}' has no field '{attr}'",
                    n.pos,
                    did_you_mean(attr, fields),
                    len(attr),
                )
            ft = fields.get(attr, ANY)
            return fused(lambda st, L: obj(st, L)[attr], f"{{0}}[{attr!r}]", obj), ft
        if t.kind in ("any", "error", "none"):
            in_comps = any(attr in ct.static or attr in ct.dynamic for ct in self.comp_types.values()) or attr in (
                "owner",
                "type",
                "id",
            )
            in_players = attr in self.pvar_types
            if in_comps and not in_players:
                return self.comp_attr(obj, COMP(None), attr, n, cx)
            if in_players and not in_comps:
                return fused(lambda st, L: st.pvars[obj(st, L)][attr], f"st.pvars[{{0}}][{attr!r}]", obj), \
                    self.pvar_types[attr]
            cx.error(
                "E041",
                f"cannot tell what kind of value '.{attr}' is read from",
                n.pos,
                "give the value a known type, e.g. through a typed zone ('of:') or a procedure parameter",
            )
        cx.error("E041", f"a {t} has no properties ('.{attr}')", n.pos)

    def comp_attr(self, obj: Fn, t: Type, attr: str, n, cx):
        types = [self.comp_types[t.arg]] if t.arg else list(self.comp_types.values())
        if cx.public and attr != "type" and not all(attr in ct.public for ct in types):
            obj = face_up_only(obj)
        if attr == "owner":
            return fused(lambda st, L: st.owner[obj(st, L)], "st.owner[{0}]", obj), PLAYER
        if attr == "type":
            return via(_type_of, True, obj), STR
        if attr == "id":
            return obj, INT
        for ct in types:
            if attr in ct.dynamic:
                return fused(lambda st, L: st.props[obj(st, L)][attr], f"st.props[{{0}}][{attr!r}]", obj), \
                    ct.dynamic[attr]
        for ct in types:
            if attr in ct.static:
                if t.arg:
                    return fused(lambda st, L: st.static[obj(st, L)][attr], f"st.static[{{0}}][{attr!r}]", obj), \
                        ct.static[attr]
                return fused(lambda st, L: st.static[obj(st, L)].get(attr), f"st.static[{{0}}].get({attr!r})", obj), \
                    ct.static[attr]
        known = set()
        for ct in types:
            known |= set(ct.static) | set(ct.dynamic)
        what = f"'{t.arg}'" if t.arg else "any component type"
        cx.error("E032", f"{what} has no property '{attr}'", n.pos, did_you_mean(attr, known), len(attr))

    def _x_Index(self, n, cx):
        obj, t = self.expr(n.obj, cx)
        if t.kind == "family":
            return self.zone_of_family(t.arg, n.key, n, cx)
        key, kt = self.expr(n.key, cx)
        if t.kind == "error":
            return obj, t
        if t.kind in ("list", "any", "error"):
            if not compatible(INT, kt):
                cx.error("E041", f"a list index must be a number, not {kt}", n.key.pos)
            where = cx.where(n.pos)

            def item_of(xs, i):
                try:
                    return xs[i]
                except (IndexError, TypeError):
                    raise RuleError(
                        BAD_VALUE, f"index {i} is outside a list of {len(xs) if isinstance(xs, list) else 0}", where
                    ) from None

            return via(item_of, False, obj, key), elem_type(t)
        if t.kind == "zone":
            if kt.kind == "player" and isinstance(n.obj, A.Name) and n.obj.id in self.families:
                cx.error("E041", f"'{n.obj.id}' is one shared zone: {n.obj.id}[...] is the component at a "
                         "position, and this index is a player", n.key.pos,
                         f"drop the index, or declare '{n.obj.id}' with 'per: player' to give each player one")
            where = cx.where(n.pos)

            def zone_item(st, zone, i):
                z = st.zones[zone]
                if not -len(z) <= i < len(z):
                    raise RuleError(BAD_VALUE, f"position {i} is outside a zone of {len(z)}", where)
                return z[i]

            return via(zone_item, True, obj, key), COMP(t.arg)
        cx.error("E041", f"a {t} cannot be indexed with [...]", n.pos)

    def zone_of_family(self, name: str, key_node, n, cx):
        fam = self.families[name]
        key, kt = self.expr(key_node, cx)
        where = cx.where(n.pos)
        if fam.per == "player":
            if not compatible(PLAYER, kt) and kt.kind != "int":
                cx.error("E041", f"zone '{name}' is one per player; its index must be a player, not {kt}", key_node.pos)

            def player_zone_of(st, p):
                if p is None or not 0 <= p < st.n:
                    raise RuleError(
                        BAD_VALUE,
                        f"{name}[{'none' if p is None else p}]: there is no player "
                        f"{'none' if p is None else p} in a game of {st.n}",
                        where,
                    )
                return st.cat.zone_base[name] + p

            def player_zone(st, L):
                return player_zone_of(st, key(st, L))

            if has_src(key):
                env: dict = {}
                return fuse(player_zone, f"{name_for(player_zone_of, env)}(st, {part(key, env)})", env, key), \
                    ZONE(fam.of)
            return player_zone, ZONE(fam.of)
        if not compatible(COMP(fam.per), kt):
            cx.error(
                "E041", f"zone '{name}' is one per {fam.per}; its index must be a {fam.per}, not {kt}", key_node.pos
            )
        per = fam.per

        def comp_zone_of(st, c):
            try:
                return st.cat.zone_of_comp[name][c]
            except (KeyError, TypeError):
                z = ops.comp_zone(st, name, c) if isinstance(c, int) else None  # a component created in play
                if z is None:
                    raise RuleError(BAD_VALUE, f"{name}[...]: the index is not a {per}", where) from None
                return z

        def comp_zone(st, L):
            return comp_zone_of(st, key(st, L))

        if has_src(key):
            env = {}
            return fuse(comp_zone, f"{name_for(comp_zone_of, env)}(st, {part(key, env)})", env, key), ZONE(fam.of)
        return comp_zone, ZONE(fam.of)

    # ----------------------------------------------------------- operators
    def cond(self, node, cx: Cx) -> Fn:
        return self.expect(node, cx, BOOL, "a condition")

    def _x_IfExpr(self, n, cx):
        cond = self.cond(n.cond, cx)
        a, ta = self.expr(n.then, cx)
        b, tb = self.expr(n.orelse, cx)
        return fused(lambda st, L: a(st, L) if cond(st, L) else b(st, L), "({1} if {0} else {2})", cond, a, b), \
            join(ta, tb)

    def _x_OrOp(self, n, cx):
        a = self.cond(n.left, cx)
        b = self.cond(n.right, cx)
        return fused(lambda st, L: a(st, L) or b(st, L), "({0} or {1})", a, b), BOOL

    def _x_AndOp(self, n, cx):
        a = self.cond(n.left, cx)
        b = self.cond(n.right, cx)
        return fused(lambda st, L: a(st, L) and b(st, L), "({0} and {1})", a, b), BOOL

    def _x_NotOp(self, n, cx):
        a = self.cond(n.operand, cx)
        return fused(lambda st, L: not a(st, L), "(not {0})", a), BOOL

    def _x_Compare(self, n, cx):
        a, ta = self.expr(n.left, cx)
        b, tb = self.expr(n.right, cx)
        op = _COMPARE[n.op]
        if n.op in ("<", "<=", ">", ">="):
            for side, t in ((n.left, ta), (n.right, tb)):
                if t.kind not in ("int", "any", "error", "str", "player"):
                    cx.error("E041", f"'{n.op}' compares numbers, not {t}", side.pos)
        elif not {ta.kind, tb.kind} & {"any", "none", "error"}:
            if ta.kind != tb.kind and {ta.kind, tb.kind} != {"int", "player"}:
                cx.error(
                    "E041",
                    f"comparing {ta} with {tb} is always {n.op == '!='}",
                    n.pos,
                    "compare values of the same kind",
                )
        if ta.kind == "zone" or tb.kind == "zone":
            pass  # zones compare by identity (their instance number)
        if cx.public and "none" not in (ta.kind, tb.kind):  # in text said to everybody, components
            a, b = face_up_only(a, ta), face_up_only(b, tb)  # compare by id: faces must be seen
        return fused(lambda st, L: op(a(st, L), b(st, L)), f"({{0}} {n.op} {{1}})", a, b), BOOL

    def _x_InOp(self, n, cx):
        item, ti = self.expr(n.item, cx)
        coll, ct = self.listy(n.coll, cx, "the right side of 'in'")
        kinds = {ti.kind, ct.kind}
        if not kinds & {"any", "none", "error"} and ti.kind != ct.kind and kinds != {"int", "player"}:
            cx.error("E041", f"a {ti} is never in a list of {ct}: 'in' would always be "
                     f"{'true' if n.negated else 'false'}", n.pos, "compare values of the same kind")
        if cx.public:  # in text said to everybody, membership goes by id: faces must be seen
            item, coll = face_up_only(item, ti), face_up_only(coll, LIST(ct))
        if n.negated:
            return fused(lambda st, L: item(st, L) not in coll(st, L), "({0} not in {1})", item, coll), BOOL
        return fused(lambda st, L: item(st, L) in coll(st, L), "({0} in {1})", item, coll), BOOL

    def _x_Binary(self, n, cx):
        a, ta = self.expr(n.left, cx)
        b, tb = self.expr(n.right, cx)
        op = n.op
        if op in ("+", "-") and (ta.kind in ("list", "zone") or tb.kind in ("list", "zone")):
            la, lb = as_list_fn(a, ta), as_list_fn(b, tb)
            et = join(elem_type(ta) if is_listy(ta) else ta, elem_type(tb) if is_listy(tb) else tb)
            if not is_listy(ta):
                cx.error(
                    "E041",
                    f"'{op}' with a list needs the list on the left, not {ta}",
                    n.left.pos,
                    "write [x] + xs to put a value before a list",
                )
            if op == "+":
                limit, where = self.limits["max_value"], cx.where(n.pos)

                def sized(xs):
                    if len(xs) > limit:
                        raise RuleError("R107", f"a list of {len(xs)} items; the limit is {limit}", where)
                    return xs

                if not is_listy(tb):
                    return (lambda st, L: sized(la(st, L) + [b(st, L)])), LIST(et)
                return (lambda st, L: sized(la(st, L) + lb(st, L))), LIST(et)
            if not is_listy(tb):

                def minus_one(st, L):
                    xs = list(la(st, L))
                    v = b(st, L)
                    if v in xs:
                        xs.remove(v)
                    return xs

                return minus_one, LIST(et)

            def minus(st, L):
                xs = list(la(st, L))
                for v in lb(st, L):
                    if v in xs:
                        xs.remove(v)
                return xs

            return minus, LIST(et)
        if op == "+" and "str" in (ta.kind, tb.kind) and {ta.kind, tb.kind} <= {"str", "any", "error"}:
            limit, where = self.limits["max_value"], cx.where(n.pos)

            def joined(x, y):
                text = x + y
                if len(text) > limit:
                    raise RuleError("R107", f"a text of {len(text)} characters; the limit is {limit}", where)
                return text

            return via(joined, False, a, b), STR
        for side, t in ((n.left, ta), (n.right, tb)):
            if t.kind not in ("int", "any", "error", "player"):
                cx.error("E041", f"'{op}' needs numbers, not {t}", side.pos)
        where = cx.where(n.pos)
        if op == "+":
            return fused(lambda st, L: a(st, L) + b(st, L), "({0} + {1})", a, b), INT
        if op == "-":
            return fused(lambda st, L: a(st, L) - b(st, L), "({0} - {1})", a, b), INT
        if op == "*":
            return fused(lambda st, L: a(st, L) * b(st, L), "({0} * {1})", a, b), INT

        def divide(st, L, _f=operator.floordiv if op == "//" else operator.mod):
            d = b(st, L)
            if d == 0:
                raise RuleError(BAD_VALUE, "division by zero", where)
            return _f(a(st, L), d)

        return divide, INT

    def _x_Neg(self, n, cx):
        a, t = self.expr(n.operand, cx)
        if t.kind not in ("int", "any", "error", "player"):  # players are seat numbers, as in arithmetic
            cx.error("E041", f"'-' needs a number, not {t}", n.pos)
        return fused(lambda st, L: -a(st, L), "(-{0})", a), INT

    def _x_LambdaExpr(self, n, cx):
        cx.error("E041", "a function (x => ...) can only be an argument of filter, map, sort, any, all, ...", n.pos)

    def template_parts(self, text: str, cx: Cx, line: int, col: int, what: str, public: bool = False,
                       itself: str | None = None):
        """Compile a text template whose first character is at (line, col) of
        ``cx``'s text; returns pieces (literal, None) or (fn, type).
        ``public``: the text is for everybody (``say``), so its pieces are
        compiled in a public context: a face-down component is named by its
        back, and a piece that reads what one hides renders as "[hidden]"."""
        from dsl.parser import ParseError, parse_template

        try:
            parts = parse_template(text)
        except ParseError as err:
            self.report("E023", f"in {what}: {err.message}", cx.path, cx.inner(line, col).at((1, err.column)), err.hint)
            raise CompileError(err.message) from None
        pieces = []
        for piece in parts:
            if isinstance(piece, str):
                pieces.append((piece, None))
            else:
                node, start = piece
                if itself is not None and isinstance(node, A.Name) and node.id == itself:
                    cx.inner(line, col + start - 1).error(
                        "E044", f"a label cannot name the component itself ({{{itself}}})", node.pos,
                        f"name the properties it shows, e.g. {{{itself}.value}}", len(itself))
                fn, t = self.expr(node, cx.inner(line, col + start - 1, public or None))
                if t.kind == "map":  # an event: its fields by their declared types
                    fn, t = self.event_words(fn, cx, public), STR
                pieces.append((fn, t))
        return pieces

    def faces_first(self, fn: Fn, args, cx: Cx) -> Fn:
        """``fn``, a built-in's call that goes by component ids, after a check
        that every component among its arguments is face up (text said to
        everybody; the arguments are computed twice, in say text only)."""
        guards = []
        for arg in args:
            if isinstance(arg, A.LambdaExpr) or _draws(arg):
                continue  # a function, or a value drawn at random, which a second computation would change
            gfn, gt = self.expr(arg, cx)
            if gt.kind in ("int", "str", "bool", "player", "none"):
                continue
            if gt.kind == "zone":
                zone_fn = gfn
                gfn, gt = (lambda st, L: st.zones[zone_fn(st, L)]), LIST(COMP(None))
            guards.append(face_up_only(gfn, gt))

        def checked(st, L):
            for g in guards:
                g(st, L)
            return fn(st, L)

        return checked

    def event_words(self, fn: Fn, cx: Cx, public: bool) -> Fn:
        from interpreter.labels import describe_fields

        fields = self.events.get(cx.scope.event or "", {})
        return lambda st, L: describe_fields(st, fn(st, L), fields, public)

    def lam(self, node, cx: Cx, param_type: Type, what: str, predicate: bool = False) -> tuple[int, Fn, Type]:
        if not isinstance(node, A.LambdaExpr):
            cx.error("E041", f"{what} needs a function such as 'c => c.value', not a plain value", node.pos)
        if node.param.startswith("_"):
            cx.error("E014", f"'{node.param}': names starting with '_' are reserved", node.pos)
        outer = cx.scope.names.get(node.param)
        slot = cx.scope.fresh(node.param, param_type)
        try:
            body, t = self.expr(node.body, cx)
            if predicate and t.kind in ("zone", "comp", "player"):
                body = truthy(body, t)  # predicates read values the way conditions do
        finally:  # the parameter is visible only inside the function
            if outer is None:
                del cx.scope.names[node.param]
            else:
                cx.scope.names[node.param] = outer
        return slot, body, t

    # ----------------------------------------------------------- calls
    def _x_Call(self, n, cx):
        from interpreter.builtins import BUILTINS

        spec = BUILTINS.get(n.func)
        if spec is not None:
            lo, hi, handler = spec
            if not lo <= len(n.args) <= hi:
                want = str(lo) if lo == hi else f"{lo} to {hi}"
                cx.error(
                    "E040",
                    f"{n.func}() takes {want} argument{'s' if hi != 1 else ''}, {len(n.args)} given",
                    n.pos,
                    length=len(n.func),
                )
            if n.kwargs:
                cx.error("E046", f"{n.func}() takes no keyword arguments", n.kwargs[0].pos)
            fn, t = handler(self, n, cx)
            if cx.public and _by_id(n):
                fn = self.faces_first(fn, n.args, cx)
            if cx.public and n.func == "components":  # listed by id: which is which, if one is face down
                fn = face_up_only(fn, t)
            return fn, t
        fdef = self.functions.get(n.func)
        if fdef is not None:
            return self.inline_function(n, fdef, cx)
        if n.func in self.procedures:
            cx.error("E044", f"'{n.func}' is a procedure: call it as a statement, it gives no value", n.pos)
        hint = did_you_mean(n.func, list(BUILTINS) + list(self.functions))
        cx.error("E037", f"unknown function '{n.func}'", n.pos, hint, len(n.func))

    def inline_function(self, n, fdef, cx: Cx):
        """User functions are expression macros: compiled at each call site
        with their parameters bound to fresh locals of the caller."""
        params, body_node, fpath, fspan = fdef
        if len(n.args) != len(params):
            cx.error(
                "E040",
                f"{n.func}() takes {len(params)} argument{'s' if len(params) != 1 else ''}, {len(n.args)} given",
                n.pos,
                length=len(n.func),
            )
        if cx.depth > 16:
            cx.error("E044", f"function '{n.func}' calls itself (directly or through others)", n.pos)
        args = []
        for (pname, ptype), arg in zip(params, n.args):
            fn = self.expect(arg, cx, ptype, f"argument '{pname}' of {n.func}()")
            args.append((pname, ptype, fn))
        inner = Scope(cx.scope.code, dict(cx.scope.names), cx.scope.event, cx.scope.event_slot)
        inner.names = {"player": cx.scope.names["player"]}
        if cx.scope.event:
            inner.event, inner.event_slot = cx.scope.event, cx.scope.event_slot
        slots = []
        for pname, ptype, fn in args:
            slots.append((inner.fresh(pname, ptype), fn))
        body_cx = Cx(self, inner, fpath, fspan, cx.depth + 1, cx.public)
        if body_node is None:
            raise CompileError("function body did not parse")
        body, t = self.expr(body_node, body_cx)
        if len(slots) == 1:
            ((s0, f0),) = slots

            def call1(st, L):
                L[s0] = f0(st, L)
                return body(st, L)

            return fused(call1, f"(L.__setitem__({s0}, {{0}}), {{1}})[1]", f0, body), t

        def call(st, L):
            values = [f(st, L) for _, f in slots]
            for (s, _), v in zip(slots, values):
                L[s] = v
            return body(st, L)

        fns = [f for _, f in slots] + [body]
        numbers = tuple(s for s, _ in slots)
        values = "(" + "".join(f"{{{i}}}, " for i in range(len(slots))) + ")"
        return fused(call, f"({{bind}}(L, {numbers!r}, {values}), {{{len(slots)}}})[1]", *fns, bind=_bind), t
