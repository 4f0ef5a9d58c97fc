"""Load a compiled module into a ``Program``.

The module's source is compiled by Python under a file name of its own
(``<rulebook:ID:digest>``), so that a traceback through its code can be
mapped back to rule places with the line map; its tables (``UNITS``,
``ACTIONS``, ``META``...) become the program's fields.
"""

from __future__ import annotations

from rulebook.interpreter.program import ActionDef, ComponentType, Program, ZoneFamily

# The line map's key for the ruleset file's path (no module line is 0; places are -1, -2, ...):
# the module's text names no path (compiler/emit_parts.without_file).
SOURCE_LINE = 0


def source_file(ns: dict) -> str:
    """The ruleset file a loaded module was compiled from, from its line map."""
    return str(ns.get("__line_map__", {}).get(SOURCE_LINE, ""))


def places(line_map) -> tuple:
    """The table ``PLACE`` of a compiled module: the rule places its code
    names by number, kept in its line map under the keys -1, -2, ...
    (``compiler.code.Module.source``), since a module holds no path."""
    found = {-1 - k: where for k, where in (line_map.items() if isinstance(line_map, dict) else line_map) if k < 0}
    return tuple(found[k] for k in range(len(found)))


def load_module(source: str, line_map: list, name: str, code=None) -> dict:
    """Run a compiled module (``code``: its code object, when already made)."""
    namespace: dict = {"__name__": f"rulebook_compiled_{abs(hash(name))}", "PLACE": places(line_map)}
    if code is None:
        code = compile(source, name, "exec")
    namespace["__code__"] = code
    exec(code, namespace)  # noqa: S102 - the compiler's own output (see compiler/cache.py for what is trusted)
    namespace["__line_map__"] = dict(line_map)
    namespace["__file_name__"] = name
    return namespace


def start_program_from(ns: dict) -> Program:
    """A program that can only make a game's start (components, zones): what
    the loader's dry run uses (``compiler.module.compile_start``)."""
    meta = ns["META"]
    prog = Program(id=meta["id"], title=meta["title"], version=meta["version"], digest=meta["digest"],
                   variants=tuple(meta["variants"]), min_players=meta["min_players"],
                   max_players=meta["max_players"], source_file=source_file(ns), limits=meta["limits"])
    prog.params = dict(meta["params"])
    prog.defines = list(ns["DEFINES"])
    _types_and_zones(prog, meta, ns)
    return prog


def _types_and_zones(prog: Program, meta: dict, ns: dict) -> None:
    for name, spec in meta["comp_types"].items():
        make, initial, label, status, back, fixed_names = ns["COMPONENTS"][name]
        prog.comp_types[name] = ComponentType(
            name, spec["static"], spec["dynamic"], tuple(spec["public"]), make, initial, label, status,
            spec["board"], spec["glyph"], back, fixed_names,
        )
    for name, spec in meta["families"].items():
        prog.families[name] = ZoneFamily(name, spec["per"], spec["of"], spec["visibility"], spec["face"],
                                         spec["ordered"], spec.get("when_empty"))
    prog.top_piles = any(f.visibility == "top" for f in prog.families.values())


def program_from(ns: dict) -> Program:
    meta = ns["META"]
    prog = Program(
        id=meta["id"],
        title=meta["title"],
        version=meta["version"],
        digest=meta["digest"],
        variants=tuple(meta["variants"]),
        min_players=meta["min_players"],
        max_players=meta["max_players"],
        default_players=meta["default_players"],
        source_file=source_file(ns),
        limits=meta["limits"],
    )
    prog.max_work = meta["limits"]["max_work"]
    prog.params = dict(meta["params"])
    prog.param_choices = meta["param_choices"]
    prog.param_types = meta["param_types"]
    prog.var_types = meta["var_types"]
    prog.pvar_types = meta["pvar_types"]
    prog.secret_pvars = frozenset(meta["secret_pvars"])
    prog.unshown_vars = frozenset(meta["unshown_vars"])
    prog.unshown_zones = frozenset(meta.get("unshown_zones", ()))
    prog.nonzero_vars = frozenset(meta.get("nonzero_vars", ()))
    prog.defines = list(ns["DEFINES"])
    prog.vars = dict(ns["VARS"])
    prog.pvars = dict(ns["PVARS"])
    _types_and_zones(prog, meta, ns)
    prog.run_actions = list(ns["ACTIONS"])
    for act, spec in zip(prog.run_actions, meta["actions"]):
        prog.actions.append(ActionDef(act.name, act.index, spec["params"], spec["param_types"], act.label,
                                     spec.get("param_labels") or spec["params"]))
        prog.action_index[act.name] = act.index
    for trig in ns["TRIGGERS"]:
        prog.triggers.setdefault(trig.event, []).append(trig)
    prog.framed_events = frozenset(ns["FRAMED_EVENTS"])
    prog.events = meta["events"]
    prog.phase_actions = meta["phase_actions"]
    prog.phases = list(meta["phases"])
    prog.start_phase = meta["start_phase"]
    prog.hooks = {tuple(k.split(".", 1)): v for k, v in meta["hooks"].items()}
    prog.check_end = ns["check_end"]
    prog.has_end_rules = ns["HAS_END_RULES"]
    prog.score = ns["SCORE"]
    prog.tie_breaks = list(ns["TIE_BREAKS"])
    prog.score_parts = list(ns["SCORE_PARTS"])
    prog.score_shown = list(ns.get("SCORE_SHOWN", ()))
    prog.var_shown = dict(ns.get("VAR_SHOWN", {}))
    prog.pvar_shown = dict(ns.get("PVAR_SHOWN", {}))
    prog.lowest_wins = meta["lowest_wins"]
    prog.heuristic = ns["HEURISTIC"]
    prog.search = dict(ns.get("SEARCH", {}))
    prog.indexes = tuple(ns.get("INDEXES", ()))
    label = ns["PLAYER_NAME"]
    prog.player_label = label
    prog.units = list(ns["UNITS"])
    prog.unit_ids = dict(ns["UNIT_IDS"])
    prog.unit_locals = dict(ns["UNIT_LOCALS"])
    prog.plain = dict(ns["PLAIN"])
    prog.setup_id = ns["SETUP"]
    prog.asks = dict(ns["ASKS"])
    prog.module = ns
    prog.module_file = ns["__file_name__"]
    prog.line_map = ns["__line_map__"]
    prog.line_maps = {prog.module_file: prog.line_map}
    prog.used_zones = frozenset(meta["used_zones"])
    prog.start_draws = meta["start_draws"]
    prog.ending_units = tuple(meta["ending_units"])
    prog.unit_calls = {u: set(c) for u, c in meta["unit_calls"].items()}
    return prog
