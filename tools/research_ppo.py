"""Train stable-baselines3's MaskablePPO (sb3-contrib) on a ruleset through the
Gymnasium env and plot its win rate against the random and greedy bots
(docs/research.md, "Training with MaskablePPO", has the commands and a run).

    /work/venvs/train/bin/python tools/research_ppo.py dead-mans-draw --minutes 15 \\
        --train-against random --plot docs/images/ppo-dead-mans-draw.png

Needs torch and sb3-contrib, which the project does not depend on (a venv of
its own: ``pip install torch==2.13.0 stable-baselines3 sb3-contrib matplotlib``
and ``pip install -e ".[gymnasium]"``). The learner is seat 0; the training
envs play the bots of ``--train-against`` in turn. The mask comes from
``info["action_mask"]`` (the env's canonical ids), so the policy never picks
an illegal id. Every ``--eval-every`` steps the deterministic policy plays
``--eval-games`` seeded games against each bot, and ``--final-games`` at the
end; a win is a positive reward (``win_loss``: +1 among the winners), with a
95 % Wilson interval. ``--random-only`` measures a uniformly random policy on
the same seeded games instead: what the learned one must beat.

What the policy sees: the env's observation codes a card's place as numbers
(the zone's index, its position) in one column; ``--zones`` (on by default)
adds, for every component row of the observation, a one-hot of its zone
(``rulebook.integrations.gymnasium.ZonesOneHot``), so that "this card is in the play area" is one input a
linear layer can weigh, and ``VecNormalize`` scales every input to about
unit size (the raw codes run from 0 to the vocabulary's size). Both are read
from the observation's layout (``Encoder.segments``), never from a game.
Rewards are terminal (+1 win, -1 loss), so ``gamma`` is 1 by default.
Torch runs on one thread.
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np
from win_rate_plot import win_rate_plot  # tools/, beside this script

from rulebook.integrations.gymnasium import RulebookEnv, ZonesOneHot

try:
    import gymnasium
    import torch
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


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return round(centre - half, 3), round(centre + half, 3)


def evaluate(model, envs: dict, games: int, seed: int, norm=None, intervals: dict | None = None) -> dict:
    """Win rate of the deterministic policy against each bot, over seeded games
    (``intervals``, when given, gets each bot's Wilson interval)."""
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
        if intervals is not None:
            intervals[name] = {"games": games, "wins": int(wins), "interval": wilson(wins, games)}
    return out


def random_policy(envs: dict, games: int, seed: int) -> dict:
    """Win rate and Wilson interval of a uniformly random choice among the
    legal ids, over the same seeded games as ``evaluate``: what the learned
    policy must beat."""
    rng = np.random.default_rng(seed)
    out = {}
    for name, env in envs.items():
        wins = 0
        for g in range(games):
            env.reset(seed=seed + g)
            while True:
                obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
                if done or truncated:
                    wins += reward > 0
                    break
        out[name] = {"games": games, "wins": int(wins), "rate": wins / games, "interval": wilson(wins, games)}
    return out


class Curve(BaseCallback):
    """Evaluates every ``every`` steps and stops after ``seconds``."""

    def __init__(self, envs, every: int, games: int, seconds: float, norm, first_games: int):
        super().__init__()
        self.envs, self.every, self.games, self.seconds, self.norm = envs, every, games, seconds, norm
        self.first_games = first_games
        self.first: dict = {}
        self.points: list = []
        self.start = time.time()
        self.next = 0

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next:
            first = not self.points  # the untrained policy (``--first-games``)
            games = self.first_games if first else self.games
            self.next += self.every
            rates = evaluate(self.model, self.envs, games, 10_000, self.norm, self.first if first else None)
            self.points.append((self.num_timesteps, rates))
            print(json.dumps([self.num_timesteps, rates, round(time.time() - self.start)]), flush=True)
        return time.time() - self.start < self.seconds


def make_env(args, bot: str):
    env = RulebookEnv(args.game, players=args.players, opponents=bot, max_decisions=args.max_decisions)
    return Masked(ZonesOneHot(env) if args.zones else env)


def train(args) -> tuple[list, int, float, dict]:
    torch.set_num_threads(1)
    bots = (args.train_against.split(",") * args.envs)[:args.envs]
    venv = DummyVecEnv([lambda b=b: make_env(args, b) for b in bots])
    norm = None
    if args.normalize:  # rewards are +-1 at the end already: only the observation is scaled
        venv = norm = VecNormalize(venv, norm_obs=True, norm_reward=False, gamma=args.gamma)
    model = MaskablePPO("MlpPolicy", venv, n_steps=args.n_steps, batch_size=args.batch, learning_rate=args.lr,
                        ent_coef=args.ent_coef, gamma=args.gamma, gae_lambda=args.gae_lambda, seed=args.seed,
                        verbose=0, policy_kwargs={"net_arch": [args.width, args.width]}, device="cpu")
    eval_envs = {b: make_env(args, b) for b in ("random", "greedy")}
    curve = Curve(eval_envs, args.eval_every, args.eval_games, args.minutes * 60, norm,
                  args.first_games or args.eval_games)
    start = time.time()
    model.learn(total_timesteps=10**9, callback=curve)
    if norm is not None:
        norm.training = False  # the final measure does not move the normalisation
    last: dict = {}
    curve.points.append((model.num_timesteps, evaluate(model, eval_envs, args.final_games, 10_000, norm, last)))
    return curve.points, model.num_timesteps, time.time() - start, {"first": curve.first, "last": last}


def plot(curve, args, steps: int, seconds: float, ends: dict | None = None, baseline: dict | None = None) -> None:
    """The win-rate curve, with the last point's intervals and the random policy's rates when known."""
    if len(curve) > 1 and curve[-1][0] == curve[-2][0]:  # a point of few games where the last one is measured
        curve = curve[:-2] + curve[-1:]
    extra = ["zones one-hot"] * args.zones + ["VecNormalize"] * args.normalize
    intervals = {b: r["interval"] for b, r in (ends or {}).get("last", {}).items()}
    rates = {b: r["rate"] for b, r in (baseline or {}).items()}
    win_rate_plot(curve, "training steps (learner decisions)",
                  f"MaskablePPO on {args.game}, seat 0 ({', '.join(extra) or 'raw observation'})\n"
                  f"{steps} steps, {seconds / 60:.0f} min with evaluations (last: {args.final_games} games a bot)",
                  args.plot, title_size=10, baselines=rates, intervals=intervals)


def _last_json(path: str) -> dict:
    """The last JSON object a run printed (its result)."""
    with open(path) as f:
        lines = [line for line in f if line.startswith("{")]
    return json.loads(lines[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int)
    ap.add_argument("--minutes", type=float, default=4)
    ap.add_argument("--envs", type=int, default=4, help="training envs")
    ap.add_argument("--train-against", default="random,greedy",
                    help="the training envs' bots, in turn (random,greedy: half against each)")
    ap.add_argument("--n-steps", type=int, default=512, help="steps per env between updates")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--width", type=int, default=128, help="units in each of the two hidden layers")
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--ent-coef", type=float, default=0.01)
    ap.add_argument("--gamma", type=float, default=1.0)
    ap.add_argument("--gae-lambda", type=float, default=0.95)
    ap.add_argument("--normalize", action=argparse.BooleanOptionalAction, default=True,
                    help="VecNormalize the observations")
    ap.add_argument("--zones", action=argparse.BooleanOptionalAction, default=True,
                    help="add a one-hot of each component's zone to the observation")
    ap.add_argument("--max-decisions", type=int, default=200,
                    help="the learner's decisions before a game is cut (not a win): a policy that never ends a game")
    ap.add_argument("--eval-every", type=int, default=5000)
    ap.add_argument("--eval-games", type=int, default=100, help="games against each bot at each point")
    ap.add_argument("--final-games", type=int, default=400,
                    help="games against each bot after training (the numbers with intervals)")
    ap.add_argument("--first-games", type=int, default=0,
                    help="games against each bot before training (default: --eval-games)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--baseline", help="a --random-only run's output: its rates are drawn in the plot")
    ap.add_argument("--replot", help="a finished run's output: plot it again (to --plot) and stop")
    ap.add_argument("--random-only", action="store_true",
                    help="measure the uniformly random policy over --final-games games against each bot, and stop")
    ap.add_argument("--plot")
    args = ap.parse_args()
    baseline = _last_json(args.baseline)["random_policy"] if args.baseline else None
    if args.replot:  # a finished run's output plotted again (with the random policy's rates)
        got = _last_json(args.replot)
        plot(got["curve"], args, got["steps"], got["seconds"], got.get("ends"), baseline)
        return
    if args.random_only:  # the uniformly random policy on the evaluation's games, no training
        envs = {b: make_env(args, b) for b in ("random", "greedy")}
        print(json.dumps({"random_policy": random_policy(envs, args.final_games, 10_000)}))
        return
    curve, steps, seconds, ends = train(args)
    print(json.dumps({"steps": steps, "seconds": round(seconds), "curve": curve, "ends": ends}))
    if args.plot:
        plot(curve, args, steps, seconds, ends, baseline)


if __name__ == "__main__":
    main()
