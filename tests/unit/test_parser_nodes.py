"""The nodes lark builds from their rules (``ast_utils.create_transformer``
in dsl/parser.py, over the dsl.ast classes marked Ast): the fields are the
rule's children in order, texts are plain ``str`` (no lark Token stays in a
tree), and the place is where the rule starts."""

from __future__ import annotations

from pathlib import Path

import rulebook.dsl.ast as A
import yaml
from lark import Token
from rulebook.dsl.parser import ParseError, parse_block, parse_expression

ROOT = Path(__file__).resolve().parents[2]


def test_expressions_built_by_lark_have_their_fields_and_places():
    assert parse_expression("not a or b and -c") == A.OrOp(
        A.NotOp(A.Name("a", (1, 5)), (1, 1)),
        A.AndOp(A.Name("b", (1, 10)), A.Neg(A.Name("c", (1, 17)), (1, 16)), (1, 10)), (1, 1))
    assert parse_expression("[x, y[0]] if ok else none") == A.IfExpr(
        A.ListLit((A.Name("x", (1, 2)), A.Index(A.Name("y", (1, 5)), A.IntLit(0, (1, 7)), (1, 5))), (1, 1)),
        A.Name("ok", (1, 14)), A.NoneLit((1, 22)), (1, 1))
    assert parse_expression("f(n = 1, p => p)") == A.Call(
        "f", (A.LambdaExpr("p", A.Name("p", (1, 15)), (1, 10)),), (A.Kwarg("n", A.IntLit(1, (1, 7)), (1, 3)),),
        (1, 1))


def test_statements_built_by_lark_have_their_fields_and_places():
    block = parse_block("set x += 1\nfor p in players:\n    shuffle deck\n    pass\nwhile a:\n    end turn\n")
    assert block == A.Block((
        A.SetStmt(A.Target(None, "x", (1, 5)), "+=", A.IntLit(1, (1, 10)), (1, 1)),
        A.ForStmt("p", A.Name("players", (2, 10)), (A.ShuffleStmt(A.Name("deck", (3, 13)), (3, 5)),
                                                     A.PassStmt((4, 5))), (2, 1)),
        A.WhileStmt(A.Name("a", (5, 7)), (A.EndTurnStmt((6, 5)),), (5, 1)),
    ), (1, 1))
    assert type(block.body[0].op) is str and type(block.body[1].var) is str


def _texts(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _texts(v)
    elif isinstance(value, list):
        for v in value:
            yield from _texts(v)


def _no_token(node) -> bool:
    if isinstance(node, Token):
        return False
    if isinstance(node, tuple):
        return all(_no_token(x) for x in node)
    if hasattr(node, "__dataclass_fields__"):
        return all(_no_token(getattr(node, f)) for f in node.__dataclass_fields__)
    return True


def test_no_lark_token_stays_in_the_trees_of_the_repository_rule_texts():
    parsed = 0
    for path in sorted([*ROOT.glob("rulesets/*/ruleset.yaml"), *ROOT.glob("examples/*/ruleset.yaml")]):
        for text in _texts(yaml.safe_load(path.read_text(encoding="utf-8"))):
            for parse in (parse_block, parse_expression):
                try:
                    tree = parse(text)
                except ParseError:
                    continue
                parsed += 1
                assert _no_token(tree), (path, text)
    assert parsed > 1000
