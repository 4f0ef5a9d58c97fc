"""Narration tells each viewer only what they saw, as it was when they saw
it: sentences are built after the rules have run on to the next decision,
so what a component showed is taken from the event, not from the state."""

from __future__ import annotations

from helpers import compile_ok
from rulebook.interpreter.narrate import narrate

DICE = """
components:
  die:
    count: 2
    state: {face: 1}
    label: "die showing {self.face}"
zones:
  cup: {per: player, of: die, visibility: owner}
setup: |
  move first(components(die)) to cup[0]
  move last(components(die)) to cup[1]
actions:
  show:
    effect: |
      reveal cup[player]
      hide cup[player]
      for d in cup[player]:
          set d.face = 6
phases:
  play:
    end_if: turn_number >= 2
    on_end: end game
    turn:
      actions: [show]
"""


def first_turn(body: str, players: int = 2, viewer=None, verbose: bool = False) -> list[str]:
    game = compile_ok(body, HEAD3) if players == 3 else compile_ok(body)
    st = game.new(players=players, seed=1)
    st.events.clear()
    game.apply(st, 0, 0)
    return narrate(st, st.events, viewer, verbose)


HEAD3 = """
rulebook: 1
id: unit
title: Unit
players: {min: 3, max: 3}
"""


def test_a_reveal_names_what_was_shown_then_not_what_is_hidden_now():
    lines = first_turn(DICE)
    assert "Revealed: die showing 1." in lines
    assert not any("6" in line for line in lines), lines


def test_a_card_played_face_up_then_put_away_is_named_to_everybody():
    body = """
    components:
      card:
        for_each: {value: "range(1, 4)"}
        label: "card {self.value}"
    zones:
      hand: {per: player, of: card, visibility: owner}
      table: {of: card}
      won: {of: card, visibility: hidden}
    setup: |
      move components(card) to hand[0]
    actions:
      play:
        params: {c: "hand[player]"}
        label: "play {c}"
        effect: |
          move c to table
          move table to won
    phases:
      main:
        end_if: turn_number >= 1
        on_end: end game
        turn:
          actions: [play]
    """
    assert "P1: play card 3." in first_turn(body)
    verbose = first_turn(body, viewer=1, verbose=True)
    assert "  card 3: hand of P1 -> table" in verbose
    assert "  a card: table -> won" in verbose


def test_a_list_of_hidden_cards_as_a_parameter_stays_secret():
    body = """
    components:
      card:
        for_each: {value: "range(1, 5)"}
        label: "card {self.value}"
    zones:
      hand: {per: player, of: card, visibility: owner}
    setup: |
      move components(card) to hand[0]
    actions:
      pass_two:
        params: {cs: "subsets(hand[player], 2, 2)"}
        label: "pass {cs}"
        effect: |
          move cs to hand[1]
    phases:
      main:
        end_if: turn_number >= 1
        on_end: end game
        turn:
          actions: [pass_two]
    """
    for viewer in (None, 2):
        lines = first_turn(body, players=3, viewer=viewer)
        assert "P1: pass_two." in lines, lines
        assert not any("card" in line for line in lines), lines
    assert any("card" in line for line in first_turn(body, players=3, viewer=0))  # the passer knows
    assert any("card" in line for line in first_turn(body, players=3, viewer=1))  # and so does the taker


def test_one_statement_reveals_in_one_sentence():
    body = DICE.replace("reveal cup[player]\n", "reveal components(die)\n      reveal components(die) to [1]\n")
    lines = first_turn(body, viewer=1)
    assert "Revealed: die showing 1 and die showing 1." in lines
    assert "You see die showing 1 and die showing 1." in lines
    assert sum(line.startswith("Revealed") for line in lines) == 1
    assert not any(line.startswith("You see") for line in first_turn(body, viewer=0))


def test_a_decision_with_one_option_is_told_as_no_choice():
    """Issue 41 item 11: a forced step (the only legal option, answered by
    the table or a bot) is not narrated like a choice."""
    from rulebook.interpreter.narrate import narrate_lines

    from rulebook.files.loading import load_game

    game, _ = load_game("dead-mans-draw")
    st = game.new(players=2, seed=1, record=True)
    st.events.clear()
    first = len(st.events)
    game.apply(st, st.current, 0)  # the first option of the first turn: draw
    plain = [ln.text for ln in narrate_lines(st, st.events, None)]
    forced = [ln.text for ln in narrate_lines(st, st.events, None, forced=frozenset({first}))]
    assert plain[0] == "P1: draw." and forced[0] == "P1: draw (the only option)."
    assert plain[1:] == forced[1:]


def test_dead_mans_draw_tells_the_kraken_and_names_a_key_and_chest_bank():
    """Ruleset texts of issue 41 item 11: the Kraken's obligation is said
    when it starts, and the cards a Key and Chest bank takes from the
    discard pile are named once they are in the public bank."""
    from rulebook.files.loading import load_game
    from rulebook.terminal.capture import whole_game

    game, _ = load_game("dead-mans-draw")
    said = [t for seed in (1, 2) for s in whole_game(game, 2, seed).screens for t in s.fresh]
    assert any(t.startswith("Kraken: P") and "must draw 2 more cards before banking" in t for t in said)
    banks = [t for t in said if t.startswith("Key and chest:")]
    assert banks and all("face-down" not in t for t in banks)
