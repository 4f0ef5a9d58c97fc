"""Which of the ruleset's functions are tables: computed once per argument tuple.

A function whose value depends only on its arguments and on what no rule
can change gives the same answer every time it is asked the same question:
``ray(s, d)``, the squares from ``s`` to the edge of the board, reads only
the board's fixed geometry, yet a game of Reversi asks it hundreds of times
a decision. Such a function is compiled as a front that looks its
arguments up in a table (``interpreter/tables.py``) and computes the body
only the first time.

What a function may read and be tabled (``static_functions``):

* its parameters, constants, the game's parameters and definitions, the
  number of players and the list of seats (fixed for a catalogue, and a
  catalogue is made per player count and parameters);
* fixed properties of components of types no rule creates in play (a
  created component's row is made in play, so it is part of the state);
  the components of such types; boards (spaces, neighbours, distances,
  lines), which are made from those rows and never change;
* the built-in operations on lists, numbers and texts listed in ``PURE``,
  and other functions that read only the same.

Anything else makes it a function of the state: a zone's contents, a
variable, a changing property, an owner, the seat order (players drop
out), whether a card is face up, a component's name (labels may read
changing properties), a draw at random, the event of a trigger.

A table costs a look-up at every call, so only functions that do work are
tabled (``worth``): a body with a query or a range in it, or one that calls
such a function. Its arguments must be values a table can be keyed by
(numbers, truth values, texts, seats, components, none, lists of these):
a map or a value of any type is not.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulebook.validator.ir import X, walk

# operations that compute from their operands alone (or from the catalogue's boards)
PURE = frozenset({
    "const", "local", "list", "players", "player_count", "param", "list_item", "text_item", "slice", "ifexpr",
    "not", "and", "or", "cmp", "cmp_sized", "in", "list_plus", "list_plus_one", "list_minus_one", "list_minus",
    "str_plus", "arith", "div", "neg", "not_none", "bool", "anylist", "copy", "as_list", "guarded", "len", "sum",
    "sum_by", "pick2", "pick", "pick_key", "best_by", "best_each", "sorted", "sort_by", "reverse", "filter", "map",
    "flatten", "all_not_none", "any_not_none", "all", "any", "all_by", "any_by", "first", "first_by", "last",
    "top_n", "bottom_n", "distinct", "distinct_lists", "distinct_by", "range", "abs", "index_of", "count_of",
    "seat", "neighbours", "distance", "space_at", "space_at2", "space_at_in", "within", "let_in", "lines",
})
# pure when the component's type is one no rule creates in play
OF_FIXED_TYPE = frozenset({"static", "static_get", "components", "type_of"})
# operations that visit many items: a function holding one is worth a table
ITERATING = frozenset({
    "sum_by", "pick_key", "best_by", "best_each", "sorted", "sort_by", "filter", "map", "flatten", "all_by",
    "any_by", "first_by", "distinct", "distinct_lists", "distinct_by", "range", "within", "lines", "components",
    "list_minus", "index_of", "count_of", "subsets",
})
ALWAYS_WORTH = frozenset({"range", "within", "lines", "components"})  # they make their items
KEY_KINDS = frozenset({"int", "bool", "str", "none", "player", "comp"})


@dataclass(frozen=True)
class Table:
    """How a tabled function's front keys its table."""

    reads: tuple  # the fixed properties it reads (a determinized sample shares the table when dealing keeps them)
    player: bool  # its body reads ``player``, which is then part of the key
    lists: tuple  # per parameter: whether its value may be a list (keyed as a tuple)


def static_functions(checked, created) -> dict:
    """Function variant key -> the fixed properties it reads, for every
    function that reads nothing a rule can change (and calls only such
    functions). ``created``: the component types rules create in play."""
    fns = checked.functions
    out: dict = {}
    refused: set = set()

    def reads_of(key) -> set | None:
        if key in out:
            return out[key]
        if key in refused:
            return None
        rule = fns[key]
        reads: set = set()
        ok = rule.event_slot < 0
        for n in walk(rule.body) if ok else ():
            if n.op in PURE:
                continue
            if n.op in OF_FIXED_TYPE and _fixed_type(n, created):
                if n.op in ("static", "static_get"):
                    reads.add(n.a[1])
                continue
            if n.op == "fn":
                inner = reads_of(n.a[0])
                if inner is not None:
                    reads |= inner
                    continue
            ok = False
            break
        if not ok:
            refused.add(key)
            return None
        out[key] = reads
        return reads

    for key in fns:
        reads_of(key)
    return out


def _fixed_type(n: X, created) -> bool:
    """Whether the component ``n`` reads of is of a type no rule creates in play."""
    if n.op == "static":
        return n.a[2] is not None and n.a[2] not in created
    if n.op == "components":
        return n.a[0] not in created
    return not created  # static_get, type_of: any type, so none may be created


def worth(checked, key, static: dict, known: dict | None = None) -> bool:
    """Whether the body does enough work to pay for a look-up: a query over
    items that are not given to it (a range, the components of a type, a
    board's spaces, a list of the definitions), or a call of a function that
    has one. A query over a list parameter or a local costs about what keying
    the table by that list would (``hashable`` visits every item), and such
    lists come from the state, so their tables would seldom be read again.
    ``known``: the answers found so far, so that each function is looked at
    once however many calls lead to it."""
    known = {} if known is None else known
    if key not in known:
        known[key] = False
        for n in walk(checked.functions[key].body):
            if n.op in ITERATING and (n.op in ALWAYS_WORTH or _items_of(n).op != "local"):
                known[key] = True
                break
            if n.op == "fn" and n.a[0] in static and worth(checked, n.a[0], static, known):
                known[key] = True
                break
    return known[key]


def _items_of(n: X) -> X:
    """The list a query visits: its first operand that is an expression."""
    return next(a for a in n.a if isinstance(a, X))


def keyable(t) -> bool:
    """Whether values of the type ``t`` can key a table (and keep apart values that are not equal)."""
    kind = getattr(t, "kind", None)
    if kind == "list":
        return keyable(t.arg)
    return kind in KEY_KINDS


def tabled_functions(checked, created) -> dict:
    """Function variant key -> its ``Table``, for the functions compiled as tables."""
    static = static_functions(checked, created)
    out: dict = {}
    worth_it: dict = {}
    by_player: dict = {}
    for key, reads in static.items():
        rule = checked.functions[key]
        if len(rule.param_types) != len(rule.params) or not all(keyable(t) for t in rule.param_types):
            continue
        if not worth(checked, key, static, worth_it):
            continue
        out[key] = Table(tuple(sorted(reads)), reads_player(checked, key, by_player),
                         tuple(t.kind == "list" for t in rule.param_types))
    return out


def reads_player(checked, key, known: dict | None = None) -> bool:
    """Whether the function's value may depend on ``player``, the seat it is
    asked for: its body reads it, other than by handing it to a function
    that does not. ``known``: the answers found so far (each function is
    looked at once)."""
    known = {} if known is None else known
    if key not in known:
        known[key] = _reads_player(checked, key, known)
    return known[key]


def _reads_player(checked, key, known: dict) -> bool:
    stack = [checked.functions[key].body]
    while stack:
        n = stack.pop()
        if not isinstance(n, X):
            if isinstance(n, (tuple, list)):
                stack.extend(n)
            continue
        if n.op == "local" and n.a[0] == 0:
            return True
        if n.op == "fn":
            callee, player, event, args = n.a
            if reads_player(checked, callee, known):
                stack.append(player)
            stack.extend(args)
            if isinstance(event, X):
                stack.append(event)
            continue
        stack.extend(n.a)
    return False


def write_front(m, key, rule, name: str, value_name: str, table: Table) -> None:
    """``name``, the function callers call: the value from its table, or
    computed by ``value_name`` (the function's body) and kept there."""
    code = m.function_def(key, rule, name)
    params = [code.local(s) for s in rule.params]
    parts = (["player"] if table.player else []) + [
        f"hashable({p})" if is_list else p for p, is_list in zip(params, table.lists)]
    key_src = parts[0] if len(parts) == 1 else "(" + "".join(p + ", " for p in parts) + ")"
    args = ", ".join(["player", *params])
    with code.block():
        code.line("# a table: the body (below, as its own function) runs once per argument tuple")
        code.line(f"_k = {key_src}")
        code.line("try:")
        with code.block():
            code.line(f"_v, _w = st.cat.columns.tables[{name!r}][_k]")
        code.line("except KeyError:")
        with code.block():
            code.line(f"return tabled(st, {name!r}, {m.const(table.reads)}, _k, {value_name}, {args})")
        code.line("st.work += _w")
        code.line(f"if st.work > {code.limit('max_work')}: over_budget(st, 'calls')")
        code.line("return _v")
