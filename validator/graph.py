"""Stage 5: the phase graph, built with NetworkX.

Nodes are phases plus a terminal node ``END``; edges are transitions (with
their conditions as labels) and, for every phase whose rules can end the
game, an edge to ``END``. Checks: phases unreachable from the start, and
phases from which no end can be reached (the game could never finish).
"""

from __future__ import annotations

import networkx as nx

from validator.diagnostics import Diagnostic
from validator.loader import Document

END = "END"


def edges_of(spec) -> list[tuple[str, str | None]]:
    nxt = (spec or {}).get("next")
    if nxt is None:
        return []
    if isinstance(nxt, str):
        return [(nxt, None)]
    out = []
    for e in nxt:
        if isinstance(e, str):
            out.append((e, None))
        elif isinstance(e, dict):
            out.append((e.get("to"), None if e.get("if") is None else str(e.get("if"))))
    return out


def _can_end(unit: str, ends: set[str], calls: dict[str, set[str]], seen=None) -> bool:
    seen = seen if seen is not None else set()
    if unit in ends:
        return True
    seen.add(unit)
    return any(_can_end(c, ends, calls, seen) for c in calls.get(unit, ()) if c not in seen)


def build(data: dict, ends: set[str] = frozenset(), calls: dict | None = None) -> nx.DiGraph:
    calls = calls or {}
    g = nx.DiGraph()
    phases = data.get("phases") or {}
    g.add_node(END)
    anywhere = bool(data.get("end")) or any(
        _can_end(u, ends, calls) for u in list(ends) + list(calls) if u.startswith("trigger")
    )
    for name, spec in phases.items():
        g.add_node(name)
        spec = spec or {}
        for target, cond in edges_of(spec):
            g.add_edge(name, target, condition=cond)
        units = [
            f"phase {name} on_begin",
            f"phase {name} on_end",
            f"phase {name} turn on_begin",
            f"phase {name} turn on_end",
        ]
        units += [f"action {a}" for a in ((spec.get("turn") or {}).get("actions") or [])]
        if anywhere or any(_can_end(u, ends, calls) for u in units):
            g.add_edge(name, END, condition="game ends")
    return g


def check(doc: Document, ends: set[str], calls: dict) -> tuple[nx.DiGraph, list[Diagnostic]]:
    data = doc.data
    phases = data.get("phases") or {}
    g = build(data, ends, calls)
    out = []
    start = data.get("start") or (next(iter(phases)) if phases else None)
    if start not in phases:
        return g, out  # reported by the compiler (E053)
    reachable = nx.descendants(g, start) | {start}
    for name in phases:
        if name not in reachable:
            out.append(
                doc.diag(
                    "E051",
                    f"phase '{name}' can never be reached from the start phase '{start}'",
                    ("phases", name),
                    "add a transition to it, or remove it",
                    key=True,
                )
            )
    can_finish = nx.ancestors(g, END)
    for name in phases:
        if name in reachable and g.out_degree(name) == 0:
            out.append(
                doc.diag(
                    "E054",
                    f"phase '{name}' has no transition and its rules never end the game",
                    ("phases", name),
                    "add 'next: <phase>' or an 'end game' effect",
                    key=True,
                )
            )
        elif name in reachable and name not in can_finish:
            out.append(
                doc.diag(
                    "E052",
                    f"once in phase '{name}' the game can never end",
                    ("phases", name),
                    "add a transition towards a phase that ends the game, or an 'end game' effect",
                    key=True,
                )
            )
    return g, out
