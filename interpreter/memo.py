"""The values of the ruleset's functions while one decision is made.

Before a turn's action menu is offered, the rules compute the options of
every action (their parameters' lists and ``require``), the actions' ``if``
conditions (a pass allowed only when nothing else is) and, before the
decision, the end rules; all of that is computation without statements, on
one state. A function several of them call with the same arguments
(``can_move(p)``, asked by a pass condition and by the end check) gives the
same value each time there, and compiler/per_state.py makes such functions
look it up in ``st.memo`` once the menu has opened it.

``st.memo`` is a dict only from the moment the compiled flow starts
computing a turn's action menu until the state can change again: a playout
draws the answer (the flow drops the memo just before ``playout.auto_pick``),
the run loop returns or starts (``run.run``, after the end check that
follows the question), or the question is asked again (``run.reask``). Everywhere else it is None and the
functions compute as they are written. It is not part of the game: a clone
starts without one, a save never holds one.

Each entry keeps the work its computation counted against the work budget,
and a look-up counts it again (as ``interpreter/tables.py`` does), so that
the budget is spent exactly as without the memo.
"""

from __future__ import annotations

from rulebook.interpreter.budget import over_budget


def memoised(st, memo: dict, key, compute, *args):
    """The value of ``compute(st, *args)``, kept in ``memo`` under ``key``
    with the work it counted; a computation that fails keeps nothing."""
    before = st.work
    value = compute(st, *args)
    memo[key] = (value, st.work - before)
    return value


def recharged(st, value, work: int):
    """``value``, kept by an action's options (compiler/option_invariants.py),
    with the work its computation counted counted again."""
    st.work += work
    if st.work > st.prog.max_work:
        over_budget(st, "calls")
    return value


__all__ = ["memoised", "recharged"]
