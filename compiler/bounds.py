"""Bounds of the ruleset's integer expressions, so that arithmetic that
cannot leave the language's number limit is written as plain Python.

A product is checked (``lib.mul``) because a rule may multiply without end
(``set x = x * x`` in a loop reaches a million digits in a few steps) and
because ``*`` of a list and a number is an error in the language, not a
repetition. Most products in rules are of small known numbers: a loop
index over ``range(1, 8)`` times a step from a list of constants, a
component's fixed property times a count. This pass computes, for every expression of the checked
ruleset (``validator.ir.X``), what is known of its value at compile time:

- ``Num(lo, hi)``: an integer (``int`` or ``bool``) from ``lo`` to ``hi``
  (``None``: no bound on that side);
- ``Seq(item, least, most)``: a list of at least ``least`` and at most
  ``most`` items, each known as ``item``;
- ``None``: nothing known (it may be a text, none, a component...).

Known values come from constants, definitions whose text fixes them,
parameters with declared choices, the player count and seats, the fixed
properties of components (the join of what their ``for_each`` lists,
``items`` rows and property formulas can give, read from the rules, so it
holds for every player count and parameter), dice (``roll(k)`` is 1 to k),
lengths (a zone holds at most ``max_components``), ``range`` with known
ends, and what ``map``, ``filter``, slices, ``sum``, ``min``/``max``, ``let``
and items of lists make of them. A function's parameters are known as the
join of the arguments of every call in the rules (a fixpoint, widened after
a few rounds when a recursion keeps widening them), its value as that of its
body. A local of a procedure or hook that statements assign is not known.

The compiler asks ``plain_product``: both operands known integers whose
product is within ``max_number`` (it is then ``a * b``, the same value
without the check), ``safe_number``: a stored value that cannot pass the
limit (no ``number`` check), and ``plain_item``: an index known to be
inside a list known to be that long (``xs[i]``, no ``item_of``).

Known only for the rules' own calls: a scenario's expression compiles its
code with every check (``compiler/snippets.py`` turns this pass off), but
it may call a function of the program, compiled for its rules' arguments,
with others.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass

from rulebook.validator.ir import Expr, FunctionRule, S, Template, Unit, X, walk

# No list is longer: each item is at least a pointer of 8 bytes, and no process holds 8 TB. A length or a
# count of unknown lists is at most this, so a small number times one stays far within the number limit.
LONGEST = 2**40
ROUNDS_BEFORE_WIDENING = 4
MAX_ROUNDS = 20


@dataclass(frozen=True)
class Num:
    """An integer from ``lo`` to ``hi`` (None: unbounded on that side)."""

    lo: int | None
    hi: int | None


@dataclass(frozen=True)
class Seq:
    """A list of ``least`` to ``most`` items (``most`` None: any number), each ``item``."""

    item: object
    least: int
    most: int | None


NOTHING = "nothing"  # no value yet (a function not analysed, the item of an empty list)


def join(a, b):
    """What is known of a value that is ``a`` or ``b``."""
    if a is NOTHING:
        return b
    if b is NOTHING:
        return a
    if isinstance(a, Num) and isinstance(b, Num):
        return Num(None if a.lo is None or b.lo is None else min(a.lo, b.lo),
                   None if a.hi is None or b.hi is None else max(a.hi, b.hi))
    if isinstance(a, Seq) and isinstance(b, Seq):
        return Seq(join(a.item, b.item), min(a.least, b.least),
                   None if a.most is None or b.most is None else max(a.most, b.most))
    return None


def widen(old, new):
    """``new`` (which holds ``old``), with every bound that moved dropped, so that a fixpoint ends."""
    if old is NOTHING or old == new:
        return new
    if isinstance(old, Num) and isinstance(new, Num):
        return Num(new.lo if new.lo == old.lo else None, new.hi if new.hi == old.hi else None)
    if isinstance(old, Seq) and isinstance(new, Seq):
        return Seq(widen(old.item, new.item), new.least if new.least == old.least else 0,
                   new.most if new.most == old.most else None)
    return None


def known(v):
    """``v`` where a value must be one: nothing known of NOTHING."""
    return None if v is NOTHING else v


def finite(v) -> bool:
    return isinstance(v, Num) and v.lo is not None and v.hi is not None


def const_value(v):
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, int):
        return Num(v, v)
    if isinstance(v, (list, tuple)):
        item = NOTHING
        for i in v:
            item = join(item, const_value(i))
        return Seq(item, len(v), len(v))
    return None


def _add(a, b, sign: int):
    if not (isinstance(a, Num) and isinstance(b, Num)):
        return None
    blo, bhi = (b.lo, b.hi) if sign > 0 else (None if b.hi is None else -b.hi, None if b.lo is None else -b.lo)
    return Num(None if a.lo is None or blo is None else a.lo + blo, None if a.hi is None or bhi is None else a.hi + bhi)


def _mul(a, b):
    if not (finite(a) and finite(b)):
        return Num(None, None) if isinstance(a, Num) and isinstance(b, Num) else None
    corners = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
    return Num(min(corners), max(corners))


def _magnitude(v) -> int | None:
    return max(abs(v.lo), abs(v.hi)) if finite(v) else None


class Bounds:
    """What is known of every expression of one checked ruleset, by node (``of``)."""

    def __init__(self, checked, created, limits: dict):
        self.ch = checked
        self.created = set(created)
        self.limits = limits
        meta = checked.meta
        self.player = Num(0, max(meta.get("max_players", 1) - 1, 0))
        self.players = (meta.get("min_players", 1), meta.get("max_players", 1))
        self.values: dict[int, object] = {}
        self.recording = False
        self.args: dict = {key: NOTHING for key in checked.functions}  # key -> tuple of known arguments
        self.results: dict = {key: NOTHING for key in checked.functions}
        self.defines: dict = {}
        self.statics: dict = {}
        self._analyse()

    # ------------------------------------------------------------ questions the compiler asks
    def of(self, x) -> object:
        """What is known of node ``x``'s value (None: nothing)."""
        return known(self.values.get(id(x)))

    def plain_product(self, a: X, b: X) -> bool:
        """``a * b`` of two known integers whose product stays within the number limit."""
        va, vb = self.of(a), self.of(b)
        if not (finite(va) and finite(vb)):
            return False
        return _magnitude(_mul(va, vb)) <= self.limits["max_number"]

    def safe_number(self, x: X) -> bool:
        """``x`` is a known integer within the number limit."""
        v = self.of(x)
        return finite(v) and _magnitude(v) <= self.limits["max_number"]

    def plain_item(self, xs: X, i: X) -> bool:
        """``xs[i]`` of a list known to hold an item at every index ``i`` can be."""
        vs, vi = self.of(xs), self.of(i)
        return isinstance(vs, Seq) and finite(vi) and -vs.least <= vi.lo and vi.hi < vs.least

    # ------------------------------------------------------------ the analysis
    def _analyse(self) -> None:
        for name, expr in self.ch.defines:
            self.defines[name] = known(self.ev(expr.x, {}))
        for rules in self.ch.components.values():
            self._component(rules)
        self.order = callers_first(self.ch.functions)
        for round_no in range(MAX_ROUNDS):
            before = (dict(self.args), dict(self.results))
            self._round()
            if round_no >= ROUNDS_BEFORE_WIDENING:
                for key in self.args:
                    self.args[key] = self._widen_args(before[0][key], self.args[key])
                    self.results[key] = widen(before[1][key], self.results[key])
            if (self.args, self.results) == before:
                break
        else:  # no fixpoint: nothing is known
            self.values = {}
            return
        self.values = {}
        self.recording = True
        self._round()
        self.recording = False

    def _widen_args(self, old, new):
        if old is NOTHING or new is NOTHING:
            return new
        return tuple(widen(o, n) for o, n in zip(old, new))

    def _round(self) -> None:
        """Every expression evaluated once; a function's body with the arguments
        its calls gave so far (a function no rule calls yet waits, except in
        the recording round, where its parameters are unknown)."""
        given = dict(self.args) if self.recording else self.args
        if self.recording:
            for rules in self.ch.components.values():
                self._component(rules)
        for f in fields(self.ch):
            if f.name not in ("functions", "components", "defines", "meta", "source_lines", "slot_names"):
                self._roots(getattr(self.ch, f.name))
        for key in self.order:
            rule = self.ch.functions[key]
            args = given[key]
            if args is NOTHING and not self.recording:
                continue
            env = {0: None if args is NOTHING else args[0]}
            for i, slot in enumerate(rule.params):
                env[slot] = NOTHING if args is NOTHING else args[i + 1]
            env = {s: known(v) for s, v in env.items()}
            self.results[key] = join(self.results[key], self.ev(rule.body, env))
        for _name, expr in self.ch.defines:
            self.ev(expr.x, {})

    def _roots(self, obj) -> None:
        """Evaluate every expression under ``obj`` (statements, rules, tables).
        Nothing is known of a unit's locals, its player included (none
        before the first turn): only what its expressions bind themselves."""
        if isinstance(obj, X):
            self.ev(obj, {})
        elif isinstance(obj, Expr):
            self._roots(obj.x)
        elif isinstance(obj, Unit):
            self._roots(obj.body)
        elif isinstance(obj, S):
            self._roots(obj.a)
        elif isinstance(obj, Template):
            self._roots(obj.pieces)
        elif isinstance(obj, (list, tuple)):
            for item in obj:
                self._roots(item)
        elif isinstance(obj, dict):
            for item in obj.values():
                self._roots(item)
        elif is_dataclass(obj) and not isinstance(obj, (type, FunctionRule)):
            for f in fields(obj):
                self._roots(getattr(obj, f.name))

    def _component(self, rules) -> None:
        """The values a component type's fixed properties can take, from how its components are made."""
        env: dict = {}
        found: dict = {}
        for var, slot, x in rules.loops:
            v = known(self.ev(x, env)) if x is not None else None
            env[slot] = known(v.item) if isinstance(v, Seq) else None
            found[var] = join(found.get(var, NOTHING), env[slot])
        for key, slot in rules.item_keys:
            v = NOTHING
            for row in rules.items:
                v = join(v, const_value(row.get(key)) if isinstance(row, dict) and key in row else None)
            env[slot] = known(v)
            found[key] = join(found.get(key, NOTHING), env[slot])
        for name, slot, x in rules.props:
            env[slot] = known(self.ev(x, env)) if x is not None else None
            found[name] = join(found.get(name, NOTHING), env[slot])
        for name in (rules.copies, rules.count):
            if name is not None:
                self.ev(name, env)
        self.statics[rules.name] = {k: known(v) for k, v in found.items()}

    def static(self, kind, attr: str):
        if kind is None:  # of any type: none where a type has no such property
            if self.created or any(attr not in props for props in self.statics.values()):
                return None
            v = NOTHING
            for props in self.statics.values():
                v = join(v, props[attr])
            return known(v)
        if kind in self.created:
            return None
        return (self.statics.get(kind) or {}).get(attr)

    def param(self, name: str):
        if name in self.defines:
            return self.defines[name]
        choices = (self.ch.meta.get("param_choices") or {}).get(name)
        if choices:
            v = NOTHING
            for c in choices:
                v = join(v, const_value(c))
            return known(v)
        return None

    # ------------------------------------------------------------ one expression
    def ev(self, x, env: dict):
        if not isinstance(x, X):
            return None
        rule = RULES.get(x.op)
        v = rule(self, env, *x.a) if rule is not None else self._children(x, env)
        if self.recording:
            self.values[id(x)] = join(self.values[id(x)], v) if id(x) in self.values else v
        return v

    def _children(self, x: X, env: dict):
        """Nothing known of ``x``; its parts are evaluated (a query's own local unknown)."""
        slot = LAMBDA_SLOTS.get(x.op)
        inner = env if slot is None else {**env, x.a[slot]: None}
        for child in x.children():
            self.ev(child, inner)
        return None

    def bind(self, env: dict, slot: int, xs) -> dict:
        xs = known(xs)
        return {**env, slot: known(xs.item) if isinstance(xs, Seq) else None}

    def items(self, xs):
        xs = known(xs)
        return xs if isinstance(xs, Seq) else None

    def call(self, env, key, player, event, args):
        values = (self.ev(player, env),) + tuple(self.ev(a, env) for a in args)  # NOTHING: not known yet
        self.ev(event, env)
        old = self.args.get(key, NOTHING)
        self.args[key] = values if old is NOTHING else tuple(join(o, v) for o, v in zip(old, values))
        return self.results.get(key, NOTHING)

    def pick_of(self, fn, xs, empty):
        s = self.items(xs)
        item = known(s.item) if s is not None else None
        if fn not in ("min", "max"):
            return None
        return join(item, const_value(empty)) if (s is None or s.least == 0) else item


def callers_first(functions: dict) -> list:
    """The functions' keys, each after every function that calls it (no
    function calls itself, E044), so that one round sees all of a function's
    arguments before its body."""
    done: set = set()
    post: list = []
    for start in functions:
        stack = [(start, iter(_callees(functions[start])))]
        if start in done:
            continue
        done.add(start)
        while stack:
            key, callees = stack[-1]
            nxt = next((c for c in callees if c not in done and c in functions), None)
            if nxt is None:
                stack.pop()
                post.append(key)
            else:
                done.add(nxt)
                stack.append((nxt, iter(_callees(functions[nxt]))))
    return post[::-1]


def _callees(rule) -> list:
    return [n.a[0] for n in walk(rule.body) if n.op == "fn"]


LAMBDA_SLOTS = {"sum_by": 1, "pick_key": 2, "best_by": 2, "best_each": 2, "sort_by": 1, "filter": 1, "map": 1,
                "all_by": 1, "any_by": 1, "first_by": 1, "distinct_by": 1, "within": 2, "let_in": 0}


def _seq_like(b: Bounds, env, xs, keep_least: bool):
    s = b.items(b.ev(xs, env))
    return Seq(s.item, s.least if keep_least else 0, s.most) if s is not None else None


def _range(b: Bounds, env, lo, hi, _w):
    vlo, vhi = known(b.ev(lo, env)), known(b.ev(hi, env))
    if not (isinstance(vlo, Num) and isinstance(vhi, Num)):
        return None
    most = vhi.hi - vlo.lo if vhi.hi is not None and vlo.lo is not None else None
    least = max(vhi.lo - vlo.hi, 0) if vhi.lo is not None and vlo.hi is not None else 0
    item = Num(vlo.lo, None if vhi.hi is None else vhi.hi - 1)
    return Seq(item, least, None if most is None else max(most, 0))


def _sum(s):
    if s is None or not finite(known(s.item)):
        return None
    item, most = s.item, LONGEST if s.most is None else s.most
    return Num(min(item.lo, 0) * most, max(item.hi, 0) * most)


def _map(b: Bounds, env, xs, slot, f):
    s = b.items(b.ev(xs, env))
    v = known(b.ev(f, b.bind(env, slot, s)))
    return Seq(v, s.least, s.most) if s is not None else Seq(v, 0, None)


def _filter(b: Bounds, env, xs, slot, pred):
    s = b.items(b.ev(xs, env))
    b.ev(pred, b.bind(env, slot, s))
    return Seq(s.item, 0, s.most) if s is not None else None


def _search(b: Bounds, env, xs, slot, pred):
    s = b.items(b.ev(xs, env))
    b.ev(pred, b.bind(env, slot, s))
    return None


def _sum_by(b: Bounds, env, xs, slot, key):
    s = b.items(b.ev(xs, env))
    v = known(b.ev(key, b.bind(env, slot, s)))
    return _sum(Seq(v, s.least, s.most) if s is not None else Seq(v, 0, None))


def _pick_key(b: Bounds, env, fn, xs, slot, key, empty):
    s = b.items(b.ev(xs, env))
    v = known(b.ev(key, b.bind(env, slot, s)))
    return b.pick_of(fn, Seq(v, s.least if s else 0, s.most if s else None), empty)


def _sort_by(b: Bounds, env, xs, slot, key):
    s = b.items(b.ev(xs, env))
    b.ev(key, b.bind(env, slot, s))
    return s


def _distinct_by(b: Bounds, env, xs, slot, key):
    s = _sort_by(b, env, xs, slot, key)
    return Seq(s.item, 0, s.most) if s is not None else None


def _let(b: Bounds, env, slot, value, body):
    return b.ev(body, {**env, slot: known(b.ev(value, env))})


def _list(b: Bounds, env, items):
    item = NOTHING
    for i in items:
        item = join(item, known(b.ev(i, env)))
    return Seq(item, len(items), len(items))


def _arith(b: Bounds, env, op, x, y, _w):
    vx, vy = known(b.ev(x, env)), known(b.ev(y, env))
    if op == "*":
        return _mul(vx, vy)
    if op in ("+", "-"):
        return _add(vx, vy, 1 if op == "+" else -1)
    return None


def _div(b: Bounds, env, op, x, y, _w):
    vx, vy = known(b.ev(x, env)), known(b.ev(y, env))
    if op == "//" and isinstance(vy, Num):
        m = _magnitude(vx)
        return Num(-m, m) if m is not None else Num(None, None) if isinstance(vx, Num) else None
    if op == "%" and isinstance(vx, Num) and finite(vy):
        m = _magnitude(vy)
        return Num(-m, m)
    return None


def _neg(b: Bounds, env, x):
    v = known(b.ev(x, env))
    if not isinstance(v, Num):
        return None
    return Num(None if v.hi is None else -v.hi, None if v.lo is None else -v.lo)


def _abs(b: Bounds, env, x):
    v = known(b.ev(x, env))
    if not isinstance(v, Num):
        return None
    m = _magnitude(v)
    return Num(0, m)


def _ifexpr(b: Bounds, env, c, x, y):
    b.ev(c, env)
    return join(known(b.ev(x, env)), known(b.ev(y, env)))


def _item(b: Bounds, env, xs, i, _w):
    s = b.items(b.ev(xs, env))
    b.ev(i, env)
    return known(s.item) if s is not None else None


def _len(b: Bounds, env, xs):
    s = b.items(b.ev(xs, env))
    return Num(s.least, LONGEST if s.most is None else s.most) if s is not None else Num(0, LONGEST)


def _zone_len(b: Bounds, env, z):
    b.ev(z, env)
    return Num(0, b.limits["max_components"])


def _pick2(b: Bounds, env, fn, x, y):
    vx, vy = known(b.ev(x, env)), known(b.ev(y, env))
    if fn not in ("min", "max") or not (isinstance(vx, Num) and isinstance(vy, Num)):
        return None
    pick = min if fn == "min" else max

    def side(p, q, unbounded_wins):
        if p is None or q is None:
            return None if unbounded_wins else (q if p is None else p)
        return pick(p, q)
    # min: an unbounded low side stays unbounded, an unbounded high side takes the other's
    return Num(side(vx.lo, vy.lo, fn == "min"), side(vx.hi, vy.hi, fn == "max"))


def _roll(b: Bounds, env, k, _w):
    v = known(b.ev(k, env))
    return Num(1, v.hi if isinstance(v, Num) else None)


def _index_of(b: Bounds, env, xs, x):
    s = b.items(b.ev(xs, env))
    b.ev(x, env)
    return Num(-1, (LONGEST if s is None or s.most is None else s.most) - 1)


def _count_of(b: Bounds, env, xs, x):
    s = b.items(b.ev(xs, env))
    b.ev(x, env)
    return Num(0, LONGEST if s is None or s.most is None else s.most)


def _flatten(b: Bounds, env, xs):
    s = b.items(b.ev(xs, env))
    inner = known(s.item) if s is not None else None
    if not isinstance(inner, Seq):
        return None
    most = None if s.most is None or inner.most is None else s.most * inner.most
    return Seq(inner.item, 0, most)


RULES = {
    "const": lambda b, env, v: const_value(v),
    "local": lambda b, env, slot: env.get(slot),
    "list": _list,
    "param": lambda b, env, name: b.param(name),
    "player_count": lambda b, env: Num(*b.players),
    "players": lambda b, env: Seq(b.player, b.players[0], b.players[1]),
    "live_players": lambda b, env: Seq(b.player, 0, b.players[1]),
    "seat": lambda b, env, p: (b.ev(p, env), Num(1, b.players[1]))[1],
    "static": lambda b, env, c, attr, kind: (b.ev(c, env), b.static(kind, attr))[1],
    "static_get": lambda b, env, c, attr: (b.ev(c, env), b.static(None, attr))[1],
    "arith": _arith,
    "div": _div,
    "neg": _neg,
    "abs": _abs,
    "ifexpr": _ifexpr,
    "list_item": _item,
    "len": _len,
    "zone_len": _zone_len,
    "sum": lambda b, env, xs: _sum(b.items(b.ev(xs, env))),
    "sum_by": _sum_by,
    "pick2": _pick2,
    "pick": lambda b, env, fn, xs, empty: b.pick_of(fn, b.ev(xs, env), empty),
    "pick_key": _pick_key,
    "range": _range,
    "map": _map,
    "filter": _filter,
    "all_by": _search,
    "any_by": _search,
    "first_by": _search,
    "sort_by": _sort_by,
    "distinct_by": _distinct_by,
    "sorted": lambda b, env, xs: _seq_like(b, env, xs, True),
    "reverse": lambda b, env, xs: _seq_like(b, env, xs, True),
    "copy": lambda b, env, xs: _seq_like(b, env, xs, True),
    "distinct": lambda b, env, xs: _seq_like(b, env, xs, False),
    "slice": lambda b, env, xs, lo, hi, _w: (b.ev(lo, env), b.ev(hi, env), _seq_like(b, env, xs, False))[2],
    "top_n": lambda b, env, xs, k: (b.ev(k, env), _seq_like(b, env, xs, False))[1],
    "components": lambda b, env, name: Seq(None, 0, b.limits.get("max_components")),
    "roll": _roll,
    "index_of": _index_of,
    "count_of": _count_of,
    "flatten": _flatten,
    "let_in": _let,
    "guarded": lambda b, env, guards, call: ([b.ev(g, env) for g in guards], b.ev(call, env))[1],
    "fn": lambda b, env, key, player, event, args: b.call(env, key, player, event, args),
}


def bounds_of(m) -> Bounds | None:
    """The pass's answers for the module ``m`` writes (computed on first use;
    None where it is turned off: a scenario's code, compiler/snippets.py)."""
    if "bounds" not in m.__dict__:
        m.bounds = Bounds(m.checked, m.an.created, m.limits)
    return m.bounds


def plain_product(e, a: X, b: X) -> bool:
    bounds = bounds_of(e.m)
    return bounds is not None and bounds.plain_product(a, b)


def plain_item(e, xs: X, i: X) -> bool:
    bounds = bounds_of(e.m)
    return bounds is not None and bounds.plain_item(xs, i)


def safe_number(e, x: X) -> bool:
    bounds = bounds_of(e.m)
    return bounds is not None and bounds.safe_number(x)
