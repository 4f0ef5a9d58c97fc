"""The one options object (issue 38 item 5): ``Game.options`` lists a
decision's options once, with their labels, values and a lookup by value,
and ``Game.apply`` takes one of them (or its index) and refuses an option
another decision listed."""

from __future__ import annotations

import random

import pytest
from rulebook.interpreter.errors import IllegalOptionError
from rulebook.interpreter.game import Option

from tests.conftest import game

SURVIVE = "rulesets/survive/ruleset.yaml"  # its players choose among face-down tiles
NIM = "examples/nim/ruleset.yaml"


def test_a_sequence_of_options_with_their_labels_and_values():
    g = game(NIM)
    st = g.new(players=2, seed=0)
    p = g.to_move(st)[0]
    opts = g.options(st, p)
    assert len(opts) == len(list(opts)) > 1
    assert [o.index for o in opts] == list(range(len(opts)))
    assert opts.labels == [o.label for o in opts] and opts.values == [o.value for o in opts]
    assert opts.values == list(opts.plain)  # nothing hidden here
    assert opts[-1] == list(opts)[-1] and opts[1:] == list(opts)[1:]
    assert not opts.staged and opts.flat is opts
    assert opts.by_value(opts.plain[1]) == opts[1] and opts.index_of(opts.plain[1]) == 1
    with pytest.raises(IllegalOptionError, match="is not a legal option"):
        opts.index_of("no such option")


def test_apply_takes_an_option_or_its_index_and_both_play_the_same_game():
    g = game(NIM)
    by_option, by_index = g.new(players=2, seed=3), g.new(players=2, seed=3)
    rnd = random.Random(3)
    while not by_option.over:
        for p in g.to_move(by_option):
            opts = g.options(by_option, p)
            k = rnd.randrange(len(opts))
            g.apply(by_option, p, opts[k])
            g.apply(by_index, p, k)
    assert by_index.over and by_index.history == by_option.history


def test_an_option_of_another_decision_is_refused_and_changes_nothing():
    g = game(NIM)
    st = g.new(players=2, seed=0)
    p = g.to_move(st)[0]
    old = g.options(st, p)[0]
    g.apply(st, p, old)
    q = g.to_move(st)[0]
    before = st.to_data()
    with pytest.raises(IllegalOptionError, match="listed for another decision"):
        g.apply(st, q, old)
    with pytest.raises(IllegalOptionError):  # made by hand: no decision listed it
        g.apply(st, q, Option(0, g.options(st, q).plain[0], "take"))
    assert st.to_data() == before


def test_an_option_is_valid_in_a_clone_of_its_game():
    g = game(NIM)
    st = g.new(players=2, seed=0)
    p = g.to_move(st)[0]
    option = g.options(st, p)[1]
    copy = g.clone(st)
    g.apply(copy, p, option)
    g.apply(st, p, 1)
    assert copy.history == st.history


def test_options_of_a_simultaneous_decision_stay_valid_while_the_others_answer():
    g = game("examples/rock-paper-scissors/ruleset.yaml")
    st = g.new(players=2, seed=0)
    movers = g.to_move(st)
    assert len(movers) == 2
    listed = {p: g.options(st, p) for p in movers}  # both listed before anybody answers
    for p in movers:
        g.apply(st, p, listed[p][-1])
    assert [entry[1] for entry in st.history[-2:]] == [listed[p].plain[-1] for p in movers]


def test_values_hide_what_the_chooser_cannot_see_and_plain_does_not():
    g = game(SURVIVE)
    st = g.new(seed=0)
    rnd = random.Random(0)
    while not st.over:
        p = g.to_move(st)[0]
        opts = g.options(st, p)
        hidden = [o for o in opts if isinstance(o.value, dict)]
        if hidden:
            break
        g.apply(st, p, rnd.randrange(len(opts)))
    assert hidden, "no decision among face-down components in this game"
    for o in hidden:
        assert o.value == {"hidden": True, "index": o.index} and opts.values[o.index] == o.value
        real = opts.plain[o.index]
        assert real != o.value  # the engine's value (a component's id, or an action naming one)
        assert opts.index_of(real) == o.index
    g.apply(st, p, hidden[0])  # a hidden option is applied like any other, as its real value
    assert st.history[-1] == [p, opts.plain[hidden[0].index]]


def test_a_replay_finds_each_recorded_value_with_by_value():
    g = game(NIM)
    st = g.new(players=2, seed=5)
    rnd = random.Random(5)
    while not st.over:
        for p in g.to_move(st):
            g.apply(st, p, rnd.randrange(len(g.options(st, p))))
    again = g.new(players=2, seed=5)
    for p, value in st.history:
        g.apply(again, p, g.options(again, p).by_value(value))
    assert again.over and again.history == st.history and again.winners == st.winners
