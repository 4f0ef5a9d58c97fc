"""Phase graphs as text (DOT for Graphviz, Mermaid flowcharts) and as pictures.

Pictures (SVG, PNG) are drawn by Graphviz's ``dot`` program rather than by a
Python library: Graphviz lays out graphs far better than anything we would
write, and it is an ordinary system package. It is optional, so a missing
``dot`` is reported as :class:`GraphvizMissing` with a message that says what
to install, and the text formats keep working without it.
"""

from __future__ import annotations

import shutil
import subprocess

import networkx as nx

from rulebook.validator.graph import END

#: Formats drawn by Graphviz; the text formats (dot, mermaid) need nothing installed.
IMAGE_FORMATS = ("svg", "png")

#: Seconds Graphviz may take; the phase graphs of real games take milliseconds.
DOT_TIMEOUT = 60


class GraphvizMissing(RuntimeError):
    """Graphviz's ``dot`` is not on PATH, so no picture can be drawn."""


class GraphvizFailed(RuntimeError):
    """``dot`` ran but did not produce a picture (its first error line is the message)."""


def to_dot(g: nx.DiGraph, title: str = "phases", start: str | None = None) -> str:
    """DOT text of a phase graph.

    Every phase is declared as a node, not only those with edges, so a
    picture names every phase; ``start`` (the first phase) gets an arrow from
    a small dot so a reader sees where play begins.
    """
    lines = [
        f'digraph "{_dot_esc(title)}" {{',
        "  rankdir=LR;",
        "  node [shape=box, style=rounded];",
        f'  "{END}" [shape=doublecircle, label="end"];',
    ]
    for n in g.nodes:
        if n != END:
            lines.append(f'  "{_dot_esc(n)}";')
    if start is not None:
        lines.append('  "(start)" [shape=point, label=""];')
        lines.append(f'  "(start)" -> "{_dot_esc(start)}";')
    for a, b, d in g.edges(data=True):
        label = d.get("condition")
        attr = f' [label="{_dot_esc(label)}"]' if label else ""
        lines.append(f'  "{_dot_esc(a)}" -> "{_dot_esc(b)}"{attr};')
    lines.append("}")
    return "\n".join(lines)


def to_mermaid(g: nx.DiGraph) -> str:
    """A Mermaid flowchart of a phase graph (GitHub renders these in Markdown)."""
    lines = ["flowchart LR"]
    ids = {n: f"n{i}" for i, n in enumerate(g.nodes)}
    for n, i in ids.items():
        lines.append(f"  {i}([end])" if n == END else f'  {i}["{n}"]')
    for a, b, d in g.edges(data=True):
        label = d.get("condition")
        arrow = f' -- "{_esc(label)}" -->' if label else " -->"
        lines.append(f"  {ids[a]}{arrow} {ids[b]}")
    return "\n".join(lines)


def render(dot_text: str, fmt: str) -> bytes:
    """Draw DOT text as ``fmt`` (``svg`` or ``png``) with Graphviz's ``dot``.

    Raises GraphvizMissing when ``dot`` is not installed and GraphvizFailed
    when it rejects the input, each with a one-line message for the user.
    """
    if fmt not in IMAGE_FORMATS:
        raise ValueError(f"not an image format: {fmt!r}")
    exe = shutil.which("dot")
    if exe is None:
        raise GraphvizMissing(
            f"--format {fmt} needs Graphviz's 'dot' program, which is not on PATH; "
            "install Graphviz (e.g. apt-get install graphviz, brew install graphviz) "
            "or use --format dot or mermaid"
        )
    try:
        proc = subprocess.run(
            [exe, f"-T{fmt}"], input=dot_text.encode("utf-8"), capture_output=True, timeout=DOT_TIMEOUT, check=False
        )
    except subprocess.TimeoutExpired:
        raise GraphvizFailed(f"Graphviz's dot took more than {DOT_TIMEOUT} s to draw the graph") from None
    except OSError as err:
        raise GraphvizFailed(f"Graphviz's dot could not be run: {err}") from None
    if proc.returncode != 0 or not proc.stdout:
        first = next((ln for ln in proc.stderr.decode("utf-8", "replace").splitlines() if ln.strip()), "no output")
        raise GraphvizFailed(f"Graphviz's dot failed (exit {proc.returncode}): {first}")
    return proc.stdout


def to_simple_svg(g: nx.DiGraph, start: str | None = None) -> str:
    """A plain SVG of a phase graph without Graphviz (for ``rulebook serve``
    on a machine without it): phases on a circle, the end in the middle,
    an arrow per transition. Each node is a ``<g class="node">`` with a
    ``<title>``, as in Graphviz's drawings, so pages can find a phase."""
    import math
    from html import escape

    nodes = [n for n in g.nodes if n != END]
    size, radius = 520, 190
    pos = {END: (size / 2, size / 2)}
    for i, n in enumerate(nodes):
        angle = 2 * math.pi * i / max(1, len(nodes)) - math.pi / 2
        pos[n] = (size / 2 + radius * math.cos(angle), size / 2 + radius * math.sin(angle))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" width="{size}" height="{size}">',
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
           'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z"/></marker></defs>']
    for a, b, d in g.edges(data=True):
        (x1, y1), (x2, y2) = pos[a], pos[b]
        length = math.hypot(x2 - x1, y2 - y1) or 1
        dx, dy = (x2 - x1) / length, (y2 - y1) / length
        out.append(f'<g class="edge"><title>{escape(str(a))}-&gt;{escape(str(b))}</title>'
                   f'<line x1="{x1 + dx * 40:.0f}" y1="{y1 + dy * 20:.0f}" x2="{x2 - dx * 40:.0f}" '
                   f'y2="{y2 - dy * 20:.0f}" stroke="#555" marker-end="url(#arrow)"/>'
                   + (f'<text x="{(x1 + x2) / 2:.0f}" y="{(y1 + y2) / 2 - 4:.0f}" font-size="10" '
                      f'text-anchor="middle" fill="#555">{escape(str(d["condition"]))}</text>'
                      if d.get("condition") else "") + "</g>")
    for n, (x, y) in pos.items():
        label = "end" if n == END else str(n)
        stroke = ' stroke-width="3"' if n == start else ""
        out.append(f'<g class="node"><title>{escape(str(n))}</title><ellipse cx="{x:.0f}" cy="{y:.0f}" rx="42" '
                   f'ry="20" fill="white" stroke="black"{stroke}/><text x="{x:.0f}" y="{y + 4:.0f}" '
                   f'text-anchor="middle" font-size="13">{escape(label)}</text></g>')
    out.append("</svg>")
    return "\n".join(out)


def _esc(text: str) -> str:
    """Mermaid labels: no double quotes, one line."""
    return str(text).replace('"', "'").replace("\n", " ")


def _dot_esc(text: str) -> str:
    """DOT quoted strings: backslashes escaped too, so a condition reads as written."""
    return _esc(str(text).replace("\\", "\\\\"))
