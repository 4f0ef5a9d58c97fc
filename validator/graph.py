"""Stage 5: the phase graph, built with NetworkX.

Nodes are phases plus a terminal node ``END``; edges are transitions (with
their conditions as labels) and, for every phase whose rules can end the
game, an edge to ``END``. Checks: phases unreachable from the start, and
phases from which no end can be reached (the game could never finish).

``END`` is a sentinel object, not the string ``"END"``: phase names are
free identifiers, and a phase called ``END`` must stay an ordinary phase.
It prints as ``END`` so that pictures of the graph keep their end node.
"""

from __future__ import annotations

import dataclasses

import networkx as nx
from rulebook.validator.diagnostics import Diagnostic
from rulebook.validator.loader import Document


class _End:
    """The terminal node. One instance: copies and pickles give it back, so
    ``node is END`` and ``node == END`` hold wherever a graph travels."""

    __slots__ = ()
    _instance: _End | None = None

    def __new__(cls) -> _End:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "END"

    __str__ = __repr__

    def __copy__(self) -> _End:
        return self

    def __deepcopy__(self, memo) -> _End:
        return self

    def __reduce__(self):
        return (_End, ())


END = _End()


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


def _unit_text(data: dict, unit: str):
    """The rule text of a code unit named as the compiler names it
    (``phase P on_begin``, ``procedure P``, ``trigger T``, ...), or None."""

    def at(*path):
        node = data
        for key in path:
            if not isinstance(node, dict):
                return None
            node = node.get(key)
        return node

    kind, _, rest = unit.partition(" ")
    if kind == "procedure":
        return at("procedures", rest, "effect")
    if kind == "trigger":
        return at("triggers", rest, "effect")
    if kind == "action":
        return at("actions", rest, "effect")
    if kind == "phase":
        parts = rest.split(" ")
        if len(parts) == 2:
            return at("phases", parts[0], parts[1])
        if len(parts) == 3 and parts[1] == "turn":
            return at("phases", parts[0], "turn", parts[2])
    return None


def _has_decision(node) -> bool:
    """Whether a syntax tree holds a ``choose`` or a ``simultaneous for``."""
    from rulebook.dsl import ast as A

    if isinstance(node, (A.ChooseStmt, A.SimultaneousStmt)):
        return True
    if isinstance(node, tuple):
        return any(_has_decision(x) for x in node)
    if dataclasses.is_dataclass(node):
        return any(_has_decision(getattr(node, f.name)) for f in dataclasses.fields(node))
    return False


def _text_decides(text) -> bool:
    if text is None or isinstance(text, (bool, int, float)):
        return False
    from rulebook.dsl.parser import ParseError, parse_block

    try:
        return _has_decision(parse_block(str(text)))
    except ParseError:
        return True  # reported elsewhere; assume the worst rather than invent an E052/E054


def _can_decide(data: dict, unit: str, calls: dict[str, set[str]], seen: set[str] | None = None) -> bool:
    """Whether running ``unit`` may offer a decision, directly or through the
    procedures it calls: only then are the ``end`` rules looked at."""
    seen = seen if seen is not None else set()
    seen.add(unit)
    if _text_decides(_unit_text(data, unit)):
        return True
    return any(_can_decide(data, c, calls, seen) for c in calls.get(unit, ()) if c not in seen)


def _hook_units(name: str) -> list[str]:
    return [
        f"phase {name} on_begin",
        f"phase {name} on_end",
        f"phase {name} turn on_begin",
        f"phase {name} turn on_end",
    ]


def build(data: dict, ends: set[str] = frozenset(), calls: dict | None = None) -> nx.DiGraph:
    """The phase graph. A phase gets an edge to ``END`` when its own rules
    (hooks, the actions of its turn, the procedures they call) can run
    ``end game``, when a trigger can, or when the ruleset has ``end`` rules
    and the phase can offer a decision: ``end`` rules are checked only when
    a decision is offered (interpreter/run.py), so a phase without ``turn``,
    ``choose`` or ``simultaneous`` never gives them a chance."""
    calls = calls or {}
    g = nx.DiGraph()
    phases = data.get("phases") or {}
    g.add_node(END)
    trigger_ends = any(_can_end(u, ends, calls) for u in list(ends) + list(calls) if u.startswith("trigger"))
    end_rules = bool(data.get("end"))
    # a trigger that can offer a decision runs when its event fires: phase_begin and phase_end
    # fire in every phase, other events only where some hook runs code
    every_phase_decides = hook_phase_decides = False
    if end_rules:
        for tname, tspec in (data.get("triggers") or {}).items():
            if isinstance(tspec, dict) and _can_decide(data, f"trigger {tname}", calls):
                if tspec.get("on") in ("phase_begin", "phase_end"):
                    every_phase_decides = True
                else:
                    hook_phase_decides = True
    for name, spec in phases.items():
        g.add_node(name)
        spec = spec or {}
        for target, cond in edges_of(spec):
            g.add_edge(name, target, condition=cond)
        hooks = _hook_units(name)
        units = hooks + [f"action {a}" for a in ((spec.get("turn") or {}).get("actions") or [])]
        decides = (
            spec.get("turn") is not None
            or every_phase_decides
            or (hook_phase_decides and any(_unit_text(data, u) is not None for u in hooks))
            or any(_can_decide(data, u, calls) for u in hooks)
        )
        if trigger_ends or (end_rules and decides) or any(_can_end(u, ends, calls) for u in units):
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
    # with end rules, say why they do not count here: the author expects them to end the game
    why = (
        "; 'end' rules are checked only when a decision is offered (a turn, choose or simultaneous)"
        if data.get("end")
        else ""
    )
    for name in phases:
        if name in reachable and g.out_degree(name) == 0:
            out.append(
                doc.diag(
                    "E054",
                    f"phase '{name}' has no transition and its rules never end the game",
                    ("phases", name),
                    "add 'next: <phase>' or an 'end game' effect" + why,
                    key=True,
                )
            )
        elif name in reachable and name not in can_finish:
            out.append(
                doc.diag(
                    "E052",
                    f"once in phase '{name}' the game can never end",
                    ("phases", name),
                    "add a transition towards a phase that ends the game, or an 'end game' effect" + why,
                    key=True,
                )
            )
    return g, out
