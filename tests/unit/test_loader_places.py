"""Places and wording of load-time diagnostics (validator/loader.py and
validator/schema_check.py): each test writes one mistake and checks the code,
the line:column the caret goes to, and the hint."""
from __future__ import annotations

from rulebook.compiler.build import compile_text
from rulebook.validator.loader import load_text

# A small complete game; each test changes one line of it (the line numbers below count from 1).
GAME = """\
rulebook: 1
id: mini
players: {min: 2, max: 2}
player_vars:
  score: 0
actions:
  bump:
    label: "bump"
    effect: |
      set player.score += 1
      end turn
phases:
  main:
    turn:
      actions: [bump]
    next: main
end:
  done:
    if: "any(players, p => p.score >= 3)"
"""


def diags(text: str):
    return compile_text(text, "unit.yaml").report.sorted()


def only(text: str):
    (d,) = diags(text)
    return d


def where(d) -> tuple[str, int, int]:
    return d.code, d.line, d.column


# --------------------------------------------------------------------------- 1. escapes


def test_escapes_in_double_quoted_string_keep_columns():
    line = r'    if: "\"\t\u2660\x41\U0001F600\" != \"x\" and any(players, p => p.scor >= 3)"'
    d = only(GAME.replace('    if: "any(players, p => p.score >= 3)"', line))
    assert where(d) == ("E032", 19, line.index("scor") + 1)
    assert d.hint == "did you mean 'score'?"


def test_every_character_after_an_escape_maps_to_its_source_column():
    source = 'a: "\\u2660 {x} \\t\\n \\x41 \\\\ \\" \\U0001F600 \\\n    end\n\n  more"\n'
    doc, problems = load_text(source)
    assert not problems
    value, span = doc.data["a"], doc.spans[("a",)]
    lines = source.splitlines()
    for i, ch in enumerate(value):
        line, col = span.chars[i]
        at = lines[line - 1][col - 1] if col <= len(lines[line - 1]) else "\n"
        # an escape's character sits at its backslash, a folded line break at the break
        assert at == ch or at == "\\" or (at == "\n" and ch in " \n"), (i, ch, line, col, at)
    second_line = value.index("\n") + 1  # the escape \n starts the value's second line
    assert span.to_file(2, value.index("end") - second_line + 1) == (2, 5)  # after a line continuation
    assert span.to_file(3, 1) == (4, 3)  # 'more', after a folded blank line


# --------------------------------------------------------------------------- 2. unclosed quotes and brackets


def test_unclosed_quote_is_reported_where_it_opens():
    d = only(GAME.replace('label: "bump"', 'label: "bump it'))
    assert where(d) == ("E001", 8, 12)
    assert d.message == "this string is never closed"
    assert d.hint == 'add the closing " at the end of this line (YAML read on to the " on line 19)'


def test_unclosed_quote_at_the_end_of_the_file_stays_inside_it():
    d = only(GAME.replace('if: "any(players, p => p.score >= 3)"', "if: 'any(players, p => p.score >= 3)"))
    assert where(d) == ("E001", 19, 9)
    assert d.message == "this string is never closed"
    assert d.hint == "add the closing ' where the string ends (YAML looked for it up to the end of the file)"


def test_unclosed_bracket_is_reported_where_it_opens():
    d = only(GAME.replace("actions: [bump]", "actions: [bump"))
    assert where(d) == ("E001", 15, 16)
    assert d.message == "this list is never closed"
    assert d.hint == "add the closing ']' (YAML looked for it up to line 16)"


# --------------------------------------------------------------------------- 3. block indentation indicator


def test_block_indentation_indicator_sets_the_column():
    text = GAME.replace(
        "    effect: |\n      set player.score += 1\n      end turn\n",
        "    effect: |2\n          set player.score += 1\n        set player.scor += 1\n        end turn\n",
    )
    d = only(text)
    assert where(d) == ("E020", 11, 9)
    assert d.hint == "only the body of if/elif/else/for/while/repeat/simultaneous is indented"


# --------------------------------------------------------------------------- 4. schema wording


def test_plain_type_error_uses_words():
    d = only(GAME.replace("players: {min: 2, max: 2}", "players: {min: 2, max: [2]}"))
    assert where(d) == ("E010", 3, 24)
    assert d.message == "expected a whole number, found a list"


def test_empty_mapping_in_plain_words():
    d = only(GAME.split("phases:")[0] + "phases: {}\n")
    assert where(d) == ("E014", 12, 9)
    assert d.message == "'phases' needs at least one entry"


def test_one_of_blames_the_value_inside_an_allowed_mapping():
    d = only(GAME.replace("player_vars:\n", "vars:\n  passes: {initial: 0.5, description: passes}\nplayer_vars:\n"))
    assert where(d) == ("E010", 5, 21)
    assert d.message == "expected an expression, found a fraction"
    assert d.hint == "numbers in a ruleset are whole (rule text divides with //, rounding down)"


def test_yaml_list_where_an_expression_belongs():
    d = only(GAME.replace('    label: "bump"', "    params: {n: [1, 2]}"))
    assert where(d) == ("E010", 8, 17)
    assert d.message == "expected an expression, found a list"
    assert d.hint == 'write the list as an expression in quotes: "[1, 2]"'


# --------------------------------------------------------------------------- 5. folded blocks


def test_folded_scalar_keeps_its_style():
    """The parse stage can tell a folded block ('>') from a literal one; the
    hint itself is given where rule text is parsed (validator/checker.py)."""
    doc, _ = load_text(GAME.replace("effect: |", "effect: >-"))
    assert doc.spans[("actions", "bump", "effect")].style == ">"
    assert doc.spans[("actions", "bump", "label")].style == '"'


# --------------------------------------------------------------------------- 6. ',' in a flow mapping


def test_comma_inside_flow_mapping_splits_the_expression():
    done = '  done:\n    if: "any(players, p => p.score >= 3)"'
    d = only(GAME.replace(done, "  done: {if: any(players, p => p.score >= 3)}"))
    assert where(d) == ("E012", 18, 27)
    assert d.hint == "inside { } a ',' separates fields: quote the expression"


# --------------------------------------------------------------------------- 7. a value that starts with '{'


def test_unquoted_value_starting_with_brace():
    d = only(GAME.replace('label: "bump"', "label: {q} x {f}"))
    assert where(d) == ("E001", 8, 12)
    assert d.message == "this value starts with '{', so YAML reads it as a mapping"
    assert d.hint == "a value that starts with '{' must be quoted: \"{q} x {f}\""
