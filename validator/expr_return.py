"""``return value if cond`` in an expression text (a guard): a function's
value given early, when a condition holds, instead of one long nested
``a if c else b``.

    return none if is_empty(xs)
    let best = max(xs)
    return best if best > limit
    limit

The lines below a guard are computed only when its condition is false, so
they may rely on what the guard has ruled out (``max(xs)`` of a list with
items). Every value a text can give must agree with the last line's (E041,
as two branches of a conditional would if they could not be compared), and
a guard cannot stand last (E047): when no condition holds, the last line
is the value.

The guard is ``X("return_if", cond, value, rest)``: the operands of
``ifexpr``, so every pass that reads a function's body treats it as the
conditional it is; only the function's own ``def`` writes it as an ``if``
statement (compiler/emit_return.py)."""

from __future__ import annotations

from rulebook.validator.check_expr import cond, unhoisted
from rulebook.validator.ir import X
from rulebook.validator.types import compatible, join


def check_return_if(ck, n, cx):
    c = cond(ck, n.cond, cx)
    with unhoisted(cx, "in a 'return ... if ...' line (computed only when its condition holds)"):
        value, vt = ck.expr(n.value, cx)
    if n.body is None:
        cx.error("E047", "this 'return ... if ...' is the last line: there is no value for when its condition "
                 "does not hold", n.pos,
                 "end with the value for the other case on a line of its own (a bare value, or 'return value')")
    with unhoisted(cx, "below a 'return ... if ...' line (computed only when its condition does not hold)"):
        rest, rt = ck.expr(n.body, cx)
    if not (compatible(rt, vt) or compatible(vt, rt)):
        cx.error("E041", f"this line returns {vt}, and the lines below it give {rt}", n.value.pos,
                 "every value a function gives is of one type")
    return X("return_if", c, value, rest), join(vt, rt)
