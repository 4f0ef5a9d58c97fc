"""Boards: spaces with adjacency and distance, declared as data.

A component type becomes a board by declaring ``board:``; its components are
the spaces. Kinds of board:

- ``hex`` with ``layout`` odd-r, even-r (pointy tops, rows shifted) or odd-q,
  even-q (flat tops, columns shifted); spaces need fixed properties ``col``
  and ``row``. Distance is the hex distance (cube coordinates).
- ``square``; spaces need ``col`` and ``row``; ``diagonal: true`` makes the
  eight surrounding squares adjacent (distance: Chebyshev, else Manhattan).
- ``graph``; spaces are named by the property given as ``key``; ``edges``
  lists pairs of keys. Distance is the number of edges on a shortest path.

Pieces stand on spaces through a zone kept per space (``zones: {on: {per: hex}}``).
Everything is computed once per game, when the catalogue is built.

A board kept per something (``per: seat``, a fixed property of the spaces)
is one board per value of that property, as ``land[p]`` is one zone per
player: each part has its own coordinates, neighbours, distances and lines
(``Board.parts``), and the type's ``Board`` joins them so that a space still
finds its neighbours; spaces of two parts are never adjacent and have no
distance.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

HEX_DIRECTIONS = ((1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1))


@dataclass
class Board:
    kind: str
    ids: list[int]
    adj: dict[int, list[int]] = field(default_factory=dict)
    coord: dict[int, tuple] = field(default_factory=dict)
    by_key: dict = field(default_factory=dict)  # (col, row) or key -> space
    diagonal: bool = False
    _lines: dict = field(default_factory=dict)  # length -> its lines, made on first use
    parts: dict = field(default_factory=dict)  # a board kept per something: its value -> that part's Board
    part_of: dict = field(default_factory=dict)  # space -> the value of the part it lies on

    def lines(self, n: int) -> list[list[int]]:
        """Every run of ``n`` spaces in a straight line, each once: on a
        square grid rows, columns and both diagonals, on a hex grid its
        three axes; from each start space (in id order) in that order of
        directions, each run from its start on."""
        done = self._lines.get(n)
        if done is not None:
            return done
        if self.parts:  # each part's lines, part after part (a line never leaves its part)
            self._lines[n] = [line for part in self.parts.values() for line in part.lines(n)]
            return self._lines[n]
        at = {pos: c for c, pos in self.coord.items()}
        dirs = HEX_DIRECTIONS[:3] if self.kind == "hex" else ((1, 0), (0, 1), (1, 1), (1, -1))
        out = []
        for c in sorted(self.coord):
            start = self.coord[c]
            for d in dirs if n > 1 else dirs[:1]:
                run = [at.get(tuple(p + k * q for p, q in zip(start, d))) for k in range(n)]
                if None not in run:
                    out.append(run)
        self._lines[n] = out
        return out

    def distance(self, a: int, b: int) -> int | None:
        if a not in self.coord or b not in self.coord:
            return None
        if self.parts:
            part = self.part_of[a]
            return self.parts[part].distance(a, b) if self.part_of[b] == part else None
        if self.kind == "hex":
            (x1, y1, z1), (x2, y2, z2) = self.coord[a], self.coord[b]
            return max(abs(x1 - x2), abs(y1 - y2), abs(z1 - z2))
        if self.kind == "square":
            (c1, r1), (c2, r2) = self.coord[a], self.coord[b]
            return max(abs(c1 - c2), abs(r1 - r2)) if self.diagonal else abs(c1 - c2) + abs(r1 - r2)
        return self.bfs(a).get(b)

    def distances_from(self, a: int) -> dict[int, int]:
        """Every space's distance from ``a`` (those ``distance`` gives a number for)."""
        if a not in self.coord:
            return {}
        if self.parts:
            return self.parts[self.part_of[a]].distances_from(a)
        if self.kind in ("hex", "square"):
            return {b: self.distance(a, b) for b in self.coord}
        return self.bfs(a)

    def bfs(self, start: int, passable=None, limit: int | None = None) -> dict[int, int]:
        seen = {start: 0}
        queue = deque([start])
        while queue:
            s = queue.popleft()
            d = seen[s]
            if limit is not None and d >= limit:
                continue
            for t in self.adj.get(s, ()):
                if t not in seen and (passable is None or passable(t)):
                    seen[t] = d + 1
                    queue.append(t)
        return seen


def _cube(layout: str, col: int, row: int) -> tuple[int, int, int]:
    if layout == "odd-r":
        x, z = col - (row - (row & 1)) // 2, row
    elif layout == "even-r":
        x, z = col - (row + (row & 1)) // 2, row
    elif layout == "odd-q":
        x, z = col, row - (col - (col & 1)) // 2
    else:  # even-q
        x, z = col, row - (col + (col & 1)) // 2
    return (x, -x - z, z)


def build(spec: dict, ids: list[int], static: list[dict]) -> Board:
    per = spec.get("per")
    if per is not None:
        return _build_parts(spec, per, ids, static)
    kind = spec.get("grid", "graph")
    board = Board(kind, list(ids), diagonal=bool(spec.get("diagonal", False)))
    if kind == "hex":
        layout = spec.get("layout", "odd-r")
        by_cube = {}
        for c in ids:
            col, row = static[c]["col"], static[c]["row"]
            cube = _cube(layout, col, row)
            board.coord[c] = cube
            board.by_key[(col, row)] = c
            by_cube[cube] = c
        for c in ids:
            x, y, z = board.coord[c]
            board.adj[c] = sorted(
                by_cube[(x + dx, y + dy, z + dz)]
                for dx, dy, dz in HEX_DIRECTIONS
                if (x + dx, y + dy, z + dz) in by_cube
            )
    elif kind == "square":
        for c in ids:
            pos = (static[c]["col"], static[c]["row"])
            board.coord[c] = pos
            board.by_key[pos] = c
        steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
        if board.diagonal:
            steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
        for c in ids:
            col, row = board.coord[c]
            board.adj[c] = sorted(
                board.by_key[(col + dc, row + dr)] for dc, dr in steps if (col + dc, row + dr) in board.by_key
            )
    else:
        key = spec.get("key", "name")
        for c in ids:
            board.by_key[static[c][key]] = c
            board.coord[c] = (static[c][key],)
            board.adj[c] = []
        for a, b in spec.get("edges") or []:
            if a in board.by_key and b in board.by_key:
                sa, sb = board.by_key[a], board.by_key[b]
                board.adj[sa].append(sb)
                if not spec.get("directed", False):
                    board.adj[sb].append(sa)
        for c in ids:
            board.adj[c] = sorted(set(board.adj[c]))
    return board


def _build_parts(spec: dict, per: str, ids: list[int], static: list[dict]) -> Board:
    """A board kept per ``per``: one part per value of the spaces' ``per``
    property (in the order of their first space), joined in one Board."""
    groups: dict = {}
    for c in ids:
        groups.setdefault(static[c][per], []).append(c)
    whole = {k: v for k, v in spec.items() if k != "per"}
    board = Board(spec.get("grid", "graph"), list(ids), diagonal=bool(spec.get("diagonal", False)))
    for value, members in groups.items():
        part = build(whole, members, static)
        board.parts[value] = part
        board.adj.update(part.adj)
        board.coord.update(part.coord)
        for c in members:
            board.part_of[c] = value
    return board


def space_in(board: Board, index, key):
    """The space at ``key`` on the part ``index`` of a board kept per
    something (None when there is no such part or space)."""
    try:
        part = board.parts.get(index)
    except TypeError:  # an unhashable index (a list) names no part
        return None
    if part is None:
        return None
    try:
        return part.by_key.get(key)
    except TypeError:
        return None


def drawn_boards(st) -> list[tuple[str, str, Board]]:
    """The boards a table draws, each as (its type, which part it is, its
    Board): a board kept per something once per part, the part named by its
    value (a seat by its player's name: `` of Alice``), else ``""``."""
    from rulebook.interpreter.labels import describe

    out = []
    for tname, board in st.cat.boards.items():
        if not board.parts:
            out.append((tname, "", board))
            continue
        per = st.prog.comp_types[tname].board["per"]
        t = st.prog.comp_types[tname].static.get(per)
        for value, part in board.parts.items():
            out.append((tname, f" of {describe(st, value, t)}", part))
    return out
