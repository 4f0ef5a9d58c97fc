"""Functions of fixed data kept in tables (compiler/tabling.py, interpreter/tables.py):
which functions are tabled and which are not, each case a small ruleset given as
data; the values are those the functions give untabled; the tables are not part
of a game's state, and a determinized sample never reads a value of another's rows."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner
from helpers import HEAD, compile_ok
from rulebook.agents.determinize import determinize
from rulebook.compiler import code as code_module
from rulebook.interpreter.playout import playout

from rulebook.cli.main import cli

BASE = """
define:
  steps: "[[1, 0], [0, 1], [-1, 0], [0, -1]]"
components:
  cell:
    for_each: {row: "range(4)", col: "range(4)"}
    board: {grid: square}
  card:
    for_each: {rank: "range(1, 7)", suit: "['a', 'b']"}
    state: {marked: "false"}
  stone:
    count: 8
zones:
  deck: {of: card, visibility: hidden}
  hand: {of: card, per: player, visibility: owner}
  pile: {of: card}
  "on": {per: cell, of: stone}
  box: {of: stone}
vars: {round: 0}
functions:
FUNCTIONS
setup: |
  move components(card) to deck
  move components(stone) to box
  shuffle deck
  deal 3 from deck to hand
actions:
  play:
    params: {c: "hand[player]"}
    effect: |
      move c to pile
      set c.marked = true
      set round = round + 1
  put:
    params: {q: "filter(components(cell), q => is_empty(on[q]))"}
    effect: |
      move top(box) to on[q]
phases:
  main:
    turn:
      actions: [play, put]
    end_if: "count(deck) == 0 or is_empty(box)"
    next: done
  done:
    on_begin: |
      end game
"""

# (the functions' text in the ruleset, those of them tabled): the cases of the module's docstring
CASES = {
    "ray over fixed coordinates": ("""
  ray:
    params: {s: cell, d: "list of int"}
    value: "filter(map(range(1, 4), k => space_at(cell, s.col + d[0] * k, s.row + d[1] * k)), q => q != none)"
""", {"ray"}),
    "a search of the components by fixed properties": ("""
  card_of:
    params: {r: int, s: str}
    value: "first(components(card), c => c.rank == r and c.suit == s)"
""", {"card_of"}),
    "a list of the definitions": ("""
  step_of:
    params: {k: int}
    value: "first(steps, d => d[0] + d[1] == k)"
""", {"step_of"}),
    "a function calling a tabled function": ("""
  ray2:
    params: {s: cell}
    value: >-
      flatten(map(steps, d => filter(map(range(1, 4),
      k => space_at(cell, s.col + d[0] * k, s.row + d[1] * k)), q => q != none)))
""", {"ray2"}),
    "reads a zone": ("""
  held:
    params: {p: player}
    value: "filter(components(card), c => zone(c) == hand[p])"
""", set()),
    "reads a zone through another function": ("""
  empty_at:
    params: {q: cell}
    value: "is_empty(on[q])"
  empties:
    params: {}
    value: "filter(components(cell), q => empty_at(q))"
""", set()),
    "reads a variable": ("""
  upto_round:
    params: {}
    value: "filter(components(card), c => c.rank <= round)"
""", set()),
    "reads a changing property": ("""
  marked_cards:
    params: {}
    value: "filter(components(card), c => c.marked)"
""", set()),
    "reads an owner": ("""
  owned:
    params: {p: player}
    value: "filter(components(card), c => c.owner == p)"
""", set()),
    "draws at random": ("""
  lucky:
    params: {}
    value: "filter(components(card), c => roll(6) > 3)"
""", set()),
    "the seat order (players drop out)": ("""
  after:
    params: {p: player}
    value: "filter(components(card), c => c.rank == next_player(p) + 1)"
""", set()),
    "only its own list parameter: not worth a table": ("""
  total:
    params: {cs: "list of card"}
    value: "sum(cs, c => c.rank)"
""", set()),
    "arithmetic of fixed properties: not worth a table": ("""
  double:
    params: {c: card}
    value: "c.rank * 2"
""", set()),
}


def _ruleset(functions: str) -> str:
    return BASE.replace("FUNCTIONS\n", functions.lstrip("\n"))


def _tabled(game) -> list:
    return game.program.module["TABLED"]


@pytest.mark.parametrize("case", list(CASES))
def test_which_functions_are_tabled(case):
    text, tabled = CASES[case]
    assert set(_tabled(compile_ok(_ruleset(text)))) == tabled, case


def test_a_type_made_in_play_is_not_fixed():
    body = _ruleset("""
  tokens:
    params: {r: int}
    value: "filter(components(token), t => t.rank == r)"
""")
    body = body.replace("  stone:\n", "  token:\n    count: 0\n    props: {rank: 1}\n  stone:\n")
    body = body.replace("      move c to pile\n", "      move c to pile\n      create token in bag with (rank=2)\n")
    body = body.replace("  box: {of: stone}\n", "  box: {of: stone}\n  bag: {of: token}\n")
    assert _tabled(compile_ok(body)) == []


ALL = "".join(text for text, tabled in CASES.values() if tabled)  # the tabled ones, together


def test_tabled_values_are_the_values_computed_untabled():
    game = compile_ok(_ruleset(ALL))
    mod = game.program.module
    st = game.new(players=2, seed=3)
    cells = list(range(st.cat.n))
    calls = [("fn_ray", (s, d)) for s in st.cat.by_type["cell"] for d in ([1, 0], [0, -1], [1, 1])]
    calls += [("fn_card_of", (r, s)) for r in range(0, 8) for s in ("a", "b", "c")]
    calls += [("fn_step_of", (k,)) for k in (-1, 0, 1, 2)] + [("fn_ray2", (s,)) for s in st.cat.by_type["cell"]]
    for _ in range(2):  # the second time from the tables
        for name, args in calls:
            assert mod[name](st, 0, *args) == mod[name + "_value"](st, 0, *args), (name, args)
    assert cells  # the catalogue was made
    assert set(st.cat.columns.tables) == {"fn_ray", "fn_card_of", "fn_step_of", "fn_ray2"}


def test_a_look_up_counts_the_work_the_computation_counted():
    game = compile_ok(_ruleset(ALL))
    fn = game.program.module["fn_ray"]
    st = game.new(players=2, seed=3)
    spent = []
    for _ in range(3):
        before = st.work
        fn(st, 0, st.cat.by_type["cell"][0], [1, 0])
        spent.append(st.work - before)
    assert spent[0] > 0 and spent == [spent[0]] * 3


def test_games_are_the_same_with_and_without_tables(monkeypatch):
    tabled = compile_ok(_ruleset(ALL))
    monkeypatch.setattr(code_module, "tabled_functions", lambda checked, created: {})
    plain = compile_ok(_ruleset(ALL))
    assert _tabled(plain) == [] and _tabled(tabled)
    for seed in range(6):
        a, b = tabled.new(players=2, seed=seed), plain.new(players=2, seed=seed)
        playout(a, draw=random.Random(seed).random)
        playout(b, draw=random.Random(seed).random)
        assert a.to_data() == b.to_data()


def test_tables_are_not_part_of_the_state():
    game = compile_ok(_ruleset(ALL))
    st = game.new(players=2, seed=1)
    fresh = game.new(players=2, seed=1).to_data()
    game.program.module["fn_card_of"](st, 0, 3, "a")
    assert st.cat.columns.tables and st.to_data() == fresh  # a save holds no table
    assert "tables" not in str(fresh.keys())
    twin = st.clone()
    assert twin.cat is st.cat and twin.to_data() == st.to_data()


def test_a_determinized_sample_has_its_own_table_of_dealt_properties():
    game = compile_ok(_ruleset(ALL))
    mod = game.program.module
    st = game.new(players=2, seed=2)
    real = [mod["fn_card_of"](st, 0, r, s) for r in range(1, 7) for s in "ab"]
    ray = mod["fn_ray"](st, 0, st.cat.by_type["cell"][5], [1, 0])
    for k in range(5):
        sample = determinize(st, 0, random.Random(k))
        assert sample.cat.columns is not st.cat.columns
        dealt = [mod["fn_card_of"](sample, 0, r, s) for r in range(1, 7) for s in "ab"]
        assert dealt == [mod["fn_card_of_value"](sample, 0, r, s) for r in range(1, 7) for s in "ab"]
        # the cells are never dealt: their table is the catalogue's
        assert sample.cat.columns.tables.get("fn_card_of") is not st.cat.columns.tables["fn_card_of"]
        assert mod["fn_ray"](sample, 0, st.cat.by_type["cell"][5], [1, 0]) == ray
        assert sample.cat.columns.tables["fn_ray"] is st.cat.columns.tables["fn_ray"]
    assert [mod["fn_card_of"](st, 0, r, s) for r in range(1, 7) for s in "ab"] == real


def test_rulebook_compile_names_the_tabled_functions(tmp_path):
    path = tmp_path / "unit.yaml"
    path.write_text(HEAD.lstrip("\n") + _ruleset(ALL).lstrip("\n"))
    result = CliRunner().invoke(cli, ["compile", str(path)])
    assert result.exit_code == 0, result.output
    assert "tabled: card_of, ray, ray2, step_of" in result.stderr
    assert "def fn_ray_value(" in result.stdout
