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

from rulebook.compiler.cse import KEEP, ChainMemo, key_of
from rulebook.compiler.emit_let import emit_let
from rulebook.compiler.emptiness import EmptinessTests
from rulebook.compiler.plan import distinct_source, family_of_filter, reads_only_key, value_test
from rulebook.validator.ir import X, walk

MAX_DEPTH = 30  # nesting kept in one Python expression; deeper parts become functions of their own


# where each operation that binds a function's parameter keeps its slot
LAMBDA_SLOT = {"sum_by": 1, "pick_key": 2, "best_by": 2, "best_each": 2, "sort_by": 1, "filter": 1, "map": 1,
               "all_by": 1, "any_by": 1, "first_by": 1, "distinct_by": 1, "within": 2, "let_in": 0}

# operations whose value is a new list nobody else holds: copying it again is waste
FRESH = frozenset({"list", "filter", "map", "flatten", "sorted", "sort_by", "best_each", "reverse", "distinct",
                   "distinct_lists", "distinct_by", "range", "subsets", "components", "copy", "list_plus",
                   "list_plus_one", "list_minus", "list_minus_one", "players", "live_players", "top_n", "bottom_n",
                   "seat_order", "opponents", "within"})


class ExprEmitter(ChainMemo, EmptinessTests):
    """Mixed into ``compiler.code.Code``: ``ex(x) -> str``."""

    cse_plan: dict = {}  # id(node) -> (name, key): values kept where first computed (compiler/cse.py)
    cse_bound: dict = {}  # key -> name: values kept so far, read again instead of computed
    in_iterable = 0  # writing a comprehension's iterable, where ':=' is not allowed

    def snapshot(self, x: X) -> str:
        """A list of its own of ``x``'s items (a loop or a question's options
        must not change when a zone does)."""
        return self.ex(x) if x.op in FRESH else f"list({self.ex(x)})"

    level = 0  # nesting of the expression being written
    invariant_names: dict | None = None  # id(node) -> name: parts of a query's body computed once before it
    inline_names: dict | None = None  # id(a call's arguments) -> the same, for the function written at the call

    def ex(self, x: X) -> str:
        if x._depth is None:
            _measure(x)
        if self.invariant_names is not None and id(x) in self.invariant_names:
            return self.read_invariant(x)
        if self.level >= MAX_DEPTH and x._depth > 1:
            return self.hoist(x)
        if x.op in KEEP and self.cse_bound:
            name = self.cse_bound.get(key_of(x))
            if name is not None:
                return name
        self.level += 1
        try:
            if x.op in ("and", "or"):
                return self.chain(x.op, x)
            src = EMIT[x.op](self, *x.a)
        finally:
            self.level -= 1
        kept = self.cse_plan.get(id(x)) if self.cse_plan else None
        if kept is not None and not self.in_iterable:
            name, key = kept
            self.cse_bound[key] = name
            return f"({name} := {src})"
        return src

    def iterable(self, x: X) -> str:
        """``x`` written where a comprehension reads its items."""
        self.in_iterable += 1
        try:
            return self.ex(x)
        finally:
            self.in_iterable -= 1

    def cond(self, x: X) -> str:
        return self.ex(x)

    def filter(self, xs: X, slot: int, pred: X) -> str:
        """``filter``; over every component of a type, only those in the zone
        family the condition requires, when it requires one (compiler/plan.py)."""
        family = family_of_filter(self.m, xs, slot, pred)
        found = value_test(self.m, xs, slot, pred) if family is None else None
        if found is not None and found[:2] in self.m.index_plan():  # the components holding those values only
            target = self.local(slot, bind=True)
            items = f"indexed(st, {found[0]!r}, {found[1]!r}, {self.const(found[2])})"
            return self.once_per_query(slot, pred, lambda: f"[{target} for {target} in charged(st, {items}) "
                                                           f"if {self.ex(pred)}]")
        if family is None:
            source = distinct_source(self.m, xs, inlined)
            if source is not None and reads_only_key(self.m, pred, slot, source[1]):
                return self.filter_then_distinct(slot, pred, *source)
            return self.lam(slot, pred, xs, "[{t} for {t} in {items} if {body}]")
        target = self.local(slot, bind=True)
        body = self.ex(pred)
        return f"[{target} for {target} in charged(st, components_in(st, {xs.a[0]!r}, {family!r})) if {body}]"

    def filter_then_distinct(self, slot: int, pred: X, distinct: X, attrs: tuple, call: X | None) -> str:
        """``filter(distinct_by(items, key), pred)`` as ``distinct_by(filter(items,
        pred), key)`` when ``pred`` reads the item only through the key's fixed
        properties (plan.reads_only_key): the cards of a hand the rule keeps,
        then one of each kind, instead of one of each kind of the whole hand."""
        items = distinct.a[0]
        if call is not None:  # the small function's list, its parameters bound to the call's arguments
            _key, player, _event, args = call.a
            sub = self.inline_writer(self.m.checked.functions[_key], player, args)
            sub.in_iterable += 1
            source = sub.ex(items)
            self.lines_from(sub)
        else:
            source = self.iterable(items)
        target = self.local(slot, bind=True)
        kept = self.once_per_query(slot, pred, lambda: f"[{target} for {target} in charged(st, {source}) "
                                                       f"if {self.ex(pred)}]")
        return f"distinct_of(charged(st, {kept}), {self.key_column(attrs)})"

    def search(self, op: str, xs: X, slot: int, pred: X, template: str) -> str:
        """``any``, ``all`` or ``first`` with a condition: a call of a small
        function of the module written as a loop that returns at the answer
        (``search_function``), which costs less than the generator written
        in place; in place where the condition has a part to compute once
        before the query, or reads a value the expression around it keeps."""
        fn = self.search_function(op, xs, slot, pred)
        return fn if fn is not None else self.lam(slot, pred, xs, template)

    def search_function(self, op: str, xs: X, slot: int, pred: X) -> str | None:
        whole = X(op, xs, slot, pred)
        nodes = list(walk(whole))
        kept = self.invariant_names or {}
        if invariant_parts(self.m, pred, {slot}) or any(
                id(n) in kept or (self.cse_plan and id(n) in self.cse_plan)
                or (self.cse_bound and n.op in KEEP and key_of(n) in self.cse_bound) for n in nodes):
            return None
        if self.inline_names and any(id(n.a[3]) in self.inline_names for n in nodes if n.op == "fn"):
            return None
        inner = {slot} | {n.a[LAMBDA_SLOT[n.op]] for n in nodes if n.op in LAMBDA_SLOT}
        free = sorted({n.a[0] for n in nodes if n.op == "local" and n.a[0] not in inner})
        fn = self.m.name(f"{op[:-3]}_{self.name}")
        code = self.m.add(type(self)(self.m, fn, self.unit_name, self.slot_names))
        code.where = self.where
        params = [code.local(s, bind=True) for s in free]
        code.line(f"def {fn}({', '.join(['st'] + params)}):", self.where)
        with code.block():
            code.search_loop(op, xs, slot, pred)
        return f"{fn}({', '.join(['st'] + [self.local(s) for s in free])})"

    def search_loop(self, op: str, xs: X, slot: int, pred: X) -> None:
        """The body of a function that searches ``xs``: a loop that returns at the answer."""
        test, found, otherwise = LOOPED[op]
        item = self.local(slot, bind=True)
        self.line(f"for {item} in charged(st, {self.iterable(xs)}):")
        with self.block():
            self.line(f"if {test.format(test=self.ex(pred))}: return {found.format(item=item)}")
        self.line(f"return {otherwise}")

    def lam(self, slot: int, body: X, items: X, template: str) -> str:
        """A comprehension binding ``slot`` to each item of ``items`` (charged
        to the work budget first)."""
        target = self.local(slot, bind=True)
        return self.once_per_query(slot, body, lambda: template.format(
            body=self.ex(body), t=target, items=f"charged(st, {self.iterable(items)})"))

    # ------------------------------------------------------------ loop-invariant parts
    def once_per_query(self, slot: int, body: X, write) -> str:
        """``write()``, the source of a query over items bound to ``slot``,
        with the parts of ``body`` that depend on no item computed once
        before it (``invariant_parts``), also inside the small functions
        written at their call sites: ``playable(c)`` over a hand reads the
        top of the discard once per hand, not once per card."""
        parts = [] if self.in_iterable else invariant_parts(self.m, body, {slot})
        if not parts:
            return write()
        saved, saved_calls = self.invariant_names, self.inline_names
        names, calls = dict(saved or {}), dict(saved_calls or {})
        same: dict = {}  # a lookup that cannot fail, written twice (reading no local): one name
        for node, call in parts:
            shared = total(node) and (call is None or not any(n.op == "local" for n in walk(node)))
            name = same.get(key_of(node)) if shared else None
            if name is None:
                self.m.invariants = getattr(self.m, "invariants", 0) + 1
                name = f"{'_t' if total(node) else '_i'}{self.m.invariants}"
                if shared:
                    same[key_of(node)] = name
            if call is None:
                names[id(node)] = name
            else:
                calls.setdefault(id(call.a[3]), {})[id(node)] = name
        self.invariant_names, self.inline_names = names, calls
        try:
            query = write()
        finally:
            self.invariant_names, self.inline_names = saved, saved_calls
        before = []
        plan, bound = self.cse_plan, self.cse_bound
        self.cse_plan, self.cse_bound = {}, {}  # nothing kept with := inside the lambda below
        written = set()
        try:
            for node, call in parts:
                name = names[id(node)] if call is None else calls[id(call.a[3])][id(node)]
                if name in written:
                    continue
                written.add(name)
                src = self.ex(node) if call is None else self.inline_part(call, node)
                # a part that cannot fail is computed plainly; another under attempt (read_invariant)
                before.append(f"({name} := {src})" if name.startswith("_t") else f"({name} := attempt(lambda: {src}))")
        finally:
            self.cse_plan, self.cse_bound = plan, bound
        return f"({', '.join(before)}, {query})[-1]"

    def type_of(self, c: X) -> str:
        """A component's type: from the catalogue's table, which holds every
        component when no rule creates one in play."""
        if not self.m.an.created:
            return f"{self.hoisted('cat_types', 'st.cat.types')}[{self.ex(c)}]"
        if c.op == "local":
            return f"(st.cat.types[{self.ex(c)}] if {self.ex(c)} < st.cat.n else st.static[{self.ex(c)}]['type'])"
        return f"type_of(st, {self.ex(c)})"

    def read_invariant(self, x: X) -> str:
        """A part computed before its query: its value, or, when computing it
        failed there, the part written in place, to fail where it did."""
        name = self.invariant_names[id(x)]
        if name.startswith("_t"):  # a part that cannot fail (``total``)
            return name
        # nothing kept with := in the fallback: it runs only when the part failed, and the operands after it
        # would read a name never bound
        saved, self.invariant_names = self.invariant_names, None
        saved_plan, self.cse_plan = self.cse_plan, {}
        try:
            src = self.ex(x)
        finally:
            self.invariant_names, self.cse_plan = saved, saved_plan
        return f"({name} if {name} is not FAILED else {src})"


# what a part computed once before its query may not contain: values that
# draw at random, and the lookups that and/or chains keep with := (cse.py);
# calls of the ruleset's functions may be in it when they draw nothing
NOT_INVARIANT = frozenset({"random", "roll"}) | (KEEP - {"fn"})


# lookups that cost less than keeping their value (a call and a closure per query)
CHEAP = frozenset({"const", "local", "param", "var", "current", "player_count", "phase", "turn_number", "static",
                   "static_get", "dyn", "owner", "zone_of", "shared_zone", "zone_items", "zone_len", "zone_item",
                   "zone_nonempty", "list_item", "field", "pvar", "type_of", "cmp", "arith", "neg", "not", "bool",
                   "not_none", "len", "first", "last", "as_list", "list", "in_game", "alive", "seat", "face_up",
                   "is_face_up", "text_item", "ifexpr", "str", "abs"})


# lookups that cannot fail (a declared variable or parameter, a shared zone and its ends, a test of
# equality): computed before a query without ``attempt``, as they would be at the first item
TOTAL = frozenset({"const", "local", "var", "param", "player_count", "current", "phase", "turn_number",
                   "shared_zone", "zone_items", "zone_len", "zone_nonempty", "first", "last", "not_none", "not"})
# those not worth a name of their own (already a local, a constant or one attribute)
PLAIN = frozenset({"const", "local", "shared_zone", "player_count", "current", "phase", "turn_number"})


def total(x: X, present: frozenset = frozenset()) -> bool:
    """Whether ``x`` is made of lookups that cannot fail. ``present``: the
    ends of shared zones known not to be none here (``top(pile) == none or
    top(pile).rank == r`` reads the rank only of a card that is there)."""
    op = x.op
    if op in ("and", "or"):  # each operand, knowing what the ones before it said
        known = set(present)
        for part in x.a:
            if not total(part, frozenset(known)):
                return False
            end = _none_test(part, "==" if op == "or" else "!=")
            if end is not None:
                known.add(key_of(end))
        return True
    if op == "static":  # a fixed property of a shared zone's end that is there
        end = x.a[0]
        return end.op in ("first", "last") and key_of(end) in present and total(end)
    if op == "cmp" and x.a[0] not in ("==", "!="):
        return False
    if op in ("zone_items", "zone_len", "zone_nonempty") and x.a[0].op != "shared_zone":
        return False
    if op not in TOTAL and op != "cmp":
        return False
    return all(total(c, present) for c in x.children())


def _none_test(x: X, op: str) -> X | None:
    """The shared zone's end that ``x`` compares with none by ``op``, if it does."""
    if x.op == "cmp" and x.a[0] == op:
        a, b = x.a[1], x.a[2]
        for end, other in ((a, b), (b, a)):
            if end.op in ("first", "last") and other.op == "const" and other.a[0] is None:
                return end
    if op == "!=" and x.op == "not_none" and x.a[0].op in ("first", "last"):
        return x.a[0]
    return None


def invariant_parts(m, body: X, bound: set) -> list[tuple[X, X | None]]:
    """The largest parts of a query's ``body`` that read none of the
    ``bound`` locals (the query's item) nor those bound by queries inside
    it, draw nothing at random and are worth computing once (more than
    lookups: a call of the runtime library, a query). Each with None, or the
    call of a small function written at its call site when the part is in
    that function's body (its parameters given the item count as bound)."""
    bound = set(bound)
    pure = m.pure_functions()
    for n in walk(body):
        k = LAMBDA_SLOT.get(n.op)
        if k is not None and n.a[k] is not None:
            bound.add(n.a[k])

    def invariant(x: X) -> bool:
        """Draws nothing at random and reads no bound local other than those
        it binds itself (a query inside it over its own items)."""
        own, read = set(), set()
        for n in walk(x):
            if n.op in NOT_INVARIANT or n.op == "fn" and n.a[0] not in pure:
                return False
            k = LAMBDA_SLOT.get(n.op)
            if k is not None and n.a[k] is not None:
                own.add(n.a[k])
            elif n.op == "local" and n.a[0] in bound:
                read.add(n.a[0])
        return read <= own

    out, stack = [], [body]
    while stack:
        x = stack.pop()
        if x.op in ("const", "local"):
            continue
        if invariant(x):
            if any(n.op not in CHEAP for n in walk(x)):
                out.append((x, None))
            elif total(x):  # lookups, read once per query when they cannot fail (no closure needed)
                if x.op not in PLAIN and not (x.op == "param" and x.a[0] in m.constant_defines()):
                    out.append((x, None))
            else:
                stack.extend(x.children())  # the lookups inside it that cannot fail
            continue
        if x.op == "fn" and inlined(m, x.a[0], x.a[3]):
            rule = m.checked.functions[x.a[0]]
            inner = {p for p, a in zip(rule.params, x.a[3]) if a.op == "local" and a.a[0] in bound}
            if x.a[1].op == "local" and x.a[1].a[0] in bound:
                inner.add(0)
            out.extend((node, x) for node, _ in invariant_parts(m, rule.body, inner))
            continue
        stack.extend(x.children())
    return out


SCALAR_KINDS = frozenset({"int", "bool", "str", "none", "player", "comp", "zone"})


def text_piece(e, x: X, t, public: bool) -> str:
    """Source of a value written as text in a template. A value that may be
    a list or a map goes through ``words``, which charges the text it would
    make before making it; a number, a name or a text is written at once."""
    if getattr(t, "kind", None) in SCALAR_KINDS:
        return f"describe(st, {e.ex(x)}, {e.const(t)}, {public})"
    return f"words(st, {e.ex(x)}, {e.const(t)}, {public}, {e.const(e.where)})"


def inlined(m, key, args) -> bool:
    """Whether a call of the ruleset function ``key`` with ``args`` is written
    at its call site (``Code.call_function``): a small body, called with
    locals and constants (nothing computed twice, nothing reordered)."""
    rule = m.checked.functions[key]
    return rule.event_slot < 0 and all(a.op in ("local", "const") for a in args) and small_body(rule.body) \
        and not looped(m, key)


LOOPED = {"any_by": ("{test}", "True", "False"), "all_by": ("not ({test})", "False", "True"),
          "first_by": ("{test}", "{item}", "None")}


def looped(m, key) -> bool:
    """Whether the ruleset function ``key`` is a search over a list (``any``,
    ``all``, ``first`` with a condition) with nothing in the condition to
    compute once before it: written as a ``for`` loop that returns at the
    answer (``ModuleWriter.write_function``), and called, not written at its
    call sites, where it would be a generator made at every call."""
    hit = m.looped.get(key)
    if hit is None:
        body = m.checked.functions[key].body
        hit = m.looped[key] = body.op in LOOPED and not invariant_parts(m, body.a[2], {body.a[1]})
    return hit


def charge_call(code, body: X) -> None:
    """The first lines of a ruleset function that calls functions: the call
    counts one against the work budget. Calls nested in calls (ten calls a
    level, nine levels) are otherwise work no budget sees, since a function
    has neither loops nor queries to count; a function that calls none is
    not charged, its cost being bounded by its body and charged with its
    callers' (ordinary games pay nothing for their small functions); nor is
    one whose calls are all written at their call site (``inlined``), as
    those bodies call no function."""
    if any(n.op == "fn" and not inlined(code.m, n.a[0], n.a[3]) for n in walk(body)):
        code.line("st.work += 1")
        code.line(f"if st.work > {code.limit('max_work')}: over_budget(st, 'calls')")


def small_body(x: X, limit: int = 80) -> bool:
    """Whether an expression is small enough to write at each call site."""
    for n, _ in zip(walk(x), range(limit + 1)):
        if n.op == "fn":
            return False  # a function calling functions stays a call
    return sum(1 for _ in zip(walk(x), range(limit + 1))) <= limit


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
    "list": lambda e, items: "[" + ", ".join(e.ex(i) for i in items) + "]",
    "players": lambda e: "list(range(st.n))",
    "live_players": lambda e: "[p for p in range(st.n) if not st.eliminated[p]]",
    "player_count": lambda e: "st.n",
    "current": lambda e: "st.current",
    "phase": lambda e: "st.phase",
    "turn_number": lambda e: "st.turn",
    "var": lambda e, name: f"st.vars[{name!r}]",
    "param": lambda e, name: e.param(name),
    "shared_zone": lambda e, family: e.shared_zone(family),
    "pvar": lambda e, p, attr: f"st.pvars[{e.ex(p)}][{attr!r}]",
    "field": lambda e, ev, attr: f"{e.ex(ev)}[{attr!r}]",
    "owner": lambda e, c: f"st.owner[{e.ex(c)}]",
    "type_of": lambda e, c: e.type_of(c),
    "dyn": lambda e, c, attr: f"st.props[{e.ex(c)}][{attr!r}]",
    "static": lambda e, c, attr, kind: e.static_prop(c, attr, kind),
    "static_get": lambda e, c, attr: e.static_prop(c, attr, None),
    "list_item": lambda e, xs, i, w: f"item_of({e.ex(xs)}, {e.ex(i)}, {e.const(w)})",
    "text_item": lambda e, s, i, w: f"text_item({e.ex(s)}, {e.ex(i)}, {e.const(w)})",
    "slice": lambda e, xs, lo, hi, w: f"sliced({e.ex(xs)}, {'None' if lo is None else e.ex(lo)}, "
                                     f"{'None' if hi is None else e.ex(hi)}, {e.const(w)})",
    "format": lambda e, x, spec, w: f"formatted({e.ex(x)}, {e.ex(spec)}, {e.const(w)})",
    "zone_item": lambda e, z, i, w: f"zone_item(st, {e.ex(z)}, {e.ex(i)}, {e.const(w)})",
    "player_zone": lambda e, fam, p, w: e.player_zone(fam, p, w),
    "comp_zone": lambda e, fam, c, w, per: e.comp_zone(fam, c, w, per),
    # ------------------------------------------------------------- operators
    "ifexpr": lambda e, c, a, b: f"({e.ex(a)} if {e.ex(c)} else {e.ex(b)})",
    "not": lambda e, a: f"(not {e.ex(a)})",
    "cmp": lambda e, op, a, b: e.compare(op, a, b),
    "cmp_sized": lambda e, op, a, b: f"same(st, {e.ex(a)}, {e.ex(b)}, {op == '=='})",
    "in": lambda e, item, coll, neg: e.contains(item, coll, neg),
    "list_plus": lambda e, a, b, w: f"sized({e.ex(a)} + {e.ex(b)}, {e.const(w)}, {e.limit('max_value')})",
    "list_plus_one": lambda e, a, b, w: f"sized({e.ex(a)} + [{e.ex(b)}], {e.const(w)}, {e.limit('max_value')})",
    "list_minus_one": lambda e, a, b: f"minus_one(st, {e.ex(a)}, {e.ex(b)})",
    "list_minus": lambda e, a, b: f"minus(st, {e.ex(a)}, {e.ex(b)})",
    "str_plus": lambda e, a, b, w: f"joined({e.ex(a)}, {e.ex(b)}, {e.const(w)}, {e.limit('max_value')})",
    "arith": lambda e, op, a, b, w: (f"mul({e.ex(a)}, {e.ex(b)}, {e.const(w)}, {e.limit('max_number')})"
                                     if op == "*" else f"({e.ex(a)} {op} {e.ex(b)})"),
    "div": lambda e, op, a, b, w: f"divide({e.ex(b)}, {e.ex(a)}, {e.const(w)}, {op == '//'})",
    "neg": lambda e, a: f"(-{e.ex(a)})",
    "zone_nonempty": lambda e, z: f"(len(st.zones[{e.ex(z)}]) > 0)",
    "not_none": lambda e, x: f"({e.ex(x)} is not None)",
    "bool": lambda e, x: f"bool({e.ex(x)})",
    "zone_items": lambda e, z: f"st.zones[{e.ex(z)}]",
    "anylist": lambda e, x: f"anylist({e.ex(x)})",
    "copy": lambda e, x: e.snapshot(x),
    "as_list": lambda e, x: f"anylist({e.ex(x)})",
    "face_up": lambda e, x, depth: f"face_up(st, {e.ex(x)}, {depth})",
    "guarded": lambda e, guards, call: "(" + "".join(e.ex(g) + ", " for g in guards) + e.ex(call) + ")[-1]",
    "event_words": lambda e, ev, fields, public: (
        f"describe_fields(st, {e.ex(ev)}, {e.const(dict(fields))}, {public})"),
    "describe": lambda e, x, t, public: text_piece(e, x, t, public),
    "str": lambda e, x: f"text_of(st, {e.ex(x)}, {e.const(e.where)})",
    "fn": lambda e, key, player, event, args: e.call_function(key, player, event, args),
    # ------------------------------------------------------------- built-ins
    "zone_len": lambda e, z: f"len(st.zones[{e.ex(z)}])",
    "len": lambda e, xs: f"len({e.ex(xs)})",
    "sum": lambda e, xs: f"sum({e.ex(xs)})",
    "sum_by": lambda e, xs, slot, key: e.lam(slot, key, xs, "sum([{body} for {t} in {items}])"),
    "pick2": lambda e, fn, a, b: f"{fn}({e.ex(a)}, {e.ex(b)})",
    "pick": lambda e, fn, xs, empty: f"{fn}({e.ex(xs)}, default={empty!r})",
    "pick_key": lambda e, fn, xs, slot, key, empty: e.lam(slot, key, xs, fn + "([{body} for {t} in {items}], "
                                                          f"default={empty!r})"),
    "best_by": lambda e, less, xs, slot, key: e.keyed("best_by", xs, slot, key, f", {less == '<'}"),
    "best_each": lambda e, less, xs, slot, group, value: e.best_each(less == "<", xs, slot, group, value),
    "sorted": lambda e, xs: f"sorted({e.ex(xs)})",
    "sort_by": lambda e, xs, slot, key: e.keyed("sorted", xs, slot, key, "", by_key=True),
    "reverse": lambda e, xs: f"{e.ex(xs)}[::-1]",
    "filter": lambda e, xs, slot, pred: e.filter(xs, slot, pred),
    "map": lambda e, xs, slot, f: e.lam(slot, f, xs, "[{body} for {t} in {items}]"),
    "flatten": lambda e, xs: f"flatten(st, {e.ex(xs)})",
    "all_not_none": lambda e, xs: f"(None not in {e.ex(xs)})",
    "any_not_none": lambda e, xs: f"any(x is not None for x in {e.iterable(xs)})",
    "all_zones": lambda e, xs: f"all(st.zones[z] for z in {e.iterable(xs)})",
    "any_zones": lambda e, xs: f"any(st.zones[z] for z in {e.iterable(xs)})",
    "all": lambda e, xs: f"all({e.ex(xs)})",
    "any": lambda e, xs: f"any({e.ex(xs)})",
    "all_by": lambda e, xs, slot, pred: e.search("all_by", xs, slot, pred, "all({body} for {t} in {items})"),
    "any_by": lambda e, xs, slot, pred: e.search("any_by", xs, slot, pred, "any({body} for {t} in {items})"),
    "first": lambda e, xs: f"({e.ex(xs)} or NONE1)[0]",
    "first_by": lambda e, xs, slot, pred: e.search("first_by", xs, slot, pred,
                                                   "next(({t} for {t} in {items} if {body}), None)"),
    "last": lambda e, xs: f"({e.ex(xs)} or NONE1)[-1]",
    "top_n": lambda e, xs, k: f"{e.ex(xs)}[:max({e.ex(k)}, 0)]",
    "bottom_n": lambda e, xs, k: f"bottom_n({e.ex(xs)}, {e.ex(k)})",
    "distinct": lambda e, xs: f"list(dict.fromkeys({e.ex(xs)}))",
    "distinct_lists": lambda e, xs: f"distinct_lists(st, {e.ex(xs)})",
    "distinct_by": lambda e, xs, slot, key: e.keyed("distinct_by", xs, slot, key, ""),
    "range": lambda e, lo, hi, w: f"numbers({e.ex(lo)}, {e.ex(hi)}, {e.const(w)}, {e.limit('max_value')})",
    "abs": lambda e, a: f"abs({e.ex(a)})",
    "random": lambda e, xs: f"pick(st, {e.ex(xs)})",
    "roll": lambda e, k, w: f"roll(st, {e.ex(k)}, {e.const(w)})",
    "index_of": lambda e, xs, x: f"index_in(st, {e.ex(xs)}, {e.ex(x)})",
    "count_of": lambda e, xs, x: e.count_of(xs, x),
    "zone_of": lambda e, c: (f"(st.loc[{e.ex(c)}] if st.loc[{e.ex(c)}] >= 0 else None)" if c.op == "local"
                             else f"zone_of(st, {e.ex(c)})"),
    "zone_owner": lambda e, z: e.zone_owner(z),
    "next_player": lambda e, p, k: f"next_player(st, {e.ex(p)}, {e.ex(k)})",
    "seat_order": lambda e, p: f"seat_order(st, {e.ex(p)})",
    "opponents": lambda e, p: f"opponents(st, {e.ex(p)})",
    "alive": lambda e, p: f"(not st.eliminated[{e.ex(p)}])",
    "in_game": lambda e, p: f"(st.eliminated[{e.ex(p)}] is not True)",
    "components": lambda e, name: f"components_of(st, {name!r})",
    "subsets": lambda e, xs, lo, hi, w: (f"subsets({e.ex(xs)}, {'None' if hi is None else e.ex(hi)}, {e.ex(lo)}, "
                                         f"{e.const(w)})"),
    "sees": lambda e, p, what: f"sees(st, {e.ex(what)}, {e.ex(p)})",
    "is_face_up": lambda e, c: f"st.face[{e.ex(c)}]",
    "seat": lambda e, p: f"({e.ex(p)} + 1)",
    "neighbours": lambda e, s: f"neighbours(st, {e.ex(s)})",
    "distance": lambda e, a, b: f"distance(st, {e.ex(a)}, {e.ex(b)})",
    "space_at": lambda e, name, k: f"st.cat.boards[{name!r}].by_key.get({e.ex(k)})",
    "space_at2": lambda e, name, a, b: f"st.cat.boards[{name!r}].by_key.get(({e.ex(a)}, {e.ex(b)}))",
    "space_at_in": lambda e, name, i, *keys: f"space_at_in(st, {name!r}, {', '.join(e.ex(k) for k in (i, *keys))})",
    "within": lambda e, s, k, slot, pred: e.within(s, k, slot, pred),
    "let_in": emit_let,
    "lines": lambda e, name, k, through, w: f"board_lines(st, {name!r}, {e.ex(k)}, "
                                            f"{'None' if through is None else e.ex(through)}, {e.const(w)})",
}
