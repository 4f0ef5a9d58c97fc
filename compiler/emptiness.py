"""Whether a list is empty, without building it.

Rules test lists for emptiness all the time: ``count(person_dests(x)) > 0``
asks whether a person may move at all, ``count(swimmers(h)) == 0`` whether
a space is free of swimmers. Written as they read, they build the whole list
to count it. Here a comparison of ``count(xs)`` with 0 (``> 0``, ``!= 0``,
``>= 1``, ``== 0``, ``< 1``, ``<= 0``) is written as a test that stops as soon
as the answer is known:

* ``a + b`` is not empty when ``a`` is not, else when ``b`` is not;
* ``a if c else b`` asks the branch ``c`` picks;
* ``filter(xs, x => p)`` is ``any`` of ``p`` over ``xs``; ``map(xs, f)`` is
  not empty when ``xs`` is not (``f`` is not called);
* a list written out (``[a, b]``) is not empty when it names an item;
* a call of a ruleset function asks the same of its body: written at the
  call site for a small function, else by a companion function
  ``<name>_nonempty`` the module holds beside it;
* anything else is built and its length compared with 0.

Only lists that draw nothing at random are tested this way (skipping a draw
would change the game). The answer is the one the rule gives. What is not
computed cannot fail: a rule error in a part of the list the test does not
need (an item ``f`` would have made, the second operand of ``+`` when the
first has items) is met when the list itself is computed, not by the test. docs/language.md
says so under ``count``.
"""

from __future__ import annotations

from rulebook.compiler.cse import pure
from rulebook.compiler.emit_query import search
from rulebook.compiler.fused import STAGES
from rulebook.compiler.fused import has_items as fused_items
from rulebook.validator.ir import X

# count(xs) <op> k: (True when it means "xs is not empty", False when "xs is empty")
_MEANS = {(">", 0): True, ("!=", 0): True, (">=", 1): True, ("==", 0): False, ("<", 1): False, ("<=", 0): False}
# the same with the count on the right: k <op> count(xs)
_MIRROR = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}


def compare(e, op: str, a: X, b: X) -> str:
    test = _emptiness_test(op, a, b)
    if test is None or not pure(e, test[0]):  # a draw at random the test would skip changes the game
        return f"({e.ex(a)} {op} {e.ex(b)})"
    xs, nonempty = test
    src = has_items(e, xs)
    return src if nonempty else f"(not {src})"


def has_items(e, xs: X) -> str:
    """Source of a bool: whether the list ``xs`` has an item."""
    op = xs.op
    if op in STAGES or op == "range":
        fused = fused_items(e, xs)  # a chain of them: one loop, stopping at the first item (compiler/fused.py)
        if fused is not None:
            return fused
    if op == "list_plus":
        return f"({has_items(e, xs.a[0])} or {has_items(e, xs.a[1])})"
    if op == "list_plus_one":
        return "True"
    if op in ("ifexpr", "return_if"):  # a guard's operands are a conditional's (validator/expr_return.py)
        c, a, b = xs.a
        return f"({has_items(e, a)} if {e.ex(c)} else {has_items(e, b)})"
    if op == "filter":
        items, slot, pred = xs.a
        return search(e, "any_by", items, slot, pred, "any({body} for {t} in {items})")
    if op == "map":
        return has_items(e, xs.a[0])
    if op == "list":
        return "True" if xs.a[0] else "False"
    if op == "fn":
        return e.call_function(*xs.a, nonempty=True)
    return f"(len({e.ex(xs)}) > 0)"


def _emptiness_test(op: str, a: X, b: X) -> tuple[X, bool] | None:
    """(the list, True for "not empty") when ``a op b`` compares a count with 0."""
    for count, k, o in ((a, b, op), (b, a, _MIRROR.get(op))):
        if count.op == "len" and k.op == "const" and type(k.a[0]) is int and (o, k.a[0]) in _MEANS:
            return count.a[0], _MEANS[(o, k.a[0])]
    return None
