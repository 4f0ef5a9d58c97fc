"""What the checker gives the compiler: rule text with every name resolved.

The checker (``validator/check_*.py``) reads the syntax tree of each piece
of rule text, resolves every name against the ruleset's declarations, checks
types, and writes the meaning as a tree of small nodes: an expression is an
``X`` (an operation and its arguments), a statement an ``S`` (an operation,
the rule's place ``file:line:col`` and its arguments). Names are gone: a
local is a slot number, a variable a key, a zone family a name the catalogue
resolves. The compiler (``compiler/``) turns these trees into Python source,
one emitter per operation; it makes no decision the checker did not make.

The operations and their arguments are listed where they are emitted
(``compiler/emit_expr.py`` and ``compiler/emit_stmt.py``); the checker and the
emitter must agree on them, which tests/unit/test_compiler.py checks by compiling
every construct of docs/language.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulebook.validator.types import Type


class X:
    """An expression: ``op`` and its arguments (values, types, or other ``X``)."""

    __slots__ = ("op", "a", "_depth")

    def __init__(self, op: str, *a):
        self.op = op
        self.a = a
        self._depth = None  # nesting depth, measured by the compiler

    def __repr__(self) -> str:
        return f"X({self.op!r}{''.join(', ' + repr(v) for v in self.a)})"

    def children(self):
        """The sub-expressions, wherever they sit among the arguments."""
        for v in self.a:
            yield from _nodes(v)


class S:
    """A statement: ``op``, where it is written, and its arguments."""

    __slots__ = ("op", "where", "a")

    def __init__(self, op: str, where: str, *a):
        self.op = op
        self.where = where
        self.a = a

    def __repr__(self) -> str:
        return f"S({self.op!r}{''.join(', ' + repr(v) for v in self.a)})"


def _nodes(v):
    if isinstance(v, X):
        yield v
    elif isinstance(v, (tuple, list)):
        for item in v:
            yield from _nodes(item)


def operands(x: X):
    """The expression nodes among ``x``'s operands, in order: an operand that
    is an X, and the X items of an operand that is a tuple (a call's arguments)."""
    for a in x.a:
        if isinstance(a, X):
            yield a
        elif isinstance(a, tuple):
            yield from (b for b in a if isinstance(b, X))


def walk(node):
    """Every expression node under ``node`` (an X, an S, or a block), itself first."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, X):
            yield n
            stack.extend(n.a)
        elif isinstance(n, S):
            stack.extend(n.a)
        elif isinstance(n, (tuple, list)):
            stack.extend(n)


def statements(node):
    """Every statement under ``node`` (a statement, a block or any argument), nested ones too."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, S):
            yield n
            stack.extend(n.a)
        elif isinstance(n, (tuple, list)):
            stack.extend(n)


@dataclass
class Template:
    """A text with pieces filled in: literal strings, and (X, Type) pairs
    named as ``describe`` names a value of that type. ``public``: said to
    everybody, so a piece that reads what a face-down component hides reads
    "[hidden]". ``slots``: the local slots its render function binds to its
    arguments (``self`` of a label, ``p`` of a player's name)."""

    pieces: tuple
    public: bool = False
    slots: tuple = ()
    nlocals: int = 1
    slot_names: dict = field(default_factory=dict)


@dataclass
class Unit:
    """A block of statements that runs as one function: a hook, an action's
    effect, a trigger, a procedure, the setup. ``params``: the slots its
    arguments go to (slot 0 is always ``player``)."""

    name: str
    body: tuple
    nlocals: int
    where: str
    params: tuple = ()
    event_slot: int = -1
    ret_slot: int = -1  # a procedure with 'returns': the local holding the caller's slot for its value


@dataclass
class Expr:
    """An expression evaluated on its own (a condition, a definition), with
    the locals it needs; ``player`` is slot 0."""

    x: X
    nlocals: int
    type: Type | None = None
    slot_names: dict = field(default_factory=dict)


@dataclass
class Checked:
    """A ruleset after every check: its declarations and its rules as
    trees, ready for the compiler. ``meta`` is plain data the running game
    keeps (see ``compiler/meta.py``)."""

    meta: dict
    defines: list = field(default_factory=list)  # (name, Expr)
    vars: dict = field(default_factory=dict)  # name -> Expr or ("value", v)
    pvars: dict = field(default_factory=dict)
    components: dict = field(default_factory=dict)  # type name -> ComponentRules
    units: dict = field(default_factory=dict)  # unit name -> Unit
    functions: dict = field(default_factory=dict)  # (name, variant) -> FunctionRule
    actions: list = field(default_factory=list)  # ActionRule
    phases: list = field(default_factory=list)  # PhaseRule
    triggers: list = field(default_factory=list)  # TriggerRule
    end_rules: list = field(default_factory=list)  # (Expr cond, Expr winners | None, where)
    score: Expr | None = None
    tie_breaks: list = field(default_factory=list)
    score_parts: list = field(default_factory=list)  # (name, Expr): the score's summands, for a breakdown
    score_shown: list = field(default_factory=list)  # (label, Expr): scoring.show, the scoreboard's columns
    var_shown: dict = field(default_factory=dict)  # name -> Expr: a variable's shown_as, the table's words for it
    pvar_shown: dict = field(default_factory=dict)  # the same for player variables (player: its player)
    heuristic: Expr | None = None
    search: dict = field(default_factory=dict)  # bots.search: the MCTS agent's options for this game
    player_label: Template | None = None
    start_phase: str = ""
    setup: str | None = None  # name of the setup unit
    file: str = ""
    slot_names: dict = field(default_factory=dict)  # unit name -> {slot: the rule's name}
    source_lines: list = field(default_factory=list)  # the ruleset's text, for comments in the compiled code


# the key of an ``items`` row that says how many components the row makes (not a property)
ROW_COPIES = "copies"


@dataclass
class ComponentRules:
    name: str
    loops: list  # (var, slot, X | None)
    items: list
    item_keys: list  # (key, slot)
    props: list  # (name, slot, X | None)
    copies: X | None
    count: X | None
    nlocals: int
    initial: dict  # prop -> ("value", v) | ("expr", X, nlocals, {static prop: slot}) | ("none",)
    label: Template | None = None
    back_label: Template | None = None
    status: Template | None = None
    where: str = ""
    slot_names: dict = field(default_factory=dict)
    count_where: str = ""  # the place of the count's value, where a negative one is reported
    copies_where: str = ""  # the place of the copies' value


@dataclass
class FunctionRule:
    name: str
    params: tuple  # slots of the parameters (after player)
    body: X
    nlocals: int
    event_slot: int = -1
    slot_names: dict = field(default_factory=dict)
    param_types: tuple = ()  # the parameters' declared types, in order (what a table of its values is keyed by)


@dataclass
class ActionRule:
    name: str
    index: int
    params: list  # (name, slot, X domain | None)
    cond: X | None
    require: X | None
    label: Template | None
    unit: str  # the effect's unit name
    nlocals: int
    staged: bool = False  # 'staged: true': its parameters are asked one after another


@dataclass
class TurnRule:
    first: Expr | None
    next: Expr | None
    on_begin: str | None
    on_end: str | None
    end_if: Expr | None
    time_limit: Expr | None
    on_time_out: str | None
    repeat: bool
    actions: list  # action indexes
    where_first: str
    where_head: str
    where_actions: str
    where_repeat: str
    where_next: str


@dataclass
class PhaseRule:
    name: str
    where: str
    on_begin: str | None
    on_end: str | None
    end_if: Expr | None
    turn: TurnRule | None
    transitions: list  # (Expr | None, target phase name)
    where_on_begin: str
    where_on_end: str
    where_next: str
    has_turns: bool
    where_loop: str = ""  # where a loop of phases without decisions is reported (the phase's 'next')


@dataclass
class TriggerRule:
    name: str
    event: str
    cond: X | None
    unit: str
    event_slot: int
    nlocals: int
