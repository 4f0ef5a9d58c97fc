"""Write checked statements (``validator.ir.S``) as Python statements.

This is the part of a rule block that runs straight through: Python's own
``if``, ``for`` and ``while``, with real locals where the code cannot stop
at a decision. Statements that can stop (``choose``, a call of a procedure
that chooses, an event whose triggers choose) are written by
``compiler/emit_unit.py``, which cuts the block into resume points and
writes the rest of each piece with the functions here. Statements
that move components are in ``compiler/emit_moves.py``; each function is
given the ``compiler.code.Code`` it writes into (``code``), and ``STMT``
at the end is their table by IR operation.

Every line keeps the place of the rule statement it comes from, so a
runtime error names ``file:line:col``.
"""

from __future__ import annotations

from rulebook.compiler.bounds import safe_number
from rulebook.compiler.emit_expr import SCALAR_KINDS, ex, snapshot, text_piece
from rulebook.compiler.emit_moves import s_create, s_deal, s_draw, s_hide, s_move, s_remove, s_reveal, s_shuffle, s_swap
from rulebook.validator.ir import Template, X, walk

ARITH = ("arith", "neg", "sum", "sum_by")  # what can make a number grow


# in a framed unit, the statement that ends the game says so to the run loop
def stop_source(code) -> str:
    return "return STOP" if code.framed else "return"


def stmts(code, body) -> None:
    for s in body:
        with code.at(s.where):
            comment(code, s.where)
            STMT[s.op](code, *s.a)


def comment(code, where: str) -> None:
    """The rule line a statement comes from, as a comment above its code."""
    text = code.m.rule_line(where)
    if text:
        code.line(f"# {text}", "")


def indented(code, body) -> None:
    """An indented block (``pass`` when empty)."""
    with code.block():
        if body:
            stmts(code, body)
        else:
            code.line("pass")


def ended(code) -> None:
    """After a call that can end the game: stop here if it did."""
    code.line(f"if st.over: {stop_source(code)}")


# ------------------------------------------------------------ assignment
def target_source(code, target, obj_var: str | None = None):
    """(read source, write source) of an assignable place."""
    kind = target[0]
    if kind == "local":
        name = code.local(target[1])
        return name, name
    if kind == "var":
        return f"st.vars[{target[1]!r}]", f"st.vars[{target[1]!r}]"
    if kind == "direction":
        return "st.vars['direction']", "st.vars['direction']"
    obj = obj_var or ex(code, target[1])
    if kind == "pvar":
        src = f"st.pvars[{obj}][{target[2]!r}]"
    elif kind == "owner":
        src = f"st.owner[{obj}]"
    else:
        src = f"st.props[{obj}][{target[2]!r}]"
    return src, src


def bounded(code, value: X, src: str) -> str:
    if safe_number(code, value):  # known to stay within the limit (compiler/bounds.py)
        return src
    if any(n.op in ARITH and not (n.op == "arith" and n.a[0] == "*") for n in walk(value)):
        return f"number({src}, {code.const(code.where)}, {code.limit('max_number')})"
    return src


def store_number(code, put: str, src: str) -> None:
    """``put = src`` for a number the rules computed, checked against the size limit."""
    v = code.temp("n")
    big = code.limit("max_number")
    code.line(f"{v} = {src}")
    code.line(f"if {v}.__class__ is int and not -{big} <= {v} <= {big}: number({v}, "
              f"{code.const(code.where)}, {big})")
    code.line(f"{put} = {v}")


def s_set(code, target, op, value, numeric):
    indexed = target[0] == "prop" and target[2] in code.m.indexed_props
    if op == "=" and not indexed:
        v = ex(code, value)
        if target[0] == "direction":
            v = f"direction({v}, {code.const(code.where)})"
        elif numeric and bounded(code, value, v) != v:
            _, put = target_source(code, target)
            store_number(code, put, v)
            return
        _, put = target_source(code, target)
        code.line(f"{put} = {v}")
        return
    obj = None
    if target[0] in ("pvar", "owner", "prop"):
        obj = code.temp("o")
        code.line(f"{obj} = {ex(code, target[1])}")
    get, put = target_source(code, target, obj)
    if indexed:  # a property some index keeps: set through the index (interpreter/indexes.py)
        put = code.temp("v")
    w, big = code.const(code.where), code.limit("max_number")
    v = ex(code, value)
    if op == "=":
        new = bounded(code, value, v) if numeric else v
    else:
        new = f"mul({get}, {v}, {w}, {big})" if op == "*=" else f"number({get} {op[0]} {v}, {w}, {big})"
    if target[0] == "direction":
        new = f"direction({new}, {w})"
    elif op not in ("=", "*="):
        store_number(code, put, f"{get} {op[0]} {v}")
        new = None
    if new is not None:
        code.line(f"{put} = {new}")
    if indexed:
        code.line(f"set_indexed(st, {obj}, {target[2]!r}, {put})")


def read_modify(code, target):
    obj = None
    if target[0] in ("pvar", "owner", "prop"):
        obj = code.temp("o")
        code.line(f"{obj} = {ex(code, target[1])}")
    return target_source(code, target, obj)


def s_append(code, target, value):
    write_append(code, target, value)


def s_discard(code, target, value):
    get, put = read_modify(code, target)
    code.line(f"{put} = minus_one(st, {get}, {ex(code, value)})")


# ------------------------------------------------------------ flow
def s_if(code, branches, orelse):
    for i, (cond, body, where) in enumerate(branches):
        code.line(f"{'if' if i == 0 else 'elif'} {ex(code, cond)}:", where)
        indented(code, body)
    if orelse:
        code.line("else:")
        indented(code, orelse)


def loop_charge(code, body, n: str = "1") -> None:
    """Count loop rounds: the rules may not loop for ever without a decision."""
    first = body[0].where if body else code.where
    code.line(f"st.loops += {n}")
    code.line(f"if st.loops > {code.limit('max_steps')}: loop_round(st, {code.const(first)}, "
              f"{code.unit_name!r})")


def s_for(code, var, items, body, list_slot, idx):
    if body and narration_only(body):  # a loop that only narrates: nothing to do when nobody records
        code.line("if st.record:")
        with code.block():
            for_loop(code, var, items, body)
        return
    for_loop(code, var, items, body)


def for_loop(code, var, items, body):
    values = code.temp("items")
    code.line(f"{values} = {snapshot(code, items)}")  # a snapshot: the loop is not disturbed by moves
    loop_charge(code, body, f"len({values})")
    code.line(f"for {code.local(var)} in {values}:")
    indented(code, body)


def s_repeat(code, count, body, left):
    code.line(f"for _ in range({ex(code, count)}):")
    with code.block():
        loop_charge(code, body)
        stmts(code, body)


def s_while(code, cond, body):
    code.line(f"while {ex(code, cond)}:")
    with code.block():
        loop_charge(code, body)
        stmts(code, body)


def s_return(code, value=None):
    if value is None:
        code.line("return" if not code.framed else "st.stack.pop(); return None")
    elif not code.framed:
        code.line(f"return {ex(code, value)}")
    else:  # the value goes to the caller's local that its call named (none: a call as a statement)
        v, to = code.temp("v"), code.temp("to")
        code.line(f"{v} = {ex(code, value)}")
        code.line(f"{to} = L[{code.m.checked.units[code.unit_name].ret_slot}]")
        code.line("st.stack.pop()")
        code.line(f"if {to} is not None: st.stack[-1][2][{to}] = {v}")
        code.line("return None")


def s_call(code, unit, args, result=None):
    fname = code.m.plain_names[unit]
    argv = ", ".join(["st", code.local(0)] + [ex(code, a) for a in args])
    call = f"{fname}({argv})" if result is None else f"{code.local(result)} = {fname}({argv})"
    write_call(code, unit, call)
    if unit in code.m.an.can_end:
        ended(code)


def s_emit(code, event, fields):
    values = "{" + ", ".join(f"{k!r}: {ex(code, v)}" for k, v in fields) + "}"
    code.line(f"fire(st, {event!r}, {values})")
    if event in code.m.an.ending_events:
        ended(code)


def s_end_game(code, winners):
    if winners is None:
        code.line("finish(st, None)")
    else:
        named = code.temp("w")
        code.line(f"{named} = {ex(code, winners)}")
        code.line(f"for _p in {named}: seat_of(st, _p, 'end game winners', {code.const(code.where)}, True)")
        code.line(f"finish(st, {named})")
    code.line(stop_source(code))


def s_end_turn(code):
    code.line("st.end_turn = True")


def s_end_phase(code):
    code.line("st.end_phase = True")
    code.line("st.end_turn = True")


def s_pass_turn(code, p):
    code.line(f"st.pass_to = seat_of(st, {ex(code, p)}, 'pass turn to', {code.const(code.where)}, True)")
    code.line("st.end_turn = True")


def s_eliminate(code, p, until=None):
    who = f"seat_of(st, {ex(code, p)}, 'eliminate', {code.const(code.where)}, True)"
    code.line(f"eliminate(st, {who})" if until is None else f"eliminate(st, {who}, {until!r})")


def s_restore(code, p):
    w = code.const(code.where)
    code.line(f"restore(st, seat_of(st, {ex(code, p)}, 'restore', {w}, True), {w})")


def s_say(code, template: Template):
    code.line("if st.record:")
    with code.block():
        if not template.public:
            code.line(f"st.events.append(('say', {render(code, template)}))")
            return
        # Each piece said to everybody in its own try, not in a lambda for
        # public_piece: a function that holds a lambda keeps its locals in a
        # closure, and native code cannot call it directly (compiler/native.py).
        parts = []
        for piece in template.pieces:
            if isinstance(piece, str):
                parts.append(repr(piece))
                continue
            x, t = piece
            name = code.temp("s")
            code.line("try:")
            with code.block():
                code.line(f"{name} = {text_piece(code, x, t, True)}")
            code.line("except HiddenInText:")
            with code.block():
                code.line(f"{name} = HIDDEN")
            parts.append(name)
        code.line(f"st.events.append(('say', {' + '.join(parts) if parts else repr('')}))")


# ------------------------------------------------------------ texts
def render(code, template: Template) -> str:
    """Source of a text with its pieces filled in."""
    parts = []
    for piece in template.pieces:
        if isinstance(piece, str):
            parts.append(repr(piece))
        elif template.public:
            x, t = piece
            sized = "" if getattr(t, "kind", None) in SCALAR_KINDS else f", {code.const(code.where)}"
            parts.append(f"public_piece(st, lambda: {ex(code, x)}, {code.const(t)}{sized})")
        else:
            x, t = piece
            parts.append(text_piece(code, x, t, False))
    return " + ".join(parts) if parts else "''"


def narration_only(body) -> bool:
    """Whether a block only tells what happens (``say``, and loops of it)."""
    return all(s.op == "say" or s.op == "for" and narration_only(s.a[2]) for s in body)


def write_append(code, target, value) -> None:
    """``append``: in place where nothing else holds the list (``lib.appended``),
    so a loop of appends costs the items appended, not their square. Also
    for a property whose name an index keeps (``set_indexed``): an index
    keeps only properties holding plain values, so the list appended to is
    another type's property, which no index reads (and appending to a
    plain value fails the same way on either path)."""
    w, big = code.const(code.where), code.limit("max_value")
    kind = target[0]
    if kind == "local":
        name = code.local(target[1])
        v = code.ex(value)
        if name.startswith("L["):  # a frame's locals
            code.line(f"appended(st, L, {name[2:-1]}, {v}, {w}, {big})")
        else:
            code.line(f"{name} = appended_local(st, [{name}], {v}, {w}, {big})")
        return
    if kind in ("var", "pvar", "prop"):
        holder = "st.vars"
        if kind != "var":
            obj = code.temp("o")
            code.line(f"{obj} = {code.ex(target[1])}")
            holder = f"st.{kind}s[{obj}]"
        code.line(f"appended(st, {holder}, {target[-1]!r}, {code.ex(value)}, {w}, {big})")
        return
    get, put = read_modify(code, target)
    code.line(f"{put} = sized({get} + [{code.ex(value)}], {w}, {big})")


def charge_run(code, unit: str) -> None:
    """The lines before a call of the procedure ``unit`` when it runs other
    units (calls procedures, or fires events that have triggers): the call
    counts one against the work budget. Ten calls a level, nine levels
    deep, is work that neither the loop limit nor the depth limit sees;
    a procedure that runs no other is not charged, its cost being bounded
    by its body and charged with its callers' (interpreter/budget.py)."""
    if unit in code.m.an.fans_out:
        code.line("st.work += 1")
        code.line(f"if st.work > {code.limit('max_work')}: over_budget(st, 'runs')")


def write_call(code, unit: str, call: str) -> None:
    """A plain call of the procedure ``unit``: charged when it runs others,
    and nested one level deeper when it can reach itself (``R105``)."""
    charge_run(code, unit)
    if unit in code.m.an.recursive:
        code.line("st.depth += 1")
        code.line(f"if len(st.stack) + st.depth > {code.limit('max_stack')}: too_deep(st, {code.const(code.where)})")
        code.line(call)
        code.line("st.depth -= 1")
    else:
        code.line(call)


# each statement's writer, by the IR operation it writes
STMT = {
    "set": s_set,
    "append": s_append,
    "discard": s_discard,
    "move": s_move,
    "draw": s_draw,
    "deal": s_deal,
    "shuffle": s_shuffle,
    "reveal": s_reveal,
    "hide": s_hide,
    "remove": s_remove,
    "create": s_create,
    "swap": s_swap,
    "if": s_if,
    "for": s_for,
    "repeat": s_repeat,
    "while": s_while,
    "return": s_return,
    "call": s_call,
    "emit": s_emit,
    "end_game": s_end_game,
    "end_turn": s_end_turn,
    "end_phase": s_end_phase,
    "pass_turn": s_pass_turn,
    "eliminate": s_eliminate,
    "restore": s_restore,
    "say": s_say,
}
