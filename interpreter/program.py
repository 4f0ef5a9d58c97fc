"""What a compiled ruleset is to the running engine: a ``Program``.

A program is the module the compiler wrote for one ruleset and its
variants (``compiler/``), loaded: the functions of its rules, and the plain
data (names, types, visibility) the engine needs beside them. It is built
once and shared by every game played with it; a ``Catalog`` (the
components and zones of one game) is built once per player count and
parameters, since components are generated from both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, NamedTuple

from rulebook.interpreter.state import State
from rulebook.validator.types import (  # noqa: F401 - the names the engine and tools use
    ANY,
    BOOL,
    COMP,
    INT,
    LIST,
    MAP,
    NONE,
    PLAYER,
    STR,
    ZONE,
    Type,
    compatible,
    elem_type,
    is_listy,
    join,
)

# The answer stored for a turn's action menu when its time limit ran out
# (``Game.time_out``); plain data, so a state holding it still saves as JSON.
TIMED_OUT = -1


class Action(NamedTuple):
    """One action of the ruleset, as the compiled module gives it: its
    effect as a plain function ``run(st, player, *args)`` (None when the
    effect can stop at a decision: then ``frame(player, args)`` makes its
    frame), and its parts on their own, for messages and labels."""

    name: str
    index: int
    run: Callable | None
    frame: Callable
    cond: Callable | None  # (st, player) -> bool
    domains: list  # [(st, player, *earlier params) -> list]
    require: Callable | None  # (st, player, *params) -> bool
    label: Callable | None  # (st, player, *params) -> str


class Trigger(NamedTuple):
    name: str
    event: str
    cond: Callable | None  # (st, player, event fields) -> bool
    run: Callable | None  # (st, player, event fields): the effect, when it cannot stop
    unit: int  # the frame id of its effect
    nlocals: int
    event_slot: int
    where: str


def _frame(player, slots, args, nlocals) -> list:
    """An action's frame locals: the player, then its parameters in their slots."""
    L = [player] + [None] * (nlocals - 1)
    for s, v in zip(slots, args):
        L[s] = v
    return L


def _value(v):
    return lambda st: v


@dataclass
class ComponentType:
    name: str
    static: dict[str, Type] = field(default_factory=dict)
    dynamic: dict[str, Type] = field(default_factory=dict)
    public: tuple[str, ...] = ()
    generate: Callable | None = None  # (st) -> list of static prop dicts
    initial: dict[str, Callable] = field(default_factory=dict)  # dynamic prop -> (st, props) -> value
    label: Callable | None = None  # (st, comp) -> str
    status: Callable | None = None  # (st, comp) -> str: shown beside the name on the table
    board: dict | None = None  # the type's components are board spaces (see interpreter.boards)
    glyph: str | None = None  # how a piece is drawn on a terminal map
    back_label: Callable | None = None  # names a face-down component to someone who cannot see it
    fixed_names: bool = False  # label and back label read only what never changes: named once per catalogue


@dataclass
class ZoneFamily:
    name: str
    per: str | None  # None (one shared zone), "player", or a component type name
    of: str | None  # component type held, if declared
    visibility: str  # public | owner | hidden | top (a face-up pile: only the top component is face up)
    face: str  # default face of components entering: up | down
    ordered: bool
    # what a draw or deal does from one of its zones when it is empty (interpreter/drawing.py): None (not
    # declared: nothing, and rulebook check is told), "nothing", "error" or {"refill_from": family, "shuffle": bool}
    when_empty: str | dict | None = None


@dataclass
class ActionDef:
    name: str
    index: int
    params: list[str]
    param_types: list
    label: Callable | None  # (st, player, *args) -> str
    # what names each parameter where a stage asks it or shows it chosen (param_labels, default its name)
    param_labels: list[str] = field(default_factory=list)


class Columns(dict):
    """Fixed properties by name, each a tuple of its value by component id,
    built from ``rows`` the first time a rule reads it (a tuple of names:
    each component's key of those properties, for ``distinct_by``, as an
    int that components with equal keys share); a
    property a row lacks reads none there (rules read it only from components that have
    it). A catalogue's columns come from its rows. A determinized sample,
    whose rows are dealt out again, gets columns of its own rows: given the
    columns it was dealt from (``base``) and where each of its rows lay
    there (``where``: ``rows[c] is base.rows[where[c]]``), a column is the
    base's read in that order, built once in the catalogue for all samples;
    or the base's own column, where ``kept[name]`` says the dealing cannot
    change it (each group of exchanged rows has one value there)."""

    def __init__(self, rows: list, base: Columns | None = None, where: list | None = None, kept=None):
        super().__init__()
        self.rows = rows
        self.base = base
        self.where = where
        self.kept = kept
        self.read = None  # itemgetter(*where): a base column in this order, as a tuple, in one call
        self.tables: dict = {}  # function -> its values by arguments, for these rows (interpreter/tables.py)

    def __missing__(self, name):
        if self.base is not None:
            column = self.base[name]
            if self.kept is None or not self.kept[name]:
                if self.read is None:
                    where = self.where
                    self.read = itemgetter(*where) if len(where) > 1 else lambda col: tuple(col[k] for k in where)
                column = self.read(column)
        elif name.__class__ is tuple:  # several properties: each component's key of them, as a small int
            ids: dict = {}  # (rules only compare these keys: an int hashes faster than a tuple)
            column = tuple(ids.setdefault(_key(tuple(row.get(n) for n in name)), len(ids)) for row in self.rows)
        else:
            column = tuple(row.get(name) for row in self.rows)
        self[name] = column
        return column


def _key(value: tuple):
    """A tuple of values as a set holds it: lists (at any depth) as tuples
    (as ``lib.hashable`` makes the keys of ``distinct_by``)."""
    from rulebook.interpreter.lib import hashable

    return hashable(value)


@dataclass
class Catalog:
    """Per-game, immutable: components and zone instances."""

    n: int
    types: list[str]  # component id -> type name
    static: list[dict]  # component id -> static props
    by_type: dict[str, list[int]]
    ordinal: list[int]  # component id -> index among components of its type
    zone_base: dict[str, int]  # family -> first zone instance
    zone_family: list[str]  # zone instance -> family name
    zone_key: list[Any]  # zone instance -> player, component id or None
    zone_names: list[str]
    boards: dict = field(default_factory=dict)  # component type -> Board
    # family kept per component -> {component: zone}: a plain dict, which compiled rules index directly
    # (a dict subclass's lookup goes through dict.__getitem__ by Python's calling protocol, which costs more
    # in bytecode and more still in native code); a miss is
    # a KeyError that the run loop turns into the rule's error (interpreter/run.py)
    zone_of_comp: dict = field(default_factory=dict)
    zone_player: list = field(default_factory=list)  # zone -> its owner: a seat, None, or -2 (its component's)
    adjacent: list = field(default_factory=list)  # component -> its neighbours on its board (None: not a space)
    # component -> its distance to each component (None: not on its board), filled on first use (lib.distance);
    # a determinized sample's copy shares it, as it shares the boards
    distances: list = field(default_factory=list)
    columns: dict = field(default_factory=dict)  # static property -> a tuple of its value by component id
    family_zones: dict = field(default_factory=dict)  # zone family -> its zones (lib.components_in fills it)
    # id(a component's fixed row) -> (the row, its label), for labels made of fixed properties only
    # (labels.comp_name): shared by a determinized sample's copy, which deals the same rows anew
    names: dict = field(default_factory=dict)
    backs: dict = field(default_factory=dict)  # the same for back labels (labels.back_name)

    def __post_init__(self):
        """Each fixed property as a column, for compiled rules that read it
        by component number (``value[c]`` instead of ``static[c]["value"]``)."""
        self.columns = Columns(self.static)


@dataclass
class Program:
    """A compiled ruleset: shared by every game played with it."""

    id: str
    title: str
    version: str
    digest: str
    variants: tuple[str, ...]
    min_players: int
    max_players: int
    default_players: int = 0
    param_choices: dict = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)  # defaults
    param_types: dict[str, Type] = field(default_factory=dict)
    defines: list[tuple[str, Callable]] = field(default_factory=list)  # (name, (st) -> value)
    vars: dict[str, Callable] = field(default_factory=dict)  # name -> initial value (st) -> value
    var_types: dict[str, Type] = field(default_factory=dict)
    pvars: dict[str, Callable] = field(default_factory=dict)
    pvar_types: dict[str, Type] = field(default_factory=dict)
    secret_pvars: frozenset = frozenset()
    unshown_vars: frozenset = frozenset()  # vars and player vars with 'show: false': not drawn on the table
    nonzero_vars: frozenset = frozenset()  # 'show: nonzero': drawn only while not 0, false or empty
    unshown_zones: frozenset = frozenset()  # zone families with 'show: false': not drawn on the table
    comp_types: dict[str, ComponentType] = field(default_factory=dict)
    families: dict[str, ZoneFamily] = field(default_factory=dict)
    top_piles: bool = False  # some family has visibility 'top': moves keep its tops face up
    # rulebook check sets it to listen: the place of each draw or deal that met empty a zone whose family
    # declares no when_empty -> that family (interpreter/drawing.py); None: nobody listens
    empty_draws: dict | None = None
    actions: list[ActionDef] = field(default_factory=list)
    action_index: dict[str, int] = field(default_factory=dict)
    triggers: dict[str, list[Trigger]] = field(default_factory=dict)
    framed_events: frozenset = frozenset()  # events whose triggers run as frames (they can stop at a decision)
    events: dict[str, dict[str, Type]] = field(default_factory=dict)
    phase_actions: dict[str, list[int]] = field(default_factory=dict)
    check_end: Callable | None = None  # (st) -> bool: the end rules, tried before every decision
    has_end_rules: bool = False
    indexes: tuple = ()  # (type, changing property) pairs kept by value for queries (interpreter/indexes.py)
    score: Callable | None = None  # (st, player) -> int
    tie_breaks: list[Callable] = field(default_factory=list)
    score_parts: list = field(default_factory=list)  # (name, (st, player) -> int): the score's summands
    score_shown: list = field(default_factory=list)  # (label, (st, player) -> int): scoring.show
    var_shown: dict = field(default_factory=dict)  # name -> (st, player) -> str: a variable's shown_as
    pvar_shown: dict = field(default_factory=dict)  # name -> (st, player) -> str, player: the variable's player
    lowest_wins: bool = False
    heuristic: Callable | None = None  # bots.heuristic: (st, player) -> int
    search: dict = field(default_factory=dict)  # bots.search: the MCTS agent's options for this game
    phases: list[str] = field(default_factory=list)
    hooks: dict = field(default_factory=dict)  # (phase, hook) -> unit name, for graphs and docs
    start_phase: str = ""
    graph: Any = None  # the phase graph (validator.graph), made from the document when first asked for
    unit_calls: dict = field(default_factory=dict)  # unit -> the procedures it calls (for the graph)
    player_label: Callable | None = None
    source_file: str = ""
    limits: dict[str, int] = field(default_factory=dict)
    max_work: int = 2_000_000  # limits["max_work"], read by every query
    units: list[Callable] = field(default_factory=list)  # frame id -> the function that runs a frame
    unit_ids: dict[str, int] = field(default_factory=dict)
    unit_locals: dict[str, int] = field(default_factory=dict)
    plain: dict[str, Callable] = field(default_factory=dict)  # unit name -> its plain function
    setup_id: int | None = None
    start_draws: bool = False  # a game's start draws at random (it is made again for each game)
    asks: dict = field(default_factory=dict)  # (unit id, answer pc) -> the rule that asks, file:line:col
    run_actions: list = field(default_factory=list)  # the compiled Action tuples
    module: dict = field(default_factory=dict)  # the compiled module's namespace
    source: str = ""  # the compiled module's source (rulebook --debug writes it)
    module_file: str = ""  # the name tracebacks give the compiled module
    line_map: dict = field(default_factory=dict)  # compiled line -> rule place file:line:col
    line_maps: dict = field(default_factory=dict)  # compiled module name -> its line map (scenarios add theirs)
    compile_info: dict | None = None  # what the compiler knew (kept when compiled from source, for scenarios)
    used_zones: frozenset = frozenset()  # zone families that some rule of the chosen variants names
    ending_units: tuple = ()  # names of the rule units that contain 'end game' (for explain and graphs)
    checker: Any = None  # the checker, kept when compiled from source: scenarios check rule text with it
    document: Any = None  # the loaded Document with the variants applied, or a function that loads it
    native: bool = False  # the module runs as native code (compiler.native)
    state_type: type = State  # what a game's state is made of: native code has its own, typed (compiler.native)

    @property
    def doc(self):
        """The ruleset document with its variants applied (positions of every
        key, for messages); loaded on first use for a program from the cache."""
        if callable(self.document):
            self.document = self.document()
        return self.document

    @property
    def phase_graph(self):
        if self.graph is None and self.doc is not None:
            from rulebook.validator.graph import check

            self.graph, _ = check(self.doc, set(self.ending_units), self.unit_calls)
        return self.graph

    @phase_graph.setter
    def phase_graph(self, value) -> None:
        self.graph = value

    @property
    def data(self) -> dict:
        """The ruleset's data with its variants applied."""
        doc = self.doc
        return doc.data if doc is not None and isinstance(doc.data, dict) else {}
