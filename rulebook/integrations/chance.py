"""Chance as explicit outcomes: stop the engine at each roll and shuffle.

The engine draws every random number in two places (``interpreter.ops``:
``random_index`` and ``shuffle``), and a scenario can script both. A caller
that wants to choose the outcomes itself (an OpenSpiel chance node, an exact
solver) scripts the outcomes it has chosen so far followed by ``(STOP,)``:
the run then stops at the next chance event with ``ChanceStop``, naming its
outcomes. The half-run state is thrown away; once the outcome is chosen the
game is run again from its last decision with one more outcome scripted. So
the engine needs no way to pause inside a rule, and a game played this way
never touches its random generator.

A shuffle of k components is offered as a draw from a known multiset, one
position after another (which component goes on top, then second, ...): at
most k outcomes per chance node instead of k! at once, and the same uniform
distribution over orders. When one component is left, its place is forced.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulebook.interpreter.game import Game
from rulebook.interpreter.ops import STOP, ChanceStop
from rulebook.interpreter.state import State

TEXT = "a chance outcome"  # how a scripted entry is named in the engine's messages


@dataclass(frozen=True)
class Origin:
    """Where a run starts: a new game (``base`` None) or an engine state at
    a decision (``base``) with the answers ``moves`` ((player, option
    index) pairs) applied to it."""

    players: int
    params: dict | None
    base: State | None = None
    moves: tuple = ()


@dataclass(frozen=True)
class Event:
    """A chance event that is not resolved yet: ``kind`` "index" (a number
    from 0 to n - 1) or "shuffle" (of ``items``: ``picked`` are the
    components already placed, top first). ``before``: the script entries
    of the chance events resolved since the run's origin, this one's first
    outcome to be appended to them (events with one outcome are resolved
    without asking, so the caller does not know them otherwise)."""

    kind: str
    n: int
    items: tuple = ()
    picked: tuple = ()
    before: tuple = ()

    def outcomes(self) -> list[int]:
        """The outcome ids, each equally likely: a number, or the component
        to place next."""
        if self.kind == "index":
            return list(range(self.n))
        picked = set(self.picked)
        return sorted(c for c in self.items if c not in picked)

    def choose(self, outcome: int) -> tuple[Event | None, tuple | None]:
        """After ``outcome``: the same event with one more position placed,
        or None and the finished script entry."""
        if self.kind == "index":
            if not 0 <= outcome < self.n:
                raise ValueError(f"{outcome} is not an outcome of this chance event")
            return None, ("index", outcome, TEXT)
        if outcome not in self.items or outcome in self.picked:
            raise ValueError(f"{outcome} is not an outcome of this chance event")
        picked = self.picked + (outcome,)
        placed = set(picked)
        rest = [c for c in self.items if c not in placed]
        if len(rest) <= 1:
            return None, ("shuffle", list(picked) + rest, TEXT)
        return Event(self.kind, self.n, self.items, picked, self.before), None


def resume(game: Game, origin: Origin, entries: tuple) -> State | Event:
    """Run from ``origin`` with the chance outcomes ``entries``: the state at
    the next decision (or the end), or the next chance event to resolve.
    Events with one outcome are resolved here, without asking: their entries
    are in the event's ``before``, so the next run replays them too."""
    while True:
        script = tuple(entries) + ((STOP,),)
        try:
            if origin.base is None:
                st = game.new(players=origin.players, seed=0, params=origin.params, record=False, chance=script)
            else:
                st = origin.base.clone()
                st.script = script
                for player, index in origin.moves:
                    game.apply(st, player, index)
        except ChanceStop as stop:
            event = Event(stop.kind, stop.n, tuple(stop.items), before=tuple(entries))
            outcomes = event.outcomes()
            if len(outcomes) > 1:
                return event
            if outcomes:
                entry = event.choose(outcomes[0])[1]
            else:  # an empty zone shuffled, or a pick from nothing (which the engine then reports)
                entry = ("shuffle", [], TEXT) if event.kind == "shuffle" else ("index", 0, TEXT)
            entries = tuple(entries) + (entry,)
            continue
        st.script = ()
        return st
