"""Query planning: read fewer components where a condition says where they lie.

``filter(components(T), c => ... and zone(c) == bank[p] and ...)`` keeps
only components in a zone of the family ``bank``; scanning every component
of ``T`` to find them costs the whole catalogue at each call. When one of
the condition's conjuncts (through the functions it calls) is
``zone(c) == Z`` with ``Z`` a zone of a known family, the compiler reads
the components lying in that family's zones instead (``lib.components_in``),
in the same order, and tests the condition on those only. The condition
must draw nothing at random: it is evaluated for fewer components.
"""

from __future__ import annotations

from validator.ir import X, walk

# expressions whose value is a zone of the family named by their first argument
ZONE_OF_FAMILY = ("player_zone", "shared_zone", "comp_zone")
MAX_CALLS = 4  # functions followed into, one inside another


def family_of_filter(m, xs: X, slot: int, pred: X) -> str | None:
    """The zone family every component kept by ``filter(xs, slot => pred)``
    lies in, when ``xs`` is ``components(T)`` and ``pred`` is pure; else None."""
    if xs.op != "components":
        return None
    pure = m.pure_functions()
    if any(n.op in ("random", "roll") or (n.op == "fn" and n.a[0] not in pure) for n in walk(pred)):
        return None
    return _implied(m, pred, slot, 0)


def _implied(m, x: X, slot: int, calls: int) -> str | None:
    if x.op == "and":
        for part in x.a:
            if isinstance(part, X):
                found = _implied(m, part, slot, calls)
                if found is not None:
                    return found
        return None
    if x.op == "cmp" and x.a[0] == "==":
        a, b = x.a[1], x.a[2]
        for here, there in ((a, b), (b, a)):
            if _zone_of_item(here, slot) and isinstance(there, X) and there.op in ZONE_OF_FAMILY:
                return there.a[0]
        return None
    if x.op == "fn" and calls < MAX_CALLS:
        key, _player, _event, args = x.a
        rule = m.checked.functions[key]
        for param, arg in zip(rule.params, args):
            if isinstance(arg, X) and arg.op == "local" and arg.a[0] == slot:
                found = _implied(m, rule.body, param, calls + 1)
                if found is not None:
                    return found
    return None


def _zone_of_item(x, slot: int) -> bool:
    return isinstance(x, X) and x.op == "zone_of" and isinstance(x.a[0], X) and x.a[0].op == "local" \
        and x.a[0].a[0] == slot
