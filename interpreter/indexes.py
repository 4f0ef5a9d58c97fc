"""Indexes of changing properties by value, for the queries that read them.

``filter(components(hex), h => h.terrain == 'sea' and ...)`` scans every
hex at each call; when a filter over every component of a type tests a
changing property against fixed values (``compiler/plan.value_test``), the
compiler asks the engine to keep that property in an index, and the filter
reads only the components holding one of the values. The index is derived
data: made with the game's start (``build``), kept by the rules' ``set``
(``set_indexed``, written for the indexed properties only), copied with the
state, made again where something else rewrites properties (a determinized
sample) and never saved: a loaded game replays its moves and rebuilds it.

``st.index``: (type, property) -> value -> the components holding that
value, in the order ``components(type)`` lists them.
"""

from __future__ import annotations

from bisect import insort
from itertools import chain


def build(st) -> dict:
    """Every index the program keeps, from the state's properties now."""
    index = {}
    for type_name, prop in st.prog.indexes:
        buckets: dict = {}
        for c in st.cat.by_type[type_name]:  # ascending: the order of components(type)
            buckets.setdefault(st.props[c][prop], []).append(c)
        index[(type_name, prop)] = buckets
    return index


def copy(index: dict) -> dict:
    return {key: {v: ids[:] for v, ids in buckets.items()} for key, buckets in index.items()}


def indexed(st, type_name: str, prop: str, values: tuple) -> list:
    """The components of ``type_name`` whose ``prop`` is one of ``values``, in
    the order of ``components(type_name)`` (a new list)."""
    buckets = st.index[(type_name, prop)]
    if len(values) == 1:
        return list(buckets.get(values[0], ()))
    found = [buckets[v] for v in values if v in buckets]
    return sorted(chain.from_iterable(found)) if len(found) > 1 else list(found[0]) if found else []


def set_indexed(st, c: int, prop: str, value) -> None:
    """``set c.prop = value`` for a property some index keeps (of some type):
    the component moves to the value's bucket when its type is indexed."""
    props = st.props[c]
    old = props[prop]
    props[prop] = value
    if old == value and type(old) is type(value):
        return
    buckets = st.index.get((st.cat.types[c] if c < st.cat.n else st.static[c].get("type"), prop))
    if buckets is not None:
        ids = buckets[old]
        ids.remove(c)
        if not ids:
            del buckets[old]
        insort(buckets.setdefault(value, []), c)
