"""Typed AST of the rule language.

One grammar rule, one name: each dataclass below is named after the rule of
``rules.lark`` that builds it (``let_stmt`` -> ``LetStmt``), and the parser's
transformer method carries the rule's name. Every node keeps ``pos``, its
(line, column) inside the rule text; ``validator.loader.TextSpan`` maps it back
to the YAML file.

A node marked ``_Ast`` is built by lark from its rule as it stands
(``lark.ast_utils.create_transformer``, in ``dsl.parser``): its fields are
the rule's children in order (a token as its text; ``_AsList``: all the
children as one tuple), then ``pos``, the place where the rule starts. The
others are built by a method of the parser's transformer, where the rule's
children need more than that (a check, an optional part, a place other
than the rule's start).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from lark.ast_utils import AsList as _AsList
from lark.ast_utils import Ast as _Ast

Pos = tuple[int, int]  # 1-based line and column inside the rule text


# ---------------------------------------------------------------- expressions
@dataclass(frozen=True, slots=True)
class IntLit:
    value: int
    pos: Pos


@dataclass(frozen=True, slots=True)
class StrLit:
    value: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class BoolLit:
    value: bool
    pos: Pos


@dataclass(frozen=True, slots=True)
class NoneLit(_Ast):
    pos: Pos


@dataclass(frozen=True, slots=True)
class Name(_Ast):
    id: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class ListLit(_Ast, _AsList):
    items: tuple[Expr, ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class Attribute:
    obj: Expr
    attr: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class Index(_Ast):
    obj: Expr
    key: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class Slice:
    """``obj[lo:hi]``: a part of a list or a text; either bound may be left out."""

    obj: Expr
    lo: Expr | None
    hi: Expr | None
    pos: Pos


@dataclass(frozen=True, slots=True)
class Kwarg(_Ast):
    name: str
    value: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class Call:
    func: str
    args: tuple[Expr, ...]
    kwargs: tuple[Kwarg, ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class LambdaExpr(_Ast):
    param: str
    body: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class LetExpr:
    """``let name = value`` on a line of its own, then the expression
    (``body``) that may read ``name``: a value named once in a function."""

    name: str
    value: Expr
    body: Expr
    pos: Pos
    type: str | None = None  # declared with 'let name: type = value' (let_type), as in LetStmt


@dataclass(frozen=True, slots=True)
class ReturnIf:
    """``return value if cond`` on a line of its own in an expression text
    (a guard): when ``cond`` holds the text's value is ``value`` and the
    lines below (``body``) are not computed. ``body`` is None when the guard
    is the last line, which the checker refuses (E047): no value is left for
    when ``cond`` does not hold."""

    value: Expr
    cond: Expr
    body: Expr | None
    pos: Pos


@dataclass(frozen=True, slots=True)
class IfExpr(_Ast):
    then: Expr
    cond: Expr
    orelse: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class OrOp(_Ast):
    left: Expr
    right: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class AndOp(_Ast):
    left: Expr
    right: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class NotOp(_Ast):
    operand: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class Compare:
    left: Expr
    op: str
    right: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class InOp:
    item: Expr
    coll: Expr
    negated: bool
    pos: Pos


@dataclass(frozen=True, slots=True)
class Binary:
    left: Expr
    op: str
    right: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class Neg(_Ast):
    operand: Expr
    pos: Pos


Expr = Union[
    IntLit,
    StrLit,
    BoolLit,
    NoneLit,
    Name,
    ListLit,
    Attribute,
    Index,
    Slice,
    Call,
    LambdaExpr,
    LetExpr,
    ReturnIf,
    IfExpr,
    OrOp,
    AndOp,
    NotOp,
    Compare,
    InOp,
    Binary,
    Neg,
]


# ----------------------------------------------------------------- statements
@dataclass(frozen=True, slots=True)
class Target:
    """Where ``set`` writes: a variable name, or ``obj.name``."""

    obj: Expr | None
    name: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class LetStmt:
    name: str
    value: Expr
    pos: Pos
    type: str | None = None  # declared with 'let name: type = value' (let_type), as the format writes types


@dataclass(frozen=True, slots=True)
class SetStmt(_Ast):
    target: Target
    op: str
    value: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class AppendStmt(_Ast):
    value: Expr
    target: Target
    pos: Pos


@dataclass(frozen=True, slots=True)
class DiscardStmt(_Ast):
    value: Expr
    target: Target
    pos: Pos


@dataclass(frozen=True, slots=True)
class MoveStmt:
    what: Expr
    dest: Expr
    position: str  # "top" | "bottom" | "random"
    face: str | None  # "up" | "down" | None (the destination's default)
    pos: Pos


@dataclass(frozen=True, slots=True)
class DrawStmt:
    count: Expr | None
    source: Expr
    dest: Expr
    face: str | None
    pos: Pos


@dataclass(frozen=True, slots=True)
class DealStmt:
    count: Expr
    source: Expr
    family: str
    recipients: Expr | None
    pos: Pos
    family_pos: Pos = (1, 1)


@dataclass(frozen=True, slots=True)
class ShuffleStmt(_Ast):
    zone: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class RevealStmt:
    what: Expr
    to: Expr | None
    pos: Pos


@dataclass(frozen=True, slots=True)
class HideStmt(_Ast):
    what: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class RemoveStmt(_Ast):
    what: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class CreateStmt:
    type_name: str
    zone: Expr
    props: tuple[Kwarg, ...]
    name: str | None
    pos: Pos
    type_pos: Pos = (1, 1)


@dataclass(frozen=True, slots=True)
class ChooseStmt:
    name: str
    options: Expr
    chooser: Expr | None
    optional: bool
    prompt: str | None
    pos: Pos
    label: str | None = None  # a template naming each option, with the chosen name bound
    label_pos: Pos = (1, 1)
    prompt_pos: Pos = (1, 1)
    within: Expr | None = None  # seconds to answer; when they run out, the first option is taken
    public: bool = False  # the answer is told to everybody as soon as it is given


@dataclass(frozen=True, slots=True)
class EmitStmt:
    event: str
    args: tuple[Kwarg, ...]
    pos: Pos
    event_pos: Pos = (1, 1)


@dataclass(frozen=True, slots=True)
class EndGameStmt:
    winners: Expr | None
    pos: Pos


@dataclass(frozen=True, slots=True)
class EndTurnStmt(_Ast):
    pos: Pos


@dataclass(frozen=True, slots=True)
class EndPhaseStmt(_Ast):
    pos: Pos


@dataclass(frozen=True, slots=True)
class PassTurnStmt(_Ast):
    player: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class EliminateStmt:
    player: Expr
    pos: Pos
    until: str | None = None  # out only until this point ('phase', 'cleared'); None: for the game
    until_pos: Pos = (1, 1)


@dataclass(frozen=True, slots=True)
class RestoreStmt(_Ast):
    player: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class SayStmt:
    template: str
    pos: Pos
    text_pos: Pos = (1, 1)  # where the string starts (its quote)


@dataclass(frozen=True, slots=True)
class CallStmt:
    func: str
    args: tuple[Expr, ...]
    kwargs: tuple[Kwarg, ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class SwapStmt(_Ast):
    first: Expr
    second: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class PassStmt(_Ast):
    pos: Pos


@dataclass(frozen=True, slots=True)
class ReturnStmt:
    pos: Pos
    value: Expr | None = None  # 'return value': what a procedure with 'returns' gives its caller


@dataclass(frozen=True, slots=True)
class IfStmt:
    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]  # (condition, body) for if/elif
    orelse: tuple[Stmt, ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class ForStmt(_Ast):
    var: str
    iterable: Expr
    body: tuple[Stmt, ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class SimultaneousStmt(_Ast):
    var: str
    iterable: Expr
    body: tuple[Stmt, ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class RepeatStmt(_Ast):
    count: Expr
    body: tuple[Stmt, ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class WhileStmt(_Ast):
    cond: Expr
    body: tuple[Stmt, ...]
    pos: Pos


Stmt = Union[
    LetStmt,
    SetStmt,
    AppendStmt,
    DiscardStmt,
    MoveStmt,
    DrawStmt,
    DealStmt,
    ShuffleStmt,
    RevealStmt,
    HideStmt,
    RemoveStmt,
    CreateStmt,
    ChooseStmt,
    EmitStmt,
    EndGameStmt,
    EndTurnStmt,
    EndPhaseStmt,
    PassTurnStmt,
    EliminateStmt,
    RestoreStmt,
    SayStmt,
    CallStmt,
    SwapStmt,
    PassStmt,
    ReturnStmt,
    IfStmt,
    ForStmt,
    SimultaneousStmt,
    RepeatStmt,
    WhileStmt,
]


@dataclass(frozen=True, slots=True)
class Block(_Ast, _AsList):
    body: tuple[Stmt, ...]
    pos: Pos
