"""Determinization: a sample keeps the player's information set, is a legal
state that plays on, conserves the components, and depends only on what the
player can see (and the generator it is given)."""

from __future__ import annotations

import collections
import json
import random

import pytest
import rulebook.agents.determinize as det
from conftest import ROOT, game
from helpers import compile_ok
from rulebook.agents.base import RandomAgent, play_out
from rulebook.agents.determinize import determinize, hidden_groups
from rulebook.interpreter.labels import comp_name
from rulebook.interpreter.view import view

RULESETS = sorted(
    str(p.relative_to(ROOT)) for d in ("rulesets", "examples") for p in (ROOT / d).glob("*/ruleset.yaml")
)
POINTS = (0, 1, 6, 25)  # decisions played at random before sampling


def _identities(st) -> collections.Counter:
    """The multiset of faces: fixed row and the changing properties that are
    not public (public ones describe where a piece is and stay in place)."""
    out = collections.Counter()
    for c in range(len(st.static)):
        t = st.cat.types[c] if c < st.cat.n else st.static[c]["type"]
        public = st.prog.comp_types[t].public
        hidden = {k: v for k, v in (st.props[c] or {}).items() if k not in public}
        out[json.dumps([st.static[c], hidden], sort_keys=True, default=str)] += 1
    return out


def _step(g, st, r: random.Random) -> None:
    q = g.to_move(st)[0]
    g.apply(st, q, r.randrange(len(g.options(st, q))))


def _points(path: str, seed: int = 0):
    """States of one random game at the decisions in POINTS (fewer if it ends)."""
    g = game(path)
    st = g.new(seed=seed, record=False)
    r = random.Random(seed)
    for k in range(max(POINTS) + 1):
        if st.over:
            return
        if k in POINTS:
            yield g, st.clone()
        _step(g, st, r)


@pytest.mark.parametrize("path", RULESETS)
def test_sample_keeps_view_and_components_and_plays_on(path):
    played = 0
    for g, st in _points(path):
        real_pending = st.pending
        for p in range(st.n):
            s = determinize(st, p, random.Random(p + 7))
            assert view(s, p) == view(st, p), f"{path}: the sample changes what P{p + 1} sees"
            assert [len(z) for z in s.zones] == [len(z) for z in st.zones]
            assert s.loc == st.loc and s.face == st.face and s.owner == st.owner
            assert _identities(s) == _identities(st), f"{path}: components are not conserved"
            assert g.to_move(s) == g.to_move(st)
        assert st.pending is real_pending  # the real state is untouched
        if played < 2:  # a sample is a state the rules can play to the end
            p = g.to_move(st)[0]
            s = determinize(st, p, random.Random(3))
            play_out(g, s, [RandomAgent(i) for i in range(s.n)], view_fn=False)
            assert s.over
            played += 1


def _data(s) -> str:
    d = s.to_data()
    d["static"] = s.static
    return json.dumps(d, sort_keys=True, default=str)


def _columns(s) -> list:
    names = sorted({k for ct in s.prog.comp_types.values() for k in ct.static})
    expected = [tuple(row.get(k) for row in s.static) for k in names]
    assert [s.cat.columns[k] for k in names] == expected  # what compiled rules read: the sample's own rows
    return expected


@pytest.mark.parametrize("path", [
    "examples/crazy-eights/ruleset.yaml", "rulesets/survive/ruleset.yaml",
    "rulesets/lifeboat/ruleset.yaml", "rulesets/young-svintus/ruleset.yaml", "rulesets/get-bit/ruleset.yaml",
])
def test_a_decisions_samples_are_determinize_samples(path):
    """Decision.sample works out the hidden groups once for all its samples:
    each is still the sample determinize gives for the generator's state
    (the same draws in the same order), columns included; a state changed
    since the first sample is planned again."""
    from rulebook.agents.base import Decision

    for g, st in _points(path, seed=2):
        for p in g.to_move(st):
            d = Decision(g, p, None, None, None, st, None)
            mine, fresh = random.Random(11), random.Random(11)
            for _ in range(3):
                a, b = d.sample(mine), determinize(st, p, fresh)
                assert _data(a) == _data(b) and _columns(a) == _columns(b)
            _step(g, st, random.Random(1))  # the state moves on: the next sample follows it
            if st.over or p not in g.to_move(st):
                continue
            assert _data(d.sample(mine)) == _data(determinize(st, p, fresh))


@pytest.mark.parametrize("path", [
    "examples/crazy-eights/ruleset.yaml", "rulesets/survive/ruleset.yaml",
    "rulesets/lifeboat/ruleset.yaml", "rulesets/young-svintus/ruleset.yaml",
])
def test_sample_depends_only_on_what_the_player_sees(path):
    """Two states that differ only in hidden faces (here: one is itself a
    re-drawn version of the other) give the same sample for the same seed."""
    checked = 0
    for _, st in _points(path, seed=1):
        for p in range(st.n):
            if not hidden_groups(st, p):
                continue
            other = determinize(st, p, random.Random(99))
            assert _data(other) != _data(st)  # the hidden faces really moved
            assert _data(determinize(st, p, random.Random(5))) == _data(determinize(other, p, random.Random(5)))
            checked += 1
    assert checked


def test_hidden_faces_are_redrawn_and_visible_ones_are_not():
    g = game("examples/crazy-eights/ruleset.yaml")
    st = g.new(players=3, seed=4, record=False)
    p = g.to_move(st)[0]
    hand = st.zones[st.cat.zone_base["hand"] + p]
    other = st.zones[st.cat.zone_base["hand"] + (p + 1) % 3]
    seen_other = set()
    for seed in range(20):
        s = determinize(st, p, random.Random(seed))
        assert [s.static[c] for c in hand] == [st.static[c] for c in hand]  # the player's own cards
        seen_other.add(json.dumps([s.static[c] for c in other], sort_keys=True))
        assert s.rng != st.rng  # chance is re-drawn too
    assert len(seen_other) > 10


def test_other_players_secret_answers_and_labels_are_redrawn():
    """In a simultaneous decision, answers already given are secret; the other
    players' option labels name the sample's cards, not the real ones."""
    g = game("rulesets/get-bit/ruleset.yaml")
    st = g.new(players=4, seed=2, record=False)
    assert st.pending["kind"] == "simul"
    p = g.to_move(st)[-1]
    for q in g.to_move(st)[:-1]:
        g.apply(st, q, 0)
    assert g.to_move(st) == [p]
    answers = set()
    for seed in range(30):
        s = determinize(st, p, random.Random(seed))
        assert view(s, p) == view(st, p)
        assert s.history == []  # the real history lists the secret answers
        for i, q in enumerate(s.pending["players"]):
            if q != p:
                assert s.pending["answers"][i] in s.pending["options"][i]
        answers.add(json.dumps(s.pending["answers"]))
    assert len(answers) > 10
    fresh = g.new(players=4, seed=2, record=False)
    p = g.to_move(fresh)[0]
    for seed in range(5):
        s = determinize(fresh, p, random.Random(seed))
        for q in g.to_move(s):
            if q != p:
                assert g.options(s, q).labels == [comp_name(s, v) for v in g.options(s, q).plain]


def test_two_real_states_differing_in_a_secret_answer_give_the_same_sample():
    g = game("examples/rock-paper-scissors/ruleset.yaml")
    st = g.new(players=2, seed=0, record=False)
    a, b = st.clone(), st.clone()
    g.apply(a, 0, 0)
    g.apply(b, 0, 1)
    assert view(a, 1) == view(b, 1)
    assert _data(determinize(a, 1, random.Random(3))) == _data(determinize(b, 1, random.Random(3)))


LABELLED = """
components:
  card:
    for_each: {value: "range(1, 9)"}
zones:
  deck: {visibility: hidden}
  hand: {per: player, visibility: owner}
  table: {}
setup: |
  move components(card) to deck
  shuffle deck
  deal 3 from deck to hand
phases:
  play:
    on_begin: |
      simultaneous for p in players:
          choose c from hand[p] by p prompt "{p}: play a card" label "play {c.value}"
          move c to table
      end game winners filter(players, p => true)
"""


@pytest.mark.parametrize("rerun", [True, False])
def test_labelled_simultaneous_choices_name_the_sample_cards(monkeypatch, rerun):
    """Other players' stored labels ("play 5") would name their real hidden
    cards: they are recomputed, by asking again or, when that is impossible
    (the fallback), from the options; the player's own are kept."""
    if not rerun:
        monkeypatch.setattr(det, "reask", lambda s: None)  # the question cannot be asked again
    g = compile_ok(LABELLED)
    st = g.new(players=2, seed=1, record=False)
    own = g.options(st, 0).labels
    real_other = g.options(st, 1).labels
    changed = 0
    for seed in range(10):
        s = det.determinize(st, 0, random.Random(seed))
        assert view(s, 0) == view(st, 0)
        assert g.options(s, 0).labels == own
        other = g.options(s, 1).labels
        cards = g.options(s, 1).plain
        assert other == ([f"play {s.static[c]['value']}" for c in cards] if rerun else [comp_name(s, c) for c in cards])
        changed += other != real_other
    assert changed


def test_names_kept_per_catalogue_follow_the_rows_a_sample_deals():
    """A label made of fixed properties is rendered once per fixed row and kept
    on the catalogue, which a sample shares while it deals the rows anew: each
    component of the game and of every sample is named by its own row, before
    and after the other's names are kept."""
    g = game("examples/crazy-eights/ruleset.yaml")
    st = g.new(players=3, seed=4, record=False)
    assert st.prog.comp_types["card"].fixed_names
    p = g.to_move(st)[0]
    names = [comp_name(st, c) for c in range(st.cat.n)]
    assert len(st.cat.names) == len({id(row) for row in st.static})
    fresh = st.prog.comp_types["card"].label
    dealt = 0
    for seed in range(5):
        s = determinize(st, p, random.Random(seed))
        assert s.cat.names is st.cat.names  # shared, keyed by row
        assert [comp_name(s, c) for c in range(s.cat.n)] == [fresh(s, c) for c in range(s.cat.n)]
        dealt += sum(s.static[c] is not st.static[c] for c in range(s.cat.n))
        assert [comp_name(st, c) for c in range(st.cat.n)] == names  # the game's names are its own still
    assert dealt  # the samples did deal rows anew
