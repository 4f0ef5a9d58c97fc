"""Why a scenario's expectation failed, told as pytest tells a failed
``assert``: which part of an ``a and b`` is false, both sides of a
comparison, and the values of the sub-expressions that make them.

The expectation is parsed again (``dsl.parser.parse_expression``: an AST
with positions), each part is written back as rule text (``source``) and
compiled on its own through the ruleset's one entry point for outside rule
text (``compiler.snippets.Snippets.expr``), then evaluated in the state where the
expectation failed. A part that cannot be compiled alone (it reads a
lambda's parameter, ``c`` in ``all(xs, c => c.value > 2)``) is left out.
"""

from __future__ import annotations

import json

from rulebook.dsl import ast as A
from rulebook.dsl.parser import parse_expression
from rulebook.dsl.printer import source
from rulebook.interpreter.labels import describe
from rulebook.interpreter.program import COMP, LIST
from rulebook.validator.loader import load_text

MAX_VALUE = 80  # characters of one value in a message
MAX_WHERE = 4  # sub-expression values listed after the explanation

LITERALS = (A.IntLit, A.StrLit, A.BoolLit, A.NoneLit)


def _children(node) -> list:
    """The sub-expressions whose values help to read a node's value."""
    if isinstance(node, A.Call):
        return list(node.args) + [k.value for k in node.kwargs]
    if isinstance(node, A.Attribute):
        return [node.obj]
    if isinstance(node, A.Index):
        return [node.obj, node.key]
    if isinstance(node, A.Slice):
        return [x for x in (node.obj, node.lo, node.hi) if x is not None]
    if isinstance(node, (A.Binary, A.Compare)):
        return [node.left, node.right]
    if isinstance(node, A.InOp):
        return [node.item, node.coll]
    if isinstance(node, A.Neg):
        return [node.operand]
    if isinstance(node, A.IfExpr):
        return [node.cond]
    if isinstance(node, A.ListLit):
        return list(node.items)
    return []


def _parts(node, kind) -> list:
    """``a and b and c`` as [a, b, c] (the same for ``or``)."""
    if isinstance(node, kind):
        return _parts(node.left, kind) + _parts(node.right, kind)
    return [node]


class Explainer:
    """Explains one failed expectation in one state. ``compiler`` is the
    ruleset's scenario compiler (``rulebook.scenario.snippets_of``), which compiles each part."""

    def __init__(self, compiler, st):
        self.compiler = compiler
        self.st = st
        self.values: dict[str, tuple[bool, str, object]] = {}

    def value(self, node) -> tuple[bool, str, object]:
        """(could be evaluated, the value in words, the value) of a part."""
        text = source(node)
        if text not in self.values:
            self.values[text] = self._evaluate(text)
        return self.values[text]

    def _evaluate(self, text: str) -> tuple[bool, str, object]:
        doc, diags = load_text(json.dumps({"expect": text}), "<expectation>")
        if diags:
            return False, "", None
        probe, diags = self.compiler.expr(doc, ("expect",))
        if probe is None or diags:
            return False, "", None
        t = probe.type
        try:
            v = probe.value(self.st)
        except Exception:  # noqa: BLE001 - a part that fails to evaluate is simply not shown
            return False, "", None
        if isinstance(v, bool):
            words = "true" if v else "false"
        elif getattr(t, "kind", None) == "zone" and isinstance(v, int):  # its contents, face-down ones too
            words = describe(self.st, self.st.zones[v], LIST(COMP(None)))
        else:
            words = describe(self.st, v, t)
        return True, words if len(words) <= MAX_VALUE else words[: MAX_VALUE - 3] + "...", v

    def shown(self, node) -> str:
        ok, words, _ = self.value(node)
        return words if ok else "?"

    def detail(self, node) -> tuple[str, list[str]]:
        """Why ``node`` is false: a sentence, and 'x is v' notes for the
        sub-expressions behind it."""
        if isinstance(node, A.AndOp):
            for part in _parts(node, A.AndOp):
                ok, _, v = self.value(part)
                if ok and not v:
                    why, where = self.detail(part)
                    return f"`{source(part)}` is false: {why}", where
            return "no single part is false on its own", []
        if isinstance(node, A.OrOp):
            details = [(source(p), self.detail(p)) for p in _parts(node, A.OrOp)]
            return ("no part is true: " + "; ".join(f"`{text}`: {why}" for text, (why, _) in details),
                    [w for _, (_, where) in details for w in where])
        if isinstance(node, A.NotOp):
            inner = node.operand
            return f"`{source(inner)}` is {self.shown(inner)}", self.where(inner)
        if isinstance(node, A.Compare):
            return (f"left side is {self.shown(node.left)}, right side is {self.shown(node.right)}",
                    self.where(node.left) + self.where(node.right))
        if isinstance(node, A.InOp):
            sides = [f"`{source(x)}` is {self.shown(x)}" for x in (node.item, node.coll) if self.shown(x) != source(x)]
            return ", ".join(sides) or "false", self.where(node.item) + self.where(node.coll)
        return self.shown(node), self.where(node)

    def where(self, node) -> list[str]:
        """'x is v' for the sub-expressions of ``node`` that are worth a look
        (not literals, not lambdas, not those that need a lambda's parameter)."""
        out = []
        for child in _children(node):
            if isinstance(child, LITERALS) or isinstance(child, A.LambdaExpr):
                continue
            ok, words, _ = self.value(child)
            if ok and words != source(child):
                out.append(f"{source(child)} is {words}")
        return out


def explain(compiler, st, text: str) -> str:
    """The explanation of the failed expectation ``text`` in ``st``, to put
    after it in the failure message (empty if it cannot be parsed)."""
    try:
        node = parse_expression(str(text))
    except Exception:  # noqa: BLE001 - it compiled before, so this does not happen; never crash a report
        return ""
    ex = Explainer(compiler, st)
    why, where = ex.detail(node)
    seen = []
    for w in where:
        if w not in seen:
            seen.append(w)
    return f"({why})" + (f"; where {'; '.join(seen[:MAX_WHERE])}" if seen else "")
