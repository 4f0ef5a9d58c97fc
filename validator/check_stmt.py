"""Check statements: ``block(stmts, cx) -> [S]``.

Each statement is checked and written as IR (``validator.ir.S``) with its
place in the file, which the compiled code keeps for runtime errors. A
statement that fails to check is left out (its error is reported) and the
names it would have bound are declared with the error type, so later
statements do not report the same mistake again.
"""

from __future__ import annotations

from rulebook.dsl import ast as A
from rulebook.dsl.parser import VALUE_WORDS
from rulebook.validator.check_expr import CheckError, Cx, as_list
from rulebook.validator.diagnostics import did_you_mean
from rulebook.validator.ir import S, Template, X
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

NUMERIC = ("int", "any", "error", "player")
OUT_UNTIL = ("phase", "cleared")  # eliminate ... until: the points a player's time out lasts to


class StmtChecker:
    """Mixed into the ruleset checker."""

    def block(self, stmts, cx: Cx) -> list:
        out = []
        saved = cx.hoist
        try:
            for s in stmts:
                self._stmt(s, cx, out)
        finally:
            cx.hoist = saved
        return [s for s in out if s is not None]

    def _stmt(self, s, cx: Cx, out: list) -> None:
        for name in (getattr(s, "name", None), getattr(s, "var", None)):
            if isinstance(name, str) and name.startswith("_"):
                self.report("E014", f"'{name}': names starting with '_' are reserved", cx.path, cx.at(s.pos))
            if isinstance(name, str) and name in VALUE_WORDS:
                self.report("E043", f"'{name}' is a word of the language: rule text would never read it as "
                            "a name", cx.path, cx.at(s.pos), "choose another name")
        hoisted = cx.hoist = []  # the procedure calls in this statement's values: they run just before it
        try:
            checked = getattr(self, "_s_" + type(s).__name__)(s, cx)
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
    def _s_PassStmt(self, s, cx):
        return None

    def _s_LetStmt(self, s, cx):
        x, t = self.expr(s.value, cx)
        if s.type is not None:  # let name: type = value
            declared = parse_type(s.type, self.comp_types)
            if declared is None:
                known = ["int", "bool", "str", "player", "zone", "component", "any", *self.comp_types]
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
        slot = cx.scope.declare(s.name, t)
        return S("set", cx.where(s.pos), ("local", slot), "=", x, t.kind in NUMERIC)

    def _s_SetStmt(self, s, cx):
        value, vt = self.expr(s.value, cx)
        op = s.op
        target, tt = self.target(s.target, cx)
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

    def target(self, t: A.Target, cx: Cx):
        """(target, type) for an assignable place: ("local", slot), ("var", name),
        ("direction",), ("pvar", player, name), ("owner", comp), ("prop", comp, name)."""
        name = t.name
        if t.obj is None:
            local = cx.scope.lookup(name)
            if local is not None and name != "player":
                slot, lt = local
                return ("local", slot), lt
            if name in self.var_types:
                if name == "direction":
                    return ("direction",), self.var_types[name]
                return ("var", name), self.var_types[name]
            if name in self.param_types:
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
                did_you_mean(name, list(self.var_types) + list(cx.scope.names)) or "declare it under vars",
                len(name),
            )
        obj, ot = self.expr(t.obj, cx)
        if ot.kind == "player":
            if name not in self.pvar_types:
                cx.error(
                    "E032",
                    f"players have no variable '{name}'",
                    t.pos,
                    did_you_mean(name, self.pvar_types) or "declare it under player_vars",
                    len(name),
                )
            return ("pvar", obj, name), self.pvar_types[name]
        if ot.kind == "comp":
            types = [self.comp_types[ot.arg]] if ot.arg else list(self.comp_types.values())
            if name == "owner":
                return ("owner", obj), PLAYER
            for ct in types:
                if name in ct.dynamic:
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

    def _s_AppendStmt(self, s, cx):
        value, _ = self.expr(s.value, cx)
        target, tt = self.target(s.target, cx)
        if tt.kind not in ("list", "any", "error"):
            cx.error("E041", f"append needs a list, and this is {tt}", s.target.pos)
        return S("append", cx.where(s.pos), target, value)

    def _s_DiscardStmt(self, s, cx):
        value, _ = self.expr(s.value, cx)
        target, tt = self.target(s.target, cx)
        if tt.kind not in ("list", "any", "error"):
            cx.error("E041", f"discard needs a list, and this is {tt}", s.target.pos)
        return S("discard", cx.where(s.pos), target, value)

    # ------------------------------------------------------------ decisions
    def _templates(self, c, cx):
        label = prompt = None
        if c.label is not None:
            label = Template(self.template_parts(c.label, cx, c.label_pos[0], c.label_pos[1] + 1,
                                                 "the label of choose"), slot_names=cx.scope.unit.names)
        if c.prompt is not None and "{" in c.prompt:
            prompt = Template(self.template_parts(c.prompt, cx, c.prompt_pos[0], c.prompt_pos[1] + 1, "the prompt"),
                              slot_names=cx.scope.unit.names)
        within = self.expect(c.within, cx, INT, "choose ... within") if c.within is not None else None
        return label, prompt, within

    def _s_ChooseStmt(self, s, cx):
        opts, et = self.listy(s.options, cx, "choose ... from")
        chooser = self.expect(s.chooser, cx, PLAYER, "choose ... by") if s.chooser else None
        slot = cx.scope.declare(s.name, et)
        label, prompt_tpl, within = self._templates(s, cx)
        self.asks.add(cx.scope.unit.name)
        return S("choose", cx.where(s.pos), slot, opts, chooser, s.optional, s.prompt or f"choose {s.name}",
                 prompt_tpl, label, within, type_tag(et), s.name, s.public)

    def _s_SimultaneousStmt(self, s, cx):
        if not s.body or not isinstance(s.body[0], A.ChooseStmt):
            cx.error(
                "E044",
                "the body of 'simultaneous for' must start with a choose",
                s.pos,
                "simultaneous for p in players:\n    choose c from hand[p] by p",
            )
        items, it = self.listy(s.iterable, cx, "simultaneous for ... in")
        var = cx.scope.declare(s.var, it)
        first: A.ChooseStmt = s.body[0]
        cx.hoist = "in the choice of a 'simultaneous for' (computed once for each of its values)"
        opts, et = self.listy(first.options, cx, "choose ... from")
        chooser = self.expect(first.chooser, cx, PLAYER, "choose ... by") if first.chooser else None
        choice = cx.scope.declare(first.name, et)
        list_slot, answers, idx = cx.scope.temp(), cx.scope.temp(), cx.scope.temp()
        label, prompt_tpl, within = self._templates(first, cx)
        self.asks.add(cx.scope.unit.name)
        rest = self.block(s.body[1:], cx)
        return S("simultaneous", cx.where(s.pos), var, items, opts, chooser, choice, first.optional,
                 first.prompt or f"choose {first.name}", prompt_tpl, label, within, type_tag(et), first.name,
                 first.public, list_slot, answers, idx, rest)

    # ------------------------------------------------------------ flow
    def _s_IfStmt(self, s, cx):
        branches = []
        first = cx.hoist
        for i, (cond_node, body) in enumerate(s.branches):
            if i > 0:  # an elif's condition is computed only when the ones above are false
                cx.hoist = "in the condition of an 'elif'"
            c = self.cond(cond_node, cx)
            branches.append((c, self.block(body, cx), cx.where(cond_node.pos)))
        cx.hoist = first
        return S("if", cx.where(s.pos), tuple(branches), self.block(s.orelse, cx))

    def _s_ForStmt(self, s, cx):
        items, it = self.listy(s.iterable, cx, "for ... in")
        var = cx.scope.declare(s.var, it)
        list_slot, idx = cx.scope.temp(), cx.scope.temp()
        body = self.block(s.body, cx)
        return S("for", cx.where(s.pos), var, items, body, list_slot, idx)

    def _s_RepeatStmt(self, s, cx):
        count = self.expect(s.count, cx, INT, "repeat")
        left = cx.scope.temp()
        return S("repeat", cx.where(s.pos), count, self.block(s.body, cx), left)

    def _s_WhileStmt(self, s, cx):
        cx.hoist = "in the condition of a 'while' (computed again before each round)"
        c = self.cond(s.cond, cx)
        return S("while", cx.where(s.pos), c, self.block(s.body, cx))

    def _s_ReturnStmt(self, s, cx):
        unit = cx.scope.unit.name
        proc = unit[len("procedure "):] if unit.startswith("procedure ") else None
        returns = self.proc_returns.get(proc) if proc is not None else None
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
        x, t = self.expr(s.value, cx)
        fits = compatible(returns, t) or (t.kind == "none" and returns.kind in ("comp", "player", "zone", "any")) \
            or (t == LIST(NONE) and returns.kind in ("list", "any"))
        if not fits:
            cx.error("E041", f"procedure '{proc}' returns {returns}, and this is {t}", s.value.pos)
        if returns.kind == "list" and t.kind == "zone":
            x = as_list(x, t)
        return S("return", cx.where(s.pos), x)

    def _s_CallStmt(self, s, cx):
        proc = self.procedures.get(s.func)
        if proc is None:
            if s.func in self.functions:
                cx.error("E044", f"'{s.func}' is a function: use its value, e.g. let x = {s.func}(...)", s.pos)
            cx.error(
                "E037",
                f"unknown procedure '{s.func}'",
                s.pos,
                did_you_mean(s.func, self.procedures)
                if s.func not in self.builtins
                else f"'{s.func}' is a function and gives a value; use it inside an expression",
                len(s.func),
            )
        self.used_procs.add(s.func)
        unit, params = proc
        self.unit_calls.setdefault(cx.scope.unit.name, set()).add(unit)
        if len(s.args) != len(params):
            cx.error(
                "E040",
                f"{s.func}() takes {len(params)} argument{'s' if len(params) != 1 else ''}, {len(s.args)} given",
                s.pos,
                length=len(s.func),
            )
        args = tuple(self.expect(a, cx, pt, f"argument '{pn}' of {s.func}()") for (pn, pt), a in zip(params, s.args))
        return S("call", cx.where(s.pos), unit, args)

    def call_value(self, n, cx: Cx):
        """A procedure with 'returns' called in an expression of a statement:
        the call runs just before the statement (``cx.hoist``), its value goes
        to a local the expression reads."""
        returns = self.proc_returns.get(n.func)
        if returns is None:
            cx.error("E044", f"'{n.func}' is a procedure without 'returns': call it as a statement, it gives no "
                     "value", n.pos, f"declare 'returns: <type>' in procedure '{n.func}' to give a value")
        if not isinstance(cx.hoist, list):
            where = cx.hoist if isinstance(cx.hoist, str) else "in a condition or a function (they change nothing)"
            cx.error("E044", f"procedure '{n.func}' cannot be called {where}", n.pos,
                     f"call it in a statement of its own first: let x = {n.func}(...)")
        if n.kwargs:
            cx.error("E046", f"{n.func}() takes no keyword arguments", n.kwargs[0].pos)
        call = self._s_CallStmt(A.CallStmt(n.func, n.args, (), n.pos), cx)
        slot = cx.scope.temp()
        cx.hoist.append(S("call", call.where, call.a[0], call.a[1], slot))
        return X("local", slot), returns

    def _s_EmitStmt(self, s, cx):
        fields = self.events.get(s.event)
        if fields is None:
            cx.error(
                "E038",
                f"unknown event '{s.event}'",
                s.event_pos,
                did_you_mean(s.event, self.events) or "declare it under events",
                len(s.event),
            )
        self.emitted.add(s.event)
        args = []
        given = set()
        for kw in s.args:
            if kw.name not in fields:
                cx.error("E046", f"event '{s.event}' has no field '{kw.name}'", kw.pos, did_you_mean(kw.name, fields))
            args.append((kw.name, self.expect(kw.value, cx, fields[kw.name], f"field '{kw.name}'")))
            given.add(kw.name)
        missing = set(fields) - given
        if missing:
            cx.error("E046", f"emit {s.event} needs {', '.join(sorted(missing))}", s.pos)
        self.unit_fires.setdefault(cx.scope.unit.name, set()).add(s.event)
        return S("emit", cx.where(s.pos), s.event, tuple(args))

    def _s_EndGameStmt(self, s, cx):
        winners = self.expect(s.winners, cx, LIST(PLAYER), "end game winners") if s.winners else None
        self.unit_ends.add(cx.scope.unit.name)
        return S("end_game", cx.where(s.pos), winners)

    def _s_EndTurnStmt(self, s, cx):
        return S("end_turn", cx.where(s.pos))

    def _s_EndPhaseStmt(self, s, cx):
        return S("end_phase", cx.where(s.pos))

    def _s_PassTurnStmt(self, s, cx):
        return S("pass_turn", cx.where(s.pos), self.expect(s.player, cx, PLAYER, "pass turn to"))

    def _s_EliminateStmt(self, s, cx):
        p = self.expect(s.player, cx, PLAYER, "eliminate")
        if s.until is not None and s.until not in OUT_UNTIL:
            cx.error("E013", f"'eliminate ... until {s.until}': a player is out until {' or '.join(OUT_UNTIL)}",
                     s.until_pos, did_you_mean(s.until, OUT_UNTIL) or "until phase: back in when the phase ends "
                     "(a round is a phase that comes again); until cleared: back in with 'restore'", len(s.until))
        if s.until is not None:
            self.outs.add(s.until)
            return S("eliminate", cx.where(s.pos), p, s.until)
        return S("eliminate", cx.where(s.pos), p)

    def _s_RestoreStmt(self, s, cx):
        return S("restore", cx.where(s.pos), self.expect(s.player, cx, PLAYER, "restore"))

    def _s_SayStmt(self, s, cx):
        pieces = self.template_parts(s.template, cx, s.text_pos[0], s.text_pos[1] + 1, "the text of say", public=True)
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


__all__ = ["StmtChecker", "always_returns"]
