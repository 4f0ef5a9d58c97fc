"""What every check of an expression works with: its place (``Cx``), the
way to abandon it (``CheckError``), and the small helpers the checks of
each construct share (truth, lists, face-up reading, what a name resolved
to).

A value is checked by ``ck.expr(node, cx) -> (X, Type)`` (``ck`` is the
``checker.RulesetChecker``), which looks the node's kind up in
``expr_checks.EXPRESSION_CHECKS``; the checks themselves are free
functions in ``expr_literals``, ``expr_names``, ``expr_access``,
``expr_operators``, ``expr_functions``, ``expr_calls`` and ``check_calls``.
Every name is resolved at load: a local, a built-in, a global or
per-player variable, a parameter, a zone, a component type or a function.
A mistake is reported at its place and abandons the expression
(``CheckError``); the caller goes on, so one run reports every mistake.
"""

from __future__ import annotations

from contextlib import contextmanager

from rulebook.dsl import ast as A
from rulebook.validator.ir import X
from rulebook.validator.scope import Scope
from rulebook.validator.types import (
    BOOL,
    Type,
    compatible,
    elem_type,
    is_listy,
)
from rulebook.validator.uses import NameUse, name_column

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

    def note(self, kind: str, name: str, pos, target: tuple | None = None, type_=None, binds: bool = False,
             find: bool = False) -> None:
        """Record that ``name`` at ``pos`` resolved to ``target``
        (``validator.uses``: what editors read for hover and definitions);
        ``find``: ``pos`` is where the construct starts, the name is further on."""
        index = getattr(self.comp, "index", None)
        if index is None:
            return
        line, col = self.at(pos)
        if binds or find:  # a statement's place is where it starts: the name is further on
            col = name_column(self.comp.out.source_lines, line, col, name)
        index.add(NameUse(kind, name, line, col, self.path, target or (kind, name),
                          "" if type_ is None else str(type_), binds))

    def local_target(self, name: str) -> tuple:
        """What a local name names: its slot in its unit."""
        slot, _ = self.scope.names[name]
        return ("local", self.scope.unit.name, slot)


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


def resolved(comp, cx: Cx, node, check) -> tuple[X, Type]:
    """``check(comp, node, cx)``, recording what the name, property or call
    ``node`` resolved to (``Cx.note``), so that each kind of name is
    recorded in one place. A call is recorded before its arguments are
    checked: a mistake in one of them leaves the callee known."""
    if type(node) is A.Call:
        what = "builtin" if node.func in comp.builtins else "function" if node.func in comp.functions \
            else "procedure" if node.func in comp.procedures else None
        if what is not None:
            cx.note(what, node.func, node.pos)
        return check(comp, node, cx)
    return note_resolved(comp, cx, node, *check(comp, node, cx))


def note_resolved(comp, cx: Cx, node, x: X, t: Type) -> tuple[X, Type]:
    """``(x, t)``, after recording what the name or property ``node``
    resolved to: read from the IR the checker made."""
    kind = type(node)
    if kind is A.Name:
        name = node.id
        if x.op == "local" and name != "event":
            cx.note("local", name, node.pos, ("local", cx.scope.unit.name, x.a[0]), t)
        elif x.op in ("var", "param"):
            kind = "define" if x.op == "param" and name in (comp.data.get("define") or {}) else x.op
            cx.note(kind, name, node.pos, type_=t)
        elif x.op == "shared_zone" or t.kind == "family":
            cx.note("zone", name, node.pos)
        elif t.kind == "ctype":
            cx.note("component", name, node.pos)
        else:
            cx.note("value", name, node.pos, type_=t)
    elif kind is A.Attribute and x.op == "pvar":
        cx.note("player_var", node.attr, node.pos, type_=t)
    elif kind is A.Attribute and x.op in ("dyn", "static", "static_get"):
        owners = [ct.name for ct in comp.comp_types.values() if node.attr in ct.static or node.attr in ct.dynamic]
        owner = x.a[2] if x.op == "static" else owners[0] if len(owners) == 1 else ""
        cx.note("property", node.attr, node.pos, ("property", owner, node.attr), t)
    return x, t


def expect(ck, node, cx: Cx, want: Type, what: str) -> X:
    """The X of a value that must be of type ``want`` (``what`` names it in the error)."""
    x, t = ck.expr(node, cx)
    if want.kind == "list" and t.kind == "zone":
        return as_list(x, t)
    if want.kind == "bool":
        return truthy(x, t)  # any value has a truth value, as in "if there are cards"
    if not compatible(want, t):
        cx.error("E041", f"{what} must be {want}, not {t}", node.pos)
    if want.kind == "list":
        return as_list(x, t)
    return x


def listy(ck, node, cx: Cx, what: str) -> tuple[X, Type]:
    """(plain list, item type) of a value that must be a list or a zone."""
    x, t = ck.expr(node, cx)
    if not is_listy(t):
        cx.error("E041", f"{what} must be a list or a zone, not {t}", node.pos)
    return as_list(x, t), elem_type(t)


def cond(ck, node, cx: Cx) -> X:
    """The truth of a value used as a condition."""
    return expect(ck, node, cx, BOOL, "a condition")
