"""The checker's record of where each name is used (validator/uses.py),
which the language server reads instead of parsing rule text again."""

from rulebook.validator.pipeline import check_text

RULESET = """\
rulebook: 1
id: uses
players: {min: 2, max: 2}
components:
  card:
    for_each:
      value: "range(1, 4)"
zones:
  deck: {of: card}
  hand: {per: player, of: card}
procedures:
  give:
    params: {n: int}
    effect: |
      let k = n + 1
      for c in top(deck, k):
          move c to hand[player]
setup: |
  move components(card) to deck
  give(1)
phases:
  play:
    on_begin: |
      end game winners filter(players, p => count(hand[p]) > 0)
"""


def uses_of(text=RULESET):
    result = check_text(text, "r.yaml")
    assert result.report.ok, result.report.diagnostics
    return result.checker.index


def at(index, line, column):
    return [u for u in index.uses if (u.line, u.column) == (line, column)]


def test_each_kind_of_name_is_recorded_at_its_own_column():
    index = uses_of()
    lines = RULESET.splitlines()
    seen = {(u.kind, u.name, u.line, u.column) for u in index.uses}
    for kind, name, line in [("zone", "deck", 16), ("zone", "hand", 17), ("builtin", "top", 16),
                             ("procedure", "give", 20), ("component", "card", 19), ("value", "players", 24)]:
        col = lines[line - 1].index(name) + 1
        assert (kind, name, line, col) in seen, (kind, name, line)


def test_a_local_use_and_its_binding_name_the_same_target():
    index = uses_of()
    binding = at(index, 15, 11)  # let k = ...
    assert [(u.name, u.binds, u.type) for u in binding] == [("k", True, "int")]
    use = [u for u in index.uses if u.name == "k" and not u.binds]
    assert [u.line for u in use] == [16] and use[0].target == binding[0].target


def test_a_parameter_declared_in_yaml_is_bound_at_its_key():
    index = uses_of()
    (param,) = [u for u in index.uses if u.name == "n" and u.binds]
    assert (param.line, param.column, param.path) == (13, 14, ("procedures", "give", "params", "n"))
    (read,) = [u for u in index.uses if u.name == "n" and not u.binds]
    assert read.target == param.target and read.line == 15


def test_a_property_names_its_component_type_and_type():
    index = uses_of(RULESET.replace("count(hand[p]) > 0", "top(hand[p]).value > 0"))
    (prop,) = [u for u in index.uses if u.kind == "property"]
    assert prop.target == ("property", "card", "value") and prop.type == "int"


def test_scopes_list_the_locals_where_each_statement_starts():
    index = uses_of()
    (inner,) = [s for s in index.scopes if s.line == 17]
    assert dict(inner.names) == {"player": "player", "n": "int", "k": "int", "c": "card"}


def test_a_call_is_recorded_even_when_one_of_its_arguments_is_a_mistake():
    result = check_text(RULESET.replace("top(deck, k)", "top(dekc, k)"), "r.yaml")
    assert [d.code for d in result.report.diagnostics] == ["E030"]
    assert [u.name for u in result.checker.index.uses if u.kind == "builtin" and u.line == 16] == ["top"]
