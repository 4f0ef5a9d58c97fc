"""Tables of the ruleset's functions of fixed data, filled on first use.

A function that reads only what no rule changes (fixed properties of
components no rule creates, the boards, the game's parameters and
definitions, constants: compiler/tabling.py decides which) gives the same
value for the same arguments all game, in every game with the same
catalogue. Its compiled front looks the arguments up here and computes the
value only the first time (``tabled``).

The tables live beside the catalogue's columns (``Catalog.columns.tables``),
not on the state: they are derived from the ruleset and its settings, so a
save, a clone or a replay neither holds nor needs them, and every game with
the same catalogue shares them. A determinized sample, whose hidden fixed
rows are dealt out again, has columns of its own, and so tables of its own;
it shares the catalogue's table of a function only when dealing changes
none of the fixed properties that function reads (``table_of``).

Each entry keeps the work its computation counted against the work budget
(``st.work``), and a look-up counts it again: the budget is spent exactly as
without the table, whichever game filled it, so a game's course never
depends on what ran before it in the process.
"""

from __future__ import annotations

MAX_ENTRIES = 1 << 16  # argument tuples kept per function; beyond, values are computed as they are asked


def table_of(columns, name: str, reads: tuple) -> dict:
    """The table of the function ``name`` for these columns, made on first
    use: the base columns' own when this is a determinized sample whose
    dealing keeps every property in ``reads`` (``Columns.kept``)."""
    tables = columns.tables
    table = tables.get(name)
    if table is None:
        base, kept = columns.base, columns.kept
        if base is not None and kept is not None and all(kept[attr] for attr in reads):
            table = table_of(base, name, reads)
        else:
            table = {}
        tables[name] = table
    return table


def tabled(st, name: str, reads: tuple, key, compute, *args):
    """The value of ``compute(st, *args)``, kept in the table of ``name``
    under ``key`` with the work it counted. A computation that fails
    (a rule's error, the budget spent) keeps nothing: it fails again, at
    the same place, whenever it is asked again."""
    table = table_of(st.cat.columns, name, reads)
    before = st.work
    value = compute(st, *args)
    if len(table) < MAX_ENTRIES:
        table[key] = (value, st.work - before)
    return value


__all__ = ["MAX_ENTRIES", "table_of", "tabled"]
