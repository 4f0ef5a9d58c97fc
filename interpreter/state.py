"""Game state as plain data.

Everything that changes during a game lives in ``State``: variables,
component properties, zones, the seeded generator, the interpreter's frame
stack (so a game can stop at any decision) and the pending decision. What
never changes during a game (the compiled program, the component catalogue)
is shared by reference and not saved: it is rebuilt from the ruleset. A
saved game is loaded by replaying its seed and decisions (``Game.load``),
and ``to_data`` is what the replay must give back.

``script`` is for tests only: chance outcomes a scenario file imposes
(``interpreter.ops.shuffle`` and ``random_index`` take them first). It is
not part of the game, so ``to_data`` leaves it out.

Invariant that makes cloning cheap: list values stored in variables,
properties and frame locals are never mutated in place (statements build
new lists); zones, the only lists mutated in place, are copied on clone.
"""

from __future__ import annotations

from typing import Any

from rulebook.interpreter import indexes

# What a field always holds, where that is one kind: native code types its
# state by this table (compiler/native.py: a list is read without a type test,
# a counter is a C integer). A field not named here may hold anything; a field
# named here must never be given anything else (a list may be None).
FIELD_KINDS = {
    **dict.fromkeys(("pvars", "props", "static", "owner", "zones", "loc", "face", "eliminated", "stack",
                     "winners", "history", "events", "extra_zones"), "list"),
    **dict.fromkeys(("params", "vars", "known", "index"), "dict"),
    **dict.fromkeys(("n", "turn", "since_decision", "work", "loops", "depth"), "int"),
}


class State:
    __slots__ = (
        "prog",
        "cat",
        "n",
        "params",
        "vars",
        "pvars",
        "props",
        "static",
        "owner",
        "zones",
        "loc",
        "face",
        "known",
        "rng",
        "eliminated",
        "current",
        "phase",
        "end_turn",
        "end_phase",
        "pass_to",
        "stack",
        "pending",
        "over",
        "winners",
        "history",
        "turn",
        "events",
        "record",
        "since_decision",
        "work",
        "seed",
        "extra_zones",
        "loops",  # loop rounds since the last decision (not saved: the run loop counts them afresh)
        "depth",  # plain calls of triggers and procedures running now (not saved)
        "script",  # chance outcomes a scenario scripted (tests only; not saved)
        "quiet",  # an engine playout runs it: options get no labels, nobody reads them (not saved)
        "auto",  # how an engine playout answers, where the rules ask (interpreter/playout.py; not saved)
        "track",  # whether players' memory is kept up: ``lost`` counted (the real game; not samples, not saved)
        "lost",  # per player, per component: how often it was mixed out of that player's sight (not saved)
        "index",  # changing properties by value, for the queries that read them (interpreter/indexes.py; not saved)
        "memo",  # values of functions while one decision is made, or None (interpreter/memo.py; not saved)
    )

    def clone(self) -> State:
        s = State.__new__(State)
        s.prog = self.prog
        s.cat = self.cat
        s.n = self.n
        s.params = self.params
        s.vars = self.vars.copy()
        s.pvars = [d.copy() for d in self.pvars]
        s.props = [d.copy() if d is not None else None for d in self.props]
        s.static = self.static
        s.owner = self.owner[:]
        s.zones = [z[:] for z in self.zones]
        s.loc = self.loc[:]
        s.face = self.face[:]
        s.known = {k: v[:] for k, v in self.known.items()} if self.known else {}
        s.rng = self.rng
        s.eliminated = self.eliminated[:]
        s.current = self.current
        s.phase = self.phase
        s.end_turn = self.end_turn
        s.end_phase = self.end_phase
        s.pass_to = self.pass_to
        s.stack = [[f[0], f[1], f[2][:]] for f in self.stack]
        s.pending = self.pending  # replaced, never mutated, once created
        s.over = self.over
        s.winners = self.winners
        s.history = self.history[:]
        s.turn = self.turn
        s.events = []
        s.record = self.record
        s.since_decision = self.since_decision
        s.work = self.work
        s.seed = self.seed
        s.extra_zones = self.extra_zones[:] if self.extra_zones else []
        s.loops = 0
        s.depth = 0
        s.script = self.script  # a tuple, replaced and never mutated (interpreter.ops.next_scripted)
        s.quiet = self.quiet
        s.auto = None
        s.memo = None
        s.track = self.track
        s.lost = self.lost  # a tuple, replaced and never mutated (interpreter.ops.lose)
        s.index = indexes.copy(self.index) if self.index else self.index
        return s

    # ------------------------------------------------------------ plain data
    def to_data(self) -> dict[str, Any]:
        """The state as JSON-compatible data: what a save holds, and what
        replaying the save's seed and decisions must give again. Zones made
        in play are listed only when there are some, so saves of games
        without them read as they did before such zones existed."""
        data = {
            "vars": self.vars,
            "pvars": self.pvars,
            "props": self.props,
            "created": self.static[len(self.cat.static) :],
            "owner": self.owner,
            "zones": self.zones,
            "loc": self.loc,
            "face": self.face,
            "known": {str(k): v for k, v in self.known.items()},
            "rng": str(self.rng),
            "eliminated": self.eliminated,
            "current": self.current,
            "phase": self.phase,
            "flags": [self.end_turn, self.end_phase, self.pass_to],
            "stack": self.stack,
            "pending": self.pending,
            "over": self.over,
            "winners": self.winners,
            "history": self.history,
            "turn": self.turn,
            "since_decision": self.since_decision,
            "seed": self.seed,
        }
        if self.extra_zones:
            data["extra_zones"] = self.extra_zones
        return data
