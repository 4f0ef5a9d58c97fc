"""Hostile or mistaken YAML and rule text the loader and the parser must
refuse with a located diagnostic (issue 22, items 2's alias bullet, 5 and 7):
aliases of long texts, Python tags, YAML 1.1's yes/no/on/off, control
characters, numbers of thousands of digits, a bad dedent, and files that are
not regular files."""

from __future__ import annotations

import os
import textwrap
import time

import pytest
from rulebook.compiler.build import compile_text, validate_path
from rulebook.dsl.parser import MAX_INT_DIGITS, ParseError, parse_block, parse_expression
from rulebook.validator.loader import MAX_EXPANDED, load_file, load_text

HEAD = "rulebook: 1\nid: unit\ntitle: Unit\nplayers: {min: 2, max: 2}\n"
GAME = HEAD + textwrap.dedent("""\
    components:
      card: {count: 3}
    zones:
      deck: {}
    setup: |
      move components(card) to deck
    phases:
      p:
        on_begin: |
          end game
    """)


def errors(text: str) -> list[tuple[str, int, int]]:
    return [(d.code, d.line, d.column) for d in compile_text(text, "unit.yaml").report.errors]


# ------------------------------------------------------------ aliases: counted by expanded size


def test_a_long_text_aliased_hundreds_of_times_is_E003_by_its_expanded_size():
    text = HEAD + "notes:\n  - &a \"" + "x" * 1_000_000 + "\"\n" + "  - *a\n" * 400
    start = time.process_time()
    result = compile_text(text, "bomb.yaml")
    assert time.process_time() - start < 10
    (d,) = result.report.errors
    assert d.code == "E003" and str(MAX_EXPANDED) in d.message and "alias" in (d.hint or "")


def test_aliases_that_stay_within_the_expanded_size_load():
    anchored = GAME.replace("  deck: {}\n", "  deck: &z {visibility: hidden}\n  pile: *z\n")
    assert "E003" not in [c for c, _, _ in errors(anchored)]
    doc, diags = load_text(HEAD + "notes:\n  - &a \"" + "x" * 100_000 + "\"\n" + "  - *a\n" * 90, "ok.yaml")
    assert not diags and len(doc.data["notes"]) == 91


# ------------------------------------------------------------ tags, yes/no, control characters, numbers


@pytest.mark.parametrize("value", ["!!python/name:os.system", "!!python/object/apply:os.system ['true']",
                                   "!custom thing", "!!set {a: null}"])
def test_a_tag_that_is_not_plain_data_is_E005_at_its_place(value):
    text = HEAD.replace("title: Unit", f"title: {value}") + GAME[len(HEAD):]
    found = errors(text)
    assert ("E005", 3, 8) in found, found
    (d,) = [d for d in compile_text(text, "unit.yaml").report.errors if d.code == "E005"]
    assert "remove the tag" in d.hint


def test_yaml_11_yes_no_on_off_values_are_E006_with_a_hint():
    text = GAME.replace("card: {count: 3}", "card:\n    items: [{k: on}, {k: 'off'}, {k: yes}, {k: true}]")
    found = [(c, line) for c, line, _ in errors(text)]
    assert found == [("E006", 7), ("E006", 7)], found  # 'off' is quoted and true is a boolean either way
    d = compile_text(text, "unit.yaml").report.errors[0]
    assert "'on' in quotes" in d.hint and "write true" in d.hint


def test_keys_are_read_as_words_so_a_zone_called_on_is_kept():
    """A key is always the word written (``on:`` is also a trigger's field):
    YAML 1.1 would make ``on:`` and ``yes:`` both the key true and keep one."""
    text = GAME.replace("  deck: {}\n", "  deck: {}\n  on: {}\n  yes: {}\n").replace(
        "move components(card) to deck", "move components(card) to on")
    result = compile_text(text, "unit.yaml")
    assert result.program is not None, [d.render() for d in result.report.errors]
    doc, _ = load_text(text, "unit.yaml")
    assert list(doc.data["zones"]) == ["deck", "on", "yes"]


@pytest.mark.parametrize("where,text", [
    ("title", HEAD.replace("title: Unit", 'title: "Unit\\e[2J\\e]0;owned\\a"') + GAME[len(HEAD):]),
    ("key", GAME.replace("  deck: {}\n", '  deck: {}\n  "a\\rb": {}\n')),
    ("C1", HEAD.replace("title: Unit", 'title: "Unit\\x9b2J"') + GAME[len(HEAD):]),
])
def test_a_control_character_in_a_text_is_E007(where, text):
    found = [c for c, _, _ in errors(text)]
    assert "E007" in found, found


def test_tabs_and_line_breaks_in_texts_are_fine():
    text = HEAD.replace("title: Unit", 'title: "Unit\\tone"\ndescription: "two\\nlines"') + GAME[len(HEAD):]
    assert errors(text) == []


def test_a_raw_escape_in_a_file_is_E007_at_its_place_and_quoted_escaped():
    text = GAME.replace("  deck: {}\n", "  deck: {}  # \x1b[2J\n")
    result = compile_text(text, "unit.yaml")
    (d,) = result.report.errors
    shown = d.render(text)
    assert (d.code, d.line, d.column) == ("E007", 8, 15)
    assert "\x1b" not in shown and "\\x1b[2J" in shown


def test_a_number_of_thousands_of_digits_is_E003_at_its_place():
    text = GAME.replace("card: {count: 3}", "card: {count: " + "9" * 5000 + "}")
    assert errors(text) == [("E003", 6, 17)]


# ------------------------------------------------------------ rule text


def test_a_bad_dedent_is_E020_at_the_bad_line():
    with pytest.raises(ParseError) as err:
        parse_block("if true:\n    let a = 1\n    let b = 2\n  let c = 3\n")
    assert (err.value.code, err.value.line, err.value.column) == ("E020", 4, 3)
    text = GAME.replace("      end game\n", "      if true:\n          let a = 1\n        let b = 2\n      end game\n")
    assert errors(text) == [("E020", 16, 9)]  # the file's line of 'let b', not the block's first


def test_an_integer_literal_of_5000_digits_is_E024_at_its_place():
    with pytest.raises(ParseError) as err:
        parse_expression("1 + " + "7" * 5000)
    assert (err.value.code, err.value.line, err.value.column) == ("E024", 1, 5)
    assert f"the limit is {MAX_INT_DIGITS}" in err.value.message and "int_lit" not in err.value.message
    parse_expression("9" * MAX_INT_DIGITS)  # the limit itself is fine


@pytest.mark.parametrize("code", ['say "\\x1b[2J"', "say 'bell\\a'", 'let s = "\\u009b"',
                                  'choose x from [1] by player label "\\x1b]0;t\\x07"'])
def test_a_control_character_in_a_string_literal_is_E021(code):
    with pytest.raises(ParseError) as err:
        parse_block(code)
    assert err.value.code == "E021" and "control character" in err.value.message


# ------------------------------------------------------------ files that are not regular files


@pytest.mark.parametrize("name", ["/dev/zero", "fifo", "folder"])
def test_only_regular_files_are_read(tmp_path, name):
    if name == "fifo":
        path = tmp_path / "ruleset.yaml"
        os.mkfifo(path)  # opening it for reading would wait for a writer forever
    elif name == "folder":
        path = tmp_path / "ruleset.yaml"
        path.mkdir()
    else:
        path = name
    start = time.monotonic()
    _, diags = load_file(path)
    assert time.monotonic() - start < 2
    assert [d.code for d in diags] == ["E004"] and "not a regular file" in diags[0].message
    assert [d.code for d in validate_path(path).errors] == ["E004"]
