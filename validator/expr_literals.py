"""Check literal values: numbers, texts, true/false, none and [lists]."""

from __future__ import annotations

import re

from rulebook.validator.check_expr import const, face_up_only
from rulebook.validator.ir import X
from rulebook.validator.types import BOOL, INT, LIST, NONE, STR, join

# '{name}' or '{expr}' in a plain string: what a template would fill in
_LOOKS_FILLED_IN = re.compile(r"\{[A-Za-z_][^{}]*\}")


# ----------------------------------------------------------- literals
def check_int_lit(ck, n, cx):
    return const(n.value), INT


def check_str_lit(ck, n, cx):
    brace = _LOOKS_FILLED_IN.search(n.value.replace("{{", "").replace("}}", "")) if "{" in n.value else None
    if brace is not None:  # an author expecting a template: only say texts, labels and prompts are
        ck.report(
            "W106",
            f"'{brace.group(0)}' in a plain string is not filled in: "
            "only say texts, labels, prompts and player names are templates",
            cx.path,
            cx.at(n.pos),
            "build the text with + and str(), e.g. \"day \" + str(day)",
            len(n.value) + 2,
        )
    return const(n.value), STR


def check_bool_lit(ck, n, cx):
    return const(n.value), BOOL


def check_none_lit(ck, n, cx):
    return const(None), NONE


def check_list_lit(ck, n, cx):
    parts = [ck.expr(item, cx) for item in n.items]
    t = NONE  # an empty list fits any list type
    if parts:
        t = parts[0][1]
        for _, pt in parts[1:]:
            t = join(t, pt)
    xs = [p[0] for p in parts]
    if cx.public and t.kind == "any":  # a mixed list names its components by number: only face-up ones
        xs = [face_up_only(x, pt) for x, (_, pt) in zip(xs, parts)]
    return X("list", tuple(xs)), LIST(t)
