"""Which function checks each kind of expression node.

The checker's one entry for a value, ``RulesetChecker.expr``, looks the
node's kind up here, the way a JSON Schema validator looks a keyword up in
its table: each check is a free function ``f(ck, node, cx) -> (X, Type)``
given the checker (its declarations and its report) and the place
(``check_expr.Cx``), and it checks the node's parts through ``ck.expr``.
"""

from __future__ import annotations

from rulebook.dsl import ast as A
from rulebook.validator.expr_access import check_attribute, check_index, check_slice
from rulebook.validator.expr_calls import check_call
from rulebook.validator.expr_functions import check_lambda_expr
from rulebook.validator.expr_let import check_let_expr
from rulebook.validator.expr_literals import (
    check_bool_lit,
    check_int_lit,
    check_list_lit,
    check_none_lit,
    check_str_lit,
)
from rulebook.validator.expr_names import check_name
from rulebook.validator.expr_operators import (
    check_and_op,
    check_binary,
    check_compare,
    check_if_expr,
    check_in_op,
    check_neg,
    check_not_op,
    check_or_op,
)
from rulebook.validator.expr_return import check_return_if

EXPRESSION_CHECKS = {
    A.AndOp: check_and_op,
    A.Attribute: check_attribute,
    A.Binary: check_binary,
    A.BoolLit: check_bool_lit,
    A.Call: check_call,
    A.Compare: check_compare,
    A.IfExpr: check_if_expr,
    A.InOp: check_in_op,
    A.Index: check_index,
    A.IntLit: check_int_lit,
    A.LambdaExpr: check_lambda_expr,
    A.LetExpr: check_let_expr,
    A.ListLit: check_list_lit,
    A.Name: check_name,
    A.Neg: check_neg,
    A.NoneLit: check_none_lit,
    A.NotOp: check_not_op,
    A.OrOp: check_or_op,
    A.ReturnIf: check_return_if,
    A.Slice: check_slice,
    A.StrLit: check_str_lit,
}
