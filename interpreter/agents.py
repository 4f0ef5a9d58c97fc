"""Agents decide through the one decision interface and see only their view.

An agent is any callable ``agent(view, options) -> index`` or an object with
``choose(view, options) -> index``; ``options`` are the ``Option`` values of
``Game.legal`` for the seat it plays.
"""

from __future__ import annotations

import random


class RandomAgent:
    """Uniform over the legal options, with its own seeded generator."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, view, options) -> int:
        return self.rng.randrange(len(options))


def as_agent(agent):
    return agent.choose if hasattr(agent, "choose") else agent


def play_out(game, st, agents, view_fn=None, max_decisions: int = 100_000) -> int:
    """Play a game to the end; returns the number of decisions made."""
    from interpreter.view import view as make_view

    view_fn = view_fn or make_view
    decisions = 0
    choosers = [as_agent(a) for a in agents]
    while not st.over:
        for p in game.to_move(st):
            options = game.legal(st, p)
            index = choosers[p](view_fn(st, p) if view_fn is not False else None, options)
            game.apply(st, p, index)
            decisions += 1
        if decisions > max_decisions:
            raise RuntimeError(f"no end after {max_decisions} decisions")
    return decisions
