"""Game-specific secrets, checked through ``view`` during random games:
what each seed game's rulebook hides must never reach another player."""

from __future__ import annotations

import random

import pytest
from rulebook.interpreter.view import view

from tests.conftest import game


def random_states(path, players, games, every=1, seed=0, variants=()):
    """Yield (game, state) at every ``every``-th decision of random games."""
    g = game(path, variants)
    for k in range(games):
        st = g.new(players=players, seed=seed + k, record=False)
        rng = random.Random(seed * 1000 + k)
        n = 0
        while not st.over:
            if n % every == 0:
                yield g, st
            for p in g.to_move(st):
                g.apply(st, p, rng.randrange(len(g.options(st, p))))
                n += 1


def zone_items(v, family):
    return {name: z["items"] for name, z in v["zones"].items() if name.split("[")[0] == family}


@pytest.mark.parametrize("players", [2, 4])
def test_oracle_card_is_seen_by_the_active_player_only(players):
    seen_by_active = 0
    for _g, st in random_states("rulesets/dead-mans-draw/ruleset.yaml", players, 6):
        if not st.zones[st.cat.zone_base["deck"]]:
            continue
        top = st.zones[st.cat.zone_base["deck"]][0]
        for p in range(players):
            deck = view(st, p)["zones"]["deck"]["items"]
            for item in deck:
                if not item.get("hidden"):  # only the one player the Oracle showed it to
                    assert st.known.get(item["id"]) == [p], f"deck card {item['id']} leaked to P{p + 1}"
            if p == st.current and not deck[0].get("hidden"):
                assert deck[0]["id"] == top
                seen_by_active += 1
        assert all(item.get("hidden") for item in view(st, None)["zones"]["deck"]["items"])
    assert seen_by_active > 0, "no Oracle was ever played: the test saw nothing"


@pytest.mark.parametrize("players", [4, 6])
def test_lifeboat_loyalties_and_face_down_supplies_stay_secret(players):
    for _g, st in random_states("rulesets/lifeboat/ruleset.yaml", players, 4, every=3):
        if st.over:
            continue
        for p in range(players):
            v = view(st, p)
            for family in ("friend", "enemy"):
                for name, items in zone_items(v, family).items():
                    owner = int(name.split("[")[1].rstrip("]"))
                    if owner != p:
                        assert all(i.get("hidden") for i in items), f"{name} leaked to P{p + 1}"
                    else:
                        assert not any(i.get("hidden") for i in items), f"P{p + 1} cannot see own {family}"
            for name, items in zone_items(v, "supplies").items():
                owner = int(name.split("[")[1].rstrip("]"))
                for i in items:
                    if owner != p and not i.get("hidden"):
                        assert st.face[i["id"]], f"a face-down supply of P{owner + 1} leaked to P{p + 1}"


@pytest.mark.parametrize("players", [2, 4])
def test_survive_people_values_stay_hidden_and_boats_follow_the_rules(players):
    checked = 0
    for _g, st in random_states("rulesets/survive/ruleset.yaml", players, 2, every=7):
        boats = st.cat.by_type["boat"]
        for h in st.cat.by_type["hex"]:
            z = st.cat.zone_of_comp["on"][h]
            assert sum(1 for c in st.zones[z] if c in boats or st.static[c].get("type") == "boat") <= 1
        for b in boats:
            z = st.cat.zone_of_comp["aboard"].get(b)
            if z is not None:
                assert len(st.zones[z]) <= 3
        if st.over or st.phase in ("", "place_people"):
            continue
        for p in [None, *range(players)]:
            v = view(st, p)
            for name, zone in v["zones"].items():
                for item in zone["items"]:
                    if item["type"] == "person":
                        assert "value" not in item, f"a person's value is visible to {p} in {name}"
        checked += 1
    assert checked > 0


def test_the_kids_theft_names_no_victim_to_the_others():
    """Lifeboat: 'Малий може вкрасти закриту картку непомітно': the Kid's
    choice of victim is secret, and nothing told to the others names her."""
    from pathlib import Path

    from rulebook.interpreter.narrate import narrate

    from rulebook.testing.scenarios import run_file

    path = Path(__file__).resolve().parents[2] / "rulesets/lifeboat/scenarios/kid-steals.yaml"
    assert run_file(path).passed
    g = game("rulesets/lifeboat/ruleset.yaml")
    st = g.new(players=6, seed=1)  # six players: every character of the base pool is in, the Kid too
    kid = next(p for p in range(6) if st.static[st.pvars[p]["character"]]["name"] == "Kid")
    while st.current != kid or "Steal a face-down card" not in g.options(st, kid).labels:
        p = g.to_move(st)[0]
        labels = g.options(st, p).labels
        g.apply(st, p, labels.index("Idle") if "Idle" in labels else 0)
        if st.over:
            pytest.skip("no theft possible in this game")
    since = len(st.events)
    g.apply(st, kid, g.options(st, kid).labels.index("Steal a face-down card"))
    victim = g.options(st, kid)[0].label  # a character's name
    g.apply(st, kid, 0)
    assert f"chose {victim}" in " ".join(narrate(st, st.events[since:], kid))
    for q in range(6):
        if q != kid:
            told = " ".join(narrate(st, st.events[since:], q))
            assert "has chosen" in told and "steals a card unnoticed" in told, told
            assert f"chose {victim}" not in told and f"from {victim}" not in told, told
