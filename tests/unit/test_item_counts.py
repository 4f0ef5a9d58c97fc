"""An ``items`` row's own ``copies``: each kind of a family in its own number
(issue 40 item 3), beside the type's ``copies`` expression that may read the
row's fields and ``for_each`` values."""

from __future__ import annotations

from helpers import compile_ok, diagnostics

TAIL = """
zones:
  box: {}
setup: |
  move components(card) to box
phases:
  main:
    on_begin: end game
"""


def _kinds(body: str) -> list:
    g = compile_ok(body + TAIL)
    st = g.new(players=2, seed=1)
    return [(st.static[c].get("kind"), st.static[c].get("worth")) for c in range(st.cat.n)]


def test_each_row_makes_its_own_number_in_order_and_copies_is_not_a_property():
    body = """
components:
  card:
    items:
      - {kind: roll, worth: 1, copies: 3}
      - {kind: pie, worth: 2}
      - {kind: none, worth: 9, copies: 0}
      - {kind: tea, worth: 3, copies: 2}
"""
    assert _kinds(body) == [("roll", 1)] * 3 + [("pie", 2)] + [("tea", 3)] * 2
    st = compile_ok(body + TAIL).new(players=2, seed=1)
    assert "copies" not in st.static[0]


def test_the_types_copies_is_the_default_for_rows_without_their_own():
    body = """
components:
  card:
    items:
      - {kind: roll, worth: 1, copies: 1}
      - {kind: pie, worth: 2}
    copies: "worth + 1"
"""
    assert _kinds(body) == [("roll", 1)] + [("pie", 2)] * 3


def test_for_each_copies_reads_the_rows_values():
    body = """
define:
  counts: "[2, 0, 1]"
components:
  card:
    for_each: {worth: "range(3)"}
    copies: "counts[worth]"
"""
    assert _kinds(body) == [(None, 0), (None, 0), (None, 2)]


def test_a_negative_or_non_number_row_copies_is_e014_at_its_value():
    body = """
components:
  card:
    items:
      - {kind: roll, copies: -1}
      - {kind: pie, copies: "two"}
      - {kind: tea, copies: true}
"""
    found = [(d.code, d.line, d.column) for d in diagnostics(body + TAIL) if d.is_error]
    # the body is not dedented (TAIL is not indented): the values are where they are written
    assert found == [("E014", 10, 30), ("E014", 11, 29), ("E014", 12, 29)], found
    texts = [d.message for d in diagnostics(body + TAIL) if d.is_error]
    assert "negative" in texts[0] and "whole number" in texts[1] and "whole number" in texts[2]


def test_the_editor_does_not_declare_an_items_copies_as_a_property():
    from rulebook.validator.pipeline import check_text

    from rulebook.lsp.names import declarations

    text = "rulebook: 1\nid: u\nplayers: {min: 2, max: 2}\ncomponents:\n  card:\n    items:\n" \
           "      - {kind: roll, copies: 3}\nphases:\n  main:\n    on_begin: end game\n"
    result = check_text(text, "r.yaml")
    properties = {u.name for u in declarations(result.doc) if u.kind == "property"}
    assert properties == {"kind"}
