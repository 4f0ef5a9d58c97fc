"""Check a call in a value: a built-in, a ruleset's function or a procedure that returns."""

from __future__ import annotations

from rulebook.dsl import ast as A
from rulebook.validator.check_decls import function_variant
from rulebook.validator.check_expr import Cx, expect, face_up_only
from rulebook.validator.check_proc_calls import call_value, note_test_helper_call
from rulebook.validator.check_texts import faces_first
from rulebook.validator.diagnostics import did_you_mean
from rulebook.validator.ir import X

# built-ins that go by the ids of the components they are given (with one
# argument only, for the second set): in text said to everybody they read
# faces, so face-down components stop the piece ("[hidden]")
_BY_ID = frozenset({"index_of", "count_of", "distinct", "zone", "sees", "owner"})
_BY_ID_WITHOUT_KEY = frozenset({"sort", "min", "max"})


def _by_id(n) -> bool:
    """Whether a built-in's call goes by the ids of the components it is given."""
    if n.func in _BY_ID:
        return True
    return n.func in _BY_ID_WITHOUT_KEY and not any(isinstance(a, A.LambdaExpr) for a in n.args)


# ----------------------------------------------------------- calls
def check_call(ck, n, cx):
    spec = ck.builtins.get(n.func)
    if spec is not None:
        lo, hi, handler = spec
        if not lo <= len(n.args) <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            cx.error(
                "E040",
                f"{n.func}() takes {want} argument{'s' if hi != 1 else ''}, {len(n.args)} given",
                n.pos,
                length=len(n.func),
            )
        if n.kwargs:
            cx.error("E046", f"{n.func}() takes no keyword arguments", n.kwargs[0].pos)
        x, t = handler(ck, n, cx)
        if cx.public and _by_id(n):
            x = faces_first(ck, x, n.args, cx)
        if cx.public and n.func == "components":  # listed by id: which is which, if one is face down
            x = face_up_only(x, t)
        return x, t
    if n.func in ck.functions:
        return call_function(ck, n, cx)
    if n.func in ck.procedures:
        return call_value(ck, n, cx)
    hint = did_you_mean(n.func, list(ck.builtins) + list(ck.functions))
    cx.error("E037", f"unknown function '{n.func}'", n.pos, hint, len(n.func))


def call_function(ck, n, cx: Cx):
    """A call of a ruleset's function: its arguments are checked against
    its parameters here; its body is checked once for each kind of place
    it is called from (said to everybody or not, in which trigger), and
    compiled once into a Python function of its own."""
    params = ck.functions[n.func][0]
    note_test_helper_call(cx, "functions", n.func, n.pos)
    if len(n.args) != len(params):
        cx.error(
            "E040",
            f"{n.func}() takes {len(params)} argument{'s' if len(params) != 1 else ''}, {len(n.args)} given",
            n.pos,
            length=len(n.func),
        )
    args = tuple(expect(ck, arg, cx, ptype, f"argument '{pname}' of {n.func}()")
                 for (pname, ptype), arg in zip(params, n.args))
    key, t = function_variant(ck, n.func, cx.public, cx.scope.event, n, cx)
    event = X("local", cx.scope.event_slot) if cx.scope.event else X("const", None)
    return X("fn", key, X("local", 0), event, args), t
