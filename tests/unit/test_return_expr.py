"""``return value if cond`` in an expression text (issue 40 item 1): a
function gives its value early when a condition holds, type-checked as the
rest of its value is, and written as an ``if`` in the generated Python."""

from __future__ import annotations

import textwrap

import pytest
from rulebook.compiler.build import compile_text
from rulebook.dsl import ast as A
from rulebook.dsl.parser import ParseError, parse_expression
from rulebook.dsl.printer import source

from tests.helpers import HEAD, codes, compile_ok, diagnostics

GAME = """
components:
  card:
    for_each: {value: "range(1, 7)"}
zones:
  deck: {of: card}
  table: {of: card}
functions:
  sign:
    params: {n: int}
    value: |
      return 0 if n == 0
      let square: int = n * n
      return 1 if square == n or n > 0
      return -1
  grade:
    params: {n: int}
    value: |
      return "none" if n == 0
      return "low" if n < 3
      "high"
  top_value:
    description: The table's top value, none on an empty table (the line below reads top(table) only when it has one).
    value: |
      return none if is_empty(table)
      top(table).value
  signs:
    description: A function with guards in a map, and in a filter's function (written at the call site there).
    value: "map(filter(deck, c => grade(c.value) == 'high'), c => sign(c.value - 4))"
setup: move components(card) to deck
phases:
  main:
    on_begin: |
      say "{sign(-3)} {sign(0)} {sign(5)} {grade(0)} {grade(2)} {grade(3)} {top_value()}"
      move top(deck) to table
      say "{top_value()} {signs()}"
      end game
"""

# sign(-3), sign(0), sign(5); the three grades; the empty table. Then the 6 on the table;
# the deck holds 5 to 1 (top first), of which 5, 4, 3 are "high": sign(1), sign(0), sign(-1)
SAID = ["-1 0 1 none low high none", "6 [1, 0, -1]"]


def said(game) -> list[str]:
    st = game.new(2, seed=0)
    return [e[1] for e in st.events if e[0] == "say"]


def without_places(node):
    """A syntax tree with every position set to (1, 1): what the printer promises to give back."""
    if isinstance(node, tuple):
        return tuple(without_places(x) for x in node)
    if not hasattr(node, "__dataclass_fields__"):
        return node
    fields = {k: without_places(getattr(node, k)) for k in node.__dataclass_fields__}
    if "pos" in fields:
        fields["pos"] = (1, 1)
    return type(node)(**fields)


# ------------------------------------------------------------------ parsing and printing
def test_a_guard_parses_with_the_lines_below_as_its_other_case():
    node = parse_expression("let d = n * 2\nreturn d if d > 3\nd + 1")
    assert isinstance(node, A.LetExpr) and isinstance(node.body, A.ReturnIf)
    guard = node.body
    assert (guard.pos, source(guard.value), source(guard.cond), source(guard.body)) == ((2, 1), "d", "d > 3", "d + 1")


def test_a_last_line_written_with_return_is_the_bare_value():
    assert without_places(parse_expression("return 1 if c\nreturn 2")) == \
        without_places(parse_expression("return 1 if c\n2"))
    assert without_places(parse_expression("return a if b else c")) == without_places(parse_expression("a if b else c"))


def test_a_guard_as_the_last_line_parses_with_no_other_case():
    node = parse_expression("return 1 if c\n")
    assert isinstance(node, A.ReturnIf) and node.body is None  # the checker refuses it (E047)


@pytest.mark.parametrize("text", [
    "return 1 if c\nreturn 2",
    "let d = n * 2\nreturn d if d > 3\nlet e: int = d + 1\nreturn e if e > n or n == 0\nreturn [d, e]",
    "return (a if b else c) if d and not e\nreturn x => x + 1",
    "return none if is_empty(xs)\nreturn first(xs)",
    "return 1 if c",
])
def test_the_printer_writes_the_lines_back(text):
    node = parse_expression(text)
    printed = source(node)
    assert without_places(parse_expression(printed)) == without_places(node)
    assert printed == text  # written as the author wrote it (the last line after a guard with 'return')


@pytest.mark.parametrize("text,column", [
    ("map(xs, x => return x)", 14),
    ("let a = return 1\na", 9),
    ("(return 1 if c)", 2),
    ("1 + return 2", 5),
])
def test_return_inside_an_expression_is_refused_where_it_is_written(text, column):
    with pytest.raises(ParseError) as err:
        parse_expression(text)
    assert (err.value.code, err.value.line, err.value.column) == ("E020", 1, column)
    assert "inside an expression" in err.value.message and "a if condition else b" in err.value.hint


def test_a_guard_below_the_last_line_says_the_value_comes_last():
    with pytest.raises(ParseError) as err:
        parse_expression("n\nreturn 1 if n > 0")
    assert (err.value.code, err.value.line, err.value.column) == ("E020", 2, 1)
    assert "the last line is the value" in err.value.hint


def test_a_guard_in_a_procedure_says_how_a_procedure_writes_it():
    from rulebook.dsl.parser import parse_block

    with pytest.raises(ParseError) as err:
        parse_block("set x = 1\nreturn 1 if c\nreturn 2")
    assert (err.value.code, err.value.line) == ("E020", 2)
    assert "'if condition: return value'" in err.value.hint


# ------------------------------------------------------------------ checking
def place(body: str, code: str) -> tuple[int, int]:
    (d,) = [d for d in diagnostics(body) if d.code == code]
    return d.line, d.column


def test_a_guard_as_the_last_line_is_e047_at_its_line():
    body = GAME.replace('      "high"\n', "")
    text = textwrap.dedent(HEAD) + textwrap.dedent(body)
    line = text.splitlines().index('      return "low" if n < 3') + 1
    assert place(body, "E047") == (line, 7)
    (d,) = [d for d in diagnostics(body) if d.code == "E047"]
    assert "last line" in d.message and "the other case" in d.hint


@pytest.mark.parametrize("change", [
    ('      "high"\n', "      3\n"),  # the last line disagrees with the guards above
    ('return "low" if n < 3', "return 2 if n < 3"),  # a guard disagrees with the lines below
    ("return -1", "return n > 0"),
])
def test_every_value_is_of_the_last_lines_type(change):
    body = GAME.replace(*change)
    assert codes(body) == ["E041"]
    (d,) = diagnostics(body)
    assert "this line returns" in d.message


def test_a_type_error_is_placed_at_the_guards_value():
    body = GAME.replace('return "low" if n < 3', "return 2 if n < 3")
    text = textwrap.dedent(HEAD) + textwrap.dedent(body)
    line = text.splitlines().index("      return 2 if n < 3") + 1
    assert place(body, "E041") == (line, len("      return ") + 1)


@pytest.mark.parametrize("change,code", [
    (("return 0 if n == 0", "return 0 if n == 'x'"), "E041"),  # the condition is checked as any condition
    (("return 0 if n == 0", "return square if n == 0"), "E030"),  # a guard sees only the lets above it
    (("return 0 if n == 0", "return 0 if m == 0"), "E030"),
    (("return none if is_empty(table)", "return none if is_empty(3)"), "E041"),
    (("sign(c.value - 4))", "map([1], x => return x))"), "E020"),
    (("sign(c.value - 4))", "map([1], x => return))"), "E020"),  # 'return' read as a name: refused as a word
])
def test_guards_are_checked_as_the_rest_of_the_value(change, code):
    assert code in codes(GAME.replace(*change))


def test_none_and_a_value_agree():
    compile_ok(GAME)  # top_value: none on an empty table, else an int


# ------------------------------------------------------------------ running
def test_guards_give_the_value_early():
    assert said(compile_ok(GAME)) == SAID


LISTED = """
components:
  card:
    for_each: {value: "range(1, 7)"}
zones:
  deck: {of: card}
functions:
  listed:
    params: {n: int}
    value: |
      return [] if n <= 0
      range(n)
setup: move components(card) to deck
phases:
  main:
    on_begin: |
      say "{is_empty(listed(0))} {is_empty(listed(2))} {count(listed(3)) > 0}"
      say "{is_empty(listed(count(deck) - 6))} {is_empty(listed(count(deck) - 4))}"
      end game
"""


def test_a_guarded_list_is_tested_for_items():
    # written at the call site (a constant argument), where the test for items reads each case (compiler/emptiness.py),
    # and called (an argument computed); the deck holds 6 cards
    assert said(compile_ok(LISTED)) == ["yes no yes", "yes no"]


def test_the_generated_function_reads_as_the_lines_do():
    result = compile_text(textwrap.dedent(HEAD) + textwrap.dedent(GAME), "unit.yaml")
    src = result.program.source
    start = src.index("def fn_sign")
    sign = src[start:src.index("\n\n", start)].splitlines()
    assert [line.strip() for line in sign[1:]] == [
        "if (n_1 == 0):",
        "return 0",
        "square_2 = (n_1 * n_1)",  # plain: every call passes a small number (compiler/bounds.py)
        "if ((square_2 == n_1) or (n_1 > 0)):",
        "return 1",
        "return (-1)",
    ]


def test_native_code_gives_the_same():
    from rulebook.compiler import native
    from rulebook.interpreter.game import Game

    if native.missing() is not None:
        pytest.skip(str(native.missing()))
    fast = Game(native.native_program(compile_ok(GAME).program))
    assert said(fast) == SAID


# ------------------------------------------------------------------ the editor's server
def test_the_language_server_reads_guards():
    from rulebook.lsp.analysis import analyse
    from rulebook.lsp.completion import complete
    from rulebook.lsp.definitions import definition_of
    from rulebook.lsp.names import find_at

    text = textwrap.dedent(HEAD) + textwrap.dedent(GAME)
    lines = text.splitlines()
    analysis = analyse("unit.yaml", text)
    assert analysis.diagnostics == []
    guard = lines.index("      return 1 if square == n or n > 0") + 1
    column = lines[guard - 1].index("square") + 1  # the let's name read in a guard below it
    use = find_at(analysis, guard, column)
    assert (use.kind, use.name, use.type) == ("local", "square", "int")
    (target,) = definition_of(analysis, "file:///unit.yaml", guard, column)
    assert target.range.start.line + 1 == lines.index("      let square: int = n * n") + 1
    complete(analysis, guard, column)  # answers, whatever it offers


@pytest.mark.parametrize("change,code", [
    (('      "high"\n', ""), "E047"),
    (("sign(c.value - 4))", "map([1], x => return x))"), "E020"),
])
def test_the_language_server_reports_mistakes_in_guards(change, code):
    from rulebook.lsp.analysis import analyse

    analysis = analyse("unit.yaml", textwrap.dedent(HEAD) + textwrap.dedent(GAME.replace(*change)))
    assert [d.code for d in analysis.diagnostics] == [code]
