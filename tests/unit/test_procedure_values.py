"""Procedures that return a value (``returns: <type>``, ``return <value>``)
and are called in the values of statements: issue 20, feature 1."""

from __future__ import annotations

import pytest

from tests.helpers import compile_ok, diagnostics

GAME = """
vars:
  log: {type: list of int, initial: "[]"}
procedures:
  twice:
    params: {n: int}
    returns: int
    effect: |
      return n * 2
  ask:
    params: {p: player}
    returns: int
    effect: |
      choose k from [1, 2, 3] by p
      append k to log
      return k * 10
  fact:
    params: {n: int}
    returns: int
    effect: |
      if n <= 1:
          return 1
      else:
          return n * fact(n - 1)
  pick_one:
    params: {p: player}
    returns: player
    effect: |
      choose q from players by p
      return q
actions:
  go:
    effect: |
      let a = twice(3) + twice(4)
      let b = ask(player) + 1
      append a to log
      append b to log
      append fact(5) to log
      set log = log + [ask(1)]
      ask(0)
      if pick_one(1) == 0:
          append 7 to log
      end game
phases:
  main:
    turn:
      actions: [go]
"""


def play(game, answers):
    st = game.new(2, seed=1)
    answers = list(answers)
    while not game.is_over(st):
        p = game.to_move(st)[0]
        game.apply(st, p, answers.pop(0) if answers else 0)
    return st


def test_values_of_plain_and_asking_procedures():
    game = compile_ok(GAME)
    st = play(game, [0, 1, 2, 0, 0])
    # k=2 -> 21; twice: 6 + 8; fact(5); ask(1) answers 3 -> 30; ask(0) as a statement: k=1; pick_one(1) -> P1
    assert st.vars["log"] == [2, 14, 21, 120, 3, 30, 1, 7]


def test_a_stopped_game_with_a_pending_value_clones_and_resumes():
    game = compile_ok(GAME)
    st = game.new(2, seed=1)
    game.apply(st, 0, 0)
    copy = game.clone(st)
    for s in (st, copy):
        for a in [1, 2, 0, 0]:
            game.apply(s, game.to_move(s)[0], a)
    assert st.vars["log"] == copy.vars["log"] == [2, 14, 21, 120, 3, 30, 1, 7]


def test_recursion_counts_against_the_stack_limit():
    game = compile_ok("""
procedures:
  down:
    params: {n: int}
    returns: int
    effect: |
      if n == 0:
          return 0
      else:
          return 1 + down(n - 1)
vars:
  r: 0
actions:
  go:
    effect: |
      set r = down(50)
      end game
phases:
  main:
    turn:
      actions: [go]
""")
    st = play(game, [0])
    assert st.vars["r"] == 50


BASE = """
vars:
  r: 0
procedures:
  f:
    params: {n: int}
    returns: int
    effect: |
%s
  g:
    effect: |
      set r = 1
actions:
  go:
    effect: |
%s
      end game
phases:
  main:
    turn:
      actions: [go]
"""


def _diag(proc: str, action: str = "      set r = f(1)"):
    body = BASE % ("\n".join("      " + line for line in proc.splitlines()), action)
    return [(d.code, d.line, d.column) for d in diagnostics(body) if d.is_error]


@pytest.mark.parametrize("proc, action, code, line, column", [
    ('return "one"', "      set r = f(1)", "E041", 14, 14),  # a wrong return type, at the value
    ("return", "      set r = f(1)", "E041", 14, 7),  # no value
    ("if n > 0:\n    return 1", "      set r = f(1)", "E044", 14, 7),  # can reach its end
    ("return 1", "      set r = g()", "E044", 21, 15),  # a procedure without 'returns' has no value
    ("return 1", "      set r = 1 if true else f(1)", "E044", 21, 30),  # not in a branch
    ("return 1", "      set r = sum(map([1], x => f(x)))", "E044", 21, 33),  # not in a function
    ("return 1", "      while f(1) > r:\n          set r += 1", "E044", 21, 13),  # not a while's condition
    ("return 1", "      if r > 0:\n          pass\n      elif f(1) > 0:\n          pass", "E044", 23, 12),
    ("return 1", "      if r > 0 and f(1) > 0:\n          pass", "E044", 21, 20),
    ("return 1", '      say "{f(1)}"', "E044", 21, 13),
])
def test_errors_at_load(proc, action, code, line, column):
    assert _diag(proc, action) == [(code, line, column)]


def test_return_value_outside_a_returning_procedure():
    found = diagnostics("""
actions:
  go:
    effect: |
      return 3
phases:
  main:
    turn:
      actions: [go]
""")
    assert [(d.code, d.line) for d in found if d.is_error] == [("E044", 10)]


def test_in_a_condition():
    found = diagnostics("""
procedures:
  f:
    returns: bool
    effect: |
      return true
actions:
  go:
    if: f()
    effect: |
      f()
      end game
phases:
  main:
    turn:
      actions: [go]
""")
    assert [(d.code, d.line) for d in found if d.is_error] == [("E044", 14)]


def test_values_come_back_the_same_when_a_playout_answers_where_the_rules_ask():
    """In the engine's playout the asking procedure runs inside its caller's
    call and writes its value into the caller's frame, whose locals the
    caller keeps as Python locals (compiler/unit_locals.python_locals): the
    caller reads the value back from the frame, as after a question."""
    import random

    from rulebook.interpreter.playout import playout

    game = compile_ok(GAME)
    source = game.program.source
    assert "L = fr[2]; l_" in source  # the units' locals are Python locals
    for seed in range(6):
        fast = game.new(2, seed=seed, record=False)  # a recording playout goes through the public interface
        playout(fast, draw=random.Random(seed).random)
        slow = game.new(2, seed=seed)
        draw = random.Random(seed).random
        while not game.is_over(slow):
            p = game.to_move(slow)[0]
            game.apply(slow, p, int(draw() * len(game.options(slow, p))))
        assert fast.history == slow.history and fast.vars["log"] == slow.vars["log"]
        assert fast.vars["log"][1] == 14 and fast.vars["log"][3] == 120
