"""Train a tabular Q-learning agent on a ruleset through the Gymnasium env
and plot its win rate against the random and greedy bots (docs/research.md).

    .venv/bin/python tools/research_train.py tic-tac-toe --minutes 4 --plot docs/images/training-tic-tac-toe.png

Tabular because the seed games' observations repeat (a small board game
has a few thousand views), so no neural network (and no torch) is needed:
the Q-table is keyed by the observation's bytes, actions are the env's
canonical ids, illegal ids are never tried (the mask in ``info``). The
opponent of each training game is drawn from the random and greedy bots;
every ``--eval-every`` games the greedy policy (no exploration) plays
``--eval-games`` seeded games against each bot.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict

import numpy as np
from win_rate_plot import win_rate_plot  # tools/, beside this script

from rulebook.integrations.gymnasium import RulebookEnv


def greedy_action(q: dict, obs, mask, rng) -> int:
    legal = np.flatnonzero(mask)
    values = q.get(obs.tobytes())
    if values is None:
        return int(rng.choice(legal))
    best = legal[values[legal] == values[legal].max()]
    return int(rng.choice(best))


def evaluate(q: dict, envs: dict, games: int, seed: int) -> dict:
    """Win rate of the greedy policy against each bot, over seeded games."""
    rng = np.random.default_rng(seed)
    out = {}
    for name, env in envs.items():
        wins = 0
        for g in range(games):
            obs, info = env.reset(seed=seed + g)
            while True:
                obs, reward, done, truncated, info = env.step(greedy_action(q, obs, info["action_mask"], rng))
                if done or truncated:
                    wins += reward > 0
                    break
        out[name] = wins / games
    return out


def train(game: str, minutes: float, eval_every: int, eval_games: int, alpha: float, epsilon: float, seed: int):
    rng = np.random.default_rng(seed)
    train_envs = {b: RulebookEnv(game, opponents=b) for b in ("random", "greedy")}
    eval_envs = {b: RulebookEnv(game, opponents=b) for b in ("random", "greedy")}
    size = train_envs["random"].action_space.n
    q: dict = defaultdict(lambda: np.zeros(size))
    curve = [(0, evaluate(q, eval_envs, eval_games, 10_000))]
    start, episodes = time.time(), 0
    while time.time() - start < minutes * 60:
        env = train_envs["random" if rng.random() < 0.5 else "greedy"]
        obs, info = env.reset(seed=int(rng.integers(2**31)))
        done = False
        while not done:
            mask = info["action_mask"]
            legal = np.flatnonzero(mask)
            action = int(rng.choice(legal)) if rng.random() < epsilon else greedy_action(q, obs, mask, rng)
            nxt, reward, done, truncated, info = env.step(action)
            done = done or truncated
            target = reward
            if not done:
                later = q.get(nxt.tobytes())
                nxt_legal = np.flatnonzero(info["action_mask"])
                target = later[nxt_legal].max() if later is not None and len(nxt_legal) else 0.0
            row = q[obs.tobytes()]
            row[action] += alpha * (target - row[action])
            obs = nxt
        episodes += 1
        if episodes % eval_every == 0:
            curve.append((episodes, evaluate(q, eval_envs, eval_games, 10_000)))
    return curve, episodes, len(q), time.time() - start


def plot(curve, game: str, path: str, episodes: int, seconds: float) -> None:
    win_rate_plot(curve, "training games",
                  f"Tabular Q-learning on {game} (seat 0), {episodes} games in {seconds / 60:.1f} min", path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("--minutes", type=float, default=3)
    ap.add_argument("--eval-every", type=int, default=1000)
    ap.add_argument("--eval-games", type=int, default=100)
    ap.add_argument("--alpha", type=float, default=0.3)
    ap.add_argument("--epsilon", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--plot")
    args = ap.parse_args()
    curve, episodes, states, seconds = train(args.game, args.minutes, args.eval_every, args.eval_games,
                                             args.alpha, args.epsilon, args.seed)
    print(json.dumps({"episodes": episodes, "states": states, "seconds": round(seconds), "curve": curve}))
    if args.plot:
        plot(curve, args.game, args.plot, episodes, seconds)


if __name__ == "__main__":
    main()
