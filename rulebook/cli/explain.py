"""``rulebook explain --definitions``: the rules as data, a readable
summary of every section of a ruleset, so that a reader can check it
against the printed rulebook (the player's guide, ``explain`` without the
flag, is ``rulebook.cli.explain_guide``)."""

from __future__ import annotations

from collections import Counter

from rulebook.interpreter.labels import literal


def _block(text, indent="    ") -> list[str]:
    return [indent + line for line in str(text).rstrip().splitlines()]


def _header(game, prog, data: dict, variants_data: dict) -> list[str]:
    """The description, source, player counts, parameters, definitions and variables."""
    out: list[str] = []
    if data.get("description"):
        out += ["", str(data["description"]).strip()]
    if data.get("source"):
        out += ["", f"Source: {data['source']}"]
    out += ["", f"Players: {prog.min_players} to {prog.max_players}."]
    if prog.params:
        out += ["", "## Parameters"]
        specs = data.get("params") or {}
        for name, default in prog.params.items():
            desc = specs[name].get("description", "") if isinstance(specs.get(name), dict) else ""
            out.append(f"- {name} = {literal(default)}" + (f": {' '.join(str(desc).split())}" if desc else ""))
    if data.get("define"):
        out += ["", "## Definitions (computed once, when a game starts)"]
        out += [f"- {name} = {' '.join(str(text).split())}" for name, text in data["define"].items()]
    for section, heading in (("vars", "Variables"), ("player_vars", "Player variables (each player has their own)")):
        if data.get(section):
            out += ["", f"## {heading}"]
            out += [_variable(name, spec) for name, spec in data[section].items()]
    return out


def _components(game, prog, data: dict, variants_data: dict) -> list[str]:
    """Each component type with its properties, and its kinds when few."""
    out: list[str] = []
    st_cat = game.catalog_only(
        prog.default_players if prog.min_players <= prog.default_players <= prog.max_players else prog.min_players
    )
    out += ["", f"## Components (with {prog.default_players or prog.min_players} players)"]
    for name, ids in st_cat.by_type.items():
        ct = prog.comp_types[name]
        fixed = ", ".join(ct.static) or "none"
        changing = ", ".join(ct.dynamic) or "none"
        out.append(
            f"- {len(ids)} × {name}: fixed properties {fixed}; changing {changing}"
            + (f"; board ({ct.board.get('grid')})" if ct.board else "")
        )
        if ids and len(ids) <= 60 and ct.static:  # no fixed properties: nothing to list but the count
            kinds = Counter(" ".join(f"{k}={v}" for k, v in st_cat.static[c].items() if k != "type") for c in ids)
            sample = ", ".join(f"{k}" + (f" ×{n}" if n > 1 else "") for k, n in list(kinds.items())[:12])
            out.append(f"  {sample}{' ...' if len(kinds) > 12 else ''}")
    return out


def _zones(game, prog, data: dict, variants_data: dict) -> list[str]:
    """Each zone family: shared or kept per player or component, and what is seen of it."""
    out: list[str] = []
    out += ["", "## Zones"]
    for name, fam in prog.families.items():
        per = "one shared" if fam.per is None else f"one per {fam.per}"
        out.append(
            f"- {name}: {per}; "
            + ("a face-up pile: only its top component is face up" if fam.visibility == "top"
               else f"{fam.visibility}; components enter face {fam.face}")
            + ("" if fam.ordered else "; unordered")
            + (f"; holds {fam.of}" if fam.of else "")
        )
    return out


def _functions(game, prog, data: dict, variants_data: dict) -> list[str]:
    """The functions, procedures and setup: the rules the others use."""
    out: list[str] = []
    if data.get("functions"):
        out += ["", "## Functions (values the rules compute)"]
        for name, spec in data["functions"].items():
            spec = spec if isinstance(spec, dict) else {"value": spec}
            params = ", ".join(spec.get("params") or {})
            out.append(f"- {name}({params}) = {' '.join(str(spec.get('value', '')).split())}"
                       + _description(spec))
    if data.get("procedures"):
        out += ["", "## Procedures (effects the rules share)"]
        for name, spec in data["procedures"].items():
            spec = spec or {}
            out += [f"- {name}({', '.join(spec.get('params') or {})}){_description(spec)}:",
                    *_block(spec.get("effect", ""), "      ")]
    if data.get("setup"):
        out += ["", "## Setup", *_block(data["setup"])]
    return out


def _phases(game, prog, data: dict, variants_data: dict) -> list[str]:
    """Each phase: its description, hooks, turns and what follows it."""
    out: list[str] = []
    out += ["", "## Phases", f"The game starts in '{prog.start_phase}'."]
    for name, spec in (data.get("phases") or {}).items():
        spec = spec or {}
        out += ["", f"### {name}"]
        if spec.get("description"):
            out.append(" ".join(str(spec["description"]).split()))
        for hook in ("on_begin", "end_if", "on_end"):
            if spec.get(hook) is not None:
                out += [f"- {hook}:", *_block(spec[hook], "      ")]
        turn = spec.get("turn")
        if turn:
            out.append(
                f"- turns: actions {', '.join(turn.get('actions') or [])}"
                + ("; a player keeps acting until 'end turn'" if turn.get("repeat") else "; one action a turn")
                + (f"; first: {turn['first']}" if "first" in turn else "")
                + (f"; next: {turn['next']}" if "next" in turn else "; next: the next player in play order")
            )
        nxt = spec.get("next")
        if isinstance(nxt, str):
            out.append(f"- then: {nxt}")
        elif nxt:
            for e in nxt:
                e = {"to": e} if isinstance(e, str) else e
                out.append(f"- then: {e['to']}" + (f" if {e['if']}" if "if" in e else ""))
    return out


def _actions(game, prog, data: dict, variants_data: dict) -> list[str]:
    """The actions and triggers, with their effects."""
    out: list[str] = []
    if data.get("actions"):
        out += ["", "## Actions"]
        for name, spec in data["actions"].items():
            spec = spec or {}
            line = f"- {name}"
            if spec.get("label"):
                line += f" ('{spec['label']}')"
            if spec.get("params"):
                line += "; choose " + ", ".join(f"{k} from {v}" for k, v in spec["params"].items())
            if spec.get("if"):
                line += f"; only if {spec['if']}"
            if spec.get("require"):
                line += f"; requires {spec['require']}"
            out.append(line + _description(spec) + (":" if spec.get("effect") else ""))
            if spec.get("effect"):
                out += _block(spec["effect"], "      ")
    if data.get("triggers"):
        out += ["", "## Triggers"]
        for name, spec in data["triggers"].items():
            out.append(f"- {name}: on {spec['on']}" + (f" if {spec['if']}" if spec.get("if") else "")
                       + _description(spec) + (":" if spec.get("effect") else ""))
            if spec.get("effect"):
                out += _block(spec["effect"], "      ")
    return out


def _end(game, prog, data: dict, variants_data: dict) -> list[str]:
    """How the game ends and is scored, and the bots' judgement."""
    out: list[str] = []
    out += ["", "## End and scoring"]
    for name, spec in (data.get("end") or {}).items():
        out.append(
            f"- {name}: the game ends when {spec['if']}"
            + (f"; winners {spec['winners']}" if spec.get("winners") else "")
        )
    ends = list(prog.ending_units)
    if ends:
        out.append("- 'end game' appears in: " + ", ".join(ends))
    scoring = data.get("scoring")
    if scoring:
        out.append(
            f"- score: {scoring['score']}" + (" (lowest wins)" if scoring.get("lowest_wins") else " (highest wins)")
        )
        for tb in scoring.get("tie_breaks") or []:
            out.append(f"- tie-break: {tb}")
        out.append("- remaining ties are shared")
    bots = data.get("bots") or {}
    if bots.get("heuristic") is not None:
        out += ["", "## Bots", f"- the greedy agent judges a position by: {bots['heuristic']}"]
    return out


def _variants(game, prog, data: dict, variants_data: dict) -> list[str]:
    """The variants and the notes."""
    out: list[str] = []
    if variants_data:
        out += ["", "## Variants"]
        for name, spec in variants_data.items():
            bits = []
            if spec.get("players"):
                bits.append(f"players {spec['players'].get('min', prog.min_players)}-{spec['players'].get('max', '')}")
            if spec.get("params"):
                bits.append("sets " + ", ".join(f"{k} = {literal(v)}" for k, v in spec["params"].items()))
            if spec.get("patch"):
                bits.append("changes " + ", ".join(_patch_paths(spec["patch"])))
            if spec.get("excludes"):
                bits.append("not with " + ", ".join(spec["excludes"]))
            if spec.get("requires"):
                bits.append("needs " + ", ".join(spec["requires"]))
            title = spec.get("title", name)
            out.append(
                f"- {name} ({title}): "
                + "; ".join(bits)
                + (f". {' '.join(str(spec['description']).split())}" if spec.get("description") else "")
            )
    notes = data.get("notes") or []
    if notes:
        out += ["", "## Notes"] + [f"- {n}" for n in notes]
    return out


SECTIONS = (_header, _components, _zones, _functions, _phases, _actions, _end, _variants)


def explain(game, data: dict, variants_data: dict, selected: tuple = ()) -> str:
    """The rules as data, section by section (``explain --definitions``)."""
    prog = game.program
    out = [f"# {prog.title}" + (f" ({', '.join(selected)})" if selected else "")]
    for section in SECTIONS:
        out += section(game, prog, data, variants_data)
    return "\n".join(out) + "\n"




def _description(spec) -> str:
    text = spec.get("description") if isinstance(spec, dict) else None
    return f" ({' '.join(str(text).split())})" if text else ""


def _variable(name, spec) -> str:
    """A variable with what it starts at (a value, or rule text)."""
    if isinstance(spec, dict):
        start = spec.get("initial")
        kind = f" ({spec['type']})" if spec.get("type") else ""
        hidden = "; only its owner sees it" if spec.get("visibility") == "owner" else ""
        shown = literal(start) if not isinstance(start, str) else " ".join(start.split())
        return f"- {name}{kind}: starts at {shown}{hidden}" + _description(spec)
    shown = literal(spec) if not isinstance(spec, str) else " ".join(spec.split())
    return f"- {name}: starts at {shown}"


def _patch_paths(patch, prefix=()) -> list[str]:
    out = []
    for k, v in patch.items():
        if isinstance(v, dict) and v and len(prefix) < 2:
            out += _patch_paths(v, prefix + (k,))
        else:
            out.append(".".join(prefix + (k,)) + (" (removed)" if v is None else ""))
    return out
