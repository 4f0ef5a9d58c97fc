"""Zones with ``visibility: top``: a face-up pile shows its top component
only, after every kind of change (put on, taken off, shuffled, swapped), in
views and in determinizations."""

from __future__ import annotations

import random

from helpers import compile_ok
from rulebook.agents.determinize import determinize
from rulebook.interpreter.view import view

PILE = """
components:
  card:
    for_each: {value: "range(1, 9)"}
zones:
  deck: {of: card, visibility: hidden}
  discard: {of: card, visibility: top}
  table: {of: card}
setup: |
  move components(card) to deck
actions:
  put:
    effect: |
      move top(deck) to discard face down
  take:
    effect: |
      move top(discard) to table
  mix:
    effect: |
      shuffle discard
  exchange:
    effect: |
      swap top(table) and discard[1]
phases:
  play:
    turn:
      actions: [put, take, mix, exchange]
    end_if: "count(deck) == 0"
    next: done
  done:
    on_begin: |
      end game
"""


def _game():
    g = compile_ok(PILE)
    st = g.new(players=2, seed=4)
    return g, st


def _do(g, st, action: str, times: int = 1):
    for _ in range(times):
        p = g.to_move(st)[0]
        labels = g.options(st, p).labels
        g.apply(st, p, labels.index(action))


def _faces(st):
    pile = st.zones[st.cat.zone_base["discard"]]
    return pile, [st.face[c] for c in pile]


def test_only_the_top_is_face_up_whatever_the_move_says():
    g, st = _game()
    _do(g, st, "put", 3)
    pile, faces = _faces(st)
    assert len(pile) == 3 and faces == [True, False, False]


def test_taking_the_top_turns_the_next_one_up():
    g, st = _game()
    _do(g, st, "put", 3)
    _do(g, st, "take")
    pile, faces = _faces(st)
    assert len(pile) == 2 and faces == [True, False]


def test_a_shuffle_and_a_swap_leave_only_the_new_top_face_up():
    g, st = _game()
    _do(g, st, "put", 5)
    _do(g, st, "mix")
    assert _faces(st)[1] == [True, False, False, False, False]
    _do(g, st, "take")
    table = st.zones[st.cat.zone_base["table"]]
    taken = table[0]
    _do(g, st, "exchange")  # the table's card goes second in the pile: face down
    pile, faces = _faces(st)
    assert faces == [True, False, False, False] and pile[1] == taken
    assert not st.face[table[0]]  # swap keeps faces: the card from the pile stays down on the table


def test_views_show_the_top_and_determinizations_redeal_the_rest():
    g, st = _game()
    _do(g, st, "put", 4)
    items = view(st, 1)["zones"]["discard"]["items"]
    assert "hidden" not in items[0] and all(i.get("hidden") for i in items[1:])
    top = st.zones[st.cat.zone_base["discard"]][0]
    for seed in range(5):
        d = determinize(st, 1, random.Random(seed))
        assert view(d, 1)["zones"]["discard"] == view(st, 1)["zones"]["discard"]
        assert d.static[top] == st.static[top]  # the top is seen: never re-dealt


def test_reveal_and_hide_do_not_change_a_face_up_pile():
    """The pile keeps only its top face up: revealing it all or hiding its top
    is undone at once, and later moves find the pile as it should be."""
    body = PILE.replace('''  mix:
    effect: |
      shuffle discard''', '''  mix:
    effect: |
      reveal discard
      hide top(discard)''')
    g = compile_ok(body)
    st = g.new(players=2, seed=4)
    _do(g, st, "put", 3)
    _do(g, st, "mix")
    assert _faces(st)[1] == [True, False, False]
    _do(g, st, "put")
    _do(g, st, "take")
    assert _faces(st)[1] == [True, False, False]


def test_an_unordered_face_up_pile_is_refused():
    from helpers import codes

    assert "E013" in codes(PILE.replace("discard: {of: card, visibility: top}",
                                        "discard: {of: card, visibility: top, ordered: false}"))


def test_saves_keep_a_face_up_pile():
    g, st = _game()
    _do(g, st, "put", 3)
    _do(g, st, "mix")
    again = g.load(g.save(st))
    assert _faces(again) == _faces(st) and _faces(again)[1] == [True, False, False]
