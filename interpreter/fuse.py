"""Fusing an expression's closures into one Python function.

The expression compiler turns every node of the rule text into a closure
``f(st, L)``: ``a.value == 3`` is four calls (compare, attribute, local,
constant) each time it is evaluated. For the most common kinds of node the
compiler also gives its closure ``src``, the same computation written as
Python source over ``st`` and ``L``, and ``env``, the names that source uses
(closures it could not write as source, constants, helpers). A node whose
parts all have source is compiled, the first time it runs, into one Python
function: ``L[3]['value'] == 3`` is then one call.

Only text the compiler writes itself goes into the source: names of the
rule text never do (they are resolved to slots and dictionary keys, which
are written with ``repr``), so fusing adds nothing a ruleset could reach.
Behaviour is the closure tree's, operation for operation; a node nested too
deeply for Python's parser keeps its closures.
"""

from __future__ import annotations

import itertools
import types
from collections.abc import Callable

_names = itertools.count()
MAX_DEPTH = 40  # nesting kept by one fused function (Python's parser allows 200 brackets)


def part(fn: Callable, env: dict) -> str:
    """Source computing ``fn``: its own source, or a call to it."""
    src = getattr(fn, "src", None)
    if src is not None:
        env.update(fn.env)
        return src
    name = f"_c{next(_names)}"
    env[name] = fn
    return f"{name}(st, L)"


def name_for(value, env: dict) -> str:
    """A name in ``env`` for a helper or a value the source refers to."""
    name = f"_k{next(_names)}"
    env[name] = value
    return name


def depth(fn: Callable) -> int:
    return getattr(fn, "depth", 0)


def leaf(fn: Callable, src: str, env: dict | None = None) -> Callable:
    """Give a closure that is a leaf (a local, a constant) its source; it is
    cheap enough to call as it is, so nothing is compiled for it."""
    fn.src, fn.env, fn.depth = src, env or {}, 1
    return fn


def fuse(fallback: Callable, src: str, env: dict, *parts: Callable) -> Callable:
    """The closure for a node whose source is ``src``: compiled into one
    function the first time it is called, else ``fallback`` (the closure
    tree) when the nesting is too deep for one function.

    The function returned is a stub whose globals are ``env``; its first
    call compiles ``src`` with the same globals and puts the compiled code
    in the stub's place (``__code__``), so callers that hold the stub call
    the fused code directly from then on, with no wrapper in between."""
    d = 1 + max((depth(p) for p in parts), default=0)
    if d > MAX_DEPTH:
        return fallback
    g = dict(env)
    run = types.FunctionType(_STUB, g, "fused")
    g["_fuse_self"], g["_fuse_now"], g["_fuse_fallback"] = run, _compile_into, fallback
    run.src, run.env, run.depth = src, env, d
    return run


def _stub(st, L):
    return _fuse_now(_fuse_self)(st, L)  # noqa: F821 - names of the stub's own globals


_STUB = _stub.__code__


def _compile_into(fn: Callable) -> Callable:
    """Compile a stub's source and give the stub the compiled code."""
    try:
        compiled = eval(compile(f"lambda st, L: {fn.src}", "<rule text>", "eval"), fn.__globals__)  # noqa: S307
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        compiled = _call_fallback
    fn.__code__ = compiled.__code__
    return fn


def _call_fallback(st, L):
    return _fuse_fallback(st, L)  # noqa: F821 - the stub's own globals


def has_src(*fns: Callable) -> bool:
    return all(getattr(f, "src", None) is not None for f in fns)


