"""The PettingZoo ParallelEnv (rulebook.integrations.parallel): PettingZoo's
parallel_api_test on the simultaneous rulesets (and a sequential one), and
what a simultaneous step does. Skipped, with the reason, when the extra is
not installed."""

import pytest

pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed: pip install -e '.[pettingzoo]'")

import numpy as np  # noqa: E402
from pettingzoo.test import parallel_api_test  # noqa: E402

from rulebook.integrations.parallel import parallel_env  # noqa: E402


@pytest.mark.parametrize("ruleset,players", [("rock-paper-scissors", 2), ("get-bit", 4), ("get-bit", 5),
                                             ("get-bit", 6), ("nim", 3)])
def test_parallel_api_test_passes(ruleset, players):
    parallel_api_test(parallel_env(ruleset, players=players, explore_games=3), num_cycles=1000)


def _masked_game(env, seed):
    """A game with actions drawn from each agent's mask; the list of steps."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    steps = []
    while env.agents:
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) if o["action_mask"].any() else 0
                   for a, o in obs.items()}
        obs, rewards, terms, truncs, infos = env.step(actions)
        steps.append((actions, rewards, terms))
    return steps


def test_every_asked_player_answers_in_one_step():
    env = parallel_env("rock-paper-scissors", explore_games=2)
    obs, _ = env.reset(seed=0)
    assert all(o["action_mask"].sum() == 3 for o in obs.values())  # both choose at once
    steps = _masked_game(env, 0)
    final = steps[-1][1]
    assert all(steps[-1][2].values()) and sorted(final.values()) in ([-1.0, 1.0], [0.0, 0.0])


def test_the_same_seed_plays_the_same_game():
    a, b = parallel_env("get-bit", explore_games=2), parallel_env("get-bit", explore_games=2)
    assert _masked_game(a, 3) == _masked_game(b, 3)


def test_an_asked_player_without_an_action_is_refused():
    env = parallel_env("rock-paper-scissors", explore_games=2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="player_1 must answer"):
        env.step({"player_0": 0})
