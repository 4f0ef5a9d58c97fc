"""``append`` to a list property whose name an index keeps (another type's
plain property, read by value by a filter: interpreter/indexes.py) is
amortised O(1) like every other append (``lib.appended``), and the compiler
knows the indexed properties before it writes the first statement."""

from __future__ import annotations

from helpers import compile_ok

RULES = """
components:
  token:
    count: 3
    state: {mark: 1}
  bag:
    count: 1
    state: {mark: {initial: "[]", type: list of int}}
zones:
  pile: {of: token}
  shelf: {of: bag}
vars:
  n: 0
  zeros: 0
setup: |
  move components(token) to pile
  move components(bag) to shelf
phases:
  p:
    on_begin: |
      set top(pile).mark = 0
      set zeros = count(filter(components(token), t => t.mark == 0))
      for k in range(0, 2000):
          append k to top(shelf).mark
      set n = count(top(shelf).mark) + sum(top(shelf).mark)
      end game
"""


def test_append_to_a_list_property_named_like_an_indexed_one_is_in_place():
    """Written after the filter that makes ``mark`` an indexed name, it was
    ``sized(xs + [item])`` through a helper that no longer exists: the
    compile failed."""
    g = compile_ok(RULES)
    src = g.program.source
    assert "INDEXES = [('token', 'mark')]" in src
    assert "appended(st, st.props[" in src and "sized(" not in src
    st = g.new(players=2)
    assert st.vars["n"] == 2000 + sum(range(2000))


def test_a_set_written_before_the_first_indexed_filter_keeps_the_index():
    """The token set to 0 is found by the filter that reads the index of 0s."""
    g = compile_ok(RULES)
    assert "set_indexed(st, " in g.program.source
    assert g.new(players=2).vars["zeros"] == 1
