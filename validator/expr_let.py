"""``let`` in an expression text: a function's value may name a value on a
line of its own and read it in the lines below, instead of passing it to a
smaller function as a parameter.

    let r = ray(s, d)
    count(r) > 0 and owner(top(on[last(r)])) == player

The value is checked as ``let`` statements are (``let n: int = ...``
declares its type), the name is visible only in the lines below it, and it
may not hide another name there (a parameter, an outer ``let``): two
meanings of one name in a few lines are a mistake waiting to happen."""

from __future__ import annotations

from rulebook.validator.check_stmt import let_value
from rulebook.validator.ir import X


def check_let_expr(ck, n, cx):
    if n.name.startswith("_"):
        cx.error("E014", f"'{n.name}': names starting with '_' are reserved", n.pos)
    if n.name in cx.scope.names:
        cx.error("E043", f"'{n.name}' already names something here: a let gives a new name", n.pos,
                 "pick another name for this value")
    value, t = let_value(ck, n, cx)
    slot = cx.scope.fresh(n.name, t)
    cx.note("local", n.name, n.pos, ("local", cx.scope.unit.name, slot), t, binds=True)
    try:
        body, bt = ck.expr(n.body, cx)
    finally:  # the name is visible only in the lines below it
        del cx.scope.names[n.name]
    return X("let_in", slot, value, body), bt
