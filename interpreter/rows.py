"""Values computed once per fixed row of the catalogue (a component's fixed
properties): its name, its back's name, a determinized sample's keys. A
sample deals the rows anew among its components, so the row, not the
component's number, is the key."""

from __future__ import annotations


def per_row(cache: dict, row: dict, compute):
    """A value computed once per fixed row (rows never change during a game,
    and each belongs to one catalogue): keyed by the row's id, the row kept
    alive in the entry so that its id cannot be reused by another object."""
    hit = cache.get(id(row))
    if hit is not None and hit[0] is row:
        return hit[1]
    value = compute()
    if len(cache) >= 65536:
        cache.clear()
    cache[id(row)] = (row, value)
    return value
