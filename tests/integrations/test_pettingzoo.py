"""Any ruleset as a PettingZoo environment (rulebook/integrations/pettingzoo.py).

PettingZoo's own checks (``api_test``, ``seed_test``) run on the five seed
games; the hidden-information test trades components a player cannot see
and checks that player's observation does not change; a full random game
with action masks runs to the end with the rewards the result gives.
"""

from __future__ import annotations

import json
import random
import re
import warnings
from pathlib import Path

import pytest

NOT_INSTALLED = "the optional extra 'pettingzoo' is not installed (pip install -e '.[pettingzoo]')"
pytest.importorskip("pettingzoo", reason=NOT_INSTALLED)
pytest.importorskip("gymnasium", reason=NOT_INSTALLED)
np = pytest.importorskip("numpy", reason=NOT_INSTALLED)

from pettingzoo.test import api_test, seed_test  # noqa: E402
from rulebook.interpreter import ops  # noqa: E402
from rulebook.interpreter.ops import can_see  # noqa: E402
from rulebook.interpreter.view import component_view  # noqa: E402

from rulebook.integrations import pettingzoo as pettingzoo_env  # noqa: E402
from rulebook.integrations.pettingzoo import ActionSpaceTooSmall, ObservationTooSmall, env, raw_env  # noqa: E402

SEED_GAMES = [("get-bit", 4), ("dead-mans-draw", 2), ("young-svintus", 4), ("lifeboat", 6), ("survive", 4)]
SHARK = ("get-bit", 5, ("play-the-shark", "memory-training"))  # variants: a shark player, face-down played cards


def ID(value):
    return "+".join(value) if isinstance(value, tuple) else str(value)

# api_test warns about any Dict observation unless the env's name is one of
# PettingZoo's own classic games; Dict({"observation", "action_mask"}) is the
# layout those games use, so these two warnings are expected, and only them.
EXPECTED_WARNINGS = ("Observation is not a NumPy array",
                     "Observation space for each agent probably should be gymnasium.spaces.box")

MINTER = """\
rulebook: 1
id: minter
title: Minter
players: {min: 2, max: 2}
vars:
  made: 0
components:
  coin:
    for_each: {value: "[1]"}
zones:
  table: {}
  purse: {per: player, visibility: owner}
setup: |
  move components(coin) to table
actions:
  mint:
    label: "mint a coin"
    effect: |
      create coin in purse[player] with (value=made + 2)
      set made += 1
      if made >= 6:
          end game winners [player]
      end turn
  wait:
    effect: end turn
phases:
  play:
    turn:
      actions: [mint, wait]
"""


@pytest.mark.parametrize("game,players,variants", [(g, n, ()) for g, n in SEED_GAMES] + [SHARK], ids=ID)
def test_pettingzoo_api_test_passes(game, players, variants):
    e = env(game, players, variants, seed=3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(e, num_cycles=40)
    unexpected = {str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)}
    assert not unexpected, unexpected


@pytest.mark.parametrize("game,players", SEED_GAMES)
def test_pettingzoo_seed_test_passes(game, players):
    seed_test(lambda: env(game, players), num_cycles=15)


def test_a_random_game_with_action_masks_plays_to_the_end_and_rewards_the_winners():
    e = env("dead-mans-draw", 3, seed=11)
    e.reset()
    u = e.unwrapped
    rng = np.random.default_rng(0)
    space = e.observation_space("player_0")
    final = {}
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        assert space.contains(obs)
        if terminated or truncated:
            assert not truncated
            final[agent] = (reward, info)
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.sum() == len(u.legal_labels(agent)) > 0
        assert agent in [f"player_{p}" for p in u.game.to_move(u.st)]
        e.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    st = u.st
    assert st.over and not e.agents and steps == u.decisions
    winners = set(st.winners)
    assert set(final) == set(u.possible_agents)
    for p, agent in enumerate(u.possible_agents):
        want = 0.0 if len(winners) in (0, 3) else (1.0 if p in winners else -1.0)
        assert final[agent][0] == want
        assert final[agent][1]["winners"] == [f"player_{w}" for w in st.winners]


def test_returns_reward_shares_one_among_the_winners():
    e = raw_env("get-bit", 4, seed=2, reward="returns")
    e.reset()
    rng = random.Random(0)
    while not e.terminations[e.agent_selection]:
        e.step(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]).tolist()))
    assert [e._cumulative_rewards[a] for a in e.possible_agents] == e.game.returns(e.st)
    assert sum(e._cumulative_rewards.values()) == pytest.approx(1.0)


def test_decision_cap_truncates_everyone_without_reward():
    e = raw_env("young-svintus", 4, seed=0, max_decisions=7)
    e.reset()
    for _ in range(7):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert not e.st.over and set(e._cumulative_rewards.values()) == {0.0}


def test_too_many_options_stop_with_an_error_naming_max_actions():
    e = raw_env("dead-mans-draw", 2, seed=0, max_actions=2)
    rng = random.Random(1)
    with pytest.raises(ActionSpaceTooSmall, match=r"max_actions=\d+"):
        for game_seed in range(20):
            e.reset(seed=game_seed)
            while not e.terminations[e.agent_selection]:
                e.step(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]).tolist()))


def test_illegal_and_missing_actions_are_refused():
    e = raw_env("get-bit", 4, seed=0)
    e.reset()
    allowed = int(e.observe(e.agent_selection)["action_mask"].sum())
    with pytest.raises(ValueError, match="action mask"):
        e.step(allowed)
    with pytest.raises(ValueError):
        e.step(None)
    e.step(np.int64(0))  # NumPy integers are actions too


def test_the_action_space_is_explored_once_and_stable():
    a = raw_env("lifeboat", 6)
    b = raw_env("lifeboat", 6)
    assert a.encoder.actions == b.encoder.actions >= 8
    assert a.encoder.actions % 8 == 0
    assert a.encoder.size == b.encoder.size == a.observation_space("player_0")["observation"].shape[0]
    assert a.encoder.segments == b.encoder.segments


def _swap(st, a: int, b: int):
    """A clone in which components a and b have traded places (zone,
    position, face, who knows them): what a player who sees neither cannot
    tell apart."""
    s = st.clone()
    za, zb = s.loc[a], s.loc[b]
    ia, ib = s.zones[za].index(a), s.zones[zb].index(b)
    s.zones[za][ia], s.zones[zb][ib] = b, a
    s.loc[a], s.loc[b] = zb, za
    s.face[a], s.face[b] = s.face[b], s.face[a]
    ka, kb = s.known.pop(a, None), s.known.pop(b, None)
    if ka is not None:
        s.known[b] = ka
    if kb is not None:
        s.known[a] = kb
    for z in {za, zb}:
        if not s.prog.families[ops.zone_family(s, z)].ordered:
            s.zones[z].sort()
    return s


def _check_options_hidden_as_game_hides_them(enc, g, st, p) -> int:
    """Each option ``Game.options`` hides from ``p`` (a component ``p`` cannot
    see among its values) is marked hidden in the observation too, its
    component coded -1, not by its id. Returns how many there were."""
    rows = enc.segments["options"]
    obs = enc.encode(st, p)
    hidden = 0
    for o in g.options(st, p):
        row = obs[rows.start + o.index * rows.cols: rows.start + (o.index + 1) * rows.cols]
        masked = isinstance(o.value, dict) and o.value.get("hidden")
        assert row[0] == 1 and (row[1] == 1 or not masked), (o, row)
        if masked:
            assert -1 in row[4:], (o, row)
            hidden += 1
    return hidden


def ordered(st, c: int) -> bool:
    return st.prog.families[ops.zone_family(st, st.loc[c])].ordered


@pytest.mark.parametrize("game,players,variants", [(g, n, ()) for g, n in SEED_GAMES] + [SHARK], ids=ID)
def test_observations_never_show_what_the_player_cannot_see(game, players, variants):
    """Two states that differ only in which of two identical-looking hidden
    components is where give the player the same observation; a player who
    can see one of them must (for rulesets with private zones) sometimes
    see the difference, so the trade is a real one."""
    e = raw_env(game, players, variants)
    enc = e.encoder
    g = e.game
    rng = random.Random(5)
    trades = seen_by_other = masked_options = 0
    for seed in range(2):
        st = g.new(players=players, seed=seed, record=False)
        k = 0
        while not st.over and k < 400:
            if k % 25 == 0:
                for p in range(players):
                    backs: dict = {}
                    for c in range(len(st.static)):
                        if st.loc[c] >= 0 and not can_see(st, c, p):
                            backs.setdefault(json.dumps(component_view(st, c, p), sort_keys=True), []).append(c)
                    groups = [cs for cs in backs.values() if len(cs) > 1]
                    for cs in rng.sample(groups, min(3, len(groups))):
                        pairs = [(a, b) for a in cs for b in cs if a < b and (st.loc[a] != st.loc[b] or ordered(st, a))]
                        if not pairs:
                            continue  # the same backs, all in one unordered zone: a trade changes nothing
                        a, b = rng.choice(pairs)
                        other = _swap(st, a, b)
                        assert np.array_equal(enc.encode(st, p), enc.encode(other, p)), (game, p, a, b)
                        trades += 1
                        if any(not np.array_equal(enc.encode(st, q), enc.encode(other, q))
                               for q in range(players) if q != p):
                            seen_by_other += 1
            for p in g.to_move(st):
                masked_options += _check_options_hidden_as_game_hides_them(enc, g, st, p)
                g.apply(st, p, rng.randrange(len(g.options(st, p))))
                k += 1
    # plain Get Bit! has no two hidden cards that look alike (a card's back shows its robot's
    # colour and they are all in its hand): its secret is the simultaneous choice, tested below
    assert trades > 0 or (game, variants) == ("get-bit", ())
    assert masked_options > 0 or game != "survive"
    if trades and any(f.visibility == "owner" for f in g.program.families.values()):
        assert seen_by_other > 0


def test_a_simultaneous_answer_stays_hidden_from_the_players_still_to_answer():
    e = raw_env("get-bit", 4)
    g, enc = e.game, e.encoder
    st = g.new(players=4, seed=1, record=False)
    while len(g.to_move(st)) < 2:
        g.apply(st, g.to_move(st)[0], 0)
    first, second = g.to_move(st)[:2]
    assert len(g.options(st, first)) > 1
    one, two = st.clone(), st.clone()
    g.apply(one, first, 0)
    g.apply(two, first, 1)
    assert one.pending["answers"] != two.pending["answers"]
    for q in range(4):
        assert np.array_equal(enc.encode(one, q), enc.encode(two, q)), q
    assert not np.array_equal(enc.encode(one, second), enc.encode(st, second))  # p1 is no longer awaited


def test_components_made_with_create_have_a_capped_place(tmp_path):
    path = tmp_path / "minter" / "ruleset.yaml"
    path.parent.mkdir()
    path.write_text(MINTER)
    e = raw_env(str(path), seed=0, max_created=4)
    enc = e.encoder
    assert enc.created == ["coin"] and enc.segments["items:created"].rows == 4
    e.reset()
    e.step(0)  # player_0 mints a coin into its own purse
    s = enc.segments["items:created"]
    mine = e.observe("player_0")["observation"][s.start: s.start + s.cols]
    theirs = e.observe("player_1")["observation"][s.start: s.start + s.cols]
    assert mine[0] == 1 and mine[-1] == 2  # known, and its value
    assert not theirs.any()  # player_1 sees only its back
    backs = enc.segments["backs:coin"]
    assert e.observe("player_1")["observation"][backs.start] == 1
    with pytest.raises(ObservationTooSmall, match="max_created="):
        for _ in range(10):
            e.step(0)
            e.observe("player_0")


def test_render_ansi_shows_the_view_and_the_options():
    e = env("dead-mans-draw", 2, seed=4, render_mode="ansi")
    e.reset()
    text = e.render()
    labels = e.unwrapped.legal_labels(e.agent_selection)
    assert isinstance(text, str) and labels and all(label in text for label in labels)
    e.close()


def test_a_missing_extra_gives_an_install_hint(monkeypatch):
    monkeypatch.setattr(pettingzoo_env, "_MISSING", ImportError("No module named 'pettingzoo'"))
    with pytest.raises(ImportError, match=r"pip install -e \"\.\[pettingzoo\]\""):
        env("get-bit")


def test_the_usage_example_in_the_docs_prints_what_the_docs_say(capsys):
    text = (Path(__file__).resolve().parents[2] / "docs" / "pettingzoo.md").read_text(encoding="utf-8")
    code, printed = re.search(r"```python\n(.*?)```\n\nprints\n\n```text\n(.*?)```", text, re.S).groups()
    exec(compile(code, "docs/pettingzoo.md", "exec"), {})
    assert capsys.readouterr().out == printed
