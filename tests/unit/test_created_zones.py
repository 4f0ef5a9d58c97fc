"""Components made with ``create`` get the zones of the families kept per
their type, as the components a game starts with do: rules, views, clones,
saves, the terminal and determinizations all see them."""

from __future__ import annotations

import json
import random
import textwrap

from helpers import HEAD, codes, compile_ok
from rulebook.agents.determinize import determinize
from rulebook.interpreter import ops
from rulebook.interpreter.view import view

GROW = """
components:
  pawn:
    count: 2
  card:
    for_each: {value: "range(1, 7)"}
zones:
  bag: {of: pawn}
  deck: {of: card}
  pile: {per: pawn, of: card}
  secret: {per: pawn, of: card, visibility: owner}
setup: |
  move components(pawn) to bag
  move components(card) to deck at bottom
actions:
  grow:
    effect: |
      create pawn in bag as extra
      set extra.owner = player
      move top(deck) to pile[extra]
      move top(deck) to secret[extra] face down
      say "{extra} holds {pile[extra]} and {count(secret[extra])} secret card"
  wait:
    effect: |
      pass
phases:
  play:
    turn:
      actions: [grow, wait]
    end_if: "count(deck) < 2"
    next: done
  done:
    on_begin: |
      end game
"""


def _grown(times: int = 1):
    g = compile_ok(GROW)
    st = g.new(players=2, seed=3)
    for _ in range(times):
        g.apply(st, g.to_move(st)[0], 0)
    return g, st


def test_a_created_component_has_its_own_zones_of_each_family_kept_per_its_type():
    g, st = _grown()
    extra = len(st.cat.static)  # the first component made in play
    assert [f for f, k in st.extra_zones] == ["pile", "secret"] and all(k == extra for _, k in st.extra_zones)
    pile, secret = ops.comp_zone(st, "pile", extra), ops.comp_zone(st, "secret", extra)
    assert [st.static[c]["value"] for c in st.zones[pile]] == [1]
    assert len(st.zones[secret]) == 1 and st.loc[st.zones[secret][0]] == secret
    assert ops.zone_owner(st, secret) == 0  # its owner is the created pawn's owner
    assert [e[1] for e in st.events if e[0] == "say"][-1] == "pawn holds [card 1] and 1 secret card"


def test_views_show_them_and_hide_what_the_owner_alone_may_see():
    g, st = _grown()
    extra = len(st.cat.static)
    mine, theirs = view(st, 0)["zones"], view(st, 1)["zones"]
    assert mine[f"pile[{extra}]"]["count"] == 1 and mine[f"secret[{extra}]"]["items"][0].get("hidden") is None
    assert theirs[f"secret[{extra}]"]["items"][0].get("hidden") is True


def test_clones_are_independent_and_saves_replay_to_the_same_zones():
    g, st = _grown()
    twin = g.clone(st)
    g.apply(twin, g.to_move(twin)[0], 0)  # the other player grows too, in the clone only
    assert len(twin.extra_zones) == 4 and len(st.extra_zones) == 2 and len(st.zones) + 2 == len(twin.zones)
    again = g.load(json.loads(json.dumps(g.save(twin))))
    assert again.extra_zones == twin.extra_zones and again.zones == twin.zones


def test_determinizations_keep_the_zones_and_the_view():
    g, st = _grown(3)
    sample = determinize(st, 1, random.Random(0))
    assert sample.extra_zones == st.extra_zones and view(sample, 1) == view(st, 1)


def test_the_terminal_lists_them_with_their_owner():
    from rulebook.terminal.screen import render_view

    g, st = _grown()
    text = render_view(st, 0)
    assert "pile" in text and "secret" in text


def test_a_zone_of_a_component_that_is_not_of_the_type_is_still_an_error():
    from rulebook.interpreter.errors import RuleError

    # a card where a pawn is wanted: caught when loading if the type is known, else when it happens
    assert "E041" in codes(GROW.replace("to pile[extra]", "to pile[top(deck)]"))
    g = compile_ok(GROW.replace("move top(deck) to pile[extra]",
                                "let xs = []\n      append top(deck) to xs\n      move top(deck) to pile[xs[0]]"))
    st = g.new(players=2, seed=3)
    try:
        g.apply(st, 0, 0)
    except RuleError as err:
        assert err.code == "R104" and "not a pawn" in str(err)
    else:
        raise AssertionError("a card is not a pawn: pile[card] must fail")


def test_a_type_test_reads_made_components_too_and_the_table_when_none_are_made():
    """``x.type`` of a component made in play is its type; a ruleset that
    makes none reads every type from the catalogue's table (no test of
    whether the component was made)."""
    typed = GROW.replace("zones:\n", 'functions:\n  pawns_in_bag:\n    params: {}\n'
                         '    value: "count(filter(bag, x => x.type == \'pawn\'))"\nzones:\n', 1)
    g = compile_ok(typed)
    st = g.new(players=2, seed=3)
    count = g.program.module["fn_pawns_in_bag"]
    assert count(st, None) == 2
    g.apply(st, g.to_move(st)[0], 0)  # grow: a third pawn, made in play
    assert max(st.zones[st.cat.zone_base["bag"]]) >= st.cat.n and count(st, None) == 3
    assert "cat_types" not in g.program.source
    unmade = compile_ok(typed.replace("      create pawn in bag as extra\n", "      let extra = top(bag)\n"))
    src = unmade.program.source
    assert "cat_types = st.cat.types" in src and "st.cat.n" not in src.split("def fn_pawns_in_bag")[1].split("\n\n")[0]
    st = unmade.new(players=2, seed=3)
    assert unmade.program.module["fn_pawns_in_bag"](st, None) == 2


def test_a_zone_kept_per_component_indexed_by_none_is_the_rules_error_at_its_place():
    """Where no component of the type is made, compiled rules index the
    catalogue's table of such zones directly (a plain dict: a dict
    subclass's lookup costs twice as much, five times in native code); a miss is still the rule's
    error, at its line, in words an author reads."""
    from rulebook.interpreter.errors import RuleError

    text = (GROW.replace("bag: {of: pawn}", "bag: {of: pawn}\n  gone: {of: pawn}")
            .replace("      create pawn in bag as extra\n      set extra.owner = player\n",
                     "      move components(pawn) to gone\n      let extra = top(bag)\n"))
    g = compile_ok(text)
    assert "zoc_pile[" in g.program.source  # indexed directly, not through comp_zone
    st = g.new(players=2, seed=3)
    try:
        g.apply(st, 0, 0)
    except RuleError as err:
        whole = textwrap.dedent(HEAD) + textwrap.dedent(text)
        line = next(i for i, s in enumerate(whole.splitlines(), 1) if "to pile[extra]" in s)
        assert err.code == "R104" and "a value is none" in str(err) and f":{line}:" in err.where, str(err)
    else:
        raise AssertionError("pile[none] must fail")
