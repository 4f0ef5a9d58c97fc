"""What a ruleset compiles into: static types, code objects and the
component catalogue.

A ``Program`` is built once per ruleset (and variant set) and shared by every
game played with it; a ``Catalog`` is built once per game from the program,
the player count and the parameters (component generation depends on both).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


# ----------------------------------------------------------------- types
@dataclass(frozen=True, slots=True)
class Type:
    """A static type: kind is one of int, bool, str, none, player, comp,
    zone, family, list, map, any. ``arg`` is the component type for comp,
    zone and family (None: any type), or the element type for list."""

    kind: str
    arg: Any = None

    def __str__(self) -> str:
        if self.kind == "list":
            return f"list of {self.arg}"
        if self.kind in ("comp", "zone", "family") and self.arg:
            return f"{self.kind} of {self.arg}" if self.kind != "comp" else str(self.arg)
        return {"comp": "component", "family": "zone family"}.get(self.kind, self.kind)


INT = Type("int")
BOOL = Type("bool")
STR = Type("str")
NONE = Type("none")
PLAYER = Type("player")
ANY = Type("any")
# The answer stored for a turn's action menu when its time limit ran out
# (``Game.time_out``); plain data, so a state holding it still saves as JSON.
TIMED_OUT = -1
MAP = Type("map")


def COMP(t: str | None = None) -> Type:
    return Type("comp", t)


def ZONE(t: str | None = None) -> Type:
    return Type("zone", t)


def LIST(t: Type = ANY) -> Type:
    return Type("list", t)


ERR = Type("error")  # the type of something that failed to compile: accepted anywhere, so one
# mistake gives one diagnostic, not a cascade


def is_listy(t: Type) -> bool:
    return t.kind in ("list", "zone", "any", "error")


def elem_type(t: Type) -> Type:
    if t.kind == "list":
        return t.arg
    if t.kind == "zone":
        return COMP(t.arg)
    if t.kind == "error":
        return ERR
    return ANY


def compatible(want: Type, got: Type) -> bool:
    if want.kind in ("any", "error") or got.kind in ("any", "error"):
        return True
    if {want.kind, got.kind} == {"int", "player"}:
        return True  # players are seat numbers
    if got.kind == "none":
        return want.kind in ("comp", "player", "none", "str", "int", "list")  # optional values
    if want.kind == got.kind:
        if want.kind in ("comp", "zone") and want.arg and got.arg:
            return want.arg == got.arg
        if want.kind == "list":
            return compatible(want.arg, got.arg)
        return True
    if want.kind == "list" and got.kind == "zone":
        return compatible(want.arg, COMP(got.arg))
    if want.kind == "int" and got.kind == "bool":
        return False
    return False


def join(a: Type, b: Type) -> Type:
    """The type of a value that is either an ``a`` or a ``b``."""
    if a == b or b.kind == "none":
        return a
    if a.kind == "none":
        return b
    if a.kind == b.kind == "comp":
        return COMP(a.arg if a.arg == b.arg else None)
    if a.kind == b.kind == "list":
        return LIST(join(a.arg, b.arg))
    return ANY


# ----------------------------------------------------------------- code
@dataclass
class Code:
    """One compiled block: a flat list of instructions with jumps.

    An instruction is a callable ``ins(st, frame)`` that returns None to go
    on, or a control signal (see ``interpreter.vm``). ``where[pc]`` is the
    file position of instruction ``pc``, for runtime errors.
    """

    name: str
    ins: list[Callable] = field(default_factory=list)
    where: list[str] = field(default_factory=list)
    nlocals: int = 1
    id: int = -1


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


@dataclass
class ZoneFamily:
    name: str
    per: str | None  # None (one shared zone), "player", or a component type name
    of: str | None  # component type held, if declared
    visibility: str  # public | owner | hidden | top (a face-up pile: only the top component is face up)
    face: str  # default face of components entering: up | down
    ordered: bool
    capacity: Callable | None = None


@dataclass
class ActionDef:
    name: str
    index: int
    code: Code
    params: list[tuple[str, int, Callable]]  # (name, local slot, domain (st, L) -> list)
    cond: Callable | None
    require: Callable | None
    label: Callable | None
    who: Callable | None = None
    param_types: list = field(default_factory=list)


@dataclass
class TriggerDef:
    event: str
    code: Code
    cond: Callable | None
    event_slot: int
    name: str


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
    zone_of_comp: dict = field(default_factory=dict)  # family kept per component -> {component: zone}


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
    define_locals: int = 1
    codes: list[Code] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)  # defaults
    param_types: dict[str, Type] = field(default_factory=dict)
    defines: list[tuple[str, Callable]] = field(default_factory=list)
    vars: dict[str, Callable] = field(default_factory=dict)  # name -> initial value (st) -> value
    var_types: dict[str, Type] = field(default_factory=dict)
    pvars: dict[str, Callable] = field(default_factory=dict)
    pvar_types: dict[str, Type] = field(default_factory=dict)
    secret_pvars: frozenset = frozenset()
    unshown_vars: frozenset = frozenset()  # vars and player vars with 'show: false': not drawn on the table
    comp_types: dict[str, ComponentType] = field(default_factory=dict)
    families: dict[str, ZoneFamily] = field(default_factory=dict)
    top_piles: bool = False  # some family has visibility 'top': moves keep its tops face up
    actions: list[ActionDef] = field(default_factory=list)
    action_index: dict[str, int] = field(default_factory=dict)
    triggers: dict[str, list[TriggerDef]] = field(default_factory=dict)
    events: dict[str, dict[str, Type]] = field(default_factory=dict)
    flow: Code | None = None
    phase_actions: dict[str, list[int]] = field(default_factory=dict)
    end_rules: list[tuple[Callable, Callable | None, str]] = field(default_factory=list)
    score: Callable | None = None
    tie_breaks: list[Callable] = field(default_factory=list)
    score_locals: int = 8
    lowest_wins: bool = False
    heuristic: Callable | None = None  # bots.heuristic: (state, locals) -> int, 'player' in slot 0
    heuristic_locals: int = 1
    setup: Code | None = None
    phases: list[str] = field(default_factory=list)
    hooks: dict = field(default_factory=dict)  # (phase, hook) -> Code, for graphs and docs
    start_phase: str = ""
    phase_graph: Any = None
    player_label: Callable | None = None
    source_file: str = ""
    limits: dict[str, int] = field(default_factory=dict)
    compiler: Any = None
    data: dict = field(default_factory=dict)  # the ruleset document with its variants applied
    doc: Any = None  # its loaded Document: positions of every key, for messages
    used_zones: frozenset = frozenset()  # zone families that some rule of the chosen variants names
    ending_units: tuple = ()  # names of the rule units that contain 'end game' (for explain and graphs)

    def add_code(self, code: Code) -> Code:
        code.id = len(self.codes)
        self.codes.append(code)
        return code
