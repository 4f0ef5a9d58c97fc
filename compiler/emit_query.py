"""Queries over lists written as Python: comprehensions, the searches
(``any``, ``all``, ``first`` with a condition) written as loops, and the
parts of a query's body computed once before it.

Each function is given the ``compiler.code.Code`` being written (``e``):
the names of its locals, the lines it holds, the module it goes to. What
is written inside a query is written by ``e.ex`` (compiler/emit_expr.py).
"""

from __future__ import annotations

from rulebook.compiler.cse import KEEP, key_of
from rulebook.compiler.plan import distinct_source, family_of_filter, reads_only_key, value_test
from rulebook.validator.ir import X, walk

# where each operation that binds a function's parameter keeps its slot
LAMBDA_SLOT = {"sum_by": 1, "pick_key": 2, "best_by": 2, "best_each": 2, "sort_by": 1, "filter": 1, "map": 1,
               "all_by": 1, "any_by": 1, "first_by": 1, "distinct_by": 1, "within": 2, "let_in": 0}


def iterable(e, x: X) -> str:
    """``x`` written where a comprehension reads its items."""
    e.in_iterable += 1
    try:
        return e.ex(x)
    finally:
        e.in_iterable -= 1


def filter_items(e, xs: X, slot: int, pred: X) -> str:
    """``filter``; over every component of a type, only those in the zone
    family the condition requires, when it requires one (compiler/plan.py)."""
    family = family_of_filter(e.m, xs, slot, pred)
    found = value_test(e.m, xs, slot, pred) if family is None else None
    if found is not None and found[:2] in e.m.index_plan():  # the components holding those values only
        target = e.local(slot, bind=True)
        items = f"indexed(st, {found[0]!r}, {found[1]!r}, {e.const(found[2])})"
        return once_per_query(e, slot, pred, lambda: f"[{target} for {target} in charged(st, {items}) "
                                                       f"if {e.ex(pred)}]")
    if family is None:
        source = distinct_source(e.m, xs, inlined)
        if source is not None and reads_only_key(e.m, pred, slot, source[1]):
            return filter_then_distinct(e, slot, pred, *source)
        return lam(e, slot, pred, xs, "[{t} for {t} in {items} if {body}]")
    target = e.local(slot, bind=True)
    body = e.ex(pred)
    return f"[{target} for {target} in charged(st, components_in(st, {xs.a[0]!r}, {family!r})) if {body}]"


def filter_then_distinct(e, slot: int, pred: X, distinct: X, attrs: tuple, call: X | None) -> str:
    """``filter(distinct_by(items, key), pred)`` as ``distinct_by(filter(items,
    pred), key)`` when ``pred`` reads the item only through the key's fixed
    properties (plan.reads_only_key): the cards of a hand the rule keeps,
    then one of each kind, instead of one of each kind of the whole hand."""
    items = distinct.a[0]
    if call is not None:  # the small function's list, its parameters bound to the call's arguments
        _key, player, _event, args = call.a
        sub = e.inline_writer(e.m.checked.functions[_key], player, args)
        sub.in_iterable += 1
        source = sub.ex(items)
        e.lines_from(sub)
    else:
        source = iterable(e, items)
    target = e.local(slot, bind=True)
    kept = once_per_query(e, slot, pred, lambda: f"[{target} for {target} in charged(st, {source}) "
                                                   f"if {e.ex(pred)}]")
    return f"distinct_of(charged(st, {kept}), {e.key_column(attrs)})"


def search(e, op: str, xs: X, slot: int, pred: X, template: str) -> str:
    """``any``, ``all`` or ``first`` with a condition: a call of a small
    function of the module written as a loop that returns at the answer
    (``search_function``), which costs less than the generator written
    in place; in place where the condition has a part to compute once
    before the query, or reads a value the expression around it keeps."""
    fn = search_function(e, op, xs, slot, pred)
    return fn if fn is not None else lam(e, slot, pred, xs, template)


def search_function(e, op: str, xs: X, slot: int, pred: X) -> str | None:
    return loop_function(e, op.removesuffix("_by"), X(op, xs, slot, pred), {slot}, [pred],
                         lambda code: search_loop(code, op, xs, slot, pred))


def loop_function(e, stem: str, whole: X, slots: set, bodies: list, write) -> str | None:
    """A call of a new function of the module, ``stem_<unit>``, whose lines
    ``write(code)`` writes (a loop that returns at its answer); its
    parameters are the locals ``whole`` reads beyond ``slots``, the items'
    names. None where a body of ``bodies`` has a part to compute once
    before the loop, or ``whole`` reads a value the code around it keeps."""
    nodes = list(walk(whole))
    kept = e.invariant_names or {}
    if any(invariant_parts(e.m, body, slots) for body in bodies) or any(
            id(n) in kept or (e.cse_plan and id(n) in e.cse_plan)
            or (e.cse_bound and n.op in KEEP and key_of(n) in e.cse_bound) for n in nodes):
        return None
    if e.inline_names and any(id(n.a[3]) in e.inline_names for n in nodes if n.op == "fn"):
        return None
    inner = slots | {n.a[LAMBDA_SLOT[n.op]] for n in nodes if n.op in LAMBDA_SLOT}
    free = sorted({n.a[0] for n in nodes if n.op == "local" and n.a[0] not in inner})
    fn = e.m.name(f"{stem}_{e.name}")
    code = e.m.add(type(e)(e.m, fn, e.unit_name, e.slot_names))
    code.where = e.where
    params = [code.local(s, bind=True) for s in free]
    code.line(f"def {fn}({', '.join(['st'] + params)}):", e.where)
    with code.block():
        write(code)
    return f"{fn}({', '.join(['st'] + [e.local(s) for s in free])})"


def search_loop(e, op: str, xs: X, slot: int, pred: X) -> None:
    """The body of a function that searches ``xs``: a loop that returns at the answer."""
    test, found, otherwise = LOOPED[op]
    item = e.local(slot, bind=True)
    e.line(f"for {item} in charged(st, {iterable(e, xs)}):")
    with e.block():
        e.line(f"if {test.format(test=e.ex(pred))}: return {found.format(item=item)}")
    e.line(f"return {otherwise}")


def lam(e, slot: int, body: X, items: X, template: str) -> str:
    """A comprehension binding ``slot`` to each item of ``items`` (charged
    to the work budget first)."""
    target = e.local(slot, bind=True)
    return once_per_query(e, slot, body, lambda: template.format(
        body=e.ex(body), t=target, items=f"charged(st, {iterable(e, items)})"))


# ------------------------------------------------------------ loop-invariant parts
def once_per_query(e, slot: int | set, body: X | list, write) -> str:
    """``write()``, the source of a query over items bound to ``slot``,
    with the parts of ``body`` that depend on no item computed once
    before it (``invariant_parts``), also inside the small functions
    written at their call sites: ``playable(c)`` over a hand reads the
    top of the discard once per hand, not once per card. A fused chain
    (compiler/fused.py) gives the slots of all its stages and their bodies."""
    bound = slot if isinstance(slot, set) else {slot}
    bodies = body if isinstance(body, list) else [body]
    parts = [] if e.in_iterable else [p for b in bodies for p in invariant_parts(e.m, b, bound)]
    if not parts:
        return write()
    saved, saved_calls = e.invariant_names, e.inline_names
    names, calls = dict(saved or {}), dict(saved_calls or {})
    same: dict = {}  # a lookup that cannot fail, written twice (reading no local): one name
    for node, call in parts:
        shared = total(node) and (call is None or not any(n.op == "local" for n in walk(node)))
        name = same.get(key_of(node)) if shared else None
        if name is None:
            e.m.invariants = getattr(e.m, "invariants", 0) + 1
            name = f"{'_t' if total(node) else '_i'}{e.m.invariants}"
            if shared:
                same[key_of(node)] = name
        if call is None:
            names[id(node)] = name
        else:
            calls.setdefault(id(call.a[3]), {})[id(node)] = name
    e.invariant_names, e.inline_names = names, calls
    try:
        query = write()
    finally:
        e.invariant_names, e.inline_names = saved, saved_calls
    before = []
    plan, bound = e.cse_plan, e.cse_bound
    e.cse_plan, e.cse_bound = {}, {}  # nothing kept with := inside the lambda below
    written = set()
    try:
        for node, call in parts:
            name = names[id(node)] if call is None else calls[id(call.a[3])][id(node)]
            if name in written:
                continue
            written.add(name)
            src = e.ex(node) if call is None else e.inline_part(call, node)
            # a part that cannot fail is computed plainly; another under attempt (read_invariant)
            before.append(f"({name} := {src})" if name.startswith("_t") else f"({name} := attempt(lambda: {src}))")
    finally:
        e.cse_plan, e.cse_bound = plan, bound
    return f"({', '.join(before)}, {query})[-1]"


def read_invariant(e, x: X) -> str:
    """A part computed before its query: its value, or, when computing it
    failed there, the part written in place, to fail where it did."""
    name = e.invariant_names[id(x)]
    if name.startswith("_t"):  # a part that cannot fail (``total``)
        return name
    # nothing kept with := in the fallback: it runs only when the part failed, and the operands after it
    # would read a name never bound
    saved, e.invariant_names = e.invariant_names, None
    saved_plan, e.cse_plan = e.cse_plan, {}
    try:
        src = e.ex(x)
    finally:
        e.invariant_names, e.cse_plan = saved, saved_plan
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
                   "is_face_up", "text_item", "ifexpr", "return_if", "str", "abs"})


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


def inlined(m, key, args, tables: bool = True) -> bool:
    """Whether a call of the ruleset function ``key`` with ``args`` is written
    at its call site (``Code.call_function``): a small body, called with
    locals and constants (nothing computed twice, nothing reordered); not
    a function kept in a table (compiler/tabling.py), unless ``tables`` is
    false (whether it would be, were it not one)."""
    rule = m.checked.functions[key]
    return rule.event_slot < 0 and all(a.op in ("local", "const") for a in args) and small_body(rule.body) \
        and not looped(m, key) and (not tables or key not in m.tabled())


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


def small_body(x: X, limit: int = 80) -> bool:
    """Whether an expression is small enough to write at each call site."""
    for n, _ in zip(walk(x), range(limit + 1)):
        if n.op == "fn":
            return False  # a function calling functions stays a call
    return sum(1 for _ in zip(walk(x), range(limit + 1))) <= limit
