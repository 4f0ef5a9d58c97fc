"""The names a board's map gives its columns and rows (``board.axes``), so
that the map reads as the ruleset names its spaces (``d3``, not ``3,2``).
Shared by the terminal map and the browser's board."""

from __future__ import annotations


def axis_names(board_spec: dict | None, axis: str, values: list) -> dict:
    """``value -> name`` for the ``col`` or ``row`` values a board has, in
    order: the i-th declared label names the i-th smallest value; a value
    past the end of the labels (or without any) is named by itself."""
    labels = ((board_spec or {}).get("axes") or {}).get(axis) or []
    return {v: str(labels[i]) if i < len(labels) else str(v) for i, v in enumerate(sorted(values))}
