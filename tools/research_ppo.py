"""Train stable-baselines3's MaskablePPO (sb3-contrib) on a ruleset through the
Gymnasium env and plot its win rate against the random and greedy bots
(docs/research.md, "Training with MaskablePPO").

    nice -n 10 /work/venv-rl/bin/python tools/research_ppo.py pig --minutes 4 \\
        --plot docs/images/ppo-pig.png

Needs torch and sb3-contrib, which the project does not depend on (a venv of
its own: ``pip install torch sb3-contrib gymnasium matplotlib -e .``). The
learner is seat 0; of the training envs, half play against the random bot and
half against the greedy bot. The mask comes from ``info["action_mask"]`` (the
env's canonical ids), so the policy never picks an illegal id. Every
``--eval-every`` steps the deterministic policy plays ``--eval-games`` seeded
games against each bot; a win is a positive reward (``win_loss``: +1 among
the winners). ``--normalize`` wraps the envs in ``VecNormalize`` (observations
and rewards), which was not tried before.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from win_rate_plot import win_rate_plot  # tools/, beside this script

from rulebook.integrations.gymnasium import RulebookEnv

try:
    import gymnasium
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv, VecNormalize
except ImportError as err:  # torch and sb3-contrib are not the project's dependencies
    raise SystemExit(f"this example needs torch and sb3-contrib ({err}): "
                     "pip install torch sb3-contrib gymnasium matplotlib") from err


class Masked(gymnasium.Wrapper):
    """``action_masks()`` for MaskablePPO, from the env's last ``info``; a
    game the bots end before the learner's first decision is dealt again
    (its mask is empty, and a policy cannot choose from nothing)."""

    def reset(self, *, seed=None, options=None):
        obs, info = self.env.reset(seed=seed, options=options)
        while info["over"]:
            obs, info = self.env.reset(seed=None if seed is None else seed + 1_000_003, options=options)
            seed = None if seed is None else seed + 1_000_003
        self.mask = info["action_mask"].astype(bool)
        return obs, info

    def step(self, action):
        obs, reward, done, truncated, info = self.env.step(action)
        self.mask = info["action_mask"].astype(bool)
        return obs, reward, done, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.mask


def evaluate(model, envs: dict, games: int, seed: int, norm=None) -> dict:
    """Win rate of the deterministic policy against each bot, over seeded games."""
    out = {}
    for name, env in envs.items():
        wins = 0
        for g in range(games):
            obs, info = env.reset(seed=seed + g)
            while True:
                seen = norm.normalize_obs(obs) if norm is not None else obs
                action, _ = model.predict(seen, action_masks=env.action_masks(), deterministic=True)
                obs, reward, done, truncated, info = env.step(int(action))
                if done or truncated:
                    wins += reward > 0
                    break
        out[name] = wins / games
    return out


class Curve(BaseCallback):
    """Evaluates every ``every`` steps and stops after ``seconds``."""

    def __init__(self, envs, every: int, games: int, seconds: float, norm):
        super().__init__()
        self.envs, self.every, self.games, self.seconds, self.norm = envs, every, games, seconds, norm
        self.points: list = []
        self.start = time.time()
        self.next = 0

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next:
            self.next += self.every
            self.points.append((self.num_timesteps, evaluate(self.model, self.envs, self.games, 10_000, self.norm)))
            print(json.dumps(self.points[-1]), flush=True)
        return time.time() - self.start < self.seconds


def train(args) -> tuple[list, int, float]:
    bots = ["random", "greedy"] * (args.envs // 2)

    def maker(bot):
        return lambda: Masked(RulebookEnv(args.game, players=args.players, opponents=bot,
                                       max_decisions=args.max_decisions))

    venv = DummyVecEnv([maker(b) for b in bots])
    norm = None
    if args.normalize:
        venv = norm = VecNormalize(venv, norm_obs=True, norm_reward=True)
    model = MaskablePPO("MlpPolicy", venv, n_steps=args.n_steps, batch_size=64, learning_rate=args.lr,
                        ent_coef=args.ent_coef, gamma=args.gamma, seed=args.seed, verbose=0,
                        policy_kwargs={"net_arch": [64, 64]}, device="cpu")
    eval_envs = {b: Masked(RulebookEnv(args.game, players=args.players, opponents=b,
                                          max_decisions=args.max_decisions)) for b in ("random", "greedy")}
    curve = Curve(eval_envs, args.eval_every, args.eval_games, args.minutes * 60, norm)
    start = time.time()
    model.learn(total_timesteps=10**9, callback=curve)
    curve.points.append((model.num_timesteps, evaluate(model, eval_envs, args.eval_games, 10_000, norm)))
    return curve.points, model.num_timesteps, time.time() - start


def plot(curve, args, steps: int, seconds: float) -> None:
    extra = ", VecNormalize" if args.normalize else ""
    win_rate_plot(curve, "training steps (learner decisions)",
                  f"MaskablePPO on {args.game} (seat 0{extra}), {steps} steps in {seconds / 60:.1f} min", args.plot,
                  title_size=10)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int)
    ap.add_argument("--minutes", type=float, default=4)
    ap.add_argument("--envs", type=int, default=4, help="training envs, half against each bot")
    ap.add_argument("--n-steps", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--ent-coef", type=float, default=0.01)
    ap.add_argument("--gamma", type=float, default=0.99)
    ap.add_argument("--normalize", action="store_true")
    ap.add_argument("--max-decisions", type=int, default=200,
                    help="the learner's decisions before a game is cut (not a win): a policy that never ends a game")
    ap.add_argument("--eval-every", type=int, default=5000)
    ap.add_argument("--eval-games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--plot")
    args = ap.parse_args()
    curve, steps, seconds = train(args)
    print(json.dumps({"steps": steps, "seconds": round(seconds), "curve": curve}))
    if args.plot:
        plot(curve, args, steps, seconds)


if __name__ == "__main__":
    main()
