"""Query planning (compiler/plan.py): a filter over every component of a
type whose condition requires a zone of one family reads only the
components in that family's zones, and keeps the same components in the
same order as the scan of all of them."""

from __future__ import annotations

import random

import pytest
from helpers import HEAD, compile_ok

RULES = """
components:
  card:
    for_each: {value: "range(1, 13)"}
zones:
  deck: {of: card, visibility: hidden}
  hand: {of: card, per: player}
  table: {of: card}
functions:
  held_by:
    params: {c: card, p: player}
    value: "zone(c) != none and zone(c) == hand[p]"
  high_held:
    params: {p: player}
    value: "filter(components(card), c => c.value > 2 and held_by(c, p))"
  on_table:
    params: {}
    value: "filter(components(card), c => table == zone(c))"
  held_or_ace:
    params: {p: player}
    value: "filter(components(card), c => zone(c) == hand[p] or c.value == 1)"
  lucky:
    params: {p: player}
    value: "filter(components(card), c => zone(c) == hand[p] and roll(6) > 3)"
setup: |
  move components(card) to deck
  shuffle deck
actions:
  draw:
    effect: |
      move top(deck) to hand[player]
  lay:
    params: {c: "hand[player]"}
    effect: |
      move c to table
phases:
  play:
    turn:
      actions: [draw, lay]
    end_if: "count(deck) == 0"
    next: done
  done:
    on_begin: |
      end game
"""


def _naive(st, test):
    return [c for c in range(st.cat.n) if test(c)]


def test_a_condition_that_requires_a_zone_family_reads_that_family_only():
    g = compile_ok(RULES)
    src = g.program.source
    assert "components_in(st, 'card', 'hand')" in src  # through the function the condition calls
    assert "components_in(st, 'card', 'table')" in src  # the zone on either side of ==
    held_or_ace = src[src.index("def fn_held_or_ace"):].split("\n\n")[0]
    assert "components_in" not in held_or_ace  # 'or': an ace anywhere is kept
    lucky = src[src.index("def fn_lucky"):].split("\n\n")[0]
    assert "components_in" not in lucky  # a condition that draws at random is evaluated for every card


def test_the_planned_filter_keeps_what_the_scan_of_every_component_keeps():
    g = compile_ok(RULES)
    fns = g.program.module
    rng = random.Random(5)
    for seed in range(3):
        st = g.new(players=2, seed=seed)
        while not st.over:
            value = st.cat.columns["value"]
            hand = [st.cat.zone_base["hand"] + p for p in range(2)]
            table = st.cat.zone_base["table"]
            for p in range(2):
                assert fns["fn_high_held"](st, p, p) == _naive(st, lambda c: value[c] > 2 and st.loc[c] == hand[p])
                assert fns["fn_held_or_ace"](st, p, p) == _naive(st, lambda c: st.loc[c] == hand[p] or value[c] == 1)
            assert fns["fn_on_table"](st, 0) == _naive(st, lambda c: st.loc[c] == table)
            p = g.to_move(st)[0]
            g.apply(st, p, rng.randrange(len(g.options(st, p))))


KINDS = """
components:
  card:
    for_each: {colour: "['red', 'blue']", rank: "range(1, 4)"}
    copies: 2
    props:
      tags: "[colour, [rank]]"
zones:
  deck: {of: card}
functions:
  kinds:
    params: {}
    value: "distinct(deck, c => [c.colour, c.rank])"
  kinds_slow:
    params: {}
    value: "distinct(deck, c => [c.colour, c.rank, 0])"
  by_tags:
    params: {}
    value: "distinct(deck, c => c.tags)"
  by_tags_slow:
    params: {}
    value: "distinct(deck, c => [c.tags, 0])"
setup: |
  move components(card) to deck
  shuffle deck
phases:
  done:
    on_begin: |
      end game
"""


def test_a_distinct_by_key_of_fixed_properties_reads_a_column_of_keys():
    """``distinct_by`` whose key is made of fixed properties only reads each
    component's key from a column built once per catalogue; it keeps what
    the general path keeps (keys holding lists included)."""
    g = compile_ok(KINDS)
    src = g.program.source
    assert "st.cat.columns[('colour', 'rank')]" in src and "st.cat.columns[('tags',)]" in src
    fns = g.program.module
    for seed in range(5):
        st = g.new(players=2, seed=seed)
        kinds, by_tags = fns["fn_kinds"](st, None), fns["fn_by_tags"](st, None)
        assert kinds == fns["fn_kinds_slow"](st, None) and len(kinds) == 6
        assert by_tags == fns["fn_by_tags_slow"](st, None) and len(by_tags) == 6


def test_a_determinized_sample_reads_keys_of_its_own_rows():
    """A sample deals hidden rows out again: its key columns are made from
    its own rows, not the catalogue's (the hidden deck here)."""
    import random as _random

    from rulebook.agents.determinize import determinize

    g = compile_ok(KINDS.replace("deck: {of: card}", "deck: {of: card, visibility: hidden}"))
    st = g.new(players=2, seed=3)
    real = g.program.module["fn_kinds"](st, None)
    dealt = 0
    for seed in range(5):
        s = determinize(st, 0, _random.Random(seed))
        rows = s.static
        dealt += rows != st.static
        kinds = g.program.module["fn_kinds"](s, None)
        seen, want = set(), []
        for c in s.zones[s.cat.zone_base["deck"]]:
            key = (rows[c]["colour"], rows[c]["rank"])
            if key not in seen:
                seen.add(key)
                want.append(c)
        assert kinds == want and len(kinds) == len(real) == 6
    assert dealt  # the samples did deal the rows out again


ONCE = """
components:
  card:
    for_each: {value: "range(1, 9)"}
zones:
  deck: {of: card}
  pile: {of: card}
functions:
  above_the_pile:
    params: {}
    value: "filter(deck, c => count(pile) == 0 or c.value > sum(pile, x => x.value) // count(pile))"
  above_the_pile_slow:
    params: {}
    value: "filter(deck, c => count(pile) == 0 or c.value > sum(pile, x => x.value + 0 * c.value) // count(pile))"
  above_empty:
    params: {}
    value: "filter(deck, c => c.value > sum(pile, x => x.value) // count(pile))"
  by_opponent:
    params: {p: player}
    value: "sort(deck, c => index_of(opponents(p), c.value % 2))"
actions:
  pile_one:
    effect: |
      move top(deck) to pile
phases:
  play:
    turn:
      actions: [pile_one]
    end_if: "count(deck) == 0"
    next: done
  done:
    on_begin: |
      end game
setup: |
  move components(card) to deck
  shuffle deck
"""


def test_a_part_of_a_query_that_reads_no_item_is_computed_once_and_fails_only_where_the_rule_would():
    """A part of a query's condition or key that depends on no item is
    computed once before the query (``attempt``); when computing it fails,
    the query computes it where the rule reads it, so an error comes only
    where, and only when, the rule itself would meet it."""
    from rulebook.interpreter.errors import RuleError

    g = compile_ok(ONCE, HEAD.replace("{min: 2, max: 2}", "{min: 3, max: 3}"))
    src = g.program.source
    fns = g.program.module
    assert src.count("attempt(lambda:") == 3  # the pile's mean value twice, and the opponents, once per query
    above = src[src.index("def fn_above_the_pile_slow"):].split("\n\n")[0]
    assert "attempt" not in above  # a part that reads the item is not computed before
    st = g.new(players=3, seed=2)
    assert fns["fn_above_the_pile"](st, None) == st.zones[st.cat.zone_base["deck"]]  # an empty pile: its mean not read
    with pytest.raises(RuleError):
        fns["fn_above_empty"](st, None)  # read, and empty: the rule's own error, at the rule's place
    while not st.over:
        assert fns["fn_above_the_pile"](st, None) == fns["fn_above_the_pile_slow"](st, None)
        for p in range(3):
            opp = fns["fn_by_opponent"](st, p, p)
            order = [q for q in [(p + 1) % 3, (p + 2) % 3]]
            want = sorted(st.zones[st.cat.zone_base["deck"]], key=lambda c: order.index(st.cat.columns["value"][c] % 2)
                          if st.cat.columns["value"][c] % 2 in order else -1)
            assert opp == want
        g.apply(st, g.to_move(st)[0], 0)


CALLS = ONCE[:ONCE.index("functions:\n")] + """functions:
  pile_total:
    params: {}
    value: "sum(pile, x => x.value)"
  mean_pile:
    params: {}
    value: "pile_total() // count(pile)"
  lucky:
    params: {}
    value: "roll(6)"
  above_mean:
    params: {}
    value: "filter(deck, c => c.value > mean_pile() and c.value < mean_pile() + 3)"
  above_mean_slow:
    params: {}
    value: >-
      filter(deck, c => c.value > sum(pile, x => x.value) // count(pile)
                        and c.value < sum(pile, x => x.value) // count(pile) + 3)
  above_luck:
    params: {}
    value: "filter(deck, c => c.value > lucky())"
""" + ONCE[ONCE.index("actions:\n"):]


def test_a_call_of_a_function_that_draws_nothing_is_computed_once_before_the_query():
    """A ruleset function called in a query's condition with nothing of the
    item is computed once before the query (twice written in an and-chain:
    both read the one value), and fails only where the rule would; a
    function that draws at random is called for each item, as written."""
    from rulebook.interpreter.errors import RuleError

    g = compile_ok(CALLS)
    src = g.program.source
    fns = g.program.module
    assert "attempt(lambda: fn_mean_pile(" in src
    luck = src[src.index("def fn_above_luck("):].split("\n\n")[0]
    assert "attempt" not in luck  # a draw per item, as the rule says
    st = g.new(players=2, seed=2)
    with pytest.raises(RuleError):
        fns["fn_above_mean"](st, None)  # the pile is empty: the rule's own division by zero
    real, calls = fns["fn_mean_pile"], []
    fns["fn_mean_pile"] = lambda *args: calls.append(args) or real(*args)  # the module's globals: counted
    while not st.over:
        g.apply(st, g.to_move(st)[0], 0)
        if st.over:
            break
        calls.clear()
        assert fns["fn_above_mean"](st, None) == fns["fn_above_mean_slow"](st, None)
        assert len(calls) == 2  # once for each of the two parts, not once for each card of the deck
    assert fns["fn_above_mean"](st, None) == []  # the deck is empty: the pile's mean is read for no card


LOOKUPS = ONCE[:ONCE.index("functions:\n")] + """vars:
  limit: 4
functions:
  near_the_top:
    params: {}
    value: "filter(deck, c => top(pile) == none or c.value == limit or c.value < top(pile).value)"
  near_the_top_slow:
    params: {}
    value: >-
      filter(deck, c => top(pile) == none or c.value == limit + 0 * c.value
      or c.value < top(pile).value + 0 * c.value)
  above_top:
    params: {}
    value: "filter(deck, c => c.value > top(pile).value)"
  guarded_top:
    params: {}
    value: "filter(deck, c => top(pile) == none or top(pile).value == 4 or c.value == 1)"
  guarded_top_slow:
    params: {}
    value: "filter(deck, c => top(pile) == none or top(pile).value == 4 + 0 * c.value or c.value == 1)"
""" + ONCE[ONCE.index("actions:\n"):]


def test_lookups_that_cannot_fail_are_read_once_per_query_without_attempt():
    """A variable, a shared zone's top and an equality test of them read no
    item and cannot fail: they are read once before the query into plain
    names (no closure, no ``attempt``), written twice, named once; a
    property of that top can fail (an empty pile) and stays in place, so
    the rule's error comes where the rule meets it."""
    from rulebook.interpreter.errors import RuleError

    g = compile_ok(LOOKUPS)
    src = g.program.source
    fns = g.program.module
    near = src[src.index("def fn_near_the_top("):].split("\n\n")[0]
    assert "attempt" not in near
    assert near.count(":= st.vars['limit'])") == 1 and near.count(":= (st.zones[") == 1
    guarded = src[src.index("def fn_guarded_top("):].split("\n\n")[0]
    assert "attempt" not in guarded  # the top's value is read only when there is a top: it cannot fail
    st = g.new(players=2, seed=2)
    assert fns["fn_near_the_top"](st, None) == st.zones[st.cat.zone_base["deck"]]  # an empty pile
    with pytest.raises((RuleError, TypeError)):  # a TypeError the run loop reports at the rule's place
        fns["fn_above_top"](st, None)  # the empty pile's top has no value: the rule's own error
    while not st.over:
        assert fns["fn_near_the_top"](st, None) == fns["fn_near_the_top_slow"](st, None)
        assert fns["fn_guarded_top"](st, None) == fns["fn_guarded_top_slow"](st, None)
        g.apply(st, g.to_move(st)[0], 0)


KEPT_KINDS = """
components:
  card:
    for_each: {colour: "['red', 'blue', 'green']", rank: "range(1, 6)"}
    copies: 3
    state:
      worn: "0"
zones:
  deck: {of: card}
  hand: {of: card, per: player}
vars:
  wanted: 3
functions:
  kinds_in:
    params: {p: player}
    value: "distinct(hand[p], c => [c.colour, c.rank])"
  fits:
    params: {c: card}
    value: "c.rank == wanted or c.colour == 'red'"
  red_or_wanted:
    params: {p: player}
    value: "filter(kinds_in(p), x => fits(x))"
  red_or_wanted_slow:
    params: {p: player}
    value: "filter(kinds_in(p), x => fits(x) or x.worn > 99)"
  written_in_place:
    params: {p: player}
    value: "filter(distinct(hand[p], c => [c.colour, c.rank]), x => x.rank > wanted)"
  written_in_place_slow:
    params: {p: player}
    value: "filter(distinct(hand[p], c => [c.colour, c.rank]), x => x.rank > wanted and x.worn < 99)"
actions:
  take:
    effect: |
      move top(deck) to hand[player]
      set wanted = roll(5)
""" + ONCE[ONCE.index("phases:\n"):].replace("pile_one", "take")


def test_a_filter_of_distinct_kinds_by_their_own_properties_filters_first():
    """``filter(distinct(xs, key), pred)`` where ``pred`` reads the item only
    through the key's fixed properties (here through a function) is written
    as ``distinct(filter(xs, pred), key)``: the same cards in the same order;
    a condition that reads anything else of the item keeps the written order."""
    g = compile_ok(KEPT_KINDS)
    src = g.program.source
    fns = g.program.module
    fast = src[src.index("def fn_red_or_wanted("):].split("\n\n")[0]
    slow = src[src.index("def fn_red_or_wanted_slow("):].split("\n\n")[0]
    assert "return distinct_of(charged(st, " in fast and "return distinct_of(" not in slow
    assert "return distinct_of(charged(st, " in src[src.index("def fn_written_in_place("):].split("\n\n")[0]
    checked = 0
    for seed in range(4):
        st = g.new(players=2, seed=seed)
        while not st.over:
            for p in range(2):
                kept = fns["fn_red_or_wanted"](st, p, p)
                assert kept == fns["fn_red_or_wanted_slow"](st, p, p)
                assert fns["fn_written_in_place"](st, p, p) == fns["fn_written_in_place_slow"](st, p, p)
                checked += bool(kept)
            g.apply(st, g.to_move(st)[0], 0)
    assert checked > 20


SEARCHES = ONCE[:ONCE.index("functions:\n")] + """functions:
  has_high:
    params: {}
    value: "any(pile, c => c.value > 6)"
  all_low:
    params: {}
    value: "all(pile, c => c.value < 7)"
  first_high:
    params: {}
    value: "first(pile, c => c.value > 6)"
  first_over:
    params: {}
    value: "first(pile, c => c.value > 12 // count(deck))"
  called:
    params: {}
    value: "[has_high(), all_low(), first_high()]"
  inside:
    params: {k: int}
    value: "count(deck) == 0 or any(pile, c => c.value == k) and not all(pile, c => c.value != k + 1)"
  divided:
    params: {k: int}
    value: "count(deck) > 99 or any(pile, c => c.value // k > 1)"
""" + ONCE[ONCE.index("actions:\n"):]


def test_a_function_that_searches_a_list_is_a_loop_that_returns_at_the_answer():
    """A ruleset function whose body is ``any``, ``all`` or ``first`` with a
    condition (and nothing in it to compute once before) is a ``for`` loop
    returning at the answer, called where it is used (no generator made at
    each call); its answers are the generator's. One whose condition has a
    part to compute once keeps the query (and the rule's error where the rule
    meets it: 12 // 0 once the deck is empty)."""
    from rulebook.interpreter.errors import RuleError

    g = compile_ok(SEARCHES)
    src, fns = g.program.source, g.program.module
    body = src[src.index("def fn_has_high("):].split("\n\n")[0]
    assert "    for c_" in body and ": return True" in body and body.rstrip().endswith("return False")
    assert "return None" in src[src.index("def fn_first_high("):].split("\n\n")[0]
    assert "attempt(" in src[src.index("def fn_first_over("):].split("\n\n")[0]  # the query, its part once
    called = src[src.index("def fn_called("):].split("\n\n")[0]
    assert "fn_has_high(st" in called and "fn_first_high(st" in called
    st = g.new(players=2, seed=4)
    seen = set()
    while not st.over:
        pile = [c for c in st.zones[st.cat.zone_base["pile"]]]
        value = st.cat.columns["value"]
        high = [c for c in pile if value[c] > 6]
        want = [bool(high), not high, high[0] if high else None]
        assert fns["fn_called"](st, None) == want
        seen.add(tuple(map(bool, want)))
        g.apply(st, g.to_move(st)[0], 0)
    assert len(seen) == 2  # no high card yet, then one
    with pytest.raises(RuleError):
        fns["fn_first_over"](st, None)  # the deck is empty: the rule's own division by zero


def test_a_search_inside_an_expression_is_a_loop_of_its_own_with_its_rules_place():
    """``any``/``all``/``first`` with a condition inside a larger expression
    is a call of a small loop function taking the locals it reads (``k``
    here), with the generator's answers, and an error in its condition is
    reported at the rule's place."""
    from rulebook.interpreter.errors import RuleError

    g = compile_ok(SEARCHES)
    src, fns = g.program.source, g.program.module
    inside = src[src.index("def fn_inside("):].split("\n\n")[0]
    assert "any(" not in inside and "all(" not in inside and "any_fn_inside(st, k_" in inside
    st = g.new(players=2, seed=4)
    value = st.cat.columns["value"]
    while not st.over:
        pile = st.zones[st.cat.zone_base["pile"]]
        for k in range(1, 9):
            want = not st.zones[st.cat.zone_base["deck"]] or (any(value[c] == k for c in pile)
                                                               and not all(value[c] != k + 1 for c in pile))
            assert fns["fn_inside"](st, None, k) == want
        g.apply(st, g.to_move(st)[0], 0)
    st = g.new(players=2, seed=4)
    g.apply(st, g.to_move(st)[0], 0)  # a card on the pile
    with pytest.raises(RuleError) as err:
        fns["fn_divided"](st, None, 0)
    text = (HEAD + SEARCHES).splitlines()
    line = text.index(next(t for t in text if "c.value // k" in t)) + 1
    assert str(err.value).startswith(f"unit.yaml:{line}:")  # the rule's own place

