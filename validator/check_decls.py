"""Check the declarations of a ruleset: parameters and definitions,
component types, zones, variables, events, functions and procedures, and
the rule text that belongs to them (how components are made, labels,
initial values). Every rule text elsewhere is resolved against these.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulebook.validator.check_expr import BUILTIN_NAMES, CheckError, Cx
from rulebook.validator.diagnostics import did_you_mean
from rulebook.validator.ir import ROW_COPIES, Expr, FunctionRule, X
from rulebook.validator.scope import Locals, Scope
from rulebook.validator.types import (
    ANY,
    BOOL,
    COMP,
    FRACTION,
    NONE,
    STR,
    WHOLE,
    Type,
    article,
    compatible,
    join,
    literal_type,
    parse_type,
)
from rulebook.validator.values import literal
from rulebook.validator.when_empty import checked_when_empty

PHASE_EVENTS = ("phase_begin", "phase_end")  # fired by the flow itself, with the phase's name
BUILTIN_EVENTS = {
    "moved": {"component": COMP(None), "from_zone": Type("zone"), "to_zone": Type("zone")},
}


@dataclass
class ComponentDecl:
    name: str
    static: dict = field(default_factory=dict)  # fixed property -> Type
    dynamic: dict = field(default_factory=dict)  # changing property -> Type
    public: tuple = ()
    board: dict | None = None
    glyph: str | None = None


@dataclass
class ZoneDecl:
    name: str
    per: str | None  # None (one shared zone), "player", or a component type name
    of: str | None
    visibility: str  # public | owner | hidden | top
    face: str  # up | down
    ordered: bool
    when_empty: str | dict | None = None  # what a draw from it does when it is empty (validator/when_empty.py)


def reserved_names(ck):
    """Names starting with '_' are reserved (never readable in rule text)."""
    sections = ("params", "define", "vars", "player_vars", "zones", "events", "functions", "procedures",
                "actions", "phases", "components", "triggers", "end")
    for section in sections:
        for name, spec in (ck.data.get(section) or {}).items():
            if str(name).startswith("_"):
                ck.report("E014", f"'{name}': names starting with '_' are reserved", (section, name), key=True)
            if section == "events" and isinstance(spec, dict):
                for fname in spec:
                    if str(fname).startswith("_"):
                        ck.report("E014", f"'{fname}': names starting with '_' are reserved",
                                  (section, name, fname), key=True)
            if section in ("procedures", "functions") and isinstance(spec, dict):
                for param in spec.get("params") or {}:
                    if str(param).startswith("_"):
                        ck.report("E014", f"'{param}': names starting with '_' are reserved",
                                  (section, name, "params", param), key=True)
            if section == "components" and isinstance(spec, dict):
                for part in ("for_each", "props", "state"):
                    for prop in spec.get(part) or {}:
                        if str(prop).startswith("_"):
                            ck.report("E014", f"'{prop}': names starting with '_' are reserved",
                                      (section, name, part, prop), key=True)


def builtin_clash(ck, section: str, name) -> bool:
    """A name the language already gives (``player_count``, ``top``...):
    rule text would always mean the built-in one, so the author's would
    be silently ignored."""
    from rulebook.dsl.parser import STATEMENT_WORDS, VALUE_WORDS

    callable_ = section in ("functions", "procedures")
    for taken, why in (
        (VALUE_WORDS, "is a word of the language: rule text would never read it as a name"),
        (STATEMENT_WORDS if section == "procedures" else (), "begins a statement: a call would never reach it"),
        (BUILTIN_NAMES, "is a built-in name: rule text would never see this one"),
        (ck.builtins if callable_ else (), "is a built-in function: a call would never reach this one"),
    ):
        if name in taken:
            ck.report("E043", f"'{name}' {why}", (section, name), key=True, hint="choose another name")
            return True
    return False


def already(ck, name) -> str | None:
    """What ``name`` already names, with its line: 'a zone (line 8)'."""
    for section, what in (("zones", "a zone"), ("params", "a parameter"), ("define", "a definition"),
                          ("vars", "a variable"), ("player_vars", "a player variable")):
        if name in (ck.data.get(section) or {}):
            return f"{what} (line {ck.doc.where((section, name), key=True)[0]})"
    return None


def declare_params(ck):
    for name, spec in (ck.data.get("params") or {}).items():
        builtin_clash(ck, "params", name)
        default = spec.get("default") if isinstance(spec, dict) else spec
        ck.params[name] = default
        t = literal_type(default)
        if isinstance(spec, dict) and "type" in spec:
            declared = parse_type(spec["type"], {})
            if declared is None:
                ck.report(
                    "E041",
                    f"unknown type '{spec['type']}'",
                    ("params", name, "type"),
                    hint="types: int, bool, str, player, any, 'list of ...'",
                )
            elif default is not None and not compatible(declared, literal_type(default)):
                ck.report("E063", f"default {literal(default)} is not {article(declared)}",
                          ("params", name, "default"), hint=WHOLE if t == FRACTION else None)
            t = declared or t
        elif t == FRACTION:
            ck.report("E063", f"parameter '{name}': {literal(default)} is a fraction",
                      ("params", name, "default") if isinstance(spec, dict) else ("params", name), hint=WHOLE)
        if isinstance(spec, dict) and spec.get("choices"):
            ck.param_choices[name] = list(spec["choices"])
        if isinstance(spec, dict) and spec.get("choices") and default not in spec["choices"]:
            ck.report("E063", f"default {literal(default)} is not one of the choices",
                      ("params", name, "default"))
        ck.param_types[name] = t
    scope = ck.scratch("define")
    zones = ck.data.get("zones") or {}
    for name in ck.data.get("define") or {}:  # each definition sees the ones before it
        builtin_clash(ck, "define", name)
        if name in ck.param_types:
            ck.report("E043", f"'{name}' is already a parameter", ("define", name), key=True)
        elif name in zones:
            ck.report("E043", f"'{name}' is already {already(ck, name)}", ("define", name), key=True,
                      hint="rename one of them")
            continue  # the zone keeps its name: uses of it are not reported again
        x, t = ck.check_expr_at(("define", name), scope)
        ck.param_types[name] = t
        if x is not None:
            ck.out.defines.append((name, Expr(x, scope.unit.nlocals, slot_names=scope.unit.names)))


def declare_components(ck):
    for name, spec in (ck.data.get("components") or {}).items():
        ct = ComponentDecl(name)
        for key in spec.get("for_each") or {}:
            ct.static[key] = ANY
        for row in spec.get("items") or []:
            if isinstance(row, dict):
                for key, value in row.items():
                    if key == ROW_COPIES:
                        continue  # how many of this row: not a property
                    ct.static[key] = join(ct.static.get(key, NONE), literal_type(value))
        for key in spec.get("props") or {}:
            ct.static[key] = ANY
        for key in ct.static:
            if ct.static[key] == NONE:
                ct.static[key] = ANY
        ct.public = tuple(spec.get("public") or ())
        ct.board = spec.get("board")
        ct.glyph = spec.get("glyph")
        ck.comp_types[name] = ct
    for name, spec in (ck.data.get("components") or {}).items():
        ct = ck.comp_types[name]
        for key, init in (spec.get("state") or {}).items():
            t = None
            if isinstance(init, dict) and "show" in init:
                ck.report("E012", "'show' is for variables; a component shows what its label and status say",
                          ("components", name, "state", key, "show"), key=True,
                          hint="add it to the type's status: \"{self." + str(key) + "}\"")
            if isinstance(init, dict) and "type" in init:
                t = parse_type(init["type"], ck.comp_types)
                if t is None:
                    ck.report(
                        "E041", f"unknown type '{init['type']}'", ("components", name, "state", key, "type")
                    )
            ct.dynamic[key] = t or ANY
            if key in ct.static:
                ck.report(
                    "E043",
                    f"'{key}' is both a fixed and a changing property of '{name}'",
                    ("components", name, "state", key),
                    key=True,
                )
        if ct.board:
            needed = ("col", "row") if ct.board.get("grid") in ("hex", "square") else (ct.board.get("key", "name"),)
            for prop in needed:
                if prop not in ct.static:
                    ck.report(
                        "E032",
                        f"a {ct.board.get('grid')} board needs the fixed property '{prop}' "
                        f"on its spaces ('{name}')",
                        ("components", name, "board"),
                        hint="for_each: {col: range(w), row: range(h)}" if prop in ("col", "row") else None,
                    )
            check_axes(ck, name, ct.board)
            check_board_per(ck, name, ct)
        for prop in ct.public:
            if prop not in ct.static and prop not in ct.dynamic:
                ck.report(
                    "E032",
                    f"'{name}' has no property '{prop}' to show on its back",
                    ("components", name, "public"),
                    hint=did_you_mean(prop, list(ct.static) + list(ct.dynamic)),
                )


def declare_zones(ck):
    for name, spec in (ck.data.get("zones") or {}).items():
        spec = spec or {}
        per = spec.get("per")
        if per not in (None, "player") and per not in ck.comp_types:
            ck.report(
                "E039",
                f"zones can be kept one per player or one per component type; '{per}' is neither",
                ("zones", name, "per"),
                hint=did_you_mean(str(per), list(ck.comp_types) + ["player"]),
            )
            per = "player"
        of = spec.get("of")
        if of is not None and of not in ck.comp_types:
            ck.report(
                "E039",
                f"unknown component type '{of}'",
                ("zones", name, "of"),
                hint=did_you_mean(str(of), ck.comp_types),
            )
            of = None
        if name in ck.comp_types:
            ck.report("E043", f"'{name}' is already a component type", ("zones", name), key=True)
        visibility = spec.get("visibility", "public")
        face = spec.get("face", "up" if visibility == "public" else "down")
        if visibility == "top" and spec.get("ordered", True) is False:
            ck.report("E013", f"zone '{name}': a face-up pile (visibility: top) must be ordered",
                      ("zones", name, "ordered"), hint="an unordered zone is sorted by id, so its top would "
                      "tell how the hidden components compare: drop 'ordered: false'")
        ck.families[name] = ZoneDecl(name, per, of, visibility, face, bool(spec.get("ordered", True)))
    pers = {name: fam.per for name, fam in ck.families.items()}
    for name, spec in (ck.data.get("zones") or {}).items():
        if spec and "when_empty" in spec:
            ck.families[name].when_empty = checked_when_empty(name, spec["when_empty"], pers, ck.report)


def declare_vars(ck):
    for section, table in (("vars", ck.var_types), ("player_vars", ck.pvar_types)):
        for name, spec in (ck.data.get(section) or {}).items():
            if builtin_clash(ck, section, name):
                continue
            if name in ck.families or name in ck.param_types:
                ck.report("E043", f"'{name}' is already {already(ck, name)}", (section, name), key=True,
                          hint="rename one of them")
                continue  # the first keeps its name: uses of it are not reported again
            t = None
            if isinstance(spec, dict):
                if "type" in spec:
                    t = parse_type(spec["type"], ck.comp_types)
                    if t is None:
                        ck.report(
                            "E041",
                            f"unknown type '{spec['type']}'",
                            (section, name, "type"),
                            hint="types: int, bool, str, player, any, zone, a component type, 'list of ...'",
                        )
            elif not isinstance(spec, str):
                t = literal_type(spec)
                if t.kind == "none":
                    t = ANY
            table[name] = t or ANY  # refined when the initial value is checked
    ck.secret_pvars = frozenset(
        n
        for n, s in (ck.data.get("player_vars") or {}).items()
        if isinstance(s, dict) and s.get("visibility") == "owner"
    )


def declare_events(ck):
    for name, fields in (ck.data.get("events") or {}).items():
        if name in BUILTIN_EVENTS or name in PHASE_EVENTS:
            ck.report("E043", f"'{name}' is a built-in event", ("events", name), key=True)
            continue
        table = {}
        for fname, ftype in (fields or {}).items():
            t = parse_type(ftype, ck.comp_types)
            if t is None:
                ck.report("E041", f"unknown type '{ftype}'", ("events", name, fname))
                t = ANY
            table[fname] = t
        ck.events[name] = table


def _params(ck, section, name, spec):
    params = []
    for pname, ptype in ((spec or {}).get("params") or {}).items():
        t = parse_type(ptype, ck.comp_types)
        if t is None:
            ck.report(
                "E041",
                f"unknown type '{ptype}'",
                (section, name, "params", pname),
                hint=did_you_mean(
                    str(ptype), ["int", "bool", "str", "player", "zone", "any"] + list(ck.comp_types)
                ),
            )
            t = ANY
        params.append((pname, t))
    return params


AXIS_LABEL_MAX = 8  # characters of one axis label: a map column is as wide as its longest label


def check_axes(ck, name: str, board: dict) -> None:
    """A board's ``axes``: the names its map gives the columns and rows, in
    order from the smallest ``col`` (``row``). Plain texts the validator
    checks here, since they are drawn as they are written."""
    axes = board.get("axes")
    if not isinstance(axes, dict):
        return
    path = ("components", name, "board", "axes")
    if board.get("grid") not in ("hex", "square"):
        ck.report("E014", f"'{name}': a {board.get('grid')} board has no columns and rows to name", path, key=True,
                  hint="axes name the columns and rows of a hex or square grid")
        return
    for axis, labels in axes.items():
        if not isinstance(labels, list):
            continue  # the schema says so
        for i, label in enumerate(labels):
            text = str(label) if isinstance(label, (str, int)) and not isinstance(label, bool) else ""
            if not 1 <= len(text) <= AXIS_LABEL_MAX:
                ck.report("E014", f"'{name}': axis label {label!r} is not a text of 1 to {AXIS_LABEL_MAX} "
                          "characters", path + (axis, i), hint="e.g. axes: {col: [a, b, c], row: ['1', '2', '3']}")


def note_for_tests(ck, section: str, name: str, spec) -> None:
    """A helper marked ``for_tests: true`` is there for scenarios' ``run:``
    steps, which the ruleset's checks do not see: no W104 for it, and a W109
    where a rule calls it (see ``warn_unused``)."""
    if isinstance(spec, dict) and spec.get("for_tests") is True:
        ck.test_helpers[(section, name)] = []


def declare_functions(ck):
    for name, spec in (ck.data.get("functions") or {}).items():
        builtin_clash(ck, "functions", name)
        params = _params(ck, "functions", name, spec)
        node, span = ck.parse(("functions", name, "value"), "expression")
        ck.functions[name] = (params, node, ("functions", name, "value"), span)
        note_for_tests(ck, "functions", name, spec)


def declare_procedures(ck):
    for name, spec in (ck.data.get("procedures") or {}).items():
        builtin_clash(ck, "procedures", name)
        ck.procedures[name] = (f"procedure {name}", _params(ck, "procedures", name, spec))
        note_for_tests(ck, "procedures", name, spec)
        returns = spec.get("returns") if isinstance(spec, dict) else None
        if returns is not None:
            t = parse_type(returns, ck.comp_types)
            if t is None:
                ck.report("E041", f"unknown type '{returns}'", ("procedures", name, "returns"),
                          hint=did_you_mean(str(returns), ["int", "bool", "str", "player", "zone", "any"]
                                              + list(ck.comp_types)))
                t = ANY
            ck.proc_returns[name] = t


# ------------------------------------------------------------ functions
def function_variant(ck, name: str, public: bool, event: str | None, n, cx: Cx):
    """The key and result type of function ``name`` checked for a kind of
    call site: said to everybody or not (``public``), inside the trigger
    of ``event`` or not (what ``event`` means in its body). Each variant
    is checked once and compiled once; a function that reaches itself is
    refused (E044), as a body that could never finish."""
    params, body_node, fpath, fspan = ck.functions[name]
    key = (name, public, event)
    done = ck.function_types.get(key)
    if done is not None:
        return key, done
    if key in ck.checking_functions:
        cx.error("E044", f"function '{name}' calls itself (directly or through others)", n.pos)
    if body_node is None:
        raise CheckError("function body did not parse")
    ck.checking_functions.add(key)
    try:
        unit = Locals(f"function {name}")
        scope = Scope(unit)
        if event is not None:
            scope.event, scope.event_slot = event, scope.temp()
        slots = tuple(scope.fresh(pname, ptype) for pname, ptype in params)
        if key == (name, False, None):  # the parameters' places once, not once per kind of call site
            ck.note_params(scope, fpath[:-1] + ("params",), params)
        body_cx = Cx(ck, scope, fpath, fspan, cx.depth + 1, public)
        body, t = ck.expr(body_node, body_cx)
    finally:
        ck.checking_functions.discard(key)
    ck.function_types[key] = t
    ck.out.functions[key] = FunctionRule(name, slots, body, unit.nlocals, scope.event_slot, unit.names,
                                         tuple(ptype for _pname, ptype in params))
    return key, t


def check_vars(ck):
    for section, table, target in (
        ("vars", ck.var_types, ck.out.vars),
        ("player_vars", ck.pvar_types, ck.out.pvars),
    ):
        for name, spec in (ck.data.get(section) or {}).items():
            if name not in table:  # its name clashed (E043): not declared
                continue
            scope = ck.scratch(f"{section} {name}")
            if isinstance(spec, dict):
                if "initial" not in spec:
                    target[name] = ("value", None)
                    continue
                path = (section, name, "initial")
            elif isinstance(spec, str):
                path = (section, name)
            else:
                target[name] = ("value", spec)
                continue
            x, t = ck.check_expr_at(path, scope)
            if x is None:
                continue
            if table[name].kind == "any" and t.kind != "none":
                table[name] = t
            elif not compatible(table[name], t) and t.kind != "none":
                ck.report("E041", f"initial value is {t}, but '{name}' is declared {table[name]}", path)
            target[name] = ("expr", Expr(x, scope.unit.nlocals, slot_names=scope.unit.names))
    ck.unshown_vars = frozenset(
        name for section in ("vars", "player_vars") for name, spec in (ck.data.get(section) or {}).items()
        if isinstance(spec, dict) and spec.get("show") is False)
    ck.nonzero_vars = frozenset(
        name for section in ("vars", "player_vars") for name, spec in (ck.data.get(section) or {}).items()
        if isinstance(spec, dict) and spec.get("show") == "nonzero")
    # zones kept off the tables (a display choice: the view still holds them)
    ck.unshown_zones = frozenset(name for name, spec in (ck.data.get("zones") or {}).items()
                                 if isinstance(spec, dict) and spec.get("show") is False)



def check_board_per(ck, name: str, ct) -> None:
    """A board kept per something (``per: seat``) is split by a fixed
    property of its spaces, not one of the coordinates that place a space
    on its part (each part has the same coordinates)."""
    per = ct.board.get("per")
    if per is None:
        return
    path = ("components", name, "board", "per")
    placing = ("col", "row") if ct.board.get("grid") in ("hex", "square") else (ct.board.get("key", "name"),)
    if per in placing:
        ck.report("E013", f"board '{name}' cannot be one board per '{per}': '{per}' places a space on its board",
                  path, hint="add a property naming each board, e.g. for_each: {seat: players, col: ..., row: ...}")
    elif per not in ct.static:
        ck.report("E032", f"board '{name}' is one board per '{per}', but its spaces have no fixed property '{per}'",
                  path, hint=did_you_mean(str(per), list(ct.static)) or
                  f"its spaces' fixed properties: {', '.join(ct.static) or 'none'}")

__all__ = ["ComponentDecl", "ZoneDecl", "BOOL", "STR", "X"]
