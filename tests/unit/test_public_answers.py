"""Public answers: ``choose ... public`` (issue 20, feature 3). The answers
of a public poll are told to everybody as they are given, shown in views and
kept by determinization; secret ones stay secret."""

from __future__ import annotations

import random

from rulebook.agents.determinize import determinize
from rulebook.interpreter.narrate import narrate
from rulebook.interpreter.view import view

from tests.helpers import compile_ok

POLL = """
vars:
  doubters: 0
actions:
  bid:
    effect: |
      simultaneous for p in opponents(player):
          choose doubt from [false, true] by p %s label "{'challenge' if doubt else 'no'}"
          if doubt: set doubters += 1
      end game
phases:
  main:
    turn:
      actions: [bid]
"""

HEAD = """
rulebook: 1
id: unit
title: Unit
players: {min: 3, max: 3}
"""


def _poll(public: bool):
    game = compile_ok(POLL % ("public" if public else ""), HEAD)
    st = game.new(3, seed=0)
    game.apply(st, 0, 0)  # P1 bids: P2 and P3 are asked
    game.apply(st, 1, 1)  # P2 challenges
    return game, st


def test_a_public_answer_is_told_to_everybody_at_once():
    game, st = _poll(True)
    assert "P2 chose challenge." in narrate(st, st.events, None)
    assert "P2 chose challenge." in narrate(st, st.events, 2)
    assert view(st, 2)["answered"] == [[1, True]]
    assert view(st, None)["answered"] == [[1, True]]


def test_a_secret_answer_stays_secret():
    game, st = _poll(False)
    told = narrate(st, st.events, 2)
    assert "P2 has chosen." in told and not any("challenge" in t for t in told)
    assert narrate(st, st.events, None) == [line for line in narrate(st, st.events, None) if "P2" not in line]
    assert "answered" not in view(st, 2)


def test_samples_keep_public_answers_and_redraw_secret_ones():
    for public, kept in ((True, {True}), (False, {False, True})):
        game, st = _poll(public)
        seen = {determinize(st, 2, random.Random(k)).pending["answers"][0] for k in range(40)}
        assert seen == kept


def test_the_poll_resolves_with_the_answers():
    game, st = _poll(True)
    game.apply(st, 2, 1)
    assert st.over and st.vars["doubters"] == 2
