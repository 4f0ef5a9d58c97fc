"""The interpreter loop: runs compiled instructions until the game needs a
decision (a pending choice) or ends.

The continuation is data: ``st.stack`` holds frames ``[code id, pc, locals]``,
so a suspended game can be cloned, saved and resumed at any decision.
"""

from __future__ import annotations

from interpreter.compile_stmt import SUSPEND
from interpreter.errors import BAD_VALUE, STEP_LIMIT, RulebookError, RuleError


def run(st) -> None:
    prog = st.prog
    codes = prog.codes
    stack = st.stack
    limit = prog.limits["max_steps"]
    steps = 0
    fr = None
    pc = 0
    try:
        while stack:
            fr = stack[-1]
            ins = codes[fr[0]].ins
            n = len(ins)
            depth = len(stack)
            while True:  # run this frame until it ends, calls, or suspends
                pc = fr[1]
                if pc >= n:
                    stack.pop()
                    break
                fr[1] = pc + 1
                r = ins[pc](st, fr)
                steps += 1
                if r is not None:
                    if r == SUSPEND and prog.end_rules:
                        check_end(st)
                    return
                if len(stack) != depth or steps > limit:
                    break
            if steps > limit:
                code = codes[fr[0]]
                raise RuleError(
                    STEP_LIMIT,
                    f"more than {limit} steps without a decision: the rules loop in '{code.name}'",
                    code.where[min(pc, len(code.where) - 1)],
                    "a while loop or a cycle of phases never stops",
                )
    except RuleError as err:
        if not err.where:  # raised by a helper that does not know its place: give it the rule's
            err.where = _where(st, fr, pc)
            err.args = (f"{err.where}: error[{err.code}]: {err.message}",)
        raise
    except RulebookError:
        raise
    except RecursionError:
        raise RuleError(BAD_VALUE, "rule evaluation nested too deeply", _where(st, fr, pc)) from None
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError) as err:
        raise RuleError(
            BAD_VALUE,
            f"a rule met a value it cannot use ({type(err).__name__}: {err})",
            _where(st, fr, pc),
            "a value may be 'none' here (an empty zone, a missing choice)",
        ) from None
    finally:
        st.steps += steps


def _where(st, fr, pc) -> str:
    if fr is None:
        return ""
    code = st.prog.codes[fr[0]]
    return code.where[pc] if 0 <= pc < len(code.where) else code.name


def check_end(st) -> bool:
    for cond, winners, _ in st.prog.end_rules:
        L = [st.current]
        if cond(st, L):
            finish(st, winners(st, L) if winners else None)
            return True
    return False


def scores(st) -> list:
    prog = st.prog
    if prog.score is None:
        return [0] * st.n
    out = []
    for p in range(st.n):
        L = [p] + [None] * prog.score_locals
        out.append(prog.score(st, L))
    return out


def finish(st, winners=None) -> None:
    """End the game; with no winners given, rank by the scoring section."""
    if winners is None:
        prog = st.prog
        candidates = [p for p in range(st.n) if not st.eliminated[p]] or list(range(st.n))
        if prog.score is None:
            winners = candidates
        else:

            def key(p):
                L = [p] + [None] * prog.score_locals
                k = [prog.score(st, L)] + [tb(st, L) for tb in prog.tie_breaks]
                return tuple(-v for v in k) if prog.lowest_wins else tuple(k)

            best = max(key(p) for p in candidates)
            winners = [p for p in candidates if key(p) == best]
    st.winners = sorted({w for w in winners if w is not None})
    st.over = True
    st.pending = None
    st.stack.clear()
    if st.record:
        st.events.append(("end", list(st.winners)))
