"""Python for ``let`` in an expression text (``X("let_in", slot, value,
body)``, validator/expr_let.py): ``(lambda name: body)(value)``.

A lambda, not ``:=``: the name is the body's own, so a function written
twice in one expression (``f(f(x))``, or inside a comprehension, where
``:=`` is refused in the iterable) never reads the other's value. Nothing
is kept with ``:=`` inside it for reuse after it (compiler/cse.py): the
name would not exist there."""

from __future__ import annotations


def emit_let(e, slot: int, value, body) -> str:
    computed = e.ex(value)
    plan, bound = e.cse_plan, e.cse_bound
    e.cse_plan, e.cse_bound = {}, {}
    try:
        name = e.local(slot, bind=True)
        return f"(lambda {name}: {e.ex(body)})({computed})"
    finally:
        e.cse_plan, e.cse_bound = plan, bound
