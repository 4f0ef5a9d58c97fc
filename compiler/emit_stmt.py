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

from rulebook.compiler.emit_expr import SCALAR_KINDS, text_piece
from rulebook.validator.ir import S, Template, X, walk

ARITH = ("arith", "neg", "sum", "sum_by")  # what can make a number grow


class StmtEmitter:
    """Mixed into ``compiler.code.Code``."""

    # in a framed unit, the statement that ends the game says so to the run loop
    def stop(self) -> str:
        return "return STOP" if self.framed else "return"

    def stmts(self, body) -> None:
        for s in body:
            with self.at(s.where):
                self.comment(s.where)
                getattr(self, "s_" + s.op)(*s.a)

    def comment(self, where: str) -> None:
        """The rule line a statement comes from, as a comment above its code."""
        text = self.m.rule_line(where)
        if text:
            self.line(f"# {text}", "")

    def body(self, body) -> None:
        """An indented block (``pass`` when empty)."""
        with self.block():
            if body:
                self.stmts(body)
            else:
                self.line("pass")

    def ended(self) -> None:
        """After a call that can end the game: stop here if it did."""
        self.line(f"if st.over: {self.stop()}")

    # ------------------------------------------------------------ assignment
    def place(self, target, obj_var: str | None = None):
        """(read source, write source) of an assignable place."""
        kind = target[0]
        if kind == "local":
            name = self.local(target[1])
            return name, name
        if kind == "var":
            return f"st.vars[{target[1]!r}]", f"st.vars[{target[1]!r}]"
        if kind == "direction":
            return "st.vars['direction']", "st.vars['direction']"
        obj = obj_var or self.ex(target[1])
        if kind == "pvar":
            src = f"st.pvars[{obj}][{target[2]!r}]"
        elif kind == "owner":
            src = f"st.owner[{obj}]"
        else:
            src = f"st.props[{obj}][{target[2]!r}]"
        return src, src

    def bounded(self, value: X, src: str) -> str:
        if any(n.op in ARITH and not (n.op == "arith" and n.a[0] == "*") for n in walk(value)):
            return f"number({src}, {self.const(self.where)}, {self.limit('max_number')})"
        return src

    def store_number(self, put: str, src: str) -> None:
        """``put = src`` for a number the rules computed, checked against the size limit."""
        v = self.temp("n")
        big = self.limit("max_number")
        self.line(f"{v} = {src}")
        self.line(f"if {v}.__class__ is int and not -{big} <= {v} <= {big}: number({v}, "
                  f"{self.const(self.where)}, {big})")
        self.line(f"{put} = {v}")

    def s_set(self, target, op, value, numeric):
        indexed = target[0] == "prop" and target[2] in self.m.indexed_props
        if op == "=" and not indexed:
            v = self.ex(value)
            if target[0] == "direction":
                v = f"direction({v}, {self.const(self.where)})"
            elif numeric and self.bounded(value, v) != v:
                _, put = self.place(target)
                self.store_number(put, v)
                return
            _, put = self.place(target)
            self.line(f"{put} = {v}")
            return
        obj = None
        if target[0] in ("pvar", "owner", "prop"):
            obj = self.temp("o")
            self.line(f"{obj} = {self.ex(target[1])}")
        get, put = self.place(target, obj)
        if indexed:  # a property some index keeps: set through the index (interpreter/indexes.py)
            put = self.temp("v")
        w, big = self.const(self.where), self.limit("max_number")
        v = self.ex(value)
        if op == "=":
            new = self.bounded(value, v) if numeric else v
        else:
            new = f"mul({get}, {v}, {w}, {big})" if op == "*=" else f"number({get} {op[0]} {v}, {w}, {big})"
        if target[0] == "direction":
            new = f"direction({new}, {w})"
        elif op not in ("=", "*="):
            self.store_number(put, f"{get} {op[0]} {v}")
            new = None
        if new is not None:
            self.line(f"{put} = {new}")
        if indexed:
            self.line(f"set_indexed(st, {obj}, {target[2]!r}, {put})")

    def _read_modify(self, target):
        obj = None
        if target[0] in ("pvar", "owner", "prop"):
            obj = self.temp("o")
            self.line(f"{obj} = {self.ex(target[1])}")
        return self.place(target, obj)

    def s_append(self, target, value):
        write_append(self, target, value)

    def s_discard(self, target, value):
        get, put = self._read_modify(target)
        self.line(f"{put} = minus_one(st, {get}, {self.ex(value)})")

    # ------------------------------------------------------------ components
    def s_move(self, what, dest, position, face, family):
        z = self.temp("z")
        self.line(f"{z} = {self.ex(dest)}")
        mover = self.mover(family, position)
        if mover is not None:  # the destination's kind is known: a move written for it
            fam = self.m.meta["families"][family]
            up = (face or fam["face"]) == "up"
            if what.op == "as_list":  # one component: the move written out
                c = self.temp("c")
                self.line(f"{c} = {self.ex(what.a[0])}")
                self.line(f"if {c} is not None:")
                with self.block():
                    self.one_move(c, z, mover, fam, up)
            else:  # a list: each move written out (no call of a mover per component)
                c = self.temp("c")
                self.line(f"for {c} in {self.snapshot(what)}:")
                with self.block():
                    self.line(f"if {c} is None: continue")
                    self.one_move(c, z, mover, fam, up)
        elif what.op == "as_list":  # one component: no list to build
            c = self.temp("c")
            self.line(f"{c} = {self.ex(what.a[0])}")
            self.line(f"if {c} is not None: move(st, {c}, {z}, {position!r}, {face!r})")
        else:
            self.line(f"move_list(st, {self.ex(what)}, {z}, {position!r}, {face!r}, {self.m.an.moved_fires})")

    def one_move(self, c: str, z: str, mover: str, fam: dict, up: bool, top_of: tuple | None = None) -> None:
        """The move of component ``c`` (not none) to zone ``z``, written out
        for the destination's family (as ``ops.move`` makes it when no
        trigger listens to 'moved'). ``top_of``: (zone, its list, its family)
        when ``c`` is known to be that zone's top (a draw)."""
        src = self.temp("src")
        if top_of is not None and self.m.meta["families"][top_of[2]]["visibility"] != "top":
            self.line(f"{src} = {top_of[0]}")
            self.line(f"del {top_of[1]}[0]")  # not a face-up pile: nothing below turns up
        else:
            self.line(f"{src} = st.loc[{c}]")
            self.leave(c, src)
        self.line({"move_top": f"st.zones[{z}].insert(0, {c})", "move_bottom": f"st.zones[{z}].append({c})",
                   "move_sorted": f"insort(st.zones[{z}], {c})"}[mover])
        self.line(f"st.loc[{c}] = {z}")
        if fam["visibility"] != "top":
            self.line(f"st.face[{c}] = {up}")
        elif mover == "move_top":  # onto a face-up pile: the new top shows, the one below turns down
            self.line(f"st.face[{c}] = True")
            self.line(f"if len(st.zones[{z}]) > 1: st.face[st.zones[{z}][1]] = False")
        else:  # under a face-up pile: face up only when the pile was empty
            self.line(f"st.face[{c}] = st.zones[{z}][0] == {c}")
        self.line(f"if st.known or st.record or st.track: after_move(st, {c}, {src}, {z})")

    def leave(self, c: str, src: str) -> None:
        """``c`` taken out of zone ``src`` (-1: out of the game, in no zone)."""
        if self.m.an.top_piles:  # the source may be a face-up pile, whose new top turns up
            self.line(f"if {src} != -1: leave_pile(st, {c}, {src})")
        else:
            self.line(f"if {src} != -1: st.zones[{src}].remove({c})")

    def mover(self, family: str | None, position: str) -> str | None:
        """The move written for a destination of ``family`` (None: the general one)."""
        an = self.m.an
        if family is None or an.moved_fires or position not in ("top", "bottom"):
            return None
        if not self.m.meta["families"][family]["ordered"]:
            return "move_sorted"
        return "move_top" if position == "top" else "move_bottom"

    def s_draw(self, count, src, dest, face, src_family=None, family=None):
        k = self.ex(count) if count is not None else "1"
        where = self.const(self.where)  # where a draw that meets its zone empty names (interpreter/drawing.py)
        mover = self.mover(family, "top") if src_family is not None and src_family != family else None
        if mover is None:
            self.line(f"draw(st, {self.ex(src)}, {self.ex(dest)}, {k}, {face!r}, {self.m.an.moved_fires}, {where})")
            return
        # from one zone family to another whose kind is known: each move written out (as drawing.draw makes it)
        fam = self.m.meta["families"][family]
        z, d, pile, c = self.temp("z"), self.temp("d"), self.temp("pile"), self.temp("c")
        self.line(f"{z} = {self.ex(src)}")
        self.line(f"{d} = {self.ex(dest)}")
        one = count is None or count.op == "const" and count.a[0] == 1
        if one:
            self.line(f"{pile} = st.zones[{z}]")
        # a refill keeps the zone's list, so the pile read before it is the one refilled
        self.line(f"if {pile} or ran_out(st, {z}, {where}, None):" if one else f"for _ in range({k}):")
        with self.block():
            if not one:
                self.line(f"{pile} = st.zones[{z}]")
                self.line(f"if not {pile} and not ran_out(st, {z}, {where}, None): break")
            self.line(f"{c} = {pile}[0]")
            self.one_move(c, d, mover, fam, (face or fam["face"]) == "up", (z, pile, src_family))

    def s_deal(self, count, src, recips, slot, zone_of):
        z, targets = self.temp("z"), self.temp("targets")
        self.line(f"{z} = {self.ex(src)}")
        who = self.local(slot)
        self.line(f"{targets} = []")
        self.line(f"for {who} in {self.ex(recips)}:")
        with self.block():
            self.line(f"{targets}.append({self.ex(zone_of)})")
        self.line(f"deal(st, {z}, {targets}, ({self.ex(count)}) if {targets} else 0, {self.m.an.moved_fires}, "
                  f"{self.const(self.where)})")

    def s_shuffle(self, z):
        self.line(f"shuffle(st, {self.ex(z)})")

    def s_reveal(self, what, to):
        if to is None and what.op == "as_list" and not self.m.an.top_piles:  # one component, no face-up piles
            c = self.temp("c")
            self.line(f"{c} = {self.ex(what.a[0])}")
            self.line(f"if {c} is not None:")
            with self.block():
                self.line(f"if st.record and not st.face[{c}]: st.events.append(('reveal', {c}, None, "
                          f"comp_name(st, {c})))")
                self.line(f"st.face[{c}] = True")
            return
        if to is None:
            self.line(f"reveal(st, {self.ex(what)})")
            return
        who = self.temp("who")
        self.line(f"{who} = {self.ex(to)}")
        self.line(f"reveal_to(st, {who}, {self.ex(what)})")

    def s_hide(self, what):
        self.line(f"hide(st, {self.ex(what)})")

    def s_remove(self, what):
        if self.m.an.moved_fires:
            self.line(f"remove(st, {self.ex(what)}, True)")
            return
        # nothing listens to 'moved': each component out of the game written out (as ops.move makes it)
        c, src = self.temp("c"), self.temp("src")
        self.line(f"for {c} in {self.snapshot(what)}:")
        with self.block():
            self.line(f"if {c} is None: continue")
            self.line(f"{src} = st.loc[{c}]")
            self.leave(c, src)
            self.line(f"st.loc[{c}] = -1")
            self.line(f"if st.known or st.record or st.track: after_move(st, {c}, {src}, -1)")

    def s_create(self, type_name, zone, props, slot):
        static = "{" + ", ".join(f"{k!r}: {self.ex(v)}" for k, v in props) + "}"
        s = self.temp("s")
        self.line(f"{s} = {static}")
        c = f"create(st, {type_name!r}, {s}, {self.ex(zone)}, {self.const(self.where)})"
        self.line(f"{self.local(slot)} = {c}" if slot is not None else c)

    def s_swap(self, a, b):
        self.line(f"swap(st, {self.ex(a)}, {self.ex(b)})")

    # ------------------------------------------------------------ flow
    def s_if(self, branches, orelse):
        for i, (cond, body, where) in enumerate(branches):
            self.line(f"{'if' if i == 0 else 'elif'} {self.ex(cond)}:", where)
            self.body(body)
        if orelse:
            self.line("else:")
            self.body(orelse)

    def loop_charge(self, body, n: str = "1") -> None:
        """Count loop rounds: the rules may not loop for ever without a decision."""
        first = body[0].where if body else self.where
        self.line(f"st.loops += {n}")
        self.line(f"if st.loops > {self.limit('max_steps')}: loop_round(st, {self.const(first)}, "
                  f"{self.unit_name!r})")

    def s_for(self, var, items, body, list_slot, idx):
        if body and narration_only(body):  # a loop that only narrates: nothing to do when nobody records
            self.line("if st.record:")
            with self.block():
                self._for(var, items, body)
            return
        self._for(var, items, body)

    def _for(self, var, items, body):
        values = self.temp("items")
        self.line(f"{values} = {self.snapshot(items)}")  # a snapshot: the loop is not disturbed by moves
        self.loop_charge(body, f"len({values})")
        self.line(f"for {self.local(var)} in {values}:")
        self.body(body)

    def s_repeat(self, count, body, left):
        self.line(f"for _ in range({self.ex(count)}):")
        with self.block():
            self.loop_charge(body)
            self.stmts(body)

    def s_while(self, cond, body):
        self.line(f"while {self.ex(cond)}:")
        with self.block():
            self.loop_charge(body)
            self.stmts(body)

    def s_return(self, value=None):
        if value is None:
            self.line("return" if not self.framed else "st.stack.pop(); return None")
        elif not self.framed:
            self.line(f"return {self.ex(value)}")
        else:  # the value goes to the caller's local that its call named (none: a call as a statement)
            v, to = self.temp("v"), self.temp("to")
            self.line(f"{v} = {self.ex(value)}")
            self.line(f"{to} = L[{self.m.checked.units[self.unit_name].ret_slot}]")
            self.line("st.stack.pop()")
            self.line(f"if {to} is not None: st.stack[-1][2][{to}] = {v}")
            self.line("return None")

    def s_call(self, unit, args, result=None):
        fname = self.m.plain_names[unit]
        argv = ", ".join(["st", self.local(0)] + [self.ex(a) for a in args])
        call = f"{fname}({argv})" if result is None else f"{self.local(result)} = {fname}({argv})"
        write_call(self, unit, call)
        if unit in self.m.an.can_end:
            self.ended()

    def s_emit(self, event, fields):
        values = "{" + ", ".join(f"{k!r}: {self.ex(v)}" for k, v in fields) + "}"
        self.line(f"fire(st, {event!r}, {values})")
        if event in self.m.an.ending_events:
            self.ended()

    def s_end_game(self, winners):
        if winners is None:
            self.line("finish(st, None)")
        else:
            named = self.temp("w")
            self.line(f"{named} = {self.ex(winners)}")
            self.line(f"for _p in {named}: seat_of(st, _p, 'end game winners', {self.const(self.where)}, True)")
            self.line(f"finish(st, {named})")
        self.line(self.stop())

    def s_end_turn(self):
        self.line("st.end_turn = True")

    def s_end_phase(self):
        self.line("st.end_phase = True")
        self.line("st.end_turn = True")

    def s_pass_turn(self, p):
        self.line(f"st.pass_to = seat_of(st, {self.ex(p)}, 'pass turn to', {self.const(self.where)}, True)")
        self.line("st.end_turn = True")

    def s_eliminate(self, p, until=None):
        who = f"seat_of(st, {self.ex(p)}, 'eliminate', {self.const(self.where)}, True)"
        self.line(f"eliminate(st, {who})" if until is None else f"eliminate(st, {who}, {until!r})")

    def s_restore(self, p):
        w = self.const(self.where)
        self.line(f"restore(st, seat_of(st, {self.ex(p)}, 'restore', {w}, True), {w})")

    def s_say(self, template: Template):
        self.line("if st.record:")
        with self.block():
            if not template.public:
                self.line(f"st.events.append(('say', {self.render(template)}))")
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
                name = self.temp("s")
                self.line("try:")
                with self.block():
                    self.line(f"{name} = {text_piece(self, x, t, True)}")
                self.line("except HiddenInText:")
                with self.block():
                    self.line(f"{name} = HIDDEN")
                parts.append(name)
            self.line(f"st.events.append(('say', {' + '.join(parts) if parts else repr('')}))")

    # ------------------------------------------------------------ texts
    def render(self, template: Template) -> str:
        """Source of a text with its pieces filled in."""
        parts = []
        for piece in template.pieces:
            if isinstance(piece, str):
                parts.append(repr(piece))
            elif template.public:
                x, t = piece
                sized = "" if getattr(t, "kind", None) in SCALAR_KINDS else f", {self.const(self.where)}"
                parts.append(f"public_piece(st, lambda: {self.ex(x)}, {self.const(t)}{sized})")
            else:
                x, t = piece
                parts.append(text_piece(self, x, t, False))
        return " + ".join(parts) if parts else "''"


__all__ = ["StmtEmitter", "S"]


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
