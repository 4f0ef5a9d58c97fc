"""Checks of the ``presentation`` hints that the schema cannot make: every
name a hint uses must exist in the ruleset. Run after the schema stage
(``validator.pipeline``), on the document with its variants applied.

A table of small checks, each returning located diagnostics:

- a zone family in ``layout`` that the ruleset does not declare (E031);
- a component type in ``components`` that it does not declare (E039);
- a ``colour_by`` or ``about_by`` property that the type does not have (E032);
- a board in ``boards`` that is not a board component type (E039), or a
  ``colour_by`` its spaces do not have (E032);
- a zone family in ``zones`` that the ruleset does not declare (E031), or a
  ``group_by`` / ``top_by`` that the zone's components do not have (E032);
- a phase in ``phases`` that the ruleset does not declare (E030).
"""

from __future__ import annotations

from collections.abc import Callable

from rulebook.validator.diagnostics import Diagnostic, did_you_mean
from rulebook.validator.loader import Document


def _spec(doc: Document) -> dict:
    data = doc.data if isinstance(doc.data, dict) else {}
    spec = data.get("presentation")
    return spec if isinstance(spec, dict) else {}


def _names(doc: Document, section: str) -> list[str]:
    data = doc.data if isinstance(doc.data, dict) else {}
    return [str(k) for k in (data.get(section) or {})] if isinstance(data.get(section), dict) else []


def _layout_zones(doc: Document) -> list[Diagnostic]:
    zones = _names(doc, "zones")
    out = []
    for i, name in enumerate(_spec(doc).get("layout") or []):
        if name not in zones:
            out.append(doc.diag("E031", f"layout names the zone '{name}', which the ruleset does not declare",
                                ("presentation", "layout", i),
                                did_you_mean(str(name), zones) or f"zones: {', '.join(zones) or 'none'}"))
    return out


def _component_types(doc: Document) -> list[Diagnostic]:
    types = _names(doc, "components")
    out = []
    for name in _spec(doc).get("components") or {}:
        if name not in types:
            out.append(doc.diag("E039", f"presentation names the component type '{name}', which the ruleset "
                                "does not declare", ("presentation", "components", name),
                                did_you_mean(str(name), types) or f"component types: {', '.join(types) or 'none'}",
                                key=True))
    return out


def _properties(spec: dict) -> list[str]:
    """The properties a component type declares: generated, computed,
    changing, and those of its listed items."""
    names: list[str] = []
    for section in ("for_each", "props", "state"):
        if isinstance(spec.get(section), dict):
            names += [str(k) for k in spec[section]]
    for item in spec.get("items") or []:
        if isinstance(item, dict):
            names += [str(k) for k in item]
    return list(dict.fromkeys(names)) + ["owner"]


def _colour_by(doc: Document) -> list[Diagnostic]:
    comps = _section(doc, "components")
    out = []
    for name, hint in (_spec(doc).get("components") or {}).items():
        for key in ("colour_by", "about_by"):
            prop = hint.get(key) if isinstance(hint, dict) else None
            if prop is not None and isinstance(comps.get(name), dict):
                out += _property(doc, name, comps[name], prop, ("presentation", "components", name, key))
    return out


def _property(doc: Document, name: str, spec: dict, prop, where: tuple) -> list[Diagnostic]:
    props = _properties(spec)
    if prop in props:
        return []
    verbs = {"about_by": "pick its 'about' text by", "top_by": "find a stack's top by"}
    verb = verbs.get(where[-1], where[-1].replace("_", " "))
    return [doc.diag("E032", f"'{name}' has no property '{prop}' to {verb}", where,
                     did_you_mean(str(prop), props) or f"properties: {', '.join(props)}")]


def _section(doc: Document, name: str) -> dict:
    data = doc.data if isinstance(doc.data, dict) else {}
    return data.get(name) if isinstance(data.get(name), dict) else {}


def _boards(doc: Document) -> list[Diagnostic]:
    comps = _section(doc, "components")
    boards = [n for n, c in comps.items() if isinstance(c, dict) and isinstance(c.get("board"), dict)]
    out = []
    for name, hint in (_spec(doc).get("boards") or {}).items():
        if name not in boards:
            out.append(doc.diag("E039", f"presentation names the board '{name}', which is not a component type "
                                "with a board", ("presentation", "boards", name),
                                did_you_mean(str(name), boards) or f"boards: {', '.join(boards) or 'none'}",
                                key=True))
        elif isinstance(hint, dict) and hint.get("colour_by") is not None:
            out += _property(doc, name, comps[name], hint["colour_by"], ("presentation", "boards", name, "colour_by"))
    return out


def _zones(doc: Document) -> list[Diagnostic]:
    zones, comps = _section(doc, "zones"), _section(doc, "components")
    out = []
    for name, hint in (_spec(doc).get("zones") or {}).items():
        if name not in zones:
            out.append(doc.diag("E031", f"presentation names the zone '{name}', which the ruleset does not declare",
                                ("presentation", "zones", name),
                                did_you_mean(str(name), list(zones)) or f"zones: {', '.join(zones) or 'none'}",
                                key=True))
            continue
        of = zones[name].get("of") if isinstance(zones[name], dict) else None
        if not isinstance(hint, dict) or not isinstance(comps.get(of), dict):
            continue  # a zone of any type: its components' properties are not known here
        for key in ("group_by", "top_by"):
            if hint.get(key) is not None:
                out += _property(doc, str(of), comps[of], hint[key], ("presentation", "zones", name, key))
    return out


def _phases(doc: Document) -> list[Diagnostic]:
    phases = _names(doc, "phases")
    return [doc.diag("E030", f"presentation names the phase '{name}', which the ruleset does not declare",
                     ("presentation", "phases", name),
                     did_you_mean(str(name), phases) or f"phases: {', '.join(phases) or 'none'}", key=True)
            for name in _spec(doc).get("phases") or {} if name not in phases]


CHECKS: tuple[Callable[[Document], list[Diagnostic]], ...] = (_layout_zones, _component_types, _colour_by,
                                                                 _boards, _zones, _phases)


def check(doc: Document) -> list[Diagnostic]:
    """Every problem of the presentation hints, all at once."""
    if not _spec(doc):
        return []
    out: list[Diagnostic] = []
    for fn in CHECKS:
        out += fn(doc)
    return out
