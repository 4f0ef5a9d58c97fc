"""The bound analysis of integer expressions (compiler/bounds.py): what it
knows of each construct, that a product which may pass the number limit
stays checked and one that cannot is plain, that both give the same games,
and that the work budget still stops what it stopped."""

from __future__ import annotations

import textwrap

import pytest
from rulebook.compiler import bounds as bounds_pass
from rulebook.compiler.analysis import analyse
from rulebook.compiler.bounds import LONGEST, Bounds, Num, Seq
from rulebook.compiler.build import compile_text
from rulebook.interpreter.errors import RuleError
from rulebook.interpreter.game import Game

from tests.helpers import ruleset

BIG = 10**18  # the default max_number

# Declarations every case below can read.
DECLARATIONS = """
params:
  level: {default: 2, choices: [1, 2, 5]}
  free: {default: 3}
define:
  size: 8
  steps: "[[1, 0], [-1, 0], [0, 1], [0, -1]]"
components:
  square:
    for_each: {row: "range(size)", col: "range(size)"}
    board: {grid: square}
  card:
    items:
      - {worth: 3}
      - {worth: 11}
    copies: 2
  chip:
    for_each: {face: "range(1, 7)"}
    props: {double: "face * 2"}
zones:
  pile: {of: card}
vars:
  total: 0
  seen: {type: "list of int", initial: "[]"}
"""

# (the function's parameters, its value, the arguments of the one call in the rules, what is known of its value)
INTERVALS = [
    ("{}", "3 * 4", "", Num(12, 12)),
    ("{}", "7 - 10", "", Num(-3, -3)),
    ("{}", "-(2 * 3)", "", Num(-6, -6)),
    ("{}", "abs(0 - 5)", "", Num(0, 5)),
    ("{}", "17 // 5", "", Num(-17, 17)),
    ("{}", "17 % 5", "", Num(-5, 5)),
    ("{}", "range(1, size)", "", Seq(Num(1, 7), 7, 7)),
    ("{}", "map(range(1, 8), k => k * 3)", "", Seq(Num(3, 21), 7, 7)),
    ("{}", "filter(range(10), k => k > 4)", "", Seq(Num(0, 9), 0, 10)),
    ("{}", "sum(range(1, 5))", "", Num(0, 16)),
    ("{}", "max(2, 9)", "", Num(9, 9)),
    ("{}", "min(range(1, 4))", "", Num(1, 3)),
    ("{}", "steps", "", Seq(Seq(Num(-1, 1), 2, 2), 4, 4)),
    ("{}", "steps[1][0]", "", Num(-1, 1)),
    ("{}", "level * 10", "", Num(10, 50)),
    ("{}", "free * 10", "", None),  # a parameter without choices is whatever the game is given
    ("{}", "player_count * 2", "", Num(4, 4)),
    ("{}", "roll(6) + roll(6)", "", Num(2, 12)),
    ("{}", "count(pile)", "", Num(0, 100_000)),  # a zone holds at most max_components
    ("{}", "total * 2", "", None),  # a variable of the state is not known
    ("{}", "1 if total > 0 else 5", "", Num(1, 5)),
    ("{}", "let k = 4\nk * k", "", Num(16, 16)),
    ("{q: square}", "q.col * 10 + q.row", "space_at(square, 0, 0)", Num(0, 77)),
    ("{c: card}", "c.worth * 2", "top(pile)", Num(6, 22)),
    ("{c: chip}", "c.double", "first(components(chip))", Num(2, 12)),
    ("{xs: \"list of int\"}", "count(xs)", "[1, 2, 3]", Num(3, 3)),
    ("{xs: \"list of int\"}", "count(xs)", "filter([1, 2, 3], x => x > total)", Num(0, 3)),
    ("{xs: \"list of int\"}", "count(xs) * 4", "[]", Num(0, 0)),
    ("{n: int}", "n * n", "6", Num(36, 36)),
    ("{d: \"list of int\"}", "d[0] * 7", "steps[2]", Num(-7, 7)),
]

# function bodies that stay checked, and why
CHECKED = [
    ("{n: int}", "n * n", "2000000000", "its square passes 10**18"),
    ("{n: int}", "n * 3", "total", "a variable can be any number"),
    ("{}", "free * free", "", "a parameter without choices"),
    ("{}", "current * 2", "", "the current player is none before the first turn"),
]


def _ruleset(params: str, value: str, args: str) -> str:
    body = "".join(f"      {line}\n" for line in value.splitlines())
    return ruleset(DECLARATIONS + f"functions:\n  f:\n    params: {params}\n    value: |\n{body}"
                   + f"phases:\n  p:\n    on_begin: |\n      say \"{{f({args})}}\"\n      end game\n")


def _compiled(text: str):
    result = compile_text(text, "unit.yaml")
    assert result.program is not None, "\n".join(d.render() for d in result.report.errors)
    return result.program


def _bounds(program) -> Bounds:
    checked = program.compile_info["checked"]
    return Bounds(checked, analyse(checked).created, checked.meta["limits"])


def _function(program, name: str = "f"):
    return next(rule for key, rule in program.compile_info["checked"].functions.items() if key[0] == name)


@pytest.mark.parametrize("params, value, args, known", INTERVALS, ids=[c[1] for c in INTERVALS])
def test_what_is_known_of_each_construct(params, value, args, known):
    program = _compiled(_ruleset(params, value, args))
    assert _bounds(program).of(_function(program).body) == known


def test_a_list_of_unknown_length_is_at_most_the_longest_a_process_holds():
    program = _compiled(_ruleset('{xs: "list of int"}', "count(xs) * 100", "seen"))
    assert _bounds(program).of(_function(program).body) == Num(0, 100 * LONGEST)
    assert "mul(" not in _body_source(program)


def test_a_parameter_is_known_through_a_chain_of_calls():
    text = ruleset(DECLARATIONS + textwrap.dedent("""
        functions:
          twice:
            params: {n: int}
            value: "n * 2"
          four_times:
            params: {n: int}
            value: "twice(n) * 2"
        phases:
          p:
            on_begin: |
              set total = four_times(3)
              end game
        """))
    program = _compiled(text)
    assert _bounds(program).of(_function(program, "four_times").body) == Num(12, 12)
    assert "mul(" not in _body_source(program)
    assert Game(program).new(players=2, seed=1).vars["total"] == 12


def test_a_value_fed_back_into_its_own_function_is_widened_and_stays_checked():
    """``twice(twice(n))``: the join of both calls' arguments grows every
    round (3, then 3 to 6, 3 to 12...); widening ends the fixpoint with
    nothing known, so the products stay checked, and the value is right."""
    text = ruleset(DECLARATIONS + textwrap.dedent("""
        functions:
          twice:
            params: {n: int}
            value: "n * 2"
        phases:
          p:
            on_begin: |
              set total = twice(twice(3))
              end game
        """))
    program = _compiled(text)
    assert _bounds(program).of(_function(program, "twice").body) == Num(None, None)
    assert "mul(" in _body_source(program)
    assert Game(program).new(players=2, seed=1).vars["total"] == 12


def _body_source(program) -> str:
    """The module's code but its imports (a small function is written where it is called)."""
    return "\n".join(line for line in program.source.splitlines() if not line.startswith(("from ", "import ")))


@pytest.mark.parametrize("params, value, args, why", CHECKED, ids=[c[3] for c in CHECKED])
def test_a_product_that_may_pass_the_limit_stays_checked(params, value, args, why):
    program = _compiled(_ruleset(params, value, args))
    assert "mul(" in _body_source(program), why


@pytest.mark.parametrize("params, value, args, known", [c for c in INTERVALS if "*" in c[1] and c[3] is not None],
                         ids=[c[1] for c in INTERVALS if "*" in c[1] and c[3] is not None])
def test_a_product_that_cannot_pass_the_limit_is_plain(params, value, args, known):
    program = _compiled(_ruleset(params, value, args))
    assert "mul(" not in _body_source(program) and " * " in _body_source(program)


def test_the_square_past_the_limit_is_still_R107():
    program = _compiled(_ruleset("{n: int}", "n * n", "2000000000"))
    with pytest.raises(RuleError) as err:
        Game(program).new(players=2, seed=1)
    assert err.value.code == "R107" and str(BIG) in err.value.message


def test_an_index_inside_a_known_list_is_plain_and_outside_it_checked():
    inside = _compiled(_ruleset('{d: "list of int"}', "d[1] * 2", "steps[0]"))
    assert "item_of(" not in _body_source(inside)
    outside = _compiled(_ruleset('{d: "list of int"}', "d[2] * 2", "steps[0]"))
    assert "item_of(" in _body_source(outside)
    with pytest.raises(RuleError) as err:
        Game(outside).new(players=2, seed=1)
    assert err.value.code == "R045" or "outside a list" in err.value.message


GAME = DECLARATIONS + """
functions:
  reach:
    params: {q: square, d: "list of int"}
    value: "filter(map(range(1, size), k => space_at(square, q.col + d[0] * k, q.row + d[1] * k)), s => s != none)"
  worth_of:
    params: {c: card}
    value: "c.worth * level + count(pile) * 3"
actions:
  go:
    params: {q: "components(square)"}
    label: "{q}"
    effect: |
      set total = total + count(flatten(map(steps, d => reach(q, d)))) * 2 + worth_of(top(pile))
      say "{player} reaches {count(flatten(map(steps, d => reach(q, d))))} ({total})"
setup: |
  move components(card) to pile
phases:
  play:
    turn:
      actions: [go]
end:
  enough:
    if: "total > 400"
"""


def _events(program, seed: int) -> list:
    """A game with choices drawn from ``seed``: its events, variables and history."""
    import random

    game = Game(program)
    state = game.new(players=2, seed=seed)
    draw = random.Random(seed)
    while not game.is_over(state) and len(state.history) < 200:
        player = game.to_move(state)[0]
        game.apply(state, player, draw.randrange(len(game.options(state, player))))
    return [state.events, state.vars, state.history]


def test_plain_and_checked_arithmetic_play_the_same_games(monkeypatch):
    text = ruleset(GAME)
    plain = _compiled(text)
    assert "mul(" not in _body_source(plain) and "item_of(" not in _body_source(plain)
    monkeypatch.setattr(bounds_pass, "bounds_of", lambda m: None)
    monkeypatch.setattr("rulebook.compiler.emit_expr.plain_product", lambda e, a, b: False)
    monkeypatch.setattr("rulebook.compiler.emit_expr.plain_item", lambda e, xs, i: False)
    monkeypatch.setattr("rulebook.compiler.emit_stmt.safe_number", lambda e, x: False)
    checked = _compiled(text.replace("rulebook: 1", "rulebook: 1\n# checked"))
    assert "mul(" in _body_source(checked)
    for seed in range(3):
        assert _events(plain, seed) == _events(checked, seed)


def test_the_work_budget_still_stops_a_static_loop():
    """A query over a range of 50 (a static set) with a budget of 10 items."""
    text = ruleset("phases:\n  p:\n    on_begin: |\n      let k = count(filter(range(50), x => x * 2 > 1))\n"
                   "      end game\n")
    result = compile_text(text, "unit.yaml", limits={"max_work": 10})
    with pytest.raises(RuleError) as err:
        Game(result.program).new(players=2)
    assert err.value.code == "R100"
