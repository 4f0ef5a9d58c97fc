"""Stable action ids: every option of a game gets a canonical id from its value.

``Game.options`` numbers options per state (the third option here is not the
third option there); learning algorithms need an id that means the same
option in every state, and a fixed bound on the ids. The canonical key of an
option is its plain value, with its action's name (``["a", name, args]``) or
the type of the ``choose`` (``["c", type, value]``); a component the chooser
cannot see is keyed by its place among the options (``["h", ...]``), never
by its identity, so an id never tells a player what its view hides.

The table of keys, in a fixed order, is built per game (ruleset, variants,
player count, parameters):

1. **stated by the ruleset**: every action whose parameters are components,
   players or booleans, over all their values (the component counts and
   seats), and every component, seat and boolean as a ``choose`` value;
2. **explored**: the keys met in seeded random games (fixed seeds, so the
   same game always gets the same table), sorted, where the ruleset cannot
   state them (numbers, texts, lists, hidden options);
3. **spare ids**, given in the order keys are first met, so that a key
   exploration missed still has an id; when none is left the game stops
   with ``ActionTableFull``, which names the option to raise.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field

from rulebook.integrations.chance import Event, Origin, resume
from rulebook.interpreter.errors import RulebookError
from rulebook.interpreter.game import Game
from rulebook.interpreter.options import hidden_options
from rulebook.interpreter.state import State

STATED_CAP = 4096  # an action with more parameter combinations than this is explored, not listed


class ActionTableFull(RuntimeError):
    """A game met more distinct options than its action table holds."""


def _key(obj) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True, default=repr)


def option_keys(game: Game, st: State, player: int) -> list[str]:
    """The canonical key of each of ``player``'s options, in ``Game.options``
    order."""
    values = game.options(st, player).plain
    pend = st.pending
    slot = next(i for i, (p, done) in enumerate(zip(pend["players"], pend["done"])) if p == player and not done)
    hidden = set(hidden_options(st, pend, slot, player))
    tag = pend.get("type", "any")
    actions = st.prog.actions
    out = []
    for k, v in enumerate(values):
        if k in hidden:
            out.append(_key(["h", tag, k]))
        elif tag == "action":
            ai, args = v
            out.append(_key(["a", actions[ai].name, list(args)]))
        else:
            out.append(_key(["c", tag, v]))
    return out


def stated_keys(game: Game, st: State) -> list[str]:
    """The keys the ruleset states: from its component counts and seats."""
    cat, n = st.cat, st.n
    every = {"player": list(range(n)), "bool": [False, True]}
    out = []
    for act in game.program.actions:
        domains = []
        for t in act.param_types:
            if t.kind == "comp":
                domains.append(list(cat.by_type.get(t.arg, [])) if t.arg else list(range(cat.n)))
            else:
                domains.append(every.get(t.kind))
        if any(d is None for d in domains) or math.prod(len(d) for d in domains) > STATED_CAP:
            continue
        out.extend(_key(["a", act.name, list(args)]) for args in _product(domains))
    out.extend(_key(["c", "comp", c]) for c in range(cat.n))
    out.extend(_key(["c", "player", p]) for p in range(n))
    out.extend(_key(["c", "bool", b]) for b in (False, True))
    return out


def _product(domains: list) -> list[tuple]:
    out = [()]
    for d in domains:
        out = [args + (v,) for args in out for v in d]
    return out


@dataclass
class Exploration:
    """What seeded random games met: option keys, the most options of one
    decision, the most outcomes of one chance event, the longest game."""

    keys: set = field(default_factory=set)
    most_options: int = 1
    most_outcomes: int = 1
    longest: int = 1  # decisions and chance outcomes
    most_chance: int = 0  # chance outcomes in one game
    games: int = 0
    cut: int = 0  # games stopped at the step limit


def explore(game: Game, players: int, params: dict | None, games: int, max_steps: int) -> Exploration:
    """Play ``games`` random games with explicit chance (seeds 0, 1, ...)."""
    found = Exploration()
    for seed in range(games):
        rng = random.Random(seed)
        try:
            _explore_one(game, players, params, rng, max_steps, found)
        except RulebookError:  # a ruleset that breaks at run time breaks in play too; explore the others
            continue
        found.games += 1
    return found


def _explore_one(game, players, params, rng, max_steps, found: Exploration) -> None:
    origin, entries, steps, chance = Origin(players, params), (), 0, 0
    while steps < max_steps:
        got = resume(game, origin, entries)
        if isinstance(got, Event):
            event, before = got, got.before
            while event is not None:
                outcomes = event.outcomes()
                found.most_outcomes = max(found.most_outcomes, len(outcomes), max(outcomes, default=0) + 1)
                event, entry = event.choose(rng.choice(outcomes))
                steps += 1
                chance += 1
            entries = before + (entry,)
            continue
        st = got
        if st.over:
            break
        p = game.to_move(st)[0]
        keys = option_keys(game, st, p)
        found.keys.update(keys)
        found.most_options = max(found.most_options, len(keys))
        origin, entries = Origin(players, params, st, ((p, rng.randrange(len(keys))),)), ()
        steps += 1
    else:
        found.cut += 1
    found.longest = max(found.longest, steps)
    found.most_chance = max(found.most_chance, chance)


class ActionTable:
    """Canonical keys to ids and back, for one game (see the module's docstring)."""

    def __init__(self, stated: list[str], explored: set, spare: int):
        self.keys: list[str] = list(dict.fromkeys(stated))
        known = set(self.keys)
        self.stated = len(self.keys)
        self.keys += sorted(k for k in explored if k not in known)
        self.explored = len(self.keys) - self.stated
        self.size = len(self.keys) + spare
        self.ids = {k: i for i, k in enumerate(self.keys)}

    def id_of(self, key: str) -> int:
        got = self.ids.get(key)
        if got is None:
            if len(self.keys) >= self.size:
                raise ActionTableFull(
                    f"this game met more than {self.size} distinct options (its table: {self.stated} stated by "
                    f"the ruleset, {self.explored} explored, the rest spare); load it with a larger "
                    f"spare_actions= or explore_games=")
            got = self.ids[key] = len(self.keys)
            self.keys.append(key)
        return got

    def key_of(self, action: int) -> str | None:
        return self.keys[action] if 0 <= action < len(self.keys) else None


def explore_sampled(game: Game, players: int, params: dict | None, games: int, max_decisions: int) -> Exploration:
    """Like ``explore``, with the engine drawing chance from its own
    generator (seeds 0, 1, ...): the options met are the same kind, and a
    long card game explores in a fraction of the time (no run is repeated
    per chance event). For environments whose chance is sampled anyway."""
    found = Exploration()
    for seed in range(games):
        rng = random.Random(seed)
        try:
            st = game.new(players=players, seed=seed, params=params, record=False)
            decisions = 0
            while not st.over and decisions < max_decisions:
                for p in game.to_move(st):
                    keys = option_keys(game, st, p)
                    found.keys.update(keys)
                    found.most_options = max(found.most_options, len(keys))
                    game.apply(st, p, rng.randrange(len(keys)))
                    decisions += 1
        except RulebookError:
            continue
        found.games += 1
        found.cut += 0 if st.over else 1
        found.longest = max(found.longest, decisions)
    return found
