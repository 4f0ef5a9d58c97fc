"""Any ruleset as a Gymnasium environment: one learning seat against bots
(``pip install -e ".[pettingzoo]"``, which brings gymnasium and numpy).

Single-agent learning libraries (stable-baselines3, a plain DQN) speak
``gymnasium.Env``; this wraps the PettingZoo AEC environment of the same
ruleset (``rulebook.integrations.pettingzoo``: its observation encoding and
rewards) and lets the other seats be played by Rulebook's agents
(``random``, ``greedy``, ``mcts``, or a user's, as on the command line), so
``step`` returns only when the learning seat must decide again or the game
is over. A one-player ruleset has no bots. It knows no game.

* **Actions** are canonical ids (``rulebook.integrations.actions``): an id
  means the same option in every state, so a policy can learn what an id
  is worth; the space is ``Discrete(table size)``, and ``info["action_mask"]``
  marks the ids legal now. An id the mask forbids ends the episode with
  ``illegal_reward`` (default -1) and ``info["illegal_action"]`` True, so
  that any action of the space is a valid call (``check_env`` samples
  unmasked actions); ``illegal="raise"`` raises ``ValueError`` instead.
* **Observations** are the learning seat's view encoded as in the AEC env
  (``pettingzoo.Encoder``): a float32 ``Box``.
* **Chance** is the engine's own generator; ``reset(seed=s)`` gives the same
  game (and the same bots' choices) for the same ``s``.
* **A game the bots end** before the learner's first decision (the
  learner knocked out before its turn): ``reset`` returns its final
  observation with an empty mask and ``info["over"]`` True, and ``step``
  then raises; call ``reset`` again.
* **A neural policy** may want ``ZonesOneHot(env)``: the observation and a
  one-hot of each component's zone.
* **Rewards** are terminal: ``reward="win_loss"`` (+1 the learner among the
  winners, -1 when others won without it, 0 when everybody or nobody won) or
  ``"returns"`` (``Game.returns``: 1 shared among the winners).
"""

from __future__ import annotations

from rulebook.agents.base import as_agent, decide, make_agent
from rulebook.integrations.actions import ActionTable, explore_sampled, option_keys, stated_keys
from rulebook.integrations.pettingzoo import BOUND, _require, raw_env

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError:  # the optional extra is not installed: _require() says what to install
    gymnasium = np = spaces = None

_Base = gymnasium.Env if gymnasium is not None else object
_Wrapper = gymnasium.ObservationWrapper if gymnasium is not None else object


class RulebookEnv(_Base):
    """One seat of a ruleset (``seat``) learning against ``opponents``.

    ``game``, ``players``, ``variants``, ``params``: as for the PettingZoo
    env; ``opponents``: one agent spec for every other seat (``"random"``,
    ``"greedy"``, ``"mcts:iterations=50"``), a list of one per other seat in
    seat order, or agent objects; ``max_decisions``: the learner's decisions
    before the episode is truncated; ``explore_games``, ``spare_actions``:
    how the action table is built (seeded random games, then spare ids).
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game, players: int | None = None, seat: int = 0, opponents="random", variants=(),
                 params: dict | None = None, render_mode: str | None = None, reward: str = "win_loss",
                 max_decisions: int = 10_000, illegal: str = "lose", illegal_reward: float = -1.0,
                 explore_games: int = 10, spare_actions: int = 64):
        _require()
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.aec = raw_env(game, players, variants, 0, params, reward=reward, max_decisions=10**9,
                           explore_games=explore_games)
        self.game, self.n = self.aec.game, self.aec.n
        if not 0 <= seat < self.n:
            raise ValueError(f"seat must be from 0 to {self.n - 1}, not {seat}")
        self.seat = seat
        others = [p for p in range(self.n) if p != seat]
        specs = list(opponents) if isinstance(opponents, (list, tuple)) else [opponents] * len(others)
        if len(specs) != len(others):
            raise ValueError(f"{len(others)} opponent(s) needed (one per other seat), not {len(specs)}")
        self.specs = dict(zip(others, specs))
        self.render_mode = render_mode
        self.max_decisions = max_decisions
        self.illegal, self.illegal_reward = illegal, illegal_reward
        first = self.game.new(players=self.n, seed=0, params=self.aec.params, record=False)
        found = explore_sampled(self.game, self.n, self.aec.params, explore_games, 20_000)
        self.table = ActionTable(stated_keys(self.game, first), found.keys, spare_actions)
        self.action_space = spaces.Discrete(self.table.size)
        self.observation_space = spaces.Box(-BOUND, BOUND, (self.aec.encoder.size,), np.float32)
        self.bots: dict = {}
        self.st = None
        self.done = False

    # ------------------------------------------------------------ the cycle
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**31))
        self.bots = {p: as_agent(make_agent(s, seed=game_seed + p) if isinstance(s, str) else s)
                     for p, s in self.specs.items()}
        self.st = self.game.new(players=self.n, seed=game_seed, params=self.aec.params, record=False)
        self.decisions = 0
        self.done = False
        self._play_others()
        return self._observe(), self._info()

    def step(self, action):
        if self.st is None or self.done or self.st.over:
            raise RuntimeError("the episode is over: call reset()")
        index = self._ids().get(int(action))
        if index is None:
            if self.illegal == "raise":
                raise ValueError(f"action {action} is not legal now: see info['action_mask']")
            self.done = True
            return self._observe(), self.illegal_reward, True, False, self._info(illegal_action=True)
        self.game.apply(self.st, self.seat, index)
        self.decisions += 1
        self._play_others()
        if self.st.over:
            reward = self._final_reward()
            return self._observe(), reward, True, False, self._info()
        truncated = self.decisions >= self.max_decisions
        return self._observe(), 0.0, False, truncated, self._info()

    def _play_others(self) -> None:
        """Let the bots decide until the learner must (or the game ends)."""
        game, st = self.game, self.st
        while not st.over:
            movers = game.to_move(st)
            if self.seat in movers:
                return
            p = movers[0]
            game.apply(st, p, decide(game, st, p, self.bots[p]))

    def _final_reward(self) -> float:
        """The learner's final reward, as the AEC env gives it."""
        self.aec.st = self.st
        return float(self.aec._final_rewards()[self.seat])

    # ------------------------------------------------------------ what the learner sees
    def _ids(self) -> dict[int, int]:
        """The action ids legal now -> option indexes (the first option of each id)."""
        if self.done or self.st.over or self.seat not in self.game.to_move(self.st):
            return {}
        got: dict[int, int] = {}
        for k, key in enumerate(option_keys(self.game, self.st, self.seat)):
            got.setdefault(self.table.id_of(key), k)
        return got

    def action_mask(self) -> np.ndarray:
        mask = np.zeros(self.table.size, dtype=np.int8)
        mask[list(self._ids())] = 1
        return mask

    def _observe(self) -> np.ndarray:
        return self.aec.encoder.encode(self.st, self.seat)

    def _info(self, illegal_action: bool = False) -> dict:
        info = {"action_mask": self.action_mask(), "illegal_action": illegal_action,
                "over": bool(self.done or self.st.over)}
        if self.st.over:
            info["winners"] = list(self.st.winners)
        return info

    def action_to_string(self, action: int) -> str:
        """What an id means now (the option's label), or its canonical key."""
        index = self._ids().get(int(action))
        if index is not None:
            return self.game.options(self.st, self.seat).labels[index]
        return self.table.key_of(int(action)) or f"action {action}"

    def render(self):
        if self.render_mode != "ansi" or self.st is None:
            return None
        from rulebook.terminal.screen import render_view

        return render_view(self.st, self.seat)


class ZonesOneHot(_Wrapper):
    """A ``RulebookEnv``'s observation, then one block per component row (the
    ``items:`` segments of its encoder): a one-hot of the zone the component
    is in (nothing when the player does not know where it is). The encoder
    codes the zone as ``index + 1`` in one column of the row, a number a
    linear layer cannot read as "in the play area"; a neural policy learns
    from this block (``tools/research_ppo.py``, docs/research.md). Built
    from the encoder's layout, so it knows no game."""

    def __init__(self, env: RulebookEnv):
        super().__init__(env)
        enc = env.aec.encoder
        self.zones = len(enc.cat.zone_family)
        self.cols = []  # observation index of each component row's zone code
        for name, seg in enc.segments.items():
            if name.startswith("items:") and "zone" in seg.columns:
                z = seg.columns.index("zone")
                self.cols += [seg.start + r * seg.cols + z for r in range(seg.rows)]
        self.cols = np.array(self.cols, dtype=np.int64)
        size = env.observation_space.shape[0] + len(self.cols) * self.zones
        self.observation_space = spaces.Box(-BOUND, BOUND, (size,), np.float32)

    def observation(self, obs):
        codes = obs[self.cols].astype(np.int64) - 1  # -1: not known / not present
        extra = np.zeros((len(self.cols), self.zones), np.float32)
        rows = np.nonzero((codes >= 0) & (codes < self.zones))[0]
        extra[rows, codes[rows]] = 1.0
        return np.concatenate([obs, extra.ravel()])
