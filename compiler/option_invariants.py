"""Calls computed once per action menu, not once per option.

An action's ``require`` is asked of every option its parameters give
(every card of a hand, every square of a board), on one state: nothing
between two options writes the state. A call in it of one of the
ruleset's functions whose arguments read none of the parameters (``leading()``
in ``may_lead(c) if leading() else may_follow(c)``) gives the same value
for every option, yet as written it is computed again for each. Such a call
is compiled as a value of the options function, computed the first time an
option needs it and read by the options after: ``_onceN_w`` is None until
then, and afterwards the work the computation counted, which each later read
counts again (``interpreter/memo.recharged``), so that the work budget is
spent exactly as without the pass (an R100 is reached at the same option).

Kept only: calls of functions that draw nothing at random, take no event,
do work (a query, a range, or a call of a function with one), and are not
already kept in a table or the per-decision memo; and only calls reached
without entering a query, a ``let`` or anything else that binds a name
(their value there could depend on the bound name, and ``:=`` inside a
lambda or a comprehension would bind the wrong scope).
"""

from __future__ import annotations

from rulebook.compiler.cse import IN_ORDER
from rulebook.compiler.per_state import does_work
from rulebook.validator.ir import X, operands, walk

# operations whose operands are evaluated in the expression itself, binding no name
PLAIN = (IN_ORDER | {"and", "or", "ifexpr"}) - {"fn"}


def plan(m, require: X | None, params) -> dict:
    """id(call node) -> the name of its kept value, for the calls of
    ``require`` that are the same for every option of ``params``."""
    if require is None or not params:
        return {}
    pure, skip, working = m.pure_functions(), set(m.tabled()) | m.memoised(), {}
    slots = {slot for _name, slot, _dom in params}
    out: dict = {}
    for node in _reached(require):
        if node.op != "fn":
            continue
        key = node.a[0]
        if key not in pure or key in skip or m.checked.functions[key].event_slot >= 0:
            continue
        if any(n.op == "local" and n.a[0] in slots for n in walk(node)):
            continue
        if does_work(m.checked, key, working):
            m.onces += 1
            out[id(node)] = f"_once{m.onces}"
    return out


def _reached(x: X):
    """The nodes of ``x`` reached through operations that bind no name."""
    yield x
    if x.op not in PLAIN:
        return
    for a in operands(x):
        yield from _reached(a)


def starts(names) -> list[str]:
    """The lines before the options' loops: nothing computed yet."""
    return [f"{name}_w = None" for name in names]


def read(name: str, src: str) -> str:
    """The kept value, counted again; or, the first time, ``src``'s value, kept with the work it counted."""
    return (f"(recharged(st, {name}, {name}_w) if {name}_w is not None else "
            f"({name}_w := st.work, {name} := {src}, {name}_w := st.work - {name}_w)[1])")
