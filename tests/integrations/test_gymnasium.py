"""The Gymnasium environment (rulebook.integrations.gymnasium): one learning
seat against Rulebook's bots. Gymnasium's own checker on every ruleset, and
the behaviour the docs promise. Skipped, with the reason, when the extra is
not installed."""

import warnings

import pytest

pytest.importorskip("gymnasium", reason="the pettingzoo extra (gymnasium, numpy) is not installed: "
                                        "pip install -e '.[pettingzoo]'")
pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed: pip install -e '.[pettingzoo]'")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from rulebook.files.locate import all_rulesets  # noqa: E402
from rulebook.integrations.gymnasium import RulebookEnv, ZonesOneHot  # noqa: E402

EVERY = sorted(path.parent.name for path in all_rulesets())  # rulesets/ and examples/: a new one is tested too


def test_the_rulesets_are_found():
    assert {"nim", "get-bit", "young-svintus"} <= set(EVERY)


@pytest.mark.parametrize("ruleset", EVERY)
def test_gymnasium_check_env_passes(ruleset):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a checker warning is a failure here
        check_env(RulebookEnv(ruleset, explore_games=3), skip_render_check=True)


def _play(env, seed, pick):
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        legal = np.flatnonzero(info["action_mask"])
        assert obs.shape == env.observation_space.shape and len(legal) > 0
        obs, reward, terminated, truncated, info = env.step(pick(legal))
        total += reward
        steps += 1
        if terminated or truncated:
            return total, info, steps


def test_masked_random_play_ends_with_a_win_loss_reward():
    env = RulebookEnv("nim", opponents="random", explore_games=3)
    rng = np.random.default_rng(0)
    rewards = {_play(env, s, lambda legal: int(rng.choice(legal)))[0] for s in range(30)}
    assert rewards == {-1.0, 1.0}  # nim has no draws: a random learner wins some, loses some


def test_same_seed_same_episode():
    env = RulebookEnv("liars-dice", players=3, seat=1, opponents="greedy", explore_games=3)
    first = _play(env, 5, lambda legal: int(legal[0]))
    again = _play(env, 5, lambda legal: int(legal[0]))
    assert first[0] == again[0] and first[2] == again[2] and first[1]["winners"] == again[1]["winners"]


def test_an_illegal_action_ends_the_episode_or_raises():
    env = RulebookEnv("tic-tac-toe", explore_games=2)
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(illegal)
    strict = RulebookEnv("tic-tac-toe", explore_games=2, illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(ValueError, match="action_mask"):
        strict.step(illegal)


def test_an_action_id_means_the_same_option_in_every_state():
    env = RulebookEnv("tic-tac-toe", explore_games=2)
    names: dict = {}
    for seed in range(3):
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            legal = [int(a) for a in np.flatnonzero(info["action_mask"])]
            for a in legal:
                assert names.setdefault(a, env.action_to_string(a)) == env.action_to_string(a)
            _, _, done, _, info = env.step(legal[-1])
    assert len(names) == 9  # the nine squares


def test_a_one_player_ruleset_has_no_bots():
    env = RulebookEnv("blackjack", players=1)
    assert env.bots == {} and env.specs == {}
    reward = _play(env, 1, lambda legal: int(legal[0]))[0]
    assert reward in (-1.0, 0.0, 1.0)


def test_wrong_opponent_count_and_seat_are_refused():
    with pytest.raises(ValueError, match="opponent"):
        RulebookEnv("nim", players=3, opponents=["random"])
    with pytest.raises(ValueError, match="seat"):
        RulebookEnv("nim", seat=2)


def test_the_docs_example_prints_what_the_docs_say(capsys):
    import re
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "research.md").read_text()
    section = text[text.index("## Gymnasium"):]
    code, shown = re.search(r"```python\n(.*?)```\n\nprints\n\n```text\n(.*?)```", section, re.S).groups()
    exec(compile(code, "docs/research.md", "exec"), {})
    assert capsys.readouterr().out == shown


def test_zones_one_hot_marks_the_zone_of_every_card_the_seat_sees():
    from rulebook.interpreter.view import view

    env = ZonesOneHot(RulebookEnv("dead-mans-draw", opponents="random"))
    obs, info = env.reset(seed=5)
    for _ in range(6):  # some cards in the play area, the banks and the discard pile
        obs, reward, done, truncated, info = env.step(int(info["action_mask"].nonzero()[0][-1]))
        if done:
            obs, info = env.reset(seed=6)
    inner = env.unwrapped
    assert env.observation_space.contains(obs)
    n_zones = env.zones
    block = obs[len(obs) - len(env.cols) * n_zones:].reshape(len(env.cols), n_zones)
    ordinal = inner.aec.encoder.cat.ordinal
    expected = np.zeros_like(block)
    for z, zone in enumerate(view(inner.st, 0)["zones"].values()):
        for item in zone["items"]:
            if not item.get("hidden"):
                expected[ordinal[item["id"]], z] = 1
    assert expected.sum() > 1 and (block == expected).all()
