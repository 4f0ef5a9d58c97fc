"""Lazy, fused iteration: a chain of list operations read as one loop.

Rules build lists out of lists: ``filter(map(range(1, size), k => ...), q =>
q != none)`` is a ray of squares, ``flatten(map(dirs, d => flips(d)))`` the
discs a move turns, ``any(filter(hand, c => playable(c)), c => ...)`` a
question about some of them. Written as they read, each operation makes a
list and the next one reads it. Here a *chain* (a source list, then any
number of ``map``, ``filter`` and ``flatten``; a ``range`` as its source is
a Python range, never a list) is written as one loop over the source,
whose clauses compute each item through every stage before the next item:

* fed to ``any``, ``all``, ``first`` (with or without a condition) or
  asked whether it has an item (``count(xs) > 0``, ``is_empty``,
  compiler/emptiness.py), a search that stops at the answer: a small
  function of the module with ``for`` loops that return at it, or a
  generator expression in place where the loop's body reads something
  computed before it (``emit_query.once_per_query``);
* fed to ``sum`` or ``max_by``/``min_by``, one comprehension whose items
  go straight to the sum or the choice (``lib.best_of``: the first of the
  equal best, as ``best_by``);
* as a list (a chain of two operations or more, or one over a ``range``),
  one list comprehension.

Each ``for`` clause charges what it visits to the work budget
(``charged``), as each operation did, so a loop over a huge range still
stops at R100; a stage that no later stage or answer reads (a ``map``
before an emptiness test) is not computed. Only chains that draw nothing at
random are fused: skipping or reordering a draw would change the game.
What changes is the order of work: every stage of one item before the next
item. An error (a failing ``r[k]`` in a ``map``) is raised at its own rule
place, as before, when the loop reaches it; a part the answer does not
need is not computed and so cannot fail (docs/language.md, under ``map``).
"""

from __future__ import annotations

from contextlib import ExitStack

from rulebook.compiler.cse import pure
from rulebook.compiler.emit_query import inlined, invariant_parts, loop_function, once_per_query
from rulebook.compiler.plan import distinct_source, family_of_filter, value_test
from rulebook.validator.ir import X

STAGES = frozenset({"map", "filter", "flatten"})


class Chain:
    """A source list and the stages that read it, innermost first."""

    __slots__ = ("source", "stages")

    def __init__(self, source: X, stages: list[X]):
        self.source, self.stages = source, stages

    def bodies(self) -> list[X]:
        return [s.a[2] for s in self.stages if s.op != "flatten"]

    def slots(self) -> set:
        return {s.a[1] for s in self.stages if s.op != "flatten"}


def chain_of(e, xs: X) -> Chain | None:
    """``xs`` as a chain, when it is one that draws nothing at random. A
    part of it computed once before the query around it (``invariant_names``)
    is its source: that list is read, not made again for each item."""
    stages, x, kept = [], xs, e.invariant_names or {}
    while x.op in STAGES and not (x.op == "filter" and planned(e, x)) and (x is xs or id(x) not in kept):
        stages.append(x)
        x = x.a[0]
    if not stages and x.op != "range" or not pure(e, xs):
        return None
    stages.reverse()
    return Chain(x, stages)


def planned(e, f: X) -> bool:
    """Whether ``filter_items`` (emit_query.py) reads this filter's items
    from a plan (the zones of a family, an index by value, one of each kind
    first): the filter is then a source of its own."""
    xs, slot, pred = f.a
    if family_of_filter(e.m, xs, slot, pred) is not None:
        return True
    found = value_test(e.m, xs, slot, pred)
    if found is not None and found[:2] in e.m.index_plan():
        return True
    return distinct_source(e.m, xs, inlined) is not None


def _operand(src: str) -> str:
    """``src`` fit to be an operand of ``not`` or ``is``: a name as it is, else in brackets."""
    return src if src.isidentifier() else f"({src})"


def _literal_int(src: str) -> bool:
    return src.removeprefix("-").isdigit()


# ------------------------------------------------------------ the loop's clauses
class Clauses:
    """The clauses of a chain's loop, written by ``w`` (the ``Code`` the
    loop is in): ``("for", name, iterable)``, ``("if", condition)`` and
    ``("let", name, value)``. ``in_place``: for a comprehension (where an
    iterable may not hold ``:=``), not for statements."""

    def __init__(self, w, chain: Chain, in_place: bool):
        self.w, self.in_place = w, in_place
        self.out: list[tuple] = []
        self.name: str | None = None  # the current item, when a name holds it
        self.value: X | None = None  # the current item, when a map's body still to compute gives it
        self.source: str | None = self.iterable_of(chain.source)  # until a loop over it is written
        self.stages(chain.stages)

    def stages(self, stages: list[X]) -> None:
        for stage in stages:
            if stage.op == "map":
                self.bind(stage.a[1])
                self.value = stage.a[2]
            elif stage.op == "filter":
                self.bind(stage.a[1])
                self.out.append(("if", self.w.ex(stage.a[2])))
            else:
                self.flatten()

    def flatten(self) -> None:
        """A loop over the current item's list; when a map's body gives it as
        a chain of its own (``d => filter(ray(d), ...)``, ``n => range(0, n)``),
        that chain's loops, in these."""
        inner = chain_of(self.w, self.value) if self.value is not None and self.source is None else None
        if inner is None:
            self.loop(f"charged(st, {self.item(iterable=True)})", self.temp())
            return
        self.value, self.name = None, None
        self.source = self.iterable_of(inner.source)
        self.stages(inner.stages)

    def iterable_of(self, source: X) -> str:
        if source.op == "range" and id(source) not in (self.w.invariant_names or {}):
            lo, hi, where = source.a
            a, b = self.expr(lo, True), self.expr(hi, True)
            if _literal_int(a) and _literal_int(b) and int(b) - int(a) <= self.w.m.limits["max_value"]:
                return f"charged(st, range({a}, {b}))"  # bounds the rule text fixes, within the limit
            return f"charged(st, span({a}, {b}, {self.w.const(where)}, {self.w.limit('max_value')}))"
        return f"charged(st, {self.expr(source, True)})"

    def expr(self, x: X, iterable: bool = False) -> str:
        if not (iterable and self.in_place):
            return self.w.ex(x)
        self.w.in_iterable += 1
        try:
            return self.w.ex(x)
        finally:
            self.w.in_iterable -= 1

    def temp(self) -> str:
        """A name for an item no lambda names (a flattened list's), unique in
        the module: a comprehension nested in this one (a small function's
        body written in place) may read this one's by name."""
        self.w.m.fused_items = getattr(self.w.m, "fused_items", 0) + 1
        return f"_it{self.w.m.fused_items}"

    def loop(self, iterable: str, target: str) -> None:
        self.out.append(("for", target, iterable))
        self.name, self.value = target, None

    def bind(self, slot: int) -> str:
        """The current item as the local ``slot`` (a lambda's parameter)."""
        if self.source is not None:  # the first stage: the loop over the source binds it
            source, self.source = self.source, None
            self.loop(source, self.w.local(slot, bind=True))
        elif self.value is not None:
            name = self.w.local(slot, bind=True)
            self.out.append(("let", name, self.expr(self.value, iterable=True)))
            self.name, self.value = name, None
        else:
            self.w.bound[slot] = self.name
        return self.name

    def item(self, iterable: bool = False) -> str:
        """Source of the current item."""
        self.looped()
        if self.value is not None:
            return self.expr(self.value, iterable)
        return self.name

    def looped(self) -> None:
        """The loop over a source no stage read yet (an answer that reads no item)."""
        if self.source is not None:
            source, self.source = self.source, None
            self.loop(source, self.temp())

    def comprehension(self) -> str:
        """The clauses as a comprehension's (after its item)."""
        self.looped()
        parts = []
        for clause in self.out:
            if clause[0] == "for":
                parts.append(f"for {clause[1]} in {clause[2]}")
            elif clause[0] == "if":
                parts.append(f"if {clause[1]}")
            else:
                parts.append(f"for {clause[1]} in [{clause[2]}]")
        return " ".join(parts)

    def write(self, code, last: list[str]) -> None:
        """The clauses as statements of ``code``, then the lines ``last`` inside them."""
        self.looped()
        with ExitStack() as blocks:
            for clause in self.out:
                if clause[0] == "let":
                    code.line(f"{clause[1]} = {clause[2]}")
                    continue
                code.line(f"for {clause[1]} in {clause[2]}:" if clause[0] == "for" else f"if {clause[1]}:")
                blocks.enter_context(code.block())
            for text in last:
                code.line(text)


# ------------------------------------------------------------ what reads the chain
# a search: (its test of the item, what it returns when the test holds, what it returns at the end)
SEARCH = {"any": ("{item}", "True", "False"), "all": ("not {item}", "False", "True"),
          "any_not_none": ("{item} is not None", "True", "False"),
          "all_not_none": ("{item} is None", "False", "True"),
          "first": (None, "{item}", "None"), "has_items": (None, "True", "False"),
          "any_by": ("{test}", "True", "False"), "all_by": ("not ({test})", "False", "True"),
          "first_by": ("{test}", "{item}", "None")}
# the same in place, as a generator expression's consumer
IN_PLACE = {"any": "any({item} {clauses})", "all": "all({item} {clauses})",
            "any_not_none": "any({item} is not None {clauses})",
            "all_not_none": "all({item} is not None {clauses})",
            "first": "next(({item} {clauses}), None)", "has_items": "any(True {clauses})",
            "any_by": "any({test} {clauses})", "all_by": "all({test} {clauses})",
            "first_by": "next(({item} {clauses} if {test}), None)"}


def fused(e, op: str, args: tuple) -> str | None:
    """Source of the operation ``op`` (with its IR arguments) when it reads a
    chain; None when it does not (the operation is written as before)."""
    if op in ("map", "filter", "flatten"):
        xs = X(op, *args)  # the list itself
    else:
        xs = args[1] if op == "best_by" else args[0]
    chain = chain_of(e, xs)
    if chain is None:
        return None
    if op in ("map", "filter", "flatten"):  # the chain is the list wanted
        if len(chain.stages) < 2 and chain.source.op != "range":
            return None
        return once_per_query(e, chain.slots(), chain.bodies(), lambda: _listed(e, chain))
    if op in ("sum", "sum_by", "best_by"):
        return _gathered(e, op, args, chain)
    slot, test = (args[1], args[2]) if op.endswith("_by") else (None, None)
    return search(e, op, chain, slot, test)


def has_items(e, xs: X) -> str | None:
    """Whether the chain ``xs`` has an item, for compiler/emptiness.py: the
    maps at its end are not computed. None when ``xs`` is not a chain of
    more than one filter over a list (emptiness.py writes those already)."""
    chain = chain_of(e, xs)
    if chain is None:
        return None
    while chain.stages and chain.stages[-1].op == "map":
        chain.stages.pop()
    if chain.source.op != "range" and (not chain.stages or len(chain.stages) == 1 and chain.stages[0].op == "filter"):
        return None
    return search(e, "has_items", chain, None, None)


def _listed(e, chain: Chain) -> str:
    c = Clauses(e, chain, in_place=True)
    return f"[{c.item()} {c.comprehension()}]"


def _gathered(e, op: str, args: tuple, chain: Chain) -> str:
    """``sum`` (of the items or of a function of them) and ``max_by``/``min_by``."""
    slots, bodies = chain.slots(), chain.bodies()
    slot = key = None
    if op == "sum_by":
        slot, key = args[1], args[2]
    elif op == "best_by":
        slot, key = args[2], args[3]
    if key is not None:
        slots, bodies = slots | {slot}, bodies + [key]

    def write() -> str:
        c = Clauses(e, chain, in_place=True)
        if op == "sum":
            return f"sum([{c.item()} {c.comprehension()}])"
        name = c.bind(slot)
        clauses = c.comprehension()
        if op == "sum_by":
            return f"sum([{e.ex(key)} {clauses}])"
        return f"best_of((({name}, {e.ex(key)}) {clauses}), {args[0] == '<'})"

    return once_per_query(e, slots, bodies, write)


def search(e, op: str, chain: Chain, slot: int | None, test: X | None) -> str:
    """A search over the chain: a function of the module with loops that
    return at the answer, or in place when something is computed before it."""
    slots, bodies = chain.slots(), chain.bodies()
    if test is not None:
        slots, bodies = slots | {slot}, bodies + [test]
    fn = _search_function(e, op, chain, slot, test, slots, bodies)
    if fn is not None:
        return fn

    def write() -> str:
        c = Clauses(e, chain, in_place=True)
        if slot is not None:
            c.bind(slot)
        item = c.item() if op in ("first", "first_by", "any", "all", "any_not_none", "all_not_none") else ""
        if op.endswith("not_none"):
            item = _operand(item)
        clauses = c.comprehension()
        return IN_PLACE[op].format(item=item, clauses=clauses, test=e.ex(test) if test is not None else "")

    return once_per_query(e, slots, bodies, write)


def search_loop(code, op: str, xs: X, slot: int, pred: X) -> bool:
    """The body of a ruleset function that is a search (``any``, ``all``,
    ``first`` with a condition, emit_query.looped) over a chain: its loops,
    returning at the answer. False when ``xs`` is no chain, or a stage has a
    part to compute once before the loop (then emit_query writes it)."""
    chain = chain_of(code, xs)
    if chain is None or not chain.stages and chain.source.op != "range":
        return False
    slots = chain.slots() | {slot}
    if any(invariant_parts(code.m, body, slots) for body in chain.bodies()):
        return False
    _search_lines(code, op, chain, slot, pred)
    return True


def _search_lines(code, op: str, chain: Chain, slot, test) -> None:
    c = Clauses(code, chain, in_place=False)
    if slot is not None:
        c.bind(slot)
    check, found, otherwise = SEARCH[op]
    item = c.item() if "{item}" in (check or "") + found else ""
    answer = f"return {found.format(item=item)}"
    if check is None:
        c.write(code, [answer])
    else:
        cond = check.format(item=_operand(item), test=code.ex(test) if test is not None else "")
        c.write(code, [f"if {cond}: {answer}"])
    code.line(f"return {otherwise}")


def _search_function(e, op: str, chain: Chain, slot, test, slots: set, bodies: list) -> str | None:
    """The search as a small function of the module (emit_query.loop_function)."""
    whole = X("list", [chain.source, *chain.stages] + ([test] if test is not None else []))
    return loop_function(e, op.removesuffix("_by"), whole, slots, bodies,
                         lambda code: _search_lines(code, op, chain, slot, test))


def with_fusion(table: dict) -> dict:
    """The emitters of the operations that may read a chain, each trying
    ``fused`` first and else the emitter of ``table`` (emit_expr.EMIT)."""
    def wrap(op, plain):
        return lambda e, *args: fused(e, op, args) or plain(e, *args)

    ops = ("map", "filter", "flatten", "any", "all", "any_not_none", "all_not_none", "first", "any_by", "all_by",
           "first_by", "sum", "sum_by", "best_by")
    return {op: wrap(op, table[op]) for op in ops}
