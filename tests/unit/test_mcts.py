"""MCTS: stronger than random where there is a real choice, blind to hidden
information, reproducible for a seed, and at home in simultaneous games."""

from __future__ import annotations

import random

import pytest
from conftest import game
from helpers import blind_decision, position_with_choice
from rulebook.agents.base import RandomAgent, decide, make_agent, play_out
from rulebook.agents.determinize import determinize
from rulebook.agents.mcts import MCTSAgent
from rulebook.interpreter.view import view


def test_mcts_beats_random_at_tic_tac_toe():
    g = game("examples/tic-tac-toe/ruleset.yaml")
    score = lost = 0.0
    for i in range(16):
        seat = i % 2
        agents = [RandomAgent(100 + i), RandomAgent(200 + i)]
        agents[seat] = MCTSAgent(seed=i, iterations=30)
        st = g.new(players=2, seed=i, record=False)
        play_out(g, st, agents, view_fn=False)
        score += g.returns(st)[seat]
        lost += g.returns(st)[1 - seat]
    # 13 of 16 (81 %): the 95 % Wilson interval [0.57, 0.93] lies above the fair share 1/2
    assert score >= 13 and lost <= 2, f"MCTS won {score}, lost {lost} of 16 against random"


def _crazy_eights_decision():
    g = game("examples/crazy-eights/ruleset.yaml")
    st, p = position_with_choice(g, 3, 4, 2)  # a position with a real choice
    return g, st, p


def test_mcts_uses_only_samples_and_its_choice_ignores_hidden_cards():
    g, st, p = _crazy_eights_decision()
    # a second real state: the same table for p, other hidden cards (and generator)
    other = determinize(st, p, random.Random(42))
    assert view(other, p) == view(st, p)
    assert [st.static[c] for c in st.zones[st.cat.zone_base["stock"]]] != [
        other.static[c] for c in other.zones[other.cat.zone_base["stock"]]]
    trees = []
    for real in (st, other):
        agent = MCTSAgent(seed=3, iterations=30)
        choice = agent.decide(blind_decision(g, p, view(real, p), g.options(real, p), real))
        trees.append((choice, agent.last_root.stats))
    assert trees[0] == trees[1]


def test_mcts_is_deterministic_for_a_seed():
    g = game("examples/pig/ruleset.yaml")
    histories = []
    for seed in (5, 5, 6):
        st = g.new(players=2, seed=7, record=False)
        play_out(g, st, [MCTSAgent(seed=seed, iterations=10, max_rollout_decisions=30), RandomAgent(1)],
                 view_fn=False)
        histories.append(st.history)
    assert histories[0] == histories[1]
    assert histories[0] != histories[2]  # the seed matters: the search is random


def test_mcts_plays_simultaneous_games():
    g = game("examples/rock-paper-scissors/ruleset.yaml")
    for seed in range(3):
        st = g.new(players=2, seed=seed)
        play_out(g, st, [MCTSAgent(seed=seed, iterations=20), MCTSAgent(seed=seed + 9, iterations=20)])
        assert st.over
    # the opponent's already given answer is secret: both answers it might be give one decision
    st = g.new(players=2, seed=0)
    decisions = []
    for answer in range(3):
        real = st.clone()
        g.apply(real, 0, answer)
        agent = MCTSAgent(seed=1, iterations=30)
        decisions.append(decide(g, real, 1, agent.decide))
        stats = agent.last_root.stats
        assert {k for k in stats if k[0] == 1} == {(1, 0), (1, 1), (1, 2)}
    assert len(set(decisions)) == 1


def test_mcts_in_a_game_with_hidden_cards_and_many_players():
    g = game("rulesets/get-bit/ruleset.yaml")
    st = g.new(players=4, seed=1, record=False)
    agent = MCTSAgent(seed=0, iterations=8, max_rollout_decisions=40)
    play_out(g, st, [agent] + [RandomAgent(i) for i in range(3)], view_fn=False)
    assert st.over and agent.failed_iterations == 0


def test_make_agent_builds_mcts_with_options():
    agent = make_agent("mcts:iterations=12,c=0.7,max_rollout_decisions=50", seed=4)
    assert isinstance(agent, MCTSAgent)
    assert (agent.iterations, agent.c, agent.max_rollout_decisions) == (12, 0.7, 50)
    assert isinstance(make_agent("random", seed=1), RandomAgent)


def test_at_the_rollout_cap_the_heuristic_can_rank_the_players():
    from helpers import compile_ok
    from rulebook.agents.mcts import _rewards

    g = compile_ok("""
player_vars:
  gold: 0
  gems: 0
actions:
  dig:
    effect: |
      set player.gold += 1
      set player.gems += 2 if player == players[1] else 0
      if player.gold >= 9:
          end game
phases:
  play:
    turn:
      actions: [dig]
scoring:
  score: player.gold
bots:
  heuristic: player.gems
""")
    st = g.new(players=2, seed=0, record=False)
    g.apply(st, 0, 0)
    assert _rewards(g, st) == [1.0, 0.0]  # by the score: P1 has 1 gold, P2 none
    assert _rewards(g, st, "heuristic") == [0.5, 0.5]  # by the heuristic: no gems yet
    g.apply(st, 1, 0)
    assert _rewards(g, st, "heuristic") == [0.0, 1.0]
    with pytest.raises(ValueError, match="cutoff"):
        make_agent("mcts:cutoff=guess")
    nim = game("examples/nim/ruleset.yaml")  # a ruleset with a heuristic, played to its end
    st = nim.new(players=2, seed=0, record=False)
    play_out(nim, st, [make_agent("mcts:iterations=8,cutoff=heuristic,max_rollout_decisions=2", 1), RandomAgent(2)],
             view_fn=False)
    assert st.over


class _Counting(MCTSAgent):
    """An MCTS agent that records how many iterations each decision ran."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.budgets = []

    def decide(self, decision) -> int:
        choice = super().decide(decision)
        if decision.count > 1:
            self.budgets.append(self.last_iterations)
        return choice


@pytest.mark.parametrize("options", [{}, {"cutoff": "lead", "max_rollout_decisions": 0},
                                     {"cutoff": "lead", "rollout": "greedy", "max_rollout_decisions": 3},
                                     {"model": "greedy", "widen": 0}, {"normalize": 1, "memory": 0, "baseline": 0},
                                     {"baseline": 2}, {"centre": 1}])
def test_mcts_is_deterministic_for_a_seed_and_respects_its_iteration_budget(options):
    g = game("rulesets/dead-mans-draw/ruleset.yaml")
    runs = []
    for _ in range(2):
        st = g.new(players=2, seed=4, record=False)
        agent = _Counting(seed=9, iterations=12, **options)
        play_out(g, st, [agent, make_agent("greedy", 2)], view_fn=False)
        assert agent.budgets and set(agent.budgets) == {12}  # every real decision: exactly its budget
        runs.append(st.history)
    assert runs[0] == runs[1]


def test_a_time_budget_is_checked_after_every_iteration(monkeypatch):
    """``seconds``: the clock is read after each iteration and the search
    stops before an iteration at the pace so far would end past the
    deadline. With a clock that advances 0.01 s per reading, one second is
    about 100 iterations, every decision."""
    import rulebook.agents.mcts as mcts

    clock = [0.0]

    def tick():
        clock[0] += 0.01
        return clock[0]

    monkeypatch.setattr(mcts.time, "perf_counter", tick)
    g = game("rulesets/get-bit/ruleset.yaml")
    st = g.new(players=4, seed=2, record=False)
    agent = _Counting(seed=1, seconds=1, cutoff="lead", max_rollout_decisions=5)
    play_out(g, st, [agent] + [RandomAgent(i) for i in range(3)], view_fn=False)
    assert agent.budgets and all(99 <= b <= 101 for b in agent.budgets), agent.budgets
    # both budgets: whichever runs out first
    st = g.new(players=4, seed=2, record=False)
    agent = _Counting(seed=1, seconds=1, iterations=30, max_rollout_decisions=5)
    play_out(g, st, [agent] + [RandomAgent(i) for i in range(3)], view_fn=False)
    assert set(agent.budgets) == {30}
    assert make_agent("mcts:seconds=1").iterations is None and make_agent("mcts").iterations == 200


def test_the_lead_cutoff_values_a_bigger_lead_more():
    from rulebook.agents.mcts import MCTSAgent as Agent

    g = game("rulesets/dead-mans-draw/ruleset.yaml")
    st = g.new(players=2, seed=0, record=False)
    agent = Agent(seed=0, cutoff="lead")
    r = agent._evaluate(g, st)
    assert r == [0.5, 0.5]  # nobody leads at the start
    with pytest.raises(ValueError, match="rollout"):
        make_agent("mcts:rollout=clever")
    with pytest.raises(ValueError, match="model"):
        make_agent("mcts:model=psychic")


def test_with_a_baseline_a_leaf_is_valued_by_the_change_of_the_lead_in_its_own_sample():
    """``baseline=1``: what a sample re-drew weighs the same at the root and
    at the leaf, so the value is the decision's mean root lead plus this
    walk's change: two samples whose leads differ by a constant give the
    same reward for the same change."""
    from rulebook.agents.mcts import MCTSAgent as Agent

    g = game("rulesets/dead-mans-draw/ruleset.yaml")
    st = g.new(players=2, seed=0, record=False)
    agent = Agent(seed=0, cutoff="lead", baseline=1)
    leads = {"now": [0.0, 0.0]}
    agent._leads = lambda game, s: list(leads["now"])
    agent._scale = [10.0, 1]  # a lead of 10 is the usual size
    agent._root_leads = [[0.0, 0.0], 2]  # two root samples, their mean lead 0
    rewards = []
    for offset in (0.0, 40.0):  # a re-drawn hidden value that gives P1 40 more in this sample
        agent._scale = [10.0, 1]
        leads["now"] = [offset + 5.0, -offset - 5.0]  # the walk gained 5
        r = agent._evaluate(g, st, base=[offset, -offset])
        assert r[0] > 0.5 > r[1]
        rewards.append(r)
    assert rewards[0] == rewards[1]  # the same change, whatever the sample re-drew
    plain = Agent(seed=0, cutoff="lead", baseline=0)
    plain._leads = agent._leads
    plain._scale = [10.0, 1]
    assert plain._evaluate(g, st)[0] > r[0]  # without it, the re-drawn 40 counts as a lead


def test_centred_a_leaf_is_valued_by_the_change_of_the_lead_on_the_scale_of_the_changes():
    """``centre=1``: the root's level (a lead of 30 in every sample) is not
    valued, only the walk's change, on the scale of this decision's changes;
    so a gain of 2 is worth clearly more than no change, where at the level
    the logistic is flat."""
    from rulebook.agents.mcts import MCTSAgent as Agent

    g = game("rulesets/dead-mans-draw/ruleset.yaml")
    st = g.new(players=2, seed=0, record=False)
    out = {}
    for centre in (0, 1):
        agent = Agent(seed=0, cutoff="lead", baseline=1, centre=centre)
        leads = {"now": [0.0, 0.0]}
        agent._leads = lambda game, s: list(leads["now"])
        # the size of the leads seen so far: their level; centred, a decision starts its own scale of changes
        agent._scale = [0.0, 0] if centre else [30.0, 1]
        agent._root_leads = [[30.0, -30.0], 1]
        values = []
        for gain in (0.0, 2.0, 2.0):
            leads["now"] = [30.0 + gain, -30.0 - gain]
            values.append(agent._evaluate(g, st, base=[30.0, -30.0])[0])
        out[centre] = values
    assert out[1][0] == 0.5  # no change: even
    assert out[1][2] - out[1][0] > 0.3  # a gain of 2 among changes of about 1-2: clearly better
    assert 0 < out[0][2] - out[0][0] < 0.05  # at the level of 30 the same gain is all but invisible


def test_an_estimated_baseline_is_whole_when_both_leads_move_together_and_nothing_when_they_do_not():
    """``baseline=2``: the control variate's coefficient is estimated from
    the decision's own iterations: 1 when the leaf's lead is the root's plus
    a change (a re-drawn value counted at both), 0 when they are unrelated."""
    import random

    from rulebook.agents.mcts import MCTSAgent as Agent

    rnd = random.Random(0)
    together, apart = Agent(seed=0, baseline=2), Agent(seed=0, baseline=2)
    assert together._beta(0, 1.0, 1.0) == 0.0  # too few iterations to estimate anything
    for _ in range(200):
        b = rnd.gauss(0, 40)
        beta_together = together._beta(0, b + rnd.choice((-2.0, 2.0)), b)
        beta_apart = apart._beta(0, rnd.gauss(0, 5), b)
    assert 0.95 < beta_together <= 1.0
    assert 0.0 <= beta_apart < 0.1


SEARCHED = """
components:
  card:
    count: 12
zones:
  deck: {of: card}
  hand: {per: player, of: card}
setup: |
  move components(card) to deck
actions:
  take:
    params: {n: "[1, 2]"}
    effect: |
      draw n from deck to hand[player]
phases:
  play:
    turn:
      actions: [take]
    end_if: "count(deck) == 0"
    next: over
  over:
    on_begin: |
      end game
scoring:
  score: "count(hand[player])"
bots:
  heuristic: "count(hand[player])"
  search: {centre: 1, c: 0.5}
"""


def test_a_ruleset_sets_its_search_options_and_the_callers_win():
    """``bots.search`` gives MCTS its options for the game; an option the
    caller gives is kept; a game without them gets the defaults again."""
    from helpers import compile_ok
    from rulebook.agents.base import as_agent, decide
    from rulebook.agents.mcts import SEARCH_DEFAULTS, MCTSAgent

    hinted = compile_ok(SEARCHED)
    plain = compile_ok(SEARCHED.replace("  search: {centre: 1, c: 0.5}\n", ""))
    assert hinted.program.search == {"centre": 1, "c": 0.5} and plain.program.search == {}
    agent, own = MCTSAgent(seed=1, iterations=5), MCTSAgent(seed=1, iterations=5, centre=0)
    for g in (hinted, plain):
        st = g.new(players=2, seed=1)
        for a in (agent, own):
            decide(g, st, 0, as_agent(a))
        if g is hinted:
            assert (agent.centre, agent.c, own.centre, own.c) == (True, 0.5, False, 0.5)
        else:
            assert (agent.centre, agent.c) == (bool(SEARCH_DEFAULTS["centre"]), SEARCH_DEFAULTS["c"])
    assert game("rulesets/survive/ruleset.yaml").program.search == {"centre": 1}
