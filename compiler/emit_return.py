"""Python for a function's lines: ``let`` (``X("let_in", ...)``,
compiler/emit_let.py) and the guard ``return value if cond``
(``X("return_if", cond, value, rest)``, validator/expr_return.py).

In the function's own ``def`` the lines stay lines, as the author wrote
them: a ``let`` is an assignment, a guard an ``if cond: return value``, the
last line the ``return``. Elsewhere (a body written at its call site, a
guard below a comprehension) a guard is the conditional expression it
means: ``(value if cond else rest)``."""

from __future__ import annotations

from rulebook.validator.ir import X


def emit_return_if(e, c: X, value: X, rest: X) -> str:
    return f"({e.ex(value)} if {e.ex(c)} else {e.ex(rest)})"


def write_lines(code, body: X) -> None:
    """The statements of a function's ``def`` for its value ``body``."""
    while body.op in ("let_in", "return_if"):
        if body.op == "let_in":
            slot, value, body = body.a
            computed = code.ex(value)
            code.line(f"{code.local(slot, bind=True)} = {computed}")
        else:
            c, value, body = body.a
            code.line(f"if {code.ex(c)}:")
            with code.block():
                code.line(f"return {code.ex(value)}")
    code.line(f"return {code.ex(body)}")
