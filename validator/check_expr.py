"""Check expressions: resolve every name, infer and check types, and write
the meaning as IR (``validator.ir.X``).

``expr(node, cx) -> (X, Type)``. Every name is resolved here, at load: a
local, a built-in, a global or per-player variable, a parameter, a zone, a
component type or a function. A mistake is reported at its place and
abandons the expression (``CheckError``); the caller goes on, so one run
reports every mistake.
"""

from __future__ import annotations

import re
from contextlib import contextmanager

from rulebook.dsl import ast as A
from rulebook.validator.diagnostics import did_you_mean
from rulebook.validator.ir import X
from rulebook.validator.scope import Scope
from rulebook.validator.types import (
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


class CheckError(Exception):
    """Raised inside the checker to abandon one expression; the diagnostic
    has already been recorded."""


class Cx:
    """Where an expression is being checked: its scope and its place in the
    file, for diagnostics and for the places runtime errors name."""

    def __init__(self, comp, scope: Scope, path: tuple, span, depth: int = 0, public: bool = False):
        self.comp = comp
        self.scope = scope
        self.path = path
        self.span = span
        self.depth = depth
        # in text said to everybody (say): reading what a face-down
        # component hides makes its piece of text "[hidden]"
        self.public = public
        # where the procedure calls of a statement's values go (run before it): a list inside
        # an effect block, else None or a text saying where such a call cannot be
        self.hoist: list | str | None = None

    def inner(self, line: int, col: int, public: bool | None = None) -> Cx:
        """The context for an expression that starts at (line, col) of this text."""
        span = OffsetSpan(self.span, line, col) if self.span is not None else None
        cx = Cx(self.comp, self.scope, self.path, span, self.depth, self.public if public is None else public)
        if self.hoist is not None:
            cx.hoist = "in a text template"
        return cx

    def at(self, pos) -> tuple[int, int]:
        if self.span is None:
            return self.comp.doc.where(self.path)
        return self.span.to_file(pos[0], pos[1])

    def error(self, code: str, message: str, pos, hint: str | None = None, length: int = 1):
        self.comp.report(code, message, self.path, self.at(pos), hint, length)
        raise CheckError(message)

    def where(self, pos) -> str:
        line, col = self.at(pos)
        return f"{self.comp.doc.file}:{line}:{col}"


@contextmanager
def unhoisted(cx: Cx, where: str):
    """Inside this, a procedure call in a value is refused: it would not run
    exactly once before the statement (``where`` says why)."""
    saved = cx.hoist
    if isinstance(saved, list):
        cx.hoist = where
    try:
        yield
    finally:
        cx.hoist = saved


class OffsetSpan:
    """Positions inside an expression embedded in a larger text (a ``{...}``
    of a template) mapped through the outer text's own span."""

    def __init__(self, base, line: int, col: int):
        self.base, self.line, self.col = base, line, col

    def to_file(self, line: int, col: int) -> tuple[int, int]:
        if line == 1:
            return self.base.to_file(self.line, self.col + col - 1)
        return self.base.to_file(self.line + line - 1, col)


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


def draws(node) -> bool:
    """Whether an expression draws at random (random(), roll()): it must not
    be computed twice."""
    if isinstance(node, A.Call) and node.func in ("random", "roll"):
        return True
    for name in getattr(node, "__dataclass_fields__", ()):  # the node's children, alone or in tuples
        value = getattr(node, name)
        for child in value if isinstance(value, tuple) else (value,):
            if hasattr(child, "__dataclass_fields__") and draws(child):
                return True
    return False


# '{name}' or '{expr}' in a plain string: what a template would fill in
_LOOKS_FILLED_IN = re.compile(r"\{[A-Za-z_][^{}]*\}")


def face_up_only(x: X, t: Type | None = None) -> X:
    """``x``, a component (or, with its type ``t``, a list of them at any
    depth), for reading what its face shows in text said to everybody: a
    face-down one stops the piece of text, which then reads "[hidden]"
    instead of telling a secret. Values of other types pass."""
    depth = 0
    while t is not None and t.kind == "list":
        t, depth = t.arg, depth + 1
    if t is not None and t.kind != "comp":
        return x
    return X("face_up", x, depth)


def truthy(x: X, t: Type) -> X:
    """The truth of a value as the rule language means it: a zone or list
    holding something, a component or player that is not none, a number
    other than 0, a non-empty text."""
    if t.kind == "zone":
        return X("zone_nonempty", x)
    if t.kind in ("comp", "player"):
        return X("not_none", x)
    if t.kind == "bool":
        return x
    return X("bool", x)


def const(value) -> X:
    return X("const", value)


def as_list(x: X, t: Type) -> X:
    """A plain list whether ``x`` gives a zone or a list."""
    if t.kind == "zone":
        return X("zone_items", x)
    if t.kind == "any":
        return X("anylist", x)
    return x


class ExprChecker:
    """Mixed into the ruleset checker: ``expr(node, cx) -> (X, Type)``."""

    builtins: dict = {}  # name -> (min args, max args, handler): validator/check_calls.py, given by the checker

    # ----------------------------------------------------------- entry
    def expr(self, node, cx: Cx) -> tuple[X, Type]:
        method = getattr(self, "_x_" + type(node).__name__)
        return method(node, cx)

    def expect(self, node, cx: Cx, want: Type, what: str) -> X:
        x, t = self.expr(node, cx)
        if want.kind == "list" and t.kind == "zone":
            return as_list(x, t)
        if want.kind == "bool":
            return truthy(x, t)  # any value has a truth value, as in "if there are cards"
        if not compatible(want, t):
            cx.error("E041", f"{what} must be {want}, not {t}", node.pos)
        if want.kind == "list":
            return as_list(x, t)
        return x

    def listy(self, node, cx: Cx, what: str) -> tuple[X, Type]:
        x, t = self.expr(node, cx)
        if not is_listy(t):
            cx.error("E041", f"{what} must be a list or a zone, not {t}", node.pos)
        return as_list(x, t), elem_type(t)

    def cond(self, node, cx: Cx) -> X:
        return self.expect(node, cx, BOOL, "a condition")

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
        xs = [p[0] for p in parts]
        if cx.public and t.kind == "any":  # a mixed list names its components by number: only face-up ones
            xs = [face_up_only(x, pt) for x, (_, pt) in zip(xs, parts)]
        return X("list", tuple(xs)), LIST(t)

    # ----------------------------------------------------------- names
    def _x_Name(self, n, cx):
        name = n.id
        local = cx.scope.lookup(name)
        if local is not None:
            slot, t = local
            return X("local", slot), t
        if name in ("players", "live_players", "player_count", "current", "phase", "turn_number"):
            return X(name), {"players": LIST(PLAYER), "live_players": LIST(PLAYER), "player_count": INT,
                             "current": PLAYER, "phase": STR, "turn_number": INT}[name]
        if name == "event":
            if cx.scope.event is None:
                cx.error("E030", "'event' exists only in a trigger", n.pos)
            return X("local", cx.scope.event_slot), MAP
        if name in self.var_types:
            return X("var", name), self.var_types[name]
        if name in self.param_types:
            self.used_params.add(name)
            return X("param", name), self.param_types[name]
        fam = self.families.get(name)
        if fam is not None:
            self.used_zones.add(name)
            if fam.per is None:
                return X("shared_zone", name), ZONE(fam.of)
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
        later = getattr(self, "later_params", None)
        if later is not None and name in later[1]:
            what = "itself" if name == later[1][0] else "a later parameter"
            cx.error("E030", f"'{name}' is {what} of action '{later[0]}': its values are not known yet", n.pos,
                     "parameters are asked in the order they are written: the values of one may use only "
                     "the parameters above it", len(name))
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
                return X("pvar", obj, attr), self.pvar_types[attr]
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
            return X("field", obj, attr), fields.get(attr, ANY)
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
                return X("pvar", obj, attr), self.pvar_types[attr]
            cx.error(
                "E041",
                f"cannot tell what kind of value '.{attr}' is read from",
                n.pos,
                "give the value a known type, e.g. through a typed zone ('of:') or a procedure parameter",
            )
        cx.error("E041", f"a {t} has no properties ('.{attr}')", n.pos)

    def comp_attr(self, obj: X, t: Type, attr: str, n, cx):
        types = [self.comp_types[t.arg]] if t.arg else list(self.comp_types.values())
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
                self.read_props.add((ct.name if t.arg else None, attr))
                return X("dyn", obj, attr), ct.dynamic[attr]
        for ct in types:
            if attr in ct.static:
                self.read_props.add((ct.name if t.arg else None, attr))
                if t.arg:
                    return X("static", obj, attr, t.arg), ct.static[attr]
                return X("static_get", obj, attr), ct.static[attr]
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
            return X("list_item", obj, key, cx.where(n.pos)), elem_type(t)
        if t.kind == "str":
            if not compatible(INT, kt):
                cx.error("E041", f"a text's index must be a number, not {kt}", n.key.pos)
            return X("text_item", obj, key, cx.where(n.pos)), STR
        if t.kind == "zone":
            if kt.kind == "player" and isinstance(n.obj, A.Name) and n.obj.id in self.families:
                cx.error("E041", f"'{n.obj.id}' is one shared zone: {n.obj.id}[...] is the component at a "
                         "position, and this index is a player", n.key.pos,
                         f"drop the index, or declare '{n.obj.id}' with 'per: player' to give each player one")
            return X("zone_item", obj, key, cx.where(n.pos)), COMP(t.arg)
        cx.error("E041", f"a {t} cannot be indexed with [...]", n.pos)

    def _x_Slice(self, n, cx):
        obj, t = self.expr(n.obj, cx)
        bounds = []
        for b in (n.lo, n.hi):
            if b is None:
                bounds.append(None)
                continue
            x, bt = self.expr(b, cx)
            if bt.kind not in ("int", "any", "error", "player"):
                cx.error("E041", f"a slice's bound must be a number, not {bt}", b.pos)
            bounds.append(x)
        if t.kind == "str":
            return X("slice", obj, bounds[0], bounds[1], cx.where(n.pos)), STR
        if not is_listy(t):
            cx.error("E041", f"a {t} cannot be sliced with [a:b]: only lists, zones and texts", n.pos)
        return X("slice", as_list(obj, t), bounds[0], bounds[1], cx.where(n.pos)), LIST(elem_type(t))

    def zone_of_family(self, name: str, key_node, n, cx):
        fam = self.families[name]
        key, kt = self.expr(key_node, cx)
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

    # ----------------------------------------------------------- operators
    def _x_IfExpr(self, n, cx):
        c = self.cond(n.cond, cx)
        with unhoisted(cx, "in a branch of 'a if c else b' (computed only when chosen)"):
            a, ta = self.expr(n.then, cx)
            b, tb = self.expr(n.orelse, cx)
        return X("ifexpr", c, a, b), join(ta, tb)

    def _x_OrOp(self, n, cx):
        left = self.cond(n.left, cx)
        with unhoisted(cx, "on the right of 'or' (computed only when the left is false)"):
            return X("or", left, self.cond(n.right, cx)), BOOL

    def _x_AndOp(self, n, cx):
        left = self.cond(n.left, cx)
        with unhoisted(cx, "on the right of 'and' (computed only when the left is true)"):
            return X("and", left, self.cond(n.right, cx)), BOOL

    def _x_NotOp(self, n, cx):
        return X("not", self.cond(n.operand, cx)), BOOL

    def _x_Compare(self, n, cx):
        a, ta = self.expr(n.left, cx)
        b, tb = self.expr(n.right, cx)
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
        if cx.public and "none" not in (ta.kind, tb.kind):  # in text said to everybody, components
            a, b = face_up_only(a, ta), face_up_only(b, tb)  # compare by id: faces must be seen
        if n.op in ("==", "!=") and "list" in (ta.kind, tb.kind):
            return X("cmp_sized", n.op, a, b), BOOL  # lists compared item by item: charged by their size
        return X("cmp", n.op, a, b), BOOL

    def _x_InOp(self, n, cx):
        item, ti = self.expr(n.item, cx)
        coll, ct = self.listy(n.coll, cx, "the right side of 'in'")
        kinds = {ti.kind, ct.kind}
        if not kinds & {"any", "none", "error"} and ti.kind != ct.kind and kinds != {"int", "player"}:
            cx.error("E041", f"a {ti} is never in a list of {ct}: 'in' would always be "
                     f"{'true' if n.negated else 'false'}", n.pos, "compare values of the same kind")
        if cx.public:  # in text said to everybody, membership goes by id: faces must be seen
            item, coll = face_up_only(item, ti), face_up_only(coll, LIST(ct))
        return X("in", item, coll, n.negated), BOOL

    def _x_Binary(self, n, cx):
        a, ta = self.expr(n.left, cx)
        b, tb = self.expr(n.right, cx)
        op = n.op
        if op in ("+", "-") and (ta.kind in ("list", "zone") or tb.kind in ("list", "zone")):
            la, lb = as_list(a, ta), as_list(b, tb)
            et = join(elem_type(ta) if is_listy(ta) else ta, elem_type(tb) if is_listy(tb) else tb)
            if not is_listy(ta):
                cx.error(
                    "E041",
                    f"'{op}' with a list needs the list on the left, not {ta}",
                    n.left.pos,
                    "write [x] + xs to put a value before a list",
                )
            where = cx.where(n.pos)
            if op == "+":
                if not is_listy(tb):
                    return X("list_plus_one", la, b, where), LIST(et)
                return X("list_plus", la, lb, where), LIST(et)
            if not is_listy(tb):
                return X("list_minus_one", la, b), LIST(et)
            return X("list_minus", la, lb), LIST(et)
        if op == "+" and "str" in (ta.kind, tb.kind) and {ta.kind, tb.kind} <= {"str", "any", "error"}:
            return X("str_plus", a, b, cx.where(n.pos)), STR
        for side, t in ((n.left, ta), (n.right, tb)):
            if t.kind not in ("int", "any", "error", "player"):
                cx.error("E041", f"'{op}' needs numbers, not {t}", side.pos)
        if op in ("+", "-", "*"):
            return X("arith", op, a, b, cx.where(n.pos)), INT
        return X("div", op, a, b, cx.where(n.pos)), INT

    def _x_Neg(self, n, cx):
        a, t = self.expr(n.operand, cx)
        if t.kind not in ("int", "any", "error", "player"):  # players are seat numbers, as in arithmetic
            cx.error("E041", f"'-' needs a number, not {t}", n.pos)
        return X("neg", a), INT

    def _x_LambdaExpr(self, n, cx):
        cx.error("E041", "a function (x => ...) can only be an argument of filter, map, sort, any, all, ...", n.pos)

    def lam(self, node, cx: Cx, param_type: Type, what: str, predicate: bool = False,
            slot: int | None = None) -> tuple[int, X, Type]:
        """``x => ...``: (slot, body, type); ``slot`` binds a second function's parameter to the first's."""
        if not isinstance(node, A.LambdaExpr):
            cx.error("E041", f"{what} needs a function such as 'c => c.value', not a plain value", node.pos)
        if node.param.startswith("_"):
            cx.error("E014", f"'{node.param}': names starting with '_' are reserved", node.pos)
        outer = cx.scope.names.get(node.param)
        if slot is None:
            slot = cx.scope.fresh(node.param, param_type)
        else:
            cx.scope.names[node.param] = (slot, param_type)
        try:
            with unhoisted(cx, "inside a function (x => ...)"):
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
        spec = self.builtins.get(n.func)
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
            x, t = handler(self, n, cx)
            if cx.public and _by_id(n):
                x = self.faces_first(x, n.args, cx)
            if cx.public and n.func == "components":  # listed by id: which is which, if one is face down
                x = face_up_only(x, t)
            return x, t
        if n.func in self.functions:
            return self.call_function(n, cx)
        if n.func in self.procedures:
            return self.call_value(n, cx)
        hint = did_you_mean(n.func, list(self.builtins) + list(self.functions))
        cx.error("E037", f"unknown function '{n.func}'", n.pos, hint, len(n.func))

    def call_function(self, n, cx: Cx):
        """A call of a ruleset's function: its arguments are checked against
        its parameters here; its body is checked once for each kind of place
        it is called from (said to everybody or not, in which trigger), and
        compiled once into a Python function of its own."""
        params = self.functions[n.func][0]
        if len(n.args) != len(params):
            cx.error(
                "E040",
                f"{n.func}() takes {len(params)} argument{'s' if len(params) != 1 else ''}, {len(n.args)} given",
                n.pos,
                length=len(n.func),
            )
        args = tuple(self.expect(arg, cx, ptype, f"argument '{pname}' of {n.func}()")
                     for (pname, ptype), arg in zip(params, n.args))
        key, t = self.function_variant(n.func, cx.public, cx.scope.event, n, cx)
        event = X("local", cx.scope.event_slot) if cx.scope.event else X("const", None)
        return X("fn", key, X("local", 0), event, args), t
