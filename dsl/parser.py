"""Parse rule text into the typed AST of ``dsl.ast``.

The grammar (``rules.lark``) is compiled once per process into an LALR
parser. Each transformer method below carries the name of the grammar rule
it builds. Syntax errors become ``ParseError`` values with a position inside
the rule text, a stable code and a hint; they never escape as Lark
exceptions.
"""

from __future__ import annotations

import ast as _pyast
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import rulebook.dsl.ast as A
from lark import Lark, Token, Transformer, ast_utils, v_args
from lark.exceptions import (
    LarkError,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)
from lark.indenter import DedentError, Indenter
from rulebook.dsl.grammar_cache import cached_lark

GRAMMAR = Path(__file__).with_name("rules.lark")
MAX_NESTING = 48  # brackets or blocks nested deeper than this are refused
MAX_TEXT = 20_000  # characters in one piece of rule text
MAX_INT_DIGITS = 100  # digits of an integer literal

# words rule text reads as themselves wherever a value goes: never a name
VALUE_WORDS = frozenset("true false none and or not in if elif else".split())
# words that begin a statement: a procedure named so could never be called
STATEMENT_WORDS = frozenset(
    "let set move draw deal shuffle reveal hide remove create choose emit end pass eliminate say swap append "
    "discard if for while repeat simultaneous restore".split()
)
KEYWORDS = frozenset(
    "let set move to at face draw from deal for shuffle reveal hide remove create with as "
    "choose by optional prompt emit end game winners turn phase pass eliminate say swap "
    "return if elif else in simultaneous repeat while and or not true false none append discard until restore".split()
)


@dataclass(frozen=True)
class ParseError(Exception):
    """A syntax error inside one piece of rule text."""

    code: str
    message: str
    line: int
    column: int
    hint: str | None = None


class _BadDedent(LarkError):
    """A line that goes back to a column no block started at, with its place."""

    def __init__(self, line: int, column: int):
        super().__init__(f"bad dedent at line {line}")
        self.line, self.column = line, column


class _RuleIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4

    def handle_NL(self, token: Token):
        """Lark's, with the place of a bad dedent: the line the newline
        token ends on, at its first character."""
        try:
            yield from super().handle_NL(token)
        except DedentError:
            indent = token.rsplit("\n", 1)[1]
            raise _BadDedent(token.end_line or token.line or 1, len(indent) + 1) from None


@lru_cache(maxsize=1)
def _lark() -> Lark:
    """The parser. Its LALR tables are kept in the user's cache folder
    (``dsl.grammar_cache``: that folder's checks, and a digest checked
    before the pickle is loaded); without a usable folder they are built."""
    return cached_lark(GRAMMAR.read_text(), parser="lalr", postlex=_RuleIndenter(), start=["block", "expression"],
                       propagate_positions=True, maybe_placeholders=False)


def _pos(meta_or_token) -> A.Pos:
    return (getattr(meta_or_token, "line", 1) or 1, getattr(meta_or_token, "column", 1) or 1)


from rulebook.dsl.chars import CONTROL  # noqa: E402 - the characters rule text may not hold


def _unquote(token: Token) -> str:
    """A string literal's value (literal_eval reads only literals). A
    control character in it is refused where the string starts: texts are
    printed on terminals."""
    try:
        value = _pyast.literal_eval(str(token))
    except (ValueError, SyntaxError):  # pragma: no cover - the lexer only passes valid literals
        value = str(token)[1:-1]
    bad = CONTROL.search(value)
    if bad is not None:
        raise ParseError("E021", f"a control character (U+{ord(bad.group()):04X}) in a string", *_pos(token),
                         "texts are shown on terminals, which act on control characters: remove it "
                         "(\\t and \\n are fine)")
    return value


@v_args(meta=True)
class _ToAst(Transformer):
    """The rules whose node needs more than its children as they stand: a
    check (``int_lit``, ``str_lit``), optional parts, a place other than the
    rule's start; and the rules that give a part of a node (``args``,
    ``position``). The rest are built by lark (``_from_children``)."""

    # -- expressions
    def int_lit(self, meta, c):
        digits = len(str(c[0]).lstrip("0")) or 1
        if digits > MAX_INT_DIGITS:
            raise ParseError("E024", f"a number of {digits} digits; the limit is {MAX_INT_DIGITS}", *_pos(c[0]),
                             "no game needs such a number: did a value get pasted twice?")
        return A.IntLit(int(c[0]), _pos(c[0]))

    def str_lit(self, meta, c):
        return A.StrLit(_unquote(c[0]), _pos(c[0]))

    def true_lit(self, meta, c):
        return A.BoolLit(True, _pos(meta))

    def false_lit(self, meta, c):
        return A.BoolLit(False, _pos(meta))

    def attribute(self, meta, c):
        return A.Attribute(c[0], str(c[1]), _pos(c[1]))

    def slice(self, meta, c):
        parts = dict(c[1:])
        return A.Slice(c[0], parts.get("lo"), parts.get("hi"), _pos(meta))

    def slice_lo(self, meta, c):
        return ("lo", c[0])

    def slice_hi(self, meta, c):
        return ("hi", c[0])

    def kwargs(self, meta, c):
        return tuple(c)

    def args(self, meta, c):
        return tuple(c)

    def call(self, meta, c):
        args = c[1] if len(c) > 1 else ()
        pos_args = tuple(a for a in args if not isinstance(a, A.Kwarg))
        kw = tuple(a for a in args if isinstance(a, A.Kwarg))
        return A.Call(str(c[0]), pos_args, kw, _pos(c[0]))

    def compare(self, meta, c):
        return A.Compare(c[0], str(c[1]), c[2], _pos(c[1]))

    def in_op(self, meta, c):
        return A.InOp(c[0], c[1], False, _pos(meta))

    def not_in(self, meta, c):
        return A.InOp(c[0], c[1], True, _pos(meta))

    def binary(self, meta, c):
        return A.Binary(c[0], str(c[1]), c[2], _pos(c[1]))

    # -- statements
    def suite(self, meta, c):
        return tuple(c)

    def target(self, meta, c):
        if len(c) == 1:
            return A.Target(None, str(c[0]), _pos(c[0]))
        return A.Target(c[0], str(c[1]), _pos(c[1]))

    def let_stmt(self, meta, c):
        if len(c) == 3:  # let name: type = value
            return A.LetStmt(str(c[0]), c[2], _pos(meta), c[1])
        return A.LetStmt(str(c[0]), c[1], _pos(meta))

    def let_expr(self, meta, c):
        if len(c) == 4:  # let name: type = value, then the body
            return A.LetExpr(str(c[0]), c[2], c[3], _pos(meta), c[1])
        return A.LetExpr(str(c[0]), c[1], c[2], _pos(meta))

    def return_if(self, meta, c):
        return A.ReturnIf(c[0], c[1], c[2] if len(c) > 2 else None, _pos(meta))

    def return_value(self, meta, c):
        """The last line written ``return value``: the value itself, as
        when written bare (both read the same)."""
        return c[0]

    def let_type(self, meta, c):
        """The declared type as the ruleset format writes types: 'card', 'list', 'list of card'."""
        if not c:
            return "list"
        return str(c[0]) if isinstance(c[0], Token) else "list of " + c[0]

    def position(self, meta, c):
        return ("position", str(c[0]))

    def facing(self, meta, c):
        return ("face", str(c[0]))

    def move_stmt(self, meta, c):
        extra = dict(x for x in c[2:])
        return A.MoveStmt(c[0], c[1], extra.get("position", "top"), extra.get("face"), _pos(meta))

    def draw_stmt(self, meta, c):
        face = None
        if c and isinstance(c[-1], tuple):
            face = c[-1][1]
            c = c[:-1]
        count = c[0] if len(c) == 3 else None
        return A.DrawStmt(count, c[-2], c[-1], face, _pos(meta))

    def deal_stmt(self, meta, c):
        recipients = c[3] if len(c) > 3 else None
        return A.DealStmt(c[0], c[1], str(c[2]), recipients, _pos(meta), _pos(c[2]))

    def reveal_stmt(self, meta, c):
        return A.RevealStmt(c[0], c[1] if len(c) > 1 else None, _pos(meta))

    def create_stmt(self, meta, c):
        props: tuple = ()
        name = None
        for item in c[2:]:
            if isinstance(item, tuple):
                props = item
            else:
                name = str(item)
        return A.CreateStmt(str(c[0]), c[1], props, name, _pos(meta), _pos(c[0]))

    def choose_stmt(self, meta, c):
        name, options = str(c[0]), c[1]
        chooser = None
        optional = public = False
        prompt = label = None
        label_pos = prompt_pos = (1, 1)
        after_label = after_within = False
        within = None
        for item in c[2:]:
            if isinstance(item, Token) and item.type == "OPTIONAL":
                optional = True
            elif isinstance(item, Token) and item.type == "PUBLIC":
                public = True
            elif isinstance(item, Token) and item.type == "WITHIN":
                after_within = True
            elif isinstance(item, Token) and item.type == "LABEL":
                after_label = True
            elif isinstance(item, Token) and item.type == "STRING":
                if after_label:
                    label, label_pos = _unquote(item), _pos(item)
                else:
                    prompt, prompt_pos = _unquote(item), _pos(item)
            elif after_within and within is None:
                within = item
            else:
                chooser = item
        return A.ChooseStmt(name, options, chooser, optional, prompt, _pos(meta), label, label_pos, prompt_pos, within,
                            public)

    def emit_stmt(self, meta, c):
        return A.EmitStmt(str(c[0]), c[1] if len(c) > 1 else (), _pos(meta), _pos(c[0]))

    def end_game_stmt(self, meta, c):
        return A.EndGameStmt(c[0] if c else None, _pos(meta))

    def eliminate_stmt(self, meta, c):
        if len(c) > 1:
            return A.EliminateStmt(c[0], _pos(meta), str(c[1]), _pos(c[1]))
        return A.EliminateStmt(c[0], _pos(meta))

    def say_stmt(self, meta, c):
        return A.SayStmt(_unquote(c[0]), _pos(meta), _pos(c[0]))

    def call_stmt(self, meta, c):
        args = c[1] if len(c) > 1 else ()
        pos_args = tuple(a for a in args if not isinstance(a, A.Kwarg))
        kw = tuple(a for a in args if isinstance(a, A.Kwarg))
        return A.CallStmt(str(c[0]), pos_args, kw, _pos(meta))

    def return_stmt(self, meta, c):
        return A.ReturnStmt(_pos(meta), c[0] if c else None)

    def if_stmt(self, meta, c):
        branches = [(c[0], c[1])]
        orelse: tuple = ()
        for clause in c[2:]:
            if clause[0] == "elif":
                branches.append((clause[1], clause[2]))
            else:
                orelse = clause[1]
        return A.IfStmt(tuple(branches), orelse, _pos(meta))

    def elif_clause(self, meta, c):
        return ("elif", c[0], c[1])

    def else_clause(self, meta, c):
        return ("else", c[0])

    def expression(self, meta, c):
        return c[0]


def _from_children(inline: bool, meta: bool):
    """The decorator factory of ``ast_utils.create_transformer``: a node
    class of ``dsl.ast`` marked ``Ast`` becomes the method of the rule of its
    name, building the node from the rule's children in order (a token as
    its text, so that no lark object stays in the tree; ``AsList``: all of
    them as one tuple) and the place where the rule starts. Every node has a
    place, so the rule's meta is always passed (``meta`` is not asked)."""

    def method(cls):
        if inline:
            def build(self, rule_meta, children):
                return cls(*(str(c) if isinstance(c, Token) else c for c in children), _pos(rule_meta))
        else:
            def build(self, rule_meta, children):
                return cls(tuple(children), _pos(rule_meta))
        return v_args(meta=True)(build)

    return method


_TRANSFORMER = ast_utils.create_transformer(A, _ToAst(), decorator_factory=_from_children)

_TOKEN_NAMES = {
    "_NL": "end of line",
    "_INDENT": "an indented block",
    "_DEDENT": "end of block",
    "$END": "end of text",
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a string",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COLON": "':'",
    "COMMA": "','",
    "DOT": "'.'",
    "ASSIGN_OP": "'='",
    "COMP_OP": "a comparison",
}


def _token_name(t: str) -> str:
    if t in _TOKEN_NAMES:
        return _TOKEN_NAMES[t]
    try:
        pattern = _lark().get_terminal(t).pattern
    except KeyError:
        return t
    return f"'{pattern.value}'" if pattern.type == "str" else t.lower()


RETURN_HINT = ("in a procedure 'return value' is a statement; in a function's value 'return value if condition' "
               "is a line above the last one; inside an expression choose with 'a if condition else b'")


def _describe(expected) -> str:
    names = sorted({_token_name(t) for t in expected})
    if len(names) > 6:
        names = names[:6] + ["..."]
    return ", ".join(names)


def _check_limits(text: str) -> None:
    if len(text) > MAX_TEXT:
        raise ParseError(
            "E024",
            f"rule text is {len(text)} characters long; the limit is {MAX_TEXT}",
            1,
            1,
            "split it into procedures",
        )
    depth = 0
    line, col = 1, 0
    for ch in text:
        col += 1
        if ch == "\n":
            line, col = line + 1, 0
        elif ch in "([":
            depth += 1
            if depth > MAX_NESTING:
                raise ParseError(
                    "E024",
                    f"rule text is nested more than {MAX_NESTING} brackets deep",
                    line,
                    col,
                    "use let to name intermediate values",
                )
        elif ch in ")]":
            depth -= 1
    indents = [len(m.group(1)) for m in re.finditer(r"\n([ \t]*)\S", text)]
    if indents and max(indents) > MAX_NESTING * 4:
        raise ParseError("E024", "rule text is indented too deeply", 1, 1, "move the inner part into a procedure")


_MEMO: dict = {}
_MEMO_SIZE = 4096  # distinct texts kept: many rulesets with their variants (a count is in docs/performance.md)


def _parse(text: str, start: str):
    """Parse, remembering results: a ruleset and its variants share most
    of their rule text, and the syntax tree is immutable."""
    if not isinstance(text, str):  # a document's value handed over as it is (a list where a text belongs)
        kind = {list: "a list", dict: "a mapping"}.get(type(text), type(text).__name__)
        raise ParseError("E010", f"rule text must be a text, not {kind}", 1, 1)
    key = (start, text)
    if key not in _MEMO:
        try:
            result = _parse_uncached(text, start)
        except ParseError as err:
            result = err
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        if len(text) >= 8_000:  # long texts are not kept
            return _result(result)
        _MEMO[key] = result
    return _result(_MEMO[key])


def _result(result):
    if isinstance(result, ParseError):  # a fresh exception each time: a raised one carries its traceback
        raise ParseError(result.code, result.message, result.line, result.column, result.hint)
    return result


MAX_TREE_DEPTH = 300  # syntax tree depth: operators inside operators, blocks inside blocks


def _tree_depth(node) -> int:
    """The depth of a syntax tree, walked without recursion."""
    deepest, todo = 0, [(node, 1)]
    while todo:
        n, d = todo.pop()
        deepest = max(deepest, d)
        for name in n.__dataclass_fields__:
            value = getattr(n, name)
            items = value if isinstance(value, (list, tuple)) else (value,)
            for item in items:
                if hasattr(item, "__dataclass_fields__"):
                    todo.append((item, d + 1))
                elif isinstance(item, (list, tuple)):
                    todo.extend((x, d + 1) for x in item if hasattr(x, "__dataclass_fields__"))
    return deepest


def _parse_uncached(text: str, start: str):
    _check_limits(text)
    source = text if text.endswith("\n") else text + "\n"
    try:
        tree = _lark().parse(source, start=start)
        node = _TRANSFORMER.transform(tree)
        if _tree_depth(node) > MAX_TREE_DEPTH:  # the same answer whatever Python's recursion limit
            raise RecursionError
        return node
    except UnexpectedInput as err:
        raise _to_parse_error(err, source) from None
    except VisitError as err:  # a limit checked while building the tree (int_lit, str_lit)
        if isinstance(err.orig_exc, ParseError):
            raise _result(err.orig_exc) from None
        if isinstance(err.orig_exc, RecursionError):
            raise ParseError("E024", "rule text is nested too deeply (operators inside operators)", 1, 1,
                             "use let to name intermediate values") from None
        raise
    except _BadDedent as err:
        raise ParseError("E020", "inconsistent indentation: this line goes back to a column no block "
                         "started at", err.line, err.column, "indent each block by the same amount") from None
    except RecursionError:
        raise ParseError("E024", "rule text is nested too deeply (operators inside operators)", 1, 1,
                         "use let to name intermediate values") from None
    except LarkError as err:  # e.g. a dedent to a column no block started at
        message = str(err).splitlines()[0] if str(err) else type(err).__name__
        if "dedent" in message.lower() or "Dedent" in type(err).__name__:
            raise ParseError("E020", "inconsistent indentation: a line goes back to a column no block "
                             "started at", 1, 1, "indent each block by the same amount") from None
        raise ParseError("E020", f"rule text cannot be parsed: {message}", 1, 1) from None


def _to_parse_error(err: UnexpectedInput, text: str) -> ParseError:
    line = getattr(err, "line", 1) or 1
    col = getattr(err, "column", 1) or 1
    if isinstance(err, UnexpectedCharacters):
        ch = text[err.pos_in_stream] if 0 <= err.pos_in_stream < len(text) else "?"
        hint = None
        if ch == "{":
            hint = "braces have no meaning here; use indentation for blocks"
        elif ch in "&|!":
            hint = "write 'and', 'or', 'not'"
        elif ch == "=":
            hint = "'==' compares; 'set x = ...' and 'let x = ...' assign"
        elif ch == "\t":
            hint = "indent with spaces"
        elif ch == "/":
            hint = "there is no '/': '//' divides, rounding down"
        elif ch in "\"'":
            rest = text[err.pos_in_stream + 1:].split("\n", 1)[0]
            if ch not in rest:  # an opening quote with no closing one on its line
                return ParseError("E021", "this string is never closed", line, col,
                                  f"a string ends on the line where it starts: add the closing {ch}")
        return ParseError("E021", f"unexpected character {ch!r}", line, col, hint)
    if isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
        expected = getattr(err, "expected", None) or getattr(err, "accepts", None) or []
        lines = text.rstrip("\n").split("\n")
        return ParseError(
            "E022",
            "rule text ends too early; expected " + _describe(expected),
            len(lines),
            len(lines[-1]) + 1,
            "is a closing bracket or a value missing?",
        )
    if isinstance(err, UnexpectedToken):
        tok = err.token
        shown = (
            "end of line"
            if tok.type == "_NL"
            else "indentation"
            if tok.type in ("_INDENT", "_DEDENT")
            else repr(str(tok))
        )
        hint = None
        tline, tcol = tok.line or line, tok.column or col
        before = text.split("\n")[tline - 1][: tcol - 1].rstrip() if tline <= len(text.split("\n")) else ""
        nested = re.search(r"(?<![\w.])return\s*$", before)
        if nested is not None and tok.type != "_NL":  # 'return' read as a name: it stands inside a value
            return ParseError("E020", "'return' inside an expression: it begins a line of its own", tline,
                              nested.start() + 1, RETURN_HINT)
        if str(tok) == "return" and tok.type != "NAME" and not before:
            hint = ("the last line is the value: a line 'return value if condition' goes above it, and the "
                    "lines below it are the value when its condition does not hold")
        elif tok.type == "_INDENT":
            # the indent token sits at the end of the line before; point at the indented line
            lines = text.split("\n")
            nxt = next((i for i in range(tline, len(lines)) if lines[i].strip()), tline)
            tline, tcol = nxt + 1, len(lines[nxt]) - len(lines[nxt].lstrip()) + 1
            hint = "only the body of if/elif/else/for/while/repeat/simultaneous is indented"
        elif str(tok) == "if" and before.endswith("else"):
            hint = "write 'elif' for 'else if'"
        elif str(tok) == "=" or getattr(tok, "type", "") == "ASSIGN_OP":
            hint = "'==' compares; 'set x = ...' and 'let x = ...' assign"
        elif "RPAR" in err.expected or "RSQB" in err.expected:
            hint = "is a closing bracket missing?"
        elif tok.type == "_NL" and "ELSE" in err.expected and re.match(r"\s*return\b", before):
            hint = ("a procedure gives its value early with 'if condition: return value'; 'return value if "
                    "condition' is a line of a function's value")
        elif tok.type == "_NL" and "COLON" in err.expected:
            hint = "a statement that opens a block ends with ':'"
        elif tok.type in ("OPTIONAL", "PUBLIC", "WITHIN", "LABEL") and re.match(r"\s*choose\b", before):
            hint = ("a choose's parts go in this order: choose x from xs [by p] [optional] [public] "
                    "[within seconds] [prompt \"...\"] [label \"...\"]")
        return ParseError("E020", f"unexpected {shown}; expected {_describe(err.expected)}", tline, tcol, hint)
    return ParseError("E020", str(err).splitlines()[0], line, col)  # pragma: no cover


def parse_block(text: str) -> A.Block:
    """Parse effect code (one or more statements)."""
    return _parse(text, "block")


def parse_expression(text: str) -> A.Expr:
    """Parse a single expression (a condition or a value)."""
    return _parse(text, "expression")


def parse_template(text: str) -> list:
    """Split a text template such as ``"{name(p)} draws {n}"`` into literal
    strings and ``(expression, column)`` pairs, the column being where the
    expression starts in the template (1-based). ``{{`` and ``}}`` stand
    for braces; an unmatched brace is an error."""
    parts: list = []
    literal = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in "{}" and i + 1 < n and text[i + 1] == ch:
            literal.append(ch)
            i += 2
            continue
        if ch == "}":
            raise ParseError("E023", "'}' without a matching '{'", 1, i + 1, "write '}}' for a brace in the text")
        if ch == "{":
            end = text.find("}", i + 1)
            inner_open = text.find("{", i + 1)
            if end < 0 or (0 <= inner_open < end):
                raise ParseError("E023", "'{' without a matching '}'", 1, i + 1, "write '{{' for a brace in the text")
            if literal:
                parts.append("".join(literal))
                literal = []
            source = text[i + 1 : end]
            try:
                parts.append((parse_expression(source), i + 2))
            except ParseError as err:
                raise ParseError(
                    err.code if err.code != "E022" else "E023",
                    f"in {{{source}}}: {err.message}",
                    1,
                    i + 1 + err.column,
                    err.hint,
                ) from None
            i = end + 1
            continue
        literal.append(ch)
        i += 1
    if literal:
        parts.append("".join(literal))
    return parts
