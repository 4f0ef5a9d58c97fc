"""Any ruleset as a PettingZoo ``ParallelEnv`` (``pip install -e ".[pettingzoo]"``).

For rulesets whose turns are simultaneous (a ``simultaneous for`` question:
Get Bit!'s card choice, rock-paper-scissors), where every asked player
answers at once: ``step(actions)`` takes one action per agent and applies
the answers of the players the engine asks now (``Game.to_move``), in seat
order; the engine keeps each answer hidden until all have answered, so the
order reveals nothing. The other agents' actions are ignored (their action
mask is all zeros). A sequential stretch of the game is a step with one
asked player, so any ruleset works, but only a simultaneous one gains.

Observations, action spaces (indexes into ``Game.options`` with a mask),
rewards and truncation are those of the AEC env of the same ruleset
(``rulebook.integrations.pettingzoo.raw_env``, which this wraps), so a
policy trained on one runs on the other.
"""

from __future__ import annotations

import functools

from rulebook.integrations.pettingzoo import _as_index, _require, raw_env

try:
    from pettingzoo import ParallelEnv
except ImportError:  # the optional extra is not installed: _require() says what to install
    ParallelEnv = object


class parallel_env(ParallelEnv):
    """A ruleset as a parallel environment; arguments as ``pettingzoo.raw_env``."""

    metadata = {"render_modes": ["ansi"], "name": "rulebook_parallel_v0", "is_parallelizable": True}

    def __init__(self, game, players: int | None = None, variants=(), seed: int | None = None,
                 params: dict | None = None, render_mode: str | None = None, **options):
        _require()
        self.aec = raw_env(game, players, variants, seed, params, render_mode, **options)
        self.possible_agents = list(self.aec.possible_agents)
        self.agents: list[str] = []
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=self.aec.metadata["name"].replace("_v0", "_parallel_v0"))

    @functools.cache  # noqa: B019 - the same space object every call, as PettingZoo asks
    def observation_space(self, agent):
        return self.aec.observation_space(agent)

    @functools.cache  # noqa: B019
    def action_space(self, agent):
        return self.aec.action_space(agent)

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.aec.agents)
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions: dict):
        aec = self.aec
        game, st = aec.game, aec.st
        if not self.agents:
            raise RuntimeError("the game is over: call reset()")
        for p in game.to_move(st):
            agent = self.possible_agents[p]
            count = len(game.options(st, p))
            index = _as_index(actions.get(agent))
            if index is None or not 0 <= index < count:
                raise ValueError(f"{agent} must answer now with an action from 0 to {count - 1}, "
                                 f"not {actions.get(agent)!r}")
            game.apply(st, p, index)
            aec.decisions += 1
            if st.over:
                break
        aec.rewards = dict.fromkeys(self.agents, 0.0)
        aec._after_move()
        rewards = {a: float(aec.rewards.get(a, 0.0)) for a in self.agents}
        terminations = {a: bool(aec.terminations[a]) for a in self.agents}
        truncations = {a: bool(aec.truncations[a]) for a in self.agents}
        infos = {a: dict(aec.infos.get(a, {})) for a in self.agents}
        observations = self._observations()
        self.agents = [a for a in self.agents if not (terminations[a] or truncations[a])]
        return observations, rewards, terminations, truncations, infos

    def _observations(self) -> dict:
        """Every agent's view, with the mask of the options it has now."""
        import numpy as np

        aec = self.aec
        asked = set() if aec.st.over else set(aec.game.to_move(aec.st))
        out = {}
        for agent in self.agents:
            p = aec._seat[agent]
            mask = np.zeros(aec.encoder.actions, dtype=np.int8)
            if p in asked:
                count = len(aec.game.options(aec.st, p))
                if count > aec.encoder.actions:
                    raise aec.encoder.too_many(count, p)
                mask[:count] = 1
            out[agent] = {"observation": aec.encoder.encode(aec.st, p), "action_mask": mask}
        return {a: out[a] for a in self.agents}

    def render(self):
        if self.render_mode != "ansi":
            return None
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()
