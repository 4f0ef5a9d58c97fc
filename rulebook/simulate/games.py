"""Many games between agents: the per-game loop, results and benchmarks.

A run is a list of games. Game ``i`` is fully determined by the ruleset (with
its variants and parameters), the player count, the agent line-up and
``game_seed(run_seed, i)``; seat ``p`` of that game gets an agent built by
``make_agent(spec, agent_seed(game seed, p))``, fresh for every game, except
that the random seats of a game draw from one generator (``random_seats``),
in the order they decide. Nothing else (which process plays it, in what
order games finish) enters a game, so every backend (one process,
``--workers N``, a Dask cluster) gives the same results, and any game of a
run can be played again on its own.

When every seat is ``random`` a faster loop plays the game, inside the
engine (``interpreter.playout``): the same draws from the same generator,
over the pending options instead of the labelled ``Game.options``, so it makes
the same choices as the general loop (a test checks this on every seed it
plays). Since the compiler that emits Python (December 2026) the random
seats share one generator per game, so random runs differ from those of
earlier versions.

Agents answer at once, so a turn's ``time_limit`` never runs out for them.
``time_outs`` (``--time-outs RATE``) lets each timed decision run out of time
with that probability instead, as for a player who dawdles: the turn's
``on_time_out`` runs, recorded in the history like a decision. Whether a
decision times out is drawn from a generator of its own, seeded by the game's
seed, so a rate of 0 plays exactly the games of a run without it.

A game nobody watches needs no narration, and the fast loop makes none: no
``say`` text and no option label is evaluated. But a rule that fails only
there fails in every game a person plays, so some games of a run are played
as ``rulebook play`` plays them, with narration and labels (``narrated``):
the first ``NARRATED_FIRST`` and a fraction of the others chosen by their
seeds (``--check-narration``). Evaluating them in every game would cost far
more than the few percent a sample costs (docs/performance.md). Narration
changes no draw and no choice: a narrated game has the winners, scores and
decisions it has without it.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from rulebook.agents.base import split_agents  # noqa: F401 - callers read the line-up from here
from rulebook.interpreter.errors import RulebookError

DEFAULT_MAX_DECISIONS = 100_000
DEFAULT_NARRATED = 0.005  # the fraction of a run's games (after the first ones) played with their narration
NARRATED_FIRST = 10  # the first games of a run are always played with it: a short run checks it too

# error kinds of a game that did not finish (WORKER: its worker process died, twice)
RULE, CAP, AGENT, WORKER = "rule", "cap", "agent", "worker"


@dataclass
class Result:
    """One game of a run. ``history`` (the decisions as ``[player, value]``)
    is kept only for games that failed, to write their replayable log."""

    index: int
    seed: int
    winners: list
    decisions: int
    error: str | None = None
    agents: list = field(default_factory=list)
    scores: list | None = None
    turns: int | None = None
    kind: str | None = None
    history: list | None = None
    timed: int = 0  # decisions with a time limit (counted with --time-outs only)
    time_outs: int = 0  # of those, how many ran out of time
    cut_off: bool = False  # the narration said the run's --cut-off-says text: the rules cut the game short
    narrated: bool = False  # played with its narration and option labels evaluated (see ``narrated``)


def game_seed(run_seed: int, index: int) -> int:
    """Each game's seed from the run's seed and the game's index, so that
    any game of a run can be replayed on its own."""
    return (run_seed * 1_000_003 + index * 7919) % (2**31)


def agent_seed(seed: int, seat: int) -> int:
    """The seed of the agent at ``seat`` (0-based) in the game seeded ``seed``
    (the formula of the random bots before agents could be chosen, so random
    runs keep their results)."""
    return seed * 31 + seat


def narrated(index: int, seed: int, rate: float = DEFAULT_NARRATED) -> bool:
    """Whether game ``index`` (seeded ``seed``) of a run is played with its
    narration: the first ``NARRATED_FIRST`` games and a fraction ``rate`` of
    the others, by a hash of the seed, so the same seed is always chosen or
    never (rate 0: none, 1: all). A multiplicative hash, not a generator:
    seeding one per game would cost more than a short game's draws."""
    if rate <= 0.0:
        return False
    return index < NARRATED_FIRST or ((seed * 2654435761) & 0xFFFFFFFF) < rate * 2**32


def play_one(game, players: int, seed: int, params=None, record=False) -> tuple[list, int]:
    """One game between random bots, as fast as the engine allows (``bench``
    and ``benchmarks/side_by_side.py`` time exactly this loop)."""
    from rulebook.interpreter.playout import playout

    st = game.new(players=players, seed=seed, params=params, record=record, track=False)  # nobody remembers
    decisions = playout(st, draw=random_seats(seed).random)
    return st.winners, decisions


def random_seats(seed: int) -> random.Random:
    """The generator the random seats of game ``seed`` draw from: one per
    game, shared by its random seats in the order they decide (seeding a
    generator per seat cost more than the rest of a short game's draws)."""
    return random.Random(agent_seed(seed, 0))


class SharedRandom:
    """A random seat drawing from its game's shared generator (``random_seats``)."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, view, options) -> int:
        return int(self.rng.random() * len(options))

    def decide(self, decision) -> int:
        return int(self.rng.random() * decision.count)


class GameStopped(Exception):
    """A game stopped by the decision cap or by its agent (not the ruleset)."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


def play_game(
    game,
    players: int,
    index: int,
    seed: int,
    specs: Sequence[str],
    params: dict | None = None,
    max_decisions: int = DEFAULT_MAX_DECISIONS,
    fast: bool | None = None,
    keep_history: bool = False,
    time_outs: float = 0.0,
    cut_off_says: str | None = None,
    narrate: float = DEFAULT_NARRATED,
) -> Result:
    """Play game ``index`` of a run (seeded ``seed``) with one agent spec per
    seat. A ``RulebookError`` of the ruleset, the decision cap and a failing
    agent end the game with an error instead of ending the run; any other
    exception is a bug in Rulebook and propagates. ``fast=None`` uses the
    random loop whenever every seat is ``random``. ``narrate``: the rate of
    games played with their narration (``narrated``; ``cut_off_says`` reads
    the narration of every game)."""
    specs = list(specs)
    st = None
    timer = _TimeOuts(game, seed, time_outs) if time_outs else None
    record = bool(cut_off_says) or narrated(index, seed, narrate)
    try:
        st = game.new(players=players, seed=seed, params=params, record=record,
                      track=any(spec != "random" for spec in specs))  # random bots remember nothing
        decisions = play_state(game, st, seed, specs, max_decisions, fast, timer=timer)
    except RulebookError as err:
        return _failed(index, seed, specs, st, str(err), RULE, record)
    except GameStopped as stop:
        return _failed(index, seed, specs, st, str(stop), stop.kind, record)
    try:
        scores = game.scores(st) if game.program.score else None
    except RulebookError as err:
        return _failed(index, seed, specs, st, str(err), RULE, record)
    history = [list(h) for h in st.history] if keep_history else None
    cut_off = bool(cut_off_says) and any(e[0] == "say" and cut_off_says in e[1] for e in st.events)
    return Result(index, seed, list(st.winners), decisions, None, specs, scores, st.turn or None, history=history,
                  timed=timer.timed if timer else 0, time_outs=timer.outs if timer else 0, cut_off=cut_off,
                  narrated=record)


def play_state(game, st, seed: int, specs: Sequence[str], max_decisions: int = DEFAULT_MAX_DECISIONS,
               fast: bool | None = None, time_outs: float = 0.0, timer: _TimeOuts | None = None) -> int:
    """Play the new game ``st`` (seeded ``seed``) to its end with one agent
    spec per seat; returns the number of decisions. Raises ``RulebookError``
    when the rules fail and ``GameStopped`` at the cap or when an agent fails.
    ``timer`` (a ``_TimeOuts``, which counts what it did) or ``time_outs``
    (a rate) lets timed decisions run out of time."""
    if fast is None:
        fast = all(s == "random" for s in specs)
    if timer is None and time_outs:
        timer = _TimeOuts(game, seed, time_outs)
    if fast:
        return _random_loop(game, st, seed, max_decisions, timer)
    return _agent_loop(game, st, seed, list(specs), max_decisions, timer)


class _TimeOuts:
    """Which timed decisions run out of time, at ``rate``, from a generator
    seeded by the game's seed alone."""

    def __init__(self, game, seed: int, rate: float):
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"a time-out rate is between 0 and 1, not {rate}")
        self.game, self.rate, self.rng = game, rate, random.Random(f"time-outs {seed}")
        self.timed = self.outs = 0

    def run_out(self, st, player: int) -> bool:
        """True (and the time-out applied) when this decision runs out of time."""
        if self.game.time_limit(st, player) is None:
            return False
        self.timed += 1
        if self.rng.random() >= self.rate:
            return False
        self.outs += 1
        self.game.time_out(st, player)
        return True


def _failed(index, seed, specs, st, message, kind, narrated=False) -> Result:
    history = [list(h) for h in st.history] if st is not None else []
    return Result(index, seed, [], len(history), message, specs, None, None, kind, history, narrated=narrated)


def _random_loop(game, st, seed: int, cap: int, timer: _TimeOuts | None = None) -> int:
    draw = random_seats(seed).random
    if timer is None:  # the engine's own loop: the same draws, without labelling every option
        from rulebook.interpreter.playout import playout

        decisions = playout(st, cap=cap, draw=draw)
        if decisions >= cap and not st.over:
            raise GameStopped(CAP, f"no end after {cap} decisions (--max-decisions)")
        return decisions
    decisions = 0
    while not st.over:
        for p in game.to_move(st):
            if timer is None or not timer.run_out(st, p):
                game.apply(st, p, int(draw() * len(game.options(st, p))))
            decisions += 1
            if decisions >= cap and not st.over:
                raise GameStopped(CAP, f"no end after {cap} decisions (--max-decisions)")
    return decisions


def _agent_loop(game, st, seed: int, specs: list, cap: int, timer: _TimeOuts | None = None) -> int:
    from rulebook.agents.base import as_agent, make_agent

    shared = random_seats(seed)
    agents = [as_agent(SharedRandom(shared) if spec == "random" else make_agent(spec, agent_seed(seed, p)))
              for p, spec in enumerate(specs)]
    decisions = 0
    while not st.over:
        for p in game.to_move(st):
            if timer is None or not timer.run_out(st, p):
                game.apply(st, p, _ask(game, st, p, agents[p], specs[p]))
            decisions += 1
            if decisions >= cap and not st.over:
                raise GameStopped(CAP, f"no end after {cap} decisions (--max-decisions)")
    return decisions


def _ask(game, st, p: int, agent, spec: str) -> int:
    """Seat ``p``'s agent's choice, checked to be one of its options."""
    from rulebook.agents.base import decide
    from rulebook.interpreter.game import Option

    try:
        index = decide(game, st, p, agent)
    except RulebookError as err:
        # the ruleset failed while the agent looked ahead (in a copy of the game)
        raise RulebookError(f"while seat {p + 1} ({spec}) was deciding: {err}") from None
    except Exception as err:  # noqa: BLE001 - a user's agent may fail in any way; the run goes on
        raise GameStopped(AGENT, f"agent '{spec}' at seat {p + 1} failed: {type(err).__name__}: {err}") from None
    if isinstance(index, Option):
        index = index.index
    count = len(game.options(st, p))
    chosen = index
    try:  # any integer type (a NumPy agent's int64 too), but not a bool
        index = operator.index(index)
    except TypeError:
        pass
    if isinstance(chosen, bool) or not isinstance(index, int) or not 0 <= index < count:
        raise GameStopped(AGENT, f"agent '{spec}' at seat {p + 1} chose {chosen!r}, not one of {count} options")
    return index


# ------------------------------------------------------------ line-ups


def lineup(players: int, agents: Sequence[str] = ("random",), seats: dict[int, str] | None = None) -> list[str]:
    """One agent spec per seat: ``agents`` in seat order (the last one
    repeats for the seats left), then ``seats`` (0-based) override."""
    agents = list(agents) or ["random"]
    if len(agents) > players:
        raise ValueError(f"{len(agents)} agents for {players} seats")
    specs = agents + [agents[-1]] * (players - len(agents))
    for seat, spec in (seats or {}).items():
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat + 1}: seats are 1 to {players}")
        specs[seat] = spec
    return specs


def check_agents(specs: Sequence[str]) -> None:
    """Build each distinct agent once, so that an unknown name or a bad
    option is a usage error before the run instead of an error per game."""
    import importlib.util

    from rulebook.agents.base import make_agent

    for spec in dict.fromkeys(specs):
        if spec == "random":
            continue
        if spec.partition(":")[0] == "mcts" and importlib.util.find_spec("rulebook.agents.mcts") is None:
            raise ValueError(f"agent '{spec}': the MCTS agent (agents/mcts.py) is not part of this installation")
        try:
            make_agent(spec, 0)
        except (ValueError, TypeError, ImportError, AttributeError) as err:
            raise ValueError(f"agent '{spec}': {err}") from None


# ------------------------------------------------------------ runs
