"""Write checked statements (``validator.ir.S``) as Python statements.

This is the part of a rule block that runs straight through: Python's own
``if``, ``for`` and ``while``, with real locals where the code cannot stop
at a decision. Statements that can stop (``choose``, a call of a procedure
that chooses, an event whose triggers choose) are written by
``compiler/emit_unit.py``, which cuts the block into resume points and
writes the rest of each piece with the methods here.

Every line keeps the place of the rule statement it comes from, so a
runtime error names ``file:line:col``.
"""

from __future__ import annotations

from rulebook.compiler.emit_expr import SCALAR_KINDS, ex, snapshot, text_piece
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


# ------------------------------------------------------------ components
def s_move(code, what, dest, position, face, family):
    z = code.temp("z")
    code.line(f"{z} = {ex(code, dest)}")
    mover = mover_of(code, family, position)
    if mover is not None:  # the destination's kind is known: a move written for it
        fam = code.m.meta["families"][family]
        up = (face or fam["face"]) == "up"
        if what.op == "as_list":  # one component: the move written out
            c = code.temp("c")
            code.line(f"{c} = {ex(code, what.a[0])}")
            code.line(f"if {c} is not None:")
            with code.block():
                one_move(code, c, z, mover, fam, up)
        else:  # a list: each move written out (no call of a mover per component)
            c = code.temp("c")
            code.line(f"for {c} in {snapshot(code, what)}:")
            with code.block():
                code.line(f"if {c} is None: continue")
                one_move(code, c, z, mover, fam, up)
    elif what.op == "as_list":  # one component: no list to build
        c = code.temp("c")
        code.line(f"{c} = {ex(code, what.a[0])}")
        code.line(f"if {c} is not None: move(st, {c}, {z}, {position!r}, {face!r})")
    else:
        code.line(f"move_list(st, {ex(code, what)}, {z}, {position!r}, {face!r}, {code.m.an.moved_fires})")


def one_move(code, c: str, z: str, mover: str, fam: dict, up: bool, top_of: tuple | None = None) -> None:
    """The move of component ``c`` (not none) to zone ``z``, written out
    for the destination's family (as ``ops.move`` makes it when no
    trigger listens to 'moved'). ``top_of``: (zone, its list, its family)
    when ``c`` is known to be that zone's top (a draw)."""
    src = code.temp("src")
    if top_of is not None and code.m.meta["families"][top_of[2]]["visibility"] != "top":
        code.line(f"{src} = {top_of[0]}")
        code.line(f"del {top_of[1]}[0]")  # not a face-up pile: nothing below turns up
    else:
        code.line(f"{src} = st.loc[{c}]")
        leave(code, c, src)
    code.line({"move_top": f"st.zones[{z}].insert(0, {c})", "move_bottom": f"st.zones[{z}].append({c})",
               "move_sorted": f"insort(st.zones[{z}], {c})"}[mover])
    code.line(f"st.loc[{c}] = {z}")
    if fam["visibility"] != "top":
        code.line(f"st.face[{c}] = {up}")
    elif mover == "move_top":  # onto a face-up pile: the new top shows, the one below turns down
        code.line(f"st.face[{c}] = True")
        code.line(f"if len(st.zones[{z}]) > 1: st.face[st.zones[{z}][1]] = False")
    else:  # under a face-up pile: face up only when the pile was empty
        code.line(f"st.face[{c}] = st.zones[{z}][0] == {c}")
    code.line(f"if st.known or st.record or st.track: after_move(st, {c}, {src}, {z})")


def leave(code, c: str, src: str) -> None:
    """``c`` taken out of zone ``src`` (-1: out of the game, in no zone)."""
    if code.m.an.top_piles:  # the source may be a face-up pile, whose new top turns up
        code.line(f"if {src} != -1: leave_pile(st, {c}, {src})")
    else:
        code.line(f"if {src} != -1: st.zones[{src}].remove({c})")


def mover_of(code, family: str | None, position: str) -> str | None:
    """The move written for a destination of ``family`` (None: the general one)."""
    an = code.m.an
    if family is None or an.moved_fires or position not in ("top", "bottom"):
        return None
    if not code.m.meta["families"][family]["ordered"]:
        return "move_sorted"
    return "move_top" if position == "top" else "move_bottom"


def s_draw(code, count, src, dest, face, src_family=None, family=None):
    k = ex(code, count) if count is not None else "1"
    where = code.const(code.where)  # where a draw that meets its zone empty names (interpreter/drawing.py)
    mover = mover_of(code, family, "top") if src_family is not None and src_family != family else None
    if mover is None:
        code.line(f"draw(st, {ex(code, src)}, {ex(code, dest)}, {k}, {face!r}, {code.m.an.moved_fires}, {where})")
        return
    # from one zone family to another whose kind is known: each move written out (as drawing.draw makes it)
    fam = code.m.meta["families"][family]
    z, d, pile, c = code.temp("z"), code.temp("d"), code.temp("pile"), code.temp("c")
    code.line(f"{z} = {ex(code, src)}")
    code.line(f"{d} = {ex(code, dest)}")
    one = count is None or count.op == "const" and count.a[0] == 1
    if one:
        code.line(f"{pile} = st.zones[{z}]")
    # a refill keeps the zone's list, so the pile read before it is the one refilled
    code.line(f"if {pile} or ran_out(st, {z}, {where}, None):" if one else f"for _ in range({k}):")
    with code.block():
        if not one:
            code.line(f"{pile} = st.zones[{z}]")
            code.line(f"if not {pile} and not ran_out(st, {z}, {where}, None): break")
        code.line(f"{c} = {pile}[0]")
        one_move(code, c, d, mover, fam, (face or fam["face"]) == "up", (z, pile, src_family))


def s_deal(code, count, src, recips, slot, zone_of):
    z, targets = code.temp("z"), code.temp("targets")
    code.line(f"{z} = {ex(code, src)}")
    who = code.local(slot)
    code.line(f"{targets} = []")
    code.line(f"for {who} in {ex(code, recips)}:")
    with code.block():
        code.line(f"{targets}.append({ex(code, zone_of)})")
    code.line(f"deal(st, {z}, {targets}, ({ex(code, count)}) if {targets} else 0, {code.m.an.moved_fires}, "
              f"{code.const(code.where)})")


def s_shuffle(code, z):
    code.line(f"shuffle(st, {ex(code, z)})")


def s_reveal(code, what, to):
    if to is None and what.op == "as_list" and not code.m.an.top_piles:  # one component, no face-up piles
        c = code.temp("c")
        code.line(f"{c} = {ex(code, what.a[0])}")
        code.line(f"if {c} is not None:")
        with code.block():
            code.line(f"if st.record and not st.face[{c}]: st.events.append(('reveal', {c}, None, "
                      f"comp_name(st, {c})))")
            code.line(f"st.face[{c}] = True")
        return
    if to is None:
        code.line(f"reveal(st, {ex(code, what)})")
        return
    who = code.temp("who")
    code.line(f"{who} = {ex(code, to)}")
    code.line(f"reveal_to(st, {who}, {ex(code, what)})")


def s_hide(code, what):
    code.line(f"hide(st, {ex(code, what)})")


def s_remove(code, what):
    if code.m.an.moved_fires:
        code.line(f"remove(st, {ex(code, what)}, True)")
        return
    # nothing listens to 'moved': each component out of the game written out (as ops.move makes it)
    c, src = code.temp("c"), code.temp("src")
    code.line(f"for {c} in {snapshot(code, what)}:")
    with code.block():
        code.line(f"if {c} is None: continue")
        code.line(f"{src} = st.loc[{c}]")
        leave(code, c, src)
        code.line(f"st.loc[{c}] = -1")
        code.line(f"if st.known or st.record or st.track: after_move(st, {c}, {src}, -1)")


def s_create(code, type_name, zone, props, slot):
    static = "{" + ", ".join(f"{k!r}: {ex(code, v)}" for k, v in props) + "}"
    s = code.temp("s")
    code.line(f"{s} = {static}")
    c = f"create(st, {type_name!r}, {s}, {ex(code, zone)}, {code.const(code.where)})"
    code.line(f"{code.local(slot)} = {c}" if slot is not None else c)


def s_swap(code, a, b):
    code.line(f"swap(st, {ex(code, a)}, {ex(code, b)})")


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
    so a loop of appends costs the items appended, not their square."""
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
    if kind == "var" or kind in ("pvar", "prop") and not (kind == "prop" and target[2] in code.m.indexed_props):
        holder = "st.vars"
        if kind != "var":
            obj = code.temp("o")
            code.line(f"{obj} = {code.ex(target[1])}")
            holder = f"st.{kind}s[{obj}]"
        code.line(f"appended(st, {holder}, {target[-1]!r}, {code.ex(value)}, {w}, {big})")
        return
    get, put = code._read_modify(target)
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
