"""A player's memory (``agents.determinize.Memory``): the samples a search
agent draws keep the hidden faces its player saw and could follow since,
forget them where the rules mix them out of its sight (a shuffle, a random
place, a look-alike taken out of a hidden unordered zone), and depend on
nothing the player has not seen."""

from __future__ import annotations

import random

import pytest
from conftest import ROOT, game
from helpers import compile_ok
from rulebook.agents.base import Decision
from rulebook.agents.determinize import Memory, exchange_unseen
from rulebook.agents.mcts import MCTSAgent
from rulebook.interpreter.view import view

CARDS = """
components:
  card:
    for_each: {value: "range(1, 9)"}
zones:
  deck: {of: card, visibility: hidden}
  hand: {per: player, of: card, visibility: owner, ordered: false}
  pool: {of: card, visibility: hidden, ordered: false}
setup: |
  move components(card) to deck
actions:
  draw:
    effect: |
      move top(deck) to hand[player]
  back:
    effect: |
      move first(hand[player]) to deck
  stash:
    effect: |
      move first(hand[player]) to pool face down
  take:
    effect: |
      move first(pool) to deck
  insert:
    effect: |
      move first(hand[player]) to deck at random
  mix:
    effect: |
      shuffle deck
  wait:
    effect: |
      set passes += 1
vars:
  passes: 0
phases:
  play:
    turn:
      actions: [draw, back, stash, take, insert, mix, wait]
    end_if: "passes > 20"
    next: done
  done:
    on_begin: |
      end game
"""


def _start(track: bool = True):
    g = compile_ok(CARDS)
    return g, g.new(players=2, seed=5, track=track)


def _do(g, st, action: str, memory: Memory | None = None) -> None:
    """The player to move does ``action``; P1's memory first notes what it sees (its decision)."""
    p = g.to_move(st)[0]
    if p == 0 and memory is not None:
        Decision(g, 0, None, None, None, st, None).remember(memory)
    labels = g.options(st, p).labels
    g.apply(st, p, labels.index(action))


def _put_back(g, st, memory: Memory) -> None:
    """P1 draws a card (and sees it), then puts it back on top of the deck face down."""
    _do(g, st, "draw", memory)
    _do(g, st, "wait")
    _do(g, st, "back", memory)


def _remembered(g, st, memory: Memory) -> frozenset:
    d = Decision(g, 0, None, None, None, st, None)
    d.remember(memory)
    return d._remembered


def _top(st) -> int:
    return st.zones[st.cat.zone_base["deck"]][0]


def test_a_card_put_back_on_the_deck_is_remembered_in_every_sample():
    g, st = _start()
    mem = Memory()
    _put_back(g, st, mem)  # it knows what is on top
    _do(g, st, "wait")
    card = _top(st)
    assert card in _remembered(g, st, mem)
    d = Decision(g, 0, None, None, None, st, None)
    d.remember(mem)
    rows = {d.sample(random.Random(k)).static[card]["value"] for k in range(20)}
    assert rows == {st.static[card]["value"]}
    forgetful = Decision(g, 0, None, None, None, st, None)  # without memory the top is any hidden card
    assert len({forgetful.sample(random.Random(k)).static[card]["value"] for k in range(20)}) > 1


def test_a_shuffle_or_a_random_place_forgets_the_card():
    g, st = _start()
    mem = Memory()
    _put_back(g, st, mem)
    _do(g, st, "mix")  # P2 shuffles the deck
    assert not _remembered(g, st, mem)
    _do(g, st, "draw", mem)
    _do(g, st, "wait")
    card = st.zones[st.cat.zone_base["hand"]][0]
    _do(g, st, "insert", mem)  # P1 puts its card into the deck at a random place
    _do(g, st, "wait")
    assert card not in _remembered(g, st, mem)


def test_a_look_alike_taken_out_of_a_hidden_unordered_zone_blurs_them_all():
    g, st = _start()
    mem = Memory()
    for _ in range(2):
        _do(g, st, "draw", mem)
        _do(g, st, "wait")
    stashed = list(st.zones[st.cat.zone_base["hand"]])
    for _ in range(2):
        _do(g, st, "stash", mem)  # out of its own hand: P1 saw which card went where
        _do(g, st, "wait")
    assert set(stashed) <= _remembered(g, st, mem)
    _do(g, st, "wait")
    _do(g, st, "take")  # P2 takes one of the two look-alikes out of the pool: which one, nobody can say
    assert not set(stashed) & _remembered(g, st, mem)


def test_nothing_is_remembered_when_the_game_does_not_track():
    g, st = _start(track=False)
    mem = Memory()
    _put_back(g, st, mem)
    _do(g, st, "wait")
    assert not _remembered(g, st, mem)


def test_a_new_game_starts_a_new_memory():
    g, st = _start()
    mem = Memory()
    _put_back(g, st, mem)
    _do(g, st, "wait")
    assert _remembered(g, st, mem)
    other = g.new(players=2, seed=6)
    assert not _remembered(g, other, mem)


def test_survive_players_remember_their_own_people_and_not_the_others():
    """The owner sees its people's values only while placing them (P17);
    afterwards its samples keep them, and re-deal the opponent's."""
    g = game("rulesets/survive/ruleset.yaml")
    st = g.new(players=2, seed=3, record=False)
    mems = [Memory(), Memory()]
    r = random.Random(1)
    while st.phase != "play":
        p = g.to_move(st)[0]
        Decision(g, p, None, None, None, st, None).remember(mems[p])
        g.apply(st, p, r.randrange(len(g.options(st, p))))
    people = [c for c in range(st.cat.n) if st.cat.types[c] == "person"]
    mine = [c for c in people if st.static[c]["colour"] == 0]
    theirs = [c for c in people if st.static[c]["colour"] == 1]
    p = g.to_move(st)[0]
    d = Decision(g, p, None, None, None, st, None)
    d.remember(mems[p])
    own, other = (mine, theirs) if p == 0 else (theirs, mine)
    assert set(own) <= d._remembered and not set(other) & d._remembered
    samples = [d.sample(random.Random(k)) for k in range(10)]
    assert all(s.static[c] is st.static[c] for s in samples for c in own)
    assert any(s.static[c]["value"] != st.static[c]["value"] for s in samples for c in other)


RULESETS = sorted(
    str(p.relative_to(ROOT)) for d in ("rulesets", "examples") for p in (ROOT / d).glob("*/ruleset.yaml")
)


@pytest.mark.parametrize("path", RULESETS)
def test_memory_depends_only_on_what_the_player_saw(path):
    """Two real games that differ only in faces P1 has never seen (exchanged
    at the start) and are played with the same choices give P1 the same
    samples while its view stays the same: its memory leaks nothing."""
    g = game(path)
    a = g.new(seed=2)
    b = exchange_unseen(a, [0], random.Random(9))
    mem_a, mem_b = Memory(), Memory()
    r = random.Random(4)
    for _ in range(60):
        if a.over or b.over or view(a, 0) != view(b, 0):
            break
        p = g.to_move(a)[0]
        if p != g.to_move(b)[0]:
            break
        if p == 0:
            da = Decision(g, 0, None, None, None, a, None)
            db = Decision(g, 0, None, None, None, b, None)
            da.remember(mem_a)
            db.remember(mem_b)
            sa, sb = da.sample(random.Random(7)), db.sample(random.Random(7))
            assert view(sa, 0) == view(a, 0)
            assert sa.static == sb.static, f"{path}: P1's samples depend on faces it never saw"
        n = len(g.options(a, p))
        if n != len(g.options(b, p)):
            break
        k = r.randrange(n)
        g.apply(a, p, k)
        g.apply(b, p, k)


def test_mcts_uses_its_memory_and_can_be_told_not_to():
    g = game("rulesets/survive/ruleset.yaml")
    st = g.new(players=2, seed=3, record=False)
    assert MCTSAgent(iterations=2).memory is not None
    assert MCTSAgent(iterations=2, memory=0).memory is None
    agent = MCTSAgent(iterations=3, seed=1)
    d = Decision(g, g.to_move(st)[0], None, None, None, st, None)
    agent.decide(d)
    assert agent.memory.seen  # it noted the people it sees while placing them
