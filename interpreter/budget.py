"""The work budget: how much a ruleset may compute between two decisions.

Loops count their rounds (``loop_round``); this counts the rest, the work
that has no loop of its own: items visited by queries, functions' calls
of functions, and runs of procedures and triggers that run others. The
count starts again at every decision (``st.work``); passing the ruleset's
``max_work`` limit is the located error R100, so a rule that would
compute for hours stops at once with its place.
"""

from __future__ import annotations

from rulebook.interpreter.errors import RuleError


def charge(st, n: int) -> None:
    """Count items visited against the work budget, so that one expression
    cannot run away where the loop limit does not look."""
    st.work += n
    if st.work > st.prog.max_work:
        over_budget(st)


OVER_BUDGET = {  # what spent the work budget: (the message's subject, the hint)
    "queries": ("queries visited more than {limit} items",
                "a query inside a query over large lists; narrow the lists first"),
    "calls": ("function calls and items visited by queries passed {limit}",
              "a function calls functions that call functions, many times over; call them less"),
    "runs": ("procedure calls, triggers and items visited by queries passed {limit}",
             "procedures or triggers that call (or fire events for) others, many times over; call them less"),
}


def over_budget(st, by: str = "queries"):
    """R100: the work budget is spent, ``by`` queries' items, functions'
    calls of functions (compiler/emit_expr.charge_call) or runs of
    procedures and triggers that run others (compiler/emit_stmt.charge_run,
    interpreter/ops.fire), one each."""
    subject, hint = OVER_BUDGET[by]
    raise RuleError("R100", subject.format(limit=st.prog.max_work) + " without a decision", hint=hint)
