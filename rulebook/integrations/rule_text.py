"""Every string of a ruleset's data: what the integrations search for the
words that show a feature (a ``create``, a ``simultaneous for``, a ``hide``)."""

from __future__ import annotations

from collections.abc import Iterator


def rule_strings(data) -> Iterator[str]:
    """Each string in the ruleset's data (mappings and lists walked)."""
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, str):
            yield x
