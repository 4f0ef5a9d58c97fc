"""Rule text from another file (a scenario) compiled against a program.

A scenario's ``setup`` and ``run:`` blocks and its expectations are rule
text checked against the ruleset's declarations (``RulesetChecker.snippet``)
and compiled into a small module that shares the program's namespace, so
they call its procedures and functions as its own rules do. A block becomes
a unit the program can run as a frame; an expression becomes a ``Probe``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulebook.compiler.analysis import created_types
from rulebook.compiler.code import Code
from rulebook.compiler.emit_unit import UnitWriter
from rulebook.compiler.load import places
from rulebook.compiler.module import ModuleWriter
from rulebook.validator.diagnostics import Diagnostic
from rulebook.validator.ir import Expr


@dataclass
class Probe:
    """An expression of a scenario, compiled: ``value(st)`` with ``player``
    the current player; ``parts``: the two sides of a comparison, each
    (function, type), to explain a failure."""

    fn: object
    type: object
    parts: tuple | None = None

    def value(self, st):
        return self.fn(st, st.current)


class Snippets:
    """Compiles scenario text for one program (compiled from source)."""

    def __init__(self, program):
        self.prog = program
        self.count = 0
        self.sources: dict[str, str] = {}  # module name -> source of each snippet module, for tools and tests

    def _writer(self) -> ModuleWriter:
        info = self.prog.compile_info
        w = ModuleWriter(info["checked"])
        w.an = info["analysis"]
        w.unit_ids = dict(self.prog.unit_ids)
        w.plain_names = dict(info["plain_names"])
        w.function_names = dict(info["function_names"])
        w.action_names = dict(info["action_names"])
        w._names |= set(self.prog.module)
        w.consts = {}
        w.bounds = None  # checked arithmetic: a scenario may pass any argument (compiler/bounds.py)
        return w

    def _writer_for(self, new_functions) -> ModuleWriter:
        """A writer that knows the names of the function variants the
        snippet's check added (a function the ruleset calls only in text
        said to everybody is another variant when a scenario calls it):
        named before the snippet's own code is written, which calls them."""
        w = self._writer()
        for key in sorted(new_functions, key=repr):
            w.function_names[key] = w.name("fn_" + key[0])
            self.prog.compile_info["function_names"][key] = w.function_names[key]
        return w

    def _load(self, w: ModuleWriter, new_functions) -> dict:
        for key in sorted(new_functions, key=repr):
            w.write_function(key, w.checked.functions[key])
        w.write_nonempty()  # the companions its code calls (compiler/emptiness.py), as the program's module has
        source, lines = w.source()
        self.count += 1
        name = f"<rulebook scenario {self.count} {self.prog.id}>"
        self.sources[name] = source
        ns = dict(self.prog.module)
        ns["PLACE"] = places(lines)  # the snippet's own places (its functions' globals are ns)
        exec(compile(source, name, "exec"), ns)  # noqa: S102 - the compiler's own output
        self.prog.line_maps[name] = dict(lines)
        return ns

    def block(self, doc, path):
        """(unit id, diagnostics): a block of statements run as a frame."""
        checker = self.prog.checker
        known = set(checker.out.functions)
        unit, diags = checker.snippet(doc, path, "block")
        if unit is None or any(d.is_error for d in diags):
            return None, diags
        diags = diags + self._new_kinds(unit)
        if any(d.is_error for d in diags):
            return None, diags
        new_functions = set(checker.out.functions) - known
        w = self._writer_for(new_functions)
        uid = len(self.prog.units)
        w.unit_ids[unit.name] = uid
        code = w.add(Code(w, w.name("scenario_block"), unit.name, checker.out.slot_names.get(unit.name, {}),
                          framed=True))
        writer = UnitWriter(code, w.an)
        writer.seq(unit.body)
        code.lines = writer.machine.finish([f"def {code.name}(st, fr):"], unit.where)
        ns = self._load(w, new_functions)
        self.prog.units.append(ns[code.name])
        self.prog.unit_ids[unit.name] = uid
        self.prog.unit_locals[unit.name] = unit.nlocals
        return uid, diags

    def _new_kinds(self, unit) -> list:
        """A scenario may create only components of types the ruleset's own
        rules create: the compiled rules read the others from the
        catalogue's fixed tables (compiler/code.py, static_prop)."""
        out = []
        for kind, where in created_types(unit.body).items():
            if kind not in self.prog.compile_info["analysis"].created:
                file, line, col = where.rsplit(":", 2)
                out.append(Diagnostic(
                    "E070", f"this scenario creates a '{kind}', and no rule of the ruleset does", file, int(line),
                    int(col), "create it with a procedure of the ruleset that the scenario calls, or set the scene "
                    "with components the ruleset already has"))
        return out

    def expr(self, doc, path):
        """(Probe, diagnostics) of an expression."""
        checker = self.prog.checker
        known = set(checker.out.functions)
        result, diags = checker.snippet(doc, path, "expr")
        if result is None or any(d.is_error for d in diags):
            return None, diags
        expr, parts = result
        new_functions = set(checker.out.functions) - known
        w = self._writer_for(new_functions)
        names = [w.expr_function(expr, "scenario_expect")]
        if parts:
            for x, _t in parts:
                names.append(w.expr_function(Expr(x, expr.nlocals, slot_names=expr.slot_names), "scenario_side"))
        ns = self._load(w, new_functions)
        side = None
        if parts:
            side = ((ns[names[1]], parts[0][1]), (ns[names[2]], parts[1][1]))
        return Probe(ns[names[0]], expr.type, side), diags
