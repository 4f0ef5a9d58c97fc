"""Rules help at the browser table: what the pending decision is and what a
component is, in the ruleset's own words.

Everything shown comes from the ruleset: the decision's prompt and the rule
line that asks it, each option's action and that action's ``description``,
and for components their type's and zone's ``description`` and the
``presentation`` hint ``about`` (a text per value of a property, e.g. what
each suit of cards does). Nothing here names a game.
"""

from __future__ import annotations

from pathlib import Path


def decision_help(game, st, seat) -> dict | None:
    """The help of ``seat``'s pending decision (None: it has none)."""
    if seat is None or st.over or st.pending is None or seat not in game.to_move(st):
        return None
    where = game.asked_at(st)
    parts = where.rsplit(":", 2)
    origin = f"{Path(parts[0]).name}:{parts[1]}" if len(parts) == 3 and parts[1].isdigit() else ""
    kind = st.pending.get("kind")
    options = []
    legal = game.options(st, seat)
    for o, value in zip(legal, legal.plain, strict=False):
        options.append({"label": o.label, "about": action_about(st.prog, value) if kind == "action" else ""})
    return {"prompt": game.prompt(st, seat), "kind": kind, "origin": origin, "options": options}


def action_about(prog, value) -> str:
    """The action an option comes from and its description, when the ruleset gives one."""
    try:
        act = prog.actions[value[0]]
    except (TypeError, IndexError, KeyError):
        return ""
    spec = (_section(prog, "actions")).get(act.name)
    text = spec.get("description") if isinstance(spec, dict) else None
    return f"{act.name}: {' '.join(text.split())}" if isinstance(text, str) else act.name


def descriptions(prog) -> dict:
    """``{"types": {type: text}, "zones": {family: text}}``: the ruleset's
    descriptions of its component types and zones (the page shows them
    when a component is opened)."""
    out = {}
    for section in ("components", "zones"):
        out["types" if section == "components" else "zones"] = {
            name: " ".join(spec["description"].split())
            for name, spec in _section(prog, section).items()
            if isinstance(spec, dict) and isinstance(spec.get("description"), str)}
    return out


def _section(prog, name: str) -> dict:
    data = prog.data if isinstance(prog.data, dict) else {}
    return data.get(name) if isinstance(data.get(name), dict) else {}
