"""The names players read for a ruleset's zones and phases: the titles its
``presentation`` hints give them (docs/format.md#presentation), else the
rules' own name with its underscores as spaces, so that an identifier such
as ``creature_pool`` never reaches a table as it is written in the rules.
Both tables (terminal and browser) ask here."""

from __future__ import annotations


def words(name: str) -> str:
    """A name of the rules as a table writes it without a title: ``creature_pool`` -> ``creature pool``."""
    return name.replace("_", " ")


def _presentation(prog) -> dict:
    data = prog.data if isinstance(prog.data, dict) else {}
    spec = data.get("presentation")
    return spec if isinstance(spec, dict) else {}


def _entry(spec: dict, section: str, name: str):
    table = spec.get(section)
    return table.get(name) if isinstance(table, dict) else None


def zone_title(prog, family: str) -> str:
    """A zone family's ``presentation.zones`` title, else its name in words."""
    hint = _entry(_presentation(prog), "zones", family)
    title = hint.get("title") if isinstance(hint, dict) else None
    return str(title or words(family))


def phase_title(prog, phase: str | None) -> str | None:
    """A phase's ``presentation.phases`` entry, else its name in words (None: no phase)."""
    if not phase:
        return phase
    return str(_entry(_presentation(prog), "phases", phase) or words(phase))


def board_title(prog, board: str, part: str = "") -> str:
    """A board's ``presentation.boards`` title, else its component type's
    name in words and "map" (``square map``: a type's name alone does not say
    what is drawn). ``part``: which part of a board kept per seat (`` of P1``)."""
    hint = _entry(_presentation(prog), "boards", board)
    title = hint.get("title") if isinstance(hint, dict) else None
    return f"{title}{part}" if title else f"{words(board)}{part} map"
