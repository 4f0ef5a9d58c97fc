"""Compile a schema-valid ruleset document into a ``Program``.

Order of work: declarations first (parameters, variables, component types,
zones, events, functions, procedures), so that every rule text can be
resolved against them; then setup, actions, phases (compiled into one flow
program), triggers, end rules and scoring. Every problem is a diagnostic at
its place in the file; compilation goes on after an error so that one run
reports them all.
"""

from __future__ import annotations

import hashlib
import itertools
import json

from dsl import ast as A
from dsl.parser import ParseError, parse_block, parse_expression
from interpreter import ops
from interpreter.compile_expr import BUILTIN_NAMES, CompileError, Cx, ExprCompiler
from interpreter.compile_stmt import STOP, SUSPEND, Emitter, StmtCompiler, game_ended, jump, render
from interpreter.errors import NO_OPTIONS, NO_TRANSITION, PHASE_LOOP, RuleError
from interpreter.labels import describe, literal
from interpreter.program import (
    ANY,
    BOOL,
    COMP,
    INT,
    LIST,
    NONE,
    PLAYER,
    STR,
    TIMED_OUT,
    ActionDef,
    Code,
    ComponentType,
    Program,
    TriggerDef,
    Type,
    ZoneFamily,
    compatible,
    join,
)
from interpreter.scope import Scope
from validator.diagnostics import Diagnostic, did_you_mean

DEFAULT_LIMITS = {
    "max_steps": 200_000,  # instructions between two decisions
    "max_phase_entries": 1_000,  # phases entered between two decisions
    "max_stack": 200,  # nested procedure calls and triggers
    "max_components": 100_000,
    "max_zones": 100_000,
    "max_value": 1_000_000,  # items in a list, characters in a text
    "max_work": 2_000_000,  # items visited by queries (filter, map, any, ...) between two decisions
}

PHASE_EVENTS = ("phase_begin", "phase_end")  # fired by the flow itself, with the phase's name
BUILTIN_EVENTS = {
    "moved": {"component": COMP(None), "from_zone": Type("zone"), "to_zone": Type("zone")},
}


def parse_type(text, comp_types) -> Type | None:
    if not isinstance(text, str):
        return None
    text = text.strip()
    if text.startswith("list of "):
        inner = parse_type(text[8:], comp_types)
        return LIST(inner) if inner else None
    simple = {
        "int": INT,
        "bool": BOOL,
        "str": STR,
        "player": PLAYER,
        "any": ANY,
        "zone": Type("zone"),
        "component": COMP(None),
        "none": NONE,
        "list": LIST(ANY),
    }
    if text in simple:
        return simple[text]
    if text in comp_types:
        return COMP(text)
    return None


FRACTION = Type("fraction")  # a YAML number like 2.5: no value of the language, so it fits no type


def _literal_type(v) -> Type:
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return INT
    if isinstance(v, float):
        return FRACTION
    if isinstance(v, str):
        return STR
    if v is None:
        return NONE
    if isinstance(v, list):
        t = NONE
        for x in v:
            t = join(t, _literal_type(x))
        return LIST(ANY if t == NONE else t)
    return ANY


WHOLE = "numbers in a ruleset are whole (rule text divides with //, rounding down)"


def article(t: Type) -> str:
    """``a str``, ``an int``: a type named in a sentence."""
    text = str(t)
    return ("an " if text[:1] in "aeiou" else "a ") + text


class RulesetCompiler(ExprCompiler, StmtCompiler):
    def __init__(self, doc, data: dict, variants: tuple = (), limits: dict | None = None):
        self.doc = doc
        self.data = data
        self.diags: list[Diagnostic] = []
        self.limits = dict(DEFAULT_LIMITS, **(limits or {}))
        players = data.get("players", {})
        digest = hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:16]
        self.prog = Program(
            id=str(data.get("id", "")),
            title=str(data.get("title", data.get("id", ""))),
            version=str(data.get("version", "")),
            digest=digest,
            variants=tuple(variants),
            min_players=int(players.get("min", 2)),
            max_players=int(players.get("max", 2)),
            source_file=doc.file,
            limits=self.limits,
            default_players=int(players.get("default") or players.get("min", 2)),
        )
        self.var_types: dict[str, Type] = {"direction": INT}
        self.pvar_types: dict[str, Type] = {}
        self.param_types: dict[str, Type] = {}
        self.comp_types: dict[str, ComponentType] = {}
        self.families: dict[str, ZoneFamily] = {}
        self.functions: dict = {}
        self.procedures: dict = {}
        self.events: dict[str, dict[str, Type]] = dict(BUILTIN_EVENTS)
        self.used_zones: set[str] = set()
        self.used_params: set[str] = set()
        self.used_procs: set[str] = set()
        self.emitted: set[str] = {"moved"}
        self.unit_ends: set[str] = set()  # code units containing 'end game'
        self.unit_calls: dict[str, set[str]] = {}  # code unit -> procedures it calls

    # ------------------------------------------------------------ diagnostics
    def report(self, code, message, path, at=None, hint=None, length=1, key=False):
        self.diags.append(self.doc.diag(code, message, path, hint, key=key, at=at, length=length))

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

    def new_code(self, name: str) -> Code:
        return self.prog.add_code(Code(name))

    def compile_expr_at(self, path, scope: Scope, want: Type | None = None, what: str = "this value"):
        """(fn, type) of the expression at ``path``, or (None, ANY) after an error."""
        node, span = self.parse(path, "expression")
        if node is None:
            return None, ANY
        cx = Cx(self, scope, tuple(path), span)
        try:
            if want is not None:
                return self.expect(node, cx, want, what), want
            return self.expr(node, cx)
        except CompileError:
            return None, ANY

    def compile_block_at(self, path, code: Code, scope: Scope | None = None) -> Code:
        node, span = self.parse(path, "block")
        scope = scope or Scope(code)
        if node is not None:
            em = Emitter(code, self.doc.file)
            self.block(node.body, Cx(self, scope, tuple(path), span), em)
        return code

    def scratch(self, name: str) -> Scope:
        return Scope(self.new_code(name), kind="condition")

    # ------------------------------------------------------------ top level
    def compile(self) -> Program:
        d = self.data
        self.reserved_names()
        players = d.get("players") or {}
        if (
            isinstance(players.get("min"), int)
            and isinstance(players.get("max"), int)
            and players["min"] > players["max"]
        ):
            self.report("E062", f"players: min {players['min']} is more than max {players['max']}", ("players", "min"))
        default = players.get("default")
        if (
            isinstance(default, int)
            and isinstance(players.get("min"), int)
            and isinstance(players.get("max"), int)
            and not players["min"] <= default <= players["max"]
        ):
            self.report(
                "E062",
                f"players: default {default} is outside {players['min']}-{players['max']}",
                ("players", "default"),
            )
        self.declare_params()
        self.declare_components()
        self.declare_zones()
        self.declare_vars()
        self.declare_events()
        self.declare_functions()
        self.declare_procedures()
        self.compile_components()
        self.compile_vars()
        self.compile_procedures()
        if "setup" in d:
            self.prog.setup = self.compile_block_at(("setup",), self.new_code("setup"))
        self.compile_actions()
        self.compile_flow()
        self.compile_triggers()
        self.compile_end()
        self.compile_player_label()
        self.warn_unused()
        p = self.prog
        p.param_types = self.param_types
        p.var_types = self.var_types
        p.pvar_types = self.pvar_types
        p.comp_types = self.comp_types
        p.families = self.families
        p.top_piles = any(f.visibility == "top" for f in self.families.values())
        p.events = self.events
        p.compiler = self
        p.data = self.data
        p.doc = self.doc
        p.ending_units = tuple(sorted(self.unit_ends))
        p.used_zones = frozenset(self.used_zones)
        return p

    # ------------------------------------------------------------ snippets
    def snippet(self, doc, path, kind: str):
        """Compile rule text from another file (a scenario) against this
        ruleset's declarations: a block gives a Code, an expression gives
        (fn, type, node). Diagnostics are returned, not kept."""
        saved = self.doc, self.data, self.diags
        self.doc, self.data, self.diags = doc, doc.data, []
        try:
            if kind == "block":
                code = self.compile_block_at(path, self.new_code(f"scenario {'.'.join(map(str, path))}"))
                return code, self.diags
            scope = self.scratch("scenario expect")
            node, span = self.parse(path, "expression")
            if node is None:
                return None, self.diags
            cx = Cx(self, scope, tuple(path), span)
            try:
                fn, t = self.expr(node, cx)
            except CompileError:
                return None, self.diags
            parts = None
            if isinstance(node, A.Compare):
                try:
                    parts = (self.expr(node.left, cx), self.expr(node.right, cx))
                except CompileError:
                    parts = None
            return (fn, t, scope.code.nlocals, parts), self.diags
        finally:
            self.doc, self.data, self.diags = saved

    # ------------------------------------------------------------ declarations
    def reserved_names(self):
        """Names starting with '_' are reserved (never readable in rule text)."""
        sections = ("params", "define", "vars", "player_vars", "zones", "events", "functions", "procedures",
                    "actions", "phases", "components", "triggers", "end")
        for section in sections:
            for name, spec in (self.data.get(section) or {}).items():
                if str(name).startswith("_"):
                    self.report("E014", f"'{name}': names starting with '_' are reserved", (section, name), key=True)
                if section == "events" and isinstance(spec, dict):
                    for field in spec:
                        if str(field).startswith("_"):
                            self.report("E014", f"'{field}': names starting with '_' are reserved",
                                        (section, name, field), key=True)
                if section in ("procedures", "functions") and isinstance(spec, dict):
                    for param in spec.get("params") or {}:
                        if str(param).startswith("_"):
                            self.report("E014", f"'{param}': names starting with '_' are reserved",
                                        (section, name, "params", param), key=True)
                if section == "components" and isinstance(spec, dict):
                    for part in ("for_each", "props", "state"):
                        for prop in spec.get(part) or {}:
                            if str(prop).startswith("_"):
                                self.report("E014", f"'{prop}': names starting with '_' are reserved",
                                            (section, name, part, prop), key=True)

    def builtin_clash(self, section: str, name) -> bool:
        """A name the language already gives (``player_count``, ``top``...):
        rule text would always mean the built-in one, so the author's would
        be silently ignored."""
        from dsl.parser import STATEMENT_WORDS, VALUE_WORDS
        from interpreter.builtins import BUILTINS

        callable_ = section in ("functions", "procedures")
        for taken, why in (
            (VALUE_WORDS, "is a word of the language: rule text would never read it as a name"),
            (STATEMENT_WORDS if section == "procedures" else (), "begins a statement: a call would never reach it"),
            (BUILTIN_NAMES, "is a built-in name: rule text would never see this one"),
            (BUILTINS if callable_ else (), "is a built-in function: a call would never reach this one"),
        ):
            if name in taken:
                self.report("E043", f"'{name}' {why}", (section, name), key=True, hint="choose another name")
                return True
        return False

    def already(self, name) -> str | None:
        """What ``name`` already names, with its line: 'a zone (line 8)'."""
        for section, what in (("zones", "a zone"), ("params", "a parameter"), ("define", "a definition"),
                              ("vars", "a variable"), ("player_vars", "a player variable")):
            if name in (self.data.get(section) or {}):
                return f"{what} (line {self.doc.where((section, name), key=True)[0]})"
        return None

    def declare_params(self):
        for name, spec in (self.data.get("params") or {}).items():
            self.builtin_clash("params", name)
            default = spec.get("default") if isinstance(spec, dict) else spec
            self.prog.params[name] = default
            t = _literal_type(default)
            if isinstance(spec, dict) and "type" in spec:
                declared = parse_type(spec["type"], {})
                if declared is None:
                    self.report(
                        "E041",
                        f"unknown type '{spec['type']}'",
                        ("params", name, "type"),
                        hint="types: int, bool, str, player, any, 'list of ...'",
                    )
                elif default is not None and not compatible(declared, _literal_type(default)):
                    self.report("E063", f"default {literal(default)} is not {article(declared)}",
                                ("params", name, "default"), hint=WHOLE if t == FRACTION else None)
                t = declared or t
            elif t == FRACTION:
                self.report("E063", f"parameter '{name}': {literal(default)} is a fraction",
                            ("params", name, "default") if isinstance(spec, dict) else ("params", name), hint=WHOLE)
            if isinstance(spec, dict) and spec.get("choices"):
                self.prog.param_choices[name] = list(spec["choices"])
            if isinstance(spec, dict) and spec.get("choices") and default not in spec["choices"]:
                self.report("E063", f"default {literal(default)} is not one of the choices",
                            ("params", name, "default"))
            self.param_types[name] = t
        scope = self.scratch("define")
        zones = self.data.get("zones") or {}
        for name in self.data.get("define") or {}:  # each definition sees the ones before it
            self.builtin_clash("define", name)
            if name in self.param_types:
                self.report("E043", f"'{name}' is already a parameter", ("define", name), key=True)
            elif name in zones:
                self.report("E043", f"'{name}' is already {self.already(name)}", ("define", name), key=True,
                            hint="rename one of them")
                continue  # the zone keeps its name: uses of it are not reported again
            fn, t = self.compile_expr_at(("define", name), scope)
            self.param_types[name] = t
            if fn is not None:
                self.prog.defines.append((name, fn))
        self.prog.define_locals = scope.code.nlocals

    def declare_components(self):
        for name, spec in (self.data.get("components") or {}).items():
            ct = ComponentType(name)
            for key in spec.get("for_each") or {}:
                ct.static[key] = ANY
            for row in spec.get("items") or []:
                if isinstance(row, dict):
                    for key, value in row.items():
                        ct.static[key] = join(ct.static.get(key, NONE), _literal_type(value))
            for key in spec.get("props") or {}:
                ct.static[key] = ANY
            for key in ct.static:
                if ct.static[key] == NONE:
                    ct.static[key] = ANY
            ct.public = tuple(spec.get("public") or ())
            ct.board = spec.get("board")
            ct.glyph = spec.get("glyph")
            self.comp_types[name] = ct
        for name, spec in (self.data.get("components") or {}).items():
            ct = self.comp_types[name]
            for key, init in (spec.get("state") or {}).items():
                t = None
                if isinstance(init, dict) and "show" in init:
                    self.report("E012", "'show' is for variables; a component shows what its label and status say",
                                ("components", name, "state", key, "show"), key=True,
                                hint="add it to the type's status: \"{self." + str(key) + "}\"")
                if isinstance(init, dict) and "type" in init:
                    t = parse_type(init["type"], self.comp_types)
                    if t is None:
                        self.report(
                            "E041", f"unknown type '{init['type']}'", ("components", name, "state", key, "type")
                        )
                ct.dynamic[key] = t or ANY
                if key in ct.static:
                    self.report(
                        "E043",
                        f"'{key}' is both a fixed and a changing property of '{name}'",
                        ("components", name, "state", key),
                        key=True,
                    )
            if ct.board:
                needed = ("col", "row") if ct.board.get("grid") in ("hex", "square") else (ct.board.get("key", "name"),)
                for prop in needed:
                    if prop not in ct.static:
                        self.report(
                            "E032",
                            f"a {ct.board.get('grid')} board needs the fixed property '{prop}' "
                            f"on its spaces ('{name}')",
                            ("components", name, "board"),
                            hint="for_each: {col: range(w), row: range(h)}" if prop in ("col", "row") else None,
                        )
            for prop in ct.public:
                if prop not in ct.static and prop not in ct.dynamic:
                    self.report(
                        "E032",
                        f"'{name}' has no property '{prop}' to show on its back",
                        ("components", name, "public"),
                        hint=did_you_mean(prop, list(ct.static) + list(ct.dynamic)),
                    )

    def declare_zones(self):
        for name, spec in (self.data.get("zones") or {}).items():
            spec = spec or {}
            per = spec.get("per")
            if per not in (None, "player") and per not in self.comp_types:
                self.report(
                    "E039",
                    f"zones can be kept one per player or one per component type; '{per}' is neither",
                    ("zones", name, "per"),
                    hint=did_you_mean(str(per), list(self.comp_types) + ["player"]),
                )
                per = "player"
            of = spec.get("of")
            if of is not None and of not in self.comp_types:
                self.report(
                    "E039",
                    f"unknown component type '{of}'",
                    ("zones", name, "of"),
                    hint=did_you_mean(str(of), self.comp_types),
                )
                of = None
            if name in self.comp_types:
                self.report("E043", f"'{name}' is already a component type", ("zones", name), key=True)
            visibility = spec.get("visibility", "public")
            face = spec.get("face", "up" if visibility == "public" else "down")
            if visibility == "top" and spec.get("ordered", True) is False:
                self.report("E013", f"zone '{name}': a face-up pile (visibility: top) must be ordered",
                            ("zones", name, "ordered"), hint="an unordered zone is sorted by id, so its top would "
                            "tell how the hidden components compare: drop 'ordered: false'")
            self.families[name] = ZoneFamily(name, per, of, visibility, face, bool(spec.get("ordered", True)))

    def declare_vars(self):
        for section, table in (("vars", self.var_types), ("player_vars", self.pvar_types)):
            for name, spec in (self.data.get(section) or {}).items():
                if self.builtin_clash(section, name):
                    continue
                if name in self.families or name in self.param_types:
                    self.report("E043", f"'{name}' is already {self.already(name)}", (section, name), key=True,
                                hint="rename one of them")
                    continue  # the first keeps its name: uses of it are not reported again
                t = None
                if isinstance(spec, dict):
                    if "type" in spec:
                        t = parse_type(spec["type"], self.comp_types)
                        if t is None:
                            self.report(
                                "E041",
                                f"unknown type '{spec['type']}'",
                                (section, name, "type"),
                                hint="types: int, bool, str, player, any, zone, a component type, 'list of ...'",
                            )
                elif not isinstance(spec, str):
                    t = _literal_type(spec)
                    if t.kind == "none":
                        t = ANY
                table[name] = t or ANY  # refined when the initial value compiles
        self.secret_pvars = frozenset(
            n
            for n, s in (self.data.get("player_vars") or {}).items()
            if isinstance(s, dict) and s.get("visibility") == "owner"
        )

    def declare_events(self):
        for name, fields in (self.data.get("events") or {}).items():
            if name in BUILTIN_EVENTS or name in PHASE_EVENTS:
                self.report("E043", f"'{name}' is a built-in event", ("events", name), key=True)
                continue
            table = {}
            for fname, ftype in (fields or {}).items():
                t = parse_type(ftype, self.comp_types)
                if t is None:
                    self.report("E041", f"unknown type '{ftype}'", ("events", name, fname))
                    t = ANY
                table[fname] = t
            self.events[name] = table

    def _params(self, section, name, spec):
        params = []
        for pname, ptype in ((spec or {}).get("params") or {}).items():
            t = parse_type(ptype, self.comp_types)
            if t is None:
                self.report(
                    "E041",
                    f"unknown type '{ptype}'",
                    (section, name, "params", pname),
                    hint=did_you_mean(
                        str(ptype), ["int", "bool", "str", "player", "zone", "any"] + list(self.comp_types)
                    ),
                )
                t = ANY
            params.append((pname, t))
        return params

    def declare_functions(self):
        for name, spec in (self.data.get("functions") or {}).items():
            self.builtin_clash("functions", name)
            params = self._params("functions", name, spec)
            node, span = self.parse(("functions", name, "value"), "expression")
            self.functions[name] = (params, node, ("functions", name, "value"), span)

    def declare_procedures(self):
        for name, spec in (self.data.get("procedures") or {}).items():
            self.builtin_clash("procedures", name)
            params = self._params("procedures", name, spec)
            self.procedures[name] = (self.new_code(f"procedure {name}"), params)

    # ------------------------------------------------------------ bodies
    def compile_procedures(self):
        for name in self.data.get("procedures") or {}:
            code, params = self.procedures[name]
            scope = Scope(code)
            for pname, ptype in params:
                scope.fresh(pname, ptype)
            self.compile_block_at(("procedures", name, "effect"), code, scope)

    def compile_components(self):
        for name, spec in (self.data.get("components") or {}).items():
            ct = self.comp_types[name]
            base = ("components", name)
            scope = self.scratch(f"components {name}")
            loops = []
            for var in spec.get("for_each") or {}:
                fn, t = self.compile_expr_at(base + ("for_each", var), scope)
                if fn is not None and t.kind not in ("list", "any", "zone"):
                    self.report(
                        "E041",
                        f"for_each needs a list of values for '{var}', e.g. range(1, 8)",
                        base + ("for_each", var),
                    )
                    fn = None
                et = t.arg if t.kind == "list" else ANY
                ct.static[var] = et
                loops.append((var, scope.fresh(var, et), fn))
            items = spec.get("items") or []
            item_keys = []
            for row in items:
                for key in row if isinstance(row, dict) else {}:
                    if key not in [k for k, _ in item_keys]:
                        item_keys.append((key, scope.fresh(key, ct.static.get(key, ANY))))
            props = []
            for pname in spec.get("props") or {}:
                fn, t = self.compile_expr_at(base + ("props", pname), scope)
                ct.static[pname] = t
                props.append((pname, scope.fresh(pname, t), fn))
            copies_fn = None
            if "copies" in spec:
                copies_fn, _ = self.compile_expr_at(base + ("copies",), scope, INT, "copies")
            for field in ("count", "copies"):
                if isinstance(spec.get(field), int) and not isinstance(spec[field], bool) and spec[field] < 0:
                    self.report("E014", f"'{name}': {field} {spec[field]} is negative", base + (field,),
                                hint="a number of components is 0 or more")
            if "count" in spec and (spec.get("for_each") or spec.get("items")):
                self.report("E014", f"'{name}': count has no effect next to "
                            f"{'for_each' if spec.get('for_each') else 'items'}", base + ("count",), key=True,
                            hint="'copies' makes several of each")
            if "count" in spec:
                count_fn, _ = self.compile_expr_at(base + ("count",), scope, INT, "count")
            else:
                count_fn = None
            nlocals = scope.code.nlocals
            limit = self.limits["max_components"]

            def generate(
                st,
                loops=loops,
                props=props,
                items=items,
                copies_fn=copies_fn,
                count_fn=count_fn,
                nlocals=nlocals,
                limit=limit,
                item_keys=item_keys,
                type_name=name,
            ):
                L = [None] * nlocals
                rows = []
                if items:
                    base_rows = [dict(r) for r in items]
                elif loops:
                    values = [(var, slot, fn(st, L) if fn else []) for var, slot, fn in loops]
                    total = 1
                    for _, _, vs in values:
                        total *= max(len(vs), 1)
                    if total > limit:
                        raise RuleError("R107", f"'{type_name}' would make {total} components; the limit is {limit}")
                    base_rows = []
                    for combo in itertools.product(*[vs for _, _, vs in values]):
                        base_rows.append({var: v for (var, _, _), v in zip(values, combo)})
                elif count_fn is not None:
                    n = count_fn(st, L)
                    if n < 0:
                        raise RuleError("R104", f"'{type_name}' count {n} is negative")
                    if n > limit:
                        raise RuleError("R107", f"'{type_name}' count {n} is over the limit of {limit} components")
                    base_rows = [{} for _ in range(n)]
                else:
                    base_rows = [{}]
                for row in base_rows:
                    for var, slot, _ in loops:
                        L[slot] = row.get(var)
                    for key, slot in item_keys:  # props and copies may read an item's own fields
                        L[slot] = row.get(key)
                    for pname, slot, fn in props:
                        v = fn(st, L) if fn else None
                        L[slot] = v
                        row[pname] = v
                    k = copies_fn(st, L) if copies_fn else 1
                    if k * len(base_rows) > limit:
                        raise RuleError(
                            "R107",
                            f"'{type_name}': {k} copies of {len(base_rows)} components is over the limit of {limit}",
                        )
                    rows.extend(dict(row) for _ in range(k))
                return rows

            ct.generate = generate
            # changing properties: initial values may read the fixed ones by name
            iscope = self.scratch(f"components {name} state")
            slots = {k: iscope.fresh(k, t) for k, t in ct.static.items()}
            initial = {}
            for key, init in (spec.get("state") or {}).items():
                path = base + ("state", key) + (("initial",) if isinstance(init, dict) else ())
                if isinstance(init, dict) and "initial" not in init:
                    initial[key] = lambda st, props: None
                    continue
                literal = init.get("initial") if isinstance(init, dict) else init
                if not isinstance(literal, str):  # a number, true/false, null or a list: the value itself
                    t = _literal_type(literal)
                    if ct.dynamic[key].kind == "any" and t.kind != "none":
                        ct.dynamic[key] = t
                    elif t.kind != "none" and not compatible(ct.dynamic[key], t):
                        self.report("E041", f"initial value is {t}, but '{key}' is declared {ct.dynamic[key]}", path)
                    initial[key] = lambda st, props, v=literal: v
                    continue
                fn, t = self.compile_expr_at(path, iscope)
                if fn is None:
                    continue
                if ct.dynamic[key].kind == "any":
                    ct.dynamic[key] = t if t.kind != "none" else ANY
                n_i = iscope.code.nlocals

                def init_fn(st, props, fn=fn, n_i=n_i, slots=slots):
                    L = [None] * n_i
                    for k, s in slots.items():
                        L[s] = props.get(k)
                    return fn(st, L)

                initial[key] = init_fn
            ct.initial = initial
            if "label" in spec:
                ct.label = self.template(base + ("label",), {"self": COMP(name)})
            if "back_label" in spec:
                # read as text said to everybody: a property the back does not show reads "[hidden]"
                ct.back_label = self.template(base + ("back_label",), {"self": COMP(name)}, public=True)
            if "status" in spec:
                ct.status = self.template(base + ("status",), {"self": COMP(name)})

    def template(self, path, names: dict[str, Type], public: bool = False):
        """A text template from the YAML value at ``path``; the names given
        (e.g. ``self``) are bound to the render function's arguments."""
        text = self.text_of(path)
        scope = self.scratch("template")
        slots = [scope.fresh(n, t) for n, t in names.items()]
        cx = Cx(self, scope, tuple(path), self.doc.spans.get(tuple(path)))
        try:
            pieces = self.template_parts(str(text), cx, 1, 1, "this text", public,
                                         itself="self" if "self" in names else None)
        except CompileError:
            return None
        n = scope.code.nlocals

        def render_template(st, *values):
            L = [None] * n
            for s, v in zip(slots, values):
                L[s] = v
            return render(st, L, pieces, public)

        return render_template

    def compile_vars(self):
        for section, table, target in (
            ("vars", self.var_types, self.prog.vars),
            ("player_vars", self.pvar_types, self.prog.pvars),
        ):
            for name, spec in (self.data.get(section) or {}).items():
                if name not in table:  # its name clashed (E043): not declared
                    continue
                scope = self.scratch(f"{section} {name}")
                if isinstance(spec, dict):
                    if "initial" not in spec:
                        target[name] = lambda st: None
                        continue
                    path = (section, name, "initial")
                elif isinstance(spec, str):
                    path = (section, name)
                else:
                    target[name] = lambda st, v=spec: v
                    continue
                fn, t = self.compile_expr_at(path, scope)
                if fn is None:
                    continue
                if table[name].kind == "any" and t.kind != "none":
                    table[name] = t
                elif not compatible(table[name], t) and t.kind != "none":
                    self.report("E041", f"initial value is {t}, but '{name}' is declared {table[name]}", path)
                n_locals = scope.code.nlocals
                target[name] = lambda st, fn=fn, n_locals=n_locals: fn(st, [st.current] + [None] * n_locals)
        self.prog.secret_pvars = self.secret_pvars
        self.prog.unshown_vars = frozenset(
            name for section in ("vars", "player_vars") for name, spec in (self.data.get(section) or {}).items()
            if isinstance(spec, dict) and spec.get("show") is False)

    # ------------------------------------------------------------ actions
    def compile_actions(self):
        for i, (name, spec) in enumerate((self.data.get("actions") or {}).items()):
            spec = spec or {}
            code = self.new_code(f"action {name}")
            scope = Scope(code)
            params = []
            base = ("actions", name)
            cond = None
            if "if" in spec:
                cond, _ = self.compile_expr_at(base + ("if",), scope, BOOL)
            for pname in spec.get("params") or {}:
                fn, t = self.compile_expr_at(base + ("params", pname), scope)
                if fn is not None and t.kind not in ("list", "zone", "any"):
                    self.report(
                        "E041",
                        f"parameter '{pname}' needs a list of possible values, not {t}",
                        base + ("params", pname),
                    )
                    fn = None
                et = t.arg if t.kind == "list" else COMP(t.arg) if t.kind == "zone" else ANY
                if t.kind == "zone":
                    zfn = fn
                    fn = lambda st, L, zfn=zfn: st.zones[zfn(st, L)]
                params.append((pname, scope.fresh(pname, et), fn))
            require = None
            if "require" in spec:
                require, _ = self.compile_expr_at(base + ("require",), scope, BOOL)
            self.compile_block_at(base + ("effect",), code, scope) if "effect" in spec else None
            label = None
            if "label" in spec:
                label = self.action_label(base + ("label",), scope, params)
            self.prog.actions.append(
                ActionDef(
                    name,
                    i,
                    code,
                    [(p, s, f) for p, s, f in params],
                    cond,
                    require,
                    label,
                    param_types=[scope.names[p][1] for p, _, _ in params],
                )
            )
            self.prog.action_index[name] = i
        self.offered_actions: set[str] = set()

    def action_label(self, path, scope, params):
        cx = Cx(self, scope, tuple(path), self.doc.spans.get(tuple(path)))
        try:
            return self.template_parts(str(self.text_of(path)), cx, 1, 1, "this label")
        except CompileError:
            return None

    # ------------------------------------------------------------ flow
    def compile_flow(self):
        phases = self.data.get("phases") or {}
        self.prog.phases = list(phases)
        start = self.data.get("start") or (next(iter(phases)) if phases else None)
        self.prog.start_phase = start or ""
        flow = self.new_code("flow")
        self.prog.flow = flow
        em = Emitter(flow, self.doc.file)
        fscope = Scope(flow)
        answer = fscope.temp()
        labels: dict[str, list[int]] = {name: [0] for name in phases}
        file = self.doc.file
        if start in labels:
            em.emit(jump(labels[start]), f"{file}:start")
        elif phases:
            self.report(
                "E053", f"start phase '{start}' is not a phase", ("start",), hint=did_you_mean(str(start), phases)
            )
        else:

            def no_phases(st, fr):
                raise RuleError(NO_TRANSITION, "the ruleset has no phases")

            em.emit(no_phases, f"{file}:phases")
        for name, spec in phases.items():
            spec = spec or {}
            labels[name][0] = em.here
            self.compile_phase(name, spec, em, answer, labels)

    def hook(self, path, name) -> Code | None:
        if self.text_of_or_none(path) is None:
            return None
        return self.compile_block_at(path, self.new_code(name))

    def text_of_or_none(self, path):
        try:
            return self.text_of(path)
        except (KeyError, TypeError, IndexError):
            return None

    def cond_at(self, path, label):
        if self.text_of_or_none(path) is None:
            return None
        return self.standalone(path, label, BOOL, "a condition")

    def standalone(self, path, label, want, what):
        """An expression evaluated on its own (not inside a code block):
        a closure ``f(st, L)`` that ignores the caller's locals but for the
        player in slot 0, and makes room for its own."""
        scope = self.scratch(label)
        fn, _ = self.compile_expr_at(path, scope, want, what)
        if fn is None:
            return None
        n = scope.code.nlocals
        return lambda st, L: fn(st, [L[0]] + [None] * n)

    def compile_phase(self, name, spec, em: Emitter, answer: int, labels):
        base = ("phases", name)
        where = lambda key: "{}:{}:{}".format(self.doc.file, *self.doc.where(base + (key,)))  # noqa: E731
        on_begin = self.hook(base + ("on_begin",), f"phase {name} on_begin")
        on_end = self.hook(base + ("on_end",), f"phase {name} on_end")
        end_if = self.cond_at(base + ("end_if",), f"phase {name} end_if")
        if end_if is not None and spec.get("turn") is None:
            self.report(
                "E044",
                f"phase '{name}' has end_if but no turn: end_if is checked before each turn",
                base + ("end_if",),
                hint="without turns a phase ends after on_begin; use 'next' with 'if'",
                key=True,
            )
        self.prog.hooks[(name, "on_begin")] = on_begin
        self.prog.hooks[(name, "on_end")] = on_end
        max_entries = self.limits["max_phase_entries"]
        has_turns = isinstance(spec.get("turn"), dict)

        def enter(st, fr, name=name):
            st.phase = name
            st.end_phase = False
            st.end_turn = False
            st.since_decision += 1
            if st.since_decision > max_entries:
                raise RuleError(
                    PHASE_LOOP,
                    f"{max_entries} phases entered without any decision: the phases loop (last: '{name}')",
                    where("next"),
                    f"phase '{name}' has turns but nobody to play them (its turn's 'first' gives none, "
                    "or every player is eliminated)"
                    if has_turns and st.current is None else "a transition condition never changes",
                )
            if st.record:
                st.events.append(("phase", name))
            if "phase_begin" in st.prog.triggers:
                ops.fire(st, "phase_begin", {"phase": name})

        em.emit(enter, "{}:{}:{}".format(self.doc.file, *self.doc.where(base, key=True)))
        if on_begin is not None:
            em.emit(_call_hook(on_begin.id), where("on_begin"))
        turn = spec.get("turn")
        end_label = [0]
        if turn is not None:
            self.compile_turn(name, turn, em, answer, end_if, end_label)
        end_label[0] = em.here
        if on_end is not None:
            em.emit(_call_hook(on_end.id), where("on_end"))
        self.compile_transitions(name, spec, em, labels)

    def compile_turn(self, phase, turn, em, answer, phase_end_if, end_label):
        base = ("phases", phase, "turn")
        file = self.doc.file
        where = lambda key: "{}:{}:{}".format(file, *self.doc.where(base + (key,)))  # noqa: E731
        first = None
        if "first" in turn:
            first = self.standalone(base + ("first",), "turn first", PLAYER, "turn first")
        nxt = None
        if "next" in turn:
            nxt = self.standalone(base + ("next",), "turn next", PLAYER, "turn next")
        t_begin = self.hook(base + ("on_begin",), f"phase {phase} turn on_begin")
        t_end = self.hook(base + ("on_end",), f"phase {phase} turn on_end")
        t_end_if = self.cond_at(base + ("end_if",), f"phase {phase} turn end_if")
        time_limit = None
        if self.text_of_or_none(base + ("time_limit",)) is not None:
            time_limit = self.standalone(base + ("time_limit",), f"phase {phase} turn time_limit", INT, "seconds")
        t_time_out = self.hook(base + ("on_time_out",), f"phase {phase} turn on_time_out")
        if t_time_out is not None and "time_limit" not in turn:
            self.report("E044", "on_time_out without a time_limit never runs", base + ("on_time_out",), key=True,
                        hint="add time_limit: SECONDS to this turn")
        repeat = bool(turn.get("repeat", False))
        action_ids = []
        for i, aname in enumerate(turn.get("actions") or []):
            if aname not in self.prog.action_index:
                self.report(
                    "E034",
                    f"unknown action '{aname}'",
                    base + ("actions", i),
                    hint=did_you_mean(str(aname), self.prog.action_index),
                )
                continue
            action_ids.append(self.prog.action_index[aname])
            self.offered_actions.add(aname)
        self.prog.phase_actions[phase] = action_ids
        actions = [self.prog.actions[i] for i in action_ids]

        def start(st, fr):
            if st.pass_to is not None:  # 'pass turn to p' before the turns (e.g. in on_begin): p plays first
                st.current = live(st, st.pass_to)
            elif first is not None:
                st.current = live(st, first(st, [st.current] + [None] * 16))
            elif st.current is None:
                st.current = ops.seat_order(st, 0)[0] if not all(st.eliminated) else None
            else:
                st.current = live(st, st.current)
            st.pass_to = None

        em.emit(start, where("first") if "first" in turn else "{}:{}:{}".format(file, *self.doc.where(base)))
        loop = em.here

        def turn_head(st, fr):
            L = fr[2]
            L[0] = st.current
            if (
                st.end_phase
                or st.current is None
                or (phase_end_if is not None and phase_end_if(st, [st.current] + [None] * 16))
            ):
                fr[1] = end_label[0]
                return
            st.end_turn = False
            st.turn += 1
            if st.record:
                st.events.append(("turn", st.current))

        em.emit(turn_head, "{}:{}:{}".format(file, *self.doc.where(("phases", phase, "end_if"))))
        if t_begin is not None:
            em.emit(_call_hook(t_begin.id), where("on_begin"))
        turn_end = [0]
        action_loop = em.here

        def decide(st, fr):
            if st.end_turn or st.end_phase:
                fr[1] = turn_end[0]
                return None
            p = st.current
            options = legal_actions(st, actions, p)
            if not options:
                if game_ended(st):
                    return STOP
                raise RuleError(
                    NO_OPTIONS,
                    f"{describe(st, p, PLAYER)} has no legal action in phase '{phase}' "
                    f"({why_not_offered(st, actions, p)})",
                    where("actions"),
                    "make sure one action is always possible, e.g. pass",
                )
            st.pending = {
                "kind": "action",
                "players": [p],
                "options": [options],
                "answers": [None],
                "done": [False],
                "slot": answer,
                "prompt": f"{phase}: your move",
                "type": "action",
            }
            if time_limit is not None:
                seconds = time_limit(st, [p])
                if seconds is not None and seconds > 0:
                    st.pending["time_limit"] = seconds
            return SUSPEND

        em.emit(decide, where("actions"))

        def run_action(st, fr):
            if fr[2][answer] == TIMED_OUT:  # Game.time_out: the turn's time ran out
                st.end_turn = True
                if t_time_out is not None:
                    st.stack.append([t_time_out.id, 0, [st.current] + [None] * (t_time_out.nlocals - 1)])
                return
            ai, args = fr[2][answer]
            act = st.prog.actions[ai]
            L = [st.current] + [None] * (act.code.nlocals - 1)
            for (_, slot, _), v in zip(act.params, args):
                L[slot] = v
            if st.record:
                st.events.append(("action", st.current, act.name, args))
            st.stack.append([act.code.id, 0, L])

        em.emit(run_action, where("actions"))

        def after_action(st, fr):
            if (
                st.end_turn
                or st.end_phase
                or not repeat
                or (t_end_if is not None and t_end_if(st, [st.current] + [None] * 16))
            ):
                fr[1] = turn_end[0]
            else:
                fr[1] = action_loop

        em.emit(after_action, where("repeat") if "repeat" in turn else where("actions"))
        turn_end[0] = em.here
        if t_end is not None:
            em.emit(_call_hook(t_end.id), where("on_end"))

        def advance(st, fr):
            if st.pass_to is not None:
                st.current = live(st, st.pass_to)
            elif nxt is not None:
                st.current = live(st, nxt(st, [st.current] + [None] * 16))
            else:
                st.current = ops.next_player(st, st.current)
            st.pass_to = None
            st.end_turn = False
            fr[1] = loop

        em.emit(advance, where("next") if "next" in turn else where("actions"))

    def compile_transitions(self, name, spec, em, labels):
        base = ("phases", name, "next")
        edges = spec.get("next")
        if edges is None:
            edges = []
        if isinstance(edges, str):
            edges = [{"to": edges}]
            plain = True
        else:
            plain = False
        compiled = []
        for i, edge in enumerate(edges):
            if isinstance(edge, str):
                edge = {"to": edge}
                epath = base + (i,)
            else:
                epath = base + (i, "to")
            target = edge.get("to")
            if plain:
                epath = base
            if target not in labels:
                self.report(
                    "E050", f"transition to unknown phase '{target}'", epath, hint=did_you_mean(str(target), labels)
                )
                continue
            cond = None
            if "if" in edge and not plain:
                cond = self.cond_at(base + (i, "if"), f"phase {name} next")
            compiled.append((cond, labels[target]))
        where = "{}:{}:{}".format(self.doc.file, *self.doc.where(base if "next" in spec else ("phases", name)))

        def transition(st, fr):
            for cond, label in compiled:
                if cond is None or cond(st, [st.current] + [None] * 16):
                    fr[1] = label[0]
                    if "phase_end" in st.prog.triggers:
                        ops.fire(st, "phase_end", {"phase": name})
                    return
            raise RuleError(
                NO_TRANSITION,
                f"phase '{name}' ended and none of its transitions applies",
                where,
                "add a transition without a condition, or end the game",
            )

        em.emit(transition, where)

    # ------------------------------------------------------------ triggers, end
    def compile_triggers(self):
        for i, spec in (self.data.get("triggers") or {}).items():
            base = ("triggers", i)
            event = spec.get("on")
            if event not in self.events and event not in PHASE_EVENTS:
                self.report(
                    "E038",
                    f"unknown event '{event}'",
                    base + ("on",),
                    hint=did_you_mean(str(event), list(self.events) + list(PHASE_EVENTS)),
                )
                continue
            if event in PHASE_EVENTS:
                self.events.setdefault(event, {"phase": STR})
                self.emitted.add(event)
            code = self.new_code(f"trigger {i}")
            scope = Scope(code, event=event)
            scope.event_slot = scope.temp()
            cond = None
            if "if" in spec:
                cond, _ = self.compile_expr_at(base + ("if",), scope, BOOL)
            self.compile_block_at(base + ("effect",), code, scope)
            trig = TriggerDef(event, code, cond, scope.event_slot, str(i))
            self.prog.triggers.setdefault(event, []).append(trig)

    def compile_end(self):
        for i, spec in (self.data.get("end") or {}).items():
            base = ("end", i)
            cond = self.cond_at(base + ("if",), "end if")
            winners = None
            if "winners" in spec:
                winners = self.standalone(base + ("winners",), "end winners", LIST(PLAYER), "winners")
            if cond is not None:
                self.prog.end_rules.append((cond, winners, "{}:{}:{}".format(self.doc.file, *self.doc.where(base))))
        scoring = self.data.get("scoring")
        if scoring:
            scope = self.scratch("scoring")
            self.prog.score, _ = self.compile_expr_at(("scoring", "score"), scope, INT, "score")
            for i, _tb in enumerate(scoring.get("tie_breaks") or []):
                fn, _ = self.compile_expr_at(("scoring", "tie_breaks", i), scope, INT, "a tie-break")
                if fn is not None:
                    self.prog.tie_breaks.append(fn)
            self.prog.lowest_wins = scoring.get("lowest_wins", False)
            self.prog.score_locals = scope.code.nlocals
        self.compile_bots()

    def compile_bots(self):
        """``bots.heuristic``: how good a position is for ``player``, for
        agents that look ahead (``greedy``); it never changes the rules."""
        bots = self.data.get("bots") or {}
        if "heuristic" in bots:
            scope = self.scratch("heuristic")
            self.prog.heuristic, _ = self.compile_expr_at(("bots", "heuristic"), scope, INT, "the heuristic")
            self.prog.heuristic_locals = scope.code.nlocals

    def compile_player_label(self):
        players = self.data.get("players") or {}
        if "name" in players:
            render = self.template(("players", "name"), {"p": PLAYER})
            if render is not None:
                self.prog.player_label = lambda st, p: render(st, p)

    # ------------------------------------------------------------ warnings
    def warn_unused(self):
        if any(d.is_error for d in self.diags):
            return  # a failed block hides its uses: unused-warnings would be noise
        import re

        variant_text = json.dumps(self.data.get("variants") or {})
        for name in self.prog.params:
            if name not in self.used_params and not re.search(rf"\b{re.escape(name)}\b", variant_text):
                self.report("W105", f"parameter '{name}' is never used", ("params", name), key=True)
        for name in self.families:
            if name not in self.used_zones:
                self.report("W101", f"zone '{name}' is never used", ("zones", name), key=True)
        for act in self.prog.actions:
            if act.name not in self.offered_actions:
                self.report(
                    "W102",
                    f"action '{act.name}' is never offered (no phase turn lists it)",
                    ("actions", act.name),
                    key=True,
                )
        for event in self.prog.triggers:
            if event not in self.emitted:
                for i, spec in (self.data.get("triggers") or {}).items():
                    if spec.get("on") == event:
                        self.report(
                            "W103", f"no rule emits event '{event}', so this trigger never runs", ("triggers", i, "on")
                        )
        for name in self.procedures:
            if name not in self.used_procs:
                self.report("W104", f"procedure '{name}' is never called", ("procedures", name), key=True)


def live(st, p):
    """``p``, or when ``p`` has been eliminated the next live player after
    them in the play direction: turns skip eliminated players, whoever
    names them (``first``, ``next``, ``pass turn to``)."""
    if p is not None and 0 <= p < st.n and st.eliminated[p]:
        return ops.next_player(st, p)
    return p


def _call_hook(code_id: int):
    def call(st, fr):
        st.stack.append([code_id, 0, [st.current] + [None] * (st.prog.codes[code_id].nlocals - 1)])

    return call


def legal_actions(st, actions, p) -> list:
    """Every enabled action with every legal combination of its parameters,
    in a stable order: actions as listed, parameters in their domains' order."""
    out = []
    for act in actions:
        L = [p] + [None] * (act.code.nlocals - 1)
        if act.cond is not None and not act.cond(st, L):
            continue
        if not act.params:
            if act.require is None or act.require(st, L):
                out.append([act.index, []])
            continue
        _expand(st, act, L, 0, [], out)
    return out


def why_not_offered(st, actions, p) -> str:
    """Why each action of a turn offers nothing to ``p`` (for R101): its
    ``if`` is false, a parameter has no values, or ``require`` refuses
    every combination. Only computed when the error is raised."""
    reasons = []
    for act in actions:
        L = [p] + [None] * (act.code.nlocals - 1)
        if act.cond is not None and not act.cond(st, L):
            reasons.append(f"'{act.name}': its 'if' is false")
            continue
        empty = _first_empty_param(st, act, L, 0)
        if empty is not None:
            reasons.append(f"'{act.name}': parameter '{empty}' has no values")
        else:
            reasons.append(f"'{act.name}': 'require' refuses every choice")
    return "; ".join(reasons) or "the turn lists no actions"


def _first_empty_param(st, act, L, i):
    """The name of a parameter whose domain is empty for every choice of
    the ones before it (None when some combination reaches the end)."""
    if i == len(act.params):
        return None
    name, slot, domain = act.params[i]
    values = list(domain(st, L)) if domain is not None else []
    if not values:
        return name
    found = None
    for v in values:
        L[slot] = v
        found = _first_empty_param(st, act, L, i + 1)
        if found is None:
            return None
    return found


def _expand(st, act, L, i, chosen, out):
    if i == len(act.params):
        if act.require is None or act.require(st, L):
            out.append([act.index, list(chosen)])
        return
    _, slot, domain = act.params[i]
    values = domain(st, L) if domain is not None else []
    for v in list(values):
        L[slot] = v
        chosen.append(v)
        _expand(st, act, L, i + 1, chosen, out)
        chosen.pop()


__all__ = ["RulesetCompiler", "legal_actions", "NO_OPTIONS", "A"]
