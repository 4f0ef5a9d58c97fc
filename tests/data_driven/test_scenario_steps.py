"""The scenario language's steps, one behaviour per test: a step that
expects an error fails when the decision is legal; chance scripted by a
scenario (rolls, random picks, shuffles) with a clear error when the rules
cannot give it; options asked again after a ``run`` step; options as sets
(``present``, ``absent``); polls answered in one step; failed expectations
that say why, part by part."""

from __future__ import annotations

import textwrap

import pytest
from rulebook.compiler.build import compile_text
from rulebook.dsl.parser import parse_expression
from rulebook.interpreter.game import Game

from rulebook.testing.scenarios import run_file
from rulebook.testing.why_failed import source

# roll at least your hidden card to win; after a miss, the others (in seat
# order) may claim the next turn; the opener is a random pick
RULESET = """
rulebook: 1
id: beat-the-card
title: Beat the card
players: {min: 2, max: 4}
components:
  card:
    for_each: {value: "range(1, 7)"}
    label: "card {self.value}"
zones:
  deck: {of: card, visibility: hidden}
  hand: {per: player, of: card, visibility: owner}
  table: {of: card}
vars:
  opener: {type: player}
setup: |
  move components(card) to deck
  shuffle deck
  deal 1 from deck to hand
  set opener = random(players)
actions:
  roll:
    label: roll the die
    effect: |
      reveal hand[player]
      let r = roll(6)
      say "{player} rolls {r} against {top(hand[player])}"
      if r >= top(hand[player]).value:
          end game winners [player]
      let taker: player = none
      for q in opponents(player):
          if taker == none:
              choose claim from ['claim'] by q optional prompt "{player} missed: claim the next turn?"
              if claim != none:
                  set taker = q
      pass turn to taker
  discard:
    label: "discard {c}"
    params:
      c: "table"
    effect: move c to deck at random
phases:
  play:
    turn:
      first: opener
      actions: [roll, discard]
"""

# the top of the deck after the setup's shuffle: cards 4, 5, 6 (dealt to P1, P2, P3), then the rest
FIXED = """
players: 3
chance:
  - shuffle: "filter(components(card), c => c.value >= 4)"
  - pick: 2
"""


def run(tmp_path, scenario: str, fixed: bool = True):
    (tmp_path / "ruleset.yaml").write_text(RULESET)
    path = tmp_path / "scenario.yaml"
    path.write_text((textwrap.dedent(FIXED) if fixed else "") + textwrap.dedent(scenario))
    return run_file(path)


def messages(outcome) -> list[str]:
    return [d.message for d in outcome.failures]


def passes(outcome) -> None:
    assert outcome.passed, [d.render() for d in outcome.failures]


# ---------------------------------------------------------------- steps that expect an error
def test_an_expected_r012_fails_when_the_option_is_legal(tmp_path):
    outcome = run(tmp_path, """
    steps:
      - {player: 2, option: roll the die, error: R012}
    """)
    (diag,) = outcome.failures
    assert diag.message == ("expected error R012 (no such option), but 'roll the die' is a legal option of P3; "
                            "legal: ['roll the die']")
    assert diag.line == 8


def test_an_expected_r012_fails_when_the_index_is_legal(tmp_path):
    outcome = run(tmp_path, """
    steps:
      - {player: 2, index: 0, error: R012}
    """)
    assert messages(outcome) == ["expected error R012 (no such option), but index 0 is legal: 'roll the die' of "
                                 "['roll the die']"]


def test_an_expected_r012_passes_when_the_option_is_not_legal(tmp_path):
    passes(run(tmp_path, """
    steps:
      - {player: 2, option: discard card 4, error: R012}
      - {player: 2, index: 1, error: R012}
      - expect: "count(hand[2]) == 1 and not is_empty(hand[2])"
    over: false
    """))


def test_an_expected_r011_fails_when_the_player_is_to_move(tmp_path):
    outcome = run(tmp_path, """
    steps:
      - {player: 2, option: roll the die, error: R011}
      - {player: 0, option: roll the die, error: R011}
    """)
    assert messages(outcome) == ["expected error R011 (not your turn), but P3 is to move: ['roll the die']"]


# ---------------------------------------------------------------- scripted chance
def test_chance_scripts_the_setup_shuffle_a_random_pick_and_a_roll(tmp_path):
    passes(run(tmp_path, """
    steps:
      - expect: "opener == 2 and map(hand[0] + hand[1] + hand[2], c => c.value) == [4, 5, 6]"
      - chance: [{roll: 5}]
      - {player: 2, option: roll the die}
      - says: "P3 rolls 5 against card 6"
      - chance: [{roll: 1}]
      - poll: {0: pass, 1: claim}
      - {player: 1, option: roll the die}
      - says: "P2 rolls 1 against card 5"
      - poll: {2: pass, 0: claim}
      - chance: [{roll: 4}]
      - {player: 0, option: roll the die}
    winners: [0]
    """))


def test_a_scripted_pick_places_a_move_at_random(tmp_path):
    passes(run(tmp_path, """
    steps:
      - run: "move top(deck) to table"
      - chance: [{pick: 2}]
      - {player: 2, option: discard card 1}
      - expect: "map(deck, c => c.value) == [3, 2, 1]"
    """))


def test_a_roll_the_die_cannot_give_is_an_error_at_the_scripted_outcome(tmp_path):
    outcome = run(tmp_path, """
    steps:
      - chance: [{roll: 7}]
      - {player: 2, option: roll the die}
    """)
    (diag,) = outcome.failures
    assert diag.line == 8 and diag.column == 14
    assert ("error[R030]: the scripted roll 7 is not possible: the rules draw one of 6 outcomes here "
            "(a roll from 1 to 6, a pick from 0 to 5)") in diag.message


def test_a_scripted_outcome_of_the_wrong_kind_names_the_chance_event(tmp_path):
    outcome = run(tmp_path, """
    players: 3
    chance: [{roll: 3}]
    """, fixed=False)
    assert "the scripted roll 3 is not possible: the next chance event is a shuffle of deck" in messages(outcome)[0]


def test_a_scripted_shuffle_of_a_component_elsewhere_is_an_error(tmp_path):
    outcome = run(tmp_path, """
    players: 3
    chance:
      - shuffle: "[first(components(card))]"
      - pick: 0
    steps:
      - chance: [{shuffle: "[first(components(card))]"}]
      - run: "shuffle deck"
    """, fixed=False)
    (diag,) = outcome.failures
    assert (diag.line, diag.column) == (7, 14)
    assert ("the scripted shuffle ([first(components(card))]) is not possible: it puts card 1 on top of the "
            "shuffled deck, but it is not in deck") in diag.message


def test_scripted_outcomes_never_used_fail(tmp_path):
    outcome = run(tmp_path, """
    steps:
      - chance: [{roll: 2}, {pick: 0}]
    """)
    assert messages(outcome) == [
        "the scripted roll 2 was never used: the rules drew no more chance events of the scenario",
        "the scripted pick 0 was never used: the rules drew no more chance events of the scenario"]


@pytest.mark.parametrize("item", ["{roll: 0}", "{pick: -1}", "{die: 3}", "{shuffle: 3}", "{shuffle: '3'}", "7"])
def test_a_malformed_chance_outcome_is_reported(tmp_path, item):
    outcome = run(tmp_path, f"""
    steps:
      - chance: [{item}]
    """)
    assert not outcome.passed and outcome.failures[0].code == "E070" and outcome.failures[0].line == 8


def test_the_same_scenario_gives_the_same_game_with_any_seed(tmp_path):
    for seed in (0, 1, 2):
        passes(run(tmp_path, f"""
        seed: {seed}
        steps:
          - expect: "opener == 2 and top(hand[2]).value == 6"
        """))


def test_a_state_with_a_script_clones_it_and_does_not_save_it():
    program = compile_text(RULESET).program
    game = Game(program)
    st = game.new(players=2, seed=3, chance=(("shuffle", [5], "shuffle"), ("index", 1, "pick 1")))
    assert st.script == () and st.vars["opener"] == 1 and st.zones[st.cat.zone_base["hand"]] == [5]
    st.script = (("index", 4, "roll 5"),)
    twin = st.clone()
    assert twin.script == st.script and "script" not in st.to_data()


# ---------------------------------------------------------------- run steps ask again
def test_a_run_step_refreshes_the_options_of_the_pending_decision(tmp_path):
    passes(run(tmp_path, """
    steps:
      - {player: 2, options: [roll the die]}
      - run: "move top(deck, 2) to table"
      - {player: 2, options: [roll the die, discard card 3, discard card 1]}
      - {player: 2, option: discard card 3}
      - expect: "count(table) == 1"
    """))


# ---------------------------------------------------------------- options as sets
def test_present_and_absent_options(tmp_path):
    passes(run(tmp_path, """
    steps:
      - run: "move top(deck) to table"
      - {player: 2, present: [discard card 1], absent: [discard card 2, claim]}
    """))
    outcome = run(tmp_path, """
    steps:
      - {player: 2, present: [discard card 1], absent: [roll the die]}
    """)
    assert messages(outcome) == [
        "option 'discard card 1' is not offered; options of P3: ['roll the die']",
        "option 'roll the die' is offered, but must not be; options of P3: ['roll the die']"]
    assert [d.line for d in outcome.failures] == [8, 8]


# ---------------------------------------------------------------- polls
def test_a_poll_answers_seats_in_the_order_the_game_asks(tmp_path):
    passes(run(tmp_path, """
    steps:
      - chance: [{roll: 1}]
      - {player: 2, option: roll the die}
      - poll: [pass, claim]
      - expect: "current == 1"
    """))


def test_a_poll_with_an_answer_for_a_seat_not_asked_fails(tmp_path):
    outcome = run(tmp_path, """
    steps:
      - chance: [{roll: 1}]
      - {player: 2, option: roll the die}
      - poll: {0: claim, 2: pass}
    """)
    assert messages(outcome) == ["the poll still has answers for seats [2], but the game asks P1"]


def test_a_poll_answer_that_is_not_an_option_fails_at_its_seat(tmp_path):
    outcome = run(tmp_path, """
    steps:
      - chance: [{roll: 1}]
      - {player: 2, option: roll the die}
      - poll: {0: nope}
    """)
    (diag,) = outcome.failures
    assert diag.message == "'nope' is not a legal option; legal: ['claim', 'pass']" and diag.column == 15


# ---------------------------------------------------------------- failures that explain themselves
@pytest.mark.parametrize("expectation, why", [
    ("opener == 1 and count(deck) == 3", "(`opener == 1` is false: left side is P3, right side is 1)"),
    ("count(deck) == 3 and top(hand[opener]).value + 1 == 3",
     "(`top(hand[opener]).value + 1 == 3` is false: left side is 7, right side is 3); "
     "where top(hand[opener]).value is 6"),
    ("opener in [0, 1] or count(deck) > 5",
     "(no part is true: `opener in [0, 1]`: `opener` is P3; `count(deck) > 5`: left side is 3, right side is 5); "
     "where deck is [card 1, card 3, card 2]"),
    ("not all(players, p => count(hand[p]) == 1)",
     "(`all(players, p => count(hand[p]) == 1)` is true); where players is [P1, P2, P3]"),
    ("map(hand[2], c => c.value) == [5]", "(left side is [6], right side is [5]); where hand[2] is [card 6]"),
    ("is_empty(table) and -count(deck) > 0",
     "(`-count(deck) > 0` is false: left side is -3, right side is 0); where count(deck) is 3"),
])
def test_a_failed_expectation_says_which_part_failed_and_the_values_behind_it(tmp_path, expectation, why):
    outcome = run(tmp_path, f"""
    steps:
      - expect: "{expectation}"
    """)
    assert messages(outcome) == [f"expectation failed: {expectation} {why}"]


EXPRESSIONS = [
    "a and b or not c", "(a or b) and c", "not (a == b)", "-(a + b) * c", "a - (b - c)", "a - b - c",
    "a // (b * c)", "(a if b else c) + 1", "a if b else c if d else e", "f(x)[0].y",
    "f(a, n => n.v > 2, k=3)", "[1, 'two', none, true] + [[]]", "a in b and c not in d", "(a in b) == true",
    "(x => x)", 'name("a \\"q\\"")', "-(-a)", "not not a", "(a and b) and c", "a and (b and c)",
]


def _bare(node):
    """A node without its positions, to compare parses."""
    if isinstance(node, tuple):
        return tuple(_bare(x) for x in node)
    if hasattr(node, "__dataclass_fields__"):
        return (type(node).__name__,) + tuple(_bare(getattr(node, f)) for f in node.__dataclass_fields__ if f != "pos")
    return node


@pytest.mark.parametrize("text", EXPRESSIONS)
def test_source_writes_back_what_parses_to_the_same_expression(text):
    node = parse_expression(text)
    assert _bare(parse_expression(source(node))) == _bare(node)


def test_source_of_every_ruleset_expectation_parses_back():
    """Every expectation of every scenario file, written back, is the same expression."""
    from pathlib import Path

    import yaml

    root = Path(__file__).resolve().parents[2]
    seen = 0
    for path in sorted(root.glob("rulesets/*/scenarios/*.yaml")):
        data = yaml.safe_load(path.read_text())
        items = [data.get("expect")] + [s.get("expect") for s in data.get("steps") or [] if isinstance(s, dict)]
        for item in items:
            for text in item if isinstance(item, list) else [item] if item is not None else []:
                node = parse_expression(str(text))
                assert _bare(parse_expression(source(node))) == _bare(node), text
                seen += 1
    assert seen > 100
