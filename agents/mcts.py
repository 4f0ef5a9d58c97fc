"""A search agent for any ruleset: information-set Monte Carlo tree search.

``MCTSAgent`` implements single-observer ISMCTS (Cowling, Powley and
Whitehouse 2012) with decoupled UCT at simultaneous decisions:

* **One tree, a fresh determinization per iteration.** Each iteration asks
  ``decision.sample(rng)`` for a full state consistent with the agent's view
  (hidden components re-dealt, chance re-seeded, secret answers re-drawn; see
  ``agents.determinize``), walks the tree with it, adds one node, values
  it (after a rollout, when there is one) and backs the result up. Statistics are shared across
  determinizations, so the budget is not split between independent trees
  (determinized MCTS with K trees spends 1/K of it on each, and averaging
  K trees each of which knows the hidden cards is exactly where strategy
  fusion comes from). Chance needs no special nodes: each determinization
  has its own generator, so a node averages over chance outcomes.
* **Children keyed by what an option is, not where it is in the list.** The
  options another player has, and their order, change from one
  determinization to the next (their hand is different), so statistics are
  kept per option *label* (the name the deciding player sees, numbered when
  two options share a name); option indexes are only used at the root for the
  agent's own options, which are the same real options in every sample.
  A key that is not available in a determinization is not counted there:
  UCB uses the number of times each option was *available* instead of the
  parent's visits (the ISMCTS availability rule).
* **Every player maximises its own reward.** A node holds statistics per
  (player, option), and each player chooses by UCB on its own reward in
  [0, 1] (``Game.returns``: 1 shared among the winners). When several players
  decide at once (``simultaneous``), each chooses from its own statistics
  without seeing the others' choices (decoupled UCT), and the child is keyed
  by the joint choice.
* **Leaves are valued by the players' leads** (``cutoff="lead"``, the
  default): the ruleset's ``bots.heuristic`` (else its score) for each
  player minus the best of the others', through a logistic whose scale is
  the mean lead seen so far. Where the ruleset judges positions there is no
  rollout by default (``max_rollout_decisions=None``); otherwise rollouts
  are uniformly random (or, ``rollout="greedy"``, the greedy agent's
  choices) and capped; a game still running at the cap is valued by the
  lead, ranked by the scoring (``cutoff="score"``) or by the heuristic
  (``cutoff="heuristic"``), or, with neither, counted as a draw.
* **Progressive widening at the root** (``widen``): the agent's options are
  ranked once by the greedy agent's judgement in one sample, and after N
  iterations only the best ceil(widen * sqrt(N + 1)) are searched.
* ``model="greedy"`` makes the other players choose in the tree as the
  greedy agent would (measured: no clear gain; not the default).
* **Normalised values** (``normalize=1``; measured: no gain in Survive,
  not the default): in UCB each player's mean reward is scaled to [0, 1]
  by the lowest and highest mean in the decision's tree (as MuZero's
  min-max statistics), so that options whose values differ by little (a
  lead's small change, compressed by the logistic) are told apart against
  the exploration term.
* **Centred values** (``centre=1``; with a baseline): a leaf is valued by
  the change of the lead from the decision's mean root lead, on the scale
  of this decision's changes, not at the root's level where the logistic
  is flat (docs/agents.md has the measure).
* **Perfect recall** (``memory=1``, the default): the agent keeps a
  ``Memory`` of the faces it has seen, and its samples keep the hidden ones
  it could follow since (``agents.determinize.Memory``).

Which of these bought how much strength against greedy bots is measured in
docs/agents.md.

The agent only ever touches ``decision.game`` and ``decision.sample``: it
cannot see the real state. With an ``iterations`` budget a seed replays the
same decisions; a ``seconds`` budget depends on the machine's speed.
"""

from __future__ import annotations

import math
import random
import time

from rulebook.agents.determinize import Memory
from rulebook.agents.greedy import answer_for_the_others as _answer
from rulebook.agents.greedy import heuristic_of, judge_of, value
from rulebook.interpreter.errors import RulebookError
from rulebook.interpreter.playout import playout


class _Node:
    __slots__ = ("stats", "children", "allowed")

    def __init__(self):
        self.stats: dict = {}  # (player, option key) -> [visits, reward sum, times available]
        self.children: dict = {}  # joint choice ((player, key), ...) -> _Node
        self.allowed = None  # at the root, with widening: the agent's options searched so far


class MCTSAgent:
    """Information-set MCTS with a budget of ``iterations`` per decision
    (200 by default), or of ``seconds`` (wall clock; then not reproducible),
    or both (whichever runs out first)."""

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        seconds: float | None = None,
        c: float | None = None,
        rollout: str = "random",
        max_rollout_decisions: int | None = None,
        cutoff: str = "lead",
        epsilon: float | None = None,
        widen: float | None = None,
        model: str = "search",
        memory: int = 1,
        baseline: int | None = None,
        normalize: int | None = None,
        centre: int | None = None,
    ):
        # the options a ruleset may set for its game (bots.search): what the caller gave wins, then the ruleset's,
        # then the defaults (SEARCH_DEFAULTS)
        asked = {"c": c, "epsilon": epsilon, "widen": widen, "baseline": baseline, "normalize": normalize,
                 "centre": centre}
        self._asked = {k for k, v in asked.items() if v is not None}
        self._hinted_by = None  # the program whose bots.search was applied last
        c, epsilon, widen, baseline, normalize, centre = (
            SEARCH_DEFAULTS[k] if v is None else v for k, v in asked.items())
        if rollout not in ("random", "greedy"):
            raise ValueError(f"unknown rollout policy '{rollout}' (random or greedy)")
        if cutoff not in CUTOFFS:
            raise ValueError(f"unknown cutoff '{cutoff}' ({', '.join(CUTOFFS)})")
        self.cutoff = cutoff
        self.rollout = rollout
        self.epsilon = float(epsilon)
        self.widen = float(widen)
        if model not in ("search", "greedy"):
            raise ValueError(f"unknown opponent model '{model}' (search or greedy)")
        self.model = model
        # a player with perfect recall: the hidden faces it saw and could follow since are not re-drawn
        self.memory = Memory() if memory else None
        # leaves valued by the lead's change from the iteration's own sample at the root (plus the mean lead
        # there): what the sample re-drew and the moves did not touch cancels out
        # baseline=2 (the default since 2026-12-03, docs/agents.md): the baseline weighted by its coefficient
        # estimated in the decision's own iterations
        # (beta = Cov(leaf lead, root lead) / Var(root lead), in [0, 1]): whole where re-drawn hidden values
        # move both leads alike, nothing where they do not (the whole baseline was measured to cost one seed game)
        self.baseline = int(baseline)
        self._root_leads = [None, 0]  # per decision: the sum of the root samples' lead vectors, and how many
        self._cv: dict = {}  # baseline=2, per decision: player -> [n, sum b, sum b*b, sum l, sum l*b]
        # UCB on each player's mean rewards scaled to [0, 1] by the smallest and largest mean in the tree
        # (measured in docs/agents.md: no gain in Survive; not the default)
        self.normalize = bool(normalize)
        self._bounds: dict = {}  # per decision: player -> [lowest mean, highest mean]
        self._scale = [0.0, 0]  # sum of |lead| seen at cutoffs, and how many: the scale of a lead
        # centre=1 (with a baseline): a leaf is valued by the change of the lead from the decision's root, without
        # the root's level, on the scale of this decision's changes: where a move changes the lead by a point or
        # two and the level is tens of points, the logistic at the level is flat, and the options' means differ by
        # less than the exploration term (measured in Survive: visits all but uniform over the options)
        self.centre = bool(centre)
        if iterations is None:
            iterations = None if seconds else 200
        if (iterations is None or iterations < 1) and not seconds:
            raise ValueError("MCTS needs at least one iteration or some seconds")
        self.rng = random.Random(seed)
        self.iterations = int(iterations) if iterations is not None else None
        self.seconds = float(seconds) if seconds else None
        self.c = float(c)
        # None: no rollout where the ruleset judges positions (cutoff=lead), else 300 decisions
        self.max_rollout_decisions = None if max_rollout_decisions is None else int(max_rollout_decisions)
        self.failed_iterations = 0  # samples whose play broke a rule (an inconsistent determinization)
        self.last_root: _Node | None = None  # the last search tree, for tests and tools
        self.last_iterations = 0  # iterations (played or skipped) of the last decision

    # ------------------------------------------------------------ protocol
    def decide(self, decision) -> int:
        if decision.game.program is not self._hinted_by:
            self._apply_hints(decision.game.program)
        if self.memory is not None:
            decision.remember(self.memory)  # also at forced decisions: what it sees now, it may need later
        n = decision.count
        if n <= 1:
            return 0
        game, me, rng = decision.game, decision.player, self.rng
        root = _Node()
        start = time.perf_counter()
        deadline = start + self.seconds if self.seconds else None
        done = failed = 0
        last_error = None
        order = self._prior_order(game, decision, me, n) if self.widen > 0 else None
        self._root_leads = [None, 0]
        self._cv = {}
        self._bounds = {}
        if self.centre:
            self._scale = [0.0, 0]
        while True:
            if deadline is not None and done:
                now = time.perf_counter()  # stop before an iteration at the pace so far would end past it
                if now + (now - start) / done >= deadline:
                    break
            if self.iterations is not None and done + failed >= self.iterations:
                break
            if order is not None:  # progressive widening: the k best by the prior, k rising with the visits
                root.allowed = set(order[:max(1, math.ceil(self.widen * math.sqrt(done + 1)))])
            try:
                self._iterate(game, decision.sample(rng), me, root)
                done += 1
            except RulebookError as err:  # a re-drawn state the rules cannot play: skip it
                failed += 1
                last_error = err
                if deadline is not None and failed > 1000 and not done:
                    break
        self.failed_iterations += failed
        self.last_iterations = done + failed
        self.last_root = root
        if not done:
            raise last_error
        # the most visited option, then the best mean; exact ties at random, not by position
        # (a bias towards the first option is a strategy of its own in some games)
        ranked = {}
        for k in range(n):
            s = root.stats.get((me, k))
            if s is not None:
                ranked[k] = (s[0], s[1] / s[0] if s[0] else 0.0)
        top = max(ranked.values())
        best = [k for k, v in ranked.items() if v == top]
        return best[rng.randrange(len(best))] if len(best) > 1 else best[0]

    def _apply_hints(self, prog) -> None:
        """The ruleset's ``bots.search`` options, for those the caller did not give."""
        self._hinted_by = prog
        hints = getattr(prog, "search", None) or {}
        for key, default in SEARCH_DEFAULTS.items():
            if key not in self._asked:
                setattr(self, key, _SEARCH_TYPES[key](hints.get(key, default)))

    # ------------------------------------------------------------ search
    def _iterate(self, game, s, me: int, root: _Node) -> None:
        s.record = False  # no event log: faster, and nobody reads it
        rng, c = self.rng, self.c
        below = rng._randbelow  # randrange(n) for n > 0: the same draws
        sqrt, log = math.sqrt, math.log
        model = judge_of(game.program) if self.model == "greedy" else None
        base = self._leads(game, s) if self.baseline and self.cutoff == "lead" else None
        if base is not None:  # the decision's mean lead: the level the changes are added to
            seen = self._root_leads
            seen[0] = base if seen[0] is None else [a + b for a, b in zip(seen[0], base)]
            seen[1] += 1
        node = root
        path = []
        in_tree = True
        bounds = self._bounds if self.normalize else None
        while in_tree and not s.over:
            choices = []
            stats = node.stats
            for q in game.to_move(s):
                lo, span = 0.0, 1.0
                if bounds is not None:
                    b = bounds.get(q)
                    if b is not None and b[1] > b[0]:
                        lo, span = b[0], b[1] - b[0]
                mine = node is root and q == me
                # the agent's own options at the root by index (no labels); the others' by label
                options = game.options(s, q)
                keys = range(len(options)) if mine else _keys(options.labels)
                allowed = root.allowed if mine else None
                unvisited = []
                best, best_value = 0, -1.0
                for i, k in enumerate(keys):
                    if allowed is not None and k not in allowed:
                        continue
                    st = stats.get((q, k))
                    if st is None:
                        st = stats[(q, k)] = [0, 0.0, 0]
                    st[2] += 1
                    if not st[0]:
                        unvisited.append(i)
                    elif not unvisited:
                        value = (st[1] / st[0] - lo) / span + c * sqrt(log(st[2]) / st[0])
                        if value > best_value:
                            best, best_value = i, value
                i = unvisited[below(len(unvisited))] if unvisited else best
                if model is not None and q != me and len(keys) > 1 and rng.random() >= self.epsilon:
                    i = _greedy_choice(game, s, q, len(keys), model, rng)  # the others as greedy players
                choices.append((q, keys[i], i))
            for q, _, i in choices:
                game.apply(s, q, i)
            joint = tuple((q, k) for q, k, _ in choices)
            path.append((node, joint))
            child = node.children.get(joint)
            if child is None:
                child = node.children[joint] = _Node()
                in_tree = False
            node = child
        self._rollout(game, s)
        reward = self._evaluate(game, s, base) if self.cutoff == "lead" and not s.over else \
            _rewards(game, s, self.cutoff)
        for node, joint in path:
            stats = node.stats
            for q, k in joint:
                st = stats[(q, k)]
                st[0] += 1
                st[1] += reward[q]
                if bounds is not None:
                    mean = st[1] / st[0]
                    b = bounds.get(q)
                    if b is None:
                        bounds[q] = [mean, mean]
                    elif mean < b[0]:
                        b[0] = mean
                    elif mean > b[1]:
                        b[1] = mean

    def _prior_order(self, game, decision, me: int, n: int) -> list[int] | None:
        """The agent's options, best first by the greedy agent's one-step
        judgement in one sample (ties at random); None without a judge."""
        judge = judge_of(game.program)
        if judge is None:
            return None
        s = decision.sample(self.rng)
        s.record = False
        rng = self.rng
        values = []
        for k in range(n):
            t = game.clone(s)
            try:
                game.apply(t, me, k)
                _answer(game, t, rng)
                v = value(game, t, me, judge)
            except RulebookError:
                v = -math.inf
            values.append((-v, rng.random(), k))
        values.sort()
        return [k for _, _, k in values]

    def _rollout(self, game, s) -> None:
        """Play to the end or the cap: at random in the engine's own loop (no
        labels, no checks), or with ``rollout="greedy"`` by the greedy
        agent's one-step judgement, at random with probability ``epsilon``."""
        cap = self.max_rollout_decisions
        if cap is None:
            cap = 0 if self.cutoff == "lead" and judge_of(game.program) is not None else 300
        if s.over or cap <= 0:
            return
        if self.rollout == "greedy":
            judge = judge_of(game.program)
            if judge is not None:
                self._greedy_rollout(game, s, judge, cap)
                return
        playout(s, cap=cap, draw=self.rng.random)  # uniform: the option at int(random() * count), no call per pick

    def _greedy_rollout(self, game, s, judge, cap: int) -> None:
        rng, eps = self.rng, self.epsilon
        made = 0
        while not s.over and made < cap:
            for q in game.to_move(s):
                n = len(game.options(s, q))
                if n <= 1 or rng.random() < eps:
                    game.apply(s, q, rng.randrange(n) if n > 1 else 0)
                else:
                    game.apply(s, q, _greedy_choice(game, s, q, n, judge, rng))
                made += 1

    def _leads(self, game, s) -> list[float] | None:
        """Each player's lead in ``s``: its ``bots.heuristic`` (else its
        score) minus the best of the other live players' (None without either)."""
        judge = judge_of(game.program)
        if judge is None:
            return None
        n = s.n
        values = [judge(s, p) for p in range(n)]
        live = [p for p in range(n) if not s.eliminated[p]] or list(range(n))
        leads = []
        for p in range(n):
            others = [values[q] for q in live if q != p]
            leads.append(values[p] - max(others) if others else 0.0)
        return leads

    def _beta(self, p: int, leaf: float, base: float) -> float:
        """The control variate's coefficient for player ``p`` from this
        decision's iterations so far (this one included), in [0, 1]; 0 until
        ten iterations have been seen or while the root's lead has not varied."""
        cv = self._cv.get(p)
        if cv is None:
            cv = self._cv[p] = [0, 0.0, 0.0, 0.0, 0.0]
        cv[0] += 1
        cv[1] += base
        cv[2] += base * base
        cv[3] += leaf
        cv[4] += leaf * base
        k = cv[0]
        var = cv[2] - cv[1] * cv[1] / k
        if k < 10 or var <= 1e-9:
            return 0.0
        return max(0.0, min(1.0, (cv[4] - cv[3] * cv[1] / k) / var))

    def _evaluate(self, game, s, base: list[float] | None = None) -> list[float]:
        """``cutoff="lead"``: each player's reward at the cap is a logistic
        function of its lead (its ``bots.heuristic``, else its score, minus
        the best of the others'), scaled by the mean size of the leads this
        agent has seen, so that a bigger lead is worth more but never a win.

        With ``base`` (the leads in this iteration's sample before the walk;
        ``baseline=1``) the lead valued is the mean lead of the decision's
        samples plus this walk's change of it: what the sample re-drew (a
        hidden value counted in a score) weighs the same before and after
        the moves, so it cancels out instead of drowning their effect (a
        control variate; the expected lead is unchanged)."""
        leads = self._leads(game, s)
        if leads is None:
            return [1.0 / s.n] * s.n
        n = s.n
        if base is not None:
            total, count = self._root_leads
            if self.baseline == 2:
                leads = [leads[p] - self._beta(p, leads[p], base[p]) * (base[p] - total[p] / count)
                         for p in range(n)]
            else:
                leads = [leads[p] - base[p] + total[p] / count for p in range(n)]
            if self.centre:
                leads = [leads[p] - total[p] / count for p in range(n)]
        live = [p for p in range(n) if not s.eliminated[p]] or list(range(n))
        scale = self._scale
        for p in live:
            scale[0] += abs(leads[p])
            scale[1] += 1
        size = scale[0] / scale[1] if scale[0] > 0 else 1.0
        out = []
        for p in range(n):
            if s.eliminated[p]:
                out.append(0.0)
            else:
                x = max(-30.0, min(30.0, 2.0 * leads[p] / size))
                out.append(1.0 / (1.0 + math.exp(-x)))
        return out


CUTOFFS = ("score", "heuristic", "lead")
# the options a ruleset's bots.search may set, and their defaults (validator/ruleset.schema.json checks them)
SEARCH_DEFAULTS = {"c": 1.4, "epsilon": 0.2, "widen": 1.0, "baseline": 2, "normalize": 0, "centre": 0}
_SEARCH_TYPES = {"c": float, "epsilon": float, "widen": float, "baseline": int, "normalize": bool, "centre": bool}


def _greedy_choice(game, s, q, n, judge, rng) -> int:
    """The option the greedy agent would pick for ``q`` in ``s`` (one step, no new sample)."""
    best, best_value = [], -math.inf
    for k in range(n):
        t = game.clone(s)
        try:
            game.apply(t, q, k)
            _answer(game, t, rng)
        except RulebookError:
            continue
        v = value(game, t, q, judge)
        if v > best_value:
            best, best_value = [k], v
        elif v == best_value:
            best.append(k)
    if not best:
        return rng.randrange(n)
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


def _keys(labels: list[str]) -> list:
    """What identifies each option across determinizations: its label (the
    name its chooser reads), numbered from the second option with the same
    label. (At the root the agent's own options are keyed by index.)"""
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        n = seen.get(label, 0)
        seen[label] = n + 1
        out.append((label, n) if n else label)
    return out


def _rewards(game, s, cutoff: str = "score") -> list[float]:
    """Each player's reward in [0, 1]: the game's returns when it is over;
    at the rollout cap, the leaders share 1: by the ruleset's scoring, or
    with ``cutoff="heuristic"`` by its ``bots.heuristic`` when it has one (a
    draw when there is neither or it cannot be computed yet)."""
    n = s.n
    if s.over:
        if hasattr(game, "returns"):
            return game.returns(s)
        winners = list(s.winners)
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(n)] if winners else [0.0] * n
    prog = getattr(game, "program", None)
    if prog is None:
        return [1.0 / n] * n
    live = [p for p in range(n) if not s.eliminated[p]] or list(range(n))
    heuristic = heuristic_of(prog) if cutoff == "heuristic" else None
    if heuristic is not None:
        keys = {p: (heuristic(s, p),) for p in live}
    elif prog.score is not None:
        try:
            keys = {p: _rank_key(s, prog, p) for p in live}
        except (RulebookError, TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError):
            return [1.0 / n] * n
    else:
        return [1.0 / n] * n
    best = max(keys.values())
    leaders = [p for p in live if keys[p] == best]
    return [1.0 / len(leaders) if p in leaders else 0.0 for p in range(n)]


def _rank_key(s, prog, p) -> tuple:
    """How the ruleset would rank player ``p`` if the game ended now: its
    score, then its tie-breaks (as ``interpreter.run.finish`` ranks a scored end)."""
    key = [prog.score(s, p)] + [tb(s, p) for tb in prog.tie_breaks]
    return tuple(-v for v in key) if prog.lowest_wins else tuple(key)
