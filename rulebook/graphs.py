"""Phase graphs as text: DOT for Graphviz and Mermaid flowcharts."""

from __future__ import annotations

import networkx as nx

from validator.graph import END


def to_dot(g: nx.DiGraph, title: str = "phases") -> str:
    lines = [
        f'digraph "{title}" {{',
        "  rankdir=LR;",
        "  node [shape=box, style=rounded];",
        f'  "{END}" [shape=doublecircle, label="end"];',
    ]
    for a, b, d in g.edges(data=True):
        label = d.get("condition")
        attr = f' [label="{_esc(label)}"]' if label else ""
        lines.append(f'  "{a}" -> "{b}"{attr};')
    lines.append("}")
    return "\n".join(lines)


def to_mermaid(g: nx.DiGraph) -> str:
    lines = ["flowchart LR"]
    ids = {n: f"n{i}" for i, n in enumerate(g.nodes)}
    for n, i in ids.items():
        lines.append(f"  {i}([end])" if n == END else f'  {i}["{n}"]')
    for a, b, d in g.edges(data=True):
        label = d.get("condition")
        arrow = f' -- "{_esc(label)}" -->' if label else " -->"
        lines.append(f"  {ids[a]}{arrow} {ids[b]}")
    return "\n".join(lines)


def _esc(text: str) -> str:
    return str(text).replace('"', "'").replace("\n", " ")
