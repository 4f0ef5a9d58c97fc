"""Property 7b's check (``rulebook.properties.check_who_is_asked``) on
its own: it must catch a ruleset that asks only the players holding a
certain card, and pass the same game written to ask everybody."""

from __future__ import annotations

import random

import pytest
from helpers import HEAD, compile_ok

from rulebook.testing.properties import check_who_is_asked

LEAKY = """
components:
  card:
    for_each: {value: "range(1, 13)"}
zones:
  deck: {of: card, visibility: hidden}
  hand: {per: player, of: card, visibility: owner}
  table: {of: card}
vars:
  rounds: 0
setup: |
  move components(card) to deck
  shuffle deck
  deal 3 from deck to hand
actions:
  play:
    params: {c: "hand[player]"}
    effect: |
      move c to table
      draw from deck to hand[player]
      set rounds += 1
      for q in players:
          ASK
phases:
  play:
    turn:
      actions: [play]
    end_if: "rounds >= 6"
    next: done
  done:
    on_begin: |
      end game
"""
ONLY_HOLDERS = """if any(hand[q], x => x.value >= 10):
              choose r from ['react'] by q optional prompt "react?\""""
EVERYBODY = """choose r from (['react'] if any(hand[q], x => x.value >= 10) else []) by q optional prompt "react?\""""


def _checks(body: str) -> tuple[int, int]:
    g = compile_ok(body, HEAD.replace("max: 2", "max: 3"))
    applied = failed = 0
    for seed in range(12):
        st = g.new(players=3, seed=seed)
        rnd = random.Random(seed)
        while not st.over:
            try:
                applied += check_who_is_asked(g, st, rnd)
            except AssertionError:
                failed += 1
            p = g.to_move(st)[0]
            g.apply(st, p, rnd.randrange(len(g.options(st, p))))
    return applied, failed


@pytest.mark.parametrize("ask, leaks", [(ONLY_HOLDERS, True), (EVERYBODY, False)], ids=["only-holders", "everybody"])
def test_the_check_catches_a_question_put_only_to_holders(ask, leaks):
    applied, failed = _checks(LEAKY.replace("ASK", ask))
    assert applied > 0, "the check never applied: it would pass anything"
    assert (failed > 0) == leaks


KEPT_IN_A_VARIABLE = """let drawn = top(hand[player]).value
      say "SAY\""""


@pytest.mark.parametrize("say, leaks", [
    ("{player} drew a {drawn}", True),  # computed before the say, out of its guard: told to everybody
    ("{player} drew a card", False),
], ids=["value-kept-in-a-variable", "nothing-told"])
def test_the_check_catches_narration_that_tells_a_hidden_value(say, leaks):
    body = LEAKY.replace("for q in players:\n          ASK", KEPT_IN_A_VARIABLE.replace("SAY", say))
    applied, failed = _checks(body)
    assert applied > 0, "the check never applied: it would pass anything"
    assert (failed > 0) == leaks


SHOWN_THEN_RESHUFFLED = """reveal hand[player]
      say "{player} shows the hand"
      move hand[player] to deck
      shuffle deck
      draw 3 from deck to hand[player]"""
SHOWN_THEN_REROLLED = """reveal hand[player]
      for x in hand[player]:
          set x.pips = roll(6)
      hide hand[player]"""
TELLS_THE_DECK_TOO = """let under = count(filter(deck, x => x.value > 6))
      reveal hand[player]
      move hand[player] to deck
      shuffle deck
      draw 3 from deck to hand[player]
      say "the deck held {under} high cards\""""


@pytest.mark.parametrize("effect, leaks", [
    (SHOWN_THEN_RESHUFFLED, False),  # the reveal told everybody; the reshuffle hides the cards again
    (SHOWN_THEN_REROLLED, False),
    (TELLS_THE_DECK_TOO, True),  # a real leak in the same decision as a public reveal is still caught
], ids=["reveal-then-reshuffle", "reveal-then-reroll", "reveal-and-a-real-leak"])
def test_a_public_reveal_tells_nothing_secret_but_a_leak_beside_it_is_caught(effect, leaks):
    body = LEAKY.replace("for q in players:\n          ASK", effect).replace(
        "for_each: {value: \"range(1, 13)\"}", "for_each: {value: \"range(1, 13)\"}\n    state: {pips: 0}")
    applied, failed = _checks(body)
    assert applied > 0, "the check never applied: it would pass anything"
    assert (failed > 0) == leaks
