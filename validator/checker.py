"""Stage 4: names and types. Check a schema-valid ruleset document and
write its rules as IR for the compiler.

Order of work: declarations first (parameters, variables, component types,
zones, events, functions, procedures), so that every rule text can be
resolved against them; then component rules, setup, actions, phases,
triggers, end rules and scoring. Every problem is a diagnostic at its place
in the file; checking goes on after an error so that one run reports them
all. The result (``Checked``) holds no Python function: the compiler makes
those, and the running game keeps only ``Checked.meta``.
"""

from __future__ import annotations

import hashlib
import json

from rulebook.dsl import ast as A
from rulebook.dsl.parser import ParseError, parse_block, parse_expression
from rulebook.validator.check_calls import BUILTINS
from rulebook.validator.check_components import check_components, check_rows
from rulebook.validator.check_decls import (
    BUILTIN_EVENTS,
    check_vars,
    declare_components,
    declare_events,
    declare_functions,
    declare_params,
    declare_procedures,
    declare_vars,
    declare_zones,
    function_variant,
    reserved_names,
)
from rulebook.validator.check_expr import CheckError, Cx, expect, resolved
from rulebook.validator.check_rules import (
    check_actions,
    check_end,
    check_flow,
    check_player_label,
    check_triggers,
    warn_unused,
)
from rulebook.validator.check_stmt import always_returns, block
from rulebook.validator.diagnostics import Diagnostic
from rulebook.validator.expr_checks import EXPRESSION_CHECKS
from rulebook.validator.ir import Checked, Expr, Unit, X
from rulebook.validator.scope import Locals, Scope
from rulebook.validator.types import INT, Type
from rulebook.validator.uses import NameUse, UseIndex

DEFAULT_LIMITS = {
    "max_steps": 200_000,  # loop rounds and calls between two decisions
    "max_phase_entries": 1_000,  # phases entered between two decisions
    "max_stack": 200,  # nested procedure calls and triggers
    "max_components": 100_000,
    "max_zones": 100_000,
    "max_value": 1_000_000,  # items in a list, characters in a text
    "max_work": 2_000_000,  # items visited by queries (filter, map, any, ...) between two decisions
    "max_number": 10**18,  # the size of a number
}


class RulesetChecker:
    """What checking one ruleset knows and where it reports: its document,
    the declarations found so far, the tables the compiler and the game
    read, and the diagnostics. It has no checks of its own kinds of rule
    text: those are free functions of the ``check_*`` and ``expr_*``
    modules, each given this object as ``ck``; they reach the parts of a
    value through ``ck.expr`` (dispatched from ``expr_checks``) and the
    parts of a block through ``check_stmt.block``."""

    builtins = BUILTINS  # name -> (min args, max args, handler(ck, call, cx)): validator/check_calls.py

    def __init__(self, doc, data: dict, variants: tuple = (), limits: dict | None = None):
        self.doc = doc
        self.data = data
        self.variants = tuple(variants)
        self.diags: list[Diagnostic] = []
        self.index = UseIndex()  # where each name is used (validator.uses): read by editors, not by the compiler
        self.limits = dict(DEFAULT_LIMITS, **(limits or {}))
        self.out = Checked(meta={}, file=doc.file, source_lines=doc.source.splitlines())
        self.params: dict = {}
        self.param_choices: dict = {}
        self.param_types: dict[str, Type] = {}
        self.var_types: dict[str, Type] = {"direction": INT}
        self.pvar_types: dict[str, Type] = {}
        self.secret_pvars = frozenset()
        self.unshown_vars = frozenset()
        self.unshown_zones: frozenset = frozenset()
        self.nonzero_vars = frozenset()
        self.comp_types: dict = {}
        self.families: dict = {}
        self.functions: dict = {}
        self.function_types: dict = {}
        self.checking_functions: set = set()
        self.procedures: dict = {}
        self.proc_returns: dict = {}  # procedure name -> the type it returns ('returns:'), or None
        self.outs: set[str] = set()  # the 'eliminate ... until' points the rules use
        self.events: dict[str, dict[str, Type]] = dict(BUILTIN_EVENTS)
        self.action_index: dict[str, int] = {}
        self.action_meta: list = []
        self.phase_actions: dict = {}
        self.phase_names: list = []
        self.hooks: dict = {}
        self.offered_actions: set = set()
        self.trigger_events: dict = {}
        self.lowest_wins = False
        self.used_zones: set[str] = set()
        self.used_params: set[str] = set()
        self.used_procs: set[str] = set()
        # helpers marked 'for_tests' ((section, name)) -> where they are called: (caller path, line, col)
        self.test_helpers: dict[tuple[str, str], list] = {}
        self.read_props: set = set()  # (component type or None, property) that rule text reads
        self.emitted: set[str] = {"moved"}
        self.unit_ends: set[str] = set()  # units containing 'end game'
        self.unit_calls: dict[str, set[str]] = {}  # unit -> procedure units it calls
        self.unit_fires: dict[str, set[str]] = {}  # unit -> events it emits
        self.asks: set[str] = set()  # units that contain a choose
        self.later_params: tuple | None = None  # (action, the parameters from the one being checked on)

    # ------------------------------------------------------------ diagnostics
    def place(self, path, key: bool = False) -> str:
        return "{}:{}:{}".format(self.doc.file, *self.doc.where(path, key=key))

    def report(self, code, message, path, at=None, hint=None, length=1, key=False):
        self.diags.append(self.doc.diag(code, message, path, hint, key=key, at=at, length=length))

    def note_params(self, scope: Scope, base: tuple, params) -> None:
        """Record the parameters declared under the YAML key ``base`` as the
        definitions of their locals (``validator.uses``)."""
        for pname, ptype in params:
            key = base + (pname,)
            if key in self.doc.key_positions:
                line, col = self.doc.key_positions[key]
                slot = scope.names[pname][0]
                self.index.add(NameUse("local", pname, line, col, key, ("local", scope.unit.name, slot), str(ptype),
                                       binds=True))

    def text_of(self, path):
        node = self.data
        for key in path:
            node = node[key]
        return node

    def parse(self, path, kind: str):
        """Parse the rule text at ``path``; report a syntax error where it is."""
        text = self.text_of(path)
        if isinstance(text, bool):
            text = "true" if text else "false"
        elif isinstance(text, int):
            text = str(text)
        elif text is None:
            text = "none"
        span = self.doc.spans.get(tuple(path))
        try:
            node = parse_block(text) if kind == "block" else parse_expression(text)
        except ParseError as err:
            at = span.to_file(err.line, err.column) if span else self.doc.where(path)
            hint = err.hint
            if (kind == "block" and span is not None and getattr(span, "style", None) == ">"
                and span.chars and span.chars[0][0] != span.chars[-1][0]):  # YAML folded its lines into one
                hint = "'>' folds lines into one: write blocks of statements with '|'"
            self.report(err.code, err.message, path, at, hint)
            return None, span
        return node, span

    def expr(self, node, cx: Cx) -> tuple[X, Type]:
        """(X, Type) of an expression: the check for its kind of node, from the table."""
        return resolved(self, cx, node, EXPRESSION_CHECKS[type(node)])

    def check_expr_at(self, path, scope: Scope, want: Type | None = None, what: str = "this value"):
        """(X, type) of the expression at ``path``, or (None, ANY) after an error."""
        from rulebook.validator.types import ANY

        node, span = self.parse(path, "expression")
        if node is None:
            return None, ANY
        cx = Cx(self, scope, tuple(path), span)
        try:
            if want is not None:
                return expect(self, node, cx, want, what), want
            return self.expr(node, cx)
        except CheckError:
            return None, ANY

    def check_block_at(self, path, scope: Scope) -> list:
        node, span = self.parse(path, "block")
        if node is None:
            return []
        return block(self, node.body, Cx(self, scope, tuple(path), span))

    def scratch(self, name: str) -> Scope:
        return Scope(Locals(name), kind="condition")

    def standalone(self, path, label, want, what) -> Expr | None:
        """An expression evaluated on its own (not inside a block), with
        ``player`` in slot 0 and room for its own locals."""
        scope = self.scratch(label)
        x, _ = self.check_expr_at(path, scope, want, what)
        if x is None:
            return None
        return Expr(x, scope.unit.nlocals, slot_names=scope.unit.names)

    def add_unit(self, name: str, body: list, unit: Locals, where: str, params: tuple = (), event_slot: int = -1):
        self.out.units[name] = Unit(name, tuple(body), unit.nlocals, where, params, event_slot)
        self.out.slot_names[name] = unit.names

    # ------------------------------------------------------------ top level
    def check(self) -> Checked:
        d = self.data
        reserved_names(self)
        check_players(self)
        declare_params(self)
        declare_components(self)
        declare_zones(self)
        declare_vars(self)
        declare_events(self)
        declare_functions(self)
        declare_procedures(self)
        check_components(self)
        check_vars(self)
        check_procedures(self)
        if "setup" in d:
            unit = Locals("setup")
            body = self.check_block_at(("setup",), Scope(unit))
            self.add_unit("setup", body, unit, self.place(("setup",)))
            self.out.setup = "setup"
        check_actions(self)
        check_flow(self)
        check_triggers(self)
        check_end(self)
        check_player_label(self)
        check_uncalled_functions(self)
        check_rows(self)
        warn_unused(self)
        self.out.meta = meta(self)
        return self.out

    # ------------------------------------------------------------ snippets
    def snippet(self, doc, path, kind: str):
        """Check rule text from another file (a scenario) against this
        ruleset's declarations: a block gives a Unit, an expression gives
        (Expr, type, node). Diagnostics are returned, not kept."""
        saved = self.doc, self.data, self.diags, self.index
        self.doc, self.data, self.diags, self.index = doc, doc.data, [], UseIndex()
        try:
            name = f"scenario {'.'.join(map(str, path))}"
            if kind == "block":
                unit = Locals(name)
                body = self.check_block_at(path, Scope(unit))
                self.out.slot_names[name] = unit.names
                return Unit(name, tuple(body), unit.nlocals, self.place(path)), self.diags
            scope = self.scratch(name)
            node, span = self.parse(path, "expression")
            if node is None:
                return None, self.diags
            cx = Cx(self, scope, tuple(path), span)
            try:
                x, t = self.expr(node, cx)
            except CheckError:
                return None, self.diags
            parts = None
            if isinstance(node, A.Compare):
                try:
                    parts = (self.expr(node.left, cx), self.expr(node.right, cx))
                except CheckError:
                    parts = None
            return (Expr(x, scope.unit.nlocals, t, scope.unit.names), parts), self.diags
        finally:
            self.doc, self.data, self.diags, self.index = saved


def check_players(ck):
    players = ck.data.get("players") or {}
    lo, hi, default = players.get("min"), players.get("max"), players.get("default")
    if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
        ck.report("E062", f"players: min {lo} is more than max {hi}", ("players", "min"))
    if isinstance(default, int) and isinstance(lo, int) and isinstance(hi, int) and not lo <= default <= hi:
        ck.report("E062", f"players: default {default} is outside {lo}-{hi}", ("players", "default"))


def check_procedures(ck):
    for name in ck.data.get("procedures") or {}:
        unit_name, params = ck.procedures[name]
        unit = Locals(unit_name)
        scope = Scope(unit)
        slots = tuple(scope.fresh(pname, ptype) for pname, ptype in params)
        ck.note_params(scope, ("procedures", name, "params"), params)
        returns = ck.proc_returns.get(name)
        ret_slot = scope.temp() if returns is not None else -1  # where the caller wants the value
        path = ("procedures", name, "effect")
        node, span = ck.parse(path, "block")
        body = block(ck, node.body, Cx(ck, scope, path, span)) if node is not None else []
        ck.add_unit(unit_name, body, unit, ck.place(("procedures", name), key=True), slots)
        ck.out.units[unit_name].ret_slot = ret_slot
        if returns is not None:
            if node is not None and not always_returns(node.body):
                last = Cx(ck, scope, path, span).at(node.body[-1].pos)  # where it runs out
                ck.report("E044", f"procedure '{name}' returns {returns}, and it can reach its end "
                          "without a value", path, last,
                          "end every path with 'return <value>' (an 'if' needs an 'else')")


def check_uncalled_functions(ck):
    """A function no rule calls is still checked, so its mistakes are found."""
    called = {key[0] for key in ck.function_types}
    for name, (_params, node, fpath, fspan) in ck.functions.items():
        if name in called or node is None:
            continue
        cx = Cx(ck, ck.scratch(f"function {name}"), fpath, fspan)
        try:
            function_variant(ck, name, False, None, A.Call(name, (), (), (1, 1)), cx)
        except CheckError:
            pass


# ------------------------------------------------------------ what the game keeps
def meta(ck) -> dict:
    """Plain data the running game needs (names, types, visibility), kept
    in the compiled module beside its functions."""
    d = ck.data
    players = d.get("players") or {}
    digest = hashlib.sha256(json.dumps(d, sort_keys=True, default=str).encode()).hexdigest()[:16]
    return {
        "id": str(d.get("id", "")),
        "title": str(d.get("title", d.get("id", ""))),
        "version": str(d.get("version", "")),
        "digest": digest,
        "variants": list(ck.variants),
        "min_players": int(players.get("min", 2)),
        "max_players": int(players.get("max", 2)),
        "default_players": int(players.get("default") or players.get("min", 2)),
        "source_file": ck.doc.file,
        "limits": ck.limits,
        "params": dict(ck.params),
        "param_choices": ck.param_choices,
        "param_types": ck.param_types,
        "var_types": ck.var_types,
        "pvar_types": ck.pvar_types,
        "secret_pvars": sorted(ck.secret_pvars),
        "unshown_vars": sorted(ck.unshown_vars),
        "unshown_zones": sorted(ck.unshown_zones),
        "nonzero_vars": sorted(ck.nonzero_vars),
        "comp_types": {n: {"static": ct.static, "dynamic": ct.dynamic, "public": list(ct.public),
                           "board": ct.board, "glyph": ct.glyph} for n, ct in ck.comp_types.items()},
        "families": {n: {"per": f.per, "of": f.of, "visibility": f.visibility, "face": f.face,
                         "ordered": f.ordered, "when_empty": f.when_empty} for n, f in ck.families.items()},
        "actions": ck.action_meta,
        "phase_actions": ck.phase_actions,
        "phases": ck.phase_names,
        "start_phase": ck.out.start_phase,
        "hooks": {f"{p}.{h}": u for (p, h), u in ck.hooks.items()},
        "events": ck.events,
        "lowest_wins": ck.lowest_wins,
        "used_zones": sorted(ck.used_zones),
        "ending_units": sorted(ck.unit_ends),
        "unit_calls": {u: sorted(c) for u, c in ck.unit_calls.items()},
        "out_until": sorted(ck.outs),
    }
