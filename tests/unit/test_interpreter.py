"""The interpreter's guards and the decision interface's typed failures.

A runaway ruleset stops with a clear error naming its rule; rule text can do
nothing the language does not offer; illegal options, players who are not
to move and finished games are different errors.
"""

from __future__ import annotations

import pytest
from rulebook.interpreter.errors import GameOverError, IllegalOptionError, NotYourTurnError, RuleError

from tests.helpers import codes, compile_ok

CHOICE = """
vars:
  picked: {type: int}
phases:
  pick:
    on_begin: |
      choose n from [1, 2, 3] by 0
      set picked = n
      end game winners [0]
"""


def test_typed_failures_of_the_decision_interface():
    game = compile_ok(CHOICE)
    st = game.new(players=2)
    assert game.to_move(st) == [None] or game.to_move(st)  # the chooser is the flow's player
    mover = game.to_move(st)[0]
    other = 1 if mover == 0 else 0
    with pytest.raises(IllegalOptionError):
        game.apply(st, mover, 7)
    with pytest.raises(IllegalOptionError):
        game.apply(st, mover, True)
    with pytest.raises(NotYourTurnError):
        game.apply(st, other, 0)
    game.apply(st, mover, 1)
    assert st.over and st.vars["picked"] == 2 and game.returns(st) == [1.0, 0.0]
    with pytest.raises(GameOverError):
        game.apply(st, mover, 0)
    assert game.to_move(st) == []


def test_endless_loop_stops_at_the_step_limit_naming_the_rule():
    game = compile_ok("""
    vars:
      x: 0
    phases:
      spin:
        on_begin: |
          while true:
              set x += 1
          end game
    """)
    with pytest.raises(RuleError) as err:
        game.new(players=2)
    assert err.value.code == "R100"
    assert "unit.yaml:" in err.value.where and "spin" in str(err.value)


def test_phases_looping_without_decisions_are_stopped():
    game = compile_ok("""
    phases:
      a:
        on_begin: |
          if turn_number > 5:
              end game
        next: b
      b:
        next: a
    """)  # the validator sees an 'end game' (E052 otherwise); it never runs
    with pytest.raises(RuleError) as err:
        game.new(players=2)
    assert err.value.code == "R102"


def test_a_procedure_calling_itself_is_stopped():
    game = compile_ok("""
    procedures:
      again:
        effect: |
          again()
    phases:
      p:
        on_begin: |
          again()
          end game
    """)
    with pytest.raises(RuleError) as err:
        game.new(players=2)
    assert err.value.code == "R105"


def test_triggers_that_cause_their_own_event_are_stopped():
    game = compile_ok("""
    events:
      ping: {}
    triggers:
      echo:
        on: ping
        effect: |
          emit ping
    phases:
      p:
        on_begin: |
          emit ping
          end game
    """)
    with pytest.raises(RuleError) as err:
        game.new(players=2)
    assert err.value.code == "R105"


def test_choosing_from_nothing_is_a_clear_error():
    game = compile_ok("""
    phases:
      p:
        on_begin: |
          choose n from []
          end game
    """)
    with pytest.raises(RuleError) as err:
        game.new(players=2)
    assert err.value.code == "R101"


def test_an_absurd_number_of_components_is_refused():
    body = """
    params:
      many: 10
    components:
      card:
        count: many
    phases:
      p:
        on_begin: |
          end game
    """
    assert "E064" in codes(body.replace("count: many", "count: 1000000000"))  # found when loading
    game = compile_ok(body)
    with pytest.raises(RuleError) as err:  # and when a parameter asks for it at the start of a game
        game.new(players=2, params={"many": 10**9})
    assert err.value.code == "R107"


@pytest.mark.parametrize(
    "text, code",
    [
        ("let x = __import__('os')", "E037"),
        ("let x = eval('1 + 1')", "E037"),
        ("let x = open('/etc/passwd')", "E037"),
        ("let x = players.__class__", "E032"),
        ("let x = exec", "E030"),
        ('say "{players.__class__.__mro__}"', "E032"),
        ('say "{0.__class__}"', "E032"),
    ],
)
def test_rule_text_cannot_reach_python(text, code):
    assert code in codes(f"""
    phases:
      p:
        on_begin: |
          {text}
          end game
    """)


def test_rule_text_nested_too_deeply_is_refused():
    deep = "(" * 200 + "1" + ")" * 200
    assert "E024" in codes(f"""
    vars:
      x: "{deep}"
    phases:
      p:
        on_begin: |
          end game
    """)


def test_runtime_errors_in_rules_are_rule_errors_with_a_place():
    game = compile_ok("""
    components:
      card:
        for_each: {value: "range(3)"}
    zones:
      deck: {}
    phases:
      p:
        on_begin: |
          let c = top(deck)
          let v = c.value + 1
          end game
    """)
    with pytest.raises(RuleError) as err:
        game.new(players=2)
    assert err.value.code == "R104" and "unit.yaml:" in err.value.where


def test_same_seed_and_choices_give_the_same_game():
    game = compile_ok("""
    components:
      card:
        for_each: {value: "range(20)"}
    zones:
      deck: {visibility: hidden}
      hand: {per: player, visibility: owner}
    phases:
      p:
        on_begin: |
          move components(card) to deck
          shuffle deck
          deal 3 from deck to hand
          choose c from hand[0] by 0
          end game winners [0]
    """)
    a, b = game.new(players=2, seed=5), game.new(players=2, seed=5)
    assert a.to_data() == b.to_data()
    c = game.new(players=2, seed=6)
    assert a.to_data()["zones"] != c.to_data()["zones"]


def test_turns_skip_an_eliminated_player_whoever_names_them():
    """`first`, `next` and `pass turn to` naming an eliminated player give the
    turn to the next live player after them, as the default order does."""
    from helpers import compile_ok

    game = compile_ok("""
    setup: |
      eliminate 1
    actions:
      go:
        effect: pass
      hand_over:
        effect: pass turn to 1
    phases:
      a:
        end_if: turn_number >= 1
        turn:
          first: 1
          actions: [go]
        next: b
      b:
        end_if: turn_number >= 3
        turn:
          first: 0
          next: 1
          actions: [hand_over]
        next: c
      c:
        on_begin: end game
    """, "rulebook: 1\nid: unit\ntitle: Unit\nplayers: {min: 3, max: 3}\n")
    st = game.new(players=3, seed=1)
    turns = []
    while not st.over:
        turns.append(game.to_move(st)[0])
        game.apply(st, turns[-1], 0)
    assert turns == [2, 0, 2]


def test_a_fraction_given_for_a_parameter_is_refused_with_a_hint():
    import pytest
    from helpers import compile_ok
    from rulebook.interpreter.errors import RuleError
    from rulebook.validator.types import WHOLE

    game = compile_ok("""
    params:
      rounds: {default: 2, type: int}
      loose: 1
    phases:
      main:
        on_begin: end game
    """)
    for params in ({"rounds": 1.5}, {"loose": 0.5}):
        with pytest.raises(RuleError) as err:
            game.new(players=2, seed=1, params=params)
        assert err.value.code == "E063" and "fraction" not in err.value.message
        assert str(err.value).splitlines()[-1] == f"  = hint: {WHOLE}"
    with pytest.raises(RuleError, match=r"is int, not true$"):
        game.new(players=2, seed=1, params={"rounds": True})


def test_a_run_time_error_shows_its_hint_and_rule_text_spellings():
    import pytest
    from helpers import compile_ok
    from rulebook.interpreter.errors import RuleError

    game = compile_ok("""
    setup: |
      choose n from [1, 2, 3] prompt "how many?"
    phases:
      main:
        on_begin: end game
    """)
    with pytest.raises(RuleError) as err:
        game.new(players=2, seed=1)
    assert str(err.value).splitlines()[1:] == ["  = hint: say who chooses: choose ... by <player>"]
    assert "(it would be made by none)" in str(err.value)


def test_a_label_that_names_its_component_through_a_list_names_it_once():
    from helpers import compile_ok
    from rulebook.interpreter.labels import comp_name

    game = compile_ok("""
    components:
      card:
        for_each: {value: "range(1, 3)"}
        label: "card {[self]}"
    zones:
      deck: {of: card}
    setup: |
      move components(card) to deck
    phases:
      main:
        on_begin: end game
    """)
    st = game.new(players=2, seed=1)
    assert comp_name(st, 0) == "card [card 1]"


def test_phases_looping_because_first_gives_none_say_so():
    import pytest
    from helpers import compile_ok
    from rulebook.interpreter.errors import RuleError

    game = compile_ok("""
    vars:
      starter: {type: player}
    actions:
      go:
        effect: end game
    phases:
      round:
        turn:
          first: starter
          actions: [go]
        next: round
    """)
    with pytest.raises(RuleError) as err:
        game.new(players=2, seed=1)
    assert err.value.code == "R102"
    assert err.value.hint.startswith("phase 'round' has turns but nobody to play them (its turn's 'first' gives none")


def test_no_legal_action_says_why_each_action_offers_nothing():
    import pytest
    from helpers import compile_ok
    from rulebook.interpreter.errors import RuleError

    game = compile_ok("""
    vars:
      bid: 0
    zones:
      pool: {}
    actions:
      raise:
        params: {n: "range(1, bid)"}
        effect: set bid = n
      call:
        if: bid > 0
        effect: end game
      take:
        params: {c: pool}
        effect: end game
      wait:
        require: bid > 5
        effect: end game
    phases:
      main:
        turn:
          actions: [raise, call, take, wait]
        next: main
    """)
    with pytest.raises(RuleError) as err:
        game.new(players=2, seed=1)
    assert err.value.message == (
        "P1 has no legal action in phase 'main' ('raise': parameter 'n' has no values; 'call': its 'if' is false; "
        "'take': parameter 'c' has no values; 'wait': 'require' refuses every choice)")


def test_a_status_is_shown_beside_a_visible_component_only():
    from helpers import compile_ok
    from rulebook.interpreter.view import view

    game = compile_ok("""
    components:
      pawn:
        count: 2
        state: {wounds: 0}
        label: "pawn"
        status: "{self.wounds} wound{'' if self.wounds == 1 else 's'}"
    zones:
      field: {of: pawn}
      hand: {per: player, of: pawn, visibility: owner}
    setup: |
      move first(components(pawn)) to field
      move last(components(pawn)) to hand[0]
      set first(components(pawn)).wounds = 1
    phases:
      main:
        on_begin: end game
    """)
    st = game.new(players=2, seed=1)
    seen = {p: [c for z in view(st, p)["zones"].values() for c in z["items"]] for p in (0, 1)}
    assert [c.get("status") for c in seen[0]] == ["1 wound", "0 wounds"]
    assert [c.get("status") for c in seen[1]] == ["1 wound", None]  # P2 cannot see P1's pawn


def test_deal_for_checks_its_recipients_as_indexing_does():
    import pytest
    from helpers import codes, compile_ok
    from rulebook.interpreter.errors import RuleError

    body = """
    components:
      card: {count: 6}
      pawn: {count: 2}
    zones:
      deck: {of: card}
      hand: {per: player, of: card}
      pile: {per: pawn, of: card}
    setup: |
      move components(card) to deck
      RECIPIENTS
    phases:
      main:
        on_begin: end game
    """
    assert codes(body.replace("RECIPIENTS", "deal 1 from deck to pile for [top(deck)]")) == ["E041"]
    assert codes(body.replace("RECIPIENTS", "deal 1 from deck to hand for [top(deck)]")) == ["E041"]
    game = compile_ok(body.replace("RECIPIENTS", "deal 1 from deck to hand for [0, 5]"))
    with pytest.raises(RuleError, match=r"hand\[5\]: there is no player 5 in a game of 2"):
        game.new(players=2, seed=1)
    created = "create pawn in deck as extra\n      deal 2 from deck to pile for [extra]"
    game = compile_ok(body.replace("RECIPIENTS", created))
    st = game.new(players=2, seed=1)  # a created pawn has its pile, which deal reaches too
    assert len(st.zones[st.cat.zone_base["deck"]]) == 5  # six cards and the new pawn, less two dealt


@pytest.mark.parametrize("statement, message", [
    ("eliminate -1", "eliminate -1: there is no such player in a game of 2"),
    ("pass turn to 7", "pass turn to 7: there is no such player in a game of 2"),
    ("end game winners [0, 5]", "end game winners 5: there is no such player in a game of 2"),
])
def test_statements_naming_a_player_refuse_a_seat_the_game_does_not_have(statement, message):
    from helpers import compile_ok
    from rulebook.interpreter.errors import RuleError

    game = compile_ok("""
    actions:
      go:
        effect: |
          STATEMENT
      stop:
        effect: end game
    phases:
      main:
        turn:
          actions: [go, stop]
        next: main
    """.replace("STATEMENT", statement))
    st = game.new(players=2, seed=1)
    with pytest.raises(RuleError) as err:
        game.apply(st, 0, 0)
    assert err.value.code == "R104" and err.value.message == message


def test_pass_turn_to_before_the_turns_chooses_who_plays_first():
    from helpers import compile_ok

    game = compile_ok("""
    actions:
      go:
        effect: end game winners [player]
    phases:
      main:
        on_begin: pass turn to 1
        turn:
          actions: [go]
        next: main
    """)
    st = game.new(players=2, seed=1)
    assert game.to_move(st) == [1]


def test_a_back_label_names_a_hidden_component_in_views_from_its_back_only():
    from helpers import compile_ok
    from rulebook.interpreter.view import view

    game = compile_ok("""
    components:
      card:
        for_each: {suit: "['red', 'blue']", value: "range(1, 3)"}
        public: [suit]
        back_label: "{self.suit} card worth {self.value}"
    zones:
      hand: {per: player, of: card, visibility: owner}
    setup: |
      move components(card) to hand[0]
    phases:
      main:
        on_begin: end game
    """)
    st = game.new(players=2, seed=1)
    names = [item["name"] for item in view(st, 1)["zones"]["hand[0]"]["items"]]
    assert names == ["blue card worth [hidden]"] * 2 + ["red card worth [hidden]"] * 2  # value is not on the back


def test_words_of_the_language_are_not_names_and_direction_is_one_or_minus_one():
    from helpers import codes, compile_ok
    from rulebook.interpreter.errors import RuleError

    assert codes("""
    vars:
      none: 1
    procedures:
      emit:
        effect: pass
    phases:
      main:
        on_begin: |
          for true in [1]:
              pass
          end game
    """) == ["E043", "E043", "E043"]
    game = compile_ok("""
    phases:
      main:
        on_begin: |
          set direction = -direction
          set direction *= 2
          end game
    """)
    with pytest.raises(RuleError, match="direction is 1 or -1, not -2"):
        game.new(players=2, seed=1)


def test_create_checks_the_types_of_the_properties_it_gives():
    from helpers import codes

    body = """
    components:
      card:
        for_each: {suit: "['red']", value: "range(1, 3)"}
    zones:
      table: {of: card}
    phases:
      main:
        on_begin: |
          create card in table with (suit=SUIT, value=2)
          end game
    """
    assert codes(body.replace("SUIT", "3")) == ["E041"]
    assert codes(body.replace("SUIT", "'blue'")) == []
