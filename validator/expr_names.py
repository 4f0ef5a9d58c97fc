"""Check a bare name: a local, a built-in value, a variable, a parameter, a zone or a component type."""

from __future__ import annotations

from rulebook.dsl.parser import RETURN_HINT
from rulebook.validator.check_expr import BUILTIN_NAMES, const
from rulebook.validator.diagnostics import did_you_mean
from rulebook.validator.ir import X
from rulebook.validator.types import INT, LIST, MAP, PLAYER, STR, ZONE, Type


# ----------------------------------------------------------- names
def check_name(ck, n, cx):
    name = n.id
    local = cx.scope.lookup(name)
    if local is not None:
        slot, t = local
        return X("local", slot), t
    if name in ("players", "live_players", "player_count", "current", "phase", "turn_number"):
        return X(name), {"players": LIST(PLAYER), "live_players": LIST(PLAYER), "player_count": INT,
                         "current": PLAYER, "phase": STR, "turn_number": INT}[name]
    if name == "event":
        if cx.scope.event is None:
            cx.error("E030", "'event' exists only in a trigger", n.pos)
        return X("local", cx.scope.event_slot), MAP
    if name in ck.var_types:
        return X("var", name), ck.var_types[name]
    if name in ck.param_types:
        ck.used_params.add(name)
        return X("param", name), ck.param_types[name]
    fam = ck.families.get(name)
    if fam is not None:
        ck.used_zones.add(name)
        if fam.per is None:
            return X("shared_zone", name), ZONE(fam.of)
        return const(name), Type("family", name)
    if name in ck.comp_types:
        return const(name), Type("ctype", name)
    known = (
        list(cx.scope.names)
        + list(ck.var_types)
        + list(ck.param_types)
        + list(ck.families)
        + sorted(BUILTIN_NAMES)
    )
    hint = did_you_mean(name, known)
    later = ck.later_params
    if later is not None and name in later[1]:
        what = "itself" if name == later[1][0] else "a later parameter"
        cx.error("E030", f"'{name}' is {what} of action '{later[0]}': its values are not known yet", n.pos,
                 "parameters are asked in the order they are written: the values of one may use only "
                 "the parameters above it", len(name))
    if name in (ck.data.get("define") or {}):
        hint = f"'{name}' is defined further down; a definition can only use the ones above it"
    elif hint is None and name in ck.pvar_types:
        hint = f"'{name}' is a player variable: write p.{name} for a player p"
    elif name == "return":  # read as a name where no line begins: inside a value (dsl/parser.py)
        cx.error("E020", "'return' inside an expression: it begins a line of its own", n.pos, RETURN_HINT)
    elif name in ck.functions:
        hint = f"'{name}' is a function: write {name}({', '.join(p for p, _ in ck.functions[name][0])})"
    cx.error("E030", f"unknown name '{name}'", n.pos, hint, len(name))
