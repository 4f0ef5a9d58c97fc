"""Check statements: ``block(ck, stmts, cx) -> [S]``, each statement by the
check for its kind of node (``STATEMENT_CHECKS``).

Each statement is checked and written as IR (``validator.ir.S``) with its
place in the file, which the compiled code keeps for runtime errors. A
statement that fails to check is left out (its error is reported) and the
names it would have bound are declared with the error type, so later
statements do not report the same mistake again.
"""

from __future__ import annotations

from rulebook.dsl import ast as A
from rulebook.dsl.parser import VALUE_WORDS
from rulebook.validator.check_expr import CheckError, Cx, as_list, cond, expect, listy
from rulebook.validator.check_moves import (
    check_create_stmt,
    check_deal_stmt,
    check_draw_stmt,
    check_hide_stmt,
    check_move_stmt,
    check_remove_stmt,
    check_reveal_stmt,
    check_shuffle_stmt,
    check_swap_stmt,
)
from rulebook.validator.check_proc_calls import check_call_stmt
from rulebook.validator.check_texts import template_parts
from rulebook.validator.diagnostics import did_you_mean
from rulebook.validator.ir import S, Template
from rulebook.validator.types import (
    ANY,
    ERR,
    INT,
    LIST,
    NONE,
    PLAYER,
    compatible,
    parse_type,
    type_tag,
)
from rulebook.validator.uses import ScopeAt

NUMERIC = ("int", "any", "error", "player")
OUT_UNTIL = ("phase", "cleared")  # eliminate ... until: the points a player's time out lasts to


def block(ck, stmts, cx: Cx) -> list:
    """The IR of a block of statements (``ck`` is the ``checker.RulesetChecker``)."""
    out = []
    saved = cx.hoist
    try:
        for s in stmts:
            statement(ck, s, cx, out)
    finally:
        cx.hoist = saved
    return [s for s in out if s is not None]


def statement(ck, s, cx: Cx, out: list) -> None:
    index = getattr(ck, "index", None)
    if index is not None:  # what is in scope here, for completion (validator.uses)
        line, col = cx.at(s.pos)
        index.scopes.append(ScopeAt(cx.path, line, col, tuple((n, str(t)) for n, (_, t) in cx.scope.names.items())))
    for name in (getattr(s, "name", None), getattr(s, "var", None)):
        if isinstance(name, str) and name.startswith("_"):
            ck.report("E014", f"'{name}': names starting with '_' are reserved", cx.path, cx.at(s.pos))
        if isinstance(name, str) and name in VALUE_WORDS:
            ck.report("E043", f"'{name}' is a word of the language: rule text would never read it as "
                      "a name", cx.path, cx.at(s.pos), "choose another name")
    hoisted = cx.hoist = []  # the procedure calls in this statement's values: they run just before it
    try:
        checked = STATEMENT_CHECKS[type(s)](ck, s, cx)
        out.extend(hoisted)
        out.append(checked)
    except CheckError:
        for attr in ("name", "var"):
            name = getattr(s, attr, None)
            if isinstance(name, str) and cx.scope.lookup(name) is None:
                cx.scope.declare(name, ERR)
        if isinstance(s, A.SimultaneousStmt) and s.body and isinstance(s.body[0], A.ChooseStmt):
            cx.scope.declare(s.body[0].name, ERR)


# ------------------------------------------------------------ simple
def check_pass_stmt(ck, s, cx):
    return None


def check_let_stmt(ck, s, cx):
    x, t = let_value(ck, s, cx)
    slot = cx.scope.declare(s.name, t)
    cx.note("local", s.name, s.pos, cx.local_target(s.name), t, binds=True)
    return S("set", cx.where(s.pos), ("local", slot), "=", x, t.kind in NUMERIC)


def let_value(ck, s, cx):
    """The value of ``let name[: type] = value`` (a statement or, in an
    expression text, ``A.LetExpr``) and the type its name gets: the declared
    one when it fits, else the value's."""
    x, t = ck.expr(s.value, cx)
    if s.type is not None:  # let name: type = value
        declared = parse_type(s.type, ck.comp_types)
        if declared is None:
            known = ["int", "bool", "str", "player", "zone", "component", "any", *ck.comp_types]
            cx.error("E039", f"unknown type '{s.type}'", s.pos,
                     did_you_mean(s.type.split()[-1], known) or f"types: {', '.join(known)}, list of <type>")
        fits = (
            declared.kind in ("list", "any") if t == LIST(NONE)  # [] fits a list
            else declared.kind in ("comp", "player", "zone", "any") if t.kind == "none"  # none: no component
            else compatible(declared, t)
        )
        if not fits:
            cx.error("E041", f"'{s.name}' is declared {declared}, and this is {t}", s.value.pos)
        if declared.kind == "list" and t.kind == "zone":
            x = as_list(x, t)  # a zone's components, as a list
        t = declared
    elif t == LIST(NONE):
        t = LIST(ANY)  # an empty list to be filled: its items may be of any type
    return x, t


def check_set_stmt(ck, s, cx):
    value, vt = ck.expr(s.value, cx)
    op = s.op
    target, tt = assign_target(ck, s.target, cx)
    if op != "=" and tt.kind not in ("int", "any", "error"):
        cx.error("E041", f"'{op}' needs a number, and this is {tt}", s.pos)
    if op != "=" and vt.kind not in NUMERIC:  # 'set x += v' is checked as 'set x = x + v' is
        cx.error("E041", f"'{op}' needs a number, and this is {vt}", s.value.pos)
    if op == "=" and not compatible(tt, vt) and vt.kind != "none":
        cx.error("E041", f"cannot set {tt} to {vt}", s.value.pos)
    if op == "=" and vt.kind == "none" and tt.kind in ("int", "bool", "list"):  # as 'let x: int = none' is refused
        cx.error("E041", f"cannot set {tt} to none", s.value.pos,
                 "use a value of its type that stands for 'nothing' (0, -1, false, [])")
    return S("set", cx.where(s.pos), target, op, value, op != "=" or vt.kind in NUMERIC)


def assign_target(ck, t: A.Target, cx: Cx):
    """(target, type) for an assignable place: ("local", slot), ("var", name),
    ("direction",), ("pvar", player, name), ("owner", comp), ("prop", comp, name)."""
    name = t.name
    if t.obj is None:
        local = cx.scope.lookup(name)
        if local is not None and name != "player":
            slot, lt = local
            cx.note("local", name, t.pos, cx.local_target(name), lt, find=True)
            return ("local", slot), lt
        if name in ck.var_types:
            cx.note("var", name, t.pos, type_=ck.var_types[name], find=True)
            if name == "direction":
                return ("direction",), ck.var_types[name]
            return ("var", name), ck.var_types[name]
        if name in ck.param_types:
            cx.error(
                "E042",
                f"'{name}' is a parameter and cannot change during a game",
                t.pos,
                "declare a variable under vars instead",
            )
        cx.error(
            "E030",
            f"unknown variable '{name}'",
            t.pos,
            did_you_mean(name, list(ck.var_types) + list(cx.scope.names)) or "declare it under vars",
            len(name),
        )
    obj, ot = ck.expr(t.obj, cx)
    if ot.kind == "player":
        if name not in ck.pvar_types:
            cx.error(
                "E032",
                f"players have no variable '{name}'",
                t.pos,
                did_you_mean(name, ck.pvar_types) or "declare it under player_vars",
                len(name),
            )
        cx.note("player_var", name, t.pos, type_=ck.pvar_types[name], find=True)
        return ("pvar", obj, name), ck.pvar_types[name]
    if ot.kind == "comp":
        types = [ck.comp_types[ot.arg]] if ot.arg else list(ck.comp_types.values())
        if name == "owner":
            return ("owner", obj), PLAYER
        for ct in types:
            if name in ct.dynamic:
                cx.note("property", name, t.pos, ("property", ot.arg or ct.name, name), ct.dynamic[name], find=True)
                return ("prop", obj, name), ct.dynamic[name]
        for ct in types:
            if name in ct.static:
                cx.error(
                    "E042",
                    f"'{name}' is a fixed property of '{ct.name}'",
                    t.pos,
                    "properties that change during a game are declared under the type's 'state'",
                )
        cx.error("E032", f"'{ot.arg or 'component'}' has no property '{name}'", t.pos)
    if ot.kind == "error":  # already reported where the value went wrong
        raise CheckError("")
    hint = None
    if ot.kind == "zone" or (ot.kind == "list" and ot.arg and ot.arg.kind == "comp"):
        hint = f"set it on each component: for c in ...: set c.{name} = ..."
    cx.error("E042", f"cannot assign to a property of {ot}", t.pos, hint)


def check_append_stmt(ck, s, cx):
    value, _ = ck.expr(s.value, cx)
    target, tt = assign_target(ck, s.target, cx)
    if tt.kind not in ("list", "any", "error"):
        cx.error("E041", f"append needs a list, and this is {tt}", s.target.pos)
    return S("append", cx.where(s.pos), target, value)


def check_discard_stmt(ck, s, cx):
    value, _ = ck.expr(s.value, cx)
    target, tt = assign_target(ck, s.target, cx)
    if tt.kind not in ("list", "any", "error"):
        cx.error("E041", f"discard needs a list, and this is {tt}", s.target.pos)
    return S("discard", cx.where(s.pos), target, value)


# ------------------------------------------------------------ decisions
def _templates(ck, c, cx):
    label = prompt = None
    if c.label is not None:
        label = Template(template_parts(ck, c.label, cx, c.label_pos[0], c.label_pos[1] + 1,
                                        "the label of choose"), slot_names=cx.scope.unit.names)
    if c.prompt is not None and "{" in c.prompt:
        prompt = Template(template_parts(ck, c.prompt, cx, c.prompt_pos[0], c.prompt_pos[1] + 1, "the prompt"),
                          slot_names=cx.scope.unit.names)
    within = expect(ck, c.within, cx, INT, "choose ... within") if c.within is not None else None
    return label, prompt, within


def check_choose_stmt(ck, s, cx):
    opts, et = listy(ck, s.options, cx, "choose ... from")
    chooser = expect(ck, s.chooser, cx, PLAYER, "choose ... by") if s.chooser else None
    slot = cx.scope.declare(s.name, et)
    cx.note("local", s.name, s.pos, cx.local_target(s.name), et, binds=True)
    label, prompt_tpl, within = _templates(ck, s, cx)
    ck.asks.add(cx.scope.unit.name)
    return S("choose", cx.where(s.pos), slot, opts, chooser, s.optional, s.prompt or f"choose {s.name}",
             prompt_tpl, label, within, type_tag(et), s.name, s.public)


def check_simultaneous_stmt(ck, s, cx):
    if not s.body or not isinstance(s.body[0], A.ChooseStmt):
        cx.error(
            "E044",
            "the body of 'simultaneous for' must start with a choose",
            s.pos,
            "simultaneous for p in players:\n    choose c from hand[p] by p",
        )
    items, it = listy(ck, s.iterable, cx, "simultaneous for ... in")
    var = cx.scope.declare(s.var, it)
    cx.note("local", s.var, s.pos, cx.local_target(s.var), it, binds=True)
    first: A.ChooseStmt = s.body[0]
    cx.hoist = "in the choice of a 'simultaneous for' (computed once for each of its values)"
    opts, et = listy(ck, first.options, cx, "choose ... from")
    chooser = expect(ck, first.chooser, cx, PLAYER, "choose ... by") if first.chooser else None
    choice = cx.scope.declare(first.name, et)
    cx.note("local", first.name, first.pos, cx.local_target(first.name), et, binds=True)
    list_slot, answers, idx = cx.scope.temp(), cx.scope.temp(), cx.scope.temp()
    label, prompt_tpl, within = _templates(ck, first, cx)
    ck.asks.add(cx.scope.unit.name)
    rest = block(ck, s.body[1:], cx)
    return S("simultaneous", cx.where(s.pos), var, items, opts, chooser, choice, first.optional,
             first.prompt or f"choose {first.name}", prompt_tpl, label, within, type_tag(et), first.name,
             first.public, list_slot, answers, idx, rest)


# ------------------------------------------------------------ flow
def check_if_stmt(ck, s, cx):
    branches = []
    first = cx.hoist
    for i, (cond_node, body) in enumerate(s.branches):
        if i > 0:  # an elif's condition is computed only when the ones above are false
            cx.hoist = "in the condition of an 'elif'"
        c = cond(ck, cond_node, cx)
        branches.append((c, block(ck, body, cx), cx.where(cond_node.pos)))
    cx.hoist = first
    return S("if", cx.where(s.pos), tuple(branches), block(ck, s.orelse, cx))


def check_for_stmt(ck, s, cx):
    items, it = listy(ck, s.iterable, cx, "for ... in")
    var = cx.scope.declare(s.var, it)
    cx.note("local", s.var, s.pos, cx.local_target(s.var), it, binds=True)
    list_slot, idx = cx.scope.temp(), cx.scope.temp()
    body = block(ck, s.body, cx)
    return S("for", cx.where(s.pos), var, items, body, list_slot, idx)


def check_repeat_stmt(ck, s, cx):
    count = expect(ck, s.count, cx, INT, "repeat")
    left = cx.scope.temp()
    return S("repeat", cx.where(s.pos), count, block(ck, s.body, cx), left)


def check_while_stmt(ck, s, cx):
    cx.hoist = "in the condition of a 'while' (computed again before each round)"
    c = cond(ck, s.cond, cx)
    return S("while", cx.where(s.pos), c, block(ck, s.body, cx))


def check_return_stmt(ck, s, cx):
    unit = cx.scope.unit.name
    proc = unit[len("procedure "):] if unit.startswith("procedure ") else None
    returns = ck.proc_returns.get(proc) if proc is not None else None
    if s.value is None:
        if returns is not None:
            cx.error("E041", f"procedure '{proc}' returns {returns}: 'return' needs a value", s.pos,
                     f"return <a value of type {returns}>")
        return S("return", cx.where(s.pos))
    if returns is None:
        where = f"procedure '{proc}'" if proc is not None else "this block"
        cx.error("E044", f"{where} gives no value: 'return' here takes none", s.value.pos,
                 "declare 'returns: <type>' in the procedure to give a value" if proc is not None
                 else "only a procedure with 'returns: <type>' gives a value")
    x, t = ck.expr(s.value, cx)
    fits = compatible(returns, t) or (t.kind == "none" and returns.kind in ("comp", "player", "zone", "any")) \
        or (t == LIST(NONE) and returns.kind in ("list", "any"))
    if not fits:
        cx.error("E041", f"procedure '{proc}' returns {returns}, and this is {t}", s.value.pos)
    if returns.kind == "list" and t.kind == "zone":
        x = as_list(x, t)
    return S("return", cx.where(s.pos), x)


def check_emit_stmt(ck, s, cx):
    fields = ck.events.get(s.event)
    if fields is None:
        cx.error(
            "E038",
            f"unknown event '{s.event}'",
            s.event_pos,
            did_you_mean(s.event, ck.events) or "declare it under events",
            len(s.event),
        )
    cx.note("event", s.event, s.event_pos)
    ck.emitted.add(s.event)
    args = []
    given = set()
    for kw in s.args:
        if kw.name not in fields:
            cx.error("E046", f"event '{s.event}' has no field '{kw.name}'", kw.pos, did_you_mean(kw.name, fields))
        args.append((kw.name, expect(ck, kw.value, cx, fields[kw.name], f"field '{kw.name}'")))
        given.add(kw.name)
    missing = set(fields) - given
    if missing:
        cx.error("E046", f"emit {s.event} needs {', '.join(sorted(missing))}", s.pos)
    ck.unit_fires.setdefault(cx.scope.unit.name, set()).add(s.event)
    return S("emit", cx.where(s.pos), s.event, tuple(args))


def check_end_game_stmt(ck, s, cx):
    winners = expect(ck, s.winners, cx, LIST(PLAYER), "end game winners") if s.winners else None
    ck.unit_ends.add(cx.scope.unit.name)
    return S("end_game", cx.where(s.pos), winners)


def check_end_turn_stmt(ck, s, cx):
    return S("end_turn", cx.where(s.pos))


def check_end_phase_stmt(ck, s, cx):
    return S("end_phase", cx.where(s.pos))


def check_pass_turn_stmt(ck, s, cx):
    return S("pass_turn", cx.where(s.pos), expect(ck, s.player, cx, PLAYER, "pass turn to"))


def check_eliminate_stmt(ck, s, cx):
    p = expect(ck, s.player, cx, PLAYER, "eliminate")
    if s.until is not None and s.until not in OUT_UNTIL:
        cx.error("E013", f"'eliminate ... until {s.until}': a player is out until {' or '.join(OUT_UNTIL)}",
                 s.until_pos, did_you_mean(s.until, OUT_UNTIL) or "until phase: back in when the phase ends "
                 "(a round is a phase that comes again); until cleared: back in with 'restore'", len(s.until))
    if s.until is not None:
        ck.outs.add(s.until)
        return S("eliminate", cx.where(s.pos), p, s.until)
    return S("eliminate", cx.where(s.pos), p)


def check_restore_stmt(ck, s, cx):
    return S("restore", cx.where(s.pos), expect(ck, s.player, cx, PLAYER, "restore"))


def check_say_stmt(ck, s, cx):
    pieces = template_parts(ck, s.template, cx, s.text_pos[0], s.text_pos[1] + 1, "the text of say", public=True)
    return S("say", cx.where(s.pos), Template(pieces, public=True, slot_names=cx.scope.unit.names))


def always_returns(body) -> bool:
    """Whether a block (syntax tree) always ends in 'return <value>' or
    'end game': its last statement does, or is an 'if' with an 'else' whose
    every branch does."""
    if not body:
        return False
    last = body[-1]
    if isinstance(last, A.ReturnStmt):  # one without a value has its own error
        return True
    if isinstance(last, A.EndGameStmt):
        return True
    if isinstance(last, A.IfStmt):
        return bool(last.orelse) and always_returns(last.orelse) and all(always_returns(b) for _, b in last.branches)
    return False


# each statement's check, by the kind of its node: f(ck, statement, cx) -> S or None
STATEMENT_CHECKS = {
    A.AppendStmt: check_append_stmt,
    A.CallStmt: check_call_stmt,
    A.ChooseStmt: check_choose_stmt,
    A.CreateStmt: check_create_stmt,
    A.DealStmt: check_deal_stmt,
    A.DiscardStmt: check_discard_stmt,
    A.DrawStmt: check_draw_stmt,
    A.EliminateStmt: check_eliminate_stmt,
    A.EmitStmt: check_emit_stmt,
    A.EndGameStmt: check_end_game_stmt,
    A.EndPhaseStmt: check_end_phase_stmt,
    A.EndTurnStmt: check_end_turn_stmt,
    A.ForStmt: check_for_stmt,
    A.HideStmt: check_hide_stmt,
    A.IfStmt: check_if_stmt,
    A.LetStmt: check_let_stmt,
    A.MoveStmt: check_move_stmt,
    A.PassStmt: check_pass_stmt,
    A.PassTurnStmt: check_pass_turn_stmt,
    A.RemoveStmt: check_remove_stmt,
    A.RepeatStmt: check_repeat_stmt,
    A.RestoreStmt: check_restore_stmt,
    A.ReturnStmt: check_return_stmt,
    A.RevealStmt: check_reveal_stmt,
    A.SayStmt: check_say_stmt,
    A.SetStmt: check_set_stmt,
    A.ShuffleStmt: check_shuffle_stmt,
    A.SimultaneousStmt: check_simultaneous_stmt,
    A.SwapStmt: check_swap_stmt,
    A.WhileStmt: check_while_stmt,
}

__all__ = ["always_returns"]
