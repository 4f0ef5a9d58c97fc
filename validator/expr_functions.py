"""Check ``x => ...``: a function given to a built-in (filter, map, sort, ...)."""

from __future__ import annotations

from rulebook.dsl import ast as A
from rulebook.validator.check_expr import Cx, truthy, unhoisted
from rulebook.validator.ir import X
from rulebook.validator.types import Type


def check_lambda_expr(ck, n, cx):
    cx.error("E041", "a function (x => ...) can only be an argument of filter, map, sort, any, all, ...", n.pos)


def lam(ck, node, cx: Cx, param_type: Type, what: str, predicate: bool = False,
        slot: int | None = None) -> tuple[int, X, Type]:
    """``x => ...``: (slot, body, type); ``slot`` binds a second function's parameter to the first's."""
    if not isinstance(node, A.LambdaExpr):
        cx.error("E041", f"{what} needs a function such as 'c => c.value', not a plain value", node.pos)
    if node.param.startswith("_"):
        cx.error("E014", f"'{node.param}': names starting with '_' are reserved", node.pos)
    outer = cx.scope.names.get(node.param)
    if slot is None:
        slot = cx.scope.fresh(node.param, param_type)
    else:
        cx.scope.names[node.param] = (slot, param_type)
    cx.note("local", node.param, node.pos, ("local", cx.scope.unit.name, slot), param_type, binds=True)
    try:
        with unhoisted(cx, "inside a function (x => ...)"):
            body, t = ck.expr(node.body, cx)
        if predicate and t.kind in ("zone", "comp", "player"):
            body = truthy(body, t)  # predicates read values the way conditions do
    finally:  # the parameter is visible only inside the function
        if outer is None:
            del cx.scope.names[node.param]
        else:
            cx.scope.names[node.param] = outer
    return slot, body, t
