"""Explicit chance: the engine stops at a chance event when its script says
STOP (interpreter.ops), and rulebook.integrations.chance resolves it."""

from pathlib import Path

import pytest
from rulebook.interpreter.ops import STOP, ChanceStop

from rulebook.integrations.chance import Event, Origin, resume
from rulebook.integrations.pettingzoo import load


def test_a_roll_stops_with_its_outcomes():
    game = load("pig")
    st = game.new(players=2, seed=0, record=False)
    roll = next(i for i, o in enumerate(game.options(st, 0)) if "roll" in o.label)
    st.script = ((STOP,),)
    with pytest.raises(ChanceStop) as stop:
        game.apply(st, 0, roll)
    assert (stop.value.kind, stop.value.n) == ("index", 6)


def test_a_shuffle_stops_with_the_zone():
    game = load("crazy-eights")
    with pytest.raises(ChanceStop) as stop:
        game.new(players=2, seed=0, record=False, chance=((STOP,),))
    assert stop.value.kind == "shuffle"
    assert sorted(stop.value.items) == list(range(52))


def test_without_stop_the_game_is_unchanged():
    game = load("crazy-eights")
    a = game.new(players=2, seed=3, record=False)
    b = game.new(players=2, seed=3, record=False, chance=())
    assert a.to_data() == b.to_data()


def test_a_shuffle_is_drawn_one_place_after_another():
    event = Event("shuffle", 3, (4, 7, 9))
    assert event.outcomes() == [4, 7, 9]
    event, entry = event.choose(7)
    assert entry is None and event.outcomes() == [4, 9]
    event, entry = event.choose(9)
    assert event is None and entry[:2] == ("shuffle", [7, 9, 4])
    with pytest.raises(ValueError):
        Event("index", 6).choose(6)


def test_the_chosen_order_is_the_deck_order():
    game = load("crazy-eights")
    origin = Origin(2, None)
    got = resume(game, origin, ())
    assert isinstance(got, Event) and got.kind == "shuffle"
    order = list(range(51, -1, -1))
    event = got
    for c in order:
        event, entry = event.choose(c)
        if event is None:
            break
    st = resume(game, origin, (entry,))
    assert not isinstance(st, Event)
    dealt = [c for z in st.zones for c in z]
    assert sorted(dealt) == list(range(52))
    assert st.rng == game.new(players=2, seed=0, record=False, chance=(entry,)).rng  # the generator was not used


def test_a_one_outcome_event_before_a_chance_node_is_replayed_too():
    """Survive's setup picks from a list of one (one outcome, resolved without asking) before it
    shuffles: the shuffle's outcome must be scripted after that pick, or the next run meets the
    shuffle where it expects the pick (R030)."""
    game = load("survive")
    origin, entries = Origin(2, None), ()
    got = resume(game, origin, entries)
    resolved_unasked = 0
    while not hasattr(got, "over"):
        event = got
        resolved_unasked += len(event.before) - len(entries)
        entry = None
        while event is not None:
            event, entry = event.choose(event.outcomes()[0])
        entries = got.before + (entry,)
        got = resume(game, origin, entries)
    assert not got.over and game.to_move(got)
    assert resolved_unasked > 0  # the case this test is about did happen


def test_features_are_read_from_the_checked_rules(tmp_path):
    from rulebook.integrations.features import of_game

    assert of_game(load("rock-paper-scissors")).simultaneous
    assert not of_game(load("nim")).simultaneous and not of_game(load("nim")).hides
    rules = (tmp_path / "words.yaml")
    rules.write_text((Path(__file__).parents[2] / "examples" / "nim" / "ruleset.yaml").read_text().replace(
        "title: Nim", "title: \"Nim: simultaneous for p in players, hide x, create token in pile\""))
    assert of_game(load(str(rules))) == of_game(load("nim"))  # words in a text are not rules
