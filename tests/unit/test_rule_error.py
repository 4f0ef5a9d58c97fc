"""A run-time error's place is data: fields, made text only by ``__str__``."""

from __future__ import annotations

import pickle

from rulebook.interpreter.errors import RuleError


def test_place_fields_from_text_and_tuple():
    e = RuleError("R104", "a rule met a value it cannot use", "games/x.yaml:92:26", "a hint")
    assert (e.file, e.line, e.column, e.path, e.decision) == ("games/x.yaml", 92, 26, (), None)
    t = RuleError("R104", "a rule met a value it cannot use", ("games/x.yaml", 92, 26), "a hint", path=("vars", "x"))
    assert (t.file, t.line, t.column, t.path) == ("games/x.yaml", 92, 26, ("vars", "x"))
    assert str(e) == str(t) == "games/x.yaml:92:26: error[R104]: a rule met a value it cannot use\n  = hint: a hint"
    assert e.args == ("a rule met a value it cannot use",)  # the place is not pasted into the message


def test_no_place_and_a_place_without_line():
    assert str(RuleError("R101", "no options")) == "error[R101]: no options"
    e = RuleError("R101", "no options", "<scenario>")
    assert (e.file, e.line, e.where) == ("<scenario>", 0, "<scenario>")


def test_a_place_set_later_and_pickled():
    e = RuleError("R100", "too many steps")
    e.where = "unit.yaml:3:7"
    e.decision = 4
    back = pickle.loads(pickle.dumps(e))
    assert (back.code, back.message, back.file, back.line, back.column, back.decision) == (
        "R100", "too many steps", "unit.yaml", 3, 7, 4)
    assert str(back) == str(e) == "unit.yaml:3:7: error[R100]: too many steps"
