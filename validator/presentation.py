"""Checks of the ``presentation`` hints that the schema cannot make: every
name a hint uses must exist in the ruleset. Run after the schema stage
(``validator.pipeline``), on the document with its variants applied.

A table of small checks, each returning located diagnostics:

- a zone family in ``layout`` that the ruleset does not declare (E031);
- a component type in ``components`` that it does not declare (E039);
- a ``colour_by`` property that the type does not have (E032).
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
    data = doc.data if isinstance(doc.data, dict) else {}
    comps = data.get("components") if isinstance(data.get("components"), dict) else {}
    out = []
    for name, hint in (_spec(doc).get("components") or {}).items():
        prop = hint.get("colour_by") if isinstance(hint, dict) else None
        if prop is None or not isinstance(comps.get(name), dict):
            continue
        props = _properties(comps[name])
        if prop not in props:
            out.append(doc.diag("E032", f"'{name}' has no property '{prop}' to colour by",
                                ("presentation", "components", name, "colour_by"),
                                did_you_mean(str(prop), props) or f"properties: {', '.join(props)}"))
    return out


CHECKS: tuple[Callable[[Document], list[Diagnostic]], ...] = (_layout_zones, _component_types, _colour_by)


def check(doc: Document) -> list[Diagnostic]:
    """Every problem of the presentation hints, all at once."""
    if not _spec(doc):
        return []
    out: list[Diagnostic] = []
    for fn in CHECKS:
        out += fn(doc)
    return out
