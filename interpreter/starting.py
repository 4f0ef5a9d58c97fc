"""A game's state before its setup runs: the parameters checked and
merged, the definitions computed, the components and zones made (the
catalog), and every variable at its starting value. ``Game.new`` starts
each game from here (or from a kept copy when no draw precedes the
setup); the validator's dry run builds only the catalog.
"""

from __future__ import annotations

import json

from rulebook.interpreter import indexes, ops, rng
from rulebook.interpreter.errors import RuleError
from rulebook.interpreter.labels import literal
from rulebook.interpreter.program import Catalog, Program
from rulebook.interpreter.state import State
from rulebook.validator.types import WHOLE, compatible, literal_type

OWNED_BY_KEY = -2  # a zone kept per component: its owner is that component's owner


def start_state(prog: Program, catalogs: dict, n: int, params: dict | None, seed: int, chance: tuple = ()) -> State:
    """A game's state before its setup: parameters, definitions,
    components, zones and variables at their starting values. ``catalogs``
    keeps the components and zones made for each setting (immutable, so
    shared by every game with the same settings)."""
    st = prog.state_type.__new__(prog.state_type)
    st.prog = prog
    st.n = n
    merged = dict(prog.params)
    for k, v in (params or {}).items():
        if k not in prog.params:
            raise RuleError("E036", f"unknown parameter '{k}'")
        want = prog.param_types.get(k)
        got = literal_type(v)
        if (want is not None and v is not None and not compatible(want, got)) or got.kind == "fraction":
            raise RuleError("E063", f"parameter '{k}' is {want or 'a whole number'}, not {literal(v)}",
                            hint=WHOLE if got.kind == "fraction" else None)
        choices = prog.param_choices.get(k)
        if choices and v not in choices:
            raise RuleError("E063", f"parameter '{k}' must be one of {literal(choices)}, not {literal(v)}")
        merged[k] = v
    for k, want in prog.param_types.items():  # a player is one of this game's seats (or none)
        v = merged.get(k)
        if want.kind == "player" and v is not None and not (type(v) is int and 0 <= v < n):
            raise RuleError("E063", f"parameter '{k}' is a player: a seat from 0 to {n - 1}, not {literal(v)}")
    st.params = merged
    st.record = st.quiet = st.track = False
    st.auto, st.lost, st.memo = None, (), None
    st.events = []
    st.rng = rng.seed_state(seed)
    st.script = tuple(chance)
    st.seed = seed
    st.work = 0
    st.vars = {}
    st.eliminated = [False] * n
    st.current = None
    st.loops = st.depth = 0
    try:
        for name, fn in prog.defines:
            merged[name] = fn(st)
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError) as err:
        raise RuleError(
            "R104", f"a definition failed with these parameters ({type(err).__name__}: {err})"
        ) from None
    key = (n, json.dumps(merged, sort_keys=True, default=str))
    cat = catalogs.get(key)
    if cat is None:  # immutable, so shared by every game with the same settings
        try:
            cat = catalogs[key] = build_catalog(st)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError) as err:
            raise RuleError("R104", f"the components cannot be made ({type(err).__name__}: {err})",
                            prog.source_file, "a component's properties can only use parameters, "
                            "definitions and its own values, not zones or variables") from None
        if len(catalogs) > 64:
            catalogs.pop(next(iter(catalogs)))
    st.cat = cat
    st.static = st.cat.static
    cat = st.cat
    st.zones = [[] for _ in cat.zone_family]
    st.extra_zones = []  # [family, component] of zones made for components created in play
    st.loc = [ops.BOX] * cat.n
    st.face = [True] * cat.n
    st.owner = [None] * cat.n
    st.known = {}
    st.props = []
    for c in range(cat.n):
        ct = prog.comp_types[cat.types[c]]
        st.props.append({k: f(st, cat.static[c]) for k, f in ct.initial.items()} if ct.dynamic else None)
    st.index = indexes.build(st) if prog.indexes else {}
    st.vars = {"direction": 1}
    for name, fn in prog.vars.items():
        st.vars[name] = fn(st)
    st.pvars = []
    for p in range(n):
        st.current = p
        st.pvars.append({name: fn(st) for name, fn in prog.pvars.items()})
    st.current = None
    st.phase = ""
    st.end_turn = st.end_phase = False
    st.pass_to = None
    st.pending = None
    st.over = False
    st.winners = []
    st.history = []
    st.turn = 0
    st.since_decision = 0
    st.work = 0
    st.stack = []
    return st


def catalog_only(prog: Program, players: int) -> Catalog:
    """Build the components and zones of a game without starting it (the
    validator's dry run)."""
    st = prog.state_type.__new__(prog.state_type)
    st.prog, st.n, st.params, st.record, st.events = prog, players, dict(prog.params), False, []
    st.quiet = st.track = False
    st.auto, st.lost, st.memo = None, (), None
    st.rng, st.vars, st.eliminated, st.current = rng.seed_state(0), {}, [False] * players, None
    st.work = st.loops = st.depth = 0
    st.script = ()
    for name, fn in prog.defines:
        st.params[name] = fn(st)
    return build_catalog(st)


def build_catalog(st: State) -> Catalog:
    prog = st.prog
    types, static, by_type = [], [], {}
    for name, ct in prog.comp_types.items():
        rows = ct.generate(st) if ct.generate else [{}]
        ids = by_type.setdefault(name, [])
        for row in rows:
            ids.append(len(types))
            types.append(name)
            static.append(row)
        if len(types) > prog.limits["max_components"]:
            raise RuleError("R107", f"more than {prog.limits['max_components']} components")
    ordinal = [0] * len(types)
    for ids in by_type.values():
        for i, c in enumerate(ids):
            ordinal[c] = i
    zone_base, zone_family, zone_key, zone_names = {}, [], [], []
    for name, fam in prog.families.items():
        zone_base[name] = len(zone_family)
        if fam.per is None:
            keys = [None]
        elif fam.per == "player":
            keys = list(range(st.n))
        else:
            keys = list(by_type.get(fam.per, []))
        for k in keys:
            zone_family.append(name)
            zone_key.append(k)
            zone_names.append(name if k is None else f"{name}[{k}]")
        if len(zone_family) > prog.limits["max_zones"]:
            raise RuleError("R107", f"more than {prog.limits['max_zones']} zones")
    from rulebook.interpreter import boards

    cat = Catalog(len(types), types, static, by_type, ordinal, zone_base, zone_family, zone_key, zone_names)
    for name, fam in prog.families.items():
        if fam.per not in (None, "player"):
            base = zone_base[name]
            cat.zone_of_comp[name] = {c: base + i for i, c in enumerate(by_type.get(fam.per, []))}
    cat.zone_player = [  # who owns each zone: a seat, none, or OWNED_BY_KEY (the owner of its component)
        None if prog.families[f].per is None else k if prog.families[f].per == "player" else OWNED_BY_KEY
        for f, k in zip(zone_family, zone_key)
    ]
    for name, ct in prog.comp_types.items():
        if ct.board:
            cat.boards[name] = boards.build(ct.board, by_type.get(name, []), static)
    cat.adjacent = [None] * len(types)
    cat.distances = [None] * len(types)
    for board in cat.boards.values():
        for space in board.ids:
            cat.adjacent[space] = list(board.adj.get(space, ()))
    return cat
