"""``let`` in an expression text (issue 40 item 1): a function's value
names values on lines of their own, type-checked as ``let`` statements are."""

from __future__ import annotations

import pytest
from rulebook.dsl.parser import parse_expression
from rulebook.dsl.printer import source

from tests.helpers import codes, compile_ok

GAME = """
components:
  card:
    for_each: {value: "range(1, 7)"}
zones:
  deck: {of: card}
functions:
  twice_plus:
    params: {n: int}
    value: |
      let d = n * 2
      let e: int = d + 1
      e + d
  nested:
    params: {n: int}
    value: "twice_plus(twice_plus(n))"
  each:
    value: "map(range(3), k => twice_plus(k))"
  high:
    description: The cards above the deck's middle value, a let read inside a query.
    params: {c: card}
    value: |
      let middle = sum(deck, x => x.value) // count(deck)
      c.value > middle
  listed:
    params: {n: int}
    value: |
      let top = n + 1
      range(1, top)
setup: move components(card) to deck
phases:
  main:
    on_begin: |
      say "{twice_plus(3)} {nested(1)} {each()}"
      say "{count(filter(deck, c => high(c)))} {count(filter(listed(4), k => k > 1))}"
      end game
"""


def said(text: str) -> list[str]:
    game = compile_ok(text)
    st = game.new(2, seed=0)
    return [e[1] for e in st.events if e[0] == "say"]


def test_lets_name_values_for_the_lines_below():
    # 6 + 7; twice_plus(1) is 5, twice_plus(5) is 21; a function with lets written in a map,
    # in a filter's function, and as the list a filter walks
    assert said(GAME) == ["13 21 [1, 5, 9]", "3 3"]


def test_native_code_gives_the_same():
    from rulebook.compiler import native
    from rulebook.interpreter.game import Game

    if native.missing() is not None:
        pytest.skip(str(native.missing()))
    program = compile_ok(GAME).program
    fast = Game(native.native_program(program))
    st = fast.new(2, seed=0)
    assert [e[1] for e in st.events if e[0] == "say"] == ["13 21 [1, 5, 9]", "3 3"]


@pytest.mark.parametrize("change,code", [
    (("let e: int = d + 1", "let e: str = d + 1"), "E041"),  # the declared type must fit the value
    (("let e: int = d + 1", "let n = d + 1"), "E043"),  # a let may not hide a parameter
    (("let e: int = d + 1", "let d = d + 1"), "E043"),  # nor an earlier let
    (("      e + d\n", "      e + f\n"), "E030"),  # only names bound above are read
    (("let e: int = d + 1", "let _e = d + 1"), "E014"),
    (("      e + d\n", "      e + d + 'x'\n"), "E041"),  # the body is checked with the let's types
])
def test_lets_are_type_checked(change, code):
    assert code in codes(GAME.replace(*change))


def test_a_name_is_not_visible_before_its_let():
    assert "E030" in codes(GAME.replace("      let d = n * 2\n      let e: int = d + 1",
                                        "      let e: int = d + 1\n      let d = n * 2"))


def test_the_printer_writes_lets_back():
    node = parse_expression("let d = n * 2\nlet e: int = d + 1\ne + d")
    assert source(node) == "let d = n * 2\nlet e: int = d + 1\ne + d"
    assert parse_expression(source(node)) == node or source(parse_expression(source(node))) == source(node)
