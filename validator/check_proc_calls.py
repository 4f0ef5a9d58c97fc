"""Check a procedure's call, as a statement or, for one that returns, inside a value."""

from __future__ import annotations

from rulebook.dsl import ast as A
from rulebook.validator.check_expr import Cx, expect
from rulebook.validator.diagnostics import did_you_mean
from rulebook.validator.ir import S, X


def check_call_stmt(ck, s, cx):
    proc = ck.procedures.get(s.func)
    if proc is not None:
        cx.note("procedure", s.func, s.pos)
    if proc is None:
        if s.func in ck.functions:
            cx.error("E044", f"'{s.func}' is a function: use its value, e.g. let x = {s.func}(...)", s.pos)
        cx.error(
            "E037",
            f"unknown procedure '{s.func}'",
            s.pos,
            did_you_mean(s.func, ck.procedures)
            if s.func not in ck.builtins
            else f"'{s.func}' is a function and gives a value; use it inside an expression",
            len(s.func),
        )
    ck.used_procs.add(s.func)
    note_test_helper_call(cx, "procedures", s.func, s.pos)
    unit, params = proc
    ck.unit_calls.setdefault(cx.scope.unit.name, set()).add(unit)
    if len(s.args) != len(params):
        cx.error(
            "E040",
            f"{s.func}() takes {len(params)} argument{'s' if len(params) != 1 else ''}, {len(s.args)} given",
            s.pos,
            length=len(s.func),
        )
    args = tuple(expect(ck, a, cx, pt, f"argument '{pn}' of {s.func}()") for (pn, pt), a in zip(params, s.args))
    return S("call", cx.where(s.pos), unit, args)


def note_test_helper_call(cx: Cx, section: str, name: str, pos) -> None:
    """Where a helper for tests is called from, for W109 (``warn_unused``)."""
    calls = getattr(cx.comp, "test_helpers", {}).get((section, name))
    if calls is not None:
        calls.append((cx.path, *cx.at(pos)))


def call_value(ck, n, cx: Cx):
    """A procedure with 'returns' called in an expression of a statement:
    the call runs just before the statement (``cx.hoist``), its value goes
    to a local the expression reads."""
    returns = ck.proc_returns.get(n.func)
    if returns is None:
        cx.error("E044", f"'{n.func}' is a procedure without 'returns': call it as a statement, it gives no "
                 "value", n.pos, f"declare 'returns: <type>' in procedure '{n.func}' to give a value")
    if not isinstance(cx.hoist, list):
        where = cx.hoist if isinstance(cx.hoist, str) else "in a condition or a function (they change nothing)"
        cx.error("E044", f"procedure '{n.func}' cannot be called {where}", n.pos,
                 f"call it in a statement of its own first: let x = {n.func}(...)")
    if n.kwargs:
        cx.error("E046", f"{n.func}() takes no keyword arguments", n.kwargs[0].pos)
    call = check_call_stmt(ck, A.CallStmt(n.func, n.args, (), n.pos), cx)
    slot = cx.scope.temp()
    cx.hoist.append(S("call", call.where, call.a[0], call.a[1], slot))
    return X("local", slot), returns
