"""Which of the ruleset's functions keep their values while one decision is made.

Before a turn's player is asked for an action, the engine computes three
things on the same state: the options of every action (the lists of its
parameters and its ``require``), the actions' ``if`` conditions, and the end
rules. Rules written plainly ask the same question in several of them:
Reversi's ``pass`` is allowed when ``not can_move(player)``, and its end rule
asks ``can_move`` of both players, while the options have just tested
``can_place`` on every square. A function reached from two or more of those
three (``shared_functions``) is compiled with a front that keeps its value
per argument tuple in ``st.memo`` while the decision is made
(interpreter/memo.py); everywhere else it computes as written.

Keeping every function's values was measured to slow games down (most
calls are never repeated), so only these shared functions are kept, and of
them only those that do work (a query, a range, or a call of a function
with one: ``tabling.ITERATING``), draw nothing at random, take no event and
are keyed by plain values (no list: a list from the state is as dear to key
as to visit). A function kept in a table (compiler/tabling.py) needs no memo.
"""

from __future__ import annotations

from rulebook.compiler.tabling import ITERATING, keyable, reads_player
from rulebook.validator.ir import walk


def reached(checked, roots) -> set:
    """The function variants the expressions ``roots`` call, directly or through others."""
    out: set = set()
    todo = [r for r in roots if r is not None]
    while todo:
        for n in walk(todo.pop()):
            if n.op == "fn" and n.a[0] not in out:
                out.add(n.a[0])
                todo.append(checked.functions[n.a[0]].body)
    return out


def contexts(checked) -> list[set]:
    """The functions reached by each of what a decision computes: the
    actions' options, the actions' conditions, the end rules."""
    options = [d for act in checked.actions for _name, _slot, d in act.params] + \
        [act.require for act in checked.actions]
    conditions = [act.cond for act in checked.actions]
    ends = [cond.x for cond, _winners, _where in checked.end_rules]
    return [reached(checked, options), reached(checked, conditions), reached(checked, ends)]


def shared_functions(checked) -> set:
    """The function variants reached from at least two of ``contexts``."""
    seen: dict = {}
    for found in contexts(checked):
        for key in found:
            seen[key] = seen.get(key, 0) + 1
    return {key for key, n in seen.items() if n >= 2}


def does_work(checked, key, known: dict | None = None) -> bool:
    """A query or a range in the body, or a call of a function with one.
    ``known``: the answers found so far (each function is looked at once,
    however many calls lead to it)."""
    known = {} if known is None else known
    if key not in known:
        known[key] = any(n.op in ITERATING or (n.op == "fn" and does_work(checked, n.a[0], known))
                         for n in walk(checked.functions[key].body))
    return known[key]


def memoised_functions(checked, pure: set, tabled: dict) -> set:
    """The function variants compiled with a front that reads ``st.memo``."""
    out = set()
    working: dict = {}
    for key in shared_functions(checked):
        rule = checked.functions[key]
        if key not in pure or key in tabled or rule.event_slot >= 0:
            continue
        if len(rule.param_types) != len(rule.params) or not all(
                keyable(t) and t.kind != "list" for t in rule.param_types):
            continue
        if does_work(checked, key, working):
            out.add(key)
    return out


def write_front(m, key, rule, name: str, value_name: str) -> None:
    """``name``, the function callers call: while a decision is made, its
    value for these arguments from ``st.memo`` (computed by ``value_name``,
    the function's body, the first time); otherwise the body's value."""
    code = m.function_def(key, rule, name)
    params = [code.local(s) for s in rule.params]
    parts = [repr(name)] + (["player"] if reads_player(m.checked, key) else []) + params
    args = ", ".join(["player", *params])
    with code.block():
        code.line("# kept while one decision is made (compiler/per_state.py)")
        code.line("_m = st.memo")
        code.line("if _m is None:")
        with code.block():
            code.line(f"return {value_name}(st, {args})")
        code.line(f"_k = ({', '.join(parts)})")
        code.line("_e = _m.get(_k)")
        code.line("if _e is None:")
        with code.block():
            code.line(f"return memoised(st, _m, _k, {value_name}, {args})")
        code.line("st.work += _e[1]")
        code.line(f"if st.work > {code.limit('max_work')}: over_budget(st, 'calls')")
        code.line("return _e[0]")
