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

from rulebook.validator.ir import X, walk

# expressions whose value is a zone of the family named by their first argument
ZONE_OF_FAMILY = ("player_zone", "shared_zone", "comp_zone")
MAX_CALLS = 4  # functions followed into, one inside another

NOT_LITERAL = object()


def literal_value(x, constants: dict):
    """The value of an expression made of literals only (nested lists, and
    definitions already known to be such), else ``NOT_LITERAL``."""
    if x.op == "const":
        return x.a[0]
    if x.op == "param" and x.a[0] in constants:
        return constants[x.a[0]]
    if x.op == "list":
        items = [literal_value(i, constants) for i in x.a[0]]
        return NOT_LITERAL if any(i is NOT_LITERAL for i in items) else items
    return NOT_LITERAL


def fixed_key(m, key: X, slot: int) -> tuple | None:
    """The fixed properties a ``distinct_by`` key is made of, when it is
    made of nothing else (``c => [c.colour, c.rank]`` or ``c => c.rank``,
    of a type no rule creates in play), else None."""
    parts = key.a[0] if key.op == "list" else [key]
    for p in parts:
        if not (isinstance(p, X) and p.op == "static" and p.a[0].op == "local" and p.a[0].a[0] == slot
                and p.a[2] is not None and p.a[2] not in m.an.created):
            return None
    return tuple(p.a[1] for p in parts) if parts else None


def _pure(m, pred: X) -> bool:
    """Whether a condition draws nothing at random (it may then be tested on
    fewer items than written)."""
    pure = m.pure_functions()
    return not any(n.op in ("random", "roll") or (n.op == "fn" and n.a[0] not in pure) for n in walk(pred))


def family_of_filter(m, xs: X, slot: int, pred: X) -> str | None:
    """The zone family every component kept by ``filter(xs, slot => pred)``
    lies in, when ``xs`` is ``components(T)`` and ``pred`` is pure; else None."""
    if xs.op != "components" or not _pure(m, pred):
        return None
    return _first_part(m, pred, slot, _family_test)


def _first_part(m, x: X, slot: int, test, calls: int = 0):
    """The first answer of ``test(part, slot)`` that is not None over the
    parts of an ``and`` chain, also inside the functions the item is passed
    to (their parameter then stands for it)."""
    if x.op == "and":
        for part in x.a:
            if isinstance(part, X):
                found = _first_part(m, part, slot, test, calls)
                if found is not None:
                    return found
        return None
    if x.op == "fn":
        if calls >= MAX_CALLS:
            return None
        key, _player, _event, args = x.a
        rule = m.checked.functions[key]
        for param, arg in zip(rule.params, args):
            if isinstance(arg, X) and arg.op == "local" and arg.a[0] == slot:
                found = _first_part(m, rule.body, param, test, calls + 1)
                if found is not None:
                    return found
        return None
    return test(x, slot)


def _family_test(x: X, slot: int) -> str | None:
    """``zone(item) == Z`` with ``Z`` a zone of a known family: the family."""
    if x.op == "cmp" and x.a[0] == "==":
        a, b = x.a[1], x.a[2]
        for here, there in ((a, b), (b, a)):
            if _zone_of_item(here, slot) and isinstance(there, X) and there.op in ZONE_OF_FAMILY:
                return there.a[0]
    return None


def _zone_of_item(x, slot: int) -> bool:
    return isinstance(x, X) and x.op == "zone_of" and isinstance(x.a[0], X) and x.a[0].op == "local" \
        and x.a[0].a[0] == slot


def distinct_source(m, xs: X, inlined) -> tuple[X, tuple, X | None] | None:
    """``xs`` as ``distinct_by(items, c => key)`` whose key is made of fixed
    properties only (written in place, or the body of a small function
    written at its call site, as ``inlined(m, key, args)`` says): (the
    distinct_by node, the key's properties, the call or None); else None."""
    call = None
    if xs.op == "fn":
        key, _player, _event, args = xs.a
        if not inlined(m, key, args):
            return None
        call, xs = xs, m.checked.functions[key].body
    if xs.op != "distinct_by":
        return None
    attrs = fixed_key(m, xs.a[2], xs.a[1])
    return None if attrs is None else (xs, attrs, call)


def reads_only_key(m, x: X, slot: int, attrs: tuple, calls: int = 0) -> bool:
    """Whether ``x`` reads the item bound to ``slot`` only through its fixed
    properties ``attrs`` (also in the functions it is passed to), and draws
    nothing at random: then its value is the same for items of the same key,
    and ``filter(distinct_by(xs, key), x)`` keeps what ``distinct_by(filter(xs,
    x), key)`` keeps, in the same order, with the condition's errors at the
    same item."""
    if x.op in ("random", "roll"):
        return False
    if x.op == "local":
        return x.a[0] != slot
    if x.op == "static" and isinstance(x.a[0], X) and x.a[0].op == "local" and x.a[0].a[0] == slot:
        return x.a[1] in attrs
    if x.op == "fn":
        key, player, event, args = x.a
        if key not in m.pure_functions():
            return False
        rule = m.checked.functions[key]
        for param, arg in zip(rule.params, args):
            if isinstance(arg, X) and arg.op == "local" and arg.a[0] == slot:
                if calls >= MAX_CALLS or not reads_only_key(m, rule.body, param, attrs, calls + 1):
                    return False
            elif isinstance(arg, X) and not reads_only_key(m, arg, slot, attrs, calls):
                return False
        return all(reads_only_key(m, a, slot, attrs, calls) for a in (player, event) if isinstance(a, X))
    return all(reads_only_key(m, c, slot, attrs, calls) for c in x.children())


# ------------------------------------------------------------ indexes of changing properties
SCALAR = ("str", "int", "bool")
MAX_INDEXED_VALUES = 16


def value_test(m, xs: X, slot: int, pred: X) -> tuple[str, str, tuple] | None:
    """For ``filter(components(T), c => ... and c.p == v and ...)`` (or ``c.p in
    [v, w]``, also through the functions the condition calls), where ``p`` is
    a changing property of ``T`` holding a plain value and no rule creates a
    ``T`` in play: (T, p, the values). The compiler keeps such properties in
    an index by value (``lib.indexed``), and the filter reads only the
    components holding one of the values, in the same order as the scan of
    all of them. The condition must draw nothing at random: it is evaluated
    for fewer components."""
    if xs.op != "components" or xs.a[0] in m.an.created or not _pure(m, pred):
        return None
    return _first_part(m, pred, slot, lambda x, item: _value_of(m, x, item, xs.a[0]))


def _value_of(m, x: X, slot: int, type_name: str):
    """``item.p == v`` or ``item.p in [v, w]``: (type, p, the values)."""
    if x.op == "cmp" and x.a[0] == "==":
        for here, there in ((x.a[1], x.a[2]), (x.a[2], x.a[1])):
            prop = _changing_of_item(m, here, slot, type_name)
            if prop is not None and isinstance(there, X) and there.op == "const" and _plain(there.a[0]):
                return type_name, prop, (there.a[0],)
        return None
    if x.op == "in" and not x.a[2]:
        prop = _changing_of_item(m, x.a[0], slot, type_name)
        values = literal_value(x.a[1], m.constant_defines())
        if prop is not None and isinstance(values, list) and 0 < len(values) <= MAX_INDEXED_VALUES \
                and all(_plain(v) for v in values):
            return type_name, prop, tuple(dict.fromkeys(values))
    return None


def _plain(v) -> bool:
    return isinstance(v, (str, int, bool)) or v is None


def _changing_of_item(m, x, slot: int, type_name: str) -> str | None:
    """The property ``p`` when ``x`` is ``item.p``, a changing property of the
    type holding a plain value."""
    if not (isinstance(x, X) and x.op == "dyn" and isinstance(x.a[0], X) and x.a[0].op == "local"
            and x.a[0].a[0] == slot):
        return None
    t = m.meta["comp_types"][type_name]["dynamic"].get(x.a[1])
    return x.a[1] if t is not None and getattr(t, "kind", None) in SCALAR else None


def index_plan(m) -> set:
    """The (type, property) pairs some filter of the ruleset reads by value
    (``value_test``): the engine keeps an index of each."""
    out = set()
    roots = [u.body for u in m.checked.units.values()] + [f.body for f in m.checked.functions.values()]
    for root in roots:
        for n in walk(root):
            if n.op == "filter":
                xs, slot, pred = n.a
                if family_of_filter(m, xs, slot, pred) is None:
                    found = value_test(m, xs, slot, pred)
                    if found is not None:
                        out.add(found[:2])
    return out
