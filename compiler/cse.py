"""Values computed once in a chain of ``and``/``or``.

Rule text repeats itself: ``zone(c) != none and owner(zone(c)) != p and
zone(c) == bank[owner(zone(c))]`` reads ``zone(c)`` four times and
``owner(zone(c))`` twice, for every card a query visits. Within one chain,
an operand is evaluated only after every operand before it, so a value
that an earlier operand always computes (not inside a nested ``and``/``or``,
an ``if`` value or a function argument of a query) can be kept, with
Python's ``:=``, where it is first computed, and read again by the operands
after it. Only values without side effects are kept (no ``random``, no
``roll``, no function of the ruleset that draws), and nothing is kept inside
a comprehension's iterable, where Python does not allow ``:=``.
"""

from __future__ import annotations

from rulebook.validator.ir import X, operands, walk

# what is worth keeping: calls and lookups a rule repeats
KEEP = frozenset({"zone_of", "zone_owner", "fn", "player_zone", "comp_zone", "owner"})
# operations whose arguments Python evaluates once each, in the order they are written
IN_ORDER = frozenset({"owner", "type_of", "dyn", "static", "static_get", "pvar", "field", "list_item", "zone_item",
                      "player_zone", "cmp", "arith", "neg", "not", "bool", "not_none", "zone_nonempty", "zone_items",
                      "zone_len", "len", "zone_owner", "fn", "describe", "str", "comp_zone"})


def key_of(x) -> object:
    """A value standing for what ``x`` computes (equal for equal subtrees)."""
    if isinstance(x, X):
        return (x.op,) + tuple(key_of(a) for a in x.a)
    if isinstance(x, (tuple, list)):
        return ("seq",) + tuple(key_of(a) for a in x)
    try:
        hash(x)
    except TypeError:
        return repr(x)
    return x


def chain(e, op: str, x: X) -> str:
    operands = []
    _flatten(x, op, operands, e.invariant_names or {})
    if e.in_iterable or len(operands) < 3 and not repeats(e, operands):
        return "(" + f" {op} ".join(e.ex(o) for o in operands) + ")"
    plan = plan_kept(e, operands)
    saved = dict(e.cse_plan)
    e.cse_plan.update(plan)
    added = []
    try:
        parts = []
        for o in operands:
            parts.append(e.ex(o))
            added.extend(k for k in e.cse_bound if k not in saved and k not in added)
        return "(" + f" {op} ".join(parts) + ")"
    finally:
        e.cse_plan = saved
        for k in added:
            e.cse_bound.pop(k, None)


def repeats(e, operands) -> bool:
    return len(operands) >= 2


def plan_kept(e, operands) -> dict:
    """id(node) -> the name it is kept under, for the nodes worth keeping
    that an operand always computes and a later operand computes again."""
    later = [set() for _ in operands]
    for j, o in enumerate(operands):
        later[j] = {key_of(n) for n in walk(o) if n.op in KEEP}
    plan, planned = {}, set()
    for k, o in enumerate(operands[:-1]):
        after = set().union(*later[k + 1:])
        for node in _always(o):
            if node.op not in KEEP or not pure(e, node):
                continue
            key = key_of(node)
            if key in planned or key not in after:
                continue
            planned.add(key)
            e.m.kept += 1
            plan[id(node)] = (f"_kept{e.m.kept}", key)
    return plan


def pure(e, node: X) -> bool:
    """No draw at random in ``node``, nor in the functions it calls."""
    for n in walk(node):
        if n.op in ("random", "roll"):
            return False
        if n.op == "fn" and n.a[0] not in e.m.pure_functions():
            return False
    return True


def _flatten(x: X, op: str, out: list, whole: dict) -> None:
    """The operands of a chain of ``op``; a part of it in ``whole`` (one
    computed once before its query) stays one operand."""
    if x.op == op and id(x) not in whole:
        for a in x.a:
            _flatten(a, op, out, whole)
    else:
        out.append(x)


def _always(x: X):
    """The nodes of ``x`` it always computes, in the order it computes them."""
    yield from _always_children(x)
    yield x


def _always_children(x: X):
    if x.op not in IN_ORDER:
        return
    for a in operands(x):
        yield from _always(a)
