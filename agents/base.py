"""Agents decide through the one decision interface and see only their view.

An agent is any of:

* a callable ``agent(view, options) -> index``;
* an object with ``choose(view, options) -> index``;
* an object with ``decide(decision) -> index``, for agents that search: the
  ``Decision`` gives the view and the options, and ``decision.sample(rng)``
  returns a whole game state *consistent with that view* (what the player
  cannot see is re-drawn), never the real one.

``options`` is ``Game.options`` for the seat the agent plays: a sequence of
``Option`` (index, value, label), with ``options.labels``. ``make_agent`` builds agents by name for the command line
(``random``, ``greedy``, ``mcts``, ``mcts:iterations=200``) or from a
user's module (``package.module:Name``). ``greedy`` (``agents.greedy``)
and ``mcts`` (``agents.mcts``) are imported only when asked for. See
docs/agents.md.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any


class RandomAgent:
    """Uniform over the legal options, with its own seeded generator."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, view, options) -> int:
        return self.rng.randrange(len(options))

    def decide(self, decision: Decision) -> int:
        """The same draw as ``choose``, without building a view it would not read."""
        if type(self).choose is not RandomAgent.choose:  # a subclass that chooses by the view
            return self.choose(decision.view, decision.options)
        return self.rng.randrange(decision.count)


class Decision:
    """What an agent is told when it must decide: who it is, what it sees
    and what it may do. ``sample`` is the only way to a full game state,
    and it hides what the player cannot see by re-drawing it.

    ``view``, ``options`` and ``prompt`` are built on first use, while the
    agent decides: agents that search never read the view, and a forced
    decision (``count`` 1, such as a reaction question only one answer fits)
    needs no option labels."""

    def __init__(self, game, player: int, view: dict | None, options: list | None = None, prompt: str | None = None,
                 _state: Any = None, view_fn: Callable | None = None):
        self.game = game
        self.player = player
        self._options = options
        self._prompt = prompt
        self._state = _state
        self._view = view
        self._view_fn = view_fn
        self._sampler = None  # agents.determinize.Sampler: what every sample of this decision shares
        self._remembered = frozenset()  # hidden components whose faces the player remembers

    @property
    def options(self):
        """``Game.options`` of this decision (an ``Options``), made when first read."""
        if self._options is None:
            self._options = self.game.options(self._state, self.player)
        return self._options

    @property
    def prompt(self) -> str:
        if self._prompt is None:
            self._prompt = self.game.prompt(self._state, self.player) if self._state is not None else ""
        return self._prompt

    @property
    def count(self) -> int:
        """How many options there are, without naming them."""
        if self._options is not None:
            return len(self._options)
        return len(self.game.options(self._state, self.player))

    @property
    def view(self) -> dict | None:
        if self._view is None and self._view_fn is not None:
            self._view = self._view_fn(self._state, self.player)
            self._view_fn = None
        return self._view

    def __repr__(self) -> str:
        return f"Decision(player={self.player}, options={len(self.options)}, prompt={self.prompt!r})"

    def remember(self, memory) -> None:
        """Let this player's memory (``agents.determinize.Memory``, kept by
        the agent from one decision to the next) note what it sees now, and
        let the samples keep the hidden faces it remembers: a player with
        perfect recall. Call it before the first ``sample``."""
        if self._state is not None:  # a decision built without a state samples its own way
            self._remembered = memory.observe(self._state, self.player)
            self._sampler = None

    def sample(self, rng: random.Random):
        """A clone of the game in which everything this player cannot see
        has been re-drawn at random (a determinization): hidden faces,
        chance, other players' secret answers (``agents.determinize``).
        The same view and ``rng`` give the same sample, whatever the hidden
        truth is. What all samples share (which components are hidden, and
        their faces) is worked out with the first."""
        if self._sampler is None:
            from rulebook.agents.determinize import Sampler

            self._sampler = Sampler(self._state, self.player, self._remembered)
        return self._sampler.sample(rng)


def as_agent(agent) -> Callable[[Decision], int]:
    """Any kind of agent as one function of a ``Decision``."""
    if hasattr(agent, "decide"):
        return agent.decide
    choose = agent.choose if hasattr(agent, "choose") else agent
    return lambda d: choose(d.view, d.options)


def decide(game, st, player: int, agent: Callable[[Decision], int], view_fn=None) -> int:
    """Ask one agent (already wrapped by ``as_agent``) for one decision."""
    from rulebook.interpreter.view import view as make_view

    lazy = None if view_fn is False else (view_fn or make_view)
    return agent(Decision(game, player, None, None, None, st, lazy))


AGENTS: dict[str, Callable[..., Any]] = {"random": RandomAgent}


def make_agent(spec: str, seed: int = 0):
    """An agent from a name: ``random``; ``mcts`` or ``mcts:iterations=200,c=1.4``
    (options after the colon, as ``key=value`` pairs); or a user's
    ``package.module:Name``, a class or function called with ``seed=``."""
    name, _, opts = spec.partition(":")
    if name in AGENTS or (name in _LAZY and _load(name)):
        kwargs = _options(opts)
        return AGENTS[name](seed=seed, **kwargs)
    if "." in name and opts and "=" not in opts:
        module = importlib.import_module(name)
        factory = getattr(module, opts)
        try:
            return factory(seed=seed)
        except TypeError:
            return factory() if isinstance(factory, type) else factory
    raise ValueError(f"unknown agent '{spec}': one of {', '.join(sorted(set(AGENTS) | set(_LAZY)))}, "
                     "or package.module:Name")


_LAZY = {"greedy": ("rulebook.agents.greedy", "GreedyAgent"), "mcts": ("rulebook.agents.mcts", "MCTSAgent")}


def _load(name: str) -> bool:
    module, cls = _LAZY[name]
    try:
        AGENTS[name] = getattr(importlib.import_module(module), cls)
    except ImportError:
        return False
    return True


def _options(text: str) -> dict:
    out = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, eq, value = part.partition("=")
        if not eq:
            raise ValueError(f"agent option '{part}' is not key=value")
        try:
            out[key] = int(value)
        except ValueError:
            try:
                out[key] = float(value)
            except ValueError:
                out[key] = value
    return out


def play_out(game, st, agents, view_fn=None, max_decisions: int = 100_000) -> int:
    """Play a game to the end; returns the number of decisions made."""
    decisions = 0
    choosers = [as_agent(a) for a in agents]
    while not st.over:
        for p in game.to_move(st):
            game.apply(st, p, decide(game, st, p, choosers[p], view_fn))
            decisions += 1
        if decisions > max_decisions:
            raise RuntimeError(f"no end after {max_decisions} decisions")
    return decisions


def split_agents(text: str) -> list[str]:
    """``--agents`` text as specs: commas separate seats, except that a part
    like ``c=1.4`` (an option, with '=' before any ':') continues the spec
    before it, so ``mcts:iterations=200,c=1.4,random`` is two specs."""
    specs: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        is_option = "=" in part and ("=" in part.split(":", 1)[0])
        if is_option and specs:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs
