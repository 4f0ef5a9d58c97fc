"""Check texts: templates (``say``, labels, prompts, player names) and
the pieces of text said to everybody, which must not tell what a
face-down component hides."""

from __future__ import annotations

from rulebook.dsl import ast as A
from rulebook.validator.check_expr import CheckError, Cx, draws, face_up_only
from rulebook.validator.ir import X
from rulebook.validator.types import COMP, LIST, STR


def template_parts(ck, text: str, cx: Cx, line: int, col: int, what: str, public: bool = False,
                   itself: str | None = None):
    """Check a text template whose first character is at (line, col) of
    ``cx``'s text; returns pieces: literal strings and (X, Type) pairs.
    ``public``: the text is for everybody (``say``), so its pieces are
    checked in a public context: a face-down component is named by its
    back, and a piece that reads what one hides renders as "[hidden]"."""
    from rulebook.dsl.parser import ParseError, parse_template

    try:
        parts = parse_template(text)
    except ParseError as err:
        ck.report("E023", f"in {what}: {err.message}", cx.path, cx.inner(line, col).at((1, err.column)), err.hint)
        raise CheckError(err.message) from None
    pieces = []
    for piece in parts:
        if isinstance(piece, str):
            pieces.append(piece)
        else:
            node, start = piece
            if itself is not None and isinstance(node, A.Name) and node.id == itself:
                cx.inner(line, col + start - 1).error(
                    "E044", f"a label cannot name the component itself ({{{itself}}})", node.pos,
                    f"name the properties it shows, e.g. {{{itself}.value}}", len(itself))
            x, t = ck.expr(node, cx.inner(line, col + start - 1, public or None))
            if t.kind == "map":  # an event: its fields by their declared types
                x, t = event_words(ck, x, cx, public), STR
            pieces.append((x, t))
    return tuple(pieces)


def faces_first(ck, call: X, args, cx: Cx) -> X:
    """``call``, a built-in's call that goes by component ids, after a check
    that every component among its arguments is face up (text said to
    everybody; the arguments are computed twice, in say text only)."""
    guards = []
    for arg in args:
        if isinstance(arg, A.LambdaExpr) or draws(arg):
            continue  # a function, or a value drawn at random, which a second computation would change
        gx, gt = ck.expr(arg, cx)
        if gt.kind in ("int", "str", "bool", "player", "none"):
            continue
        if gt.kind == "zone":
            gx, gt = X("zone_items", gx), LIST(COMP(None))
        guards.append(face_up_only(gx, gt))
    return X("guarded", tuple(guards), call) if guards else call


def event_words(ck, x: X, cx: Cx, public: bool) -> X:
    fields = ck.events.get(cx.scope.event or "", {})
    return X("event_words", x, tuple(fields.items()), public)
