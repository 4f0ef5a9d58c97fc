"""Out for a while, not for the game: ``eliminate p until phase``, ``until
cleared`` and ``restore p`` (issue 20, feature 2)."""

from __future__ import annotations

import json

from rulebook.interpreter.narrate import narrate
from rulebook.interpreter.view import view

from tests.helpers import codes, compile_ok

HEAD = """
rulebook: 1
id: unit
title: Unit
players: {min: 3, max: 3}
"""

ROUNDS = """
vars:
  rounds: 0
  log: {type: list of str, initial: "[]"}
player_vars:
  tokens: 0
actions:
  knock:
    effect: |
      eliminate next_player(player) until phase
  wait:
    effect: |
      pass
phases:
  round:
    on_begin: |
      set rounds += 1
    turn:
      actions: [knock, wait]
    end_if: "count(live_players) == 1"
    on_end: |
      set live_players[0].tokens += 1
      append str(live_players) + str(opponents(live_players[0])) to log
    next:
      - if: "rounds < 3"
        to: round
      - to: done
  done:
    on_begin: |
      end game
"""


def _play(game, answers, seed=0):
    st = game.new(3, seed=seed)
    st.record = True
    for a in answers:
        if st.over:
            break
        game.apply(st, game.to_move(st)[0], a)
    return st


def test_turn_order_skips_players_out_for_the_phase_and_they_come_back():
    game = compile_ok(ROUNDS, HEAD)
    st = _play(game, [0, 1, 0])  # P1 knocks P2 out; P3 waits; P1 knocks P3 out: the round ends
    assert st.vars["rounds"] == 2 and st.vars["log"] == ["[0][]"]
    assert [st.pvars[p]["tokens"] for p in range(3)] == [1, 0, 0]
    assert st.eliminated == [False, False, False]
    told = narrate(st, st.events, None)
    assert "P2 is out until the end of the round phase." in told
    assert "P3's turn." in told and "P2's turn." not in told[:4]
    assert told.count("P2 is back in.") == 1


def test_a_player_out_is_shown_as_out_not_eliminated_and_scores():
    game = compile_ok(ROUNDS, HEAD)
    st = _play(game, [0])
    p2 = view(st, None)["players"][1]
    assert p2["eliminated"] is False and p2["out"] == "phase"
    assert json.loads(json.dumps(game.save(st)))["state"]
    again = game.load(json.loads(json.dumps(game.save(st))))
    assert again.eliminated == st.eliminated == [False, "phase", False]


def test_the_game_ends_with_everybody_in():
    game = compile_ok(ROUNDS, HEAD)
    st = _play(game, [0, 1, 0] * 10)
    assert st.over and st.winners == [0, 1, 2]  # no scoring: every player still in the game wins


def test_until_cleared_lasts_until_restored():
    game = compile_ok("""
vars:
  seen: {type: list of str, initial: "[]"}
actions:
  go:
    effect: |
      eliminate 1 until cleared
      append str(live_players) to seen
      eliminate 1 until cleared
      restore 1
      restore 1
      append str(live_players) to seen
      eliminate 2 until cleared
      eliminate 2
      restore 0
      append str(map(players, p => in_game(p))) to seen
      end game
phases:
  main:
    turn:
      actions: [go]
""", HEAD)
    st = _play(game, [0])
    assert st.vars["seen"] == ["[0, 2]", "[0, 1, 2]", "[true, true, false]"]


def test_another_point_is_refused_at_load():
    assert codes("""
actions:
  go:
    effect: |
      eliminate 1 until round
phases:
  main:
    turn:
      actions: [go]
""", HEAD) == ["E013"]
