"""``rulebook explain``'s player's guide: what the game is, how a turn
goes, what you can do, what the components are and how you win, written
only from the ruleset's texts meant for players (its title, descriptions
and labels), never from its identifiers. The rules as data (definitions,
zones, effects) are ``explain --definitions`` (``rulebook.cli.explain``).
"""

from __future__ import annotations

import re

# a reference to a source document in parentheses: "(A-S6)", "(P20)", "(A-D1, A-S3)"; readers of the
# guide have not got those documents, so the guide leaves them out (the definitions keep them)
_REFERENCE = re.compile(r"\s*\((?:[A-Z]{1,3}-?[A-Z]?\d+[a-z]?(?:,\s*)?)+\)")
_TEMPLATE = re.compile(r"\{[^{}]*\}")


def player_text(text) -> str:
    """A ruleset's description as one paragraph for players: its lines
    joined, references to source documents left out."""
    return _REFERENCE.sub("", " ".join(str(text).split())).strip()


def label_text(label: str) -> str:
    """An action's label without its template parts: ``play {c}`` -> ``play …``."""
    return re.sub(r"…+", "…", " ".join(_TEMPLATE.sub("…", label).split()))


def guide(game, data: dict, variants_data: dict, selected: tuple = ()) -> str:
    from rulebook.display.words import players_range

    prog = game.program
    out = [f"# {prog.title}" + (f" ({', '.join(_variant_title(variants_data, v) for v in selected)})"
                                if selected else "")]
    if data.get("description"):
        out += ["", player_text(data["description"])]
    out += ["", f"For {players_range(prog.min_players, prog.max_players)}."]
    out += _turns(data)
    out += _actions(data)
    out += _components(data)
    out += _winning(data, prog)
    if variants_data:
        out += ["", "## Variants"]
        for name, spec in variants_data.items():
            spec = spec or {}
            title = _variant_title(variants_data, name)
            desc = f": {player_text(spec['description'])}" if spec.get("description") else ""
            out.append(f"- {title}{desc} (rulebook play {prog.id} -v {name})")
    out += ["", f"The rules as data (definitions, zones, phases and effects): rulebook explain {prog.id} "
                "--definitions"]
    return "\n".join(out) + "\n"


def _variant_title(variants_data: dict, name: str) -> str:
    spec = variants_data.get(name) or {}
    return str(spec.get("title") or name)


def _turns(data: dict) -> list[str]:
    """How the game goes: the phases' descriptions, in the ruleset's order."""
    phases = [player_text(spec["description"]) for spec in (data.get("phases") or {}).values()
              if isinstance(spec, dict) and spec.get("description")]
    if not phases:
        return []
    return ["", "## How the game goes"] + [f"{i}. {text}" for i, text in enumerate(phases, 1)]


def _actions(data: dict) -> list[str]:
    """What you can do: each action's label and description."""
    out = []
    for spec in (data.get("actions") or {}).values():
        if not isinstance(spec, dict) or not (spec.get("label") or spec.get("description")):
            continue
        label = label_text(str(spec["label"])) if spec.get("label") else ""
        desc = player_text(spec["description"]) if spec.get("description") else ""
        out.append(f"- {label[:1].upper() + label[1:]}" + (f": {desc}" if label and desc else desc))
    return ["", "## What you can do"] + out if out else []


def _components(data: dict) -> list[str]:
    """The components that have a description for players."""
    out = [f"- {player_text(spec['description'])}" for spec in (data.get("components") or {}).values()
           if isinstance(spec, dict) and spec.get("description")]
    return ["", "## The components"] + out if out else []


def _winning(data: dict, prog) -> list[str]:
    """How you win: the end rules' descriptions, and what the score counts."""
    out = [f"- {player_text(spec['description'])}" for spec in (data.get("end") or {}).values()
           if isinstance(spec, dict) and spec.get("description")]
    scoring = data.get("scoring") or {}
    if scoring:
        shown = list((scoring.get("show") or {}).keys())
        rank = "lowest" if scoring.get("lowest_wins") else "highest"
        out.append(f"- When the game ends without the rules naming the winners, the {rank} score wins"
                   + (f"; the scoreboard shows {', '.join(shown)}." if shown else "."))
    if prog.ending_units and not out:
        out.append("- The rules end the game as described above.")
    return ["", "## How you win"] + out if out else []
