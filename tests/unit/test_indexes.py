"""Indexes of changing properties by value (interpreter/indexes.py): a
filter over every component of a type that tests a changing property
against fixed values reads only the components holding them, and gives
what the scan of all of them gives, as the property changes, in clones,
in determinized samples and in loaded games."""

from __future__ import annotations

import random

from helpers import compile_ok
from rulebook.agents.determinize import determinize
from rulebook.interpreter import indexes

RULES = """
components:
  tile:
    for_each: {n: "range(1, 13)"}
    state:
      kind: "'wild' if n % 3 == 0 else 'field'"
      worn: "n % 2 == 0"
zones:
  bag: {of: tile, visibility: hidden}
  board: {of: tile}
functions:
  farmable:
    params: {t: tile}
    value: "t.kind in ['field', 'orchard']"
  farms:
    params: {}
    value: "filter(components(tile), t => farmable(t) and not t.worn)"
  farms_slow:
    params: {}
    value: "filter(components(tile), t => not (t.kind != 'field' and t.kind != 'orchard') and not t.worn)"
  wilds:
    params: {}
    value: "count(filter(components(tile), t => t.kind == 'wild'))"
  wilds_slow:
    params: {}
    value: "count(filter(components(tile), t => not (t.kind != 'wild')))"
setup: |
  move components(tile) to bag
  shuffle bag
  draw 4 from bag to board
actions:
  plant:
    params: {t: board}
    effect: |
      set t.kind = 'orchard' if t.kind == 'field' else 'field'
      set t.worn = not t.worn
  dig:
    effect: |
      set top(bag).kind = 'wild'
      draw from bag to board
phases:
  play:
    turn:
      actions: [plant, dig]
    end_if: "count(bag) == 0 or turn_number > 40"
    next: done
  done:
    on_begin: |
      end game
"""


def _agree(fns, st) -> None:
    assert st.index == indexes.build(st)
    assert fns["fn_farms"](st, None) == fns["fn_farms_slow"](st, None)
    assert fns["fn_wilds"](st, None) == fns["fn_wilds_slow"](st, None)


def test_a_filter_by_a_changing_value_reads_its_index_and_agrees_with_the_scan():
    g = compile_ok(RULES)
    src, fns = g.program.source, g.program.module
    assert g.program.indexes == (("tile", "kind"),)  # 'worn' is tested with not, not against values
    assert "indexed(st, 'tile', 'kind'," in src[src.index("def fn_farms("):].split("\n\n")[0]
    assert "indexed(" not in src[src.index("def fn_farms_slow("):].split("\n\n")[0]
    assert "set_indexed(st, " in src and "'worn'" not in src.split("set_indexed")[1].split("\n")[0]
    seen = set()
    for seed in range(6):
        st = g.new(players=2, seed=seed)
        r = random.Random(seed)
        while not st.over:
            _agree(fns, st)
            seen.add(len(fns["fn_farms"](st, None)))
            p = g.to_move(st)[0]
            g.apply(st, p, r.randrange(len(g.options(st, p))))
        _agree(fns, st)
    assert len(seen) > 3  # the kinds did change


def test_a_clone_keeps_an_index_of_its_own_and_a_sample_makes_its_own_again():
    g = compile_ok(RULES)
    fns = g.program.module
    st = g.new(players=2, seed=3)
    before = indexes.copy(st.index)
    twin = st.clone()
    g.apply(twin, g.to_move(twin)[0], 0)  # plant: a tile of the board changes its kind
    assert st.index == before and twin.index != before
    _agree(fns, twin)
    _agree(fns, st)
    for seed in range(5):  # the bag's tiles are hidden: a sample deals their kinds anew
        s = determinize(twin, 0, random.Random(seed))
        _agree(fns, s)


def test_a_loaded_game_rebuilds_its_index_by_replaying():
    g = compile_ok(RULES)
    st = g.new(players=2, seed=5)
    r = random.Random(5)
    for _ in range(7):
        p = g.to_move(st)[0]
        g.apply(st, p, r.randrange(len(g.options(st, p))))
    loaded = g.load(g.save(st))
    assert "index" not in st.to_data() and loaded.index == st.index == indexes.build(st)


def test_the_property_checks_catch_an_index_that_differs_from_the_properties():
    """``rulebook check`` and the property tests compare each index with
    the properties after every decision (``check_components``)."""
    import pytest

    from rulebook.testing.properties import CheckFailed, check_components

    g = compile_ok(RULES)
    st = g.new(players=2, seed=1)
    check_components(st, [0])
    c = st.cat.by_type["tile"][0]
    st.props[c]["kind"] = "orchard" if st.props[c]["kind"] != "orchard" else "field"  # not through the rules
    with pytest.raises(CheckFailed, match="index"):
        check_components(st, [0])
