"""Check operators: ``a if c else b``, ``and``/``or``/``not``, comparisons, ``in``, arithmetic."""

from __future__ import annotations

from rulebook.validator.check_expr import as_list, cond, face_up_only, listy, unhoisted
from rulebook.validator.ir import X
from rulebook.validator.types import BOOL, INT, LIST, STR, elem_type, is_listy, join


# ----------------------------------------------------------- operators
def check_if_expr(ck, n, cx):
    c = cond(ck, n.cond, cx)
    with unhoisted(cx, "in a branch of 'a if c else b' (computed only when chosen)"):
        a, ta = ck.expr(n.then, cx)
        b, tb = ck.expr(n.orelse, cx)
    return X("ifexpr", c, a, b), join(ta, tb)


def check_or_op(ck, n, cx):
    left = cond(ck, n.left, cx)
    with unhoisted(cx, "on the right of 'or' (computed only when the left is false)"):
        return X("or", left, cond(ck, n.right, cx)), BOOL


def check_and_op(ck, n, cx):
    left = cond(ck, n.left, cx)
    with unhoisted(cx, "on the right of 'and' (computed only when the left is true)"):
        return X("and", left, cond(ck, n.right, cx)), BOOL


def check_not_op(ck, n, cx):
    return X("not", cond(ck, n.operand, cx)), BOOL


def check_compare(ck, n, cx):
    a, ta = ck.expr(n.left, cx)
    b, tb = ck.expr(n.right, cx)
    if n.op in ("<", "<=", ">", ">="):
        for side, t in ((n.left, ta), (n.right, tb)):
            if t.kind not in ("int", "any", "error", "str", "player"):
                cx.error("E041", f"'{n.op}' compares numbers, not {t}", side.pos)
    elif not {ta.kind, tb.kind} & {"any", "none", "error"}:
        if ta.kind != tb.kind and {ta.kind, tb.kind} != {"int", "player"}:
            cx.error(
                "E041",
                f"comparing {ta} with {tb} is always {n.op == '!='}",
                n.pos,
                "compare values of the same kind",
            )
    if cx.public and "none" not in (ta.kind, tb.kind):  # in text said to everybody, components
        a, b = face_up_only(a, ta), face_up_only(b, tb)  # compare by id: faces must be seen
    if n.op in ("==", "!=") and "list" in (ta.kind, tb.kind):
        return X("cmp_sized", n.op, a, b), BOOL  # lists compared item by item: charged by their size
    return X("cmp", n.op, a, b), BOOL


def check_in_op(ck, n, cx):
    item, ti = ck.expr(n.item, cx)
    coll, ct = listy(ck, n.coll, cx, "the right side of 'in'")
    kinds = {ti.kind, ct.kind}
    if not kinds & {"any", "none", "error"} and ti.kind != ct.kind and kinds != {"int", "player"}:
        cx.error("E041", f"a {ti} is never in a list of {ct}: 'in' would always be "
                 f"{'true' if n.negated else 'false'}", n.pos, "compare values of the same kind")
    if cx.public:  # in text said to everybody, membership goes by id: faces must be seen
        item, coll = face_up_only(item, ti), face_up_only(coll, LIST(ct))
    return X("in", item, coll, n.negated), BOOL


def check_binary(ck, n, cx):
    a, ta = ck.expr(n.left, cx)
    b, tb = ck.expr(n.right, cx)
    op = n.op
    if op in ("+", "-") and (ta.kind in ("list", "zone") or tb.kind in ("list", "zone")):
        la, lb = as_list(a, ta), as_list(b, tb)
        et = join(elem_type(ta) if is_listy(ta) else ta, elem_type(tb) if is_listy(tb) else tb)
        if not is_listy(ta):
            cx.error(
                "E041",
                f"'{op}' with a list needs the list on the left, not {ta}",
                n.left.pos,
                "write [x] + xs to put a value before a list",
            )
        where = cx.where(n.pos)
        if op == "+":
            if not is_listy(tb):
                return X("list_plus_one", la, b, where), LIST(et)
            return X("list_plus", la, lb, where), LIST(et)
        if not is_listy(tb):
            return X("list_minus_one", la, b), LIST(et)
        return X("list_minus", la, lb), LIST(et)
    if op == "+" and "str" in (ta.kind, tb.kind) and {ta.kind, tb.kind} <= {"str", "any", "error"}:
        return X("str_plus", a, b, cx.where(n.pos)), STR
    for side, t in ((n.left, ta), (n.right, tb)):
        if t.kind not in ("int", "any", "error", "player"):
            cx.error("E041", f"'{op}' needs numbers, not {t}", side.pos)
    if op in ("+", "-", "*"):
        return X("arith", op, a, b, cx.where(n.pos)), INT
    return X("div", op, a, b, cx.where(n.pos)), INT


def check_neg(ck, n, cx):
    a, t = ck.expr(n.operand, cx)
    if t.kind not in ("int", "any", "error", "player"):  # players are seat numbers, as in arithmetic
        cx.error("E041", f"'-' needs a number, not {t}", n.pos)
    return X("neg", a), INT
