"""Rule text written back from a syntax tree: parsing ``source(node)``
gives ``node`` again (positions aside), with brackets only where the
grammar needs them. Tools use it to name a piece of an expression (a part
of a score, a failed part of an expectation)."""

from __future__ import annotations

import json

import rulebook.dsl.ast as A

# binding strength of each construct, as in dsl/rules.lark (higher binds tighter)
LAMBDA, TERNARY, OR, AND, NOT, COMPARE, SUM, TERM, FACTOR, POSTFIX = range(10)


def source(node) -> str:
    """Rule text for an expression node: parsing it gives the node back
    (positions aside). Brackets only where the grammar needs them."""
    return _src(node)[0]


def _wrap(node, level: int) -> str:
    text, own = _src(node)
    return f"({text})" if own < level else text


def _src(node) -> tuple[str, int]:
    if isinstance(node, A.IntLit):
        return str(node.value), POSTFIX
    if isinstance(node, A.StrLit):
        return json.dumps(node.value), POSTFIX
    if isinstance(node, A.BoolLit):
        return ("true" if node.value else "false"), POSTFIX
    if isinstance(node, A.NoneLit):
        return "none", POSTFIX
    if isinstance(node, A.Name):
        return node.id, POSTFIX
    if isinstance(node, A.ListLit):
        return "[" + ", ".join(_wrap(x, LAMBDA) for x in node.items) + "]", POSTFIX
    if isinstance(node, A.Attribute):
        return f"{_wrap(node.obj, POSTFIX)}.{node.attr}", POSTFIX
    if isinstance(node, A.Index):
        return f"{_wrap(node.obj, POSTFIX)}[{_wrap(node.key, LAMBDA)}]", POSTFIX
    if isinstance(node, A.Slice):
        lo = "" if node.lo is None else _wrap(node.lo, LAMBDA)
        hi = "" if node.hi is None else _wrap(node.hi, LAMBDA)
        return f"{_wrap(node.obj, POSTFIX)}[{lo}:{hi}]", POSTFIX
    if isinstance(node, A.Call):
        args = [_wrap(x, LAMBDA) for x in node.args] + [f"{k.name}={_wrap(k.value, LAMBDA)}" for k in node.kwargs]
        return f"{node.func}({', '.join(args)})", POSTFIX
    if isinstance(node, A.LambdaExpr):
        return f"{node.param} => {_wrap(node.body, LAMBDA)}", LAMBDA
    if isinstance(node, (A.LetExpr, A.ReturnIf)):  # only ever a whole expression text: lines, never bracketed
        return "\n".join(_lines(node)), LAMBDA
    if isinstance(node, A.IfExpr):
        return f"{_wrap(node.then, OR)} if {_wrap(node.cond, OR)} else {_wrap(node.orelse, TERNARY)}", TERNARY
    if isinstance(node, A.OrOp):
        return f"{_wrap(node.left, OR)} or {_wrap(node.right, AND)}", OR
    if isinstance(node, A.AndOp):
        return f"{_wrap(node.left, AND)} and {_wrap(node.right, NOT)}", AND
    if isinstance(node, A.NotOp):
        return f"not {_wrap(node.operand, NOT)}", NOT
    if isinstance(node, A.Compare):
        return f"{_wrap(node.left, SUM)} {node.op} {_wrap(node.right, SUM)}", COMPARE
    if isinstance(node, A.InOp):
        return f"{_wrap(node.item, SUM)} {'not in' if node.negated else 'in'} {_wrap(node.coll, SUM)}", COMPARE
    if isinstance(node, A.Binary):
        if node.op in ("+", "-"):
            return f"{_wrap(node.left, SUM)} {node.op} {_wrap(node.right, TERM)}", SUM
        return f"{_wrap(node.left, TERM)} {node.op} {_wrap(node.right, FACTOR)}", TERM
    if isinstance(node, A.Neg):
        return f"-{_wrap(node.operand, FACTOR)}", FACTOR
    raise TypeError(f"not an expression node: {type(node).__name__}")


def _lines(node) -> list[str]:
    """The lines of an expression text that names values (``let``) or gives
    its value early (``return value if cond``). After a guard the last line
    is written ``return value``, which reads as the guard's other case and
    parses to the same value."""
    out, guarded = [], False
    while isinstance(node, (A.LetExpr, A.ReturnIf)):
        if isinstance(node, A.LetExpr):
            declared = f": {node.type}" if node.type is not None else ""
            out.append(f"let {node.name}{declared} = {_wrap(node.value, LAMBDA)}")
        else:
            out.append(f"return {_wrap(node.value, OR)} if {_wrap(node.cond, OR)}")
            guarded = True
        node = node.body
    if node is not None:
        out.append(("return " if guarded else "") + _src(node)[0])
    return out
