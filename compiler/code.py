"""The generated module being written: its constants, its functions and
the map from each generated line to the rule it came from.

``Module`` collects functions (each a ``Code``) and hoisted constants, and
joins them into one Python source text. ``Code`` is one function being
written: its lines with their indentation, the rule place of each line,
and how its rule locals are named (``Code.local``).
"""

from __future__ import annotations

import re
from contextlib import contextmanager

from rulebook.compiler import emit_expr, emit_query, emit_stmt, emptiness, fused
from rulebook.compiler.emit_query import LAMBDA_SLOT, inlined, once_per_query
from rulebook.compiler.emit_unit import in_nested_scope
from rulebook.compiler.per_state import memoised_functions
from rulebook.compiler.plan import NOT_LITERAL, fixed_key, index_plan, literal_value
from rulebook.compiler.tabling import tabled_functions
from rulebook.interpreter import lib as _lib
from rulebook.validator.ir import X
from rulebook.validator.types import Type

_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]*")  # used with fullmatch: "$" also matches before a final "\n"
_PLACE = re.compile(r":[0-9]+:[0-9]+")  # after the file's name in a rule place
_NAME = re.compile(r"[A-Za-z_]\w*")  # a Python name: also a value kept where first computed (cse.py)


class Module:
    """A generated module: constants first, then functions, then tables."""

    def __init__(self, checked, analysis):
        self.checked = checked
        self.meta = checked.meta
        self.limits = checked.meta["limits"]
        self.an = analysis  # which units can stop at a decision, end the game, ...
        self.consts: dict = {}  # key -> (name, source)
        self.functions: list[Code] = []
        self.tail: list[str] = []  # tables after the functions
        self.function_names: dict = {}  # function variant key -> Python name
        self.unit_ids: dict[str, int] = {}  # unit name -> frame id
        self.plain_names: dict[str, str] = {}  # unit name -> Python function name
        self._names: set[str] = set(RESERVED)
        self.inlined = 0  # function bodies written at call sites so far
        self.kept = 0  # values kept in and/or chains so far (compiler/cse.py)
        self.onces = 0  # calls kept for every option of an action (compiler/option_invariants.py)
        self._pure: set | None = None
        self._tabled: dict | None = None
        self._memoised: set | None = None
        self._indexes: set | None = None
        self.looped: dict = {}  # function key -> whether it is written as a search loop (emit_query.looped)
        self._constants: dict | None = None
        self.nonempty_names: dict = {}  # function key -> its companion that tests its list for items
        self.nonempty_todo: list = []  # companions asked for and not written yet
        self.places: dict[str, int] = {}  # rule place file:line:col -> its number in the table PLACE

    def name(self, base: str) -> str:
        """A fresh Python name made from ``base`` (rule names stay readable)."""
        base = re.sub(r"[^A-Za-z0-9_]", "_", base).strip("_") or "f"
        if base[0].isdigit():
            base = "_" + base
        name, i = base, 1
        while name in self._names:
            i += 1
            name = f"{base}_{i}"
        self._names.add(name)
        return name

    def rule_line(self, where: str) -> str:
        """``line N: <the rule's text>`` for a place ``file:line:col`` of the ruleset."""
        parts = where.rsplit(":", 2)
        if len(parts) != 3 or not parts[1].isdigit() or parts[0] != self.checked.file:
            return ""
        n = int(parts[1])
        lines = self.checked.source_lines
        text = lines[n - 1].strip() if 0 < n <= len(lines) else ""
        return f"line {n}: {comment_text(text)}" if text else ""

    def const(self, v) -> str:
        """Source for the value ``v``: a literal, or a module constant. A
        rule place is read from the table ``PLACE`` by its number (``place``)."""
        if v is None or isinstance(v, bool) or (isinstance(v, int) and abs(v) < 10**15):
            return repr(v)
        if isinstance(v, str) and self.is_place(v):
            return self.place(v)
        if isinstance(v, str) and len(v) <= 60 and "\n" not in v:
            return repr(v)
        src = _source(v, self)
        key = (type(v).__name__, src)
        hit = self.consts.get(key)
        if hit is None:
            hit = self.consts[key] = (f"K{len(self.consts)}", src)
        return hit[0]

    def is_place(self, v: str) -> bool:
        """Whether ``v`` is a place ``file:line:col`` of the ruleset's file."""
        return v.startswith(self.checked.file) and _PLACE.fullmatch(v, len(self.checked.file)) is not None

    def place(self, where: str) -> str:
        """Source of the rule place ``where``: its number in the table
        ``PLACE``, which the loader gives the module from its line map (as
        Jinja's ``debug_info``), so that no path is written in the code and
        a module does not depend on the folder it was made in."""
        k = self.places.setdefault(where, len(self.places))
        return f"PLACE[{k}]"

    def constant_defines(self) -> dict:
        """The definitions whose value the rule text fixes (literals, lists of
        them, earlier such definitions): written as constants where read,
        not looked up in the game's table of values each time."""
        if self._constants is None:
            self._constants = {}
            for name, expr in self.checked.defines:
                value = literal_value(expr.x, self._constants)
                if value is not NOT_LITERAL:
                    self._constants[name] = value
        return self._constants

    def nonempty_name(self, key) -> str:
        """The companion of the ruleset function ``key`` that tells whether
        its list has an item (compiler/emptiness.py), written on first use."""
        name = self.nonempty_names.get(key)
        if name is None:
            name = self.nonempty_names[key] = self.name(self.function_names[key] + "_nonempty")
            self.nonempty_todo.append(key)
        return name

    def index_plan(self) -> set:
        """The (type, changing property) pairs the engine keeps by value for
        the ruleset's filters (compiler/plan.index_plan)."""
        if self._indexes is None:
            self._indexes = index_plan(self)
        return self._indexes

    @property
    def indexed_props(self) -> set:
        """The properties some index keeps (of some type): a ``set`` of one
        updates the index. Worked out from the whole ruleset on first use,
        so a statement written before the first indexed filter knows it too."""
        return {p for _, p in self.index_plan()}

    def pure_functions(self) -> set:
        """The ruleset's function variants that draw nothing at random, nor call one that does."""
        if self._pure is None:
            from rulebook.validator.ir import walk

            fns = self.checked.functions
            impure = {k for k, f in fns.items() if any(n.op in ("random", "roll") for n in walk(f.body))}
            changed = True
            while changed:
                changed = False
                for k, f in fns.items():
                    if k not in impure and any(n.op == "fn" and n.a[0] in impure for n in walk(f.body)):
                        impure.add(k)
                        changed = True
            self._pure = set(fns) - impure
        return self._pure

    def tabled(self) -> dict:
        """The ruleset's function variants compiled as tables of their values
        by arguments (compiler/tabling.py), each with how its table is keyed."""
        if self._tabled is None:
            self._tabled = tabled_functions(self.checked, self.an.created)
        return self._tabled

    def memoised(self) -> set:
        """The ruleset's function variants that keep their values while one
        decision is made (compiler/per_state.py)."""
        if self._memoised is None:
            self._memoised = memoised_functions(self.checked, self.pure_functions(), self.tabled())
        return self._memoised

    def add(self, code: Code) -> Code:
        self.functions.append(code)
        return code

    def source(self) -> tuple[str, list]:
        """The module text and its line map: (line number, rule place) pairs,
        then (-1 - k, place) for the place numbered k in ``PLACE``
        (compiler/load.places). The runtime's names are imported by name,
        those the text reads (``runtime_imports``): a reader sees where each
        comes from."""
        out: list[str] = []
        lines: list = []
        for name, src in self.consts.values():
            out.append(f"{name} = {src}")
        out.append("")
        for code in self.functions:
            out.append("")
            aliases = state_aliases(code.lines)
            for k, (indent, text, where) in enumerate(code.lines):
                if aliases and k:
                    text = _STATE_LIST.sub(lambda m: "s_" + m.group(1) if m.group(1) in aliases else m.group(0), text)
                out.append("    " * indent + text)
                if where:
                    lines.append((len(out), where))
                if k == 0 and (code.hoists or aliases) and indent == 0:  # after the def line
                    for name, src in code.hoists.items():
                        out.append(f"    {name} = {src}")
                    for name in aliases:
                        out.append(f"    s_{name} = st.{name}")
        out.append("")
        out.extend(self.tail)
        # the file and variants are in META, written with repr: no outside text in the headline
        head = [HEADLINE, *runtime_imports(out), "", *PRELUDE]
        lines = [(n + len(head), where) for n, where in lines]
        lines.extend((-1 - k, where) for where, k in self.places.items())
        return "\n".join(head + out) + "\n", lines


# The state's lists and dicts that keep their identity for the whole game (Game.new makes
# them, State.clone makes new ones for the copy): a function reading one more than once
# reads it into a local at its start (s_zones), not from the state at each use.
_STATE_LIST = re.compile(r"\bst\.(zones|loc|face|owner|props|vars|params)\b(?!\s*=[^=])")
_STATE_SET = re.compile(r"\bst\.(zones|loc|face|owner|props|vars|params)\s*=[^=]")  # never aliased then


def state_aliases(lines: list) -> list[str]:
    """The state's lists a function's ``lines`` read at least twice."""
    counts: dict[str, int] = {}
    kept_out = set()  # assigned, or read inside a lambda or comprehension (a local read there is a cell: dearer)
    for _indent, text, _where in lines[1:]:
        names = _STATE_LIST.findall(text)
        for name in names:
            counts[name] = counts.get(name, 0) + 1
        kept_out.update(_STATE_SET.findall(text))
        if names and in_nested_scope(text):
            kept_out.update(names)
    return [name for name, n in counts.items() if n >= 2 and name not in kept_out]


def comment_text(text: str) -> str:
    """``text`` fit for a comment of the module: each character that is not
    printable (a line break for Python, ``\\r``, or for another tool, U+2028,
    ``\\x0c``, ``\\x1c``...; a NUL) written as its escape, so that a comment
    stays one line of comment whatever reads it (Cython copies lines into C)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def checked_name(name: str, fallback: str) -> str:
    """``name`` when it is a plain identifier (it may then stand in code), else ``fallback``."""
    return name if _IDENT.fullmatch(name) else fallback


HEADLINE = "# Generated by Rulebook from the ruleset META names. Do not edit: it is made again from the ruleset."
# Where the generated code's runtime names come from, each imported by name where the text reads it
# (runtime_imports); the library's are what it declares in its __all__.
RUNTIME = (
    ("rulebook.interpreter.lib", tuple(_lib.__all__)),
    ("rulebook.interpreter.tables", ("tabled",)),
    ("rulebook.interpreter.memo", ("memoised", "recharged")),
    ("rulebook.interpreter.run", ("finish", "phases_loop", "no_action", "no_transition")),
    ("rulebook.interpreter.playout", ("auto_pick", "auto_all")),
    ("rulebook.interpreter.program", ("Action", "Trigger", "_frame", "_value")),
    ("rulebook.interpreter.ops", ("fire", "move", "shuffle", "seat_order")),
    ("rulebook.interpreter.drawing", ("deal", "draw", "ran_out")),
    ("rulebook.interpreter.labels", ("describe", "describe_fields", "literal", "comp_name", "HIDDEN", "HiddenInText")),
    ("rulebook.interpreter.errors", ("RuleError",)),
    ("rulebook.validator.types", ("Type",)),
)
PRELUDE = [
    "# PLACE[k]: the rule place (file:line:col) numbered k, set by the loader from the line map",
    "# (compiler/load.py, compiler/native.py) before this module runs; named here for readers and Cython",
    'PLACE = globals()["PLACE"]',
    "SUSPEND, STOP = 1, 2",
    "NONE1 = [None]",
]
_WORD = re.compile(r"(?<![.\w])[A-Za-z_]\w*")  # not an attribute (.remove)
# a text literal as repr writes it (an f-string is kept whole: its fields read names)
_TEXT = re.compile(r"(?<![A-Za-z])'(?:[^'\\]|\\.)*'" + r'|(?<![A-Za-z])"(?:[^"\\]|\\.)*"')


def without_texts(text: str) -> str:
    """A generated line without its text literals: what is left are names and operators."""
    return _TEXT.sub("", text)


def runtime_imports(lines: list[str]) -> list[str]:
    """The import lines for the runtime names ``lines`` read (outside
    comments and text literals), one ``from ... import`` line each of up to
    about 110 characters (a line tools read one at a time: compiler/native.py)."""
    used: set[str] = set()
    for text in lines:
        code = text.lstrip()
        if code and not code.startswith("#"):
            used.update(_WORD.findall(without_texts(code).split("#", 1)[0]))
    out = ["import itertools", ""] if "itertools" in used else []
    for module, names in RUNTIME:
        line = ""
        for name in (n for n in names if n in used):
            if line and len(line) + len(name) > 110:
                out.append(line)
                line = ""
            line = f"{line}, {name}" if line else f"from {module} import {name}"
        if line:
            out.append(line)
    return out


def _reserved() -> set:
    """Names the module's own code uses: generated names never take them."""
    import builtins

    from rulebook.interpreter import lib

    names = set(dir(lib)) | set(dir(builtins))
    names |= {"flow", "check_end", "st", "fr", "L", "pc", "player", "itertools", "finish", "phases_loop", "no_action",
              "no_transition", "Action", "Trigger", "Type", "RuleError", "fire", "move", "shuffle", "zone_owner",
              "seat_order", "describe", "describe_fields", "literal", "comp_name", "HIDDEN", "HiddenInText",
              "SUSPEND", "STOP", "NONE1", "PLACE", "UNITS", "ACTIONS", "TRIGGERS", "META", "_top", "_r", "auto_pick",
              "auto_all"}
    return names


RESERVED = _reserved()


def _source(v, m: Module | None = None) -> str:
    """Source of a constant value; with ``m``, rule places in it read from ``PLACE``."""
    if isinstance(v, Type):
        return f"Type({v.kind!r}, {_source(v.arg) if isinstance(v.arg, Type) else repr(v.arg)})"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_source(k, m)}: {_source(x, m)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_source(x, m) for x in v) + "]"
    if isinstance(v, tuple):
        return "(" + "".join(_source(x, m) + ", " for x in v) + ")"
    if m is not None and isinstance(v, str) and m.is_place(v):
        return m.place(v)
    return repr(v)


class Code:
    """One generated function being written: its lines, the names of its
    rule locals, and what the writers of expressions and statements keep
    while they write it. ``framed``: its rule locals live in the frame's
    list ``L`` (code that can stop at a decision); otherwise they are Python
    locals named after the rule's names.

    The writers are free functions given the ``Code`` they write into
    (``compiler/emit_expr.py``'s table ``EMIT``, ``emit_stmt.STMT``,
    ``emit_query``, ``cse``, ``emptiness``), as jsonschema's keyword
    functions are given their validator; the methods under "entry points"
    are what the flow writers (emit_flow, emit_unit, module, emit_parts)
    call."""

    level = 0  # nesting of the expression being written
    invariant_names: dict | None = None  # id(node) -> name: parts of a query's body computed once before it
    inline_names: dict | None = None  # id(a call's arguments) -> the same, for the function written at the call

    def __init__(self, module: Module, name: str, unit_name: str, slot_names: dict | None = None,
                 framed: bool = False):
        self.m = module
        self.name = name
        self.unit_name = unit_name  # the rule unit, for messages ('procedure lose')
        self.framed = framed
        self.slot_names = slot_names or {}
        self.lines: list = []
        self.depth = 0
        self.bound: dict[int, str] = {}  # lambda and loop slots bound to Python names now
        self.where = ""
        self.temps = 0
        self.suffix = ""  # added to local names written inside an inlined function body
        self.hoists: dict[str, str] = {}  # name -> source, read at the function's start
        self.cse_plan: dict = {}  # id(node) -> (name, key): values kept where first computed (compiler/cse.py)
        self.cse_bound: dict = {}  # key -> name: values kept so far, read again instead of computed
        self.in_iterable = 0  # writing a comprehension's iterable, where ':=' is not allowed
        self.once_plan: dict = {}  # id(node) -> name: calls kept for every option of an action (option_invariants)

    # ------------------------------------------------------------ entry points
    def ex(self, x: X) -> str:
        """Python source of the expression ``x``."""
        return emit_expr.ex(self, x)

    def snapshot(self, x: X) -> str:
        return emit_expr.snapshot(self, x)

    def nonempty(self, xs: X) -> str:
        """Source of a bool: whether the list ``xs`` has an item (compiler/emptiness.py)."""
        return emptiness.has_items(self, xs)

    def search_loop(self, op: str, xs: X, slot: int, pred: X) -> None:
        if not fused.search_loop(self, op, xs, slot, pred):  # over a chain: its loops (compiler/fused.py)
            emit_query.search_loop(self, op, xs, slot, pred)

    def stmts(self, body) -> None:
        emit_stmt.stmts(self, body)

    def render(self, template) -> str:
        return emit_stmt.render(self, template)

    def loop_charge(self, body, n: str = "1") -> None:
        emit_stmt.loop_charge(self, body, n)

    # statements emit_unit.py writes around a resume point
    def s_move(self, *a) -> None:
        emit_stmt.s_move(self, *a)

    def s_draw(self, *a) -> None:
        emit_stmt.s_draw(self, *a)

    def s_deal(self, *a) -> None:
        emit_stmt.s_deal(self, *a)

    def s_remove(self, *a) -> None:
        emit_stmt.s_remove(self, *a)

    def s_create(self, *a) -> None:
        emit_stmt.s_create(self, *a)

    def s_emit(self, *a) -> None:
        emit_stmt.s_emit(self, *a)

    # ------------------------------------------------------------ lines
    def line(self, text: str, where: str | None = None) -> None:
        self.lines.append((self.depth, text, where if where is not None else self.where))

    @contextmanager
    def block(self):
        self.depth += 1
        yield
        self.depth -= 1

    @contextmanager
    def at(self, where: str):
        saved, self.where = self.where, where
        yield
        self.where = saved

    def temp(self, base: str = "t") -> str:
        self.temps += 1
        return f"_{base}{self.temps}"

    # ------------------------------------------------------------ names
    def local(self, slot: int, bind: bool = False) -> str:
        if bind:
            name = self.py_name(slot)
            self.bound[slot] = name
            return name
        hit = self.bound.get(slot)
        if hit is not None:
            return hit
        if self.framed:
            return f"L[{slot}]"
        return self.py_name(slot)

    def py_name(self, slot: int) -> str:
        base = self.slot_names.get(slot, "")
        if slot == 0:
            return "player"
        if _IDENT.fullmatch(base):
            return f"{base}_{slot}{self.suffix}"
        return f"t_{slot}{self.suffix}"

    def const(self, v) -> str:
        return self.m.const(v)

    def limit(self, name: str) -> str:
        return repr(self.m.limits[name])

    # ------------------------------------------------------------ expression helpers
    def shared_zone(self, family: str) -> str:
        base = self.m.an.static_zone_base.get(family)
        return repr(base) if base is not None else f"st.cat.zone_base[{family!r}]"

    def player_zone(self, family: str, p: X, where: str) -> str:
        who = self.ex(p)
        call = f"player_zone(st, {family!r}, {who}, {self.const(where)})"
        if p.op not in ("local", "current") and not _NAME.fullmatch(who):
            return call
        # a seat read from a name (a local, or a value kept where first computed): the zone by
        # arithmetic, the call (and its error) only for what is not a seat
        base = self.hoisted(checked_name(f"zb_{family}", f"zb_{len(self.hoists)}"), f"st.cat.zone_base[{family!r}]")
        return f"({base} + {who} if ({who}).__class__ is int and 0 <= {who} < st.n else {call})"

    def comp_zone(self, family: str, c: X, where: str, per: str) -> str:
        table = self.hoisted(checked_name(f"zoc_{family}", f"zoc_{len(self.hoists)}"),
                             f"st.cat.zone_of_comp[{family!r}]")
        if per not in self.m.an.created:  # every such zone is in the catalogue's table (a miss is the rule's error)
            return f"{table}[{self.ex(c)}]"
        if c.op == "local":
            key = self.ex(c)
            return (f"({table}[{key}] if {key} in {table} else comp_zone(st, {family!r}, {key}, "
                    f"{self.const(where)}, {per!r}))")
        return f"comp_zone(st, {family!r}, {self.ex(c)}, {self.const(where)}, {per!r})"

    def zone_owner(self, z: X) -> str:
        """The owner of a zone. When every family is shared or kept per
        player, a zone's owner is fixed by the catalogue (no zone belongs to
        a component's owner, none is made in play): one read of its table."""
        src = self.ex(z)
        if any(f["per"] not in (None, "player") for f in self.m.meta["families"].values()):
            return f"zone_owner(st, {src})"
        table = self.hoisted("zone_player", "st.cat.zone_player")
        if src.isidentifier():
            return f"({table}[{src}] if {src} is not None else None)"
        if z.op == "zone_of" and z.a[0].op == "local" and not src.startswith("(_kept"):
            c = self.ex(z.a[0])
            return f"({table}[st.loc[{c}]] if st.loc[{c}] >= 0 else None)"
        return f"zone_owner(st, {src})"

    def static_prop(self, c: X, attr: str, kind: str | None) -> str:
        """A property that never changes, of a component of type ``kind``
        (None: of any type, none where it has no such property): read from
        the catalogue's column when no rule creates such components in play
        (their properties live only on the state)."""
        if kind is None and self.m.an.created:
            return f"st.static[{self.ex(c)}].get({attr!r})"
        if kind in self.m.an.created:
            return f"st.static[{self.ex(c)}][{attr!r}]"
        return f"{self.column(attr)}[{self.ex(c)}]"

    def column(self, attr: str) -> str:
        """The catalogue's column of a fixed property, read once per function."""
        return self.hoisted(checked_name(f"col_{attr}", f"col_{len(self.hoists)}"),
                            f"st.cat.columns[{attr!r}]")

    def contains(self, item: X, coll: X, negated: bool) -> str:
        """``item in coll``: charged to the work budget when the list is long
        (over 64 items; a short list costs no more than the rule around it)."""
        neg = "not " if negated else ""
        fixed = literal_value(coll, self.m.constant_defines())
        if isinstance(fixed, (list, str)) and len(fixed) <= 64:  # short and known: no charge to decide at run time
            return f"({neg}({self.ex(item)} in {self.ex(coll)}))"
        if coll.op in ("local", "zone_items", "var", "param", "const"):
            c = self.ex(coll)
            return f"({neg}({self.ex(item)} in {c} if len({c}) <= 64 else contains(st, {self.ex(item)}, {c})))"
        return f"({neg}contains(st, {self.ex(item)}, {self.ex(coll)}))"

    def end_rules_first(self) -> None:
        """Before a decision (or its error), the end rules are tried, as the
        run loop tries them; a ruleset without end rules has nothing to try."""
        if self.m.checked.end_rules:
            self.line("if check_end(st): return STOP")

    def param(self, name: str) -> str:
        """A parameter or definition: a constant when the rule text fixes it."""
        constants = self.m.constant_defines()
        if name in constants:
            return self.const(constants[name])
        return f"st.params[{name!r}]"

    def hoisted(self, name: str, src: str) -> str:
        """A value read once at the start of the function (tables of the
        catalogue, which never change during a game)."""
        self.hoists.setdefault(name, src)
        return name

    def call_function(self, key, player: X, event: X, args, nonempty: bool = False) -> str:
        """A call of the ruleset function ``key``; with ``nonempty``, of the
        test whether its list has an item (compiler/emptiness.py)."""
        rule = self.m.checked.functions[key]
        if inlined(self.m, key, args):
            return self.inline(rule, player, args, (self.inline_names or {}).get(id(args)), nonempty)
        fname = self.m.nonempty_name(key) if nonempty else self.m.function_names[key]
        parts = ["st", self.ex(player)]
        if rule.event_slot >= 0:
            parts.append(self.ex(event))
        parts += [self.ex(a) for a in args]
        return f"{fname}({', '.join(parts)})"

    def inline(self, rule, player: X, args, invariant_names: dict | None = None, nonempty: bool = False) -> str:
        """A small function's body written at the call site, its parameters
        replaced by the arguments (locals or constants: nothing is computed
        twice, and nothing can happen in a different order). Parts of the
        body a query computes once before it are read by ``invariant_names``."""
        sub = self.inline_writer(rule, player, args)
        sub.invariant_names = invariant_names
        src = f"({emptiness.has_items(sub, rule.body) if nonempty else sub.ex(rule.body)})"
        self.lines_from(sub)
        return src

    def inline_writer(self, rule, player: X, args) -> Code:
        self.m.inlined += 1
        sub = Code(self.m, self.name, self.unit_name, rule.slot_names, self.framed)
        sub.suffix = f"_{self.m.inlined}"
        sub.level = self.level
        sub.where = self.where
        sub.bound = {0: self.ex(player), **{s: self.ex(a) for s, a in zip(rule.params, args)}}
        sub.hoists = self.hoists
        sub.in_iterable = self.in_iterable
        return sub

    def inline_part(self, call: X, node: X) -> str:
        """``node``, a part of the body of the function ``call`` calls, written
        as it is at that call site (for computing it before a query)."""
        key, player, _event, args = call.a
        sub = self.inline_writer(self.m.checked.functions[key], player, args)
        src = sub.ex(node)
        self.lines_from(sub)
        return src

    def lines_from(self, sub) -> None:
        """Functions a sub-writer split off (deep expressions) already went to the module."""

    def keyed(self, helper: str, xs: X, slot: int, key: X, extra: str, by_key: bool = False) -> str:
        name = self.local(slot, bind=True)
        attrs = fixed_key(self.m, key, slot) if helper == "distinct_by" else None
        if attrs is not None:  # a key of fixed properties only: each component's key read from a column of them
            return f"distinct_of(charged(st, {self.ex(xs)}), {self.key_column(attrs)})"
        def write():
            body = self.key_source(key) if helper == "distinct_by" else self.ex(key)
            if by_key:  # sorted(items, key=...): each key once, in order; a stable sort
                return f"{helper}(charged(st, {self.ex(xs)}), key=lambda {name}: {body})"
            return f"{helper}(charged(st, {self.ex(xs)}), lambda {name}: {body}{extra})"

        return once_per_query(self, slot, key, write)

    def best_each(self, less: bool, xs: X, slot: int, group: X, value: X) -> str:
        """``min_by_group``/``max_by_group``: one pass, each item's group and
        value from one function (a group written as a list is a tuple)."""
        attrs, worth = fixed_key(self.m, group, slot), fixed_key(self.m, value, slot)
        if attrs is not None and worth is not None and value.op == "static":
            # fixed properties only: each item's group and value read from columns, no function per item
            return (f"best_each_of(charged(st, {self.ex(xs)}), {self.key_column(attrs)}, "
                    f"{self.column(worth[0])}, {less})")
        name = self.local(slot, bind=True)

        def write():
            pair = f"({self.key_source(group)}, {self.ex(value)})"
            return f"best_each(charged(st, {self.ex(xs)}), lambda {name}: {pair}, {less})"

        return once_per_query(self, slot, X("list", [group, value]), write)

    def key_source(self, key: X) -> str:
        """A key only compared and hashed: written as a list, it is a tuple."""
        if key.op == "list":
            return "(" + "".join(self.ex(i) + ", " for i in key.a[0]) + ")"
        return self.ex(key)

    def key_column(self, attrs: tuple) -> str:
        """The catalogue's column of each component's key of fixed properties, read once per function."""
        return self.hoisted(f"keys_{len(self.hoists)}", f"st.cat.columns[{attrs!r}]")

    def count_of(self, xs: X, x: X) -> str:
        """``count_of(xs, x)``: charged to the work budget when the list is long."""
        if xs.op in ("local", "var", "param", "const"):
            c = self.ex(xs)
            return f"({c}.count({self.ex(x)}) if len({c}) <= 64 else count_in(st, {c}, {self.ex(x)}))"
        return f"count_in(st, {self.ex(xs)}, {self.ex(x)})"

    def within(self, s: X, k: X, slot, pred) -> str:
        if pred is None:
            return f"within(st, {self.ex(s)}, {self.ex(k)}, None)"
        name = self.local(slot, bind=True)
        return f"within(st, {self.ex(s)}, {self.ex(k)}, lambda {name}: {self.ex(pred)})"

    def hoist(self, x: X) -> str:
        """A part nested too deeply for one Python expression: a function of
        its own, given the locals it reads."""
        from rulebook.validator.ir import walk

        inside, used = set(), []
        for n in walk(x):
            if n.op in LAMBDA_SLOT and n.a[LAMBDA_SLOT[n.op]] is not None:
                inside.add(n.a[LAMBDA_SLOT[n.op]])
            elif n.op == "local" and n.a[0] not in used:
                used.append(n.a[0])
        sub = Code(self.m, self.m.name(f"deep_{self.name}"), self.unit_name, self.slot_names, self.framed)
        sub.bound = dict(self.bound)
        params = ["st"] + (["L"] if self.framed else [])
        params += [self.local(s) for s in used if s not in inside and (s in self.bound or not self.framed)]
        params = list(dict.fromkeys(params))
        sub.line(f"def {sub.name}({', '.join(params)}):", self.where)
        with sub.block():
            sub.line(f"return {sub.ex(x)}", self.where)
        self.m.add(sub)
        return f"{sub.name}({', '.join(params)})"


