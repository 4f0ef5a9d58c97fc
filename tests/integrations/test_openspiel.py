"""OpenSpiel's own conformance test (``pyspiel.random_sim_test``) and bots on
rulesets loaded through rulebook.integrations.openspiel. Skipped, with the
reason, when the ``openspiel`` extra is not installed."""

import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed: pip install -e '.[openspiel]'")

from rulebook.integrations.openspiel import load_game  # noqa: E402


def _every_count():
    """(ruleset, players) for every ruleset on the search path and every player count it allows."""
    from rulebook.files.locate import all_rulesets
    from rulebook.integrations.pettingzoo import load

    out = []
    for path in all_rulesets():
        prog = load(str(path.parent)).program
        out += [(prog.id, n) for n in range(prog.min_players, prog.max_players + 1)]
    return sorted(out)


EVERY = _every_count()
# Long card games: a random game there is thousands of chance nodes and decisions, minutes under
# random_sim_test at the larger counts; they are played to a cut (max_game_length decisions, then
# terminal with every return 0, as declared), which still runs the setup's shuffles and deals, reshuffles
# and every observation. Whole games at some counts: test_a_long_game_plays_to_its_end (Young
# Svintus's thousand and more decisions fit since the information-state string writes a view as its
# changes: docs/research.md, "Tests and limits").
CUT = {"survive": 30, "lifeboat": 40, "young-svintus": 40}


# the smallest and the largest counts, but Young Svintus (2 to 10 seats) at 2 only: a whole game at 6 is
# about half a minute of CPU, and the cut games of test_random_sim_test_* cover its other counts
@pytest.mark.parametrize("ruleset,players", [("survive", None), ("survive", 4), ("lifeboat", None), ("lifeboat", 8),
                                             ("young-svintus", 2)])
def test_a_long_game_plays_to_its_end(ruleset, players):
    game = load_game(f"rulebook:{ruleset}", players=players, explore_games=2)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    rng, state, decisions = random.Random(1), game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        elif state.is_simultaneous_node():
            # a seat with nothing to choose at this node answers INVALID_ACTION, as random_sim_test does
            state.apply_actions([rng.choice(state.legal_actions(p) or [pyspiel.INVALID_ACTION])
                                 for p in range(game.num_players())])
            decisions += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    # no max_game_length: terminal is the rules' own end, reached past the cut the other tests stop at
    assert decisions > CUT[ruleset]
    assert len(state.returns()) == game.num_players()


@pytest.mark.parametrize("ruleset,players", EVERY)
def test_random_sim_test_explicit_chance(ruleset, players):
    game = load_game(f"rulebook:{ruleset}", players=players, explore_games=2, max_game_length=CUT.get(ruleset, 0))
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("ruleset", ["love-letter", "get-bit", "young-svintus"])
def test_random_sim_test_sampled_chance(ruleset):
    game = load_game(f"rulebook:{ruleset}", chance="sampled", explore_games=2, max_game_length=CUT.get(ruleset, 0))
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_game_type_is_read_from_the_ruleset():
    G = pyspiel.GameType
    ttt = load_game("rulebook:tic-tac-toe", explore_games=2).get_type()
    assert (ttt.dynamics, ttt.information, ttt.utility) == (
        G.Dynamics.SEQUENTIAL, G.Information.PERFECT_INFORMATION, G.Utility.ZERO_SUM)
    rps = load_game("rulebook:rock-paper-scissors", explore_games=2).get_type()
    assert (rps.dynamics, rps.information) == (G.Dynamics.SIMULTANEOUS, G.Information.IMPERFECT_INFORMATION)
    shares = load_game("rulebook:nim", players=3, returns="shares", explore_games=2).get_type()
    assert shares.utility == G.Utility.GENERAL_SUM


def test_pyspiel_load_game_finds_a_registered_ruleset():
    game = pyspiel.load_game("rulebook:nim", {"players": 3, "explore_games": 2})
    assert game.num_players() == 3
    state = game.new_initial_state()
    assert state.current_player() == 0 and state.legal_actions()


def test_action_ids_are_the_same_option_in_every_state():
    game = load_game("rulebook:nim", players=2, explore_games=3)
    state = game.new_initial_state()
    names = {}
    while not state.is_terminal():
        for a in state.legal_actions():
            label = state.action_to_string(state.current_player(), a)
            assert names.setdefault(a, label) == label
        state.apply_action(state.legal_actions()[0])
    assert all(0 <= a < game.num_distinct_actions() for a in names)


def test_zero_sum_returns_and_clone():
    game = load_game("rulebook:tic-tac-toe", explore_games=2)
    state = game.new_initial_state()
    copy = state.clone()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert sum(state.returns()) == 0 and max(state.returns()) == 1.0
    assert not copy.is_terminal() and copy.history() == []


def test_hidden_cards_are_not_in_the_other_players_observation():
    game = load_game("rulebook:crazy-eights", players=2, explore_games=2)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    other = game.new_initial_state()
    while other.is_chance_node():
        other.apply_action(other.chance_outcomes()[-1][0])
    # two different deals: the hands differ, what each sees of the other's hand does not change its shape
    assert state.observation_string(0) != other.observation_string(0)
    assert '"hidden":true' in state.observation_string(1)


def test_mcts_bot_finishes_a_game():
    from open_spiel.python.algorithms import mcts

    game = load_game("rulebook:tic-tac-toe", explore_games=2)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1)
    bots = [mcts.MCTSBot(game, 1.4, 20, evaluator) for _ in range(2)]
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert sum(state.returns()) == 0


def test_cfr_converges_on_a_small_ruleset():
    from open_spiel.python.algorithms import cfr, exploitability

    game = load_game("rulebook:nim", players=2, params={"sticks": 5, "max_take": 2}, explore_games=3)
    solver = cfr.CFRSolver(game)
    curve = []
    for _ in range(8):
        solver.evaluate_and_update_policy()
        curve.append(exploitability.exploitability(game, solver.average_policy()))
    assert curve[-1] < curve[0] and curve[-1] < 0.2


def test_the_docs_script_runs(capsys):
    import re
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "research.md").read_text()
    block = re.search(r"## Ten lines.*?```python\n(.*?)```", text, re.S).group(1)
    exec(compile(block, "docs/research.md", "exec"), {})
    out = capsys.readouterr().out
    assert "CFR exploitability" in out and "MCTS opens with" in out


def _same_tree(a, b) -> int:
    """Walk a Rulebook state and an OpenSpiel C++ state together, matching actions by their words."""
    assert a.is_terminal() == b.is_terminal() and a.is_chance_node() == b.is_chance_node(), b.history_str()
    if a.is_terminal():
        assert a.returns() == b.returns(), b.history_str()
        return 1
    if a.is_chance_node():
        oa, ob = a.chance_outcomes(), b.chance_outcomes()
        assert [p for _, p in oa] == [p for _, p in ob]
        return 1 + sum(_same_tree(a.child(x), b.child(y)) for (x, _), (y, _) in zip(oa, ob))
    assert a.current_player() == b.current_player()
    la = {a.action_to_string(a.current_player(), x): x for x in a.legal_actions()}
    lb = {b.action_to_string(b.current_player(), x): x for x in b.legal_actions()}
    assert set(la) == set(lb), b.history_str()
    return 1 + sum(_same_tree(a.child(la[k]), b.child(lb[k])) for k in la)


def test_liars_dice_as_openspiel_plays_it_is_the_cpp_game_and_cfr_agrees():
    """docs/research/liars-dice-openspiel.yaml against OpenSpiel's C++ liars_dice (one die each, two
    sides here to stay quick): the same tree, returns and CFR exploitability, iteration by iteration."""
    from pathlib import Path

    from open_spiel.python.algorithms import cfr, exploitability

    ruleset = Path(__file__).parents[2] / "docs" / "research" / "liars-dice-openspiel.yaml"
    ours = load_game(str(ruleset), params={"sides": 2}, explore_games=3)
    cpp = pyspiel.load_game("liars_dice", {"numdice": 1, "dice_sides": 2})
    assert _same_tree(ours.new_initial_state(), cpp.new_initial_state()) > 100
    python, native = cfr.CFRSolver(ours), pyspiel.CFRSolver(cpp)
    for _ in range(2):
        python.evaluate_and_update_policy()
        native.evaluate_and_update_policy()
        assert exploitability.exploitability(ours, python.average_policy()) == pytest.approx(
            pyspiel.exploitability(cpp, native.average_policy()), abs=1e-9)


def test_the_information_state_tensor_holds_the_view_and_the_own_actions():
    game = load_game("rulebook:nim", players=2, explore_games=2, history=3)
    view_size = len(game.new_initial_state().observation_tensor(0))
    size = game.num_distinct_actions()
    assert game.information_state_tensor_size() == view_size + 3 * size
    state = game.new_initial_state()
    mine = []
    for _ in range(4):  # two moves each
        action = state.legal_actions()[0]
        if state.current_player() == 0:
            mine.append(action)
        state.apply_action(action)
    tensor = state.information_state_tensor(0)
    assert tensor[:view_size] == state.observation_tensor(0)
    rows = [tensor[view_size + k * size:view_size + (k + 1) * size] for k in range(3)]
    assert not any(rows[0])  # an empty row first: two actions so far, room for three
    assert [row.index(1.0) for row in rows[1:]] == mine and all(sum(row) == 1 for row in rows[1:])


@pytest.mark.parametrize("ruleset", ["nim", "crazy-eights", "rock-paper-scissors"])
def test_random_sim_test_with_openspiels_serialization(ruleset):
    """OpenSpiel serializes a game by its name and parameters and loads it again: the loaded game must
    print the same name, and its states replay to the same ones."""
    game = load_game(f"rulebook:{ruleset}", explore_games=2)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("ruleset,players,cut", [("young-svintus", 3, 100), ("love-letter", 2, 0),
                                                 ("dead-mans-draw", 2, 0)])
def test_the_information_state_string_says_what_the_whole_views_said(ruleset, players, cut):
    """The default string writes each view after the first as its changes; expanded, it is the string
    of whole views (``information_state=views``, the string before), on states along a random game."""
    from rulebook.integrations.trail import expand

    made = [load_game(f"rulebook:{ruleset}", players=players, explore_games=2, max_game_length=cut,
                      information_state=kind) for kind in ("changes", "views")]
    changes, views = (g.new_initial_state() for g in made)
    rng, nodes, compared = random.Random(3), 0, 0
    while not changes.is_terminal():
        if nodes % 25 == 0:
            for p in range(players):
                assert expand(changes.information_state_string(p)) == views.information_state_string(p)
                compared += 1
        if changes.is_chance_node():
            outcomes, probs = zip(*changes.chance_outcomes())
            action = rng.choices(outcomes, probs)[0]
        else:
            action = rng.choice(changes.legal_actions())
        changes.apply_action(action)
        views.apply_action(action)
        nodes += 1
    clone = changes.clone()  # a clone shares the trail and goes on alone
    assert clone.information_state_string(0) == changes.information_state_string(0)
    assert expand(changes.information_state_string(0)) == views.information_state_string(0)
    assert len(changes.information_state_string(0)) < len(views.information_state_string(0))
    assert compared >= 2 * players
