"""A cheap agent that looks one decision ahead: ``GreedyAgent``.

For each of its options it plays the option in a determinization (a state
consistent with its own view; see ``agents.determinize``), lets the
rules run to the next decision, and scores where that leads:

* a finished game is worth the most when the agent is among the winners and
  the least when it is not;
* otherwise the ruleset's ``bots.heuristic`` (an expression judged for
  ``player``, higher is better), or failing that its ``scoring.score``
  (negated when the lowest score wins), gives the agent's *lead*: its own
  value minus the best value among the other players still in the game, so
  that making a rival draw cards counts as much as shedding one's own;
* with neither, every unfinished position is worth the same.

In a simultaneous decision, the players who have not answered yet answer
at random in the lookahead (as the determinization re-draws the answers
already given), so the round resolves before it is judged. Exact ties are
broken at random (never by position: the first option is not a strategy).
Randomness in the rules and hidden cards are re-drawn by each
determinization (but for the faces the agent saw and could follow since:
it has perfect recall, ``memory=1``, see ``agents.determinize.Memory``),
so ``samples`` > 1 averages an option over several draws: in
push-your-luck games, an estimate of the risk.

Why it exists: uniformly random bots are the right tool to show a ruleset
runs without errors, but in games where any player may always draw instead
of playing (shedding games) random play almost never ends; simulations meant
to say something about balance need players that try. The greedy agent needs
nothing but data from the ruleset, costs (options x samples) clones per
decision, and sees only what its seat sees.
"""

from __future__ import annotations

import math
import random

from rulebook.agents.determinize import Memory
from rulebook.interpreter.errors import RulebookError

WIN = 1e12


class GreedyAgent:
    """One-step lookahead on the ruleset's ``bots.heuristic``."""

    def __init__(self, seed: int = 0, samples: int = 1, memory: int = 1):
        if samples < 1:
            raise ValueError("the greedy agent needs at least one sample")
        self.rng = random.Random(seed)
        self.samples = int(samples)
        self.memory = None
        if memory:  # a player with perfect recall
            self.memory = Memory()

    def decide(self, decision) -> int:
        if self.memory is not None:
            decision.remember(self.memory)
        n = decision.count
        if n <= 1:
            return 0
        game, me, rng = decision.game, decision.player, self.rng
        judge = judge_of(game.program)
        totals = [0.0] * n
        counts = [0] * n
        for _ in range(self.samples):
            base = decision.sample(rng)
            base.record = False
            for k in range(n):
                s = game.clone(base)
                try:
                    game.apply(s, me, k)
                    answer_for_the_others(game, s, rng)
                except RulebookError:  # the sample cannot be played this way: no evidence for it
                    continue
                totals[k] += value(game, s, me, judge)
                counts[k] += 1
        # the mean over the samples an option could be played in; never playable: never chosen
        means = [t / c if c else -math.inf for t, c in zip(totals, counts)]
        top = max(means)
        best = [k for k, v in enumerate(means) if v == top]
        return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


def answer_for_the_others(game, s, rng: random.Random) -> None:
    """In a simultaneous decision the others' answers are unknown (those
    already given were re-drawn by the sample): let each player still to
    answer pick uniformly, so that the decision resolves and its outcome
    can be judged. The same assumption as the determinization's."""
    pend = s.pending
    if pend is None or pend["kind"] != "simul":
        return
    for q in game.to_move(s):
        game.apply(s, q, rng.randrange(len(game.options(s, q))))


def value(game, s, me: int, judge=None) -> float:
    """How good state ``s`` is for seat ``me`` (see the module docstring);
    ``judge`` is ``judge_of(game.program)``, made once per decision."""
    if s.over:
        return WIN if me in s.winners else -WIN
    if judge is None:
        judge = judge_of(game.program)
        if judge is None:
            return 0.0
    values = [judge(s, p) for p in range(s.n)]
    others = [values[p] for p in range(s.n) if p != me and not s.eliminated[p]]
    return values[me] - (max(others) if others else 0)


def heuristic_of(prog):
    """``(state, player) -> number``: the ruleset's ``bots.heuristic``, or None."""
    return prog.heuristic  # the author's: its errors are the ruleset's, and reported


def judge_of(prog):
    """``(state, player) -> number`` from the ruleset: its heuristic, else its
    score (negated when the lowest wins), else None."""
    heuristic = heuristic_of(prog)
    if heuristic is not None or prog.score is None:
        return heuristic
    fn, sign = prog.score, -1 if prog.lowest_wins else 1

    def by_score(s, p):
        try:  # a final score need not be computable mid-game
            return sign * fn(s, p)
        except (RulebookError, TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError):
            return 0

    return by_score
