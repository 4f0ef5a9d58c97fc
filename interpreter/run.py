"""The run loop: runs a game's frames until it needs a decision or ends.

The continuation is data: ``st.stack`` holds frames ``[unit id, pc,
locals]``, and each unit is a function of the compiled module that runs its
frame from ``pc`` (``compiler/emit_unit.py``). A unit returns SUSPEND when a
decision is pending, STOP when the game ended, and None when the stack
changed under it (a call, a return), after which the loop runs the new top.

An error in a rule is a ``RuleError`` naming the rule's place: where the
compiled code does not give one, the place is read from the line of the
compiled module that failed (its line map).
"""

from __future__ import annotations

import sys

from rulebook.interpreter.errors import BAD_VALUE, NO_OPTIONS, NO_TRANSITION, PHASE_LOOP, RulebookError, RuleError
from rulebook.interpreter.labels import describe
from rulebook.interpreter.ops import fire as _fire  # noqa: F401 - re-exported for compiled modules
from rulebook.validator.types import PLAYER

SUSPEND = 1
STOP = 2
PYTHON_ERRORS = (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError)


def run(st) -> None:
    prog = st.prog
    units = prog.units
    stack = st.stack
    st.loops = 0
    st.depth = 0
    st.memo = None  # an answer was given, or the game starts: the state changes from here
    try:
        while stack:
            fr = stack[-1]
            r = units[fr[0]](st, fr)
            if r is not None:
                if r == SUSPEND and prog.has_end_rules:
                    prog.check_end(st)
                return
    except RuleError as err:
        if not err.where:  # raised by a helper that does not know its place: give it the rule's
            err.where = place_of(prog, sys.exc_info()[2])
        if err.decision is None:
            err.decision = len(st.history)
        raise
    except RulebookError:
        raise
    except RecursionError:
        raise RuleError(BAD_VALUE, "rule evaluation nested too deeply", place_of(prog, sys.exc_info()[2]),
                        decision=len(st.history)) from None
    except PYTHON_ERRORS as err:
        failure = rule_error(prog, err, sys.exc_info()[2])
        failure.decision = len(st.history)
        raise failure from None
    finally:
        st.memo = None  # the decision's values are kept only while it is made (interpreter/memo.py)


def rule_error(prog, err: Exception, tb) -> RuleError:
    """A Python error met while running compiled rules, as the rule's error."""
    what = _plain(err)
    return RuleError(BAD_VALUE, f"a rule met a value it cannot use ({what})", place_of(prog, tb),
                     "a value may be 'none' here (an empty zone, a missing choice)")


def _plain(err: Exception) -> str:
    """A Python error in words a rule author reads (no Python names)."""
    if isinstance(err, KeyError):
        if not err.args:
            return "a name is missing"
        key = err.args[0]
        if key is None:
            return "a value is none"
        if not isinstance(key, str):  # a zone kept per component, indexed directly (compiler/code.comp_zone)
            return f"{key!r} is not a component this zone is kept for"
        return f"nothing is called {key!r} here"
    if isinstance(err, TypeError) and "NoneType" in str(err):
        return "a value is none"
    if isinstance(err, ZeroDivisionError):
        return "division by zero"
    if isinstance(err, IndexError):
        return "a position is outside a list"
    return f"{type(err).__name__}: {err}"


def place_of(prog, tb) -> str:
    """The rule place of the innermost compiled line in a traceback."""
    where = ""
    while tb is not None:
        lines = prog.line_maps.get(tb.tb_frame.f_code.co_filename)
        if lines is not None:
            where = lines.get(tb.tb_lineno, where)
        tb = tb.tb_next
    return where or prog.source_file


def reask(st) -> dict | None:
    """Ask the pending question again from the state as it is now (after a
    determinization or a scenario's statements changed what it depends on):
    the block that asked runs once more. Returns the new pending decision,
    or None when the question cannot be asked again (the game ended)."""
    fr = st.stack[-1]
    fr[1] -= 1  # a question's answer block follows the block that asks it
    st.pending = None
    st.loops = st.depth = 0
    st.memo = None
    try:
        r = st.prog.units[fr[0]](st, fr)
    finally:
        st.memo = None  # the state may change after: the values of this decision are not kept
    return st.pending if r == SUSPEND else None


def check_end(st) -> bool:
    return st.prog.has_end_rules and st.prog.check_end(st)


def scores(st) -> list:
    prog = st.prog
    if prog.score is None:
        return [0] * st.n
    return [prog.score(st, p) for p in range(st.n)]


def finish(st, winners=None) -> None:
    """End the game; with no winners given, rank by the scoring section."""
    if winners is None:
        prog = st.prog
        candidates = [p for p in range(st.n) if st.eliminated[p] is not True] or list(range(st.n))
        if prog.score is None:
            winners = candidates
        else:

            def key(p):
                k = [prog.score(st, p)] + [tb(st, p) for tb in prog.tie_breaks]
                return tuple(-v for v in k) if prog.lowest_wins else tuple(k)

            keys = [key(p) for p in candidates]  # each score computed once: a score can be a query over a zone
            best = max(keys)
            winners = [p for p, k in zip(candidates, keys) if k == best]
    st.winners = sorted({w for w in winners if w is not None})
    st.over = True
    st.pending = None
    st.stack.clear()
    if st.record:
        st.events.append(("end", list(st.winners)))


def phases_loop(st, name: str, where: str, hint: str | None) -> None:
    """Too many phases entered without a decision (the flow counts them)."""
    limit = st.prog.limits["max_phase_entries"]
    raise RuleError(
        PHASE_LOOP,
        f"{limit} phases entered without any decision: the phases loop (last: '{name}')",
        where,
        hint if hint and st.current is None else "a transition condition never changes",
    )


def no_transition(name: str, where: str) -> RuleError:
    return RuleError(NO_TRANSITION, f"phase '{name}' ended and none of its transitions applies", where,
                     "add a transition without a condition, or end the game")


def no_action(st, p, phase: str, actions, where: str) -> RuleError:
    return RuleError(
        NO_OPTIONS,
        f"{describe(st, p, PLAYER)} has no legal action in phase '{phase}' ({why_not_offered(st, actions, p)})",
        where,
        "make sure one action is always possible, e.g. pass",
    )


def why_not_offered(st, actions, p) -> str:
    """Why each action of a turn offers nothing to ``p`` (for R101): its
    ``if`` is false, a parameter has no values, or ``require`` refuses
    every combination. Only computed when the error is raised."""
    reasons = []
    for act in actions:
        if act.cond is not None and not act.cond(st, p):
            reasons.append(f"'{act.name}': its 'if' is false")
            continue
        empty = _first_empty_param(st, act, p, [])
        if empty is not None:
            reasons.append(f"'{act.name}': parameter '{st.prog.actions[act.index].params[empty]}' has no values")
        else:
            reasons.append(f"'{act.name}': 'require' refuses every choice")
    return "; ".join(reasons) or "the turn lists no actions"


def _first_empty_param(st, act, p, chosen: list):
    """The index of a parameter whose domain is empty for every choice of
    the ones before it (None when some combination reaches the end)."""
    i = len(chosen)
    if i == len(act.domains):
        return None
    values = act.domains[i](st, p, *chosen)
    if not values:
        return i
    found = None
    for v in values:
        found = _first_empty_param(st, act, p, chosen + [v])
        if found is None:
            return None
    return found
