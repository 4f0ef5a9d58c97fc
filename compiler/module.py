"""Compile a checked ruleset (``validator.ir.Checked``) into the source of
one Python module.

The module holds, in this order: the constants its code uses; one function
per ruleset function, per unit (hook, action, trigger, procedure, setup),
per expression evaluated on its own (a condition, a turn's first player),
per text template, per component type (how its components are made) and
the flow of phases; then the tables the engine reads (``UNITS``,
``ACTIONS``, ``TRIGGERS``, ``META``...). ``compiler/load.py`` turns a
module into a ``Program``.
"""

from __future__ import annotations

from rulebook.compiler.analysis import analyse, start_draws
from rulebook.compiler.code import Code, Module, checked_name
from rulebook.compiler.emit_actions import write_actions
from rulebook.compiler.emit_expr import charge_call, looped
from rulebook.compiler.emit_flow import write_flow
from rulebook.compiler.emit_parts import (
    drop_unread_player,
    write_component,
    write_end,
    write_start_tables,
    write_tables,
    write_values,
)
from rulebook.compiler.emit_return import write_lines
from rulebook.compiler.emit_unit import UnitWriter
from rulebook.compiler.load import SOURCE_LINE
from rulebook.compiler.per_state import write_front as write_memo_front
from rulebook.compiler.tabling import write_front
from rulebook.validator.ir import Checked, Expr, Template


class ModuleWriter(Module):
    def __init__(self, checked: Checked):
        super().__init__(checked, analyse(checked))
        self.expr_names: dict[int, str] = {}
        self.menus: dict = {}
        self.whys: dict = {}
        self.frame_fns: dict[str, str] = {}  # unit name -> the function that runs its frame
        self.asks: dict = {}  # (unit id, answer pc) -> the place of the rule that asks

    # ------------------------------------------------------------ names
    def slot_names(self, unit_name: str) -> dict:
        return self.checked.slot_names.get(unit_name, {})

    def expr_function(self, expr: Expr, name: str = "expr") -> str:
        """The function ``f(st, player)`` computing an expression on its own."""
        hit = self.expr_names.get(id(expr))
        if hit is not None:
            return hit
        fname = self.expr_names[id(expr)] = self.name(name)
        code = self.add(Code(self, fname, name, expr.slot_names))
        code.line(f"def {fname}(st, player):", code.where)
        with code.block():
            code.line(f"return {code.ex(expr.x)}")
        return fname

    # ------------------------------------------------------------ the whole module
    def write(self) -> tuple[str, list]:
        ch = self.checked
        self.unit_ids["flow"] = 0
        for name in ch.units:
            self.unit_ids[name] = len(self.unit_ids)
            if name not in self.an.susp:
                self.plain_names[name] = self.name(_short(name))
        self.action_names = {act.index: self.name("act_" + act.name) for act in ch.actions}
        for key in ch.functions:
            self.function_names[key] = self.name("fn_" + key[0] + ("_public" if key[1] else "")
                                                 + (f"_{key[2]}" if key[2] else ""))
        for key, rule in ch.functions.items():
            self.write_function(key, rule)
        for name, unit in ch.units.items():
            self.write_unit(name, unit)
        self.write_flow()
        write_actions(self)
        self.write_triggers()
        for rules in ch.components.values():
            write_component(self, rules)
        write_values(self)
        write_end(self)
        self.write_nonempty()
        ch.meta["start_draws"] = start_draws(ch)
        write_tables(self)
        return self.source()

    def write_start(self) -> tuple[str, list]:
        """Only what makes a game's start (functions, definitions, components):
        the loader's dry run needs no more, and ``rulebook validate`` writes
        this for each variant instead of the whole module."""
        ch = self.checked
        for key in ch.functions:
            self.function_names[key] = self.name("fn_" + key[0] + ("_public" if key[1] else "")
                                                 + (f"_{key[2]}" if key[2] else ""))
        for key, rule in ch.functions.items():
            self.write_function(key, rule)
        for rules in ch.components.values():
            write_component(self, rules)
        write_values(self)
        self.write_nonempty()
        write_start_tables(self)
        return self.source()

    def write_function(self, key, rule) -> None:
        code = self.function_def(key, rule, self.tabled_front(key, rule, self.function_names[key]))
        with code.block():
            charge_call(code, rule.body)
            if looped(self, key):  # a search over a list: a loop that returns at the answer, no generator
                code.search_loop(rule.body.op, *rule.body.a)
            else:  # its lets as assignments, its guards as 'if ...: return ...' (compiler/emit_return.py)
                write_lines(code, rule.body)

    def tabled_front(self, key, rule, name: str) -> str:
        """The name the function's body is written under: ``name`` itself, or,
        for a function kept in a table (compiler/tabling.py) or while a
        decision is made (compiler/per_state.py), a name of its own behind
        the front ``name`` that looks its arguments up."""
        table = self.tabled().get(key)
        if table is None and key not in self.memoised():
            return name
        value_name = self.name(name + "_value")
        if table is not None:
            write_front(self, key, rule, name, value_name, table)
        else:
            write_memo_front(self, key, rule, name, value_name)
        return value_name

    def function_def(self, key, rule, name: str) -> Code:
        """A function of the module taking a ruleset function's parameters, its ``def`` line written."""
        code = self.add(Code(self, name, f"function {key[0]}", rule.slot_names))
        params = ["st", "player"] + ([code.local(rule.event_slot)] if rule.event_slot >= 0 else [])
        params += [code.local(s) for s in rule.params]
        code.line(f"def {code.name}({', '.join(params)}):")
        return code

    def write_nonempty(self) -> None:
        """The companions of functions whose lists were only tested for
        items (compiler/emptiness.py); one may ask for another."""
        while self.nonempty_todo:
            key = self.nonempty_todo.pop(0)
            rule = self.checked.functions[key]
            code = self.function_def(key, rule, self.tabled_front(key, rule, self.nonempty_names[key]))
            with code.block():
                charge_call(code, rule.body)
                code.line(f"return {code.nonempty(rule.body)}")

    def write_unit(self, name: str, unit) -> None:
        names = self.slot_names(name)
        if name in self.an.susp:
            code = self.add(Code(self, self.name("u_" + _short(name)), name, names, framed=True))
            writer = UnitWriter(code, self.an)
            writer.seq(unit.body)
            code.lines = writer.machine.finish([f"def {code.name}(st, fr):", f"    # L: {_slots(names, unit.nlocals)}"],
                                               unit.where)
            self.frame_fns[name] = code.name
            self.asks.update({(self.unit_ids[name], pc): w for pc, w in writer.machine.asks().items()})
            return
        fname = self.plain_names[name]
        code = self.add(Code(self, fname, name, names))
        args = [code.local(s) for s in unit.params]
        if unit.event_slot >= 0:
            args.append(code.local(unit.event_slot))
        code.line(f"def {fname}({', '.join(['st', 'player'] + args)}):", unit.where)
        with code.block():
            bound = {0, *unit.params, unit.event_slot}
            rest = [code.local(s) for s in range(unit.nlocals) if s not in bound and s in names]
            if rest:
                code.line(" = ".join(dict.fromkeys(rest)) + " = None", unit.where)
            if unit.body:
                code.stmts(unit.body)
            else:
                code.line("pass", unit.where)
        # its frame form, for the engine's own callers (a new game's setup, triggers run as frames)
        wrapper = self.add(Code(self, self.name("f_" + fname), name, names))
        wrapper.line(f"def {wrapper.name}(st, fr):", unit.where)
        with wrapper.block():
            wrapper.line("st.stack.pop()")
            slots = [0, *unit.params] + ([unit.event_slot] if unit.event_slot >= 0 else [])
            wrapper.line(f"{fname}(st, {', '.join(f'fr[2][{s}]' for s in slots)})")
            wrapper.line("return STOP if st.over else None")
        self.frame_fns[name] = wrapper.name

    def write_flow(self) -> None:
        code = self.add(Code(self, "flow", "flow", {0: "player", 1: "answer"}, framed=True))
        writer = UnitWriter(code, self.an)
        write_flow(writer, self.checked)
        code.lines = writer.machine.finish(["def flow(st, fr):"], self.checked.file)
        self.frame_fns["flow"] = "flow"
        self.asks.update({(0, pc): w for pc, w in writer.machine.asks().items()})

    # ------------------------------------------------------------ triggers
    def write_triggers(self) -> None:
        for t in self.checked.triggers:
            if t.cond is None:
                continue
            names = self.slot_names(t.unit)
            code = self.add(Code(self, self.name(f"when_{t.name}"), f"trigger {t.name}", names))
            t.cond_name = code.name
            code.line(f"def {code.name}(st, player, {code.local(t.event_slot)}):", self.checked.units[t.unit].where)
            with code.block():
                code.line(f"return {code.ex(t.cond)}")

    # ------------------------------------------------------------ components
    def template_function(self, template: Template | None, name: str, unit: str) -> str:
        if template is None:
            return "None"
        fname = self.name(name)
        code = self.add(Code(self, fname, unit, template.slot_names))
        code.line(f"def {fname}(st, {', '.join(code.local(s) for s in template.slots)}):", code.where)
        with code.block():
            code.line("player = None")
            code.line(f"return {code.render(template)}")
        drop_unread_player(code, 1)
        return fname


def _short(unit_name: str) -> str:
    """A readable Python name for a unit: 'procedure lose' -> 'lose'."""
    for prefix, short in (("procedure ", "proc_"), ("action ", "action_"), ("trigger ", "trigger_")):
        if unit_name.startswith(prefix):
            return short + unit_name[len(prefix):]
    return unit_name


def _slots(names: dict, n: int) -> str:
    """The frame's locals, for a comment: only checked names reach it."""
    return ", ".join(f"{s} {checked_name(names.get(s, 'temp'), 'temp')}" for s in range(n))


def compile_start(checked: Checked) -> tuple[str, list]:
    """The source of a module with only a game's start (see ``write_start``)."""
    source, lines = ModuleWriter(checked).write_start()
    return source, [*lines, (SOURCE_LINE, checked.meta["source_file"])]


def compile_module(checked: Checked, info: dict | None = None) -> tuple[str, list]:
    """The module's source and its line map; ``info`` (if given) receives
    what the compiler knew, for compiling scenario text against it later."""
    writer = ModuleWriter(checked)
    source, lines = writer.write()
    lines = [*lines, (SOURCE_LINE, checked.meta["source_file"])]
    if info is not None:
        info.update(checked=checked, analysis=writer.an, plain_names=writer.plain_names,
                    function_names=writer.function_names, action_names=writer.action_names)
    return source, lines
